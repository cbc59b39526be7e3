/* common.h: what several experiments share, so each logic lives in one place. */
#ifndef WTG_EXPERIMENTS_COMMON_H
#define WTG_EXPERIMENTS_COMMON_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wtg/conditions.h"
#include "wtg/datafile.h"
#include "wtg/experiment.h"
#include "wtg/guard.h"
#include "wtg/kernels.h"
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

/* Summarize samples (time order kept), add the row and the raw series (named label).
 * Fills *out when not NULL. Returns 0 or -1 (out of memory: the table has failed). */
int wtg_add_distribution_row(struct wtg_ctx *ctx, const char *label, const double *samples, size_t n,
			     const struct wtg_probe_result *probe, struct wtg_summary *out);

/* Time `calls` raw getpid syscalls; returns ns per call (clock read twice per batch). */
double wtg_time_getpid_batch(long calls);

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

/* Map the first `bytes` of the data file read-only and prefault it (MAP_POPULATE, then one guarded read
 * per page), so nothing timed afterwards takes a fault. NULL after wtg_table_fail(); munmap when done.
 * Read it under the SIGBUS guard (wtg_crew_sum, wtg_guard_call): the file may shrink meanwhile. */
unsigned char *wtg_map_prefaulted(struct wtg_ctx *ctx, uint64_t bytes);

/* Sleep about ms (letting burners get going, say) in 10 ms naps, beating the heartbeat and checking
 * cancel between them. Returns true when the run was cancelled. */
bool wtg_ctx_settle(struct wtg_ctx *ctx, int ms);

/* Start n burners and give them ms to get going (wtg_ctx_settle). Returns WTG_OK, WTG_CANCELLED, or
 * WTG_ERR after wtg_table_fail("<prefix>cannot start N burners"). */
int wtg_burners_start(struct wtg_ctx *ctx, int n, int settle_ms, const char *prefix);

#define WTG_CREW_METERED 16	/* members whose starvation is metered: the first to reach the gate */

/* Helper threads the worker supervises: they wait at a start gate, run, and report done; the worker
 * waits in slices of at most 100 ms calling wtg_ctx_cancelled(), so it stays responsive. */
struct wtg_crew {
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* CLOCK_MONOTONIC */
	int ready, done;
	bool go;
	atomic_bool stop;	/* members stop at their next check */
	atomic_bool shrank;	/* a member's read hit the end of a shrunken mapping (then stop is set) */
	/* wtg_crew_run's limit: how long a member may be starved (wtg_starve_meter), under lock */
	int64_t limit_ns;
	struct wtg_active_clock clock;	/* since wtg_crew_run */
	int nmeters;
	struct wtg_starve_meter meters[WTG_CREW_METERED];
};

enum { WTG_CREW_REACHED = 0, WTG_CREW_CANCELLED, WTG_CREW_TIMEOUT };

int wtg_crew_init(struct wtg_crew *c);
void wtg_crew_destroy(struct wtg_crew *c);
/* Member: announce readiness and wait for the gate; false when told to stop instead. */
bool wtg_crew_gate(struct wtg_crew *c);
void wtg_crew_done(struct wtg_crew *c);
/* Worker: open the gate (with stop set, members leave without working). */
void wtg_crew_open(struct wtg_crew *c);
/* Worker: wait until n members are ready (ready) or done (!ready). Returns WTG_CREW_REACHED, or
 * WTG_CREW_CANCELLED when the run was cancelled (only if stop_on_cancel), or WTG_CREW_TIMEOUT (only if
 * limited) once a metered member has been starved for the crew's limit_ns: runnable, waiting for a
 * CPU, so a stopped process never times out. Members not yet at the gate are not metered yet: until
 * they all are, the time since wtg_crew_run (wtg_active_clock: stops left out) stands in, as it does
 * where schedstat is unreadable. */
int wtg_crew_wait(struct wtg_ctx *ctx, struct wtg_crew *c, int n, bool ready, bool stop_on_cancel,
		  bool limited);
/* Start a thread (a member, or any helper; attr may be NULL) with every signal but the faults blocked
 * (wtg_thread_sigmask), so requests to quit stay with the main thread. Returns pthread_create's result. */
int wtg_crew_spawn(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);
/* Worker: wait until n members are ready, open the gate, wait until they are done; cancel and the
 * starvation limit (limit_ns, 0: none) as in wtg_crew_wait (WTG_CREW_REACHED once all n are done). */
int wtg_crew_run(struct wtg_ctx *ctx, struct wtg_crew *c, int n, int64_t limit_ns);
/* Worker, after setting stop (and rescuing starved members): open the gate and wait, whatever
 * cancel says, until the n members started are done, so they can be joined. */
void wtg_crew_finish(struct wtg_ctx *ctx, struct wtg_crew *c, int n);

#define WTG_CREW_PIECE (16u << 20)	/* members look at the stop flag this often */

/* Member: add the byte sum of p[0, len) (a mapping of the data file) to *sum in WTG_CREW_PIECE
 * pieces, looking at the stop flag before each; false when told to stop (*sum is then partial). Each
 * piece is read under the SIGBUS guard: a read past the end of a shrunken file sets shrank and stop.
 * Inline: it runs in timed loops. */
