/* main.c: options -> headless run or dashboard; nothing else. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#if defined(HAVE_NCURSESW_CURSES_H)
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#else
#include <curses.h>
#include <term.h>
#endif

#include "wtg/conditions.h"
#include "wtg/experiment.h"
#include "wtg/gate.h"
#include "wtg/guard.h"
#include "wtg/load.h"
#include "wtg/options.h"
#include "wtg/paths.h"
#include "wtg/plan.h"
#include "wtg/replicate.h"
#include "wtg/report.h"
#include "wtg/session.h"
#include "wtg/stats.h"
#include "wtg/tui.h"
#include "wtg/util.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* While reports are written, INT, TERM and HUP end wtg at once: every temp file and the data file
 * removed, one line, then death by the signal (wtg_fatal_die). */
static void die_on_signals(void)
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

/* Any thread (only the faults reach the others): a guarded read escapes, anything else dies. */
static void on_crash(int sig)
{
	wtg_guard_escape(sig);
	wtg_fatal_die(sig);
}

/* A closed stdin, stdout or stderr would be taken by the next descriptor wtg opens (the report would
 * go into the wake-up eventfd): hold each closed one open on /dev/null. */
static void open_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		if (n >= 0 && n != fd) {	/* the lowest free number is fd: not reached */
			dup2(n, fd);
			close(n);
		}
	}
}

/* The dashboard needs a terminal type that terminfo knows and that can move the cursor; anything
 * else (unset, unknown, dumb, hardcopy) is a usage problem: one line pointing to --run, exit 2. */
static int check_terminal(void)
{
	const char *hint = "; use --run=LIST for headless output";
	const char *term = getenv("TERM");
	if (!term || !*term) {
		wtg_error("TERM is not set: the dashboard needs a terminal type%s (see 'wtg --help')", hint);
		return 2;
	}
	int err = 0;
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		if (err == 0)
			wtg_error("unknown terminal type TERM=%s (no terminfo entry)%s (see 'wtg --help')", term,
				  hint);
		else
			wtg_error("no terminfo database for TERM=%s%s (see 'wtg --help')", term, hint);
		return 2;
	}
	const char *cup = tigetstr("cup");
	bool usable = cup && cup != (char *)-1 && tigetflag("hc") <= 0 && tigetflag("gn") <= 0;
	del_curterm(cur_term);
	if (!usable) {
		wtg_error("the terminal TERM=%s cannot move the cursor, which the dashboard needs%s "
			  "(see 'wtg --help')", term, hint);
		return 2;
	}
	return 0;
}

static void list_experiments(void)
{
	for (int i = 0; i < wtg_nexperiments; i++) {
		const struct wtg_experiment *e = wtg_experiments[i];
		char took[32] = "";
		int full = wtg_experiment_typical_s(e, false), quick = wtg_experiment_typical_s(e, true);
		if (full > 0)
			snprintf(took, sizeof took, "~%d s (quick ~%d s)", full, quick);
		printf("%-10s %-10s %-20s %s\n", e->name, wtg_view_name(e->view), took, e->question);
	}
}

