/* session.c: the worker thread, its queue, the data file's life, and the starvation watchdog. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "wtg/conditions.h"
#include "wtg/ctx.h"
#include "wtg/guard.h"
#include "wtg/probe.h"
#include "wtg/relay.h"
#include "wtg/arms.h"
#include "wtg/session.h"
#include "wtg/testhooks.h"
#include "wtg/stats.h"
#include "wtg/util.h"

const int wtg_fatal_signals[WTG_NFATAL_SIGNALS] = {
	SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGQUIT, SIGTRAP, SIGSYS, SIGXCPU, SIGXFSZ,
	SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
};

/* The cleanup a layer above adds (the report writer's temp files): set before such a file exists,
 * read by the handlers. */
static void (*_Atomic emergency_hook)(void);

void wtg_session_on_emergency(void (*cleanup)(void))
{
	atomic_store(&emergency_hook, cleanup);
}

void wtg_session_emergency_cleanup(void)
{
	void (*hook)(void) = atomic_load(&emergency_hook);
	if (hook)
		hook();
	wtg_datafile_emergency_remove();
}

int wtg_fatal_install(void (*handler)(int), struct sigaction *old)
{
	int rc = 0;
	for (int i = 0; i < WTG_NFATAL_SIGNALS; i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = handler;
		sigemptyset(&sa.sa_mask);
		/* SIGBUS keeps its handler: a guarded read escapes it and may meet it again */
		sa.sa_flags = wtg_fatal_signals[i] == SIGBUS ? 0 : SA_RESETHAND;
		if (sigaction(wtg_fatal_signals[i], &sa, old ? &old[i] : NULL) < 0)
			rc = -1;
	}
	return rc;
}

static const char *fatal_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "segmentation fault";
	case SIGBUS: return "bus error";
	case SIGABRT: return "aborted";
	case SIGFPE: return "arithmetic exception";
	case SIGILL: return "illegal instruction";
	case SIGQUIT: return "quit";
	case SIGTRAP: return "trace trap";
	case SIGSYS: return "bad system call";
	case SIGXCPU: return "CPU time limit exceeded";
	case SIGXFSZ: return "file size limit exceeded";
	case SIGINT: return "interrupt";
	case SIGTERM: return "terminated";
	case SIGHUP: return "hangup";
	default: return "fatal signal";
	}
}

void wtg_fatal_die(int sig)
{
	wtg_session_emergency_cleanup();
	/* "wtg: killed by signal N (name)", built by hand: no stdio in a handler */
	char msg[96] = "wtg: killed by signal ";
	size_t n = strlen(msg);
	char digits[8];
	int nd = 0;
	for (int v = sig; v > 0 && nd < (int)sizeof digits; v /= 10)
		digits[nd++] = (char)('0' + v % 10);
	while (nd > 0)
		msg[n++] = digits[--nd];
	const char *name = fatal_name(sig);
	msg[n++] = ' ';
	msg[n++] = '(';
	for (size_t i = 0; name[i] && n < sizeof msg - 3; i++)
		msg[n++] = name[i];
	msg[n++] = ')';
	msg[n++] = '\n';
	(void)!write(STDERR_FILENO, msg, n);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void wake(struct wtg_session *s)
{
	uint64_t one = 1;
	if (s->wake_fd >= 0)
		(void)!write(s->wake_fd, &one, sizeof one);
}

void wtg_session_drain_wake(struct wtg_session *s)
{
	uint64_t v;
	while (s->wake_fd >= 0 && read(s->wake_fd, &v, sizeof v) == (ssize_t)sizeof v)
		;
}

bool wtg_need_datafile(const struct wtg_options *o, const struct wtg_experiment *const *exps, int nexp)
{
	if (o->mode == WTG_MODE_LOAD)	/* saved runs only: nothing measures */
		return false;
	if (o->mode != WTG_MODE_RUN) {
		/* the dashboard can run any of its tabs */
		for (int i = 0; i < o->norder; i++)
			if (o->order[i] < nexp && exps[o->order[i]]->needs_datafile)
				return true;
		return false;
	}
	for (int i = 0; i < nexp; i++)
		if (o->selected[i] && exps[i]->needs_datafile)
			return true;
	return false;
}

int wtg_session_open(struct wtg_session *s, const struct wtg_options *opt, const char *argv0,
		     const struct wtg_experiment *const *exps, int nexp, const struct wtg_compare_pair *pair)
{
	memset(s, 0, sizeof *s);
	s->opt = opt;
	s->exps = exps;
	s->nexp = nexp < WTG_MAX_EXP ? nexp : WTG_MAX_EXP;
	s->argv0 = argv0;
	s->current = -1;
	s->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s->wake_fd < 0) {
		wtg_error("eventfd: %s", strerror(errno));
		return -1;
	}
	if (!opt->file && wtg_need_datafile(opt, exps, s->nexp))
		wtg_datafile_sweep(opt->dir);
	pthread_mutex_init(&s->qlock, NULL);
	pthread_cond_init(&s->qcond, NULL);
	pthread_mutex_init(&s->watch_lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->watch_cond, &ca);
	pthread_condattr_destroy(&ca);
	s->compare = *pair;
	wtg_machine_read(&s->machine);
	wtg_topology_read(&s->topo, NULL);
	wtg_topology_summary(&s->topo, s->topo_summary, sizeof s->topo_summary);
	for (int i = 0; i < s->nexp; i++) {
		wtg_table_init(&s->tables[i], exps[i]);
		wtg_table_init(&s->prev[i], exps[i]);
		s->tables[i].wake_fd = s->wake_fd;
	}
	atomic_store(&s->df_state, WTG_DF_NONE);
	return 0;
}

