/* pagecache.c: Disk or RAM? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_pagecache = {
	.name = "pagecache",
	.question = "Disk or RAM?",
	.runs = "evict the file's pages, a cold pass, then a warm pass; time, GB/s, faults",
	.view = WTG_VIEW_COUNTERS,
	.needs_datafile = true,
	.run = NULL,
};
