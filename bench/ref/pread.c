/* pread.c: the reference O_DIRECT read loop for bench/peers.
 *	pread FILE seq BS [huge] [sum] [first=N passes=P]
 *	                                   read the whole file (or its first N bytes, P times) front to
 *	                                   back in BS-byte preads, each timed; prints the bytes over the
 *	                                   time inside them in GB/s
 *	pread FILE rand BS N [huge] [sum]  N preads of BS bytes at seeded random BS-aligned offsets,
 *	                                   each timed; prints the median latency in microseconds
 * The file is opened with O_DIRECT and the buffer aligned to 4096 bytes (BS must be a multiple of
 * 4096); with "huge" the buffer is anonymous memory on a 2 MiB boundary asked for transparent huge
 * pages, as wtg's uncached reads into. With "sum" every read's bytes are added up between the
 * calls, untimed, and the buffer then flushed from the CPU cache (x86), as wtg checks its reads:
 * what looking at the data costs the next read. The offsets come from a fixed-seed xorshift, so
 * every run reads the same places.
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
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

static volatile uint64_t sink;

/* Add up the n bytes at p (untimed, between calls), then flush them from the CPU cache. */
static void look(const unsigned char *p, size_t n)
{
	uint64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	sink += s;
#if defined(__x86_64__) || defined(__i386__)
	for (size_t i = 0; i < n; i += 64)
		_mm_clflush(p + i);
	_mm_mfence();
#endif
}

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
	fprintf(stderr, "usage: pread FILE seq BS [huge] [sum] | pread FILE rand BS N [huge] [sum]\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return usage();
	size_t bs = strtoull(argv[3], NULL, 0);
	int rand_mode = strcmp(argv[2], "rand") == 0;
	long n = rand_mode && argc > 4 ? atol(argv[4]) : 0;
	int huge = 0, sum = 0;
	uint64_t first = 0, passes = 1;
	for (int i = rand_mode ? 5 : 4; i < argc; i++) {
		if (!rand_mode && strncmp(argv[i], "first=", 6) == 0)
			first = strtoull(argv[i] + 6, NULL, 0);
		else if (!rand_mode && strncmp(argv[i], "passes=", 7) == 0)
			passes = strtoull(argv[i] + 7, NULL, 0);
		else if (strcmp(argv[i], "huge") == 0 && !huge)
			huge = 1;
		else if (strcmp(argv[i], "sum") == 0 && !sum)
			sum = 1;
		else
			return usage();
	}
	if (bs == 0 || bs % 4096 || (!rand_mode && strcmp(argv[2], "seq")) || (rand_mode && n < 1) || passes < 1)
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
	uint64_t blocks = (first && first < (uint64_t)st.st_size ? first : (uint64_t)st.st_size) / bs;
	if (blocks == 0)
		return usage();
	if (!rand_mode) {
		double in_calls = 0, bytes = 0;
		for (uint64_t b = 0; b < blocks * passes; b++) {
			double t0 = now_ns();
			ssize_t r = pread(fd, buf, bs, (off_t)(b % blocks * bs));
			in_calls += now_ns() - t0;
			if (r <= 0) {
				perror("pread");
				return 1;
			}
			bytes += (double)r;
			if (sum)
				look(buf, (size_t)r);
		}
		printf("%.4f\n", bytes / in_calls);
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
		if (sum)
			look(buf, bs);
	}
	if (!lat)
		return 1;
	qsort(lat, (size_t)n, sizeof *lat, cmp);
	printf("%.2f\n", n % 2 ? lat[n / 2] : (lat[n / 2 - 1] + lat[n / 2]) / 2);
	return 0;
}
