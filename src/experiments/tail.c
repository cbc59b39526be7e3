/* tail.c: Where does interference live? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_tail = {
	.name = "tail",
	.question = "Where does interference live?",
	.runs = "the getpid batches of readcost with the burners off and then on; p99 ratio",
	.view = WTG_VIEW_HISTOGRAM,
	.needs_datafile = false,
	.run = NULL,
};
