/* glossary.c: the terms the tabs use, each in one line a student can read off the screen. */
#include "config.h"

#include <string.h>

#include "wtg/glossary.h"
#include "wtg/util.h"

const struct wtg_term wtg_glossary[] = {
	{ "median", "median", "the middle sample: half took less, half took more" },
	{ "mean", "mean", "the sum over the count: a few slow samples pull it up" },
	{ "p90", "p90", "90% of the samples took less than this" },
	{ "p99", "p99", "99% took less: where the slow tail begins" },
	{ "tail", "tail", "the slow end of a distribution: p99 and past it" },
	{ "ci", "95% CI", "confidence interval: where the median likely lies" },
	{ "bootstrap", "bootstrap", "resample the samples 5000 times to see a figure vary" },
	{ "drift", "drift", "first half's median against the second's: did it move?" },
	{ "batch", "batch", "calls timed together, the clock read once around them" },
	{ "contended", "contended", "a sample that waited for a CPU over 2% of its time" },
	{ "crossing", "crossing", "a system call: into the kernel and back out" },
	{ "getpid", "getpid", "the cheapest system call: a crossing that does no work" },
	{ "pti", "PTI", "page-table isolation (a Meltdown fix): more per crossing" },
	{ "read", "read()", "a system call that copies a file's bytes into a buffer" },
	{ "devzero", "/dev/zero", "a device whose reads return zeros: no file, no page" },
	{ "bufsize", "buffer size", "bytes asked for per read(): bigger, fewer calls" },
	{ "usersys", "user / sys", "CPU time in the program (user) and in the kernel (sys)" },
	{ "pagecache", "page cache", "file data the kernel keeps in spare RAM" },
	{ "coldwarm", "cold / warm", "the file's pages are not in RAM yet / already are" },
	{ "evict", "evict", "posix_fadvise DONTNEED: drop a file's clean pages from RAM" },
	{ "readahead", "readahead", "the kernel reads on ahead of a sequential reader" },
	{ "odirect", "O_DIRECT", "read from the device straight, around the page cache" },
	{ "page", "page", "the unit memory is mapped in (4 KiB on most x86-64)" },
	{ "minflt", "minor fault", "a soft fault: the page is in RAM, only mapped in" },
	{ "majflt", "major fault", "a hard fault: the kernel waits for the disk" },
	{ "faultaround", "fault-around", "one fault maps the cached pages around it too" },
	{ "mmap", "mmap", "a file mapped into memory: a first touch may fault" },
	{ "prefault", "prefault", "map every page before timing (MAP_POPULATE, a touch)" },
	{ "zerofill", "zero-fill", "a first touch of fresh memory: a page zeroed for it" },
	{ "hugepage", "huge page", "a 2 MiB page: one fault and TLB entry for 512 pages" },
	{ "tlb", "TLB", "the cache of address translations; a miss walks tables" },
	{ "prefetch", "prefetch", "asking for a cache line before the loop needs it" },
	{ "chase", "pointer chase", "each load's address comes from the last: one miss a time" },
	{ "mlp", "in flight", "memory-level parallelism: misses a core overlaps" },
	{ "wss", "working set", "the bytes a loop touches over and over" },
	{ "caches", "L1 L2 L3", "ever larger, slower caches between the core and DRAM" },
	{ "dram", "DRAM", "main memory: far larger and slower than the caches" },
	{ "gbps", "GB/s", "10^9 bytes a second" },
	{ "corebound", "core-bound", "capped by how fast one core takes bytes in" },
	{ "membound", "memory-bound", "capped by how fast memory delivers bytes" },
	{ "simd", "SIMD", "one instruction on many bytes at once (AVX2, AVX-512)" },
	{ "vectorized", "vectorized", "a loop the compiler turned into SIMD instructions" },
	{ "scaling", "ideal scaling", "N threads at N times one thread's rate" },
	{ "oversub", "oversubscribed", "more threads than CPUs: they take turns" },
	{ "roofline", "roofline", "a rate capped by math or by bytes, the lower of the two" },
	{ "intensity", "ops per byte", "arithmetic intensity: the work done per byte loaded" },
	{ "burner", "burner", "a thread that spins (or streams memory) to load a CPU" },
	{ "background", "background", "SCHED_IDLE: runs only when no other thread wants the CPU" },
	{ "clockpair", "clock pair", "two clock reads back to back; 0 ns: a coarse tick" },
	{ "clocksource", "clock source", "the kernel's time base (tsc, kvm-clock)" },
	{ "paired", "paired A/B", "off and on alternate in seeded order; differences kept" },
};
const int wtg_nglossary = (int)WTG_ARRAY_LEN(wtg_glossary);

const struct wtg_term *wtg_term_find(const char *id)
{
	for (int i = 0; id && i < wtg_nglossary; i++)
		if (strcmp(wtg_glossary[i].id, id) == 0)
			return &wtg_glossary[i];
	return NULL;
}
