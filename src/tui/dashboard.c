/* dashboard.c (stub) */
#include "config.h"
#include <stdio.h>
#include "tui_internal.h"
int wtg_tui_main(struct wtg_session *s)
{
	(void)s;
	fprintf(stderr, "wtg: the dashboard is not built yet\n");
	return 1;
}
