/* ceiling_loops.c: the loops the ceiling experiment sets beside the hand SIMD sum (see ceiling.h).
 *
 * The streams loop takes one 64-byte line of each of its k streams in turn and adds its bytes with
 * psadbw (eight bytes into a 64-bit lane) into one accumulator per stream: k independent address
 * streams and k independent add chains, so the core can keep k lines' misses in flight where the
 * hardware prefetcher alone would follow one. With one stream it is the same work as the reference
 * sum's vpsadbw half, one line at a time (its own row, so the loop's code is measured too). The
 * prefetch form adds one software prefetch per line, WTG_CEIL_PREFETCH bytes ahead (a prefetch
 * never faults, so the last lines' prefetches past a window's end cost nothing but the request).
 *
 * The loads loop moves every byte into a register and does no arithmetic at all: each loaded
 * register is handed to an empty asm statement, which the compiler must feed but which emits no
 * instruction, so neither the loads nor the loop can be dropped.
 *
 * The chase follows pointers: each load's address is the value the previous one returned, so one
 * miss is in flight at a time and the time per step is the load-to-use latency.
 *
 * Each loop repeats its bytes `passes` times with its accumulators in registers (a buffer inside a
 * cache is read many times per sample, with no call per pass); the loads loop reads four lines per
 * iteration, as likwid-bench's load kernels do, so that its branch is not what limits it in L1.
 *
 * The clock is a chain of dependent 64-bit multiplies: imul r64, r64 has a latency of 3 cycles on
 * every Intel core since Nehalem and every AMD core since Zen, and a chain cannot be resolved
 * early (an `add $1` chain can be, on recent Intel cores, so it is no clock). On arm64 it is a chain
 * of dependent register adds (add x, x, y with y zero, read from memory): one cycle each on every
 * AArch64 core in Arm's optimization guides (Cortex-A53 to Neoverse V2), with no early resolution.
 */
#include "config.h"

#include <math.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include "ceiling.h"
#include "common.h"
#include "crew.h"
#include "membuf.h"
#include "wtg/kernels.h"
#include "wtg/util.h"

#if defined(__x86_64__)
#define CEIL_X86 1
#include <immintrin.h>
#else
#define CEIL_X86 0
#endif

enum { W_WORDS, W_XMM, W_YMM, W_ZMM };

/* The width of the hand SIMD sum's level (its choice is made once, before main). */
static int width_level(void)
{
	const char *l = wtg_sum_simd_name();
	if (CEIL_X86 && strncmp(l, "avx512", 6) == 0)
		return W_ZMM;
	if (CEIL_X86 && (strcmp(l, "avx2") == 0 || strcmp(l, "avxvnni") == 0))
		return W_YMM;
	if (CEIL_X86 && strcmp(l, "sse2") == 0)
		return W_XMM;
	return W_WORDS;
}

const char *wtg_ceil_width(size_t *bytes)
{
	static const char *const names[] = { "64-bit words", "xmm", "ymm", "zmm" };
	static const size_t widths[] = { 8, 16, 32, 64 };
	int w = width_level();
	if (bytes)
		*bytes = widths[w];
	return names[w];
}

/* The k-stream loop for one accumulator type A: LINE(a, q) adds the 64 bytes at q into a, TOTAL(a)
 * its lanes. k and pf are constants where the dispatcher below calls it, so each form is a loop of
 * its own with its accumulators in registers. */
#define STREAMS_K(name, ATTR, A, ZERO, LINE, TOTAL)                                                   \
	ATTR __attribute__((always_inline)) static inline int64_t name(const unsigned char *const *s,  \
								      const int k, size_t len,          \
								      const bool pf, uint64_t passes)   \
	{                                                                                             \
		A acc[WTG_CEIL_MAX_STREAMS];                                                          \
		for (int j = 0; j < k; j++)                                                           \
			acc[j] = ZERO;                                                                \
		for (; passes; passes--)                                                              \
			for (size_t i = 0; i < len; i += WTG_CEIL_LINE)                               \
				for (int j = 0; j < k; j++) {                                         \
					if (pf)                                                       \
						__builtin_prefetch(s[j] + i + WTG_CEIL_PREFETCH, 0, 3); \
					acc[j] = LINE(acc[j], s[j] + i);                              \
				}                                                                     \
		int64_t t = 0;                                                                        \
		for (int j = 0; j < k; j++)                                                           \
			t += TOTAL(acc[j]);                                                           \
		return t;                                                                             \
	}