/* Create (or read) the data file, for the first experiment that reads it. Called with df_state
 * PREPARING; returns the state to publish (READY or FAILED). */
static int prepare_datafile(struct wtg_session *s)
{
	const struct wtg_options *o = s->opt;
	wake(s);
	int rc;
	if (o->file) {
		rc = wtg_datafile_use(&s->df, o->file, s->df_error, sizeof s->df_error);
	} else {
		rc = wtg_datafile_create(&s->df, o->dir, o->dir_origin, o->size, o->seed, s->df_error,
					 sizeof s->df_error);
	}
	if (rc == 0)
		wtg_cond_set_datafile(&s->df);
	return rc == 0 ? WTG_DF_READY : WTG_DF_FAILED;
}

/* One experiment in its own measuring thread. The worker that creates it stays at the normal
 * policy, so a thread that cannot leave SCHED_IDLE (no CAP_SYS_NICE) is never reused: the next
 * experiment starts at whatever policy is requested then. */
struct measure_job {
	struct wtg_session *s;
	struct wtg_ctx ctx;
	const struct wtg_experiment *e;
	struct wtg_probe_result total;
	int rc;
	pthread_t th;
	bool started;
	bool not_cold;		/* c asked for cold, but the experiment reads the file back (e->not_cold) */
	struct wtg_arms arms;	/* --versus: ctx.arms points here when the experiment runs paired */
};

/* Test hook WTG_TEST_DEAF (wtg/testhooks.h): experiment NAME's measuring thread never looks at cancel. */
static void test_deaf(const struct wtg_experiment *e)
{
	if (strcmp(wtg_testhooks()->deaf, e->name) == 0)
		for (;;)
			wtg_sink += (uint64_t)wtg_now_ns();
}

/* Test hook WTG_TEST_HOLD (wtg/testhooks.h): experiment NAME's run holds before its first row, its
 * heartbeat beating, until it is cancelled or the hook's seconds have passed. */
static void test_hold(struct measure_job *j)
{
	const struct wtg_testhooks *h = wtg_testhooks();
	if (strcmp(h->hold, j->e->name) != 0)
		return;
	int64_t until = h->hold_s > 0 ? wtg_now_ns() + (int64_t)(h->hold_s * 1e9) : INT64_MAX;
	while (!atomic_load(j->ctx.cancel) && wtg_now_ns() < until) {
		atomic_store(j->ctx.heartbeat, wtg_now_ns());
		nanosleep(&(struct timespec){ .tv_nsec = 20000000 }, NULL);
	}
}

