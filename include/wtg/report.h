/* report.h: the report writers (text, CSV, JSON, Markdown, SVG, HTML) over the same tables,
 * the table of them, and saving a report whole or not at all. */
#ifndef WTG_REPORT_H
#define WTG_REPORT_H

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "wtg/compare.h"
#include "wtg/options.h"
#include "wtg/session.h"

struct wtg_run_meta;
struct wtg_loaded;

/* The version of the JSON layout (documented in wtg(1), schema in $(pkgdatadir)/wtg-report.schema.json). */
#define WTG_JSON_SCHEMA 2
/* Series longer than this are thinned evenly in JSON, with the count they had. */
#define WTG_JSON_MAX_SAMPLES 65536

/* ---- the metadata a report carries beside its tables ---- */

/* When and how the run was made: the headless run marks its start and end; a report written
 * without them (the dashboard's save) gives the time of writing and no duration. */
struct wtg_report_run {
	bool begun, ended;
	int64_t start_real_ns;		/* CLOCK_REALTIME at the start */
	int64_t start_ns, end_ns;	/* CLOCK_MONOTONIC */
	struct wtg_cond_snapshot cond_start;
};
void wtg_report_run_begin(void);
void wtg_report_run_end(void);
const struct wtg_report_run *wtg_report_run_info(void);
/* "2026-11-30T19:26:36Z" for ns since the epoch (CLOCK_REALTIME). */
void wtg_report_iso8601(char *buf, size_t len, int64_t real_ns);
/* Seconds the run took, NAN while unknown. */
double wtg_report_duration_s(void);

/* Over the tables written: how many, and their checks in each state. */
struct wtg_report_tally {
	int experiments, failed_experiments, ok, warn, fail;
};

/* Everything a writer reads besides the tables: where and how the tables were made. Built from a
 * live session by wtg_report_meta_from_session, or filled in by a reader of a saved JSON report;
 * a writer never sees the session. Pointers may be NULL where the source does not know. */
/* A tab's earlier runs the dashboard keeps (before -> after, e), written with its table as
 * earlier_runs, oldest first, each with the label that names its conditions (at most
 * WTG_LOAD_MAX_EARLIER, so that the file loads back). */
#define WTG_REPORT_MAX_EARLIER 32
struct wtg_report_earlier {
	int n;
	const struct wtg_table *t[WTG_REPORT_MAX_EARLIER];
	const char *label[WTG_REPORT_MAX_EARLIER];
	/* the machine each was measured on (a saved file's own), for its why_here; NULL: the report's */
	const struct wtg_machine *machine[WTG_REPORT_MAX_EARLIER];
	/* the run the tab shows when the session has not run it (a saved one, --load): written as the
	 * table in place of the session's idle one; NULL: none */
	const struct wtg_table *shown;
	const struct wtg_machine *shown_machine;	/* the machine shown was measured on; NULL: the report's */
	/* shown is written as the table even though the session ran the experiment: its last run
	 * ended short (cancelled, failed) or still measures after a completed one, which is never
	 * displaced (that last run is then among t) */
	bool over;
	int dropped;			/* runs of the session the dashboard's cap let go (earlier_runs_dropped) */
};

struct wtg_report_meta {
	const struct wtg_machine *machine;	/* never NULL (a zeroed one when unknown) */
	const struct wtg_topology *topo;	/* NULL: unknown */
	const char *topo_summary;		/* "1 package, 2 cores, 1 NUMA node", or NULL */
	enum wtg_df_state df_state;		/* the data file: none, being prepared, ready or failed */
	const struct wtg_datafile *df;		/* read only when df_state is WTG_DF_READY */
	const char *df_error;			/* with WTG_DF_FAILED */
	const char *file;			/* --file, or NULL when wtg made the file or it is unknown */
	struct wtg_cond_snapshot cond;		/* the conditions when the report is written */
	const struct wtg_options *opt;		/* NULL: options and command line unknown */
	struct wtg_compare_pair compare;	/* what compare paired last (v moves it); empty: opt's */
	bool has_seed;				/* seed and quick are known (from opt, or a saved report) */
	uint64_t seed;
	bool quick;
	const char *label;			/* --label, or a saved run's label; NULL: none */
	struct wtg_report_run run;		/* start and end of the run (begun false: unknown) */
	double duration_s;			/* NAN while unknown */
	int64_t written_real_ns;		/* when the report is written (CLOCK_REALTIME) */
	bool wanted[WTG_MAX_EXP];		/* the tables written, by registry index */
	int ntables;				/* how many */
	struct wtg_report_tally tally;		/* over them */
	const struct wtg_report_earlier *earlier;	/* by registry index (the session's), NULL: none */
	/* by registry index: a table written in place of the session's, which has not run (earlier's
	 * shown), NULL: the session's own */
	const struct wtg_table *instead[WTG_MAX_EXP];
};

