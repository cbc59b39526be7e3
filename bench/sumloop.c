/* sumloop.c: candidate AVX-512 byte-sum loops timed side by side, one thread pinned to one CPU.
 *
 * Build: cc -O2 -o sumloop bench/sumloop.c   (the loops carry their own target attributes)
 * Usage: sumloop SIZE SECONDS CPU [VARIANT...]
 * Each variant sums a SIZE-byte buffer (64-byte aligned, seeded bytes, huge pages asked for)
 * repeatedly for about SECONDS in five interleaved slices, checks every pass's sum against the
 * known one and prints "variant GB/s" (the best slice, the median one, and the fastest single call:
 * a call moves about 16 MiB, tens of microseconds in a cache, so on a shared machine the fastest of
 * many calls is one no other thread interrupted, as the best of many short trials). The "load" variant only
 * loads, four 64-byte vectors per 256 bytes, as likwid-bench's load_avx512 does: the ceiling.
 */
#define _GNU_SOURCE
#include <immintrin.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define T512 __attribute__((target("avx512bw,avx512vnni"), noinline))

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* likwid-like: loads only (results kept alive through an asm barrier), 256 B per iteration */
T512 static uint64_t v_load(const unsigned char *p, size_t n, uint64_t passes)
{
	for (uint64_t r = 0; r < passes; r++)
		for (const unsigned char *c = p, *e = p + n; c < e; c += 256)
			__asm__ volatile("vmovdqa64 (%0), %%zmm1\n\tvmovdqa64 64(%0), %%zmm2\n\t"
					 "vmovdqa64 128(%0), %%zmm3\n\tvmovdqa64 192(%0), %%zmm4" ::"r"(c)
					 : "xmm1", "xmm2", "xmm3", "xmm4", "memory");
	return 0;
}

#define LD(i) _mm512_load_si512((const void *)(c + 64 * (i)))
#define SADQ(q, i) q = _mm512_add_epi64(q, _mm512_sad_epu8(LD(i), z))
#define DP(w, i) w = _mm512_dpbusd_epi32(w, LD(i), ones)
#define FOLDDQ(w) _mm512_add_epi64(_mm512_and_si512(w, lo32), _mm512_srli_epi64(w, 32))

/* 4 sad + 4 dpbusd per 512 B (wtg today), passes inside */
T512 static uint64_t v_mix8(const unsigned char *p, size_t n, uint64_t passes)
{
	const __m512i z = _mm512_setzero_si512(), ones = _mm512_set1_epi8(1), lo32 = _mm512_set1_epi64(0xffffffff);
	__m512i q0 = z, q1 = z, q2 = z, q3 = z, w0 = z, w1 = z, w2 = z, w3 = z;
	for (uint64_t r = 0; r < passes; r++)
		for (const unsigned char *c = p, *e = p + n; c < e; c += 512) {
			SADQ(q0, 0); DP(w0, 1); SADQ(q1, 2); DP(w1, 3);
			SADQ(q2, 4); DP(w2, 5); SADQ(q3, 6); DP(w3, 7);
		}
	__m512i w = _mm512_add_epi32(_mm512_add_epi32(w0, w1), _mm512_add_epi32(w2, w3));
	__m512i q = _mm512_add_epi64(_mm512_add_epi64(q0, q1), _mm512_add_epi64(q2, q3));
	return _mm512_reduce_add_epi64(_mm512_add_epi64(q, FOLDDQ(w)));
}

/* dpbusd only, 8 accumulators per 512 B; prefetch: also prefetch PF bytes ahead (both forms come
 * from this one body, the flag a constant in each) */
