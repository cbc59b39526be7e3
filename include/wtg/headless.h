/* headless.h: the headless program (src/headless/): a run of --run's experiments written as reports,
 * --replicate's runs, and --load's saved runs converted or compared. main.c chooses between it and
 * the dashboard. */
#ifndef WTG_HEADLESS_H
#define WTG_HEADLESS_H

#include <stdio.h>

#include "wtg/load.h"
#include "wtg/options.h"
#include "wtg/replicate.h"
#include "wtg/session.h"

/* The saved runs of --baseline (first) and --load, read before anything measures: a file each, or a
 * --replicate document's runs. */
#define WTG_MAX_SAVED (WTG_MAX_LOADS + WTG_MAX_REPLICATES)
struct wtg_saved_runs {
	struct wtg_loaded l[WTG_MAX_SAVED];
	int n;
	int nbase;	/* --baseline's runs (a --replicate document's: 4 or more), the first of l */
};

/* Read every file of --baseline and --load into sr (cleared first); a bad one is a usage error: one
 * line, 2, sr left empty. */
int wtg_saved_runs_read(struct wtg_saved_runs *sr, const struct wtg_options *o);
void wtg_saved_runs_free(struct wtg_saved_runs *sr);
/* No file read is written, nothing written twice (src/cli/paths.c): with one --load its own
 * experiments are what is written, else --run's. 0, or 2 after the usage line. */
int wtg_headless_check_files(const struct wtg_options *o, const struct wtg_saved_runs *sr);

/* --load without --run, not on the dashboard: one run converted to any format, several (or a
 * --baseline) compared. Returns the exit status. */
int wtg_headless_load(const struct wtg_options *o, struct wtg_saved_runs *sr);
/* --run: the selected experiments once, the reports written, then compared with the saved runs when
 * there are any. Returns the exit status. */
int wtg_headless_run(struct wtg_session *s, const struct wtg_options *o, struct wtg_saved_runs *sr);
/* --run with --replicate=N: every run kept whole, then the replication table. */
int wtg_headless_replicate(struct wtg_session *s, const struct wtg_options *o);

/* --list: one line per experiment on f. */
void wtg_headless_list(FILE *f);

#endif
