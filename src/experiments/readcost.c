/* readcost.c: What does read() add to a crossing? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_readcost = {
	.name = "readcost",
	.question = "What does read() add to a crossing?",
	.runs = "getpid, 1-byte /dev/zero read, 1-byte warm file read; 120 x 20000 calls, shuffled rounds",
	.view = WTG_VIEW_HISTOGRAM,
	.needs_datafile = true,
	.run = NULL,
};
