/* kernels.c: the vectorized byte sums (the scalar one lives in kernels_scalar.c).
 *
 * wtg_sum_auto is the plain loop as the compiler vectorizes it for the build's baseline target
 * (SSE2 on x86-64 without -march). GCC 12 at -O2 only uses the "very cheap" vectorizer, which
 * leaves this loop scalar, so the function asks for the -O3-level vectorizer (tree-vectorize with
 * the dynamic cost model). Checked with objdump -d src/kernels.o (GCC 12.2 -O2): the loop body is
 *	movdqu (%rax),%xmm0 ; punpcklbw/punpckhbw %xmm3 ; punpcklwd/punpckhwd ; punpckldq/punpckhdq
 *	paddq %xmm...,%xmm1 (x8)
 * i.e. 16 bytes per iteration widened to 64-bit lanes: what a compiler does by itself.
 * wtg_sum_native is the same source compiled again with function-level target attributes for
 * x86-64-v3 (AVX2) and x86-64-v4 (AVX-512), the best the CPU has picked once: what -march=native
 * would buy (the loop becomes vpmovzxbq/vpaddq on ymm or zmm, still widening every byte).
 *
 * wtg_sum_simd is written by hand, one loop per instruction set:
 *	avx512vnni  zmm: vpdpbusd only (bytes x 1 added straight into 32-bit lanes), 16 accumulators
 *	avx512bw    zmm: vpsadbw only (eight bytes into a 64-bit lane, then a vpaddq)
 *	avxvnni     ymm: VEX vpdpbusd only, 12 accumulators
 *	avx2        ymm: vpsadbw + vpmaddubsw (pairs into 16-bit lanes, widened every 64 rounds)
 *	sse2        xmm: psadbw only
 *	portable    eight bytes at a time in a 64-bit word (SWAR), for other architectures
 * and on arm64 (kernels_neon.c, chosen from getauxval(AT_HWCAP)):
 *	asimddp     UDOT against a vector of ones, 16 accumulators (the dot-product extension)
 *	asimd       UADALP into 16-bit lanes, 8 accumulators, widened every 64 rounds
 * vpdpbusd issues twice a cycle on 512-bit vectors on Intel's Sapphire Rapids (latency about 6
 * cycles, by issue 35's measurements) as on AMD's Zen 5 (where 4 accumulators ran at half the
 * speed of 8: a latency near 4), so a loop of nothing else needs 12 to 16 independent accumulators
 * to keep both pipes busy: with 16 (one per vector of a 1 KiB round) the
 * loop needs one load and one vpdpbusd per 64 bytes and nothing else, so the two load ports are its
 * only limit. (The loop before, four vpsadbw and four vpdpbusd per 512 bytes, ran at 72 bytes a
 * cycle on Sapphire Rapids against 125 for loads alone: vpsadbw zmm issues on one port there;
 * figures from issue 35's Intel table, not measured here.) The ymm form has 16 registers to hold
 * its accumulators, the ones vector and the loaded vectors, hence 12 accumulators in 384-byte
 * rounds. The other levels run eight accumulators (four of each kind) in rounds of eight vectors.
 * The 16- and 32-bit lanes are widened into 64-bit ones often enough that none can overflow (see
 * FOLD_BYTES), so every level's sum is exact for any length. Each level has a repeating form that
 * sums the same buffer many times with the accumulators kept in registers, folding once at the
 * end: wtg_sum_passes and wtg_seeded_sum_sample use it, so a 16 KiB working set does not pay a call
 * and a horizontal fold per pass; a buffer of whole aligned vectors repeats inside the hot loop
 * itself (the vectors after the last whole round included), so its accumulators do not even go
 * through memory between passes.
 *
 * Measured on an AMD Zen 5 (family 0x1a, 2 vCPUs, bench/sumloop alternating with likwid-bench):
 * the mixed loop ran as fast as a loop that only loads (4 zmm loads per 256 bytes, as likwid's
 * load_avx512), within the noise, at 16 KiB, 512 KiB and 1 GiB; so did 12 or 16 vpdpbusd
 * accumulators, while 4 vpdpbusd accumulators ran at half speed (its latency) and software
 * prefetch added nothing at memory size. The pure vpdpbusd loop with 16 accumulators (sumloop's
 * dp16) against the mixed one (mix8) and loads only (load), 9 alternating rounds at a load average
 * of 5 to 21 (the machine shared with other builds), the fastest 16 MiB call of each at 16 KiB:
 * load 521.7 GB/s, mix8 515.0 (0.99), dp16 515.6 (0.99), 12 accumulators 523.0 (1.00), i.e. two
 * 64-byte loads a cycle at 4.1 GHz (an imul chain measured 3.86-3.95 GHz at other moments: the
 * clock moves); at 512 KiB load 258.1, mix8 250.0 (0.97), dp16 256.5 (0.99); at 1 GiB the medians
 * of the rounds, the memory shared with the other builds: load 7.5, mix8 7.1, dp16 7.1 GB/s
 * (likwid-bench load_avx512 6.2). On ymm (the avxvnni level) loads only and 12 accumulators ran
 * alike too (yload 253, ydp12 240 GB/s, one run: two ymm loads a cycle).
 *
 * The level is picked once per run, before main (a constructor), from what the CPU has; the
 * environment variable WTG_SIMD=<level> caps it (for tests and comparisons): the best level the CPU
 * has at or below the one named runs, and an unknown value is ignored.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/kernels.h"
#include "kernels_neon.h"

#if defined(__x86_64__)
#define WTG_X86 1
#include <cpuid.h>
#include <immintrin.h>
#else
#define WTG_X86 0
#endif
#if WTG_NEON
#include <sys/auxv.h>
/* the bits of AT_HWCAP (asm/hwcap.h), for C libraries whose headers lack them */
#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1ul << 1)
#endif
#ifndef HWCAP_ASIMDDP
#define HWCAP_ASIMDDP (1ul << 20)
#endif
#endif

