/* machine.h: the machine block every report starts with. */
#ifndef WTG_MACHINE_H
#define WTG_MACHINE_H

#include <stdbool.h>

struct wtg_machine {
	char cpu_model[128];
	int cpus;
	long page_size;
	char kernel[256];	/* sysname release machine */
	char clocksource[32];
	bool hypervisor;	/* the "hypervisor" cpuid flag */
	char thp[32];		/* transparent_hugepage/enabled, the bracketed choice */
	bool hw_counters;	/* perf_event_open offers instructions and cycles */
};

void wtg_machine_read(struct wtg_machine *m);

#endif
