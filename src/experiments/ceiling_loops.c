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
 */
#include "config.h"

#include <string.h>

#include "ceiling.h"
#include "wtg/kernels.h"

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
								      const bool pf)                    \
	{                                                                                             \
		A acc[WTG_CEIL_MAX_STREAMS];                                                          \
		for (int j = 0; j < k; j++)                                                           \
			acc[j] = ZERO;                                                                \
		for (size_t i = 0; i < len; i += WTG_CEIL_LINE)                                       \
			for (int j = 0; j < k; j++) {                                                 \
				if (pf)                                                               \
					__builtin_prefetch(s[j] + i + WTG_CEIL_PREFETCH, 0, 3);        \
				acc[j] = LINE(acc[j], s[j] + i);                                      \
			}                                                                             \
		int64_t t = 0;                                                                        \
		for (int j = 0; j < k; j++)                                                           \
			t += TOTAL(acc[j]);                                                           \
		return t;                                                                             \
	}

/* Its dispatcher: k of 1, 2, 4 or 8, with or without the prefetch. */
#define STREAMS_FN(name, ATTR, BODY)                                                                  \
	ATTR static int64_t name(const unsigned char *const *s, int k, size_t len, bool pf)           \
	{                                                                                             \
		switch (k) {                                                                          \
		case 1:                                                                               \
			return pf ? BODY(s, 1, len, true) : BODY(s, 1, len, false);                   \
		case 2:                                                                               \
			return pf ? BODY(s, 2, len, true) : BODY(s, 2, len, false);                   \
		case 4:                                                                               \
			return pf ? BODY(s, 4, len, true) : BODY(s, 4, len, false);                   \
		default:                                                                              \
			return pf ? BODY(s, 8, len, true) : BODY(s, 8, len, false);                   \
		}                                                                                     \
	}

/* The loads-only loop for one vector type V of W bytes. */
#define LOADS_FN(name, ATTR, V, W, LOAD, KEEP)                                                        \
	ATTR static uint64_t name(const unsigned char *p, size_t len)                                 \
	{                                                                                             \
		V v;                                                                                  \
		memset(&v, 0, sizeof v);                                                              \
		for (size_t i = 0; i < len; i += WTG_CEIL_LINE)                                       \
			for (size_t o = 0; o < WTG_CEIL_LINE; o += (W)) {                             \
				v = LOAD(p + i + o);                                                  \
				KEEP(v);                                                              \
			}                                                                             \
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

int64_t wtg_ceil_streams(const unsigned char *const *s, int k, size_t len, bool prefetch)
{
	switch (width_level()) {
#if CEIL_X86
	case W_ZMM:
		return streams_zmm(s, k, len, prefetch);
	case W_YMM:
		return streams_ymm(s, k, len, prefetch);
	case W_XMM:
		return streams_xmm(s, k, len, prefetch);
#endif
	default:
		return streams_words(s, k, len, prefetch);
	}
}

uint64_t wtg_ceil_loads(const unsigned char *p, size_t len)
{
	switch (width_level()) {
#if CEIL_X86
	case W_ZMM:
		return loads_zmm(p, len);
	case W_YMM:
		return loads_ymm(p, len);
	case W_XMM:
		return loads_xmm(p, len);
#endif
	default:
		return loads_words(p, len);
	}
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
