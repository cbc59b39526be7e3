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
/* Start exactly n burner threads (0 stops them all). Returns the number running, or -1. */
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
/* Called from a normal-policy thread when a measuring thread is starved: every registered
 * measuring thread is put back to SCHED_OTHER so it can notice its cancel flag, and stays normal
 * until the request changes or it calls wtg_policy_reset_self(). Returns how many registered
 * threads are still SCHED_IDLE: leaving SCHED_IDLE needs CAP_SYS_NICE or RLIMIT_NICE >= 20,
 * so without privilege a rescue usually fails (0 = every thread rescued). */
int wtg_policy_rescue(void);
/* Called by a measuring thread when it starts a new experiment: a past rescue no longer holds,
 * the next wtg_policy_apply_self() applies the request again. */
void wtg_policy_reset_self(void);

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

/* The data file the I/O mode applies to (set once it is ready). */
void wtg_cond_set_datafile(const struct wtg_datafile *df);
/* df NULL: the one set with wtg_cond_set_datafile. */
void wtg_cond_snapshot(struct wtg_cond_snapshot *s, const struct wtg_datafile *df);

#endif