/* Fill m from a live session for the tables `which` picks (NULL: every table with rows or a state
 * other than idle), locking each table in turn (a writer takes wtg_report_snapshot instead, whose
 * tally is the copies'), with each tab's earlier runs (NULL: none). m points into s and earlier:
 * use it while they live. */
void wtg_report_meta_from_session(struct wtg_report_meta *m, struct wtg_session *s, const bool *which,
				  const struct wtg_report_earlier *earlier);
/* The time the run started (or, unknown, the report was written) as ISO 8601. */
void wtg_report_meta_when(const struct wtg_report_meta *m, char *buf, size_t len);

/* One writer: the word --format takes, the file ending -o recognises, and three calls in order:
 * begin (headers, the machine), table for each table written (a private copy; n counts those before
 * it), end. A NULL begin is a format not built (asking for it is a usage error). Writers see the
 * tables and the metadata, never the session; report.c owns the loop, the snapshots and the C
 * locale. */
struct wtg_writer {
	const char *name;
	const char *ext;
	void (*begin)(FILE *f, const struct wtg_report_meta *m);
	void (*table)(FILE *f, const struct wtg_report_meta *m, const struct wtg_table *t, int n);
	void (*end)(FILE *f, const struct wtg_report_meta *m, int n);
};
/* Indexed by enum wtg_format. */
extern const struct wtg_writer wtg_writers[WTG_NFORMATS];
/* The format called name ("json"), or -1. */
int wtg_format_parse(const char *name);
/* The format a file name's ending names (".json", ".md" ...), or -1. */
int wtg_format_from_path(const char *path);

/* A copy of every session table, each taken under its lock in turn (WTG_MAX_EXP of them, by registry
 * index), and m filled from the session with the tables `which` picks and their tally counted from
 * the copies, so the tally and the rows written agree and no writer holds a live table's lock
 * (the measuring thread never waits for a file). NULL when memory ran out. Free it with
 * wtg_report_snapshot_free; m points into s and the copies. */
struct wtg_table *wtg_report_snapshot(struct wtg_session *s, struct wtg_report_meta *m, const bool *which,
				      const struct wtg_report_earlier *earlier);
void wtg_report_snapshot_free(struct wtg_table *snap);
/* Write the tables whose registry index is set in `which` (NULL: every table with rows), in the C
 * numeric locale, from a snapshot (wtg_report_snapshot). Returns 0, or -1 on a write error (errno
 * set). */
int wtg_report_write(FILE *f, enum wtg_format fmt, struct wtg_session *s, const bool *which);
/* The same from metadata and tables made elsewhere (a saved report read back): tables[i] is written
 * when m->wanted[i]; the caller keeps them from changing. */
int wtg_report_write_meta(FILE *f, enum wtg_format fmt, const struct wtg_report_meta *m,
			  const struct wtg_table *const *tables);
/* Each wanted table's chart as DIR/NAME.svg, each whole or not at all; makes DIR when it is missing
 * (not its parents). Returns 0, or -1 with a message in err. */
int wtg_report_svg_dir(const char *dir, struct wtg_session *s, const bool *which, char *err, size_t errlen);

/* The blocks of key/value lines the text and HTML reports show before the tables (JSON writes the
 * same facts as typed fields). */
enum wtg_report_block { WTG_BLOCK_MACHINE, WTG_BLOCK_DATAFILE, WTG_BLOCK_CONDITIONS };
typedef void (*wtg_report_item_fn)(void *arg, const char *key, const char *value);
/* Call fn with each line of the block: "CPU" "AMD EPYC ...", "known sum" "8,556,150,000" ... */
void wtg_report_items(const struct wtg_report_meta *m, enum wtg_report_block block, wtg_report_item_fn fn,
		      void *arg);

/* The text report's tables: folded to the page (the terminal's width when it writes to one, else 80
 * columns: the rows' key, then as many columns as fit beside it, again below for the rest, or each
 * row as a block of "name [unit]: value" lines), or with wide whole however wide (--wide). */
