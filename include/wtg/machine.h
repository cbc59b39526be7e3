/* machine.h: the machine block every report starts with. */
#ifndef WTG_MACHINE_H
#define WTG_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#define WTG_MAX_CACHES 8

/* One cache of CPU 0, as sysfs (cpu0/cache/indexN) or, where a virtual machine hides it, the C
 * library's sysconf (read from cpuid) describes it. */
struct wtg_cache {
	int level;		/* 1, 2, 3 ... */
	char type[16];		/* "Data", "Instruction" or "Unified" */
	uint64_t size;		/* bytes */
	int line;		/* line size in bytes, 0 when unknown */
	char shared_cpus[64];	/* CPU list sharing it ("0-15"), "" when unknown */
};

struct wtg_machine {
	char cpu_model[128];
	int cpus;
	long page_size;
	char kernel[256];	/* sysname release machine */
	char clocksource[32];
	bool hypervisor;	/* the "hypervisor" cpuid flag */
	char thp[32];		/* transparent_hugepage/enabled, the bracketed choice */
	bool hw_counters;	/* perf_event_open offers instructions and cycles */
	struct wtg_cache caches[WTG_MAX_CACHES];	/* data and unified caches first by level */
	int ncaches;
	const char *caches_source;	/* "sysfs", "sysconf" or "none" */
};

void wtg_machine_read(struct wtg_machine *m);
/* Read the caches of CPU 0 into m (called by wtg_machine_read). sysfs_root roots the sysfs paths
 * ("" or NULL for the real one). */
void wtg_machine_read_caches(struct wtg_machine *m, const char *sysfs_root);
/* Size in bytes of the data (or unified) cache at level, 0 when unknown. */
uint64_t wtg_machine_cache_size(const struct wtg_machine *m, int level);
/* The last-level data or unified cache, or NULL when none is known. */
const struct wtg_cache *wtg_machine_llc(const struct wtg_machine *m);

#endif
