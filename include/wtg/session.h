/* session.h: the data file, the tables, and the worker thread that fills them. */
#ifndef WTG_SESSION_H
#define WTG_SESSION_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "wtg/ctx.h"
#include "wtg/conditions.h"
#include "wtg/datafile.h"
#include "wtg/experiment.h"
#include "wtg/machine.h"
#include "wtg/options.h"
#include "wtg/arms.h"
#include "wtg/table.h"
#include "wtg/topology.h"

#define WTG_QUEUE_MAX 64

struct wtg_session {
	const struct wtg_options *opt;
	const char *argv0;
	struct wtg_machine machine;
	struct wtg_topology topo;	/* packages, cores, SMT, nodes, core types (WTG_SYSFS_ROOT roots it) */
	char topo_summary[128];		/* "1 package, 2 cores, 1 NUMA node" */
	struct wtg_datafile df;
	_Atomic int df_state;
	char df_error[256];
	/* the experiments it runs, by index (the registry, handed over at init) and their tables */
	const struct wtg_experiment *const *exps;
	int nexp;
	struct wtg_table tables[WTG_MAX_EXP];
	/* each experiment's run before its current one, as it ended (copied when the next starts,
	 * under its own lock): a reader that looked last before the end still gets the whole run */
	struct wtg_table prev[WTG_MAX_EXP];

	/* worker */
	pthread_t thread;
	bool started;
	atomic_bool worker_ended;	/* the worker's last act, so a shutdown need not wait on a stuck one */
	pthread_mutex_t qlock;
	pthread_cond_t qcond;
	int queue[WTG_QUEUE_MAX];
	int qlen;
	bool quit;			/* under qlock */
	struct wtg_compare_pair compare;	/* under qlock: what the next compare run pairs */
	/* under qlock: the next run of a tab is paired against these conditions (wtg/paired.h: arm A
	 * them, arm B those in force as it starts), the dashboard's rerun; taken as it starts */
	bool pair_pending[WTG_MAX_EXP];
	struct wtg_arm_state pair_before[WTG_MAX_EXP];
	/* set before the start: queued experiments whose descriptors allow it run interleaved, their
	 * replicas separated by each other's (wtg/relay.h); headless runs only */
	bool interleave;
	atomic_bool cancel;		/* the running experiment should stop */
	_Atomic int current;		/* registry index running now, -1 when idle */
	_Atomic int64_t heartbeat;	/* last sign of progress from the worker */
	_Atomic int starved;		/* the watchdog rescued the current row ... */
	char starved_why[256];		/* ... and this is why (written before starved is set) */
	_Atomic int measure_tid;	/* the running experiment's measuring thread, 0 when none */
	/* counts experiments started (under qlock by the worker; an interleaved group's handovers
	 * too), so the watchdog sees a new one and cancels only the run it judged */
	_Atomic unsigned run_gen;
	/* the watchdog's own thread, started with the worker, and what only it touches */
	pthread_t watch_thread;
	bool watching;			/* the watchdog's thread runs (wtg_session_start) */
	atomic_bool watch_quit;
	pthread_mutex_t watch_lock;	/* with watch_cond: a quit wakes the watchdog's wait at once */
	pthread_cond_t watch_cond;
	_Atomic int64_t stall_ns;	/* the starved time it found last (wtg_session_stall) */
	struct wtg_starve_meter meter;
	unsigned meter_gen;
	bool meter_ok;
	int wake_fd;			/* eventfd the worker writes when anything changes */
};

/* Reads the machine block, creates the wake fd, inits a table for each of the nexp (at most
 * WTG_MAX_EXP) experiments exps, which the session's indices name, and removes the data files that
 * dead wtg processes left in the folder this one would use; compare pairs *pair until the dashboard's
 * v moves it (wtg_session_set_compare). The layer above hands over its registry (wtg_session_init in
 * wtg/experiment.h), so the engine calls nothing above it. Returns 0 or -1 (message printed). */
int wtg_session_open(struct wtg_session *s, const struct wtg_options *opt, const char *argv0,
		     const struct wtg_experiment *const *exps, int nexp, const struct wtg_compare_pair *pair);
/* Whether a run with options o measures with the data file: --run when one of the experiments it
 * selects of exps (nexp of them) reads it, the dashboard when one of its tabs can, --load never. */
bool wtg_need_datafile(const struct wtg_options *o, const struct wtg_experiment *const *exps, int nexp);
/* Starts the worker, and the watchdog's thread beside it (wtg_session_watchdog every
 * WTG_WATCH_MS). The worker prepares the data file (creates it, or reads the --file) just before the
 * first queued experiment that reads it, never when none does. */
int wtg_session_start(struct wtg_session *s);
/* Queue an experiment (registry index) to run after what is queued. */
void wtg_session_enqueue(struct wtg_session *s, int idx);
/* Queue n experiments at once, in order: the worker sees all of them or none, so a headless run's
 * experiments that interleave start as one group (queued one by one, the worker could take the first
 * alone before the next arrived). */