static void apply_start_conditions(const struct wtg_options *o)
{
	if (o->burn > 0)
		wtg_burner_set_kind(o->burn, (enum wtg_burn_kind)o->burn_kind);
	wtg_policy_request(o->background);
	wtg_uncached_request(o->uncached);
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
	if (cur->work_total > 0) {
		struct wtg_run_progress pr = { .work_done = cur->work_done, .work_total = cur->work_total };
		double frac;
		return wtg_progress_left_ns(&pr, &frac) / 1e9;
	}
	int done = cur->step - 1;	/* step k of n: k - 1 finished */
	if (cur->nsteps > 0 && done >= 1 && done <= cur->nsteps)
		return in * (cur->nsteps - done) / done;
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
	if (cur.nsteps > 0)
		snprintf(step, sizeof step, "step %d of %d", cur.step, cur.nsteps);
	snprintf(line, sizeof line, "[%d/%d] %s: %s%s%s%s", done + 1, p->total, wtg_experiments[cur.idx]->name,
		 step, cur.label[0] ? ", " : "", cur.label, left);
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

/* Size of what a save wrote, for the summary ("12.3K"), "" when it cannot be told. */
static void written_size(const char *path, char *buf, size_t len)
{
	struct stat st;
	buf[0] = '\0';
	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
		wtg_fmt_size(buf, len, (uint64_t)st.st_size);
}

/* The text summary beside -o files: one line per experiment, what was written, the closing line. */
/* A saved run read back, written without a session (--load with --format or -o). */
struct saved_src {
	const struct wtg_report_meta *m;
	const struct wtg_table *const *tables;
};

static void print_summary(struct wtg_session *s, const struct saved_src *sv, const struct wtg_options *o,
			  const bool *written)
{
	for (int i = 0; i < wtg_nexperiments; i++) {
		if (!o->selected[i])
			continue;
		/* a saved run's tables are this thread's alone; a session's, its worker's too */
		const struct wtg_table *t = sv ? sv->tables[i] : &s->tables[i];
		int ok, warn, fail;
		if (!sv)
			pthread_mutex_lock(&s->tables[i].lock);
		wtg_table_count_checks(t, &ok, &warn, &fail);
		printf("  %-10s %-9s %4d row%s  checks %d ok, %d warn, %d failed\n", wtg_experiments[i]->name,
		       wtg_report_state_name(t->state), t->nrows, t->nrows == 1 ? " " : "s", ok, warn, fail);
		if (!sv)
			pthread_mutex_unlock(&s->tables[i].lock);
	}
	for (int i = 0; i < o->noutputs; i++) {
		if (!written[i])
			continue;
		char size[32];
		written_size(o->outputs[i].path, size, sizeof size);
		fputs("wrote ", stdout);
		wtg_escape_put(stdout, o->outputs[i].path);
		printf(" (%s%s%s)\n", wtg_writers[o->outputs[i].format].name, size[0] ? ", " : "", size);
	}
	if (sv)
		wtg_report_summary_line(stdout, sv->m);
	else
		wtg_report_summary(stdout, s, o->selected);
}

static bool output_is_stdout(const struct wtg_options *o)
{
	for (int i = 0; i < o->noutputs; i++)
		if (wtg_report_is_stdout(o->outputs[i].path))
			return true;
	return false;
}

/* Write every -o, then the report or the summary on standard output. A closed pipe ends quietly
 * (as other tools die of SIGPIPE). Returns the exit status so far, updated. */
static int write_outputs(struct wtg_session *s, const struct saved_src *sv, const struct wtg_options *o,
			 int status, bool comparing)
{
	bool written[WTG_MAX_OUTPUTS] = { false }, stdout_failed = false;
	for (int i = 0; i < o->noutputs; i++) {
		char err[512];
		const char *path = o->outputs[i].path;
		enum wtg_format fmt = o->outputs[i].format;
		if ((sv ? wtg_report_save_meta(path, fmt, sv->m, sv->tables, err, sizeof err) :
			  wtg_report_save(path, fmt, s, o->selected, err, sizeof err)) == 0) {
			written[i] = true;
			continue;
		}
		if (errno == EPIPE)
			return 128 + SIGPIPE;
		wtg_error("%s", err);
		stdout_failed |= wtg_report_is_stdout(path);
		status = 1;
	}
	errno = 0;
	int rc = 0;
	if (o->noutputs == 0 && !comparing)
		rc = sv ? wtg_report_write_meta(stdout, o->format, sv->m, sv->tables) :
			  wtg_report_write(stdout, o->format, s, o->selected);
	else if (o->noutputs && !o->quiet && !output_is_stdout(o) && !comparing)
		print_summary(s, sv, o, written);
	if (!stdout_failed && (rc < 0 || fflush(stdout) != 0 || ferror(stdout))) {
		if (errno == EPIPE)
			return 128 + SIGPIPE;
		fprintf(stderr, "wtg: writing the report: %s\n", strerror(errno ? errno : EIO));
		status = 1;
	}
	return status;
}

/* The saved runs of --baseline (first) and --load, read before anything measures: a file each, or
 * a --replicate document's runs. */
#define MAX_SAVED (WTG_MAX_LOADS + WTG_MAX_REPLICATES)
static struct {
	struct wtg_loaded l[MAX_SAVED];
	int n;
	int nbase;	/* --baseline's runs (a --replicate document's: 4 or more), the first of l */
} saved;

static void free_saved(void)
{
	for (int i = 0; i < saved.n; i++)
		wtg_loaded_free(&saved.l[i]);
	saved.n = 0;
	saved.nbase = 0;
}

/* Read every file; a bad one is a usage error: one line, exit 2. */
static int load_saved(const struct wtg_options *o)
{
	const char *files[WTG_MAX_LOADS + 1];
	int n = 0;
	if (o->baseline)
		files[n++] = o->baseline;
	for (int i = 0; i < o->nloads; i++)
		files[n++] = o->loads[i];
	for (int i = 0; i < n; i++) {
		char err[1024];
		int got = 0;
		if (wtg_load_file_runs(files[i], &saved.l[saved.n], MAX_SAVED - saved.n, &got, err, sizeof err) < 0) {
			wtg_error("%s", err);
			free_saved();
			return 2;
		}
		for (int k = 0; k < got; k++)
			if (saved.l[saved.n + k].skipped[0])
				wtg_error("warning: %s: experiments this wtg does not know, left out: %s",
					  saved.l[saved.n + k].meta.path, saved.l[saved.n + k].skipped);
		saved.n += got;
		if (i == 0 && o->baseline)
			saved.nbase = got;
		if (got > 1 && got < 4 && i == 0 && o->baseline) {
			wtg_error("--baseline=%s: a --replicate document of %d runs; a baseline of several runs needs "
				  "4 or more to say where a next run falls", files[i], got);
			free_saved();
			return 2;
		}
	}
	return 0;
}

/* No file read is written, nothing written twice (src/cli/paths.c): with one --load its own
 * experiments are what is written, else --run's. */
static int check_files(const struct wtg_options *o)
{
	if (o->mode == WTG_MODE_LOAD && saved.n == 1) {
		struct wtg_report_meta m;
		const struct wtg_table *tables[WTG_MAX_EXP];
		wtg_loaded_report_meta(&saved.l[0], &m, tables);
		return wtg_check_paths(o, m.wanted);
	}
	return wtg_check_paths(o, o->selected);
}

static void gate_run_of(struct wtg_gate_run *r, const struct wtg_run_meta *m, struct wtg_table *tables,
			const bool *present)
{
	memset(r, 0, sizeof *r);
	r->meta = m;
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++)
		r->tables[i] = present[i] ? &tables[i] : NULL;
}