static void *measure_main(void *arg)
{
	struct measure_job *j = arg;
	struct wtg_relay *relay = j->ctx.relay;
	if (relay)
		wtg_relay_wait(relay, j->ctx.relay_slot);	/* the baton names it the running one */
	else
		atomic_store(&j->s->measure_tid, wtg_gettid());
	wtg_policy_reset_self();
	/* a group ended while this one waited for its turn (the watchdog's rescue came before this
	 * thread took the background policy): it stays normal, so it sees the cancel at once */
	if (!relay || !atomic_load(j->ctx.cancel))
		wtg_policy_apply_self();
	int64_t waited0 = relay ? wtg_relay_waited_ns(relay, j->ctx.relay_slot) : 0;	/* before its first turn */
	struct wtg_probe p;
	wtg_probe_begin(&p);
	test_deaf(j->e);
	test_hold(j);
	j->rc = j->e->run(&j->ctx);
	wtg_probe_end(&p, &j->total);
	wtg_policy_unregister_self();
	if (relay) {
		/* the wall time the other experiments measured in is not this one's */
		j->total.wall_ms -= (double)(wtg_relay_waited_ns(relay, j->ctx.relay_slot) - waited0) / 1e6;
		wtg_relay_finish(relay, j->ctx.relay_slot);
	} else {
		atomic_store(&j->s->measure_tid, 0);
	}
	return NULL;
}

/* Why the watchdog ends an experiment, as it stands when it does (before any rescue changes it). */
static void starved_why(struct wtg_session *s)
{
	int burners = wtg_burner_count();
	bool bg = wtg_policy_requested();
	char why[96];
	if (bg && burners > 0)
		snprintf(why, sizeof why, "background policy while %d burner%s ran", burners,
			 burners == 1 ? "" : "s");
	else if (burners > 0)
		snprintf(why, sizeof why, "%d burner%s on %d CPUs", burners, burners == 1 ? "" : "s",
			 wtg_online_cpus());
	else
		snprintf(why, sizeof why, "%s policy, other programs held the CPUs", bg ? "background" : "normal");
	snprintf(s->starved_why, sizeof s->starved_why,
		 "ended after %.0f s starved: the measuring thread was runnable but waited for a CPU (%s)",
		 (double)s->opt->time_limit_ms / 1000.0, why);
}

/* The state an experiment ends in, given what run returned. A stopped one always carries its reason
 * in the error (the watchdog's, the experiment's own, or the cancel), so reports can name it. */
static enum wtg_state final_state(struct wtg_session *s, struct wtg_table *t, int rc)
{
	bool starved = atomic_load(&s->starved);
	if (rc == WTG_CANCELLED || (rc == WTG_OK && atomic_load(&s->cancel)) || (starved && rc != WTG_ERR)) {
		pthread_mutex_lock(&t->lock);
		bool why = t->error[0] != '\0';
		pthread_mutex_unlock(&t->lock);
		if (starved)
			wtg_table_fail(t, "%s", s->starved_why);
		else if (!why)
			wtg_table_fail(t, "cancelled before the end; the rows before it are complete");
		return WTG_STOPPED;
	}
	pthread_mutex_lock(&t->lock);
	bool failed = rc != WTG_OK || t->error[0];
	bool checks_ok = wtg_table_checks_ok(t);
	pthread_mutex_unlock(&t->lock);
	if (failed)
		return WTG_FAILED;
	if (!checks_ok) {
		wtg_table_fail(t, "a check failed");
		return WTG_FAILED;
	}
	return WTG_DONE;
}

/* --versus: the job's arms when e can alternate them, else a note saying why it runs unpaired. */
/* The condition that tells a dashboard rerun's arms apart (the first that differs), for whether
 * e can alternate it; same when none does. */
static enum wtg_versus_cond differs(const struct wtg_arm_state *a, const struct wtg_arm_state *b)
{
	if (a->burn != b->burn || (a->burn > 0 && a->kind != b->kind))
		return WTG_VS_BURN;
	if (a->background != b->background)
		return WTG_VS_BACKGROUND;
	if (a->uncached != b->uncached)
		return WTG_VS_UNCACHED;
	return a->cold != b->cold ? WTG_VS_COLD : WTG_VS_SAME;
}

