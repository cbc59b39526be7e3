/* passes.c: Is one warm pass a number? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_passes = {
	.name = "passes",
	.question = "Is one warm pass a number?",
	.runs = "one warm-up pass, then 30 buffered 1 MiB passes with fault deltas; CI of the median",
	.view = WTG_VIEW_HISTOGRAM,
	.needs_datafile = true,
	.run = NULL,
};