/* What writes a comparison or the replicated runs into a file: returns >= 0 (regressions, figures
 * that warned), or -1 on a write error. */
typedef int (*whole_fn)(FILE *f, enum wtg_format fmt, const void *arg);

/* A whole_fn as a report another writer makes (wtg_report_save_with), keeping what it returned. */
struct whole {
	whole_fn write;
	enum wtg_format fmt;
	const void *arg;
	int ret;
};

static int write_whole(FILE *f, void *arg)
{
	struct whole *w = arg;
	w->ret = w->write(f, w->fmt, w->arg);
	return w->ret < 0 ? -1 : 0;
}

/* path written by write, whole or not at all, as a report is saved. Returns what write returned, or
 * -1. */
static int save_whole(const char *path, enum wtg_format fmt, whole_fn write, const void *arg)
{
	struct whole w = { write, fmt, arg, 0 };
	char err[512];
	if (wtg_report_save_with(path, write_whole, &w, err, sizeof err) < 0) {
		wtg_error("%s", err);
		return -1;
	}
	return w.ret;
}

struct comparison {
	const struct wtg_gate_run *runs;
	int n;
	int nbase;		/* the baseline's runs (1 without a baseline) */
	double thr;
	uint64_t seed;
	bool replication;	/* one machine, one set of options: the replication table too */
};

static int write_comparison(FILE *f, enum wtg_format fmt, const void *arg)
{
	const struct comparison *c = arg;
	return wtg_gate_report_base(f, fmt, c->runs, c->n, c->nbase, c->thr, c->seed,
				    c->replication ? wtg_replication_report : NULL);
}

/* The comparison (or the gate) on standard output, or into each -o when nothing was measured.
 * Returns 0, 3 for a regression under --baseline, 1 for a write error. */
