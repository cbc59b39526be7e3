/* test_split.c: the range arithmetic of the threads experiment and the seeded fill's known sum. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "../../src/experiments/common.h"
#include "unit.h"

/* Every split of size into n: contiguous from 0, covering size exactly, lengths within one byte. */
static void check_split(uint64_t size, int n)
{
	uint64_t expect_off = 0, lo = UINT64_MAX, hi = 0;
	int contiguous = 1;
	for (int i = 0; i < n; i++) {
		uint64_t off, len;
		wtg_split_range(size, n, i, &off, &len);
		if (off != expect_off)
			contiguous = 0;
		expect_off = off + len;
		if (len < lo)
			lo = len;
		if (len > hi)
			hi = len;
	}
	CHECK(contiguous);
	CHECK(expect_off == size);
	CHECK(hi - lo <= 1);
	CHECK(lo == size / (uint64_t)n);
}

int main(void)
{
	static const uint64_t sizes[] = { 0, 1, 7, 63, 64, 65, 4095, 4096, 1000003, (64ull << 20) + 13,
					  (256ull << 20), (1ull << 40) + 1 };
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
		for (int n = 1; n <= 64; n++)
			check_split(sizes[s], n);

	/* a few exact ranges */
	uint64_t off, len;
	wtg_split_range(10, 3, 0, &off, &len);
	CHECK(off == 0 && len == 4);
	wtg_split_range(10, 3, 1, &off, &len);
	CHECK(off == 4 && len == 3);
	wtg_split_range(10, 3, 2, &off, &len);
	CHECK(off == 7 && len == 3);
	wtg_split_range(3, 5, 4, &off, &len);
	CHECK(off == 3 && len == 0);
	wtg_split_range(100, 1, 0, &off, &len);
	CHECK(off == 0 && len == 100);

	/* the seeded fill reports the sum of the bytes it wrote, and the same seed writes the same bytes */
	static const size_t lens[] = { 0, 1, 7, 8, 9, 4096, 65537 };
	for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
		size_t n = lens[k];
		unsigned char *a = malloc(n + 1), *b = malloc(n + 1);
		struct wtg_rng r1, r2;
		wtg_rng_seed(&r1, 42);
		wtg_rng_seed(&r2, 42);
		int64_t sa = wtg_fill_seeded(&r1, a, n);
		int64_t sb = wtg_fill_seeded(&r2, b, n);
		int64_t naive = 0;
		for (size_t i = 0; i < n; i++)
			naive += a[i];
		CHECK(sa == naive);
		CHECK(sa == sb);
		CHECK(n == 0 || memcmp(a, b, n) == 0);
		free(a);
		free(b);
	}
	return unit_done("test_split");
}