static inline bool wtg_crew_sum(struct wtg_crew *c, const unsigned char *p, uint64_t len, int64_t *sum)
{
	for (uint64_t off = 0; off < len; off += WTG_CREW_PIECE) {
		if (atomic_load(&c->stop))
			return false;
		uint64_t n = len - off < WTG_CREW_PIECE ? len - off : WTG_CREW_PIECE;
		if (wtg_guard_sum(p + off, (size_t)n, sum) < 0) {
			atomic_store(&c->shrank, true);
			atomic_store(&c->stop, true);
			return false;
		}
	}
	return true;
}

/* ---- buffers sized to this machine (kernels, wss) ---- */

/* The L1d size and the last-level cache's size from the machine block (ctx->machine); 32 KiB and
 * 32 MiB when the machine does not say (or there is none, as in unit tests). */
uint64_t wtg_ctx_l1d(const struct wtg_ctx *ctx);
uint64_t wtg_ctx_llc(const struct wtg_ctx *ctx);

/* A quarter of the physical memory (sysconf), the cap of every buffer sized to the machine; 256 MiB
 * when it cannot be read. */
uint64_t wtg_ram_quarter(void);

/* --quick caps the memory-sized span at this (or 1/16 of RAM, if smaller), but never below the
 * smallest power of two past the LLC. */
#define WTG_QUICK_SPAN_MAX (512ull << 20)

/* The memory-sized span: the smallest power of two of at least 4 x the LLC (with --quick: capped as
 * WTG_QUICK_SPAN_MAX says), capped at a quarter of RAM (rounded down to a multiple of 64 KiB). */
uint64_t wtg_dram_span(const struct wtg_ctx *ctx);

/* The smallest cache level a working set of bytes fits in ("L1", "L2", "L3" ...), or "DRAM". */
const char *wtg_cache_level_name(const struct wtg_ctx *ctx, uint64_t bytes);

/* A buffer of seeded bytes whose known sums are kept per chunk, so any chunk-aligned range of it can
 * be checked without a byte-sum kernel. */
struct wtg_seeded_buf {
	unsigned char *p;
	uint64_t size;		/* a multiple of chunk */
	uint64_t chunk;
	int64_t *prefix;	/* prefix[i]: the known sum of the first i chunks */
	int64_t huge;		/* bytes of it in huge pages once filled (wtg_huge_bytes), -1 unknown */
};

/* "all 2G in huge pages", "1.5G of its 2G in huge pages", "none of its 2G in huge pages" or "its
 * huge pages unknown" (huge < 0), for a buffer of size bytes with huge of them in huge pages, then
 * the machine's THP setting (", THP madvise"). */
void wtg_huge_phrase(const struct wtg_ctx *ctx, char *buf, size_t len, int64_t huge, uint64_t size);

/* Map (anonymous, transparent huge pages asked for) and fill size bytes (rounded up to chunk) from
 * rng. WTG_OK, or WTG_ERR after wtg_table_fail (out of memory), or WTG_CANCELLED (checked every
 * 64 MiB of filling). */
int wtg_seeded_buf_init(struct wtg_ctx *ctx, struct wtg_rng *rng, struct wtg_seeded_buf *b, uint64_t size,
			uint64_t chunk);
void wtg_seeded_buf_free(struct wtg_seeded_buf *b);
/* The memory-sized buffer (wtg_dram_span bytes, 4 KiB chunks) the experiments that declare
 * shares_dram_buf share (kernels and wss): filling it costs
 * seconds, so a headless run that measures both fills it once. Its bytes come from a generator
 * seeded from --seed alone, so whichever experiment fills it, they are the same. *out points to it
 * on WTG_OK; WTG_ERR (after wtg_table_fail) or WTG_CANCELLED otherwise. */
int wtg_dram_buf_get(struct wtg_ctx *ctx, const struct wtg_seeded_buf **out);
/* self is done with it: keep it when a later selected experiment of this headless run declares
 * shares_dram_buf, else unmap it now. */
void wtg_dram_buf_done(struct wtg_ctx *ctx, const struct wtg_experiment *self);

/* The known sum of [off, off + len), both multiples of the chunk, inside the buffer. */
int64_t wtg_seeded_buf_known(const struct wtg_seeded_buf *b, uint64_t off, uint64_t len);

/* One timed sample over the set [0, set) of b (set a multiple of the chunk): `bytes` bytes summed with
 * fn from *pos on, wrapping to 0 at set (whole passes when bytes is a multiple of set and *pos is 0),
 * in pieces of at most 16 MiB with a cancel check after each 16 MiB, all inside one probe (whole
 * passes over a set of at most 8 MiB go through fn's repeating form, 16 MiB per call); *pos moves
 * on. The sum is checked against the known sum of what was read (as what). Returns WTG_OK with *res
 * and *sum filled, WTG_CANCELLED, or WTG_ERR (a mismatch: the table has failed). */
