/* wss.c: Cache or core? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_wss = {
	.name = "wss",
	.question = "Cache or core?",
	.runs = "sum a buffer of 16 KiB .. 64 MiB repeatedly; GB/s per working-set size",
	.view = WTG_VIEW_SWEEP,
	.needs_datafile = false,
	.run = NULL,
};
