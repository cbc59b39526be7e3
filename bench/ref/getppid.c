/* getppid.c: the reference syscall loop for bench/peers. Raw syscall(SYS_getppid) in batches of
 * BATCH calls (default 10000), BATCHES timed batches (default 200) after one untimed warm-up batch;
 * prints the median ns per call. The clock is read once per batch, so its cost over a 10000-call
 * batch is a thousandth of a percent.
 *
 * Usage: getppid [BATCH [BATCHES]]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long batch = argc > 1 ? atol(argv[1]) : 10000;
	long batches = argc > 2 ? atol(argv[2]) : 200;
	if (batch < 1 || batches < 1) {
		fprintf(stderr, "getppid: BATCH and BATCHES must be positive\n");
		return 2;
	}
	double *v = malloc((size_t)batches * sizeof *v);
	if (!v)
		return 1;
	for (long i = 0; i < batch; i++)
		syscall(SYS_getppid);
	for (long b = 0; b < batches; b++) {
		double t0 = now_ns();
		for (long i = 0; i < batch; i++)
			syscall(SYS_getppid);
		v[b] = (now_ns() - t0) / (double)batch;
	}
	qsort(v, (size_t)batches, sizeof *v, cmp);
	printf("%.2f\n", batches % 2 ? v[batches / 2] : (v[batches / 2 - 1] + v[batches / 2]) / 2);
	free(v);
	return 0;
}
