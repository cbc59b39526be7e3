/* test_util.c: size parsing, formatting, and escaping for error lines. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "unit.h"
#include "wtg/util.h"

static uint64_t size_of(const char *s)
{
	uint64_t v = 0;
	return wtg_parse_size(s, &v) == 0 ? v : 0;
}

/* Every line wtg_wrap_next gives for s in width, joined with '|'. */
static void wrap_all(char *out, size_t len, const char *s, int width, bool cut)
{
	size_t o = 0;
	out[0] = '\0';
	for (int guard = 0; *s && guard < 100; guard++) {
		const char *next;
		size_t n = wtg_wrap_next(s, width, cut, &next);
		o += (size_t)snprintf(out + o, len - o, "%s%.*s", o ? "|" : "", (int)n, s);
		if (o >= len || next == s)
			break;
		s = next;
	}
}

/* Widths and wrapping shared by the text report and the dashboard. */
static void test_text_width_wrap(void)
{
	CHECK(wtg_text_width("") == 0);
	CHECK(wtg_text_width(NULL) == 0);
	CHECK(wtg_text_width("abc") == 3);
	CHECK(wtg_text_width("12 \xc2\xb5s") == 5);		/* "12 µs": one column for µ in any locale */
	CHECK(wtg_text_width_n("\xc2\xb5s", 2) == 1);
	CHECK(wtg_text_width("\xff") == 4);			/* not UTF-8: drawn as its escape \xff */
	CHECK(wtg_text_width("a\033b") == 4);			/* ESC drawn as \e */
	CHECK(wtg_text_width("\xc2\x9b") == 8);		/* the C1 CSI: \xc2\x9b */
	CHECK(wtg_text_width("a\\b\tc") == 5);		/* a backslash and a tab as they are */
	CHECK(wtg_utf8_len((const unsigned char *)"\xe2\x9c\x93") == 3);
	CHECK(wtg_utf8_len((const unsigned char *)"\xc0\x80") == 0);	/* overlong */
	char out[256];
	wrap_all(out, sizeof out, "the quick brown fox", 9, false);
	CHECK_STR(out, "the quick|brown fox");
	wrap_all(out, sizeof out, "ab cd", 4, false);
	CHECK_STR(out, "ab|cd");
	wrap_all(out, sizeof out, "a\nb c", 10, false);
	CHECK_STR(out, "a|b c");
	wrap_all(out, sizeof out, "abcdefgh ij", 4, false);	/* a long word overflows its line */
	CHECK_STR(out, "abcdefgh|ij");
	wrap_all(out, sizeof out, "abcdefgh ij", 4, true);	/* or is cut */
	CHECK_STR(out, "abcd|efgh|ij");
	wrap_all(out, sizeof out, "x   ", 10, false);		/* no trailing blanks */
	CHECK_STR(out, "x");
	const char *next;
	CHECK(wtg_wrap_next("", 5, true, &next) == 0 && *next == '\0');
}

/* /proc/interrupts: the numbered lines' counts added per CPU; LOC and the other kinds left out. */
static void test_irq_per_cpu(void)
{
	const char *vm =
		"           CPU0       CPU1       \n"
		"  0:         43          0   IO-APIC   2-edge      timer\n"
		" 36:          0   23562488  PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n"
		" 32:       9830          0  PCI-MSIX-0000:00:01.0   4-edge      virtio0-reporting_vq\n"
		"NMI:          0          0   Non-maskable interrupts\n"
		"LOC:    4471523    4301833   Local timer interrupts\n"
		"ERR:          0\n"
		"MIS:          0\n";
	uint64_t c[4];
	CHECK(wtg_irq_per_cpu(vm, c, 4) == 2);
	CHECK(c[0] == 43 + 9830 && c[1] == 23562488);
	CHECK(c[2] == 0 && c[3] == 0);
	/* more CPUs than room: the first max counted, the header's count returned */
	const char *four = "      CPU0 CPU1 CPU2 CPU3\n 9: 1 2 3 4 x 9-fasteoi acpi\n10: 10 20 30 40 y\n";
	CHECK(wtg_irq_per_cpu(four, c, 2) == 4);
	CHECK(c[0] == 11 && c[1] == 22);
	/* a short line stops at its last count; an offline CPU has no column: counts go by the name */
	CHECK(wtg_irq_per_cpu("  CPU0 CPU2\n 5: 7\n 6: 1 2 z\n", c, 4) == 2);
	CHECK(c[0] == 8 && c[1] == 0 && c[2] == 2);
	CHECK(wtg_irq_per_cpu("", c, 4) == -1);
	CHECK(wtg_irq_per_cpu("no header here\n 1: 5 6\n", c, 4) == -1);
	CHECK(c[0] == 0 && c[1] == 0);
}

