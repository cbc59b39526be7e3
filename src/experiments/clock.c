/* clock.c: How fine is the stopwatch? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_clock = {
	.name = "clock",
	.question = "How fine is the stopwatch?",
	.runs = "200000 back-to-back clock_gettime(CLOCK_MONOTONIC) pairs; zero pairs; distribution",
	.view = WTG_VIEW_HISTOGRAM,
	.needs_datafile = false,
	.run = NULL,
};
