/* experiments.c: the ordered registry (the tabs, --list, --run=all). */
#include "config.h"

#include <string.h>

#include "wtg/experiment.h"

extern const struct wtg_experiment wtg_exp_bytewise;
extern const struct wtg_experiment wtg_exp_syscall;
extern const struct wtg_experiment wtg_exp_valley;
extern const struct wtg_experiment wtg_exp_kernels;
extern const struct wtg_experiment wtg_exp_mmap;
extern const struct wtg_experiment wtg_exp_pagecache;
extern const struct wtg_experiment wtg_exp_zerofill;
extern const struct wtg_experiment wtg_exp_faultbase;
extern const struct wtg_experiment wtg_exp_wss;
extern const struct wtg_experiment wtg_exp_threads;
extern const struct wtg_experiment wtg_exp_roofline;
extern const struct wtg_experiment wtg_exp_uncached;
extern const struct wtg_experiment wtg_exp_readcost;
extern const struct wtg_experiment wtg_exp_clock;
extern const struct wtg_experiment wtg_exp_tail;
extern const struct wtg_experiment wtg_exp_passes;
extern const struct wtg_experiment wtg_exp_compare;

const struct wtg_experiment *const wtg_experiments[] = {
	&wtg_exp_bytewise,
	&wtg_exp_syscall,
	&wtg_exp_valley,
	&wtg_exp_kernels,
	&wtg_exp_mmap,
	&wtg_exp_pagecache,
	&wtg_exp_zerofill,
	&wtg_exp_faultbase,
	&wtg_exp_wss,
	&wtg_exp_threads,
	&wtg_exp_roofline,
	&wtg_exp_uncached,
	&wtg_exp_readcost,
	&wtg_exp_clock,
	&wtg_exp_tail,
	&wtg_exp_passes,
	&wtg_exp_compare,
};
const int wtg_nexperiments = (int)(sizeof wtg_experiments / sizeof wtg_experiments[0]);

/* Typical seconds per run, default and --quick: `time wtg --run=all [--quick]` on a two-core
 * virtual machine, each experiment's wall time from its "where the time went" line, rounded up. */
static const struct {
	const char *name;
	int full, quick;
} typical[] = {
	{ "bytewise", 0, 0 },	{ "syscall", 0, 0 }, { "valley", 0, 0 },  { "kernels", 0, 0 },
	{ "mmap", 0, 0 },	{ "pagecache", 0, 0 }, { "zerofill", 0, 0 }, { "faultbase", 0, 0 },
	{ "wss", 0, 0 },	{ "threads", 0, 0 }, { "roofline", 0, 0 }, { "uncached", 0, 0 },
	{ "readcost", 0, 0 },	{ "clock", 0, 0 },   { "tail", 0, 0 },	   { "passes", 0, 0 },
	{ "compare", 0, 0 },
};

int wtg_experiment_typical_s(const struct wtg_experiment *e, bool quick)
{
	for (size_t i = 0; i < sizeof typical / sizeof typical[0]; i++)
		if (strcmp(typical[i].name, e->name) == 0)
			return quick ? typical[i].quick : typical[i].full;
	return 0;
}

int wtg_experiment_find(const char *name)
{
	for (int i = 0; i < wtg_nexperiments; i++)
		if (strcmp(wtg_experiments[i]->name, name) == 0)
			return i;
	return -1;
}

const char *wtg_view_name(enum wtg_view v)
{
	switch (v) {
	case WTG_VIEW_SWEEP: return "sweep";
	case WTG_VIEW_BARS: return "bars";
	case WTG_VIEW_HISTOGRAM: return "histogram";
	case WTG_VIEW_COUNTERS: return "counters";
	}
	return "?";
}