/* The 32-bit lanes are widened into 64-bit ones once at least this many bytes of main loop went
 * through them. A vector of W bytes through vpdpbusd adds at most 4 * 255 = 1020 to each 32-bit
 * lane of one accumulator, and the spills add the accumulators lane by lane into d, so a lane of
 * d and the accumulators together gain at most 1020 / W per byte: 31.9 on ymm (W = 32), 15.9 on
 * zmm (the AVX2 level's 16-bit lanes have their own bound, at SPILL_W16). A fold comes after the
 * first chunk that takes the bytes since the last one to FOLD_BYTES, and a chunk (CHUNK rounds, or
 * whole passes of a repeated buffer that fit in as many bytes) is at most FOLD_BYTES, so between
 * two folds a lane stays below 31.9 * 2 * 2^25 = 2.14e9 < 2^32. The unit test sums 1.3 GB of
 * 0xFF at every level, within calls and across them, to prove it (512 MiB here fails it). */
#define FOLD_BYTES (32u << 20)

/* The plain loop, vectorized as the compiler does at its -O3 level for whatever target the function
 * is compiled for (the build's baseline, or a target attribute). */
#if defined(__clang__)
#define PLAIN_SUM(name, attrs)                                                                   \
	attrs int64_t name(const unsigned char *p, size_t n)                                    \
	{                                                                                        \
		int64_t s = 0;                                                                   \
		_Pragma("clang loop vectorize(enable) interleave(enable)")                       \
		for (size_t i = 0; i < n; i++)                                                   \
			s += p[i];                                                               \
		return s;                                                                        \
	}
#define VECTORIZE
#else
#define PLAIN_SUM(name, attrs)                                                                   \
	attrs int64_t name(const unsigned char *p, size_t n)                                    \
	{                                                                                        \
		int64_t s = 0;                                                                   \
		for (size_t i = 0; i < n; i++)                                                   \
			s += p[i];                                                               \
		return s;                                                                        \
	}
#define VECTORIZE __attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic")))
#endif

PLAIN_SUM(wtg_sum_auto, VECTORIZE WTG_UNTRACED)
#if WTG_X86
PLAIN_SUM(sum_native_v3, VECTORIZE WTG_UNTRACED __attribute__((target("arch=x86-64-v3"))) static)
PLAIN_SUM(sum_native_v4, VECTORIZE WTG_UNTRACED __attribute__((target("arch=x86-64-v4"))) static)
#endif

/* Short heads and tails (under one vector). */
WTG_UNTRACED static inline uint64_t sum_small(const unsigned char *p, size_t n)
{
	uint64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	return s;
}

WTG_UNTRACED static int64_t sum_portable(const unsigned char *p, size_t n)
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

/* The repeating forms of the sums that have no loop of their own: one call per pass, through a
 * volatile pointer so that the compiler can neither inline the sum nor hoist it out of the loop
 * (the same bytes give the same sum: it would read them once). */
