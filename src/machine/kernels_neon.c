/* kernels_neon.c: the hand byte sums for arm64 (AArch64 Advanced SIMD, "NEON").
 *
 * Two levels, picked at run time in kernels.c from the kernel's hardware capabilities
 * (getauxval(AT_HWCAP), the bits /proc/cpuinfo lists as "asimd" and "asimddp"):
 *	asimddp  UDOT (vdotq_u32) of every 16-byte vector against a vector of ones: four bytes x 1
 *	         added straight into each 32-bit lane, 16 accumulators (rounds of 256 bytes)
 *	asimd    UADALP (vpadalq_u8): pairs of bytes added into 16-bit lanes, 8 accumulators
 *	         (rounds of 128 bytes), widened into 32-bit lanes (vpadalq_u16) every 64 rounds
 * UDOT is the dot-product extension (Armv8.2-A, optional; Armv8.4-A and later have it: Neoverse
 * N1, V1, V2, Cortex-A76 and later, Apple M1); UADALP is in every AArch64 core. On Neoverse N1
 * UDOT issues on both vector pipes with a latency of 2 cycles while UADALP issues on one pipe only,
 * with a latency of 4 (Arm's software optimization guide), so the dot-product loop is the one that
 * can keep up with two 16-byte loads a cycle; 16 accumulators cover four pipes at a latency of 3
 * (Neoverse V1, V2) as well, and AArch64's 32 vector registers hold them beside the loaded vectors.
 *
 * Both loops end a call by adding their 32-bit lanes pairwise into 64-bit ones (vpadalq_u32). A
 * 32-bit lane takes four bytes of each vector that goes into it, at most 4 * 255 = 1020 per 16
 * bytes, whichever accumulator the vector goes to, so a call over at most NEON_FOLD_BYTES bytes
 * leaves every lane below 1020 / 16 * 2^25 = 2.14e9 < 2^32 (the unit test sums 1.3 GB of 0xFF in
 * passes and 80 MiB in one call). A 16-bit UADALP lane takes at most 64 rounds of 2 * 255. A
 * buffer of whole aligned vectors is summed many passes per call, the accumulators kept in
 * registers from one pass to the next; other buffers add the bytes before the first aligned
 * vector and after the last with a scalar loop, every pass.
 */
#include "config.h"

#include "kernels_neon.h"

#if WTG_NEON
#include <arm_neon.h>

#define NEON_FOLD_BYTES (32u << 20)

#if defined(__clang__)
#define T_DOTPROD __attribute__((target("dotprod"))) WTG_UNTRACED
#else
/* arm_neon.h declares vdotq_u32 for arch=armv8.2-a+dotprod: "+dotprod" alone does not inline it */
#define T_DOTPROD __attribute__((target("arch=armv8.2-a+dotprod"))) WTG_UNTRACED
#endif

/* One call of a loop: nvec 16-byte vectors from c, reps times, into the 64-bit lanes *t. */
typedef void (*vectors_fn)(uint64x2_t *t, const unsigned char *c, size_t nvec, uint64_t reps);

#define ACC8(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define ACC16(X) ACC8(X) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)

/* UDOT: accumulator i takes vector i of each 16-vector round, the round read 64 bytes (four
 * vectors) per LD1 (vld1q_u8_x4: a quarter of the load instructions of single-vector loads); the
 * vectors after the last round go one into each of the first accumulators. */
#define DOT_ZERO(i) uint32x4_t a##i = vdupq_n_u32(0);
#define DOT_STEP(i) a##i = vdotq_u32(a##i, vld1q_u8(v + 16 * (i)), ones);
#define DOT4(g, x0, x1, x2, x3)                                                                   \
	{                                                                                         \
		const uint8x16x4_t q = vld1q_u8_x4(v + 64 * (g));                                 \
		a##x0 = vdotq_u32(a##x0, q.val[0], ones);                                         \
		a##x1 = vdotq_u32(a##x1, q.val[1], ones);                                         \
		a##x2 = vdotq_u32(a##x2, q.val[2], ones);                                         \
		a##x3 = vdotq_u32(a##x3, q.val[3], ones);                                         \
	}