void wtg_session_enqueue_all(struct wtg_session *s, const int *idx, int n);
/* What the next compare run pairs (a run reads it when it starts); at first the options' pair. */
void wtg_session_compare(struct wtg_session *s, struct wtg_compare_pair *p);
void wtg_session_set_compare(struct wtg_session *s, const struct wtg_compare_pair *p);
/* The next run of experiment idx measures in two arms (wtg/paired.h): arm A under before, arm B under
 * the conditions in force when it starts; before NULL: not paired. */
void wtg_session_pair_next(struct wtg_session *s, int idx, const struct wtg_arm_state *before);
/* Stop the running experiment (within half a second) and drop the queue. */
void wtg_session_cancel(struct wtg_session *s);
/* Where one experiment stands, read under the locks that guard it. */
struct wtg_run_status {
	int idx;			/* registry index, -1 when asked for the running one and none runs */
	bool current;			/* it is the one running now */
	int queue_pos;			/* its place in the queue, -1 when not queued */
	enum wtg_state state;
	struct wtg_run_progress progress;	/* the table's, copied whole */
	int64_t started_ns, finished_ns;
	int nrows;
};

/* The status of experiment idx, or of the running one when idx is -1 (then st->idx is -1 when
 * nothing runs). Readers (the dashboard, the headless progress line) call this instead of taking
 * the queue's or the tables' locks themselves. */
void wtg_session_status(struct wtg_session *s, int idx, struct wtg_run_status *st);
/* Copy experiment idx's run before its current one into dst (a reader's private table, scratch);
 * true when it is the run that started at started_ns, false when it is not (no run before, or runs
 * in between the reader never saw). */
bool wtg_session_previous(struct wtg_session *s, int idx, int64_t started_ns, struct wtg_table *dst);
/* True when nothing runs and nothing is queued (the data file may still be preparing for the
 * experiment the worker took last: df_state PREPARING). */
bool wtg_session_idle(struct wtg_session *s);
/* The watchdog, run by a thread of its own at the normal policy every WTG_WATCH_MS (a thread of its
 * own because the UI thread can be held up by the very thread it must rescue: a starved measuring
 * thread holding the memory-map lock holds up any mmap, a malloc's included): when the running
 * experiment's measuring thread has been starved (wtg_starve_meter: runnable, waiting for a CPU) for
 * limit_ns in total, rescues it (normal policy back, burners off when that fails) and ends the
 * experiment with a note. Returns the starved time so far in ns (0 when nothing runs). Where
 * schedstat cannot be read, the time since the last heartbeat stands in for it. */
#define WTG_WATCH_MS 100
int64_t wtg_session_watchdog(struct wtg_session *s, int64_t limit_ns);
/* The watchdog's verdict on run generation gen (run_gen when it began measuring the stall): under
 * qlock, where the worker starts each run (a new generation, cancel and starved cleared), end that
 * run as starved (starved, cancel, starved_why) when it still runs; a run that ended in between
 * keeps its cancel from the next one. Returns whether gen still runs. */
bool wtg_session_starve_cancel(struct wtg_session *s, unsigned gen);
/* The starved time the watchdog found last (0 when nothing runs, or before it looked). */
int64_t wtg_session_stall(struct wtg_session *s);
/* Drain the wake fd (non-blocking). */
void wtg_session_drain_wake(struct wtg_session *s);
/* How long a shutdown waits for the worker to end: with the 200 ms a request to quit may take to be
 * seen, wtg ends within a second. */
#define WTG_QUIT_WAIT_MS 700
/* Stop the worker (waiting for it at most WTG_QUIT_WAIT_MS: one stuck in a loop is left to the
 * process's exit), burners; remove the data file if owned. Safe to call twice. */
void wtg_session_shutdown(struct wtg_session *s);

/* Signals whose default action ends the process and that wtg does not handle as a request to quit
 * (those are SIGINT, SIGTERM, SIGHUP): crashes, Ctrl-\\, and the rarer fatal ones (timers, limits,
 * user signals). Their handlers clean up, then die of the signal. */
extern const int wtg_fatal_signals[];
#define WTG_NFATAL_SIGNALS 15

/* For signal and crash handlers (async-signal-safe): run the cleanup wtg_session_on_emergency
 * added (the temp files of a save under way), then remove the owned data file. */
void wtg_session_emergency_cleanup(void);
/* Add the one cleanup of a layer above the session (async-signal-safe; calling it again with the
 * same function changes nothing): the report writer adds wtg_report_remove_temps before its first
 * temp file, so the session needs no writer. */
void wtg_session_on_emergency(void (*cleanup)(void));

/* Call fn (async-signal-safe; NULL: none) from the SIGCONT handler wtg_session_start installs,
 * after the starvation meters learn of the continue: the dashboard puts its terminal modes back
 * and redraws, however the stop came (Ctrl-Z, kill -STOP and fg). */
void wtg_session_on_continue(void (*fn)(void));

/* Install handler for every wtg_fatal_signals entry (old: WTG_NFATAL_SIGNALS entries, or NULL).
 * Each is reset to the default when it runs, except SIGBUS (see wtg/guard.h). Returns 0 or -1. */
int wtg_fatal_install(void (*handler)(int), struct sigaction *old);
/* The end of every fatal-signal handler (async-signal-safe): remove the owned data file, say
 * "wtg: killed by signal N (name)" on stderr, and die of sig. */
void wtg_fatal_die(int sig);

#endif
