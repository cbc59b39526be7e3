/* dip_table.c: the table of src/base/dip_table.h, the quantiles of sqrt(n) times Hartigan's dip of n
 * values drawn from the uniform (the unimodal law with the largest dip, so a p-value read from it
 * holds for any unimodal one), 20,000 samples per n from wtg's seeded generator (seed 1).
 *
 * Build and run from the build tree:
 *   cc -O2 -Iinclude -I. -o dip_table bench/dip_table.c src/libwtg.a -lm && ./dip_table > src/base/dip_table.h
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "wtg/modes.h"
#include "wtg/stats.h"

#define SAMPLES 20000

int main(void)
{
	static const double prob[] = { 0.50, 0.80, 0.90, 0.95, 0.99, 0.999 };
	static const int sizes[] = { 10, 15, 20, 30, 50, 100, 200, 500, 1000, 2000 };
	struct wtg_rng r;
	wtg_rng_seed(&r, 1);
	double *s = malloc(SAMPLES * sizeof *s), *x = malloc(2000 * sizeof *x);
	if (!s || !x)
		return 1;
	printf("/* dip_table.h: made by bench/dip_table.c; rows: n = 10 15 20 30 50 100 200 500 1000 2000; columns:\n"
	       " * sqrt(n) dip at the probabilities 0.5 0.8 0.9 0.95 0.99 0.999 under the uniform */\n");
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		int n = sizes[k];
		for (int i = 0; i < SAMPLES; i++) {
			for (int j = 0; j < n; j++)
				x[j] = wtg_rng_unit(&r);
			wtg_sort(x, (size_t)n);
			s[i] = sqrt((double)n) * wtg_dip(x, (size_t)n);
		}
		wtg_sort(s, SAMPLES);
		printf("{");
		for (size_t p = 0; p < sizeof prob / sizeof prob[0]; p++)
			printf("%s%.5f", p ? ", " : " ", wtg_quantile_sorted(s, SAMPLES, prob[p]));
		printf(" },\t/* n = %d */\n", n);
	}
	free(s);
	free(x);
	return 0;
}
