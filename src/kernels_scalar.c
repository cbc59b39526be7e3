/* kernels_scalar.c: the one-add-per-byte loop (stub) */
#include "config.h"
#include "wtg/kernels.h"
int64_t wtg_sum_scalar(const unsigned char *p, size_t n)
{
	int64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	return s;
}
