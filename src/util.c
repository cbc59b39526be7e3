/* util.c: time, formatting, size parsing. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "wtg/util.h"

volatile uint64_t wtg_sink;

int64_t wtg_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void wtg_fmt_size(char *buf, size_t len, uint64_t bytes)
{
	static const char units[] = "BKMGT";
	int u = 0;
	double v = (double)bytes;
	while (v >= 1024.0 && u < 4) {
		v /= 1024.0;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%" PRIu64 "B", bytes);
	else if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%" PRIu64 "%c", (uint64_t)v, units[u]);
	else
		snprintf(buf, len, "%.1f%c", v, units[u]);
}

void wtg_fmt_duration(char *buf, size_t len, double ns)
{
	if (ns != ns)
		snprintf(buf, len, "n/a");
	else if (ns < 1e3)
		snprintf(buf, len, "%.1f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
}

void wtg_fmt_thousands(char *buf, size_t len, int64_t v)
{
	char tmp[32];
	uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	int n = snprintf(tmp, sizeof tmp, "%" PRIu64, a);
	char out[48];
	int o = 0;
	if (v < 0)
		out[o++] = '-';
	for (int i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = tmp[i];
	}
	out[o] = '\0';
	wtg_strlcpy(buf, out, len);
}

int wtg_parse_size(const char *s, uint64_t *out)
{
	if (!s)
		return -1;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s || errno == ERANGE)
		return -1;
	unsigned shift = 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	default: break;
	}
	if (shift && *end == 'i')
		end++;
	if (*end == 'B' || (*end == 'b' && shift))
		end++;
	if (*end != '\0' || v == 0)
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

int wtg_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : (int)n;
}

int wtg_gettid(void)
{
	return (int)syscall(SYS_gettid);
}

void wtg_strlcpy(char *dst, const char *src, size_t len)
{
	if (len == 0)
		return;
	size_t n = strlen(src);
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}
