/* kernels.h: the byte-sum loops every experiment uses. */
#ifndef WTG_KERNELS_H
#define WTG_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* The sum of the bytes p[0, n). */
typedef int64_t (*wtg_sum_fn)(const unsigned char *p, size_t n);
/* passes times the sum of the bytes p[0, n), read passes times over: the accumulators stay in
 * registers from one pass to the next and are folded once at the end. */
typedef int64_t (*wtg_sum_rep_fn)(const unsigned char *p, size_t n, uint64_t passes);

/* One byte-sum implementation. */
struct wtg_sum_kernel {
	const char *name;	/* "scalar", "auto", "native", or a SIMD level ("avx512vnni", ...) */
	const char *isa;	/* the instruction set it runs: "x86-64 (SSE2)", "x86-64-v4", a level */
	const char *detail;	/* how it sums, or which compiler built it with what (for notes) */
	wtg_sum_fn sum;
	wtg_sum_rep_fn repeat;
};

/* One add per byte, never vectorized (checked in the assembly). */
int64_t wtg_sum_scalar(const unsigned char *p, size_t n);
/* The plain loop as the compiler vectorizes it for the build's baseline ISA. */
int64_t wtg_sum_auto(const unsigned char *p, size_t n);
/* The same plain loop compiled for the best x86-64 level this CPU has (what -march=native buys). */
int64_t wtg_sum_native(const unsigned char *p, size_t n);
/* Hand SIMD, picked once per run: AVX-512 VNNI, AVX-512BW, AVX-VNNI, AVX2, SSE2 or portable. */
int64_t wtg_sum_simd(const unsigned char *p, size_t n);
/* Which implementation wtg_sum_simd runs: "avx512vnni", "avx512bw", "avxvnni", "avx2", "sse2" or
 * "portable". */
const char *wtg_sum_simd_name(void);

/* The kernels by name, picked once per run: "scalar", "auto", "native" and "simd" (the hand SIMD
 * level). NULL for an unknown name. */
const struct wtg_sum_kernel *wtg_sum_kernel(const char *name);
/* The repeating form of one of the sums above (wtg_sum_bytes too); NULL for any other function. */
wtg_sum_rep_fn wtg_sum_repeat_of(wtg_sum_fn fn);
/* The hand SIMD level names, lowest first, and how many there are (for WTG_SIMD and tests). */
extern const char *const wtg_simd_levels[];
extern const int wtg_simd_nlevels;
/* The best hand SIMD level this CPU has, before any WTG_SIMD cap (an index into wtg_simd_levels). */
int wtg_simd_best_level(void);
/* The same loop at a given level, whatever WTG_SIMD says (tests; NULL past the CPU's best). */
wtg_sum_rep_fn wtg_sum_simd_level(int level);

/* The default fast sum used by I/O experiments (wtg_sum_simd). */
#define wtg_sum_bytes wtg_sum_simd

#endif
