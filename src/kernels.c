/* kernels.c: the vectorized byte sums (the scalar one lives in kernels_scalar.c).
 *
 * wtg_sum_auto is the plain loop as the compiler vectorizes it for the baseline target (SSE2 on
 * x86-64: no -march). GCC 12 at -O2 only uses the "very cheap" vectorizer, which leaves this loop
 * scalar, so the function asks for the full vectorizer with a dynamic cost model.
 * Checked with objdump -d src/kernels.o (GCC 12.2 -O2): the loop body is
 *	movdqu (%rax),%xmm0 ; punpcklbw/punpckhbw %xmm3 ; punpcklwd/punpckhwd ; punpckldq/punpckhdq
 *	paddq %xmm...,%xmm1 (x8)
 * i.e. 16 bytes per iteration, widened to 64-bit lanes, which is what a compiler does by itself.
 *
 * wtg_sum_simd is written by hand with psadbw (sum of absolute differences against zero: eight
 * bytes added into one 64-bit lane per instruction), picked once at run time:
 *	avx512bw  vpsadbw zmm, masked loads for the unaligned head and the tail
 *	avx2      vpsadbw ymm
 *	sse2      psadbw xmm
 *	portable  eight bytes at a time in a 64-bit word (SWAR), for other architectures
 * Each keeps four accumulators so the adds do not wait on each other; the main loops use aligned
 * loads after a short head. Sums are 64-bit lanes: no overflow for any buffer that fits in memory.
 *
 * The environment variable WTG_SIMD=avx512bw|avx2|sse2|portable, read once at the first call,
 * caps the level (for tests and comparisons); it never selects a level the CPU lacks, and an
 * unknown value is ignored.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/kernels.h"

#if defined(__x86_64__)
#define WTG_X86 1
#include <immintrin.h>
#else
#define WTG_X86 0
#endif

#if defined(__clang__)
int64_t wtg_sum_auto(const unsigned char *p, size_t n)
{
	int64_t s = 0;
#pragma clang loop vectorize(enable) interleave(enable)
	for (size_t i = 0; i < n; i++)
		s += p[i];
	return s;
}
#else
#if defined(__GNUC__)
__attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic")))
#endif
int64_t wtg_sum_auto(const unsigned char *p, size_t n)
{
	int64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	return s;
}
#endif

/* Short heads and tails (under 64 bytes). */
static inline uint64_t sum_small(const unsigned char *p, size_t n)
{
	uint64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	return s;
}

static int64_t sum_portable(const unsigned char *p, size_t n)
{
	const uint64_t m = 0x00ff00ff00ff00ffull;
	uint64_t total = 0;
	while (n >= 8) {
		/* four 16-bit lanes grow by at most 2 * 255 per word: 128 words stay below 65536 */
		size_t words = n / 8 < 128 ? n / 8 : 128;
		uint64_t acc = 0;
		for (size_t i = 0; i < words; i++) {
			uint64_t x;
			memcpy(&x, p + 8 * i, 8);
			acc += (x & m) + ((x >> 8) & m);
		}
		acc = (acc & 0x0000ffff0000ffffull) + ((acc >> 16) & 0x0000ffff0000ffffull);
		total += (acc & 0xffffffffull) + (acc >> 32);
		p += 8 * words;
		n -= 8 * words;
	}
	return (int64_t)(total + sum_small(p, n));
}

#if WTG_X86
/* sum_sse2 and sum_avx2 are one loop at two widths: scalar bytes up to the vector alignment, then
 * rounds of eight psadbw into four accumulators (so the adds do not wait on each other), then one
 * vector at a time, then the scalar tail. V is the vector type, W its width in bytes, PFX and SI
 * spell the intrinsics (_mm + si128, _mm256 + si256), FOLD adds an accumulator's 64-bit lanes. */
#define SAD_SUM_BODY(V, W, PFX, SI, FOLD)                                                     \
	size_t head = (size_t)(-(uintptr_t)p & ((W)-1));                                        \
	if (head > n)                                                                            \
		head = n;                                                                        \
	uint64_t s = sum_small(p, head);                                                         \
	p += head;                                                                               \
	n -= head;                                                                               \
	const V z = PFX##_setzero_##SI();                                                        \
	V a0 = z, a1 = z, a2 = z, a3 = z;                                                        \
	for (; n >= 8 * (W); p += 8 * (W), n -= 8 * (W)) {                                       \
		const V *v = (const V *)(const void *)p;                                         \
		a0 = PFX##_add_epi64(a0, PFX##_sad_epu8(PFX##_load_##SI(v + 0), z));             \
		a1 = PFX##_add_epi64(a1, PFX##_sad_epu8(PFX##_load_##SI(v + 1), z));             \
		a2 = PFX##_add_epi64(a2, PFX##_sad_epu8(PFX##_load_##SI(v + 2), z));             \
		a3 = PFX##_add_epi64(a3, PFX##_sad_epu8(PFX##_load_##SI(v + 3), z));             \
		a0 = PFX##_add_epi64(a0, PFX##_sad_epu8(PFX##_load_##SI(v + 4), z));             \
		a1 = PFX##_add_epi64(a1, PFX##_sad_epu8(PFX##_load_##SI(v + 5), z));             \
		a2 = PFX##_add_epi64(a2, PFX##_sad_epu8(PFX##_load_##SI(v + 6), z));             \
		a3 = PFX##_add_epi64(a3, PFX##_sad_epu8(PFX##_load_##SI(v + 7), z));             \
	}                                                                                        \
	for (; n >= (W); p += (W), n -= (W))                                                     \
		a0 = PFX##_add_epi64(a0, PFX##_sad_epu8(PFX##_load_##SI((const V *)(const void *)p), z)); \
	a0 = PFX##_add_epi64(PFX##_add_epi64(a0, a1), PFX##_add_epi64(a2, a3));                  \
	return (int64_t)(s + FOLD(a0) + sum_small(p, n))

