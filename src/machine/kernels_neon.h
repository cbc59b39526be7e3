/* kernels_neon.h: the arm64 hand byte sums (kernels_neon.c), for kernels.c's choice of level, and
 * what every byte-sum file marks its loops with. */
#ifndef WTG_KERNELS_NEON_H
#define WTG_KERNELS_NEON_H

#include <stddef.h>
#include <stdint.h>

/* A summing loop left uninstrumented in a ThreadSanitizer build: it only reads, and the shadow
 * memory an instrumented read touches would add its own page faults (thousands per pass over a
 * few MiB) to the faults mmap, zerofill and faultbase count around the sum, and slow it 50-fold. */
#if defined(__SANITIZE_THREAD__)
#define WTG_UNTRACED __attribute__((no_sanitize_thread))
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WTG_UNTRACED __attribute__((no_sanitize("thread")))
#endif
#endif
#ifndef WTG_UNTRACED
#define WTG_UNTRACED
#endif

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
