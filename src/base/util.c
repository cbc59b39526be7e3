/* util.c: time, formatting, size parsing, and the one "wtg: ..." error line. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <sys/stat.h>
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

const char *wtg_path_split(const char *path, char *folder, size_t len)
{
	const char *slash = strrchr(path, '/');
	if (!slash) {
		wtg_strlcpy(folder, ".", len);
		return path;
	}
	snprintf(folder, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return slash + 1;
}

/* Length of the valid UTF-8 sequence at s (2-4), or 0 when s does not start one or it encodes a C1
 * control character (U+0080..U+009F, which some terminals obey). */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned lo = 0x80, hi = 0xbf;	/* the range of the second byte */
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xc2)
		lo = 0xa0;	/* C2 80..9F: the C1 controls */
	else if (s[0] == 0xe0)
		lo = 0xa0;	/* overlong */
	else if (s[0] == 0xed)
		hi = 0x9f;	/* surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90;	/* overlong */
	else if (s[0] == 0xf4)
		hi = 0x8f;	/* above U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

size_t wtg_escape_char(const char *src, char *out, size_t *used)
{
	const unsigned char *s = (const unsigned char *)src;
	static const char hex[] = "0123456789abcdef";
	size_t u = *s >= 0x80 ? utf8_len(s) : 0;
	*used = u ? u : 1;
	if (u) {
		memcpy(out, s, u);
		return u;
	}
	if (*s >= 0x20 && *s < 0x7f && *s != '\\') {
		out[0] = (char)*s;
		return 1;
	}
	const char *named = *s == '\n' ? "\\n" : *s == '\t' ? "\\t" : *s == '\r' ? "\\r" : *s == 0x1b ? "\\e"
			    : *s == '\\' ? "\\\\" : NULL;
	if (named) {
		memcpy(out, named, 2);
		return 2;
	}
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[*s >> 4];
	out[3] = hex[*s & 15];
	return 4;
}

void wtg_escape(char *dst, size_t len, const char *src)
{
	if (len == 0)
		return;
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0;
	while (*s) {
		char tmp[4];
		size_t used, n = wtg_escape_char((const char *)s, tmp, &used);
		if (o + n >= len)
			break;	/* never a half escape or half a character */
		memcpy(dst + o, tmp, n);
		o += n;
		s += used;
	}
	dst[o] = '\0';
}

char *wtg_escape_dup(const char *src)
{
	const unsigned char *s = (const unsigned char *)(src ? src : "");
	size_t need = 1;
	for (const unsigned char *p = s; *p;) {
		char tmp[4];
		size_t used;
		need += wtg_escape_char((const char *)p, tmp, &used);
		p += used;
	}
	char *out = malloc(need);
	if (out)
		wtg_escape(out, need, (const char *)s);
	return out;
}

void wtg_escape_put(FILE *f, const char *src)
{
	const unsigned char *s = (const unsigned char *)(src ? src : "");
	while (*s) {
		char tmp[4];
		size_t used, n = wtg_escape_char((const char *)s, tmp, &used);
		fwrite(tmp, 1, n, f);
		s += used;
	}
}

bool wtg_text_inert(const char *src)
{
	for (const unsigned char *s = (const unsigned char *)src; *s;) {
		char tmp[4];
		size_t used, n = wtg_escape_char((const char *)s, tmp, &used);
		if (n != used && *s != '\\')
			return false;
		s += used;
	}
	return true;
}

