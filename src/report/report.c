/* report.c (stub) */
#include "config.h"
#include "wtg/report.h"
int wtg_report_write(FILE *f, enum wtg_format fmt, struct wtg_session *s, const bool *which)
{
	switch (fmt) {
	case WTG_FMT_CSV: return wtg_report_csv(f, s, which);
	case WTG_FMT_JSON: return wtg_report_json(f, s, which);
	default: return wtg_report_text(f, s, which);
	}
}
int wtg_report_save(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
		    char *err, size_t errlen)
{
	(void)path; (void)fmt; (void)s; (void)which; (void)err; (void)errlen;
	return -1;
}