/* --versus, or a dashboard rerun paired against the conditions the tab ran under before (before,
 * NULL: none): the job's arms when e can alternate them, else a note saying why it runs unpaired. */
static void versus(struct wtg_session *s, const struct wtg_experiment *e, struct measure_job *job,
		   const struct wtg_arm_state *before)
{
	struct wtg_versus vs = s->opt->versus;
	struct wtg_arm_state st[2];
	if (before) {
		st[0] = *before;
		st[0].cold = st[0].cold && e->measures_cold;
		wtg_arm_state_now(&st[1], job->ctx.cold);
		vs = (struct wtg_versus){ .cond = differs(&st[0], &st[1]) };
	}
	char why[192];
	if (vs.cond == WTG_VS_NONE)
		return;
	if (!wtg_versus_applies(e, &vs, why, sizeof why)) {
		if (!before)	/* a dashboard rerun that cannot pair is the sequential run it always was */
			wtg_table_note(job->ctx.t, "not paired: %s", why);
		return;
	}
	if (vs.cond == WTG_VS_COLD && wtg_datafile_evict(&s->df) < 0) {
		wtg_table_note(job->ctx.t, "not paired: the data file cannot be evicted from the page cache here");
		return;
	}
	job->arms = (struct wtg_arms){ .vs = vs, .col = -1, .preset = before != NULL };
	if (before)
		memcpy(job->arms.st, st, sizeof st);
	job->ctx.arms = &job->arms;
}

/* Experiment idx's table made ready and its measuring thread started (in a relay when relay is not
 * NULL: it waits for the baton); pair: what compare pairs in this run (read under qlock when it was
 * taken). Returns false when it could not start (the table says why). */
static bool start_one(struct wtg_session *s, int idx, const struct wtg_compare_pair *pair, struct measure_job *job,
		      struct wtg_relay *relay, int slot)
{
	const struct wtg_experiment *e = s->exps[idx];
	struct wtg_table *t = &s->tables[idx];
	struct wtg_table *prev = &s->prev[idx];
	pthread_mutex_lock(&prev->lock);	/* the run before, whole, for a reader that missed its end */
	wtg_table_snapshot(prev, t);
	pthread_mutex_unlock(&prev->lock);
	wtg_table_reset(t);
	wtg_table_set_state(t, WTG_RUNNING);
	*job = (struct measure_job){ .s = s, .e = e, .rc = WTG_ERR };
	if (e->needs_datafile && atomic_load(&s->df_state) != WTG_DF_READY) {
		wtg_table_fail(t, "no data file: %s", s->df_error);
		wtg_table_set_state(t, WTG_FAILED);
		return false;
	}
	job->ctx = (struct wtg_ctx){
		.opt = s->opt,
		.df = &s->df,
		.t = t,
		.cancel = &s->cancel,
		.heartbeat = &s->heartbeat,
		.argv0 = s->argv0,
		.machine = &s->machine,
		.compare = *pair,
		.relay = relay,
		.relay_slot = slot,
	};
	/* c: the next run that reads the data file takes the request; one that measures cold starts
	 * on a file evicted again now, one whose warm-up reads it back says so when it ends */
	bool cold = e->needs_datafile && wtg_cold_take();
	job->not_cold = cold && !e->measures_cold && !(e->self_conditions & WTG_COND_COLD);
	if (cold && e->measures_cold) {
		wtg_datafile_evict(&s->df);
		job->ctx.cold = true;
		wtg_table_set_cold(t, true);
	}
	pthread_mutex_lock(&s->qlock);	/* a dashboard rerun paired against the tab's last conditions */
	bool paired = s->pair_pending[idx];
	struct wtg_arm_state before = s->pair_before[idx];
	s->pair_pending[idx] = false;
	pthread_mutex_unlock(&s->qlock);
	versus(s, e, job, paired ? &before : NULL);
	uint64_t seed = s->opt->seed;
	for (const char *c = e->name; *c; c++)
		seed = (seed ^ (uint64_t)(unsigned char)*c) * 0x100000001b3ull;
	wtg_rng_seed(&job->ctx.rng, seed);
	int err = pthread_create(&job->th, NULL, measure_main, job);	/* inherits the worker's mask */
	if (err != 0) {
		wtg_table_fail(t, "cannot start a measuring thread: %s", strerror(err));
		wtg_table_set_state(t, WTG_FAILED);
		return false;
	}
	job->started = true;
	return true;
}