void wtg_report_set_wide(bool wide);

/* The closing line of a text report: "17 experiments, checks: 52 ok, 1 warn, 0 failed, 43.2 s". */
void wtg_report_summary_line(FILE *f, const struct wtg_report_meta *m);
/* The same for a session's tables, for the summary printed beside -o files. */
void wtg_report_summary(FILE *f, struct wtg_session *s, const bool *which);

/* Write to path whole or not at all (temp file in the same folder + fsync + rename for a regular
 * file or a new one, whatever the spelling: /proc/self/cwd/x, /dev/fd/N, /dev/shm/x; what is not a
 * regular file, a terminal, a pipe or a device, is written into, a FIFO without a reader refused at
 * once; "-" is standard output; through a symlink the target is replaced; a replaced file keeps its
 * owner and mode). Returns 0, or -1 with a message in err (errno left at the cause: EPIPE for a
 * closed pipe). */
int wtg_report_save(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
		    char *err, size_t errlen);

/* The same for metadata and tables made elsewhere (a saved run read back, wtg_loaded_report_meta). */
int wtg_report_save_meta(const char *path, enum wtg_format fmt, const struct wtg_report_meta *m,
			 const struct wtg_table *const *tables, char *err, size_t errlen);

/* The same for a report another writer makes (fn writes into f, with arg; 0 or -1): a comparison. */
int wtg_report_save_with(const char *path, int (*fn)(FILE *f, void *arg), void *arg, char *err,
			 size_t errlen);

/* Before anything is measured: keep the identity (device and inode) of every file wtg reads (--file,
 * --baseline, each --load) and which output names (each -o, each chart of an SVG folder) are
 * symbolic links. Every save then compares the name it renames onto (or writes in place) with them
 * immediately before it does, and refuses an input or a link that appeared since: "cannot write
 * 'x': it is now the --baseline file 'y', which wtg never writes; left as it is". */
void wtg_report_guard(const struct wtg_options *o);

/* Remove every temp file a save is writing now. Async-signal-safe: for the paths that end wtg on a
 * signal (wtg_session_emergency_cleanup, to which the first save adds it). */
void wtg_report_remove_temps(void);

/* path is "-" or names the file, pipe or terminal standard output is. */
bool wtg_report_is_stdout(const char *path);

/* Like wtg_report_save, but never replaces a file: when path exists, returns -1 with errno EEXIST
 * (and a message in err) and leaves both alone. earlier: the dashboard's earlier runs of each tab, by
 * registry index, written beside the session's (NULL: none). written_ns: the wall-clock time the
 * report says it was written (a set of files saved together says one), 0 for now. */
int wtg_report_save_new(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
			const struct wtg_report_earlier *earlier, int64_t written_ns, char *err, size_t errlen);

/* An experiment's chart as an <svg> element with a 1280x720 view box; attrs (may be NULL) go into
 * its start tag. The caller holds the table's lock. */
void wtg_svg_chart(FILE *f, const struct wtg_table *t, const struct wtg_machine *m, const char *attrs);
/* One experiment's tables of several runs (the same experiment, at most WTG_LAY_MAX_RUNS of them)
 * overlaid on one chart as the dashboard draws them: one pair of axes, each run a colour and marker
 * and a legend entry label[r]; m marks a working-set axis' caches (NULL: none). One table: its chart. */
void wtg_svg_overlay(FILE *f, const struct wtg_table *const *t, const char *const *label, int n,
		     const struct wtg_machine *m, const char *attrs);
/* The same for a page whose heading names the experiment and asks its question (the HTML report):
 * without the chart's own title lines, its view box starting below them. */
void wtg_svg_page_chart(FILE *f, const struct wtg_table *const *t, const char *const *label, int n,
			const struct wtg_machine *m, const char *attrs);
/* One run's headline figure beside the first run's, for a comparison's chart. */
struct wtg_svg_ratio {
	const char *label;	/* the run's label */
	double value;		/* its figure, NAN when the run lacks it */
	double ratio, lo, hi;	/* value / the first run's, with its 95% CI (NAN when none) */
	const char *verdict;	/* "no change", "faster" ..., NULL for the first run */
};
/* A chart of one headline figure across runs: each run's ratio to the first as a dot with its
 * interval, 1 marked; title and sub name the figure and which way is better, axis what the ratios
 * are to (NULL: the first run, whiskers its CIs). attrs as for wtg_svg_chart. */
