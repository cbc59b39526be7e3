/* threads.c: How many cores fill the memory pipe? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_threads = {
	.name = "threads",
	.question = "How many cores fill the memory pipe?",
	.runs = "prefaulted mapping split into N ranges, N = 1 .. --threads; GB/s, sum checked per row",
	.view = WTG_VIEW_BARS,
	.needs_datafile = true,
	.run = NULL,
};