/* Its dispatcher: k of 1, 2, 4 or 8, with or without the prefetch. */
#define STREAMS_FN(name, ATTR, BODY)                                                                  \
	ATTR static int64_t name(const unsigned char *const *s, int k, size_t len, bool pf, uint64_t n) \
	{                                                                                             \
		switch (k) {                                                                          \
		case 1:                                                                               \
			return pf ? BODY(s, 1, len, true, n) : BODY(s, 1, len, false, n);             \
		case 2:                                                                               \
			return pf ? BODY(s, 2, len, true, n) : BODY(s, 2, len, false, n);             \
		case 4:                                                                               \
			return pf ? BODY(s, 4, len, true, n) : BODY(s, 4, len, false, n);             \
		default:                                                                              \
			return pf ? BODY(s, 8, len, true, n) : BODY(s, 8, len, false, n);             \
		}                                                                                     \
	}

/* The loads-only loop for one vector type V of W bytes: four lines per iteration, then the rest. */
#define QUAD (4 * WTG_CEIL_LINE)
#define LOADS_FN(name, ATTR, V, W, LOAD, KEEP)                                                        \
	ATTR static uint64_t name(const unsigned char *p, size_t len, uint64_t passes)                \
	{                                                                                             \
		V v;                                                                                  \
		memset(&v, 0, sizeof v);                                                              \
		const size_t quads = len / QUAD * QUAD;                                               \
		for (; passes; passes--) {                                                            \
			size_t i = 0;                                                                 \
			for (; i < quads; i += QUAD) {                                                \
				_Pragma("GCC unroll 32") for (size_t o = 0; o < QUAD; o += (W))       \
				{                                                                     \
					v = LOAD(p + i + o);                                          \
					KEEP(v);                                                      \
				}                                                                     \
			}                                                                             \
			for (; i < len; i += (W)) {                                                   \
				v = LOAD(p + i);                                                      \
				KEEP(v);                                                              \
			}                                                                             \
		}                                                                                     \
		uint64_t first;                                                                       \
		memcpy(&first, &v, sizeof first);                                                     \
		return first;                                                                         \
	}

/* ---- 64-bit words (SWAR), every architecture ---- */

static inline uint64_t line_words(uint64_t a, const unsigned char *q)
{
	const uint64_t m = 0x00ff00ff00ff00ffull;
	uint64_t acc = 0;	/* four 16-bit lanes, each at most 8 x 2 x 255 */
	for (int w = 0; w < 8; w++) {
		uint64_t x;
		memcpy(&x, q + 8 * w, sizeof x);
		acc += (x & m) + ((x >> 8) & m);
	}
	acc = (acc & 0x0000ffff0000ffffull) + ((acc >> 16) & 0x0000ffff0000ffffull);
	return a + (acc & 0xffffffffull) + (acc >> 32);
}

static inline uint64_t load_word(const unsigned char *q)
{
	uint64_t x;
	memcpy(&x, q, sizeof x);
	return x;
}

#define SAME(a) ((int64_t)(a))
#define KEEP_R(v) __asm__ volatile("" : : "r"(v))
STREAMS_K(streams_words_k, , uint64_t, 0, line_words, SAME)
STREAMS_FN(streams_words, , streams_words_k)
LOADS_FN(loads_words, , uint64_t, 8, load_word, KEEP_R)

#if CEIL_X86
#define T_SSE2 __attribute__((target("sse2")))
#define T_AVX2 __attribute__((target("avx2")))
#define T_AVX512 __attribute__((target("avx512bw")))

/* ---- xmm ---- */
T_SSE2 static inline __m128i line_xmm(__m128i a, const unsigned char *q)
{
	const __m128i z = _mm_setzero_si128();
	const __m128i *v = (const __m128i *)(const void *)q;
	__m128i x = _mm_add_epi64(_mm_sad_epu8(_mm_load_si128(v), z), _mm_sad_epu8(_mm_load_si128(v + 1), z));
	__m128i y = _mm_add_epi64(_mm_sad_epu8(_mm_load_si128(v + 2), z), _mm_sad_epu8(_mm_load_si128(v + 3), z));
	return _mm_add_epi64(a, _mm_add_epi64(x, y));
}

