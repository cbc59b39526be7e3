/* membuf.h: buffers sized to this machine (kernels, wss). */
#ifndef WTG_EXPERIMENTS_MEMBUF_H
#define WTG_EXPERIMENTS_MEMBUF_H

#include "common.h"
#include "wtg/ctx.h"

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
 * shares_dram_buf share (kernels, wss, ceiling; roofline reads it when it is there): filling it
 * costs seconds, so a headless run that measures several fills it once. Its bytes come from a
 * generator seeded from --seed alone, so whichever experiment fills it, they are the same. *out
 * points to it on WTG_OK, and self holds it until wtg_dram_buf_done; WTG_ERR (after
 * wtg_table_fail) or WTG_CANCELLED otherwise. */
int wtg_dram_buf_get(struct wtg_ctx *ctx, const struct wtg_experiment *self, const struct wtg_seeded_buf **out);
/* The buffer if it is filled already for this run's seed and span (self then holds it until
 * wtg_dram_buf_done), else NULL: nothing is filled. */
const struct wtg_seeded_buf *wtg_dram_buf_peek(struct wtg_ctx *ctx, const struct wtg_experiment *self);
/* self is done with it: it is unmapped once no experiment holds it and, in a headless run, every
 * selected experiment that declares shares_dram_buf has been done with it (in whatever order an
 * interleaved run ends them); in the dashboard at once. */
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

/* A window's lead-in, untimed: the `lead` bytes of the set [0, set) of b just before pos (wrapping),
 * summed by the fast sum and checked, so that when a timed window starts at pos the caches hold what
 * a loop over the set holds there (its own last bytes) and none of another row's: over a set past
 * the last-level cache, a window may then be any length, whole passes included, and every byte of
 * it comes from memory. lead and pos are rounded to the buffer's chunk, lead is at most set. */
int wtg_seeded_lead_in(struct wtg_ctx *ctx, const struct wtg_seeded_buf *b, uint64_t set, uint64_t pos,
		       uint64_t lead, const char *what);
/* Where that lead-in starts in [0, set), *lead rounded down to whole chunks and to at most set: it
 * ends where pos (rounded down to a chunk) begins, wrapping past 0 to the set's end. */
uint64_t wtg_lead_in_start(uint64_t set, uint64_t pos, uint64_t chunk, uint64_t *lead);


#endif
