/* ceiling.h: the loops the ceiling experiment times beside the hand SIMD sum (ceiling_loops.c), and
 * its part inside the caches (ceiling_cache.c). Each loop uses the vector width of the sum's level
 * (zmm for the AVX-512 levels, ymm for AVX2 and AVX-VNNI, xmm for SSE2, 64-bit words elsewhere), so
 * a row differs from the reference by one thing. */
#ifndef WTG_EXPERIMENTS_CEILING_H
#define WTG_EXPERIMENTS_CEILING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WTG_CEIL_LINE 64u		/* a cache line: the streams' and the chase's step */
#define WTG_CEIL_PREFETCH 2048u	/* the prefetch row reads this far ahead of each load */
#define WTG_CEIL_MAX_STREAMS 8

/* The width the loops below load with, in words: "zmm", "ymm", "xmm" or "64-bit words"; *bytes (when
 * not NULL) gets it in bytes. */
const char *wtg_ceil_width(size_t *bytes);

/* The byte sum of k streams (1, 2, 4 or 8), stream j being s[j][0, len), passes times over: one
 * 64-byte line of each stream in turn, so k misses can be in flight at once; psadbw into one
 * accumulator per stream. prefetch: a software prefetch WTG_CEIL_PREFETCH bytes ahead of every line.
 * len is a multiple of 64 and every s[j] 64-byte aligned. */
int64_t wtg_ceil_streams(const unsigned char *const *s, int k, size_t len, bool prefetch, uint64_t passes);

/* Load every byte of p[0, len) (a multiple of 64, p 64-byte aligned) into vector registers, passes
 * times over, and do nothing with them: no arithmetic, each load kept by an empty asm statement that
 * takes the register. Returns the first 8 bytes of the last vector loaded (p[len - width]), so a
 * caller can tell the loop reached the end. */
uint64_t wtg_ceil_loads(const unsigned char *p, size_t len, uint64_t passes);

/* The core's clock in GHz from a timed chain of dependent multiplies of known latency (the fastest of
 * a few tries), NAN where it cannot be measured (no such chain for this architecture, or a figure
 * outside 0.2 .. 10 GHz). */
double wtg_ceil_clock_ghz(void);

/* Follow n pointers from p (each pointer's target holds the next): the address reached. */
const void *wtg_ceil_chase(const void *p, uint64_t n);

/* ---- the second thread (ceiling_loops.c) ---- */

struct wtg_ctx;
struct wtg_seeded_buf;

/* The first CPU this process may run on other than `not`, -1 when none; *count gets how many it may
 * run on (the online CPUs when its affinity cannot be read). */
int wtg_ceil_other_cpu(int not, int *count);

/* The second thread: pinned to CPU cpu, it sums buf from `at` in 4 MiB pieces until told to stop,
 * adding up the known sums beside. */
struct wtg_ceil_peer {
	const struct wtg_seeded_buf *buf;
	uint64_t span, at;
	int cpu, pin_err;
	atomic_int streaming;
	atomic_bool stop;
	int64_t sum, known, t0, t1;
	uint64_t bytes;
};
void *wtg_ceil_peer_main(void *arg);
/* Wait until the second thread streams: WTG_OK, WTG_CANCELLED, or WTG_ERR when it got no CPU within
 * the time limit. */
int wtg_ceil_await_peer(struct wtg_ctx *ctx, struct wtg_ceil_peer *pe);

/* ---- ceiling_cache.c ---- */

struct wtg_table;
struct wtg_probe_result;

/* The buffers ceiling measures one core at: L1-sized, L2-sized, memory-sized. */
enum wtg_ceil_level { WTG_CEIL_L1, WTG_CEIL_L2, WTG_CEIL_MEM, WTG_CEIL_NLEVELS };
extern const char *const wtg_ceil_level_names[WTG_CEIL_NLEVELS];	/* "L1", "L2", "memory" */

/* What a variant runs. */
enum wtg_ceil_kind { WTG_CK_REF, WTG_CK_LOADS, WTG_CK_4K, WTG_CK_STREAMS, WTG_CK_PREFETCH, WTG_CK_PEER, WTG_CK_CHASE };

/* The in-cache buffers' sizes: half of L1d and half of L2 (the machine's cache facts, 32 KiB and
 * 1 MiB assumed where it gives none), in whole 4 KiB chunks of 8 streams' lines, the L2 one at least
 * twice the L1 one. *from gets where the sizes came from ("sysfs", "assumed", ...). */
void wtg_ceil_cache_sizes(const struct wtg_ctx *ctx, uint64_t size[2], const char **from);

/* One sample of an in-cache variant: `bytes` (whole passes) over b's first `set` bytes, in pieces
 * with a cancel check after each; the sum (reference, streams, prefetch) checked against the known
 * one, the loads' last vector against the buffer's bytes. */
int wtg_ceil_cache_sample(struct wtg_ctx *ctx, const struct wtg_seeded_buf *b, uint64_t set, enum wtg_ceil_kind kind,
			  int streams, uint64_t bytes, const char *what, struct wtg_probe_result *res, int64_t *sum);

/* The loads-only loop's end check: false (with a failed check and the run's failure) when last is
 * not want. */
bool wtg_ceil_loads_ok(struct wtg_ctx *ctx, uint64_t last, uint64_t want);

/* The clock and the load limit ceiling measured (wtg_ceil_load_limit). */
struct wtg_ceil_limit {
	double ghz, gbps, per_cycle;	/* the clock (NAN: not measured), the limit, loads-only B/cycle */
	int ports;
};

/* The notes on the in-cache buffers (set: the L1- and L2-sized sets; huge: wtg_huge_phrase's words of
 * their buffer; from: where their sizes came from), the clock and the load limit. */
void wtg_ceil_cache_notes(struct wtg_ctx *ctx, const uint64_t set[2], const char *huge, const char *from,
			  const struct wtg_ceil_limit *lim);

/* The load limit: the loads-only loop over an L1-sized set timed a few times beside the clock; the
 * vector loads per cycle of the fastest try, rounded to whole ports. *ghz gets the clock (NAN: not
 * measured), *ports the ports (0 then); returns width x ports x clock in GB/s, NAN without a clock. */
double wtg_ceil_load_limit(const unsigned char *p, uint64_t set, double *ghz, int *ports, double *per_cycle);

/* ceiling's verdict: one part per level the table has ("L1: the loads: ..."; "memory: 4K pages: ..."). */
int wtg_ceil_verdict(const struct wtg_table *t, char *buf, size_t len);

#endif