T_SSE2 static inline int64_t total_xmm(__m128i a)
{
	uint64_t l[2];
	_mm_storeu_si128((__m128i *)(void *)l, a);
	return (int64_t)(l[0] + l[1]);
}

T_SSE2 static inline __m128i load_xmm(const unsigned char *q)
{
	return _mm_load_si128((const __m128i *)(const void *)q);
}

#define KEEP_X(v) __asm__ volatile("" : : "x"(v))
STREAMS_K(streams_xmm_k, T_SSE2, __m128i, _mm_setzero_si128(), line_xmm, total_xmm)
STREAMS_FN(streams_xmm, T_SSE2, streams_xmm_k)
LOADS_FN(loads_xmm, T_SSE2, __m128i, 16, load_xmm, KEEP_X)

/* ---- ymm ---- */
T_AVX2 static inline __m256i line_ymm(__m256i a, const unsigned char *q)
{
	const __m256i z = _mm256_setzero_si256();
	const __m256i *v = (const __m256i *)(const void *)q;
	return _mm256_add_epi64(a, _mm256_add_epi64(_mm256_sad_epu8(_mm256_load_si256(v), z),
						    _mm256_sad_epu8(_mm256_load_si256(v + 1), z)));
}

T_AVX2 static inline int64_t total_ymm(__m256i a)
{
	uint64_t l[4];
	_mm256_storeu_si256((__m256i *)(void *)l, a);
	return (int64_t)(l[0] + l[1] + l[2] + l[3]);
}

T_AVX2 static inline __m256i load_ymm(const unsigned char *q)
{
	return _mm256_load_si256((const __m256i *)(const void *)q);
}

STREAMS_K(streams_ymm_k, T_AVX2, __m256i, _mm256_setzero_si256(), line_ymm, total_ymm)
STREAMS_FN(streams_ymm, T_AVX2, streams_ymm_k)
LOADS_FN(loads_ymm, T_AVX2, __m256i, 32, load_ymm, KEEP_X)

/* ---- zmm ---- */
T_AVX512 static inline __m512i line_zmm(__m512i a, const unsigned char *q)
{
	return _mm512_add_epi64(a, _mm512_sad_epu8(_mm512_load_si512((const void *)q), _mm512_setzero_si512()));
}

T_AVX512 static inline int64_t total_zmm(__m512i a)
{
	return (int64_t)_mm512_reduce_add_epi64(a);
}

T_AVX512 static inline __m512i load_zmm(const unsigned char *q)
{
	return _mm512_load_si512((const void *)q);
}

#define KEEP_V(v) __asm__ volatile("" : : "v"(v))
STREAMS_K(streams_zmm_k, T_AVX512, __m512i, _mm512_setzero_si512(), line_zmm, total_zmm)
STREAMS_FN(streams_zmm, T_AVX512, streams_zmm_k)
LOADS_FN(loads_zmm, T_AVX512, __m512i, 64, load_zmm, KEEP_V)
#endif

int64_t wtg_ceil_streams(const unsigned char *const *s, int k, size_t len, bool prefetch, uint64_t passes)
{
	switch (width_level()) {
#if CEIL_X86
	case W_ZMM:
		return streams_zmm(s, k, len, prefetch, passes);
	case W_YMM:
		return streams_ymm(s, k, len, prefetch, passes);
	case W_XMM:
		return streams_xmm(s, k, len, prefetch, passes);
#endif
	default:
		return streams_words(s, k, len, prefetch, passes);
	}
}

uint64_t wtg_ceil_loads(const unsigned char *p, size_t len, uint64_t passes)
{
	switch (width_level()) {
#if CEIL_X86
	case W_ZMM:
		return loads_zmm(p, len, passes);
	case W_YMM:
		return loads_ymm(p, len, passes);
	case W_XMM:
		return loads_xmm(p, len, passes);
#endif
	default:
		return loads_words(p, len, passes);
	}
}