int wtg_seeded_sum_sample(struct wtg_ctx *ctx, wtg_sum_fn fn, const struct wtg_seeded_buf *b, uint64_t set,
			  uint64_t bytes, uint64_t *pos, const char *what, struct wtg_probe_result *res,
			  int64_t *sum);

/* ---- I/O and distribution helpers (bytewise, syscall, valley, readcost, clock, passes) ---- */

/* Sequential regions of one thread: like wtg_probe_add, but wall times add up. */
void wtg_probe_accumulate(struct wtg_probe_result *a, const struct wtg_probe_result *b);

/* wtg_read_sum for long reads: whole segments of at least 8 MiB (a multiple of bufsize), so a
 * large buffer still sees the cancel flag between segments. Same counts and return values. */
int wtg_read_sum_long(struct wtg_ctx *ctx, int fd, unsigned char *buf, size_t bufsize, uint64_t limit,
		      int64_t *sum, int64_t *bytes, int64_t *calls);

/* How many of the first `want` bytes (a multiple of WTG_CHUNK, or the file size) a read of the
 * file can cover: with O_DIRECT an unaligned tail is dropped (rounded down to WTG_CHUNK). */
uint64_t wtg_io_span(const struct wtg_datafile *df, bool direct, uint64_t want);

/* The buffer alignment for I/O on df: a page, or the O_DIRECT alignment when larger. */
size_t wtg_io_align(const struct wtg_datafile *df);

/* Time `calls` one-byte read()s from fd's offset; returns ns per call and adds the bytes to *sum,
 * or returns -1 when a read fails or hits the end of the file (errno set, 0 at EOF). */
double wtg_time_read1_batch(int fd, long calls, int64_t *sum);

/* Open the data file in the I/O mode in force for reads of bufsize bytes: O_DIRECT (when in force)
 * only where such a buffer can be aligned, else plainly. *direct says which; -1 with errno. */
int wtg_iomode_open_for(struct wtg_ctx *ctx, size_t bufsize, bool *direct);

/* What one timed read pass covered and found. */
struct wtg_read_pass {
	uint64_t bytes;		/* the span read: want, rounded down for O_DIRECT (wtg_io_span) */
	int64_t sum, calls;
	bool direct;		/* read with O_DIRECT */
	struct wtg_probe_result res;	/* the probe around the reads alone */
};

/* One pass over the first `want` bytes of the data file on a fresh descriptor (wtg_iomode_open_for),
 * after wtg_iomode_before_pass, with reads of bufsize into buf (wtg_read_sum_long inside the probe).
 * Returns WTG_OK, WTG_CANCELLED, or WTG_ERR after wtg_table_fail ("<what>: read N of M bytes: ..."
 * when the pass came up short, e.g. a --file truncated meanwhile; out->bytes is then N). */
int wtg_read_pass(struct wtg_ctx *ctx, unsigned char *buf, size_t bufsize, uint64_t want, const char *what,
		  struct wtg_read_pass *out);
/* One checked pass for a compare figure: wtg_read_pass with reads of bufsize over the first
 * min(file size, max) bytes into a buffer of its own, its sum checked against the known prefix sum.
 * Returns WTG_OK with *p filled; WTG_CANCELLED; or WTG_ERR after wtg_table_fail (naming who). */
int wtg_checked_pass(struct wtg_ctx *ctx, const char *who, size_t bufsize, uint64_t max, struct wtg_read_pass *p);

/* The "read_calls" check: calls == ceil(bytes / bufsize); the detail starts with label. */
bool wtg_check_read_calls(struct wtg_ctx *ctx, const char *label, int64_t calls, uint64_t bytes,
			  size_t bufsize);

/* Add a row for an already computed summary (plus nextra values for the extra columns), the raw
 * series, and the quantile check, as wtg_add_distribution_row does. */
void wtg_add_summary_row(struct wtg_ctx *ctx, const char *label, const struct wtg_summary *s,
			 const double *samples, size_t n, const struct wtg_probe_result *probe,
			 const struct wtg_value *extra, int nextra);

/* ---- pages and mappings (mmap, pagecache, faultbase, zerofill, uncached) ---- */

/* The base page size (sysconf), 4096 when it cannot be read. */
long wtg_page_size(void);

/* How many pages of `page` bytes cover `bytes` (the last one may be partial). */
int64_t wtg_pages_of(uint64_t bytes, long page);

/* Sum a mapping of the data file, size bytes, in 4 MiB pieces under the SIGBUS guard, checking cancel
 * after each piece. Returns 0 with *sum set, 1 when cancelled, or -1 after wtg_table_fail() when the
 * file shrank under the mapping (WTG_GUARD_SHRANK). */
int wtg_sum_mapped(struct wtg_ctx *ctx, const unsigned char *p, uint64_t size, int64_t *sum);

/* Test hook: with WTG_TEST_SHRINK=NAME in the environment, the first time experiment NAME (the table
 * ctx fills) is about to read a mapping of a data file wtg created, that file is truncated to half its
 * size, as another program might; a --file is never touched. Called after mapping, before reading. */
void wtg_test_shrink(struct wtg_ctx *ctx);


#endif
