/* faultbase.c: Where does a lone fault come from? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_faultbase = {
	.name = "faultbase",
	.question = "Where does a lone fault come from?",
	.runs = "child processes as controls: exit only, map without touching, map and sum",
	.view = WTG_VIEW_COUNTERS,
	.needs_datafile = true,
	.run = NULL,
};

int wtg_faultbase_child(const char *mode, const char *path)
{
	(void)mode;
	(void)path;
	return 0;
}
