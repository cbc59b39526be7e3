/* cpuname.h: a CPU's name short enough for an 80-column header ("Xeon (SPR)", "EPYC Zen 5",
 * "Core i7-1260P", "Apple M1"), by one rule from what /proc/cpuinfo says of it. */
#ifndef WTG_CPUNAME_H
#define WTG_CPUNAME_H

#include <stddef.h>

/* What /proc/cpuinfo's first processor says: the model name ("" when none), the vendor_id, the
 * family, model and stepping numbers (x86; -1 when absent), the implementer and part (arm; -1). */
struct wtg_cpu_id {
	char name[128];
	char vendor[32];
	int family, model, stepping;
	int implementer, part;
};

/* Read the first processor's fields from the text of /proc/cpuinfo. */
void wtg_cpu_id_parse(const char *cpuinfo, struct wtg_cpu_id *id);
/* The short name: the product line and its generation where the name or the family/model numbers
 * say it (Xeon's code name, EPYC's Zen, Apple's M, arm's core), else the name trimmed of its
 * trademarks, clock and filler words. Never empty: "unknown CPU" when nothing is known. */
void wtg_cpu_short_name(const struct wtg_cpu_id *id, char *buf, size_t len);
/* This machine's, read from /proc/cpuinfo once. */
const char *wtg_cpu_short_this(void);

#endif