#define PF 1024
__attribute__((target("avx512bw,avx512vnni"), always_inline)) static inline uint64_t
dp8_body(const unsigned char *p, size_t n, uint64_t passes, const int prefetch)
{
	const __m512i z = _mm512_setzero_si512(), ones = _mm512_set1_epi8(1), lo32 = _mm512_set1_epi64(0xffffffff);
	__m512i w0 = z, w1 = z, w2 = z, w3 = z, w4 = z, w5 = z, w6 = z, w7 = z;
	for (uint64_t r = 0; r < passes; r++)
		for (const unsigned char *c = p, *e = p + n; c < e; c += 512) {
			if (prefetch) {
				_mm_prefetch((const char *)c + PF, _MM_HINT_T0);
				_mm_prefetch((const char *)c + PF + 256, _MM_HINT_T0);
			}
			DP(w0, 0); DP(w1, 1); DP(w2, 2); DP(w3, 3);
			DP(w4, 4); DP(w5, 5); DP(w6, 6); DP(w7, 7);
		}
	__m512i a = _mm512_add_epi32(_mm512_add_epi32(w0, w1), _mm512_add_epi32(w2, w3));
	__m512i b = _mm512_add_epi32(_mm512_add_epi32(w4, w5), _mm512_add_epi32(w6, w7));
	return _mm512_reduce_add_epi64(_mm512_add_epi64(FOLDDQ(a), FOLDDQ(b)));
}

T512 static uint64_t v_dp8(const unsigned char *p, size_t n, uint64_t passes)
{
	return dp8_body(p, n, passes, 0);
}

T512 static uint64_t v_dp8pf(const unsigned char *p, size_t n, uint64_t passes)
{
	return dp8_body(p, n, passes, 1);
}

/* dpbusd only, 4 accumulators per 256 B */
T512 static uint64_t v_dp4(const unsigned char *p, size_t n, uint64_t passes)
{
	const __m512i z = _mm512_setzero_si512(), ones = _mm512_set1_epi8(1), lo32 = _mm512_set1_epi64(0xffffffff);
	__m512i w0 = z, w1 = z, w2 = z, w3 = z;
	for (uint64_t r = 0; r < passes; r++)
		for (const unsigned char *c = p, *e = p + n; c < e; c += 256) {
			DP(w0, 0); DP(w1, 1); DP(w2, 2); DP(w3, 3);
		}
	__m512i a = _mm512_add_epi32(_mm512_add_epi32(w0, w1), _mm512_add_epi32(w2, w3));
	return _mm512_reduce_add_epi64(FOLDDQ(a));
}

/* dpbusd only, 16 accumulators per 1 KiB */
T512 static uint64_t v_dp16(const unsigned char *p, size_t n, uint64_t passes)
{
	const __m512i z = _mm512_setzero_si512(), ones = _mm512_set1_epi8(1), lo32 = _mm512_set1_epi64(0xffffffff);
	__m512i w[16];
	for (int i = 0; i < 16; i++)
		w[i] = z;
	for (uint64_t r = 0; r < passes; r++)
		for (const unsigned char *c = p, *e = p + n; c < e; c += 1024) {
			DP(w[0], 0); DP(w[1], 1); DP(w[2], 2); DP(w[3], 3);
			DP(w[4], 4); DP(w[5], 5); DP(w[6], 6); DP(w[7], 7);
			DP(w[8], 8); DP(w[9], 9); DP(w[10], 10); DP(w[11], 11);
			DP(w[12], 12); DP(w[13], 13); DP(w[14], 14); DP(w[15], 15);
		}
	__m512i a = z;
	for (int i = 0; i < 16; i++)
		a = _mm512_add_epi64(a, FOLDDQ(w[i]));
	return _mm512_reduce_add_epi64(a);
}

