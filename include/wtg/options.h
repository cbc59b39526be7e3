/* options.h: the parsed command line. */
#ifndef WTG_OPTIONS_H
#define WTG_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "wtg/arms.h"

enum wtg_mode { WTG_MODE_DASHBOARD = 0, WTG_MODE_RUN, WTG_MODE_LIST, WTG_MODE_HELP, WTG_MODE_VERSION,
		WTG_MODE_CHILD, WTG_MODE_LOAD, WTG_MODE_DRYRUN };
/* Report formats, in the order of the writers table (src/report/report.c). */
enum wtg_format { WTG_FMT_TEXT = 0, WTG_FMT_CSV, WTG_FMT_JSON, WTG_FMT_MARKDOWN, WTG_FMT_SVG,
		  WTG_FMT_HTML, WTG_NFORMATS };
/* --progress: a self-erasing line on stderr when it is a terminal (auto), always, or never. */
enum wtg_progress { WTG_PROGRESS_AUTO = 0, WTG_PROGRESS_ALWAYS, WTG_PROGRESS_NEVER };

/* At most this many experiments in the registry (and tables in a session or a saved run): the
 * options hold one selection per experiment; wtg/experiment.h takes it from here. */
#define WTG_MAX_EXP 32

#define WTG_MAX_OUTPUTS 16
/* More --load files than this (after folders are read) are summarized as machines (src/saved/fleet.c),
 * not compared pairwise: the overlays of up to eight runs. */
#define WTG_MAX_LOAD_FILES 8

/* One -o: where and in which format. path "-" is standard output. */
struct wtg_output {
	const char *path;
	enum wtg_format format;
	bool collect;		/* -o FOLDER: a new file named after the host (wtg_collect_save) */
};

#define WTG_DEFAULT_SIZE (256ull << 20)
#define WTG_QUICK_SIZE (64ull << 20)

struct wtg_options {
	enum wtg_mode mode;
	bool selected[WTG_MAX_EXP];		/* by registry index, for --run */
	enum wtg_format format;		/* --format: standard output, and -o without a known extension */
	bool format_given;
	struct wtg_output outputs[WTG_MAX_OUTPUTS];	/* -o, in command-line order */
	int noutputs;
	bool quiet;			/* --quiet: no text summary beside -o files */
	bool wide;			/* --wide: text tables whole, however wide */
	enum wtg_progress progress;
	int argc;			/* the command line, for the report's run block */
	const char *const *argv;
	const char *file;		/* --file */
	const char *dir;		/* --dir, or $TMPDIR, or /var/tmp */
	const char *dir_origin;		/* where dir came from, for messages: "--dir", "TMPDIR", "the default folder" */
	uint64_t size;			/* --size */
	bool size_given;
	bool quick;
	int threads;			/* --threads */
	int burn;			/* --burn[=N[:KIND]]: 0 off */
	int burn_kind;			/* enum wtg_burn_kind: spin (default) or stream */
	bool background;
	bool uncached;
	uint64_t seed;
	bool color;
	bool ascii;
	const char *compare_exp;	/* --compare=EXP:COND, default syscall */
	const char *compare_cond;	/* burn | background | uncached | cold */
	struct wtg_versus versus;	/* --versus=COND: every row in two arms (wtg/paired.h); cond NONE: off */
	const char *child_mode;		/* hidden: --child=MODE for faultbase controls */
	const char *child_path;
	int64_t time_limit_ms;		/* per-row limit before a starved row is ended */
	/* the lecture: the dashboard's tabs and autoplay in this order (registry indices) */
	int order[WTG_MAX_EXP];			/* --order=LIST; all experiments in registry order by default */
	int norder;
	int hold_ms;			/* --hold=SEC: how long autoplay keeps a finished tab (default 4 s) */
	bool step;			/* --step: every "next" moves on and runs the tab afresh */
	const char *record;		/* --record=FILE: the dashboard's screen as an asciicast v2 recording */
	/* saved runs (src/saved/) and the gate (src/saved/gate.c) */
	const char **loads;		/* --load=FILE, in command-line order (a folder: its *.json once read,
					 * wtg_loads_expand); allocated, kept until exit */
	int nloads;
	bool summary;			/* --summary: the machines' summary even for 8 runs or fewer */
	const char *highlight;		/* --highlight=HOST: the machine a summary places ("this one") */
	const char *label;		/* --label: the live run's name in reports and comparisons */
	const char *baseline;		/* --baseline=FILE: compare each headline figure, exit 3 on a regression */
	double threshold_pct;		/* --threshold=PCT (default 10) */
	bool threshold_given;
	bool dry_run;			/* --dry-run: print the plans (WTG_MODE_DRYRUN), measure nothing */
	int replicate;			/* --replicate=N: the selected experiments N times (0: once, no table) */
	double gap_s;			/* --gap=SEC: seconds between --replicate's runs (0: none) */
};

/* --replicate's largest N */
#define WTG_MAX_REPLICATES 20

/* Parse argv. On a usage error prints one "wtg: ..." line to stderr and returns 2. Returns 0 on success. */
int wtg_parse_options(int argc, char **argv, struct wtg_options *o);
void wtg_print_help(FILE *f);
/* The version, copyright and licence lines. */
void wtg_print_version(FILE *f);
/* Whether the run may need the data file: the dashboard when one of its tabs (--order) reads it,
 * --run when a selected experiment does. Otherwise wtg neither checks, sweeps nor uses the folder. */
bool wtg_options_need_datafile(const struct wtg_options *o);
/* Whether any -o is standard output ("-", /dev/stdout, /dev/fd/1, ...). */
bool wtg_options_stdout_output(const struct wtg_options *o);

#endif
