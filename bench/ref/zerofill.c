/* zerofill.c: the reference zero-fill fault loop for bench/peers. REPS times: map BYTES of fresh
 * anonymous memory, refuse huge pages (every base page faults on its own), write one byte per page,
 * unmap; prints the median ns per page (one zero-fill fault each).
 *
 * Usage: zerofill [BYTES [REPS]]   (default 256 MiB, 5 reps)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
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
	size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 0) : 256u << 20;
	int reps = argc > 2 ? atoi(argv[2]) : 5;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	if (bytes < page || reps < 1 || reps > 1000) {
		fprintf(stderr, "zerofill: BYTES must be at least a page and REPS 1..1000\n");
		return 2;
	}
	double v[1000];
	size_t pages = bytes / page;
	for (int r = 0; r < reps; r++) {
		unsigned char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			perror("zerofill: mmap");
			return 1;
		}
		(void)madvise(p, bytes, MADV_NOHUGEPAGE);
		volatile unsigned char *vp = p;
		double t0 = now_ns();
		for (size_t i = 0; i < pages; i++)
			vp[i * page] = (unsigned char)(i | 1);
		v[r] = (now_ns() - t0) / (double)pages;
		munmap(p, bytes);
	}
	qsort(v, (size_t)reps, sizeof *v, cmp);
	printf("%.2f\n", reps % 2 ? v[reps / 2] : (v[reps / 2 - 1] + v[reps / 2]) / 2);
	return 0;
}