/* sad only, 8 accumulators per 512 B */
T512 static uint64_t v_sad8(const unsigned char *p, size_t n, uint64_t passes)
{
	const __m512i z = _mm512_setzero_si512();
	__m512i q0 = z, q1 = z, q2 = z, q3 = z, q4 = z, q5 = z, q6 = z, q7 = z;
	for (uint64_t r = 0; r < passes; r++)
		for (const unsigned char *c = p, *e = p + n; c < e; c += 512) {
			SADQ(q0, 0); SADQ(q1, 1); SADQ(q2, 2); SADQ(q3, 3);
			SADQ(q4, 4); SADQ(q5, 5); SADQ(q6, 6); SADQ(q7, 7);
		}
	__m512i a = _mm512_add_epi64(_mm512_add_epi64(q0, q1), _mm512_add_epi64(q2, q3));
	__m512i b = _mm512_add_epi64(_mm512_add_epi64(q4, q5), _mm512_add_epi64(q6, q7));
	return _mm512_reduce_add_epi64(_mm512_add_epi64(a, b));
}

/* 2 sad + 6 dpbusd per 512 B */
T512 static uint64_t v_mix26(const unsigned char *p, size_t n, uint64_t passes)
{
	const __m512i z = _mm512_setzero_si512(), ones = _mm512_set1_epi8(1), lo32 = _mm512_set1_epi64(0xffffffff);
	__m512i q0 = z, q1 = z, w0 = z, w1 = z, w2 = z, w3 = z, w4 = z, w5 = z;
	for (uint64_t r = 0; r < passes; r++)
		for (const unsigned char *c = p, *e = p + n; c < e; c += 512) {
			DP(w0, 0); DP(w1, 1); SADQ(q0, 2); DP(w2, 3);
			DP(w3, 4); DP(w4, 5); SADQ(q1, 6); DP(w5, 7);
		}
	__m512i a = _mm512_add_epi32(_mm512_add_epi32(w0, w1), _mm512_add_epi32(w2, w3));
	a = _mm512_add_epi32(a, _mm512_add_epi32(w4, w5));
	return _mm512_reduce_add_epi64(_mm512_add_epi64(_mm512_add_epi64(q0, q1), FOLDDQ(a)));
}

/* 8 sad + 8 dpbusd per 1 KiB, 16 accumulators */
T512 static uint64_t v_mix16(const unsigned char *p, size_t n, uint64_t passes)
{
	const __m512i z = _mm512_setzero_si512(), ones = _mm512_set1_epi8(1), lo32 = _mm512_set1_epi64(0xffffffff);
	__m512i q[8], w[8];
	for (int i = 0; i < 8; i++)
		q[i] = w[i] = z;
	for (uint64_t r = 0; r < passes; r++)
		for (const unsigned char *c = p, *e = p + n; c < e; c += 1024) {
			SADQ(q[0], 0); DP(w[0], 1); SADQ(q[1], 2); DP(w[1], 3);
			SADQ(q[2], 4); DP(w[2], 5); SADQ(q[3], 6); DP(w[3], 7);
			SADQ(q[4], 8); DP(w[4], 9); SADQ(q[5], 10); DP(w[5], 11);
			SADQ(q[6], 12); DP(w[6], 13); SADQ(q[7], 14); DP(w[7], 15);
		}
	__m512i a = z;
	for (int i = 0; i < 8; i++)
		a = _mm512_add_epi64(a, _mm512_add_epi64(q[i], FOLDDQ(w[i])));
	return _mm512_reduce_add_epi64(a);
}

/* dpbusd only, 12 accumulators per 768 B */
T512 static uint64_t v_dp12(const unsigned char *p, size_t n, uint64_t passes)
{
	const __m512i z = _mm512_setzero_si512(), ones = _mm512_set1_epi8(1), lo32 = _mm512_set1_epi64(0xffffffff);
	__m512i w[12];
	for (int i = 0; i < 12; i++)
		w[i] = z;
	const unsigned char *e = p + n / 768 * 768;
	for (uint64_t r = 0; r < passes; r++) {
		const unsigned char *c = p;
		for (; c < e; c += 768) {
			DP(w[0], 0); DP(w[1], 1); DP(w[2], 2); DP(w[3], 3);
			DP(w[4], 4); DP(w[5], 5); DP(w[6], 6); DP(w[7], 7);
			DP(w[8], 8); DP(w[9], 9); DP(w[10], 10); DP(w[11], 11);
		}
		for (; c < p + n; c += 64)
			DP(w[0], 0);
	}
	__m512i a = z;
	for (int i = 0; i < 12; i++)
		a = _mm512_add_epi64(a, FOLDDQ(w[i]));
	return _mm512_reduce_add_epi64(a);
}

