/* mmap.c: What does mapping a file cost? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_mmap = {
	.name = "mmap",
	.question = "What does mapping a file cost?",
	.runs = "mmap + sum, not prefaulted vs prefaulted; minor/major faults, faults per page, ns per fault",
	.view = WTG_VIEW_COUNTERS,
	.needs_datafile = true,
	.run = NULL,
};
