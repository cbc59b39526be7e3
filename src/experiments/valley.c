/* valley.c: How big should the read buffer be? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_valley = {
	.name = "valley",
	.question = "How big should the read buffer be?",
	.runs = "buffered sum of the data file for buffer sizes 16 B .. 16 MiB (x4 steps)",
	.view = WTG_VIEW_SWEEP,
	.needs_datafile = true,
	.run = NULL,
};
