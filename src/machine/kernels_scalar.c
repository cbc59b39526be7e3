/* kernels_scalar.c: the one-add-per-byte loop, kept scalar on purpose.
 *
 * The loop must do one load and one add per byte whatever CFLAGS say (-O3, -march=...), so the
 * vectorizers are switched off for this function alone: the optimize attribute on GCC, the loop
 * pragma on clang. A volatile accumulator would add a store per byte and measure memory instead.
 *
 * How it was checked (GCC 12.2 -O2 and -O3 -march=x86-64-v4, clang 14 -O2 and -O3 -mavx2):
 *	objdump -d --no-show-raw-insn src/kernels_scalar.o   (or gcc -S)
 * the loop body is
 *	movzbl (%rdi),%edx ; add $0x1,%rdi ; add %rdx,%rax ; cmp %rdi,%rcx ; jne ...
 * with no xmm/ymm/zmm register and no unrolling; tests/unit/test_kernels.c checks the sums.
 */
#include "config.h"

#include "wtg/kernels.h"
#include "kernels_neon.h"

#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-vectorize", "no-unroll-loops")))
#endif
WTG_UNTRACED int64_t wtg_sum_scalar(const unsigned char *p, size_t n)
{
	int64_t s = 0;
#if defined(__clang__)
#pragma clang loop vectorize(disable) interleave(disable) unroll(disable)
#endif
	for (size_t i = 0; i < n; i++)
		s += p[i];
	return s;
}
