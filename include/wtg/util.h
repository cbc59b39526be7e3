/* util.h: small shared helpers (time, formatting, errors). */
#ifndef WTG_UTIL_H
#define WTG_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

#define WTG_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define WTG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define WTG_UNUSED __attribute__((unused))
#else
#define WTG_PRINTF(f, a)
#define WTG_UNUSED
#endif

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t wtg_now_ns(void);

/* Human sizes: 16B, 4K, 64K, 1M, 16M (powers of 1024, no fraction when exact). */
void wtg_fmt_size(char *buf, size_t len, uint64_t bytes);
/* n numbers as a list a person reads, "1.5, 2.0 and 3.1": each with digits decimals, or digits
 * significant digits when significant ("%.4g"). */
void wtg_fmt_list(char *buf, size_t len, const double *v, int n, int digits, bool significant);
/* Human durations from nanoseconds: "850 ns", "12.3 us", "4.56 ms", "1.23 s". */
void wtg_fmt_duration(char *buf, size_t len, double ns);
/* Integer with thousands separators: 34,216,613,807. */
void wtg_fmt_thousands(char *buf, size_t len, int64_t v);

/* Parse SIZE with optional K/M/G/T suffix (powers of 1024, optional trailing 'B' or "iB").
 * Returns 0 and sets *out, or -1 on a malformed, zero or overflowing value. */
int wtg_parse_size(const char *s, uint64_t *out);

/* Number of online CPUs (at least 1). */
int wtg_online_cpus(void);

/* Linux thread id of the caller. */
int wtg_gettid(void);

/* snprintf into a fixed buffer, always terminated, never warns about truncation. */
void wtg_strlcpy(char *dst, const char *src, size_t len);

/* The folder path is in ("." for a bare name, "/" at the top) into folder; returns the name after
 * it. */
const char *wtg_path_split(const char *path, char *folder, size_t len);

/* Copy src into dst (always terminated) so that it prints on one line and drives no terminal:
 * control bytes become \\n \\t \\r \\e or \\xHH, a backslash \\\\, bytes that are not UTF-8 (and
 * UTF-8 C1 controls) \\xHH; valid UTF-8 text is kept. Truncates between characters, never
 * inside an escape. */
void wtg_escape(char *dst, size_t len, const char *src);
/* The one escaping rule, a character at a time: the visible form of the character at s (not '\0')
 * into out (1 to 4 bytes, not terminated), its length returned, and in *used the bytes of s it
 * stands for (1 for a byte escaped as \xHH). */
size_t wtg_escape_char(const char *s, char *out, size_t *used);
/* The same escaping, whole: a copy to free() (NULL only when memory runs out; src NULL is ""). */
char *wtg_escape_dup(const char *src);
/* The same escaping, whole, written to f: every string that did not come from wtg itself (a saved
 * run's fields, labels, notes, column names) goes to a terminal, a text or Markdown report or the
 * comparison through wtg_escape, wtg_escape_dup or this. */
void wtg_escape_put(FILE *f, const char *src);
/* True when wtg_escape changes nothing in s but its backslashes: no control character, no C1
 * control, no byte that is not UTF-8. */
bool wtg_text_inert(const char *s);

/* The one way an error or notice reaches stderr: "wtg: " + the formatted message, escaped with
 * wtg_escape (a path with a newline or ESC in it stays on one line), + newline, in one write. */
void wtg_error(const char *fmt, ...) WTG_PRINTF(1, 2);
/* A usage error: "wtg: MESSAGE (see 'wtg --help')" on stderr; returns 2 (the exit status of one). */
int wtg_usage_error(const char *fmt, ...) WTG_PRINTF(1, 2);

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when it is not one. */
int wtg_utf8_len(const unsigned char *p);

/* ---- text on a terminal: the dashboard and the text report measure and wrap it the same way ---- */

/* The escape a screen draws for the character at s in place of it (a control character but tab and
 * line break, a C1 control, a byte that is not UTF-8; as wtg_escape_char writes it) into out (4
 * bytes), and its length; 0 when the character is drawn as it is. */
size_t wtg_text_escaped(const char *s, char *out);
/* The character at s (non-empty): its bytes (at least 1), and in *cols the columns it takes
 * (a character drawn escaped: the escape's length, see wtg_text_escaped; else wcwidth in the
 * locale's encoding; a character the locale cannot read, or with no width, is one column; a valid
 * UTF-8 sequence the locale cannot read is one character). */
size_t wtg_text_char(const char *s, int *cols);
/* Columns of the first n bytes of s (NULL: 0), and of the whole of s. */
int wtg_text_width_n(const char *s, size_t n);
int wtg_text_width(const char *s);
/* The next line of s in at most width columns: its length in bytes, breaking at a space; a line
 * break in s ends the line. A word wider than the line is cut when cut is set, else it takes the
 * line alone and overflows it. *next is where the following line starts (the spaces at the break
 * and one line break skipped); the text is done when **next is '\0'. */
size_t wtg_wrap_next(const char *s, int width, bool cut, const char **next);

/* The device interrupts in a /proc/interrupts text, per CPU: the numbered lines' counts (not LOC,
 * RES and the other per-CPU kinds) added up into counts[n] for the column the header names "CPUn",
 * n < max (other CPUs are left out). Returns the number of CPU columns, or -1 when the text has no
 * "CPUn" header. */
int wtg_irq_per_cpu(const char *text, uint64_t *counts, int max);

/* The one way wtg reads a file of the machine (sysfs, /proc, os-release), whatever sits at path:
 * opened without blocking (O_NONBLOCK, so a FIFO put there never hangs the open), read only when
 * fstat says a regular file, and at most len - 1 bytes (len at most WTG_READ_SMALL_MAX) in a
 * bounded loop; buf always ends with a NUL. Returns the bytes read, or -1 (nothing readable). */
#define WTG_READ_SMALL_MAX (64u << 10)
long wtg_read_small(const char *path, char *buf, size_t len);
/* wtg_read_small's first line (the newline cut), "" when unreadable. */
void wtg_read_line(const char *path, char *buf, size_t len);

/* The whole of a text file (a /proc file whose size stat cannot tell) as a NUL-terminated string
 * to free(), or NULL when it cannot be read: opened as wtg_read_small opens, at most
 * WTG_READ_TEXT_MAX bytes. */
#define WTG_READ_TEXT_MAX (64u << 20)
char *wtg_read_text(const char *path);

/* In a /proc/PID/smaps text, the AnonHugePages of the mapping holding addr, in bytes: how much of
 * it the kernel backs with transparent huge pages. -1 when no mapping holds addr or it has no such
 * line. */
int64_t wtg_smaps_huge(const char *text, uintptr_t addr);

/* Program-wide sink so the compiler cannot remove measured work. */
extern volatile uint64_t wtg_sink;

#endif