/* Wait for a started experiment's thread; its totals and final state into its table. */
static void finish_one(struct wtg_session *s, struct measure_job *job)
{
	pthread_join(job->th, NULL);
	struct wtg_table *t = job->ctx.t;
	struct wtg_probe_result total = job->total;
	pthread_mutex_lock(&t->lock);
	/* RUSAGE_THREAD saw only the measuring thread: add the helpers of multi-threaded rows */
	for (int r = 0; r < t->nrows; r++)
		if (t->rows[r].has_probe && t->rows[r].probe.threads >= 2)
			wtg_probe_merge(&total, &t->rows[r].probe, WTG_PROBE_HELPERS);
	t->total = total;
	t->has_total = true;
	pthread_mutex_unlock(&t->lock);
	if (job->not_cold)
		wtg_table_note(t, WTG_NOT_COLD_NOTE, job->e->not_cold ? job->e->not_cold : WTG_NOT_COLD_WHY);
	if (job->ctx.arms && !job->arms.used)
		wtg_table_note(t, "not paired: %s measured no rounds that alternate the arms", job->e->name);
	wtg_arms_free(&job->arms);
	wtg_table_set_state(t, final_state(s, t, job->rc));
}

static void run_one(struct wtg_session *s, int idx, const struct wtg_compare_pair *pair)
{
	atomic_store(&s->heartbeat, wtg_now_ns());
	struct measure_job job;
	if (start_one(s, idx, pair, &job, NULL, 0))
		finish_one(s, &job);
}

/* An interleaved group: the relay's new holder is the running experiment (as the worker names one
 * it starts: a fresh heartbeat first, a new generation for the watchdog, then "current"). */
struct group {
	struct wtg_session *s;
	int idx[WTG_RELAY_MAX];
	int n;
};

static void group_took(void *arg, int slot)
{
	struct group *g = arg;
	struct wtg_session *s = g->s;
	atomic_store(&s->heartbeat, wtg_now_ns());
	atomic_store(&s->measure_tid, wtg_gettid());
	pthread_mutex_lock(&s->qlock);	/* where the watchdog decides (relay's lock, then qlock) */
	atomic_fetch_add(&s->run_gen, 1);
	atomic_store(&s->current, g->idx[slot]);
	pthread_mutex_unlock(&s->qlock);
}

/* Run the group's experiments together, one baton between them (wtg/relay.h). */
static void run_group(struct wtg_session *s, struct group *g, const struct wtg_compare_pair *pair)
{
	struct wtg_relay relay;
	atomic_store(&s->heartbeat, wtg_now_ns());
	if (wtg_relay_init(&relay, g->n, &s->cancel, group_took, g) < 0) {
		for (int k = 0; k < g->n; k++)
			run_one(s, g->idx[k], pair);
		return;
	}
	struct measure_job jobs[WTG_RELAY_MAX];
	for (int k = 0; k < g->n; k++)
		if (!start_one(s, g->idx[k], pair, &jobs[k], &relay, k))
			wtg_relay_finish(&relay, k);	/* its turn passes at once */
	for (int k = 0; k < g->n; k++)
		if (jobs[k].started)
			finish_one(s, &jobs[k]);
	atomic_store(&s->measure_tid, 0);
	wtg_relay_destroy(&relay);
}

static bool group_needs_datafile(const struct group *g)
{
	for (int k = 0; k < g->n; k++)
		if (g->s->exps[g->idx[k]]->needs_datafile)
			return true;
	return false;
}

/* Under qlock: the queued experiments that run interleaved with idx (idx first), taken out of the
 * queue; g->n is 1 when idx runs alone. */
static void take_group(struct wtg_session *s, int idx, struct group *g)
{
	g->s = s;
	g->idx[0] = idx;
	g->n = 1;
	if (!s->interleave || !s->exps[idx]->interleaves || s->opt->versus.cond != WTG_VS_NONE)
		return;	/* a paired run switches conditions between its arms: it runs alone */
	int keep = 0;
	for (int q = 0; q < s->qlen; q++) {
		int j = s->queue[q];
		if (s->exps[j]->interleaves && g->n < WTG_RELAY_MAX)
			g->idx[g->n++] = j;
		else
			s->queue[keep++] = j;
	}
	s->qlen = keep;
}

