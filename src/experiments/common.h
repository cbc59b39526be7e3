/* common.h: what several experiments share, so each logic lives in one place. */
#ifndef WTG_EXPERIMENTS_COMMON_H
#define WTG_EXPERIMENTS_COMMON_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wtg/conditions.h"
#include "wtg/ctx.h"
#include "wtg/datafile.h"
#include "wtg/experiment.h"
#include "wtg/guard.h"
#include "wtg/kernels.h"
#include "wtg/paired.h"
#include "wtg/probe.h"
#include "wtg/stats.h"
#include "wtg/table.h"
#include "wtg/util.h"

#include "rounds.h"

/* Read fd from its current offset to EOF or `limit` bytes (0: no limit) with buffer buf of
 * bufsize bytes, summing every byte. Counts read() calls (including the final 0-byte one is NOT
 * counted: only calls that returned data). Returns 0, or -1 with errno set. Checks cancel between
 * calls when ctx is not NULL (returns 1 when cancelled). */
int wtg_read_sum(struct wtg_ctx *ctx, int fd, unsigned char *buf, size_t bufsize, uint64_t limit,
		 int64_t *sum, int64_t *bytes, int64_t *calls);

/* Memory aligned to `align` (a power of two, at least sizeof(void*)); free with free(). */
void *wtg_aligned_alloc(size_t align, size_t size);

/* size bytes of anonymous memory on a 2 MiB boundary, asked for transparent huge pages
 * (madvise MADV_HUGEPAGE; whether the kernel grants them is its setting and wtg_huge_bytes tells).
 * NULL when out of memory; free with wtg_huge_free(p, size). */
void *wtg_huge_alloc(size_t size);
/* Fault in a wtg_huge_alloc buffer (MADV_POPULATE_WRITE, 64 MiB a call, a cancel seen between calls:
 * WTG_CANCELLED), as its advice stands, before it is filled: on a virtual machine here 1 GiB took 0.06 s this way against 2.2 s touched a page at a
 * time (4 KiB pages: 0.2 s + 2.0 s against 3.3 s). Where the kernel lacks it, the fill faults them. */
int wtg_prefault(struct wtg_ctx *ctx, void *p, size_t size);
/* A figure for the screen (wtg_table_sofar) before a memory-sized buffer is filled, which takes
 * seconds where the hypervisor has taken the guest's pages back: the byte sum over 16 KiB, passes
 * repeated until they span 2 ms. Reported nowhere else. */
void wtg_first_look(struct wtg_ctx *ctx);
void wtg_huge_free(void *p, size_t size);
/* Bytes of the mapping holding p backed by huge pages now (/proc/self/smaps), or -1 unknown. */
int64_t wtg_huge_bytes(const void *p);

/* Add the check "sum" comparing got with the known sum want; returns ok. */
bool wtg_check_sum(struct wtg_ctx *ctx, const char *what, int64_t got, int64_t want);

/* The same comparison for one of many samples: silent when they match (a row then says once that
 * all its samples matched, wtg_check_sums_row), the failing "sum" check and wtg_table_fail otherwise. */
bool wtg_check_sum_quiet(struct wtg_ctx *ctx, const char *what, int64_t got, int64_t want);
/* The row's "sum" check after every sample of it matched: label, the samples and their total. */
void wtg_check_sums_row(struct wtg_ctx *ctx, const char *label, int samples, int64_t total);

/* Time `calls` raw getpid syscalls; returns ns per call (clock read twice per batch). */
double wtg_time_getpid_batch(long calls);

/* How many tasks are runnable now, system-wide (/proc/stat procs_running, the reader among them), -1
 * unknown. A quiet machine has fewer than WTG_QUIET_OTHERS other tasks runnable on average: with
 * more, a thread that never waits for a CPU still shares the machine (a core's sibling, the caches,
 * the host's CPU in a virtual machine). Read between timed samples, never inside one. */
int wtg_procs_running(void);
#define WTG_QUIET_OTHERS 1.0
#define WTG_RUNNABLE_EVERY 10	/* read before every 10th timed batch (tail, syscall) */

/* The other tasks runnable (procs_running less the reader) over a series of timed batches. */
struct wtg_others {
	double sum;
	int n;
};
/* Before batch i of a series: reads procs_running when i is a multiple of WTG_RUNNABLE_EVERY. */
void wtg_others_read(struct wtg_others *o, int i);
/* Their average over the reads, NAN when none was read. */
double wtg_others_mean(const struct wtg_others *o);

/* Seed for bootstrap of the idx-th distribution in an experiment (stable for --seed). */
uint64_t wtg_ctx_seed(struct wtg_ctx *ctx, unsigned idx);

/* ---- memory experiments (kernels, wss, threads, roofline) ---- */

/* Range i of n contiguous ranges covering size bytes: the first size % n ranges get one byte more,
 * so lengths differ by at most one and any n >= 1 works (n > size gives empty ranges). */
void wtg_split_range(uint64_t size, int n, int i, uint64_t *off, uint64_t *len);

/* Fill p with n bytes from the seeded generator; returns their sum, taken from the generator's words
 * (not from any byte-sum kernel), so it checks the kernels independently. */
int64_t wtg_fill_seeded(struct wtg_rng *r, unsigned char *p, size_t n);

typedef int64_t (*wtg_sum_fn)(const unsigned char *p, size_t n);

#define WTG_SUM_PIECE (16u << 20)	/* sums of a buffer look at cancel after this many bytes */

/* Sum buf (wss bytes) `passes` times with fn (its repeating form, wtg_sum_repeat_of, when it has
 * one) inside one probe, checking cancel about every 16 MiB.
 * Returns WTG_OK with *sum (all passes together) and *res filled, or WTG_CANCELLED. */
int wtg_sum_passes(struct wtg_ctx *ctx, wtg_sum_fn fn, const unsigned char *buf, size_t wss, uint64_t passes,
		   int64_t *sum, struct wtg_probe_result *res);

/* A measured row of repeated sums (kernels, wss): one unreported warm-up pass with fn, checked
 * against known only when it differs (as warm_what), then wtg_sum_passes, checked against
 * known x passes (as what). Returns WTG_OK with *res filled, WTG_CANCELLED or WTG_ERR. */
int wtg_sum_passes_checked(struct wtg_ctx *ctx, wtg_sum_fn fn, const unsigned char *buf, size_t wss,
			   uint64_t passes, int64_t known, const char *warm_what, const char *what,
			   struct wtg_probe_result *res);

/* The largest prefix of the data file, up to cap bytes, whose sum is known: the whole file when it
 * fits, else cap rounded down to WTG_CHUNK. */
uint64_t wtg_datafile_span(const struct wtg_datafile *df, uint64_t cap);
/* The same for a file of size bytes (a plan has no data file yet). */
uint64_t wtg_span_of(uint64_t size, uint64_t cap);


/* Wait until every burner has reported a batch of its steady work done since it started or resumed
 * (polled every 0.1 ms), at most max_ms; *going (when given) says whether they all did. Returns the
 * ms waited, or -1 when the run was cancelled. */
double wtg_burners_settle(struct wtg_ctx *ctx, int max_ms, bool *going);
/* Start n burners and wait until every one has reported a batch of its work done, at most settle_ms.
 * Returns WTG_OK, WTG_CANCELLED, or WTG_ERR after wtg_table_fail("<prefix>cannot start N burners"). */
int wtg_burners_start(struct wtg_ctx *ctx, int n, int settle_ms, const char *prefix);

#endif