static int compare_out(const struct wtg_options *o, const struct wtg_gate_run *runs, int n)
{
	int differ = wtg_gate_warn_differences(stderr, runs, n);
	struct comparison c = { runs, n, o->baseline && saved.nbase > 1 ? saved.nbase : 1,
				o->baseline ? o->threshold_pct : 0, o->seed,
				o->mode == WTG_MODE_LOAD && !o->baseline && differ == 0 };
	int reg = 0;
	if (o->mode == WTG_MODE_LOAD && o->noutputs) {
		for (int i = 0; i < o->noutputs; i++)
			if ((reg = save_whole(o->outputs[i].path, o->outputs[i].format, write_comparison, &c)) < 0)
				return 1;
	} else {
		reg = write_comparison(stdout, o->format, &c);
	}
	if (reg < 0 || fflush(stdout) != 0) {
		wtg_error("writing the comparison: %s", strerror(errno ? errno : EIO));
		return 1;
	}
	return o->baseline && reg > 0 ? WTG_EXIT_REGRESSION : 0;
}

/* --load without --run: one file converts to any format; several (or a --baseline) compare. */
static int run_load(const struct wtg_options *o)
{
	signal(SIGXFSZ, SIG_IGN);
	die_on_signals();
	if (saved.n == 1) {
		/* the saved run as it was: its machine, options, start and label, not this invocation's */
		struct wtg_report_meta m;
		const struct wtg_table *tables[WTG_MAX_EXP];
		wtg_loaded_report_meta(&saved.l[0], &m, tables);
		if (o->label)
			m.label = o->label;
		struct wtg_options conv = *o;
		memcpy(conv.selected, m.wanted, sizeof conv.selected);
		struct saved_src sv = { &m, tables };
		return write_outputs(NULL, &sv, &conv, 0, false);
	}
	struct wtg_gate_run runs[MAX_SAVED];
	for (int i = 0; i < saved.n; i++)
		gate_run_of(&runs[i], &saved.l[i].meta, saved.l[i].tables, saved.l[i].present);
	return compare_out(o, runs, saved.n);
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

struct replicas_out {
	const struct wtg_replicas *rp;
	uint64_t seed;
};

static int write_replicas(FILE *f, enum wtg_format fmt, const void *arg)
{
	const struct replicas_out *x = arg;
	return wtg_replicas_write(f, fmt, x->rp, x->seed);
}

/* Every run whole and the replication table: on standard output, or into each -o (then the table
 * alone on standard output unless --quiet or an -o is standard output). Returns the exit status. */
static int replicas_out(struct wtg_replicas *rp, const struct wtg_options *o)
{
	const struct replicas_out x = { rp, o->seed };
	for (int i = 0; i < o->noutputs; i++)
		if (save_whole(o->outputs[i].path, o->outputs[i].format, write_replicas, &x) < 0)
			return 1;
	int rc = 0;
	if (o->noutputs == 0)
		rc = write_replicas(stdout, o->format, &x);
	else if (!o->quiet && !output_is_stdout(o)) {
		struct wtg_gate_run runs[WTG_MAX_REPLICATES];
		for (int r = 0; r < rp->n; r++) {
			memset(&runs[r], 0, sizeof runs[r]);
			gate_run_of(&runs[r], &rp->l[r].meta, rp->l[r].tables, rp->l[r].present);
		}
		rc = wtg_replication_report(stdout, WTG_FMT_TEXT, runs, rp->n, o->seed);
	}
	if (rc < 0 || fflush(stdout) != 0) {
		if (errno == EPIPE)
			return 128 + SIGPIPE;
		wtg_error("writing the runs: %s", strerror(errno ? errno : EIO));
		return 1;
	}
	return 0;
}

/* --replicate=N: the selected experiments N times, each pass in an order the seeded generator
 * shuffles afresh, so that each experiment's runs alternate with the others'; every pass is kept
 * whole (its JSON report, read back as a saved run) for the replication table. */
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

static int run_replicated(struct wtg_session *s, const struct wtg_options *o)
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
		status = replicas_out(&rp, o);
	wtg_replicas_free(&rp);
	return status;
}