static void *worker_main(void *arg)
{
	struct wtg_session *s = arg;
	for (;;) {
		pthread_mutex_lock(&s->qlock);
		while (!s->quit && s->qlen == 0)
			pthread_cond_wait(&s->qcond, &s->qlock);
		if (s->quit) {
			pthread_mutex_unlock(&s->qlock);
			break;
		}
		int idx = s->queue[0];
		memmove(s->queue, s->queue + 1, (size_t)(s->qlen - 1) * sizeof s->queue[0]);
		s->qlen--;
		atomic_store(&s->cancel, false);
		struct group g;
		take_group(s, idx, &g);
		if (group_needs_datafile(&g) && atomic_load(&s->df_state) == WTG_DF_NONE) {
			/* PREPARING under qlock, and the outcome published with "current": idle() never
			 * sees a gap; and before "current": the watchdog does not time the preparation */
			atomic_store(&s->df_state, WTG_DF_PREPARING);
			pthread_mutex_unlock(&s->qlock);
			int st = prepare_datafile(s);
			pthread_mutex_lock(&s->qlock);
			atomic_store(&s->df_state, st);
			if (s->quit || atomic_load(&s->cancel)) {
				bool quit = s->quit;
				pthread_mutex_unlock(&s->qlock);
				wake(s);
				if (quit)
					break;
				continue;	/* cancelled while the file was made: the queue was dropped */
			}
		}
		/* a fresh heartbeat before "current" is published: the watchdog must never see a stale one;
		 * the new generation, the cancel and the starvation cleared under qlock, where the watchdog
		 * decides (wtg_session_starve_cancel): its verdict on the run before cannot reach this one */
		atomic_store(&s->heartbeat, wtg_now_ns());
		atomic_store(&s->cancel, false);
		atomic_store(&s->starved, 0);
		atomic_fetch_add(&s->run_gen, 1);
		atomic_store(&s->current, idx);
		struct wtg_compare_pair pair = s->compare;
		pthread_mutex_unlock(&s->qlock);
		if (g.n > 1)
			run_group(s, &g, &pair);
		else
			run_one(s, idx, &pair);
		atomic_store(&s->current, -1);
		wake(s);
	}
	atomic_store(&s->worker_ended, true);
	return NULL;
}

/* Join the worker once it has ended, waiting at most limit_ms: a quit request ends wtg within a
 * second even when a measuring loop never looks at cancel (the process then exits around it).
 * Returns whether it was joined. */
static bool join_worker(struct wtg_session *s, int limit_ms)
{
	int64_t until = wtg_now_ns() + (int64_t)limit_ms * 1000000;
	while (!atomic_load(&s->worker_ended) && wtg_now_ns() < until) {
		struct timespec nap = { 0, 5 * 1000000 };
		nanosleep(&nap, NULL);
	}
	if (!atomic_load(&s->worker_ended))
		return false;
	pthread_join(s->thread, NULL);
	return true;
}

/* What a layer above does on SIGCONT (the dashboard: its terminal modes back, a redraw). */
static void (*_Atomic continue_hook)(void);

void wtg_session_on_continue(void (*fn)(void))
{
	atomic_store(&continue_hook, fn);
}

static void on_continue(int sig)
{
	(void)sig;
	int e = errno;
	wtg_starve_continued();
	void (*hook)(void) = atomic_load(&continue_hook);
	if (hook)
		hook();
	errno = e;
}