/* ymm (the avxvnni level): loads only, 8 per 256 B; VEX dpbusd only, 12 accumulators per 384 B (wtg's
 * loop; wss-ab under WTG_SIMD=avxvnni sets it beside the build before) */
#define T256 __attribute__((target("avx2,avxvnni"), noinline))
T256 static uint64_t v_yload(const unsigned char *p, size_t n, uint64_t passes)
{
	for (uint64_t r = 0; r < passes; r++)
		for (const unsigned char *c = p, *e = p + n; c < e; c += 256)
			__asm__ volatile("vmovdqa (%0), %%ymm1\n\tvmovdqa 32(%0), %%ymm2\n\tvmovdqa 64(%0), %%ymm3\n\t"
					 "vmovdqa 96(%0), %%ymm4\n\tvmovdqa 128(%0), %%ymm5\n\tvmovdqa 160(%0), %%ymm6\n\t"
					 "vmovdqa 192(%0), %%ymm7\n\tvmovdqa 224(%0), %%ymm8" ::"r"(c)
					 : "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "memory");
	return 0;
}

#define YLD(i) _mm256_load_si256((const __m256i *)(const void *)(c + 32 * (i)))
#define YDP(w, i) w = _mm256_dpbusd_avx_epi32(w, YLD(i), ones)
#define YFOLD(w) _mm256_add_epi64(_mm256_and_si256(w, lo32), _mm256_srli_epi64(w, 32))
__attribute__((target("avx2"))) static uint64_t yhsum(__m256i a)
{
	uint64_t l[4];
	_mm256_storeu_si256((__m256i *)(void *)l, a);
	return l[0] + l[1] + l[2] + l[3];
}

T256 static uint64_t v_ydp12(const unsigned char *p, size_t n, uint64_t passes)
{
	const __m256i z = _mm256_setzero_si256(), ones = _mm256_set1_epi8(1), lo32 = _mm256_set1_epi64x(0xffffffff);
	__m256i w0 = z, w1 = z, w2 = z, w3 = z, w4 = z, w5 = z, w6 = z, w7 = z, w8 = z, w9 = z, w10 = z, w11 = z;
	const unsigned char *e = p + n / 384 * 384;
	for (uint64_t r = 0; r < passes; r++) {
		const unsigned char *c = p;
		for (; c < e; c += 384) {
			YDP(w0, 0); YDP(w1, 1); YDP(w2, 2); YDP(w3, 3); YDP(w4, 4); YDP(w5, 5);
			YDP(w6, 6); YDP(w7, 7); YDP(w8, 8); YDP(w9, 9); YDP(w10, 10); YDP(w11, 11);
		}
		for (; c < p + n; c += 32)
			YDP(w0, 0);
	}
	__m256i a = _mm256_add_epi64(_mm256_add_epi64(YFOLD(w0), YFOLD(w1)), _mm256_add_epi64(YFOLD(w2), YFOLD(w3)));
	a = _mm256_add_epi64(a, _mm256_add_epi64(_mm256_add_epi64(YFOLD(w4), YFOLD(w5)), YFOLD(w6)));
	a = _mm256_add_epi64(a, _mm256_add_epi64(_mm256_add_epi64(YFOLD(w7), YFOLD(w8)), YFOLD(w9)));
	return yhsum(_mm256_add_epi64(a, _mm256_add_epi64(YFOLD(w10), YFOLD(w11))));
}

struct variant {
	const char *name;
	uint64_t (*fn)(const unsigned char *, size_t, uint64_t);
	int checks;
};
static const struct variant variants[] = {
	{ "load", v_load, 0 },	 { "mix8", v_mix8, 1 }, { "dp4", v_dp4, 1 },	  { "dp8", v_dp8, 1 },
	{ "dp16", v_dp16, 1 },	 { "sad8", v_sad8, 1 }, { "mix26", v_mix26, 1 }, { "dp8pf", v_dp8pf, 1 },
	{ "mix16", v_mix16, 1 }, { "dp12", v_dp12, 1 }, { "yload", v_yload, 0 }, { "ydp12", v_ydp12, 1 },
};
#define NV (sizeof variants / sizeof variants[0])

/* One timed call of a variant over the whole buffer, passes times. A memory-sized buffer (one pass)
 * goes in slices of at most 256 MiB, so that no loop's 32-bit lanes, folded only at the end, can
 * overflow (a lane of dpbusd gains at most 4 x 255 per 64 bytes it reads); a call per slice costs
 * nothing beside a 256 MiB pass. */
#define SLICE (256u << 20)
static uint64_t run_variant(const struct variant *v, const unsigned char *p, size_t n, uint64_t passes)
{
	if (passes > 1 || n <= SLICE)
		return v->fn(p, n, passes);
	uint64_t got = 0;
	for (size_t at = 0; at < n; at += SLICE)
		got += v->fn(p + at, n - at < SLICE ? n - at : SLICE, 1);
	return got;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: sumloop SIZE SECONDS CPU [VARIANT...]\n");
		return 2;
	}
	size_t n = strtoull(argv[1], NULL, 0) / 1024 * 1024;
	double secs = atof(argv[2]);
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[3]), &set);
	if (sched_setaffinity(0, sizeof set, &set))
		perror("sched_setaffinity");
	unsigned char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	madvise(p, n, MADV_HUGEPAGE);
	uint64_t x = 42, known = 0;
	for (size_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		p[i] = (unsigned char)(x >> 56);
		known += p[i];
	}
	int sel[NV], ns = 0;
	for (size_t v = 0; v < NV; v++) {
		int want = argc == 4;
		for (int a = 4; a < argc; a++)
			want |= strcmp(argv[a], variants[v].name) == 0;
		if (want)
			sel[ns++] = (int)v;
	}
	/* passes per call: about 16 MiB of bytes, at least one */
	uint64_t passes = n < (16u << 20) ? (16u << 20) / n : 1;
	enum { SLICES = 7 };
	double gb[NV][SLICES], call[NV] = { 0 };
	for (int s = 0; s < SLICES; s++)
		for (int k = 0; k < ns; k++) {
			const struct variant *v = &variants[sel[(k + s) % ns]];
			int vi = sel[(k + s) % ns];
			run_variant(v, p, n, passes); /* warm */
			uint64_t calls = 0;
			double t0 = now(), t;
			do {
				double c0 = now();
				uint64_t got = run_variant(v, p, n, passes);
				double c1 = now(), rate = (double)passes * n / (c1 - c0) / 1e9;
				if (c1 > c0 && rate > call[vi])
					call[vi] = rate;
				if (v->checks && got != known * passes) {
					fprintf(stderr, "%s: sum %llu != %llu\n", v->name, (unsigned long long)got,
						(unsigned long long)(known * passes));
					return 1;
				}
				calls++;
			} while ((t = now()) - t0 < secs / SLICES);
			gb[vi][s] = (double)calls * passes * n / (t - t0) / 1e9;
		}
	for (int k = 0; k < ns; k++) {
		qsort(gb[sel[k]], SLICES, sizeof(double), cmpd);
		printf("%-6s best %7.1f median %7.1f call %7.1f GB/s\n", variants[sel[k]].name, gb[sel[k]][SLICES - 1],
		       gb[sel[k]][SLICES / 2], call[sel[k]]);
	}
	return 0;
}
