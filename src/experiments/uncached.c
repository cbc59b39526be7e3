/* uncached.c: What does the storage path cost? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_uncached = {
	.name = "uncached",
	.question = "What does the storage path cost?",
	.runs = "O_DIRECT sequential reads 4 KiB .. 16 MiB, then 20000 random 16 KiB reads",
	.view = WTG_VIEW_SWEEP,
	.needs_datafile = true,
	.run = NULL,
};
