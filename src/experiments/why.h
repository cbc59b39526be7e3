/* why.h: "why here", the likely reason this machine's figures are far from the essay's. The reasons each
 * experiment declares (reasons.c) and what they share to read a run and its machine (whyhere.c). */
#ifndef WTG_EXPERIMENTS_WHY_H
#define WTG_EXPERIMENTS_WHY_H

#include <stdbool.h>
#include <stddef.h>

#include "wtg/experiment.h"
#include "wtg/machine.h"
#include "wtg/table.h"
#include "wtg/whyhere.h"

/* The candidate reasons, in the order they are tried, each list ended by { NULL }. */
extern const struct wtg_why wtg_why_syscall[];
extern const struct wtg_why wtg_why_readcost[];
extern const struct wtg_why wtg_why_zerofill[];
extern const struct wtg_why wtg_why_pagecache[];
extern const struct wtg_why wtg_why_wss[];
extern const struct wtg_why wtg_why_uncached[];
extern const struct wtg_why wtg_why_crossing[];	/* bytewise, valley: a read() a crossing */
extern const struct wtg_why wtg_why_mmap[];
extern const struct wtg_why wtg_why_passes[];
extern const struct wtg_why wtg_why_threads[];
extern const struct wtg_why wtg_why_tail[];
extern const struct wtg_why wtg_why_clock[];

/* pagecache's figure beside the essay's "nine times": the warm read's GB/s over the cold read's. */
double wtg_why_pagecache_ratio(const struct wtg_table *t);
/* valley's beside the essay's 312 ns a 16-byte read(): ns per call at 16 bytes. */
double wtg_why_valley_call_ns(const struct wtg_table *t);
/* passes' beside the essay's 10 GB/s (64 MiB in 6.7 ms): the passes' GB/s. */
double wtg_why_passes_gbps(const struct wtg_table *t);

/* The first row of t whose text column col_a reads a and, when col_b is not NULL, col_b reads b;
 * -1 when none. */
int wtg_why_row(const struct wtg_table *t, const char *col_a, const char *a, const char *col_b, const char *b);
/* Column col of row r as a number, NAN when either is missing. */
double wtg_why_num(const struct wtg_table *t, int r, const char *col);
/* The machine isolates the kernel's page tables from user space: a vulnerabilities line names PTI
 * (meltdown's "Mitigation: PTI"). */
bool wtg_why_pti(const struct wtg_machine *m);
/* The machine is a virtual one: its hypervisor's name ("kvm", "bhyve"; "a hypervisor" when only the
 * cpuid flag says so) into buf. False on bare metal or when unknown. */
bool wtg_why_vm(const struct wtg_machine *m, char *buf, size_t len);

#endif
