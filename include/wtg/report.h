/* report.h: text, CSV and JSON writers over the same tables. */
#ifndef WTG_REPORT_H
#define WTG_REPORT_H

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "wtg/options.h"
#include "wtg/session.h"

/* Write the tables whose registry index is set in `which` (NULL: every table with rows).
 * Returns 0, or -1 on a write error. */
int wtg_report_write(FILE *f, enum wtg_format fmt, struct wtg_session *s, const bool *which);
int wtg_report_text(FILE *f, struct wtg_session *s, const bool *which);
int wtg_report_csv(FILE *f, struct wtg_session *s, const bool *which);
int wtg_report_json(FILE *f, struct wtg_session *s, const bool *which);
/* Write to path whole or not at all (temp file in the same folder + fsync + rename).
 * Returns 0, or -1 with a message in err. */
int wtg_report_save(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
		    char *err, size_t errlen);

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

/* A real for JSON and CSV: 10 significant digits, "" for NaN and infinities (callers write null). */
void wtg_report_real(char *buf, size_t len, double v);

/* Reports use '.' for decimals whatever LC_NUMERIC says: switch the calling thread to the C
 * locale and back. */
locale_t wtg_report_locale_begin(void);
void wtg_report_locale_end(locale_t old);

#endif
