/* descriptor.c: what every layer reads of an experiment's descriptor (wtg/experiment.h) without the
 * registry: its declared columns and its typical time. */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "wtg/experiment.h"
#include "wtg/table.h"

int wtg_experiment_col(const struct wtg_experiment *e, const char *name)
{
	for (int c = 0; name && c < e->ncols; c++)
		if (strcmp(e->cols[c].name, name) == 0)
			return c;
	return -1;
}

void wtg_experiment_columns(const struct wtg_experiment *e, struct wtg_table *t)
{
	wtg_table_set_columns(t, e->cols, e->ncols);
}

/* Typical seconds per run, default and --quick: each experiment alone under the dashboard (one tab,
 * r, its "done in" time; bench/tabs.sh) on a two-core virtual machine (AMD EPYC, 2026-12-01),
 * rounded; a faster or idler machine takes less. Each experiment declares its own (typical_s,
 * typical_quick_s). */
int wtg_experiment_typical_s(const struct wtg_experiment *e, bool quick)
{
	return quick ? e->typical_quick_s : e->typical_s;
}
