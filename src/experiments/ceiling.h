/* ceiling.h: what the ceiling experiment takes from its siblings: the loops it times beside the hand
 * SIMD sum (ceiling_loops.c) and its verdict (ceiling_verdict.c). Each loop uses the vector width of the sum's level (zmm for the AVX-512 levels, ymm for AVX2 and AVX-VNNI,
 * xmm for SSE2, 64-bit words elsewhere), so a row differs from the reference by one thing. */
#ifndef WTG_EXPERIMENTS_CEILING_H
#define WTG_EXPERIMENTS_CEILING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WTG_CEIL_LINE 64u		/* a cache line: the streams' and the chase's step */
#define WTG_CEIL_PREFETCH 2048u	/* the prefetch row reads this far ahead of each load */
#define WTG_CEIL_MAX_STREAMS 8

/* The width the loops below load with, in words: "zmm", "ymm", "xmm" or "64-bit words"; *bytes (when
 * not NULL) gets it in bytes. */
const char *wtg_ceil_width(size_t *bytes);

/* The byte sum of k streams (1, 2, 4 or 8), stream j being s[j][0, len): one 64-byte line of each
 * stream in turn, so k misses can be in flight at once; psadbw into one accumulator per stream.
 * prefetch: a software prefetch WTG_CEIL_PREFETCH bytes ahead of every line. len is a multiple of 64
 * and every s[j] 64-byte aligned. */
int64_t wtg_ceil_streams(const unsigned char *const *s, int k, size_t len, bool prefetch);

/* Load every byte of p[0, len) (a multiple of 64, p 64-byte aligned) into vector registers and do
 * nothing with them: no arithmetic, each load kept by an empty asm statement that takes the register.
 * Returns the first 8 bytes of the last vector loaded (p[len - width]), so a caller can tell the
 * loop reached the end. */
uint64_t wtg_ceil_loads(const unsigned char *p, size_t len);

/* Follow n pointers from p (each pointer's target holds the next): the address reached. */
const void *wtg_ceil_chase(const void *p, uint64_t n);

struct wtg_table;
/* "4K pages: x0.81 [0.78-0.84]: translation is part of one core's cap here", from ceiling's table t
 * (its .verdict): the length written, 0 when the table has nothing to say yet. */
int wtg_ceil_verdict(const struct wtg_table *t, char *buf, size_t len);

#endif
