/* run.c: the headless program's run: the experiments queued, a wait on the worker showing a
 * self-erasing progress line, signals, the failures named, and --replicate's passes. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "wtg/experiment.h"
#include "wtg/testhooks.h"
#include "wtg/plan.h"
#include "wtg/util.h"

#include "headless_int.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

void wtg_hl_die_on_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = wtg_fatal_die;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < WTG_ARRAY_LEN(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* After the report: one line for the data file's failure, and one for each experiment that failed or
 * stopped before its end (starved, cancelled), naming why. Returns whether there was any. */
static bool report_failures(struct wtg_session *s, const struct wtg_options *o)
{
	bool any = false, df_failed = atomic_load(&s->df_state) == WTG_DF_FAILED;
	if (df_failed) {
		wtg_error("data file: %s", s->df_error);
		any = true;
	}
	for (int i = 0; i < wtg_nexperiments; i++) {
		struct wtg_table *t = &s->tables[i];
		if (!o->selected[i])
			continue;
		char error[sizeof t->error];
		pthread_mutex_lock(&t->lock);
		/* stopped (starved, cancelled) is a failure too: the experiment did not run to its end */
		bool failed = t->state == WTG_FAILED || t->state == WTG_STOPPED;
		memcpy(error, t->error, sizeof error);
		pthread_mutex_unlock(&t->lock);
		if (!failed)
			continue;
		if (!df_failed)	/* then every experiment that needed it failed for that reason */
			wtg_error("%s: %s", wtg_experiments[i]->name, error);
		any = true;
	}
	return any;
}

/* The self-erasing progress line on stderr: which experiment of how many, its step, the time the
 * run has taken and an estimate of the time it has left. */
struct progress {
	bool on, shown;
	int total;
	int64_t start_ns;
	double est_s[WTG_MAX_EXP];	/* each selected experiment's --dry-run estimate */
};

static void progress_begin(struct progress *p, struct wtg_session *s, const struct wtg_options *o)
{
	p->start_ns = wtg_now_ns();
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++) {
		p->total += o->selected[i];
		if (p->on && o->selected[i])
			p->est_s[i] = wtg_plan_seconds(wtg_experiments[i], o, &s->machine, &s->topo);
	}
}

/* Seconds the current experiment has left: from the work it reports (each step by its cost), else
 * from the share of its steps done once one is, else its estimate less the time it has run (never
 * below 0). */
static double current_left_s(const struct progress *p, const struct wtg_run_status *cur, int64_t now)
{
	double in = cur->started_ns > 0 ? (double)(now - cur->started_ns) / 1e9 : 0;
	const struct wtg_run_progress *pr = &cur->progress;
	if (pr->work_total > 0) {	/* the work declared still to come */
		double frac;
		return wtg_progress_left_ns(pr, 0, &frac) / 1e9;
	}
	int done = pr->step - 1;	/* step k of n: k - 1 finished */
	if (pr->nsteps > 0 && done >= 1 && done <= pr->nsteps)
		return in * (pr->nsteps - done) / done;
	double left = p->est_s[cur->idx] - in;
	return left > 0 ? left : 0;
}

static void progress_clear(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = false;
}

static void progress_show(struct progress *p, struct wtg_session *s, const struct wtg_options *o)
{
	struct wtg_run_status cur, st;
	wtg_session_status(s, -1, &cur);
	if (!p->on || cur.idx < 0 || cur.idx >= wtg_nexperiments)
		return;
	int done = 0;
	int64_t now = wtg_now_ns();
	double left_s = current_left_s(p, &cur, now);
	for (int i = 0; i < wtg_nexperiments; i++) {
		if (!o->selected[i] || i == cur.idx)
			continue;
		wtg_session_status(s, i, &st);
		done += st.state != WTG_IDLE && st.state != WTG_RUNNING;
		left_s += st.state == WTG_IDLE ? p->est_s[i] : 0;	/* still queued */
	}
	char line[320], took[32], est[32], left[96];
	wtg_plan_duration(took, sizeof took, (double)(now - p->start_ns) / 1e9);
	wtg_plan_duration(est, sizeof est, left_s);
	snprintf(left, sizeof left, "; %s elapsed, left %s%s", took, left_s < 0.5 ? "" : "~", est);
	char step[32] = "starting";
	if (cur.progress.nsteps > 0)
		snprintf(step, sizeof step, "step %d of %d", cur.progress.step, cur.progress.nsteps);
	snprintf(line, sizeof line, "[%d/%d] %s: %s%s%s%s", done + 1, p->total, wtg_experiments[cur.idx]->name,
		 step, cur.progress.label[0] ? ", " : "", cur.progress.label, left);
	struct winsize ws;
	int width = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 ? ws.ws_col - 1 : 79;
	for (char *c = line; *c; c++)	/* one line, whatever a label holds */
		if ((unsigned char)*c < 0x20)
			*c = ' ';
	fprintf(stderr, "\r\033[K%.*s", width, line);
	fflush(stderr);
	p->shown = true;
}

/* Wait for the queue to drain, a signal, showing progress. */
static void wait_run(struct wtg_session *s, const struct wtg_options *o, struct progress *pr)
{
	for (;;) {
		struct pollfd p = { .fd = s->wake_fd, .events = POLLIN };
		int r = poll(&p, 1, 200);
		if (r > 0)
			wtg_session_drain_wake(s);
		if (got_signal)
			break;
		if (atomic_load(&s->df_state) != WTG_DF_PREPARING && wtg_session_idle(s))
			break;
		progress_show(pr, s, o);
	}
	progress_clear(pr);
}

