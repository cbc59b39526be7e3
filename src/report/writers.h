/* writers.h: the calls of each report writer, for the table of them in report.c. Each writer sees
 * the metadata and one locked table at a time, never the session. */
#ifndef WTG_REPORT_WRITERS_H
#define WTG_REPORT_WRITERS_H

#include "wtg/report.h"

/* begin and table; end only where a format closes something (text, json, svg, html) */
#define WTG_WRITER_CALLS(fmt)                                                                        \
	void wtg_##fmt##_begin(FILE *f, const struct wtg_report_meta *m);                           \
	void wtg_##fmt##_table(FILE *f, const struct wtg_report_meta *m, const struct wtg_table *t, \
			       int n)

WTG_WRITER_CALLS(text);
WTG_WRITER_CALLS(csv);
WTG_WRITER_CALLS(json);
WTG_WRITER_CALLS(markdown);
WTG_WRITER_CALLS(svg);
WTG_WRITER_CALLS(html);
void wtg_text_end(FILE *f, const struct wtg_report_meta *m, int n);
void wtg_json_end(FILE *f, const struct wtg_report_meta *m, int n);
void wtg_svg_end(FILE *f, const struct wtg_report_meta *m, int n);
void wtg_html_end(FILE *f, const struct wtg_report_meta *m, int n);
/* s after a prefix `col` columns wide, wrapped as the text report wraps its prose on the page f is
 * (80 columns, or the terminal's width), further lines after `indent` spaces; a line break at the end. */
void wtg_report_wrap(FILE *f, int col, int indent, const char *s);
/* The JSON report's "machine" block (with its trailing comma), also written by --dry-run. */
void wtg_json_machine(FILE *f, const struct wtg_report_meta *m);
/* "steal 0.40% on CPU 1; frequency 2400-3000 MHz" (or "n/a" for either): the machine while
 * run t ran, for the writers that give a line per experiment; "" when the run never ran. */
void wtg_report_machine_state(char *buf, size_t len, const struct wtg_table *t);
/* One cell as JSON: a number, a string, or null. */
void wtg_json_value(FILE *f, const struct wtg_value *v);

/* DIR/NAME.svg, experiment idx's chart in an SVG folder. */
void wtg_svg_chart_path(char *buf, size_t len, const char *dir, int idx);
/* Immediately before a save renames onto path or opens it in place (shown: the name the user gave):
 * 0, or -1 with the message in err (errno EEXIST) when path is now one of the files wtg reads, or a
 * symbolic link where there was none when wtg started (wtg_report_guard) or link_ok is false. */
int wtg_target_check(const char *path, const char *shown, bool link_ok, char *err, size_t errlen);

#endif
