/* test_faulttrace.c: how faultbase's trace charges a fault to a mapping (wtg_ftrace_bucket), on map
 * records as the kernel writes them for a dynamically linked program: the program's text and data
 * (its .bss the anonymous mapping after its data), each library by name (its .bss too), the brk
 * heap (named "//anon" by perf), the stack, the vDSO, setlocale's files, the data file by device
 * and inode, a later mapping over an earlier one, and a fault before its mapping existed. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "unit.h"
#include "wtg/faulttrace.h"
#include "wtg/testhooks.h"

static struct wtg_ftrace_map maps[32];
static int nmaps;

static void map(uint64_t start, uint64_t end, uint64_t off, uint32_t prot, uint64_t ino, const char *name,
		uint64_t time)
{
	struct wtg_ftrace_map *m = &maps[nmaps++];
	memset(m, 0, sizeof *m);
	m->start = start;
	m->end = end;
	m->pgoff = off;
	m->prot = prot;
	m->ino = ino;
	m->dev_major = ino ? 254 : 0;
	m->dev_minor = ino ? 1 : 0;
	m->time = time;
	snprintf(m->name, sizeof m->name, "%s", name);
}

static struct wtg_ftrace ft;
static const struct wtg_ftrace_names nm = { 254, 1, 100, 254, 1, 900 };

static const char *at(uint64_t addr, uint64_t time, uint64_t *off)
{
	static char buf[64];
	struct wtg_ftrace_fault f = { .time = time, .addr = addr, .ip = addr, .major = false };
	uint64_t o;
	const char *b = wtg_ftrace_bucket(&ft, &nm, &f, buf, sizeof buf, off ? off : &o);
	return b;
}

int main(void)
{
	const uint32_t R = PROT_READ, RW = PROT_READ | PROT_WRITE, RX = PROT_READ | PROT_EXEC;
	map(0x7ffff0000000, 0x7ffff0008000, 0, RW, 0, "[stack]", 1);
	map(0x555500000000, 0x555500900000, 0, R, 100, "/opt/wtg/bin/wtg", 2);	/* the reservation */
	map(0x555500010000, 0x555500080000, 0x10000, RX, 100, "/opt/wtg/bin/wtg", 3);
	map(0x5555000a0000, 0x5555000b0000, 0xa0000, RW, 100, "/opt/wtg/bin/wtg", 4);
	map(0x5555000b0000, 0x555500900000, 0, RW, 0, "//anon", 5);			/* its .bss */
	map(0x7f0000000000, 0x7f0000030000, 0, R, 200, "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", 6);
	map(0x7f0000001000, 0x7f0000026000, 0x1000, RX, 200, "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", 7);
	map(0x7effff000000, 0x7effff002000, 0, RX, 0, "[vdso]", 8);
	map(0x7efffe000000, 0x7efffe100000, 0, R, 300, "/usr/lib/x86_64-linux-gnu/libc.so.6", 9);
	map(0x7efffe0f0000, 0x7efffe0f8000, 0xf0000, RW, 300, "/usr/lib/x86_64-linux-gnu/libc.so.6", 10);
	map(0x7efffe0f8000, 0x7efffe100000, 0, RW, 0, "//anon", 11);			/* libc's .bss */
	map(0x555510000000, 0x555510021000, 0, RW, 0, "//anon", 12);			/* brk */
	map(0x7efffd000000, 0x7efffd001000, 0, R, 400, "/usr/lib/locale/C.utf8/LC_NAME", 13);
	map(0x7efffd001000, 0x7efffd003000, 0, RW, 0, "//anon", 10);	/* below it before it: not its .bss */
	map(0x7efff0000000, 0x7efff4000000, 0, R, 900, "/var/tmp/wtg-x.dat", 14);
	map(0x7efffc000000, 0x7efffc001000, 0, RW, 0, "//anon", 15);
	map(0x7efffc000000, 0x7efffc001000, 0x3000, R, 300, "/usr/lib/x86_64-linux-gnu/libc.so.6", 16);
	ft.maps = maps;
	ft.nmaps = (size_t)nmaps;
	uint64_t off;
	CHECK_STR(at(0x555500012345, 100, &off), "wtg text");
	CHECK(off == 0x12000);
	CHECK_STR(at(0x5555000a1000, 100, NULL), "wtg data");
	CHECK_STR(at(0x5555000c0000, 100, NULL), "wtg data");	/* .bss */
	CHECK_STR(at(0x7f0000002000, 100, &off), "ld-linux-x86-64.so.2");
	CHECK(off == 0x2000);
	CHECK_STR(at(0x7effff000100, 100, NULL), "vDSO");
	CHECK_STR(at(0x7efffe0f1000, 100, NULL), "libc.so.6");
	CHECK_STR(at(0x7efffe0f9000, 100, NULL), "libc.so.6");	/* .bss */
	CHECK_STR(at(0x555510001000, 100, NULL), "heap");
	CHECK_STR(at(0x7efffd000000, 100, NULL), "locale data");
	CHECK_STR(at(0x7efffd001000, 100, NULL), "anonymous");
	CHECK_STR(at(0x7efff0005000, 100, &off), "data file");
	CHECK(off == 0x5000);
	CHECK_STR(at(0x7ffff0007000, 100, NULL), "stack");
	CHECK_STR(at(0x7ffff0009000, 100, NULL), "stack");	/* grown above every mapping made */
	CHECK_STR(at(0x7efffc000800, 100, NULL), "libc.so.6");	/* the later mapping over the same pages */
	CHECK_STR(at(0x7efffc000800, 15, NULL), "anonymous");	/* before it was replaced */
	CHECK_STR(at(0x555510001000, 11, NULL), "unmapped");	/* before the heap existed */
	CHECK_STR(at(0x1000, 100, NULL), "unmapped");
	/* no events: the reason in one line */
	setenv("WTG_TEST_NO_PERF", "1", 1);
	wtg_testhooks_read();
	struct wtg_ftrace t;
	CHECK(!wtg_ftrace_open(&t, 1, 100));
	CHECK(strncmp(t.why, "no fault trace: perf_event_open is not allowed for this user", 60) == 0 && !strchr(t.why, '\n'));
	setenv("WTG_TEST_NO_PERF", "ENOSYS", 1);
	wtg_testhooks_read();
	CHECK(!wtg_ftrace_open(&t, 1, 100));
	CHECK(strncmp(t.why, "no fault trace: this kernel has no perf events", 46) == 0);
	wtg_ftrace_free(&t);
	return unit_done("test_faulttrace");
}
