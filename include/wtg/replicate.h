/* replicate.h: runs of one machine and one set of options side by side (--replicate=N, or several
 * --load files): per headline figure each run's median and 95% CI, the spread between the runs, and
 * how many of the other runs' medians each run's CI holds. A CI describes one run's luck; only
 * another run shows whether it also describes the next. */
#ifndef WTG_REPLICATE_H
#define WTG_REPLICATE_H

#include <stdint.h>
#include <stdio.h>

#include "wtg/gate.h"
#include "wtg/load.h"
#include "wtg/options.h"
#include "wtg/session.h"

/* The replication table of runs (n >= 2) in fmt: text (a table per figure and the 'replication'
 * check lines) or json (one object, for the caller to place as a member's value). Returns how many
 * figures warned (some run's CI holds no more than half of the other runs' medians), -1 on a write
 * error. */
int wtg_replication_report(FILE *f, enum wtg_format fmt, const struct wtg_gate_run *runs, int n, uint64_t seed);

/* The runs of --replicate, each kept as its JSON report and read back as a saved run. */
struct wtg_replicas {
	int n;				/* runs taken so far */
	char *json[WTG_MAX_REPLICATES];	/* each run's report, as written */
	size_t len[WTG_MAX_REPLICATES];
	struct wtg_loaded *l;		/* WTG_MAX_REPLICATES of them */
	char order[WTG_MAX_REPLICATES][256];	/* the experiments in the order that run ran them */
};
/* Returns 0, or -1 when out of memory. */
int wtg_replicas_init(struct wtg_replicas *rp);
void wtg_replicas_free(struct wtg_replicas *rp);
/* Keep the session's run of the selected experiments (order: the registry indices in the order they
 * ran, norder of them). Returns 0, or -1 with a line in err. */
int wtg_replicas_take(struct wtg_replicas *rp, struct wtg_session *s, const bool *selected, const int *order,
		      int norder, char *err, size_t errlen);
/* Every run whole, then the replication table: text, or one json document {"runs": [...],
 * "replication": {...}}. Returns the figures that warned, or -1 on a write error. */
int wtg_replicas_write(FILE *f, enum wtg_format fmt, const struct wtg_replicas *rp, uint64_t seed);

#endif
