/* report.h: text, CSV and JSON writers over the same tables. */
#ifndef WTG_REPORT_H
#define WTG_REPORT_H

#include <stdbool.h>
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

/* JSON string escaping, shared with tests. */
void wtg_json_string(FILE *f, const char *s);

#endif
