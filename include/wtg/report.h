/* report.h: the report writers (text, CSV, JSON, Markdown, SVG, HTML) over the same tables,
 * the table of them, and saving a report whole or not at all. */
#ifndef WTG_REPORT_H
#define WTG_REPORT_H

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "wtg/options.h"
#include "wtg/session.h"

/* The version of the JSON layout (documented in wtg(1), schema in $(pkgdatadir)/wtg-report.schema.json). */
#define WTG_JSON_SCHEMA 2
/* Series longer than this are thinned evenly in JSON, with the count they had. */
#define WTG_JSON_MAX_SAMPLES 65536

/* One writer: the word --format takes, the file ending -o recognises, and the function (NULL while
 * the format is not built: asking for it is a usage error). */
typedef int (*wtg_writer_fn)(FILE *f, struct wtg_session *s, const bool *which);
struct wtg_writer {
	const char *name;
	const char *ext;
	wtg_writer_fn write;
};
/* Indexed by enum wtg_format. */
extern const struct wtg_writer wtg_writers[WTG_NFORMATS];
/* The format called name ("json"), or -1. */
int wtg_format_parse(const char *name);
/* The format a file name's ending names (".json", ".md" ...), or -1. */
int wtg_format_from_path(const char *path);

/* Write the tables whose registry index is set in `which` (NULL: every table with rows), in the C
 * numeric locale. Returns 0, or -1 on a write error (errno set). */
int wtg_report_write(FILE *f, enum wtg_format fmt, struct wtg_session *s, const bool *which);
int wtg_report_text(FILE *f, struct wtg_session *s, const bool *which);
int wtg_report_csv(FILE *f, struct wtg_session *s, const bool *which);
int wtg_report_json(FILE *f, struct wtg_session *s, const bool *which);
int wtg_report_markdown(FILE *f, struct wtg_session *s, const bool *which);
/* One SVG picture: the wanted table's chart (1280x720), or several stacked. */
int wtg_report_svg(FILE *f, struct wtg_session *s, const bool *which);
/* One self-contained HTML page (inline CSS and SVG, no script, nothing fetched): the machine and the
 * run, then per experiment its question, chart, table, checks and notes. */
int wtg_report_html(FILE *f, struct wtg_session *s, const bool *which);
/* Each wanted table's chart as DIR/NAME.svg, each whole or not at all; makes DIR when it is missing
 * (not its parents). Returns 0, or -1 with a message in err. */
int wtg_report_svg_dir(const char *dir, struct wtg_session *s, const bool *which, char *err, size_t errlen);

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

/* Over the tables `which` picks: how many, and their checks in each state. */
struct wtg_report_tally {
	int experiments, failed_experiments, ok, warn, fail;
};
void wtg_report_tally(struct wtg_session *s, const bool *which, struct wtg_report_tally *t);
/* The closing line of a text report: "17 experiments, checks: 52 ok, 1 warn, 0 failed, 43.2 s". */
void wtg_report_summary_line(FILE *f, struct wtg_session *s, const bool *which);

/* Write to path whole or not at all (temp file in the same folder + fsync + rename; a device, a
 * pipe, /dev and /proc paths are written into, "-" is standard output; through a symlink the
 * target is replaced; a replaced file keeps its owner and mode). Returns 0, or -1 with a message
 * in err (errno left at the cause: EPIPE for a closed pipe). */
int wtg_report_save(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
		    char *err, size_t errlen);

/* path is "-" or names the file, pipe or terminal standard output is. */
bool wtg_report_is_stdout(const char *path);

/* Like wtg_report_save, but never replaces a file: when path exists, returns -1 with errno EEXIST
 * (and a message in err) and leaves both alone. */
int wtg_report_save_new(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
			char *err, size_t errlen);

/* An experiment's chart as an <svg> element with a 1280x720 view box; attrs (may be NULL) go into
 * its start tag. The caller holds the table's lock. */
void wtg_svg_chart(FILE *f, const struct wtg_table *t, const struct wtg_machine *m, const char *attrs);
/* Text for XML (element content or a quoted attribute): & < > " ' escaped, control characters as
 * spaces, invalid UTF-8 as U+FFFD. */
void wtg_xml_string(FILE *f, const char *s);
/* Length of the valid UTF-8 sequence at p (1..4), or 0 when it is not one. */
int wtg_report_utf8_len(const unsigned char *p);

/* JSON string escaping, shared with tests. NULL writes null; invalid UTF-8 becomes U+FFFD. */
void wtg_json_string(FILE *f, const char *s);

/* ---- shared by the writers (src/report/report.c) ---- */

/* Whether table idx is written: which[idx], or with which NULL a table with rows or a state
 * other than idle. Locks the table. */
bool wtg_report_wanted(struct wtg_session *s, int idx, const bool *which);
/* Call fn for each table wtg_report_wanted picks, in registry order, with the table locked; n counts
 * the tables written before it. Returns how many were written. */
int wtg_report_each(FILE *f, struct wtg_session *s, const bool *which,
		    void (*fn)(FILE *f, const struct wtg_table *t, int n));
/* "idle", "running", "done", "failed", "cancelled". */
const char *wtg_report_state_name(enum wtg_state st);
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

/* A value as the text report shows it: the column's decimals, n/a for NaN, thousands grouped with
 * ',' when group is set. */
void wtg_report_fmt_value(char *buf, size_t len, const struct wtg_value *v, const struct wtg_column *col,
			  bool group);

/* A real for JSON and CSV: 10 significant digits, "" for NaN and infinities (callers write null). */
void wtg_report_real(char *buf, size_t len, double v);

/* Reports use '.' for decimals whatever LC_NUMERIC says: switch the calling thread to the C
 * locale and back. */
locale_t wtg_report_locale_begin(void);
void wtg_report_locale_end(locale_t old);

#endif
