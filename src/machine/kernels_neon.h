/* kernels_neon.h: the arm64 hand byte sums (kernels_neon.c), for kernels.c's choice of level. */
#ifndef WTG_KERNELS_NEON_H
#define WTG_KERNELS_NEON_H

#include <stddef.h>
#include <stdint.h>

#if defined(__aarch64__) && defined(__ARM_NEON)
#define WTG_NEON 1
/* passes times the sum of p[0, n): UDOT against ones (the dot-product extension, asimddp) */
int64_t wtg_neon_rep_udot(const unsigned char *p, size_t n, uint64_t passes);
/* the same with UADALP (every AArch64 core, asimd) */
int64_t wtg_neon_rep_uadalp(const unsigned char *p, size_t n, uint64_t passes);
#else
#define WTG_NEON 0
#endif

#endif
