/* headless_int.h: what the headless program's files share (src/headless/). */
#ifndef WTG_HEADLESS_INT_H
#define WTG_HEADLESS_INT_H

#include <stdbool.h>

#include "wtg/gate.h"
#include "wtg/headless.h"
#include "wtg/report.h"

/* A saved run read back, written without a session (--load with --format or -o). */
struct wtg_hl_source {
	const struct wtg_report_meta *m;
	const struct wtg_table *const *tables;
};

/* While reports are written, INT, TERM and HUP end wtg at once: every temp file and the data file
 * removed, one line, then death by the signal (wtg_fatal_die). */
void wtg_hl_die_on_signals(void);

/* A run as the gate and the comparison read it: its tables where present is true. */
void wtg_hl_gate_run(struct wtg_gate_run *r, const struct wtg_run_meta *m, struct wtg_table *tables,
		     const bool *present);

/* Write every -o, then the report or the summary on standard output (s live, or sv saved). A closed
 * pipe ends quietly (as other tools die of SIGPIPE). Returns the exit status so far, updated. */
int wtg_hl_write_outputs(struct wtg_session *s, const struct wtg_hl_source *sv, const struct wtg_options *o,
			 int status, bool comparing);
/* The comparison (or the gate) of runs on standard output, or into each -o when nothing was
 * measured; nbase: the baseline's runs. Returns 0, 3 for a regression under --baseline, 1 for a write
 * error. */
int wtg_hl_compare_out(const struct wtg_options *o, int nbase, const struct wtg_gate_run *runs, int n);
/* Every replicated run whole and the replication table: on standard output, or into each -o (then
 * the table alone on standard output unless --quiet or an -o is standard output). */
int wtg_hl_replicas_out(struct wtg_replicas *rp, const struct wtg_options *o);

#endif