void wtg_error(const char *fmt, ...)
{
	char msg[2048], line[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	memcpy(line, "wtg: ", 5);
	wtg_escape(line + 5, sizeof line - 6, msg);
	size_t n = strlen(line);
	line[n++] = '\n';
	/* one write: the line is never interleaved with another thread's output */
	for (size_t done = 0; done < n;) {
		ssize_t w = write(STDERR_FILENO, line + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
}

int wtg_usage_error(const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	wtg_error("%s (see 'wtg --help')", msg);
	return 2;
}

int wtg_utf8_len(const unsigned char *p)
{
	unsigned c = p[0];
	int n;
	unsigned min;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		min = 0x10000;
	} else {
		return 0;
	}
	unsigned cp = c & (0x3fu >> (n - 1));
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

size_t wtg_text_escaped(const char *s, char *out)
{
	size_t used, n = wtg_escape_char(s, out, &used);
	if (*s == '\\' || *s == '\t' || *s == '\n' || n == used)
		return 0;
	return n;
}

size_t wtg_text_char(const char *s, int *cols)
{
	char esc[4];
	size_t used, n0 = wtg_text_escaped(s, esc);
	if (n0) {	/* drawn escaped: one column per byte of the escape */
		wtg_escape_char(s, esc, &used);
		*cols = (int)n0;
		return used;
	}
	mbstate_t st;
	wchar_t wc;
	memset(&st, 0, sizeof st);
	size_t n = mbrtowc(&wc, s, MB_CUR_MAX, &st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		/* the locale cannot read it (the C locale and UTF-8): one column per UTF-8 character */
		int u = wtg_utf8_len((const unsigned char *)s);
		*cols = 1;
		return u > 0 ? (size_t)u : 1;
	}
	int cw = wcwidth(wc);
	*cols = cw < 0 ? 1 : cw;
	return n;
}

int wtg_text_width_n(const char *s, size_t n)
{
	int w = 0;
	for (size_t i = 0; s && i < n && s[i];) {
		int cw;
		i += wtg_text_char(s + i, &cw);
		w += cw;
	}
	return w;
}

int wtg_text_width(const char *s)
{
	return wtg_text_width_n(s, (size_t)-1);
}

/* The word at s (up to a space, a line break or the end): its bytes and columns. */
static size_t word_at(const char *s, int *cols)
{
	size_t k = 0;
	*cols = 0;
	while (s[k] && s[k] != ' ' && s[k] != '\n') {
		int cw;
		k += wtg_text_char(s + k, &cw);
		*cols += cw;
	}
	return k;
}

/* How many bytes of the word at s fit in width columns (at least one character). */
static size_t cut_word(const char *s, int width)
{
	size_t k = 0;
	int cols = 0, cw;
	while (s[k] && s[k] != ' ' && s[k] != '\n') {
		size_t n = wtg_text_char(s + k, &cw);
		if (k > 0 && cols + cw > width)
			break;
		cols += cw;
		k += n;
	}
	return k;
}

size_t wtg_wrap_next(const char *s, int width, bool cut, const char **next)
{
	size_t end = 0, i = 0;
	int cols = 0;
	while (s[i] && s[i] != '\n') {
		size_t j = i;
		while (s[j] == ' ')
			j++;
		if (!s[j] || s[j] == '\n')
			break;	/* only spaces up to the end or the line break */
		int ww;
		size_t k = j + word_at(s + j, &ww);
		int w = (int)(j - i) + ww;
		if (end > 0 && cols + w > width)
			break;
		if (end == 0 && cut && w > width) {
			end = j + cut_word(s + j, width - (int)(j - i));
			break;
		}
		cols += w;
		end = i = k;
	}
	const char *p = s + end;
	while (*p == ' ')
		p++;
	if (*p == '\n')
		p++;
	*next = p;
	return end;
}

int wtg_irq_per_cpu(const char *text, uint64_t *counts, int max)
{
	for (int i = 0; i < max; i++)
		counts[i] = 0;
	/* the header names each column's CPU: "           CPU0       CPU1 ..." (an offline CPU has
	 * none); at most WTG_IRQ_COLS columns are read */
	enum { WTG_IRQ_COLS = 4096 };
	int cpu_of[WTG_IRQ_COLS];	/* 16 KiB of stack */
	int ncol = 0;
	const char *s = text;
	while (*s && *s != '\n') {
		while (*s == ' ' || *s == '\t')
			s++;
		if (strncmp(s, "CPU", 3) != 0 || s[3] < '0' || s[3] > '9')
			break;
		char *end;
		long id = strtol(s + 3, &end, 10);
		if (ncol < WTG_IRQ_COLS)
			cpu_of[ncol++] = (int)id;
		s = end;
	}
	if (ncol == 0)
		return -1;
	while ((s = strchr(s, '\n')) != NULL) {
		s++;
		const char *p = s;
		while (*p == ' ')
			p++;
		const char *label = p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == label || *p != ':')
			continue;	/* LOC:, NMI:, ERR: ... */
		p++;
		for (int c = 0; c < ncol; c++) {
			char *end;
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p < '0' || *p > '9')
				break;	/* a short line: the counts end early */
			unsigned long long v = strtoull(p, &end, 10);
			p = end;
			if (cpu_of[c] >= 0 && cpu_of[c] < max)
				counts[cpu_of[c]] += v;
		}
	}
	return ncol;
}

/* path opened read-only without blocking; -1 unless it is a regular file. */
static int open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

/* Up to len bytes of fd into buf in at most `tries` read()s (EINTR tried again within them); *eof
 * (when not NULL) says the end was seen. -1 when a read fails before anything was read. */
static long read_bounded(int fd, char *buf, size_t len, int tries, bool *eof)
{
	size_t got = 0;
	if (eof)
		*eof = false;
	for (int i = 0; i < tries && got < len; i++) {
		ssize_t n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return got ? (long)got : -1;
		if (n == 0) {
			if (eof)
				*eof = true;
			break;
		}
		got += (size_t)n;
	}
	return (long)got;
}

long wtg_read_small(const char *path, char *buf, size_t len)
{
	if (!len)
		return -1;
	buf[0] = '\0';
	if (len > WTG_READ_SMALL_MAX)
		len = WTG_READ_SMALL_MAX;
	int fd = open_regular(path);
	if (fd < 0)
		return -1;
	long n = read_bounded(fd, buf, len - 1, 64, NULL);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

void wtg_read_line(const char *path, char *buf, size_t len)
{
	if (wtg_read_small(path, buf, len) > 0)
		buf[strcspn(buf, "\n")] = '\0';
	else if (len)
		buf[0] = '\0';
}

char *wtg_read_text(const char *path)
{
	int fd = open_regular(path);
	if (fd < 0)
		return NULL;
	size_t len = 0, cap = 1 << 16;
	char *text = malloc(cap);
	while (text) {
		bool eof;
		long n = read_bounded(fd, text + len, cap - 1 - len, 1024, &eof);
		if (n < 0) {
			free(text);
			text = NULL;
			break;
		}
		len += (size_t)n;
		if (eof || n == 0 || cap >= WTG_READ_TEXT_MAX)
			break;	/* the end, or as much as wtg reads of any file */
		if (len < cap - 1)
			continue;
		char *bigger = realloc(text, cap * 2);
		if (!bigger) {
			free(text);
			text = NULL;
		} else {
			text = bigger;
			cap *= 2;
		}
	}
	close(fd);
	if (!text)
		return NULL;
	text[len] = '\0';
	return text;
}

int64_t wtg_smaps_huge(const char *text, uintptr_t addr)
{
	bool inside = false;
	for (const char *s = text; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL) {
		unsigned long long lo, hi;
		int used = 0;
		/* a mapping's header "lo-hi perms offset dev inode [path]": hex digits, then '-' */
		if (sscanf(s, "%llx-%llx %n", &lo, &hi, &used) == 2 && used > 0) {
			inside = lo <= addr && addr < hi;
			continue;
		}
		long long kb;
		if (inside && sscanf(s, "AnonHugePages: %lld kB", &kb) == 1)
			return kb >= 0 ? kb * 1024 : -1;
	}
	return -1;
}

void wtg_fmt_list(char *buf, size_t len, const double *v, int n, int digits, bool significant)
{
	size_t at = 0;
	if (len)
		buf[0] = '\0';
	for (int i = 0; i < n && at < len; i++) {
		const char *sep = i == 0 ? "" : i == n - 1 ? " and " : ", ";
		int w = snprintf(buf + at, len - at, "%s", sep);
		at += w > 0 ? (size_t)w : 0;
		if (at >= len)
			break;
		w = significant ? snprintf(buf + at, len - at, "%.*g", digits, v[i])
				: snprintf(buf + at, len - at, "%.*f", digits, v[i]);
		at += w > 0 ? (size_t)w : 0;
	}
}