#define REPEAT_BY_CALLS(rep, fn)                                                                 \
	static int64_t rep(const unsigned char *p, size_t n, uint64_t passes)                    \
	{                                                                                        \
		int64_t (*volatile call)(const unsigned char *, size_t) = fn;                     \
		int64_t s = 0;                                                                   \
		for (uint64_t r = 0; r < passes; r++)                                            \
			s += call(p, n);                                                         \
		return s;                                                                        \
	}

REPEAT_BY_CALLS(rep_portable, sum_portable)
REPEAT_BY_CALLS(rep_scalar, wtg_sum_scalar)
REPEAT_BY_CALLS(rep_auto, wtg_sum_auto)

#if WTG_X86
REPEAT_BY_CALLS(rep_native_v3, sum_native_v3)
REPEAT_BY_CALLS(rep_native_v4, sum_native_v4)

/* The hand loop at one width, passes times over p[0, n). V is the vector type, W its width in
 * bytes, PFX and SI spell the intrinsics (_mm + si128, _mm256 + si256, _mm512 + si512). Each round
 * of 8 vectors feeds four vpsadbw into the 64-bit accumulators q0..q3 and four vectors into the
 * second reduction B(w, v) on w0..w3; every 64 rounds SPILL moves w into the 32-bit lanes of d (or
 * wherever they go), every FOLD_BYTES FOLD moves d into the 64-bit total t. HEAD(ptr, len) and
 * TAIL(ptr, len) add the bytes before the first aligned vector and after the last; HSUM adds the
 * 64-bit lanes of a vector. The calling function declares z (zero), plus what B, SPILL and FOLD use. */
#define SAD(PFX, v) PFX##_sad_epu8((v), z)
#define ADDQ(PFX, a, b) PFX##_add_epi64((a), (b))
/* The hot loop alone, in a function of its own: GCC 12 copies every accumulator once per round
 * when this loop sits inside the pass and fold loops (14 extra moves per 512 bytes, seen with
 * objdump); on its own it keeps them in place. It runs reps times over the same rounds and then
 * `rest` (fewer than a round's) further vectors, so that a small buffer summed many times does not
 * go back to memory for its accumulators every pass. a[0..3] are q0..q3, a[4..7] w0..w3; SETUP
 * declares z and what B uses. */