static void *watch_main(void *arg)
{
	struct wtg_session *s = arg;
	pthread_mutex_lock(&s->watch_lock);
	while (!atomic_load(&s->watch_quit)) {
		pthread_mutex_unlock(&s->watch_lock);
		atomic_store(&s->stall_ns, wtg_session_watchdog(s, s->opt->time_limit_ms * 1000000LL));
		pthread_mutex_lock(&s->watch_lock);
		/* the next look in WTG_WATCH_MS, or at once when shutdown asks it to quit (a run's end
		 * then waits for no sleep of the watchdog's) */
		struct timespec at;
		clock_gettime(CLOCK_MONOTONIC, &at);
		at.tv_nsec += WTG_WATCH_MS * 1000000L;
		at.tv_sec += at.tv_nsec / 1000000000L;
		at.tv_nsec %= 1000000000L;
		if (!atomic_load(&s->watch_quit))
			pthread_cond_timedwait(&s->watch_cond, &s->watch_lock, &at);
	}
	pthread_mutex_unlock(&s->watch_lock);
	return NULL;
}

int64_t wtg_session_stall(struct wtg_session *s)
{
	return atomic_load(&s->stall_ns);
}

int wtg_session_start(struct wtg_session *s)
{
	/* a stop is not starvation: the starvation meters learn of every continue */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_continue;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCONT, &sa, NULL);

	sigset_t old;
	wtg_thread_sigmask(&old);	/* from wtg/guard.h */
	atomic_store(&s->worker_ended, false);
	atomic_store(&s->watch_quit, false);
	atomic_store(&s->stall_ns, 0);
	int rc = pthread_create(&s->thread, NULL, worker_main, s);
	int wrc = rc == 0 ? pthread_create(&s->watch_thread, NULL, watch_main, s) : 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		wtg_error("cannot start the worker thread: %s", strerror(rc));
		return -1;
	}
	s->started = true;
	if (wrc != 0) {	/* without a watchdog nothing would end a starved run: stop */
		wtg_error("cannot start the watchdog's thread: %s", strerror(wrc));
		wtg_session_shutdown(s);
		return -1;
	}
	s->watching = true;
	return 0;
}

void wtg_session_enqueue_all(struct wtg_session *s, const int *idx, int n)
{
	pthread_mutex_lock(&s->qlock);
	for (int k = 0; k < n && s->qlen < WTG_QUEUE_MAX; k++)
		s->queue[s->qlen++] = idx[k];
	pthread_cond_signal(&s->qcond);
	pthread_mutex_unlock(&s->qlock);
}

void wtg_session_enqueue(struct wtg_session *s, int idx)
{
	wtg_session_enqueue_all(s, &idx, 1);
}

void wtg_session_compare(struct wtg_session *s, struct wtg_compare_pair *p)
{
	pthread_mutex_lock(&s->qlock);
	*p = s->compare;
	pthread_mutex_unlock(&s->qlock);
}

void wtg_session_pair_next(struct wtg_session *s, int idx, const struct wtg_arm_state *before)
{
	if (idx < 0 || idx >= WTG_MAX_EXP)
		return;
	pthread_mutex_lock(&s->qlock);
	s->pair_pending[idx] = before != NULL;
	if (before)
		s->pair_before[idx] = *before;
	pthread_mutex_unlock(&s->qlock);
}

void wtg_session_set_compare(struct wtg_session *s, const struct wtg_compare_pair *p)
{
	pthread_mutex_lock(&s->qlock);
	s->compare = *p;
	pthread_mutex_unlock(&s->qlock);
}

void wtg_session_cancel(struct wtg_session *s)
{
	pthread_mutex_lock(&s->qlock);
	s->qlen = 0;
	atomic_store(&s->cancel, true);
	pthread_mutex_unlock(&s->qlock);
	/* a starved worker cannot see the flag until it gets a CPU again */
	if (wtg_policy_requested() && wtg_burner_count() > 0 && wtg_policy_rescue() > 0)
		wtg_burner_set(0);
}

void wtg_session_status(struct wtg_session *s, int idx, struct wtg_run_status *st)
{
	memset(st, 0, sizeof *st);
	st->queue_pos = -1;
	pthread_mutex_lock(&s->qlock);
	int current = atomic_load(&s->current);
	if (idx < 0)
		idx = current;
	for (int i = 0; idx >= 0 && i < s->qlen && st->queue_pos < 0; i++)
		if (s->queue[i] == idx)
			st->queue_pos = i;
	pthread_mutex_unlock(&s->qlock);
	st->idx = idx;
	if (idx < 0 || idx >= s->nexp)
		return;
	st->current = idx == current;
	struct wtg_table *t = &s->tables[idx];
	pthread_mutex_lock(&t->lock);
	st->state = t->state;
	st->progress = t->progress;
	st->started_ns = t->started_ns;
	st->finished_ns = t->finished_ns;
	st->nrows = t->nrows;
	pthread_mutex_unlock(&t->lock);
}

