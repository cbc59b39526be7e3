/* test_kernels.c: every byte sum, at every SIMD level this CPU has, equals a plain reference sum.
 *
 * The SIMD level is chosen once per process, so the test runs itself again with WTG_SIMD set to
 * each lower level the CPU supports (and to an unknown value, which must be ignored).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"
#include "wtg/kernels.h"
#include "wtg/util.h"

static const char *const levels[] = { "portable", "sse2", "avx2", "avx512bw" };

static int best_level(void)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512bw"))
		return 3;
	if (__builtin_cpu_supports("avx2"))
		return 2;
	return 1;
#else
	return 0;
#endif
}

static int64_t reference(const unsigned char *p, size_t n)
{
	int64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	return s;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int mismatches;

static void check_all(const unsigned char *p, size_t n)
{
	int64_t want = reference(p, n);
	int64_t a = wtg_sum_scalar(p, n), b = wtg_sum_auto(p, n), c = wtg_sum_simd(p, n);
	if (a != want || b != want || c != want) {
		if (mismatches++ < 10)
			fprintf(stderr, "n=%zu align=%u: want %lld scalar %lld auto %lld simd(%s) %lld\n", n,
				(unsigned)((uintptr_t)p & 63), (long long)want, (long long)a, (long long)b,
				wtg_sum_simd_name(), (long long)c);
	}
}

static void run_sums(void)
{
	const size_t big = (4u << 20) + 4099;
	unsigned char *buf = aligned_alloc(64, (big + 128 + 63) & ~(size_t)63);
	CHECK(buf != NULL);
	if (!buf)
		return;
	for (size_t i = 0; i < big + 128; i++)
		buf[i] = (unsigned char)next();

	/* every length 0..300 at every misalignment 0..63, random content */
	for (size_t off = 0; off < 64; off++)
		for (size_t n = 0; n <= 300; n++)
			check_all(buf + off, n);
	/* lengths around the unrolled block sizes */
	for (size_t n = 1000; n < 1100; n++)
		check_all(buf + n % 64, n);
	/* a few MiB, aligned and not */
	check_all(buf, big);
	check_all(buf + 1, big);
	check_all(buf + 33, big - 7);
	CHECK(mismatches == 0);

	/* all 0xFF: the widest lane values */
	memset(buf, 0xff, big + 128);
	mismatches = 0;
	for (size_t off = 0; off < 64; off += 7)
		for (size_t n = 0; n <= 300; n += 3)
			check_all(buf + off, n);
	check_all(buf, big);
	check_all(buf + 5, big);
	CHECK(mismatches == 0);
	CHECK(wtg_sum_simd(buf + 3, big) == (int64_t)big * 255);
	CHECK(wtg_sum_scalar(buf + 3, big) == (int64_t)big * 255);

	/* the bytes just outside the range must not count */
	memset(buf, 0, big + 128);
	for (size_t off = 0; off < 64; off++) {
		buf[off] = 1;
		buf[off + 66] = 1;
		CHECK(wtg_sum_simd(buf + off + 1, 65) == 0);
		buf[off] = 0;
		buf[off + 66] = 0;
	}
	free(buf);
}

/* Run this program again with WTG_SIMD=level; it checks the name it gets and all the sums. */
static int run_child(const char *self, const char *level, const char *expect)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setenv("WTG_SIMD", level, 1);
		execl(self, self, "--expect", expect, (char *)NULL);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(int argc, char **argv)
{
	const char *name = wtg_sum_simd_name();
	int best = best_level();
	bool known = false;
	for (size_t i = 0; i < WTG_ARRAY_LEN(levels); i++)
		known |= strcmp(name, levels[i]) == 0;
	CHECK(known);
	if (argc == 3 && strcmp(argv[1], "--expect") == 0) {
		CHECK_STR(name, argv[2]);
		run_sums();
		return unit_done(name);
	}
	/* without WTG_SIMD in the environment the best level runs */
	if (!getenv("WTG_SIMD"))
		CHECK_STR(name, levels[best]);
	printf("simd level: %s\n", name);
	run_sums();

	for (int l = 0; l <= best; l++)
		CHECK(run_child("/proc/self/exe", levels[l], levels[l]) == 0);
	/* asking for more than the CPU has, or nonsense, gives the best level */
	CHECK(run_child("/proc/self/exe", "avx512bw", levels[best]) == 0);
	CHECK(run_child("/proc/self/exe", "mmx", levels[best]) == 0);
	return unit_done("test_kernels");
}
