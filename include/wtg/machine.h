/* machine.h: the machine block every report starts with. */
#ifndef WTG_MACHINE_H
#define WTG_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#define WTG_MAX_CACHES 8
#define WTG_MAX_MITIGATIONS 32

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
	char cpu_model[128];	/* "model name", or on arm64 the cores' names from implementer and part */
	/* which CPU, by number: arm64 "implementer 0x41 part 0xd0c variant 0x3 revision 1" (CPU 0's),
	 * x86 "family 25 model 97 stepping 2"; "" when /proc/cpuinfo does not say */
	char cpu_id[128];
	/* the features the byte sums choose by, as /proc/cpuinfo names them (arm64: asimd asimddp sve
	 * sve2 i8mm; x86: sse2 avx2 avx512bw avx512_vnni avx_vnni), those CPU 0 has, in that order */
	char cpu_features[96];
	/* the byte sums picked for this CPU (src/machine/kernels.c): the hand SIMD level ("avx512vnni",
	 * "asimddp", ...) and the ISA the "native" kernel was compiled for */
	char kernel_simd[24];
	char kernel_native[40];
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
	/* caches whose size was out of range (wtg_cache_size_sane) and left out, as if hidden; the
	 * note names the first ("cache index3 size \"-1K\" is not between 1K and 1T: left out") */
	int caches_left_out;
	char caches_note[128];

	/* context for reading a report elsewhere; "" (or -1) where the machine does not expose it */
	char hostname[256];
	char os[128];		/* os-release PRETTY_NAME, else NAME VERSION_ID */
	uint64_t memory_bytes;	/* physical memory, 0 when unknown */
	char governor[32];	/* cpufreq scaling_governor of CPU 0 */
	int boost;		/* 1 boost/turbo on, 0 off, -1 not exposed */
	char smt[32];		/* smt/control: on, off, forceoff, notsupported, notimplemented */
	int smt_active;		/* smt/active: 1, 0, -1 not exposed */
	char virtualization[32];	/* hypervisor vendor ("kvm", "xen", "vmware" ...), "none", "" unknown */
	int nmitigations;
	struct {
		char name[40];		/* vulnerabilities file name ("spectre_v2") */
		char status[160];	/* its line ("Mitigation: Retpolines ...") */
	} mitigations[WTG_MAX_MITIGATIONS];
};

void wtg_machine_read(struct wtg_machine *m);
/* cpu_model, cpu_id, cpu_features and the hypervisor flag from the text of a /proc/cpuinfo (x86 or
 * arm64), changed in place; cpu_model is left alone when the text names no CPU. */
void wtg_machine_parse_cpuinfo(struct wtg_machine *m, char *text);
/* The name of an arm64 core from its MIDR fields ("Neoverse N1" for 0x41, 0xd0c), NULL if unknown. */
const char *wtg_arm_core_name(unsigned implementer, unsigned part);
/* The company an arm64 implementer code stands for ("Arm" for 0x41), NULL if unknown. */
const char *wtg_arm_implementer_name(unsigned implementer);
/* Read the context fields (hostname, os, memory, governor, boost, SMT, mitigations, virtualization)
 * into m (called by wtg_machine_read). sysfs_root roots the /sys and /etc paths ("" or NULL). */
void wtg_machine_read_context(struct wtg_machine *m, const char *sysfs_root);
/* Read the caches of CPU 0 into m (called by wtg_machine_read). sysfs_root roots the sysfs paths
 * ("" or NULL for the real one). */
void wtg_machine_read_caches(struct wtg_machine *m, const char *sysfs_root);
/* Every cache size read from the machine is checked: a cache has 1 KiB to 1 TiB. */
#define WTG_CACHE_MIN (1ull << 10)
#define WTG_CACHE_MAX (1ull << 40)
bool wtg_cache_size_sane(uint64_t bytes);
/* Size in bytes of the data (or unified) cache at level, 0 when unknown. */
uint64_t wtg_machine_cache_size(const struct wtg_machine *m, int level);
/* The last-level data or unified cache, or NULL when none is known. */
const struct wtg_cache *wtg_machine_llc(const struct wtg_machine *m);

#endif