bool wtg_session_previous(struct wtg_session *s, int idx, int64_t started_ns, struct wtg_table *dst)
{
	if (idx < 0 || idx >= s->nexp || started_ns == 0)
		return false;
	wtg_table_snapshot(dst, &s->prev[idx]);	/* under prev's lock, which the worker holds to change it */
	return dst->started_ns == started_ns;
}

bool wtg_session_idle(struct wtg_session *s)
{
	pthread_mutex_lock(&s->qlock);
	bool idle = s->qlen == 0 && atomic_load(&s->current) < 0 &&
		    atomic_load(&s->df_state) != WTG_DF_PREPARING;
	pthread_mutex_unlock(&s->qlock);
	return idle;
}

/* How long the current experiment's measuring thread has been starved (see wtg_session_watchdog);
 * *gen: the run generation it was measured for. */
static int64_t starved_so_far(struct wtg_session *s, unsigned *gen_out)
{
	unsigned gen = atomic_load(&s->run_gen);
	*gen_out = gen;
	int tid = atomic_load(&s->measure_tid);
	if (tid <= 0)
		return 0;	/* between experiments, or the worker is just starting one */
	if (gen != s->meter_gen || s->meter.tid != tid) {
		/* a new experiment, a new measuring thread: a fresh meter */
		s->meter_gen = gen;
		s->meter_ok = wtg_starve_begin(&s->meter, tid) == 0;
		if (s->meter_ok)
			return 0;
	}
	int64_t starved = s->meter_ok ? wtg_starve_sample(&s->meter) : -1;
	if (starved >= 0)
		return starved;
	/* no schedstat: the time since the last sign of progress stands in */
	return wtg_now_ns() - atomic_load(&s->heartbeat);
}

bool wtg_session_starve_cancel(struct wtg_session *s, unsigned gen)
{
	pthread_mutex_lock(&s->qlock);
	bool same = atomic_load(&s->run_gen) == gen && atomic_load(&s->current) >= 0;
	if (same && !atomic_load(&s->starved)) {
		starved_why(s);
		atomic_store(&s->starved, 1);
		atomic_store(&s->cancel, true);
	}
	pthread_mutex_unlock(&s->qlock);
	return same;
}

int64_t wtg_session_watchdog(struct wtg_session *s, int64_t limit_ns)
{
	if (atomic_load(&s->current) < 0)
		return 0;
	unsigned gen;
	int64_t stall = starved_so_far(s, &gen);
	/* the run measured may have ended since: only its own generation is cancelled, and rescued
	 * again for a thread still starved after the cancel (the next of an interleaved group);
	 * without CAP_SYS_NICE a thread cannot leave SCHED_IDLE: take the load away instead */
	if (stall > limit_ns && wtg_session_starve_cancel(s, gen) && wtg_policy_rescue() > 0)
		wtg_burner_set(0);
	return stall;
}

void wtg_session_shutdown(struct wtg_session *s)
{
	if (s->watching) {
		pthread_mutex_lock(&s->watch_lock);
		atomic_store(&s->watch_quit, true);
		pthread_cond_signal(&s->watch_cond);
		pthread_mutex_unlock(&s->watch_lock);
		pthread_join(s->watch_thread, NULL);
		s->watching = false;
	}
	if (s->started) {
		pthread_mutex_lock(&s->qlock);
		s->quit = true;
		s->qlen = 0;
		atomic_store(&s->cancel, true);
		atomic_store(&s->df.abort, true);
		pthread_cond_signal(&s->qcond);
		pthread_mutex_unlock(&s->qlock);
		/* a starved measuring thread must get a CPU to see the flag: no load, normal policy */
		wtg_burner_stop_all();
		wtg_policy_rescue();
		if (!join_worker(s, WTG_QUIT_WAIT_MS))
			pthread_detach(s->thread);
		s->started = false;
	}
	wtg_burner_stop_all();
	wtg_datafile_remove(&s->df);
}
