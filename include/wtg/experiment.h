/* experiment.h: an experiment is a descriptor plus one run function. */
#ifndef WTG_EXPERIMENT_H
#define WTG_EXPERIMENT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "wtg/datafile.h"
#include "wtg/machine.h"
#include "wtg/options.h"
#include "wtg/stats.h"
#include "wtg/table.h"

enum wtg_view { WTG_VIEW_SWEEP = 0, WTG_VIEW_BARS, WTG_VIEW_HISTOGRAM, WTG_VIEW_COUNTERS };

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
};

#define WTG_OK 0
#define WTG_ERR (-1)		/* wtg_table_fail() was called with the cause */
#define WTG_CANCELLED 1

struct wtg_experiment {
	const char *name;
	const char *question;
	const char *runs;	/* one line: what it runs (for --list, help and the man page) */
	enum wtg_view view;
	bool needs_datafile;
	int (*run)(struct wtg_ctx *ctx);	/* NULL: not built yet */
};

/* True when the run should stop; also beats the heartbeat. Call between batches. */
bool wtg_ctx_cancelled(struct wtg_ctx *ctx);
/* Progress for the bar: step of nsteps, label such as "bufsize 256K". Beats the heartbeat. */
void wtg_ctx_progress(struct wtg_ctx *ctx, int step, int nsteps, const char *label);

/* The ordered registry (src/experiments/experiments.c). */
extern const struct wtg_experiment *const wtg_experiments[];
extern const int wtg_nexperiments;
/* Index by name, or -1. */
int wtg_experiment_find(const char *name);
/* Typical wall time of a run of e in seconds on a two-core machine, by default or with --quick
 * (measured with the whole catalogue; shown by --list and the README). 0 when unknown. */
int wtg_experiment_typical_s(const struct wtg_experiment *e, bool quick);
const char *wtg_view_name(enum wtg_view v);

/* The hidden child mode of faultbase (wtg --child=MODE FILE): exit, map, or sum. Returns the exit status. */
int wtg_faultbase_child(const char *mode, const char *path);

#endif
