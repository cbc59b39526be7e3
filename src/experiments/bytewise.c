/* bytewise.c: Why did adding up bytes take 21 s? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_bytewise = {
	.name = "bytewise",
	.question = "Why did adding up bytes take 21 s?",
	.runs = "sum a slice one byte per read() and again 64 KiB per read(); user/sys split, calls, predicted vs measured",
	.view = WTG_VIEW_BARS,
	.needs_datafile = true,
	.run = NULL,
};
