/* zerofill.c: What does one page fault cost? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_zerofill = {
	.name = "zerofill",
	.question = "What does one page fault cost?",
	.runs = "map fresh anonymous memory, touch one byte per page; ns per fault",
	.view = WTG_VIEW_COUNTERS,
	.needs_datafile = false,
	.run = NULL,
};