/* A headless run's signals and progress line. */
static void headless_begin(struct wtg_session *s, const struct wtg_options *o, struct progress *pr)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a file size limit fails the write (EFBIG) with a message instead of killing wtg */
	signal(SIGXFSZ, SIG_IGN);
	*pr = (struct progress){ .on = o->progress == WTG_PROGRESS_ALWAYS ||
				       (o->progress == WTG_PROGRESS_AUTO && isatty(STDERR_FILENO)) };
	progress_begin(pr, s, o);
}

/* --gap: seconds between two runs of --replicate, a signal ending the wait (looked at every 100 ms);
 * the progress line says so while it lasts. */
static void wait_gap(double gap_s, struct progress *pr)
{
	if (!(gap_s > 0))
		return;
	if (pr->on)
		fprintf(stderr, "\r\033[Kwtg: --gap: the next run in %.3g s", gap_s);
	int64_t end = wtg_now_ns() + (int64_t)(gap_s * 1e9);
	for (int64_t now = wtg_now_ns(); now < end && !got_signal; now = wtg_now_ns()) {
		int64_t left = end - now < 100000000 ? end - now : 100000000;
		struct timespec ts = { (time_t)(left / 1000000000), (long)(left % 1000000000) };
		nanosleep(&ts, NULL);
	}
	if (pr->on)
		fputs("\r\033[K", stderr);
}

/* The selected experiments' registry indices, in registry order, into order; returns how many. */
static int selected_order(const struct wtg_options *o, int *order)
{
	int n = 0;
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++)
		if (o->selected[i])
			order[n++] = i;
	return n;
}

/* --replicate=N: the selected experiments N times, each pass in an order the seeded generator
 * shuffles afresh, so that each experiment's runs alternate with the others'; every pass is kept
 * whole (its JSON report, read back as a saved run) for the replication table. */
int wtg_headless_replicate(struct wtg_session *s, const struct wtg_options *o)
{
	struct progress pr;
	headless_begin(s, o, &pr);
	struct wtg_replicas rp;
	s->interleave = true;
	if (wtg_replicas_init(&rp) < 0 || wtg_session_start(s) < 0) {
		wtg_replicas_free(&rp);
		return 1;
	}
	struct wtg_rng rng;
	wtg_rng_seed(&rng, o->seed ^ 0x7265706c69636174ull);
	int status = 0;
	for (int r = 0; r < o->replicate && !got_signal && status == 0; r++) {
		if (r > 0)
			wait_gap(o->gap_s, &pr);
		if (got_signal)
			break;
		int order[WTG_MAX_EXP], n = selected_order(o, order);
		wtg_shuffle_int(&rng, order, (size_t)n);
		wtg_report_run_begin();
		wtg_session_enqueue_all(s, order, n);
		wait_run(s, o, &pr);
		wtg_report_run_end();
		char err[1024];
		if (got_signal)
			break;
		if (report_failures(s, o))
			status = 1;
		else if (wtg_replicas_take(&rp, s, o->selected, order, n, err, sizeof err) < 0) {
			wtg_error("%s", err);
			status = 1;
		}
	}
	if (got_signal) {
		int sig = got_signal;
		wtg_session_shutdown(s);
		wtg_replicas_free(&rp);
		fprintf(stderr, "wtg: stopped by signal %d (%s)\n", sig, strsignal(sig));
		return 128 + sig;
	}
	if (status == 0)
		status = wtg_hl_replicas_out(&rp, o);
	wtg_replicas_free(&rp);
	return status;
}

int wtg_headless_run(struct wtg_session *s, const struct wtg_options *o, struct wtg_saved_runs *sr)
{
	struct progress pr;
	headless_begin(s, o, &pr);
	s->interleave = true;
	wtg_report_run_begin();
	if (wtg_session_start(s) < 0)
		return 1;
	int order[WTG_MAX_EXP], nsel = selected_order(o, order);
	wtg_session_enqueue_all(s, order, nsel);
	wait_run(s, o, &pr);
	wtg_report_run_end();
	wtg_hook_before_write(&got_signal);
	wtg_hl_die_on_signals();
	if (got_signal) {
		int sig = got_signal;
		wtg_session_shutdown(s);
		fprintf(stderr, "wtg: stopped by signal %d (%s)\n", sig, strsignal(sig));
		return 128 + sig;
	}
	/* the report first, written whole; then a line for each experiment that failed or stopped */
	int status = wtg_hl_write_outputs(s, NULL, o, 0, sr->n > 0);
	if (status > 128)	/* a closed pipe: end quietly */
		return status;
	status = report_failures(s, o) ? 1 : status;
	if (sr->n == 0)
		return status;
	/* then the live run beside the saved ones (the baseline first) */
	struct wtg_run_meta live;
	wtg_run_meta_live(&live, s);
	struct wtg_gate_run runs[WTG_MAX_SAVED + 1];
	int n = 0;
	for (int i = 0; i < sr->n; i++)
		wtg_hl_gate_run(&runs[n++], &sr->l[i].meta, sr->l[i].tables, sr->l[i].present);
	wtg_hl_gate_run(&runs[n++], &live, s->tables, o->selected);
	int rc = wtg_hl_compare_out(o, sr->nbase, runs, n);
	return rc == 1 || status == 1 ? 1 : rc ? rc : status;
}