/* /proc/self/smaps: the AnonHugePages line of the mapping holding the address, in bytes. */
static void test_smaps_huge(void)
{
	const char *smaps =
		"55d0c0000000-55d0c0021000 r-xp 00000000 08:01 1234                       /usr/bin/wtg\n"
		"Size:                132 kB\n"
		"AnonHugePages:          0 kB\n"
		"VmFlags: rd ex mr mw me sd\n"
		"7f2a40000000-7f2a41000000 rw-p 00000000 00:00 0 \n"
		"Size:              16384 kB\n"
		"Anonymous:         16384 kB\n"
		"AnonHugePages:     14336 kB\n"
		"FilePmdMapped:         0 kB\n"
		"VmFlags: rd wr mr mw me ac sd hg\n"
		"7ffd1000a000-7ffd1002b000 rw-p 00000000 00:00 0                          [stack]\n"
		"Size:                132 kB\n";
	CHECK(wtg_smaps_huge(smaps, 0x7f2a40000000u) == 14336ll * 1024);
	CHECK(wtg_smaps_huge(smaps, 0x7f2a40ffffffu) == 14336ll * 1024);
	/* the end address belongs to the next mapping: none here */
	CHECK(wtg_smaps_huge(smaps, 0x7f2a41000000u) == -1);
	CHECK(wtg_smaps_huge(smaps, 0x55d0c0000100u) == 0);
	/* a mapping without the line (an older kernel) and an address no mapping holds */
	CHECK(wtg_smaps_huge(smaps, 0x7ffd1000a000u) == -1);
	CHECK(wtg_smaps_huge(smaps, 0x1000u) == -1);
	CHECK(wtg_smaps_huge("", 0x1000u) == -1);
	/* this process's own: a stack address is in a mapping the kernel reports */
	char *text = wtg_read_text("/proc/self/smaps");
	int here;
	CHECK(text != NULL);
	if (text)
		CHECK(wtg_smaps_huge(text, (uintptr_t)&here) >= 0);
	free(text);
	CHECK(wtg_read_text("/nonexistent/wtg-test") == NULL);
	/* a text longer than the first 64 KiB read is read whole */
	char path[] = "/tmp/wtg-test-text-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd >= 0) {
		static char big[200000];
		memset(big, 'x', sizeof big - 1);
		big[sizeof big - 2] = 'y';
		CHECK(write(fd, big, sizeof big - 1) == (ssize_t)(sizeof big - 1));
		close(fd);
		text = wtg_read_text(path);
		unlink(path);
		CHECK(text && strlen(text) == sizeof big - 1 && text[sizeof big - 2] == 'y');
		free(text);
	}
}