static int run_headless(struct wtg_session *s, const struct wtg_options *o)
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
	die_on_signals();
	if (got_signal) {
		int sig = got_signal;
		wtg_session_shutdown(s);
		fprintf(stderr, "wtg: stopped by signal %d (%s)\n", sig, strsignal(sig));
		return 128 + sig;
	}
	/* the report first, written whole; then a line for each experiment that failed or stopped */
	int status = write_outputs(s, NULL, o, 0, saved.n > 0);
	if (status > 128)	/* a closed pipe: end quietly */
		return status;
	status = report_failures(s, o) ? 1 : status;
	if (saved.n == 0)
		return status;
	/* then the live run beside the saved ones (the baseline first) */
	struct wtg_run_meta live;
	wtg_run_meta_live(&live, s);
	struct wtg_gate_run runs[MAX_SAVED + 1];
	int n = 0;
	for (int i = 0; i < saved.n; i++)
		gate_run_of(&runs[n++], &saved.l[i].meta, saved.l[i].tables, saved.l[i].present);
	gate_run_of(&runs[n++], &live, s->tables, o->selected);
	int rc = compare_out(o, runs, n);
	return rc == 1 || status == 1 ? 1 : rc ? rc : status;
}

int main(int argc, char **argv)
{
	open_std_fds();
	setlocale(LC_ALL, "");
	/* numbers in every report and in the texts experiments format ('CI [214.0, 226.0]') use '.'
	 * whatever the user's LC_NUMERIC says: one convention per report */
	setlocale(LC_NUMERIC, "C");
	struct wtg_options o;
	int rc = wtg_parse_options(argc, argv, &o);
	if (rc)
		return rc;
	switch (o.mode) {
	case WTG_MODE_HELP:
		wtg_print_help(stdout);
		return 0;
	case WTG_MODE_VERSION:
		wtg_print_version(stdout);
		return 0;
	case WTG_MODE_LIST:
		list_experiments();
		return 0;
	case WTG_MODE_CHILD:
		return wtg_faultbase_child(o.child_mode, o.child_path);
	case WTG_MODE_DRYRUN:
		return wtg_plan_main(stdout, &o);
	default:
		break;
	}
	/* --load on a terminal, with no format, output or baseline asked for: the dashboard on them */
	bool load_dash = o.mode == WTG_MODE_LOAD && !o.format_given && !o.noutputs && !o.baseline &&
			 isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	if (load_dash && (rc = check_terminal()) != 0)
		return rc;
	if (o.mode == WTG_MODE_DASHBOARD && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "wtg: the dashboard needs a terminal; use --run=LIST for headless output "
				"(see 'wtg --help')\n");
		return 2;
	}
	if (o.mode == WTG_MODE_DASHBOARD && (rc = check_terminal()) != 0)
		return rc;
	wtg_fatal_install(on_crash, NULL);
	signal(SIGPIPE, SIG_IGN);

	if ((o.nloads || o.baseline) && (rc = load_saved(&o)) != 0)
		return rc;
	if (load_dash && saved.n > WTG_MAX_LOADS) {
		wtg_error("the dashboard lays at most %d saved runs over each view; these files hold %d (a --replicate "
			  "document counts each of its runs): give --format or -o for the comparison",
			  WTG_MAX_LOADS, saved.n);
		free_saved();
		return 2;
	}
	if ((o.mode == WTG_MODE_RUN || (o.mode == WTG_MODE_LOAD && !load_dash)) && (rc = check_files(&o)) != 0) {
		free_saved();
		return rc;
	}
	if (o.mode == WTG_MODE_LOAD && !load_dash) {	/* saved runs written or compared: nothing measures, no session */
		rc = run_load(&o);
		free_saved();
		return rc;
	}
	static struct wtg_session s;
	if (wtg_session_init(&s, &o, "/proc/self/exe") < 0)
		return 1;
	apply_start_conditions(&o);
	int status;
	if (load_dash)
		status = wtg_tui_main_loaded(&s, saved.l, saved.n);
	else if (o.mode == WTG_MODE_RUN && o.replicate)
		status = run_replicated(&s, &o);
	else if (o.mode == WTG_MODE_RUN)
		status = run_headless(&s, &o);
	else
		status = wtg_tui_main(&s);
	wtg_session_shutdown(&s);
	free_saved();
	return status;
}
