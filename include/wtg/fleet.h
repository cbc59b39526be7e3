/* fleet.h: many machines' saved runs summarized (a class's laptops, a fleet of servers). Every
 * --load file (a folder gives its *.json) is read in turn, its headline figures, its machine and
 * the why-here reasons kept, and freed (src/saved/fleet.c); the runs of one machine are grouped by
 * its identity; per headline figure the machines' median, quartiles (Hyndman-Fan type 7), extremes
 * and their hosts, overall and per group, and a line in words (src/saved/fleet_stats.c); written as
 * text, Markdown, long CSV or JSON (src/headless/fleet.c). */
#ifndef WTG_FLEET_H
#define WTG_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wtg/options.h"

struct wtg_headline;

/* ---- the command line's --load list (src/cli/loads.c) ---- */

/* Append one --load argument to o->loads. 0, or -1 out of memory. */
int wtg_loads_add(struct wtg_options *o, const char *arg);
/* Replace each folder in o->loads by the *.json files in it (names starting with '.' left out),
 * sorted by name. A folder without any is a usage error. 0, or 2 after the usage line. */
int wtg_loads_expand(struct wtg_options *o);
/* Say on stderr how many reports each folder gave ("wtg: --load=runs/: 31 reports"), once the
 * command line is good and the files are about to be read. */
void wtg_loads_say(void);
/* Whether the loads are summarized as machines: more than WTG_MAX_LOAD_FILES of them, or --summary. */
bool wtg_loads_summary(const struct wtg_options *o);
/* -o FOLDER (an existing folder, JSON): the name of a new report in it, after name (--label; NULL:
 * this host) and now, "FOLDER/HOST-20261203-101500.json" ("-2" ... before ".json" when that exists).
 * The string lives until exit; NULL when no name fits. */
const char *wtg_collect_name(const char *folder, const char *name);
/* Write s's report to path, one wtg_collect_name gave: never over an existing file; when another
 * wtg took the name meanwhile, the next free suffix (path's string then names the file written).
 * Otherwise as wtg_report_save. */
struct wtg_session;
int wtg_collect_save(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which, char *err,
		     size_t errlen);

/* ---- the machines and their figures (src/saved/fleet.c) ---- */

/* What a group is drawn by: the facts the why-here reasons read from the machine block. */
enum wtg_fleet_dim { WTG_DIM_VM = 0, WTG_DIM_PTI, WTG_DIM_CLOCK, WTG_DIM_PAGE, WTG_DIM_VENDOR, WTG_DIM_CPUS,
		     WTG_NDIMS };
/* The dimension's name ("virtual machine", "page-table isolation" ...). */
const char *wtg_fleet_dim_name(enum wtg_fleet_dim d);

/* One headline figure the summary covers. */
struct wtg_fleet_fig {
	int exp;			/* registry index */
	const struct wtg_headline *h;
	char name[48];			/* "syscall", "wss 2" for an experiment's second headline */
};

/* One machine: its identity, what it is, and per figure the median of its runs' values. */
struct wtg_fleet_machine {
	char *id;			/* "L<tab>label", or "H<tab>host<tab>CPU<tab>memory" */
	char *name;			/* the label, else the host name ("host (2)" for a second machine of
					 * that name); raw, escaped where written */
	char *host, *cpu;
	uint64_t memory;
	char *dim[WTG_NDIMS];		/* each dimension's value ("kvm", "bare metal", "PTI" ...) */
	int nruns;
	char *first_file, *last_time;	/* the first report read for it, the latest run's timestamp */
	double *v;			/* [nfigs]: median of its runs' finite values, NAN: none */
	double *runv;			/* while reading: [nruns][nfigs] */
	char **why;			/* [WTG_MAX_EXP]: the why-here sentence of its last run, or NULL */
};

struct wtg_fleet {
	struct wtg_fleet_fig figs[2 * WTG_MAX_EXP];
	int nfigs;
	struct wtg_fleet_machine *m;
	int nm, cap;
	int reports, runs, left_out;	/* files read whole, runs in them, files left out */
	const char **left;		/* [left_out]: the files left out (the caller's strings) */
	void *index;			/* identity -> machine (a hash table) */
	int index_cap;
};