/* The one escaping rule, whole: the copy, the stream, the check --label uses, the screen's escape. */
static int test_escape_whole(void)
{
	char big[3000];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	big[1000] = '\033';
	char *d = wtg_escape_dup(big);
	CHECK(d != NULL && strlen(d) == sizeof big - 1 + 1);	/* nothing cut: ESC is two bytes */
	CHECK(d != NULL && strncmp(d + 1000, "\\ea", 3) == 0);
	free(d);
	d = wtg_escape_dup("host\r\n\xc2\x85x\\");
	CHECK_STR(d, "host\\r\\n\\xc2\\x85x\\\\");
	free(d);
	d = wtg_escape_dup(NULL);
	CHECK_STR(d, "");
	free(d);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	wtg_escape_put(f, "a\033[2Jb\xc2\x9b\a");
	fclose(f);
	CHECK_STR(buf, "a\\e[2Jb\\xc2\\x9b\\x07");
	free(buf);
	CHECK(wtg_text_inert("quiet run \xc3\xa9 \\ 1"));
	CHECK(!wtg_text_inert("a\033b"));
	CHECK(!wtg_text_inert("a\tb"));
	CHECK(!wtg_text_inert("a\x9b" "b"));
	CHECK(!wtg_text_inert("a\xc2\x9b"));
	CHECK(!wtg_text_inert("a\x7f"));
	char e[4];
	CHECK(wtg_text_escaped("\033", e) == 2 && memcmp(e, "\\e", 2) == 0);
	CHECK(wtg_text_escaped("\xc2\x9b", e) == 4 && memcmp(e, "\\xc2", 4) == 0);
	CHECK(wtg_text_escaped("\\", e) == 0 && wtg_text_escaped("\t", e) == 0 && wtg_text_escaped("\xc3\xa9", e) == 0);
	return 0;
}

/* wtg_read_small: a regular file, capped; a FIFO, a folder and a device are not read (and a FIFO
 * with no writer does not block the open). */
static void test_read_small(void)
{
	char dir[] = "/tmp/wtg-unit-read-XXXXXX", path[128], buf[16];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof path, "%s/file", dir);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs("0-191\nsecond line that is long\n", f);
		fclose(f);
	}
	CHECK(wtg_read_small(path, buf, sizeof buf) == 15);
	CHECK_STR(buf, "0-191\nsecond li");
	wtg_read_line(path, buf, sizeof buf);
	CHECK_STR(buf, "0-191");
	unlink(path);
	CHECK(mkfifo(path, 0600) == 0);
	strcpy(buf, "old");
	CHECK(wtg_read_small(path, buf, sizeof buf) == -1 && buf[0] == '\0');
	wtg_read_line(path, buf, sizeof buf);
	CHECK_STR(buf, "");
	CHECK(wtg_read_text(path) == NULL);
	unlink(path);
	CHECK(wtg_read_small(dir, buf, sizeof buf) == -1);
	CHECK(wtg_read_small("/dev/zero", buf, sizeof buf) == -1);
	CHECK(wtg_read_text("/dev/zero") == NULL);
	CHECK(wtg_read_small(path, buf, sizeof buf) == -1);	/* gone */
	rmdir(dir);
}

