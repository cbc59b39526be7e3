/* kernels.c: byte sums (stub) */
#include "config.h"
#include "wtg/kernels.h"
int64_t wtg_sum_auto(const unsigned char *p, size_t n)
{
	int64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	return s;
}
int64_t wtg_sum_simd(const unsigned char *p, size_t n)
{
	return wtg_sum_auto(p, n);
}
const char *wtg_sum_simd_name(void)
{
	return "portable";
}