#define DOT_REST(i) if (rest > (i)) DOT_STEP(i)
#define DOT_FOLD(i) s = vpadalq_u32(s, a##i);
T_DOTPROD __attribute__((noinline)) static void udot_vectors(uint64x2_t *t, const unsigned char *c, size_t nvec,
							       uint64_t reps)
{
	const uint8x16_t ones = vdupq_n_u8(1);
	const size_t rest = nvec % 16;
	const unsigned char *const e = c + nvec / 16 * 256;
	ACC16(DOT_ZERO)
	for (; reps; reps--) {
		const unsigned char *v = c;
		for (; v < e; v += 256) {
			DOT4(0, 0, 1, 2, 3) DOT4(1, 4, 5, 6, 7) DOT4(2, 8, 9, 10, 11) DOT4(3, 12, 13, 14, 15)
		}
		ACC16(DOT_REST)
	}
	uint64x2_t s = *t;
	ACC16(DOT_FOLD)
	*t = s;
}

/* UADALP: accumulator i takes vector i of each 8-vector round, 64 rounds at most before the 16-bit
 * lanes go into the 32-bit ones (d0 the even accumulators, d1 the odd); the vectors after the last
 * round are widened one by one. */
#define ADA_ZERO(i) uint16x8_t w##i = vdupq_n_u16(0);
#define ADA4(g, x0, x1, x2, x3)                                                                   \
	{                                                                                         \
		const uint8x16x4_t q = vld1q_u8_x4(v + 64 * (g));                                 \
		w##x0 = vpadalq_u8(w##x0, q.val[0]);                                              \
		w##x1 = vpadalq_u8(w##x1, q.val[1]);                                              \
		w##x2 = vpadalq_u8(w##x2, q.val[2]);                                              \
		w##x3 = vpadalq_u8(w##x3, q.val[3]);                                              \
	}
#define ADA_WIDEN(i) if ((i) & 1) d1 = vpadalq_u16(d1, w##i); else d0 = vpadalq_u16(d0, w##i);
WTG_UNTRACED __attribute__((noinline)) static void uadalp_vectors(uint64x2_t *t, const unsigned char *c, size_t nvec,
						     uint64_t reps)
{
	uint32x4_t d0 = vdupq_n_u32(0), d1 = vdupq_n_u32(0);
	const size_t rounds = nvec / 8, rest = nvec % 8;
	for (; reps; reps--) {
		const unsigned char *v = c;
		for (size_t left = rounds; left;) {
			size_t r = left < 64 ? left : 64;
			left -= r;
			ACC8(ADA_ZERO)
			for (; r; r--, v += 128) {
				ADA4(0, 0, 1, 2, 3) ADA4(1, 4, 5, 6, 7)
			}
			ACC8(ADA_WIDEN)
		}
		for (size_t i = 0; i < rest; i++, v += 16)
			d0 = vpadalq_u16(d0, vpaddlq_u8(vld1q_u8(v)));
	}
	*t = vpadalq_u32(vpadalq_u32(*t, d0), d1);
}

WTG_UNTRACED static uint64_t sum_edge(const unsigned char *p, size_t n)
{
	uint64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	return s;
}

/* passes times over p[0, n): whole aligned vectors through fn, at most NEON_FOLD_BYTES a call. */
static int64_t neon_passes(vectors_fn fn, const unsigned char *p, size_t n, uint64_t passes)
{
	if (n == 0 || passes == 0)
		return 0;
	size_t head = (16 - ((uintptr_t)p & 15)) & 15;
	if (head > n)
		head = n;
	const size_t nvec = (n - head) / 16, ntail = n - head - 16 * nvec;
	const size_t fold_vecs = NEON_FOLD_BYTES / 16;
	uint64x2_t t = vdupq_n_u64(0);
	uint64_t s = 0;
	for (uint64_t pass = 0; pass < passes;) {
		if (!head && !ntail && n <= NEON_FOLD_BYTES) {
			/* whole vectors only: as many passes per call as fit in NEON_FOLD_BYTES */
			uint64_t k = NEON_FOLD_BYTES / n;
			if (k > passes - pass)
				k = passes - pass;
			fn(&t, p, nvec, k);
			pass += k;
			continue;
		}
		s += sum_edge(p, head);
		for (size_t off = 0; off < nvec; off += fold_vecs)
			fn(&t, p + head + 16 * off, nvec - off < fold_vecs ? nvec - off : fold_vecs, 1);
		s += sum_edge(p + head + 16 * nvec, ntail);
		pass++;
	}
	return (int64_t)(s + vgetq_lane_u64(t, 0) + vgetq_lane_u64(t, 1));
}

int64_t wtg_neon_rep_udot(const unsigned char *p, size_t n, uint64_t passes)
{
	return neon_passes(udot_vectors, p, n, passes);
}

int64_t wtg_neon_rep_uadalp(const unsigned char *p, size_t n, uint64_t passes)
{
	return neon_passes(uadalp_vectors, p, n, passes);
}
#endif