#define CLOCK_CHAIN (1u << 18)	/* multiplies per try: about 0.2 ms at 4 GHz, short enough to run whole */
#define CLOCK_TRIES 31

#if CEIL_X86
#define CHAIN_CYCLES 3.0	/* imul r64, r64 */
#define CHAIN_64(x, m) __asm__ volatile(".rept 64\n\timulq %1, %0\n\t.endr" : "+r"(x) : "r"(m))
#elif defined(__aarch64__)
#define CHAIN_CYCLES 1.0	/* add x, x, y */
#define CHAIN_64(x, m) __asm__ volatile(".rept 64\n\tadd %0, %0, %1\n\t.endr" : "+r"(x) : "r"(m))
#endif

double wtg_ceil_clock_ghz(void)
{
#ifdef CHAIN_64
	/* m is the identity of the chain's operation (1 for the multiplies, 0 for the adds), read from
	 * memory so that the compiler cannot know it */
	volatile uint64_t identity = CEIL_X86 ? 1 : 0;
	uint64_t x = 12345, m = identity;
	int64_t best = 0;
	for (int t = 0; t < CLOCK_TRIES; t++) {
		int64_t t0 = wtg_now_ns();
		for (unsigned i = 0; i < CLOCK_CHAIN / 64; i++)
			CHAIN_64(x, m);
		int64_t dt = wtg_now_ns() - t0;
		if (dt > 0 && (best == 0 || dt < best))
			best = dt;
	}
	double ghz = best > 0 && x == 12345 ? CHAIN_CYCLES * CLOCK_CHAIN / (double)best : NAN;
	return ghz > 0.2 && ghz < 10 ? ghz : NAN;
#else
	return NAN;
#endif
}

__attribute__((noinline)) const void *wtg_ceil_chase(const void *p, uint64_t n)
{
	const void *q = p;
	for (; n >= 4; n -= 4) {
		q = *(const void *const *)q;
		q = *(const void *const *)q;
		q = *(const void *const *)q;
		q = *(const void *const *)q;
	}
	for (; n; n--)
		q = *(const void *const *)q;
	return q;
}

/* ---- the second thread ---- */

int wtg_ceil_other_cpu(int not, int *count)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set) != 0) {
		*count = wtg_online_cpus();
		return -1;
	}
	*count = CPU_COUNT(&set);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set) && c != not)
			return c;
	return -1;
}

#define PEER_PIECE (4u << 20)	/* the second thread looks at its stop flag this often */

void *wtg_ceil_peer_main(void *arg)
{
	struct wtg_ceil_peer *pe = arg;
	pe->pin_err = wtg_pin_self(pe->cpu);
	wtg_policy_apply_self();
	pe->t0 = wtg_now_ns();
	atomic_store(&pe->streaming, 1);
	for (uint64_t at = pe->at; !atomic_load(&pe->stop);) {
		uint64_t n = pe->span - at < PEER_PIECE ? pe->span - at : PEER_PIECE;
		pe->sum += wtg_sum_bytes(pe->buf->p + at, (size_t)n);
		pe->known += wtg_seeded_buf_known(pe->buf, at, n);
		pe->bytes += n;
		at = at + n >= pe->span ? 0 : at + n;
	}
	pe->t1 = wtg_now_ns();
	wtg_policy_unregister_self();
	return NULL;
}

int wtg_ceil_await_peer(struct wtg_ctx *ctx, struct wtg_ceil_peer *pe)
{
	const int64_t limit = (ctx->opt->time_limit_ms > 0 ? ctx->opt->time_limit_ms : 10000) * 1000000;
	const int64_t t0 = wtg_now_ns();
	while (!atomic_load(&pe->streaming)) {
		if (wtg_ctx_cancelled(ctx))
			return WTG_CANCELLED;
		if (wtg_now_ns() - t0 > limit) {
			wtg_table_fail(ctx->t, "starved: the second thread got no CPU in %.0f s", (double)limit / 1e9);
			return WTG_ERR;
		}
		struct timespec nap = { 0, 100000 };
		nanosleep(&nap, NULL);
	}
	return WTG_OK;
}