void wtg_svg_ratio_chart(FILE *f, const char *attrs, const char *title, const char *sub, const char *axis,
			 const struct wtg_svg_ratio *r, int n);
/* The live run's metadata: label (--label, else "live"), machine, options, conditions now
 * (src/report/runmeta.c). */
void wtg_run_meta_live(struct wtg_run_meta *m, const struct wtg_session *s);
/* Fill m to write the loaded run again: its machine, topology, data file, conditions, options,
 * command line, seed, start, duration and label, and its tables (tables[i], present ones wanted).
 * m and tables point into l: use them while l lives. */
void wtg_loaded_report_meta(const struct wtg_loaded *l, struct wtg_report_meta *m,
			    const struct wtg_table **tables);

/* s as Markdown text on one line: markup characters and '|' escaped, line breaks and tabs as spaces,
 * other control characters, C1 controls and bytes that are not UTF-8 escaped as wtg_escape does. */
void wtg_markdown_text(FILE *f, const char *s);

/* Text for XML (element content or a quoted attribute): & < > " ' escaped, control characters as
 * spaces, invalid UTF-8 as U+FFFD. */
void wtg_xml_string(FILE *f, const char *s);

/* A CSV field (RFC 4180), quoted only when it holds a comma, a quote, a line break or edge spaces;
 * NULL writes an empty field. */
void wtg_csv_field(FILE *f, const char *s);

/* JSON string escaping, shared with tests. NULL writes null; invalid UTF-8 becomes U+FFFD. */
void wtg_json_string(FILE *f, const char *s);
/* ', "key": number' (null when not finite): a member after the first of a JSON object. */
void wtg_json_member(FILE *f, const char *key, double v);

/* ---- shared by the writers (src/report/report.c) ---- */

/* "idle", "running", "done", "failed", "cancelled". */
const char *wtg_report_state_name(enum wtg_state st);
/* The machine table t of a report was measured on, for its why_here: a saved run's own (an earlier
 * run or the shown one, m->earlier), else the report's. */
const struct wtg_machine *wtg_report_machine_of(const struct wtg_report_meta *m, const struct wtg_table *t);
/* "normal" (0), "background" (1), NULL when unknown. */
const char *wtg_report_policy_name(int policy);

/* The columns every row gets after the experiment's own: its probe and its conditions
 * (probe_wall_ms ... probe_migrations, cond_burners, cond_policy, cond_io). */
#define WTG_REPORT_NEXTRA 12
extern const struct wtg_column wtg_report_extra_cols[WTG_REPORT_NEXTRA];
/* Column c of the report: the table's own columns, then the extra ones. */
const struct wtg_column *wtg_report_column(const struct wtg_table *t, int c);
/* Call fn with each value of a row, its own columns then the extra ones, i counting from 0. */
void wtg_report_row_values(FILE *f, const struct wtg_table *t, const struct wtg_row *row,
			   void (*fn)(FILE *f, const struct wtg_value *v, int i));
/* The row's values for them: n/a for the probe ones when the row has no probe. Text values
 * point into buf (64 bytes or more). */
void wtg_report_extra_values(const struct wtg_row *row, struct wtg_value *out, char *buf, size_t len);

/* A value as the text, Markdown and HTML reports show it: the column's decimals, more when a real
 * needs them for three significant figures (0.0543, not 0.05), n/a for NaN, thousands grouped with
 * ',' when group is set. */
void wtg_report_fmt_value(char *buf, size_t len, const struct wtg_value *v, const struct wtg_column *col,
			  bool group);

/* How many leading columns of t tell its rows apart (at most 3; 1 when none do): the key a folded
 * table repeats before each part (text, HTML). */
int wtg_report_key_columns(const struct wtg_table *t);

/* A real for JSON and CSV: 10 significant digits (17 where those would read back as a double that
 * prints otherwise, common.c), "" for NaN and infinities (callers write null). */
void wtg_report_real(char *buf, size_t len, double v);

/* Reports use '.' for decimals whatever LC_NUMERIC says: switch the calling thread's numeric
 * locale to C and back (the character set stays, so text widths follow wcwidth). */
locale_t wtg_report_locale_begin(void);
void wtg_report_locale_end(locale_t old);

#endif