int main(void)
{
	test_read_small();
	test_text_width_wrap();
	test_irq_per_cpu();
	test_smaps_huge();
	CHECK(size_of("1") == 1);
	CHECK(size_of("4096") == 4096);
	CHECK(size_of("4K") == 4096);
	CHECK(size_of("4k") == 4096);
	CHECK(size_of("256M") == 256ull << 20);
	CHECK(size_of("256MiB") == 256ull << 20);
	CHECK(size_of("256MB") == 256ull << 20);
	CHECK(size_of("1G") == 1ull << 30);
	CHECK(size_of("2T") == 2ull << 40);
	uint64_t v;
	CHECK(wtg_parse_size("", &v) < 0);
	CHECK(wtg_parse_size("M", &v) < 0);
	CHECK(wtg_parse_size("-1M", &v) < 0);
	CHECK(wtg_parse_size(" 1M", &v) < 0);
	CHECK(wtg_parse_size("0", &v) < 0);
	CHECK(wtg_parse_size("1.5M", &v) < 0);
	CHECK(wtg_parse_size("12X", &v) < 0);
	CHECK(wtg_parse_size("1MM", &v) < 0);
	CHECK(wtg_parse_size("99999999999999999999", &v) < 0);
	CHECK(wtg_parse_size("17179869184G", &v) < 0); /* 2^34 G overflows 64 bits */

	char buf[32];
	wtg_fmt_size(buf, sizeof buf, 16);
	CHECK_STR(buf, "16B");
	wtg_fmt_size(buf, sizeof buf, 4096);
	CHECK_STR(buf, "4K");
	wtg_fmt_size(buf, sizeof buf, 256 << 10);
	CHECK_STR(buf, "256K");
	wtg_fmt_size(buf, sizeof buf, 16 << 20);
	CHECK_STR(buf, "16M");
	wtg_fmt_size(buf, sizeof buf, 3 << 29);
	CHECK_STR(buf, "1.5G");
	wtg_fmt_thousands(buf, sizeof buf, 34216613807LL);
	CHECK_STR(buf, "34,216,613,807");
	wtg_fmt_thousands(buf, sizeof buf, -1000);
	CHECK_STR(buf, "-1,000");
	wtg_fmt_thousands(buf, sizeof buf, 999);
	CHECK_STR(buf, "999");
	wtg_fmt_duration(buf, sizeof buf, 850);
	CHECK_STR(buf, "850.0 ns");
	wtg_fmt_duration(buf, sizeof buf, 12345);
	CHECK_STR(buf, "12.3 us");
	wtg_fmt_duration(buf, sizeof buf, 4.56e6);
	CHECK_STR(buf, "4.6 ms");
	wtg_fmt_duration(buf, sizeof buf, 1.234e9);
	CHECK_STR(buf, "1.23 s");
	/* escaping: controls, backslash, invalid UTF-8 and C1 controls escaped; UTF-8 text kept */
	char esc[64];
	wtg_escape(esc, sizeof esc, "plain/path-1.dat");
	CHECK_STR(esc, "plain/path-1.dat");
	wtg_escape(esc, sizeof esc, "a\nb\tc\rd\033[31me");
	CHECK_STR(esc, "a\\nb\\tc\\rd\\e[31me");
	wtg_escape(esc, sizeof esc, "x\\y\x01\x7f");
	CHECK_STR(esc, "x\\\\y\\x01\\x7f");
	wtg_escape(esc, sizeof esc, "caf\xc3\xa9 \xe2\x80\xa6 \xf0\x9f\x98\x80");
	CHECK_STR(esc, "caf\xc3\xa9 \xe2\x80\xa6 \xf0\x9f\x98\x80");
	wtg_escape(esc, sizeof esc, "\xc2\x9b" "1m \xff \xc3 \xe0\x80\x80 \xed\xa0\x80");
	CHECK_STR(esc, "\\xc2\\x9b" "1m \\xff \\xc3 \\xe0\\x80\\x80 \\xed\\xa0\\x80");
	wtg_escape(esc, 6, "ab\ncd");	/* room for "ab\\n" and the terminator, not half of "\\n" */
	CHECK_STR(esc, "ab\\nc");
	wtg_escape(esc, 4, "ab\ncd");
	CHECK_STR(esc, "ab");
	wtg_escape(esc, 3, "\xc3\xa9\xc3\xa9");	/* never half a character */
	CHECK_STR(esc, "\xc3\xa9");
	/* BEL, OSC and CSI spellings, DEL, a lone 0x9B byte, a cut UTF-8 sequence at the end */
	wtg_escape(esc, sizeof esc, "\a\033]0;t\a\x9b" "2J\x7f\xe2\x80");
	CHECK_STR(esc, "\\x07\\e]0;t\\x07\\x9b" "2J\\x7f\\xe2\\x80");
	test_escape_whole();

	return unit_done("test_util");
}
