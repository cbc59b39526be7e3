/* kernels.h: the byte-sum loops every experiment uses. */
#ifndef WTG_KERNELS_H
#define WTG_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* One add per byte, never vectorized (checked in the assembly). */
int64_t wtg_sum_scalar(const unsigned char *p, size_t n);
/* The plain loop as the compiler vectorizes it at -O2/-O3. */
int64_t wtg_sum_auto(const unsigned char *p, size_t n);
/* Hand SIMD (psadbw), picked at run time: AVX-512BW, AVX2, SSE2 or portable. */
int64_t wtg_sum_simd(const unsigned char *p, size_t n);
/* Which implementation wtg_sum_simd runs: "avx512bw", "avx2", "sse2" or "portable". */
const char *wtg_sum_simd_name(void);

/* The default fast sum used by I/O experiments (wtg_sum_simd). */
#define wtg_sum_bytes wtg_sum_simd

#endif