#define ROUNDS_FN(name, ATTR, V, W, PFX, SI, B, SETUP)                                            \
	ATTR __attribute__((noinline)) static void name(V *a, const unsigned char *c, size_t rounds,  \
							size_t rest, size_t reps)                     \
	{                                                                                         \
		SETUP;                                                                            \
		V q0 = a[0], q1 = a[1], q2 = a[2], q3 = a[3];                                     \
		V w0 = a[4], w1 = a[5], w2 = a[6], w3 = a[7];                                     \
		const unsigned char *const e = c + rounds * 8 * (W);                              \
		for (const unsigned char *r = c; reps; reps--, r = c) {                           \
			for (; r < e; r += 8 * (W)) {                                             \
				const V *v = (const V *)(const void *)r;                          \
				q0 = ADDQ(PFX, q0, SAD(PFX, PFX##_load_##SI(v + 0)));             \
				B(PFX, w0, PFX##_load_##SI(v + 1));                               \
				q1 = ADDQ(PFX, q1, SAD(PFX, PFX##_load_##SI(v + 2)));             \
				B(PFX, w1, PFX##_load_##SI(v + 3));                               \
				q2 = ADDQ(PFX, q2, SAD(PFX, PFX##_load_##SI(v + 4)));             \
				B(PFX, w2, PFX##_load_##SI(v + 5));                               \
				q3 = ADDQ(PFX, q3, SAD(PFX, PFX##_load_##SI(v + 6)));             \
				B(PFX, w3, PFX##_load_##SI(v + 7));                               \
			}                                                                         \
			for (size_t i = 0; i < rest; i++)                                         \
				q0 = ADDQ(PFX, q0, SAD(PFX, PFX##_load_##SI((const V *)(const void *)e + i))); \
		}                                                                                 \
		a[0] = q0, a[1] = q1, a[2] = q2, a[3] = q3;                                       \
		a[4] = w0, a[5] = w1, a[6] = w2, a[7] = w3;                                       \
	}
/* The VNNI levels' hot loop: no vpsadbw, every vector through vpdpbusd against a vector of ones
 * (bytes x 1 added straight into 32-bit lanes), one accumulator per vector of a round, so that
 * NACC chains cover the instruction's latency (ACC lists w0 .. w(NACC-1)); the `rest` vectors
 * after the rounds go one into each of the first accumulators. a[4 ..] are the accumulators;
 * a[0..3] (64-bit, for the edges) are not touched. */
#define DP_STEP(i) w##i = DP(w##i, LOAD(v + (i)));
#define DP_REST(i) if (rest > (i)) DP_STEP(i)
#define DP_IN(i) __typeof__(a[0]) w##i = a[4 + (i)];
#define DP_OUT(i) a[4 + (i)] = w##i;
#define DP_ROUNDS_FN(name, ATTR, V, NACC, ACC, SETUP)                                             \
	ATTR __attribute__((noinline)) static void name(V *a, const unsigned char *c, size_t rounds,  \
							size_t rest, size_t reps)                     \
	{                                                                                         \
		SETUP;                                                                            \
		ACC(DP_IN)                                                                        \
		const V *const e = (const V *)(const void *)c + rounds * (NACC);                  \
		for (; reps; reps--) {                                                            \
			const V *v = (const V *)(const void *)c;                                  \
			for (; v < e; v += (NACC)) {                                              \
				ACC(DP_STEP)                                                      \
			}                                                                         \
			ACC(DP_REST)                                                              \
		}                                                                                 \
		ACC(DP_OUT)                                                                       \
	}
#define ACC12(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
#define ACC16(X) ACC12(X) X(12) X(13) X(14) X(15)
/* The passes around it: head, chunks of at most CHUNK rounds of NV vectors through ROUNDS, single
 * vectors, tail; or, for a buffer of whole aligned vectors, as many passes per ROUNDS call as fit
 * in CHUNK rounds' bytes (a lane then grows by no more than in one chunk of a long buffer: the
 * bound at FOLD_BYTES holds). NB is the number of second-reduction accumulators (a[4 ..]). */
#define VEC_PASSES(V, W, PFX, SI, NV, NB, ROUNDS, CHUNK, SPILL, FOLD, HEAD, TAIL, HSUM)            \
	size_t head = (size_t)(-(uintptr_t)p & ((W)-1));                                         \
	if (head > n)                                                                             \
		head = n;                                                                         \
	const size_t nb = n - head, nmain = nb / ((NV) * (W)) * ((NV) * (W));                     \
	const size_t nvec = (nb - nmain) / (W), ntail = nb - nmain - nvec * (W);                  \
	V a[4 + (NB)], d = z, t = z;                                                              \
	for (size_t i = 0; i < 4 + (NB); i++)                                                     \
		a[i] = z;                                                                         \
	uint64_t s = 0, since = 0;                                                                \
	(void)d;                                                                                  \
	uint64_t pass = 0;                                                                        \
	/* whole aligned vectors: many passes per call of ROUNDS, a chunk's bytes at most */      \
	const size_t per = nmain / ((NV) * (W)), chunk_bytes = (size_t)(CHUNK) * (NV) * (W);       \
	if (!head && !ntail && n && n <= chunk_bytes)                                             \
		for (uint64_t k; pass < passes; pass += k) {                                      \
			k = passes - pass < chunk_bytes / n ? passes - pass : chunk_bytes / n;    \
			ROUNDS(a, p, per, nvec, k);                                               \
			SPILL(PFX, SI);                                                           \
			since += k * n;                                                           \
			if (since >= FOLD_BYTES) {                                                \
				FOLD(PFX, SI);                                                    \
				since = 0;                                                        \
			}                                                                         \
		}                                                                                 \
	for (; pass < passes; pass++) {                                                           \
		HEAD(PFX, p, head);                                                               \
		const unsigned char *c = p + head;                                                \
		for (size_t left = nmain; left;) {                                                \
			size_t rounds = left / ((NV) * (W)) < (CHUNK) ? left / ((NV) * (W)) : (CHUNK); \
			ROUNDS(a, c, rounds, 0, 1);                                               \
			c += rounds * (NV) * (W);                                                 \
			SPILL(PFX, SI);                                                           \
			left -= rounds * (NV) * (W);                                              \
			since += rounds * (NV) * (W);                                             \
			if (since >= FOLD_BYTES) {                                                \
				FOLD(PFX, SI);                                                    \
				since = 0;                                                        \
			}                                                                         \
		}                                                                                 \
		for (size_t i = 0; i < nvec; i++, c += (W))                                       \
			a[1] = ADDQ(PFX, a[1], SAD(PFX, PFX##_load_##SI((const V *)(const void *)c))); \
		TAIL(PFX, c, ntail);                                                              \
	}                                                                                         \
	FOLD(PFX, SI);                                                                            \
	return (int64_t)(s + HSUM(ADDQ(PFX, ADDQ(PFX, ADDQ(PFX, a[0], a[1]), ADDQ(PFX, a[2], a[3])), t)))

/* second reductions, spills and folds; a chunk of FOLD_ROUNDS(W, NV) rounds of NV vectors is
 * FOLD_BYTES */
#define FOLD_ROUNDS(W, NV) (FOLD_BYTES / ((NV) * (W)))
#define B_SAD(PFX, w, v) (w) = ADDQ(PFX, (w), SAD(PFX, v))
#define B_MADDUBS256(PFX, w, v) (w) = _mm256_add_epi16((w), _mm256_maddubs_epi16((v), ones))
#define NO_SPILL(PFX, SI) ((void)0)
/* 64-bit lanes: w straight into t */
#define FOLD_Q(PFX, SI)                                                                           \
	(t = ADDQ(PFX, t, ADDQ(PFX, ADDQ(PFX, a[4], a[5]), ADDQ(PFX, a[6], a[7]))), a[4] = a[5] = a[6] = a[7] = z)
/* 32-bit lanes: every accumulator a[4 ..] into d */
#define SPILL_D(PFX, SI)                                                                          \
	do {                                                                                      \
		for (size_t i_ = 4; i_ < sizeof a / sizeof a[0]; i_++)                            \
			d = PFX##_add_epi32(d, a[i_]), a[i_] = z;                                 \
	} while (0)
/* 16-bit lanes, each at most 64 * 510 = 32640: two summed still fit in 16 bits, then widened */
#define WIDEN16(PFX, SI, x) PFX##_add_epi32(PFX##_and_##SI((x), lo16), PFX##_srli_epi32((x), 16))
#define SPILL_W16(PFX, SI)                                                                        \
	(d = PFX##_add_epi32(d, PFX##_add_epi32(WIDEN16(PFX, SI, PFX##_add_epi16(a[4], a[5])),          \
						WIDEN16(PFX, SI, PFX##_add_epi16(a[6], a[7])))),        \
	 a[4] = a[5] = a[6] = a[7] = z)
/* 32-bit lanes of d into the 64-bit lanes of t */
#define FOLD_D(PFX, SI)                                                                           \
	(t = ADDQ(PFX, t, ADDQ(PFX, PFX##_and_##SI(d, lo32), PFX##_srli_epi64(d, 32))), d = z)
#define SCALAR_EDGE(PFX, ptr, len) (s += sum_small((ptr), (len)))
/* Masked loads from the 64-byte line that holds the bytes, never past it: the masked-off bytes
 * then lie on the same (mapped) page. A masked load whose masked-off part reaches a page that is
 * not mapped yet, even with an all-zero mask, costs a slow micro-code assist on some cores
 * (measured on Zen 5: a 16 KiB buffer at the start of a large fresh allocation ran 6x slower), so
 * an empty edge is skipped. */
#define MASKED_EDGE(PFX, ptr, len)                                                                \
	do {                                                                                      \
		if (len) {                                                                        \
			size_t o_ = (uintptr_t)(ptr)&63;                                          \
			__mmask64 m_ = (__mmask64)(((1ull << (len)) - 1) << o_);                  \
			a[2] = ADDQ(PFX, a[2], SAD(PFX, _mm512_maskz_loadu_epi8(m_, (ptr)-o_)));      \
		}                                                                                 \
	} while (0)

#define T_SSE2 __attribute__((target("sse2"))) WTG_UNTRACED
#define T_AVX2 __attribute__((target("avx2"))) WTG_UNTRACED
#define T_AVXVNNI __attribute__((target("avx2,avxvnni"))) WTG_UNTRACED
#define T_AVX512BW __attribute__((target("avx512bw"))) WTG_UNTRACED
#define T_AVX512VNNI __attribute__((target("avx512bw,avx512vnni"))) WTG_UNTRACED

T_SSE2 static inline uint64_t hsum_sse2(__m128i a)
{
	a = _mm_add_epi64(a, _mm_unpackhi_epi64(a, a));
	uint64_t lanes;
	_mm_storel_epi64((__m128i *)(void *)&lanes, a);
	return lanes;
}

T_AVX2 static inline uint64_t hsum_avx2(__m256i a)
{
	__m128i h = _mm_add_epi64(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
	h = _mm_add_epi64(h, _mm_unpackhi_epi64(h, h));
	return (uint64_t)_mm_cvtsi128_si64(h);
}

ROUNDS_FN(rounds_sse2, T_SSE2, __m128i, 16, _mm, si128, B_SAD, const __m128i z = _mm_setzero_si128())
ROUNDS_FN(rounds_avx2, T_AVX2, __m256i, 32, _mm256, si256, B_MADDUBS256,
	  const __m256i z = _mm256_setzero_si256(); const __m256i ones = _mm256_set1_epi8(1))
#define DP DPBUSD256
#define LOAD _mm256_load_si256
#define DPBUSD256(w, v) _mm256_dpbusd_avx_epi32((w), (v), ones)
DP_ROUNDS_FN(rounds_avxvnni, T_AVXVNNI, __m256i, 12, ACC12, const __m256i ones = _mm256_set1_epi8(1))
#undef DP
#undef LOAD
ROUNDS_FN(rounds_avx512bw, T_AVX512BW, __m512i, 64, _mm512, si512, B_SAD,
	  const __m512i z = _mm512_setzero_si512())
#define DP DPBUSD512
#define LOAD _mm512_load_si512
#define DPBUSD512(w, v) _mm512_dpbusd_epi32((w), (v), ones)
DP_ROUNDS_FN(rounds_avx512vnni, T_AVX512VNNI, __m512i, 16, ACC16, const __m512i ones = _mm512_set1_epi8(1))
#undef DP
#undef LOAD

T_SSE2 static int64_t rep_sse2(const unsigned char *p, size_t n, uint64_t passes)
{
	const __m128i z = _mm_setzero_si128();
	VEC_PASSES(__m128i, 16, _mm, si128, 8, 4, rounds_sse2, FOLD_ROUNDS(16, 8), NO_SPILL, FOLD_Q, SCALAR_EDGE,
		   SCALAR_EDGE, hsum_sse2);
}

T_AVX2 static int64_t rep_avx2(const unsigned char *p, size_t n, uint64_t passes)
{
	const __m256i z = _mm256_setzero_si256();
	const __m256i lo16 = _mm256_set1_epi32(0xffff), lo32 = _mm256_set1_epi64x(0xffffffffll);
	VEC_PASSES(__m256i, 32, _mm256, si256, 8, 4, rounds_avx2, 64, SPILL_W16, FOLD_D, SCALAR_EDGE,
		   SCALAR_EDGE, hsum_avx2);
}

T_AVXVNNI static int64_t rep_avxvnni(const unsigned char *p, size_t n, uint64_t passes)
{
	const __m256i z = _mm256_setzero_si256(), lo32 = _mm256_set1_epi64x(0xffffffffll);
	VEC_PASSES(__m256i, 32, _mm256, si256, 12, 12, rounds_avxvnni, FOLD_ROUNDS(32, 12), SPILL_D, FOLD_D,
		   SCALAR_EDGE, SCALAR_EDGE, hsum_avx2);
}

T_AVX512BW static int64_t rep_avx512bw(const unsigned char *p, size_t n, uint64_t passes)
{
	const __m512i z = _mm512_setzero_si512();
	VEC_PASSES(__m512i, 64, _mm512, si512, 8, 4, rounds_avx512bw, FOLD_ROUNDS(64, 8), NO_SPILL, FOLD_Q,
		   MASKED_EDGE, MASKED_EDGE, _mm512_reduce_add_epi64);
}

T_AVX512VNNI static int64_t rep_avx512vnni(const unsigned char *p, size_t n, uint64_t passes)
{
	const __m512i z = _mm512_setzero_si512(), lo32 = _mm512_set1_epi64(0xffffffffll);
	VEC_PASSES(__m512i, 64, _mm512, si512, 16, 16, rounds_avx512vnni, FOLD_ROUNDS(64, 16), SPILL_D, FOLD_D,
		   MASKED_EDGE, MASKED_EDGE, _mm512_reduce_add_epi64);
}
#endif

/* ---- the choice, once per run ---- */

/* The levels of the build's architecture, lowest first (WTG_SIMD names one: the best the CPU has at
 * or below it runs). */
#if WTG_X86
enum { L_PORTABLE, L_SSE2, L_AVX2, L_AVXVNNI, L_AVX512BW, L_AVX512VNNI, L_COUNT };

const char *const wtg_simd_levels[L_COUNT] = { "portable", "sse2", "avx2", "avxvnni", "avx512bw",
					       "avx512vnni" };

static const char *const level_detail[L_COUNT] = {
	"eight bytes per 64-bit word (SWAR)",
	"psadbw xmm, 8 accumulators",
	"vpsadbw + vpmaddubsw ymm, 8 accumulators",
	"vpdpbusd ymm, 12 accumulators",
	"vpsadbw zmm, 8 accumulators, masked edges",
	"vpdpbusd zmm, 16 accumulators, masked edges",
};

static const wtg_sum_rep_fn level_fns[L_COUNT] = {
	rep_portable, rep_sse2, rep_avx2, rep_avxvnni, rep_avx512bw, rep_avx512vnni,
};
#elif WTG_NEON
/* the names /proc/cpuinfo's Features line gives the two extensions */
enum { L_PORTABLE, L_ASIMD, L_ASIMDDP, L_COUNT };

const char *const wtg_simd_levels[L_COUNT] = { "portable", "asimd", "asimddp" };

static const char *const level_detail[L_COUNT] = {
	"eight bytes per 64-bit word (SWAR)",
	"uadalp (NEON) 16-byte vectors, 8 accumulators",
	"udot (NEON dot product) against ones, 16 accumulators",
};

static const wtg_sum_rep_fn level_fns[L_COUNT] = { rep_portable, wtg_neon_rep_uadalp, wtg_neon_rep_udot };
#else
enum { L_PORTABLE, L_COUNT };

const char *const wtg_simd_levels[L_COUNT] = { "portable" };

static const char *const level_detail[L_COUNT] = { "eight bytes per 64-bit word (SWAR)" };

static const wtg_sum_rep_fn level_fns[L_COUNT] = { rep_portable };
#endif
const int wtg_simd_nlevels = L_COUNT;

#if WTG_X86
/* GCC 12's __builtin_cpu_supports may not know "avxvnni": CPUID leaf 7 subleaf 1, EAX bit 4 */
static bool cpu_has_avxvnni(void)
{
	unsigned a, b, c, d;
	if (!__get_cpuid_count(7, 1, &a, &b, &c, &d))
		return false;
	return (a >> 4) & 1;
}
#endif

/* Whether the CPU (and the kernel, which must save the registers) runs a level. */
static bool level_supported(int l)
{
#if WTG_X86
	__builtin_cpu_init();
	switch (l) {
	case L_SSE2:
		return __builtin_cpu_supports("sse2");
	case L_AVX2:
		return __builtin_cpu_supports("avx2");
	case L_AVXVNNI:
		/* avx2 says the OS saves the ymm registers */
		return __builtin_cpu_supports("avx2") && cpu_has_avxvnni();
	case L_AVX512BW:
		return __builtin_cpu_supports("avx512bw");
	case L_AVX512VNNI:
		return __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vnni");
	default:
		return l == L_PORTABLE;
	}
#elif WTG_NEON
	/* the kernel's hardware capabilities (what the Features line of /proc/cpuinfo prints) */
	const unsigned long hw = getauxval(AT_HWCAP);
	switch (l) {
	case L_ASIMD:
		return hw & HWCAP_ASIMD;
	case L_ASIMDDP:
		return (hw & HWCAP_ASIMD) && (hw & HWCAP_ASIMDDP);
	default:
		return l == L_PORTABLE;
	}
#else
	return l == L_PORTABLE;
#endif
}

int wtg_simd_best_level(void)
{
	int best = L_PORTABLE;
	for (int l = 0; l < L_COUNT; l++)
		if (level_supported(l))
			best = l;
	return best;
}

wtg_sum_rep_fn wtg_sum_simd_level(int level)
{
	if (level < 0 || level >= L_COUNT || !level_supported(level))
		return NULL;
	return level_fns[level];
}

/* The best level the CPU runs, at or below the one WTG_SIMD names (if it names one). */
static int choose_level(void)
{
	int cap = L_COUNT - 1;
	const char *env = getenv("WTG_SIMD");
	for (int l = 0; env && l < L_COUNT; l++)
		if (strcmp(env, wtg_simd_levels[l]) == 0)
			cap = l;
	for (int l = cap; l > L_PORTABLE; l--)
		if (level_supported(l))
			return l;
	return L_PORTABLE;
}

/* The compiler, its version and the ISA the build targets, read from the predefined macros. */
#if defined(__clang__)
#define CC_NAME "clang " __clang_version__
#elif defined(__GNUC__)
#define CC_NAME "gcc " __VERSION__
#else
#define CC_NAME "the C compiler"
#endif
#if defined(__AVX512BW__)
#define CC_BASE "x86-64-v4 (AVX-512)"
#elif defined(__AVX2__)
#define CC_BASE "x86-64-v3 (AVX2)"
#elif defined(__SSE4_2__)
#define CC_BASE "x86-64-v2 (SSE4.2)"
#elif defined(__x86_64__)
#define CC_BASE "x86-64 (SSE2)"
#elif defined(__aarch64__)
#define CC_BASE "armv8-a (NEON)"
#else
#define CC_BASE "the target's baseline"
#endif
#if defined(__clang__)
#define CC_VECT CC_NAME ", loop vectorize(enable) interleave(enable)"
#else
#define CC_VECT CC_NAME ", optimize(\"tree-vectorize\", \"vect-cost-model=dynamic\"): the -O3 vectorizer"
#endif

static struct wtg_sum_kernel kernels[] = {
	{ "scalar", "scalar", "one load and one add per byte, vectorizer off", wtg_sum_scalar, rep_scalar },
	{ "auto", CC_BASE, CC_VECT ", the build's baseline ISA " CC_BASE, wtg_sum_auto, rep_auto },
	{ "native", CC_BASE, CC_VECT ", " CC_BASE ": this CPU has no better level to build for", wtg_sum_auto,
	  rep_auto },
	{ "simd", NULL, NULL, wtg_sum_simd, NULL }, /* filled in by choose() */
};
enum { K_SCALAR, K_AUTO, K_NATIVE, K_SIMD, K_COUNT };

#if WTG_X86
/* The x86-64 micro-architecture levels, by their defining features (older compilers cannot name
 * the levels in __builtin_cpu_supports). */
static bool cpu_is_v3(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
	       __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
}

static bool cpu_is_v4(void)
{
	return cpu_is_v3() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
	       __builtin_cpu_supports("avx512vl");
}
#endif

static int chosen = -1;	 /* the SIMD level, set before main */
static wtg_sum_rep_fn simd_rep = rep_portable;

/* Pick every run-time choice once, before main and before any thread starts. */
__attribute__((constructor)) static void choose(void)
{
	chosen = choose_level();
	simd_rep = level_fns[chosen];
	kernels[K_SIMD].name = wtg_simd_levels[chosen];
	kernels[K_SIMD].isa = wtg_simd_levels[chosen];
	kernels[K_SIMD].detail = level_detail[chosen];
	kernels[K_SIMD].repeat = simd_rep;
#if WTG_X86
	if (cpu_is_v4()) {
		kernels[K_NATIVE].isa = "x86-64-v4 (AVX-512)";
		kernels[K_NATIVE].detail = CC_VECT ", target(\"arch=x86-64-v4\"), AVX-512";
		kernels[K_NATIVE].sum = sum_native_v4;
		kernels[K_NATIVE].repeat = rep_native_v4;
	} else if (cpu_is_v3()) {
		kernels[K_NATIVE].isa = "x86-64-v3 (AVX2)";
		kernels[K_NATIVE].detail = CC_VECT ", target(\"arch=x86-64-v3\"), AVX2";
		kernels[K_NATIVE].sum = sum_native_v3;
		kernels[K_NATIVE].repeat = rep_native_v3;
	}
#endif
}

int64_t wtg_sum_simd(const unsigned char *p, size_t n)
{
	return simd_rep(p, n, 1);
}

int64_t wtg_sum_native(const unsigned char *p, size_t n)
{
	return kernels[K_NATIVE].sum(p, n);
}

const char *wtg_sum_simd_name(void)
{
	return wtg_simd_levels[chosen];
}

const struct wtg_sum_kernel *wtg_sum_kernel(const char *name)
{
	for (int k = 0; k < K_COUNT; k++)
		if (strcmp(name, k == K_SIMD ? "simd" : kernels[k].name) == 0)
			return &kernels[k];
	return NULL;
}

wtg_sum_rep_fn wtg_sum_repeat_of(wtg_sum_fn fn)
{
	if (fn == wtg_sum_native)
		return kernels[K_NATIVE].repeat;
	for (int k = 0; k < K_COUNT; k++)
		if (kernels[k].sum == fn)
			return kernels[k].repeat;
	return NULL;
}
