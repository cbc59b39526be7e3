/* ctx.h: what a run function receives, what it returns, and what it calls back (src/engine/ctx.c). */
#ifndef WTG_CTX_H
#define WTG_CTX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "wtg/stats.h"

struct wtg_arms;
struct wtg_datafile;
struct wtg_machine;
struct wtg_options;
struct wtg_relay;
struct wtg_table;

/* What compare pairs: an experiment and a condition, by name. */
struct wtg_compare_pair {
	char exp[32];
	char cond[16];
};

/* What a run function receives. */
struct wtg_ctx {
	const struct wtg_options *opt;
	struct wtg_datafile *df;	/* ready when run is called */
	struct wtg_table *t;		/* the experiment's table, already reset */
	struct wtg_rng rng;		/* seeded from --seed and the experiment's name */
	atomic_bool *cancel;		/* set by the UI (rerun, quit) or the starvation watchdog */
	_Atomic int64_t *heartbeat;	/* wtg_now_ns() of the last sign of progress */
	const char *argv0;		/* /proc/self/exe for child processes */
	const struct wtg_machine *machine;	/* the machine block (caches, CPUs); NULL in some tests */
	/* what compare pairs in this run, fixed when it starts (the session's pair, which the dashboard's
	 * v moves); an empty exp: the options' (wtg_compare_pair_of) */
	struct wtg_compare_pair compare;
	/* an interleaved run (wtg/relay.h): the baton this experiment shares with the others and its
	 * place among them; NULL when it runs alone */
	struct wtg_relay *relay;
	int relay_slot;
	/* c emptied the page cache of the data file for this run, and the experiment measures_cold:
	 * no warm-up reads the file back, each sample starts on an evicted file */
	bool cold;
	/* --versus: the arms this run alternates (wtg/paired.h); NULL: unpaired */
	struct wtg_arms *arms;
};

#define WTG_OK 0
#define WTG_ERR (-1)		/* wtg_table_fail() was called with the cause */
#define WTG_CANCELLED 1

/* A replica ended: in an interleaved run the other experiments take their turns before this returns
 * (true: they did, so caches and the page cache may have changed: warm up again). False at once
 * when the experiment runs alone. */
bool wtg_ctx_interleave(struct wtg_ctx *ctx);
/* Seconds since the interleaved run began (0 when alone or not begun). */
double wtg_ctx_run_offset_s(const struct wtg_ctx *ctx);
/* True when the run should stop; also beats the heartbeat. Call between batches. */
bool wtg_ctx_cancelled(struct wtg_ctx *ctx);
/* Progress for the bar: step of nsteps, label such as "bufsize 256K". Beats the heartbeat. */
void wtg_ctx_progress(struct wtg_ctx *ctx, int step, int nsteps, const char *label);
/* The work done of the whole run's in ns, total being done plus the expected ns of the steps still to
 * run: the time left is total - done, each remaining step by its cost, not the step count
 * (wtg_table_work). */
void wtg_ctx_work(struct wtg_ctx *ctx, double done, double total);

#endif