__attribute__((target("sse2")))
static inline uint64_t fold_sse2(__m128i a)
{
	a = _mm_add_epi64(a, _mm_unpackhi_epi64(a, a));
	uint64_t lanes;
	_mm_storel_epi64((__m128i *)(void *)&lanes, a);
	return lanes;
}

__attribute__((target("avx2")))
static inline uint64_t fold_avx2(__m256i a)
{
	__m128i h = _mm_add_epi64(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
	h = _mm_add_epi64(h, _mm_unpackhi_epi64(h, h));
	return (uint64_t)_mm_cvtsi128_si64(h);
}

__attribute__((target("sse2")))
static int64_t sum_sse2(const unsigned char *p, size_t n)
{
	SAD_SUM_BODY(__m128i, 16, _mm, si128, fold_sse2);
}

__attribute__((target("avx2")))
static int64_t sum_avx2(const unsigned char *p, size_t n)
{
	SAD_SUM_BODY(__m256i, 32, _mm256, si256, fold_avx2);
}

__attribute__((target("avx512bw")))
static int64_t sum_avx512(const unsigned char *p, size_t n)
{
	const __m512i z = _mm512_setzero_si512();
	__m512i a0 = z, a1 = z, a2 = z, a3 = z;
	/* masked loads never touch the bytes outside the mask, so head and tail need no scalar loop */
	size_t head = (size_t)(-(uintptr_t)p & 63);
	if (head > n)
		head = n;
	if (head) {
		a0 = _mm512_sad_epu8(_mm512_maskz_loadu_epi8((__mmask64)((1ull << head) - 1), p), z);
		p += head;
		n -= head;
	}
	for (; n >= 256; p += 256, n -= 256) {
		const __m512i *v = (const __m512i *)(const void *)p;
		a0 = _mm512_add_epi64(a0, _mm512_sad_epu8(_mm512_load_si512(v + 0), z));
		a1 = _mm512_add_epi64(a1, _mm512_sad_epu8(_mm512_load_si512(v + 1), z));
		a2 = _mm512_add_epi64(a2, _mm512_sad_epu8(_mm512_load_si512(v + 2), z));
		a3 = _mm512_add_epi64(a3, _mm512_sad_epu8(_mm512_load_si512(v + 3), z));
	}
	for (; n >= 64; p += 64, n -= 64)
		a0 = _mm512_add_epi64(a0, _mm512_sad_epu8(_mm512_load_si512((const void *)p), z));
	if (n)
		a1 = _mm512_add_epi64(a1, _mm512_sad_epu8(_mm512_maskz_loadu_epi8((__mmask64)((1ull << n) - 1),
										       p), z));
	a0 = _mm512_add_epi64(_mm512_add_epi64(a0, a1), _mm512_add_epi64(a2, a3));
	return (int64_t)_mm512_reduce_add_epi64(a0);
}
#endif

/* ---- run-time choice ---- */

enum { L_PORTABLE, L_SSE2, L_AVX2, L_AVX512BW, L_COUNT };

static const char *const level_names[L_COUNT] = { "portable", "sse2", "avx2", "avx512bw" };
static int64_t (*const level_fns[L_COUNT])(const unsigned char *, size_t) = {
#if WTG_X86
	sum_portable, sum_sse2, sum_avx2, sum_avx512,
#else
	sum_portable, sum_portable, sum_portable, sum_portable,
#endif
};

static pthread_once_t choice_once = PTHREAD_ONCE_INIT;
static int chosen;	/* written once under choice_once */

static void choose(void)
{
	int best = L_PORTABLE;
#if WTG_X86
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512bw"))
		best = L_AVX512BW;
	else if (__builtin_cpu_supports("avx2"))
		best = L_AVX2;
	else if (__builtin_cpu_supports("sse2"))
		best = L_SSE2;
#endif
	const char *cap = getenv("WTG_SIMD");
	if (cap) {
		for (int l = 0; l < L_COUNT; l++)
			if (strcmp(cap, level_names[l]) == 0 && l < best)
				best = l;
	}
	chosen = best;
}

int64_t wtg_sum_simd(const unsigned char *p, size_t n)
{
	pthread_once(&choice_once, choose);
	return level_fns[chosen](p, n);
}

const char *wtg_sum_simd_name(void)
{
	pthread_once(&choice_once, choose);
	return level_names[chosen];
}
