/* json.c (stub) */
#include "config.h"
#include "wtg/report.h"
int wtg_report_json(FILE *f, struct wtg_session *s, const bool *which)
{
	(void)f; (void)s; (void)which;
	return 0;
}
void wtg_json_string(FILE *f, const char *s) { fputs(s, f); }
