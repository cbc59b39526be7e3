/* conditions.h: the things a teacher toggles (burners, policy, I/O mode, eviction). */
#ifndef WTG_CONDITIONS_H
#define WTG_CONDITIONS_H

#include <stdbool.h>
#include <stdint.h>

enum wtg_iomode { WTG_IO_CACHED = 0, WTG_IO_DIRECT, WTG_IO_EVICTING };

/* What a burner does: spin on integer arithmetic in registers (takes CPU time only), or stream
 * through a buffer of its own larger than the last-level cache (takes CPU time and memory
 * bandwidth, and evicts the caches). */
enum wtg_burn_kind { WTG_BURN_SPIN = 0, WTG_BURN_STREAM };

struct wtg_cond_snapshot {
	int burners;		/* running burner threads, 0 = off */
	enum wtg_burn_kind burn_kind;	/* what they do (meaningful when burners > 0) */
	int policy;		/* as the kernel reports it for the measuring thread: 0 normal, 1 SCHED_IDLE */
	bool background;	/* requested */
	bool uncached;		/* requested */
	enum wtg_iomode io;	/* in force */
};

struct wtg_datafile;

/* ---- burners (src/conditions/burner.c) ---- */
/* The most burners wtg runs: WTG_BURN_PER_CPU per online CPU. A burner at the normal policy takes
 * its share of a CPU from the dashboard's thread too, but the dashboard sleeps until a key or a
 * frame, and the scheduler runs a waking sleeper promptly: at 32 per CPU (64 on a 2-CPU machine) a
 * key still reaches the screen within 100 ms (bench/burnkeys.sh). */
#define WTG_BURN_PER_CPU 32
int wtg_burner_max(void);
/* Start exactly n burner threads (0 stops them all; at most wtg_burner_max()). Returns the number
 * running, or -1. */
int wtg_burner_set(int n);
/* Start exactly n burners of this kind; running ones of another kind are replaced. */
int wtg_burner_set_kind(int n, enum wtg_burn_kind kind);
int wtg_burner_count(void);
/* The kind of the running burners; spin when none runs (turning them off resets the kind). */
enum wtg_burn_kind wtg_burner_kind(void);
/* "spin" or "stream"; wtg_burn_kind_parse returns -1 for another word. */
const char *wtg_burn_kind_name(enum wtg_burn_kind k);
int wtg_burn_kind_parse(const char *word);
/* The buffer each stream burner walks, in bytes, for n burners on this machine: 1.5 x the
 * last-level cache (at least 64 MiB), all burners together held to a quarter of the memory. */
uint64_t wtg_burner_stream_bytes(int n);
/* Total loop iterations all burners have completed since the program started. */
uint64_t wtg_burner_work(void);
void wtg_burner_stop_all(void);
/* While on, burners turned off (wtg_burner_set_kind lowering the count) are parked, asleep, and the
 * next ones of their kind resume them; off ends the parked ones. A paired run's arms hold them. */
void wtg_burner_hold(bool on);
/* Whether every running burner has done a batch of its steady work since it started or resumed. */
bool wtg_burner_going(void);

/* ---- policy (src/conditions/policy.c) ---- */
/* Request the background policy (SCHED_IDLE) for measuring threads, or the normal one. */
void wtg_policy_request(bool background);
bool wtg_policy_requested(void);
/* Called by each measuring thread at a batch boundary: applies the requested policy to itself,
 * registers the thread for wtg_policy_rescue(), and returns the policy read back (0/1), or -1. */
int wtg_policy_apply_self(void);
/* Forget the calling thread (before it exits). */
void wtg_policy_unregister_self(void);
/* The policy the kernel last reported for the worker (0 normal, 1 background, -1 unknown). */
int wtg_policy_granted(void);
/* Whether that report answers the current request: false from a p until a measuring thread has
 * applied it (the next batch or run), so a policy not yet tried is not shown as refused. */
bool wtg_policy_answered(void);
/* Called from a normal-policy thread when a measuring thread is starved: every registered
 * measuring thread is put back to SCHED_OTHER so it can notice its cancel flag, and stays normal
 * until the request changes or it calls wtg_policy_reset_self(). Returns how many registered
 * threads are still SCHED_IDLE: leaving SCHED_IDLE needs CAP_SYS_NICE or RLIMIT_NICE >= 20,
 * so without privilege a rescue usually fails (0 = every thread rescued). */
int wtg_policy_rescue(void);
/* Called by a measuring thread when it starts a new experiment: a past rescue no longer holds,
 * the next wtg_policy_apply_self() applies the request again. */
void wtg_policy_reset_self(void);

