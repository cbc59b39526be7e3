/* paths.h: no file wtg writes is a file it reads, and no file is written twice (src/cli/paths.c). */
#ifndef WTG_PATHS_H
#define WTG_PATHS_H

#include <stdbool.h>

#include "wtg/options.h"

/* Every file read (--file, each --load, --baseline) against every file written (each -o, each
 * NAME.svg of an SVG folder for the experiments in written, standard output when it is a file),
 * by device and inode after links, or by folder and name for a file not made yet; also an -o name
 * too long, and an existing plain file where an SVG folder is needed. Returns 0, or 2 after one
 * usage line naming both. Call it after the saved runs are read and before anything is measured
 * or written. */
int wtg_check_paths(const struct wtg_options *o, const bool *written);
/* --record's file against every file read and against the terminal: 0, or 2 after one usage line. */
int wtg_check_record(const struct wtg_options *o);

#endif
