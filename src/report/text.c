/* text.c (stub) */
#include "config.h"
#include "wtg/report.h"
int wtg_report_text(FILE *f, struct wtg_session *s, const bool *which)
{
	(void)f; (void)s; (void)which;
	return 0;
}
