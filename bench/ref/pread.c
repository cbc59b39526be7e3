/* pread.c: the reference O_DIRECT read loop for bench/peers.
 *	pread FILE seq BS [huge]     read the whole file front to back in BS-byte preads; prints GB/s
 *	pread FILE rand BS N [huge]  N preads of BS bytes at seeded random BS-aligned offsets, each
 *	                             timed; prints the median latency in microseconds
 * The file is opened with O_DIRECT and the buffer aligned to 4096 bytes (BS must be a multiple of
 * 4096); with "huge" the buffer is anonymous memory on a 2 MiB boundary asked for transparent huge
 * pages, as wtg's uncached reads into. The offsets come from a fixed-seed xorshift, so every run
 * reads the same places.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

static int usage(void)
{
	fprintf(stderr, "usage: pread FILE seq BS [huge] | pread FILE rand BS N [huge]\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return usage();
	size_t bs = strtoull(argv[3], NULL, 0);
	int rand_mode = strcmp(argv[2], "rand") == 0;
	long n = rand_mode && argc > 4 ? atol(argv[4]) : 0;
	const char *last = argv[argc - 1];
	int huge = argc > (rand_mode ? 5 : 4) && strcmp(last, "huge") == 0;
	if (bs == 0 || bs % 4096 || (!rand_mode && strcmp(argv[2], "seq")) || (rand_mode && n < 1) ||
	    argc > (rand_mode ? 5 : 4) + huge)
		return usage();
	int fd = open(argv[1], O_RDONLY | O_DIRECT);
	struct stat st;
	void *buf = NULL;
	if (huge) {
		size_t hp = 2u << 20, len = (bs + hp - 1) / hp * hp;
		char *m = mmap(NULL, len + hp, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m != MAP_FAILED) {
			buf = (void *)(((uintptr_t)m + hp - 1) / hp * hp);
			madvise(buf, len, MADV_HUGEPAGE);
			memset(buf, 1, len);
		}
	} else if (posix_memalign(&buf, 4096, bs)) {
		buf = NULL;
	}
	if (fd < 0 || fstat(fd, &st) < 0 || !buf) {
		perror("pread");
		return 1;
	}
	uint64_t blocks = (uint64_t)st.st_size / bs;
	if (blocks == 0)
		return usage();
	if (!rand_mode) {
		double t0 = now_ns(), bytes = 0;
		for (uint64_t b = 0; b < blocks; b++) {
			ssize_t r = pread(fd, buf, bs, (off_t)(b * bs));
			if (r <= 0) {
				perror("pread");
				return 1;
			}
			bytes += (double)r;
		}
		printf("%.4f\n", bytes / (now_ns() - t0));
		return 0;
	}
	double *lat = malloc((size_t)n * sizeof *lat);
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (long i = 0; lat && i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		double t0 = now_ns();
		if (pread(fd, buf, bs, (off_t)(x % blocks * bs)) <= 0) {
			perror("pread");
			return 1;
		}
		lat[i] = (now_ns() - t0) / 1e3;
	}
	if (!lat)
		return 1;
	qsort(lat, (size_t)n, sizeof *lat, cmp);
	printf("%.2f\n", n % 2 ? lat[n / 2] : (lat[n / 2 - 1] + lat[n / 2]) / 2);
	return 0;
}