/* Starvation: a thread is starved while it is runnable and gets no CPU. A meter samples the thread's
 * CPU time and run-queue wait (/proc/self/task/TID/schedstat) and its state (.../stat): an interval of
 * at least WTG_STARVE_MIN_NS counts as starved when, for an interval of at most WTG_STARVE_MAX_NS in
 * which the thread was runnable (state R) at both ends, it ran for less than 1 - a share of it, or,
 * for any other interval, its booked run-queue wait grew by that share of it (the kernel books a wait
 * only when it ends, so a thread that never runs shows none: hence the state). The share is WTG_STARVE_SHARE_IDLE for a thread under the
 * background policy, which gets only what nobody else wants, and WTG_STARVE_SHARE otherwise: a normal
 * thread among many runnable ones gets its slice, slowly, and is not starved. A stopped process (SIGSTOP, Ctrl-Z)
 * is not runnable and books no wait, and an interval in which the process was continued
 * (wtg_starve_continued) never counts, so a stop of any length adds nothing; a thread that crawls
 * forward on crumbs of CPU still adds up. */
#define WTG_STARVE_MIN_NS 250000000LL	/* shorter intervals are merged into the next */
#define WTG_STARVE_MAX_NS 1000000000LL	/* the state speaks for no longer an interval */
#define WTG_STARVE_SHARE_IDLE 0.9	/* "most of the interval" for a SCHED_IDLE thread ... */
#define WTG_STARVE_SHARE 0.99		/* ... and for any other: an overloaded machine is not starving */

struct wtg_starve_meter {
	int tid;
	int64_t wall, run, wait;	/* at the last sample */
	bool runnable;			/* state R at the last sample */
	unsigned conts;			/* wtg_starve_continued calls seen */
	int64_t starved_ns;		/* the starved intervals so far */
	bool ok;			/* schedstat was readable */
};
/* Read thread tid's (of this process) CPU time and booked run-queue wait in ns and whether it is
 * runnable now and under SCHED_IDLE. Returns 0, or -1 when they cannot be read (no such thread, no
 * schedstat). */
int wtg_sched_sample(int tid, int64_t *run, int64_t *wait, bool *runnable, bool *idle);
/* Start metering thread tid. Returns 0, or -1 when it cannot be read. */
int wtg_starve_begin(struct wtg_starve_meter *m, int tid);
/* Take a sample; returns the starved time so far (ns), or -1 when the thread could never be read. */
int64_t wtg_starve_sample(struct wtg_starve_meter *m);
/* From a SIGCONT handler (async-signal-safe): the process was stopped; the interval that holds the
 * stop is not starvation. */
void wtg_starve_continued(void);
/* A clock of the time the process ran (was not stopped), as a sampler calling it every few hundred ms
 * can tell: each call advances it by the time since the last, at most WTG_STARVE_MAX_NS, and not at
 * all across a continue. For limits on threads that cannot be metered yet. */
struct wtg_active_clock {
	int64_t last, elapsed;
	unsigned conts;
};
void wtg_active_begin(struct wtg_active_clock *c);
int64_t wtg_active_elapsed(struct wtg_active_clock *c);

/* ---- I/O mode (src/conditions/iomode.c) ---- */
void wtg_uncached_request(bool on);
bool wtg_uncached_requested(void);
/* The mechanism in force for this data file: cached; direct where O_DIRECT works; evicting otherwise. */
enum wtg_iomode wtg_iomode_effective(const struct wtg_datafile *df);
const char *wtg_iomode_name(enum wtg_iomode m);
/* Open the data file for reading in the mode in force. *direct is set when O_DIRECT is on. */
int wtg_iomode_open(const struct wtg_datafile *df, bool *direct);
/* Before a pass: evict when the mode is "evicting". */
void wtg_iomode_before_pass(const struct wtg_datafile *df);

/* ---- cold cache (c; src/conditions/iomode.c) ---- */
/* c emptied the page cache of the data file: the next run that reads the file measures it cold. */
void wtg_cold_request(void);
/* Whether a cold run is asked for; take: and clear the request (the run that starts takes it). */
bool wtg_cold_requested(void);
bool wtg_cold_take(void);

/* The data file the I/O mode applies to (set once it is ready). */
void wtg_cond_set_datafile(const struct wtg_datafile *df);
/* df NULL: the one set with wtg_cond_set_datafile. */
void wtg_cond_snapshot(struct wtg_cond_snapshot *s, const struct wtg_datafile *df);
/* Whether two snapshots were taken under the same conditions as the keys set them: burners (count
 * and kind), background policy and uncached I/O asked for. */
bool wtg_cond_same(const struct wtg_cond_snapshot *a, const struct wtg_cond_snapshot *b);

#endif