void wtg_fleet_init(struct wtg_fleet *fl);
void wtg_fleet_free(struct wtg_fleet *fl);
/* Read path's run (or runs, a --replicate document) into fl and free it. On a problem returns -1
 * with one line in err and fl unchanged. */
int wtg_fleet_add_file(struct wtg_fleet *fl, const char *path, char *err, size_t errlen);
/* After the last file: each machine's value per figure from its runs. */
void wtg_fleet_finish(struct wtg_fleet *fl);
/* The machine called name (its label, host name or name), or -1. */
int wtg_fleet_find(const struct wtg_fleet *fl, const char *name);

/* ---- the statistics (src/saved/fleet_stats.c) ---- */

/* The machines' values of one figure, or of a group of them. */
struct wtg_fleet_stat {
	int n;				/* machines with the figure */
	double min, q1, median, q3, max;	/* type 7; NAN when n == 0 */
	int min_m, max_m;		/* the machines of min and max (-1: none) */
};
/* Statistics of figure f over the machines whose dimension d reads value (d < 0: all of them). */
void wtg_fleet_stat(const struct wtg_fleet *fl, int f, int d, const char *value, struct wtg_fleet_stat *st);
/* The values dimension d takes among the machines with figure f, each once, in order of first
 * appearance: at most max into vals (pointers into the machines); how many. */
int wtg_fleet_dim_values(const struct wtg_fleet *fl, int f, int d, const char **vals, int max);
/* The line in words for figure f: "syscall: 31 machines, median 96 ns [quartiles 88-140]; the 6
 * slowest are virtual machines with page-table isolation (1,150-1,300 ns); this one: 86 ns, 4th
 * fastest" (highlight: the machine's index, -1 none). Raw (a host name may appear): escape it. */
void wtg_fleet_line(const struct wtg_fleet *fl, int f, int highlight, char *buf, size_t len);
/* The ticks of a log axis over [lo, hi] into t (at most cap): 1, 2 and 5 x 10^k, or 10^k alone
 * when those are more than most. How many. */
int wtg_fleet_ticks(double lo, double hi, int most, double *t, int cap);
/* A figure's value as the summary writes it: three significant digits, thousands grouped. */
void wtg_fleet_fmt(char *buf, size_t len, double v);

/* ---- the headless summary (src/headless/fleet.c) ---- */

/* Read every --load file into a summary and write it in o's format, on standard output or into each
 * -o (whole or not at all). A file that fails is named in one line and left out. Returns 0, 1 when
 * a file was left out or a write failed, 2 when none loaded. */
int wtg_fleet_main(const struct wtg_options *o);
/* Every --load file into fl (each failure named on stderr, "...; left out"), finished, and the
 * --highlight machine's index (-1 without). 0, or 2 after the line saying why (none loaded, no such
 * machine) with fl freed. */
int wtg_fleet_read(const struct wtg_options *o, struct wtg_fleet *fl, int *highlight);
/* The machines view on a terminal (src/tui/machines.c): per headline figure one dot per machine on a
 * log axis, overall and per group, the quartiles, the highlighted machine and the line in words.
 * Returns the exit status (1 when a file was left out). */
int wtg_tui_machines(const struct wtg_options *o);
/* Figure fig's slide (1280x720): the strip chart of its machines and groups, the line in words
 * (src/report/fleet_svg.c); attrs go into its <svg> tag (may be NULL). */
void wtg_fleet_svg_chart(FILE *f, const struct wtg_fleet *fl, int fig, int highlight, const char *attrs);
/* Write fl's summary in fmt (text, markdown, csv, json, svg, html); highlight as for wtg_fleet_line. 0, or -1
 * on a write error. */
int wtg_fleet_write(FILE *f, enum wtg_format fmt, const struct wtg_fleet *fl, int highlight);

#endif
