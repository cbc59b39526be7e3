/* test_whyhere.c: "why here" picks the reason that holds. From tables built by hand and machine
 * records made up here (never a measurement): syscall far above the essay's 89 ns on a virtual
 * machine with page-table isolation names both, on bare metal with PTI names PTI, with neither says
 * nothing; a median rising at batch 10,000 names its contended batches; pagecache's slow warm mmap
 * gives the cost of each fault from the table's own numbers; wss names its fastest and slowest sizes
 * when it is not flat; bytewise and valley name page-table isolation as syscall does; mmap counts the
 * pages a fault maps; passes names its major faults, threads its CPUs, tail its run-queue wait, clock
 * its clocksource; figures that agree with the essay give no line; a hostile hypervisor name is
 * escaped. The glossary: every term a tab lists is in it, each fits one line at 80 columns. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "wtg/experiment.h"
#include "wtg/glossary.h"
#include "wtg/machine.h"
#include "wtg/table.h"
#include "wtg/util.h"
#include "wtg/whyhere.h"

static const struct wtg_experiment *exp_of(const char *name)
{
	int i = wtg_experiment_find(name);
	return i >= 0 ? wtg_experiments[i] : NULL;
}

/* A machine record: virt "" (bare metal) or a hypervisor's name; meltdown's status line. */
static void machine(struct wtg_machine *m, const char *virt, const char *meltdown)
{
	memset(m, 0, sizeof *m);
	wtg_strlcpy(m->virtualization, virt[0] ? virt : "none", sizeof m->virtualization);
	m->hypervisor = virt[0] != '\0';
	m->nmitigations = 2;
	wtg_strlcpy(m->mitigations[0].name, "mds", sizeof m->mitigations[0].name);
	wtg_strlcpy(m->mitigations[0].status, "Not affected", sizeof m->mitigations[0].status);
	wtg_strlcpy(m->mitigations[1].name, "meltdown", sizeof m->mitigations[1].name);
	wtg_strlcpy(m->mitigations[1].status, meltdown, sizeof m->mitigations[1].status);
}

/* syscall's rows: median ns per call at batch 1 .. 10000 (mid at 1000, big at 10000), busy contended
 * batches of 200 at 10000 (-1: no contended column, as in a file saved before it). */
static void syscall_table(struct wtg_table *t, double mid, double big, int busy)
{
	static const struct wtg_column cols[] = {
		{ "batch", "count", WTG_T_INT, 0 }, { "batches", "count", WTG_T_INT, 0 },
		{ "median_ns", "ns", WTG_T_REAL, 1 }, { "contended", "count", WTG_T_INT, 0 },
	};
	wtg_table_init(t, exp_of("syscall"));
	wtg_table_set_columns(t, cols, busy < 0 ? 3 : 4);
	const int batch[] = { 1, 10, 100, 1000, 10000 };
	for (int i = 0; i < 5; i++) {
		struct wtg_value v[4] = { WTG_INT(batch[i]), WTG_INT(200), WTG_REAL(i == 4 ? big : mid),
					  WTG_INT(i == 4 && busy > 0 ? busy : 0) };
		wtg_table_add_row(t, v, busy < 0 ? 3 : 4, NULL);
	}
}

static void why(const char *name, const struct wtg_table *t, const struct wtg_machine *m, char *buf, size_t len)
{
	int n = wtg_why_here(exp_of(name), t, m, buf, len);
	CHECK(n == (int)strlen(buf));
}

/* Why here on name's table t and machine m is want; t is freed. */
static void says(const char *name, struct wtg_table *t, const struct wtg_machine *m, const char *want)
{
	char buf[256];
	why(name, t, m, buf, sizeof buf);
	CHECK_STR(buf, want);
	wtg_table_free(t);
}

/* What why here says on syscall's table (mid, big, busy as syscall_table takes them) on machine m. */
static void syscall_says(double mid, double big, int busy, const struct wtg_machine *m, const char *want)
{
	struct wtg_table t;
	syscall_table(&t, mid, big, busy);
	says("syscall", &t, m, want);
}

static void test_syscall(void)
{
	struct wtg_machine m;
	/* 1113 ns against the essay's 89: 12.5x */
	machine(&m, "bhyve", "Mitigation: PTI");
	syscall_says(1113, 1100, 0, &m, "13x the essay's: page-table isolation on a bhyve virtual machine");
	machine(&m, "", "Mitigation: PTI");
	syscall_says(1113, 1100, 0, &m, "13x the essay's: page-table isolation (PTI) on every crossing");
	/* a virtual machine without PTI, or bare metal: wtg read nothing that explains it, says nothing */
	machine(&m, "kvm", "Not affected");
	syscall_says(1113, 1100, 0, &m, "");
	syscall_says(1113, 1100, 0, NULL, "");

	/* close to the essay, flat: no line, whatever the machine */
	machine(&m, "bhyve", "Mitigation: PTI");
	syscall_says(95, 93, 0, &m, "");
	/* the median rises at batch 10,000 with contended batches: the other way from the essay's */
	syscall_says(95, 300, 37, &m, "median x3.2 at batch 10,000: 37 of 200 batches waited for a CPU");
	/* ... without contended batches, or from a file without the column: wtg cannot say why */
	syscall_says(95, 300, 0, &m, "");
	syscall_says(95, 300, -1, &m, "");
	/* the headline's reason comes first when both hold */
	syscall_says(1113, 16150, 37, &m, "13x the essay's: page-table isolation on a bhyve virtual machine");

	/* a hypervisor's name read from a saved file reaches the screen escaped */
	struct wtg_table t;
	char buf[256];
	syscall_table(&t, 1113, 1100, 0);
	machine(&m, "kvm\x1b[2J", "Mitigation: PTI");
	why("syscall", &t, &m, buf, sizeof buf);
	CHECK(strchr(buf, '\x1b') == NULL);
	CHECK(strstr(buf, "kvm\\e[2J") != NULL);
	wtg_table_free(&t);

	/* no rows yet: nothing */
	wtg_table_init(&t, exp_of("syscall"));
	why("syscall", &t, &m, buf, sizeof buf);
	CHECK_STR(buf, "");
	wtg_table_free(&t);
}

/* pagecache's rows: cold and warm, read and mmap, with GB/s, ms and faults. */
static void pagecache_table(struct wtg_table *t, double warm_read_gbps, double warm_read_ms, double mmap_gbps,
			    double mmap_ms, int faults)
{
	static const struct wtg_column cols[] = {
		{ "pass", "", WTG_T_TEXT, 0 }, { "ms", "ms", WTG_T_REAL, 2 }, { "gbps", "GB/s", WTG_T_REAL, 2 },
		{ "minflt", "count", WTG_T_INT, 0 }, { "majflt", "count", WTG_T_INT, 0 }, { "method", "", WTG_T_TEXT, 0 },
	};
	wtg_table_init(t, exp_of("pagecache"));
	wtg_table_set_columns(t, cols, 6);
	const struct wtg_value rows[4][6] = {
		{ WTG_TEXT("cold"), WTG_REAL(86.4), WTG_REAL(0.194), WTG_INT(0), WTG_INT(0), WTG_TEXT("read 1 MiB") },
		{ WTG_TEXT("warm"), WTG_REAL(warm_read_ms), WTG_REAL(warm_read_gbps), WTG_INT(0), WTG_INT(0),
		  WTG_TEXT("read 1 MiB") },
		{ WTG_TEXT("cold"), WTG_REAL(185.2), WTG_REAL(0.091), WTG_INT(255), WTG_INT(1), WTG_TEXT("mmap") },
		{ WTG_TEXT("warm"), WTG_REAL(mmap_ms), WTG_REAL(mmap_gbps), WTG_INT(faults), WTG_INT(0),
		  WTG_TEXT("mmap") },
	};
	for (int i = 0; i < 4; i++)
		wtg_table_add_row(t, rows[i], 6, NULL);
}

static void test_pagecache(void)
{
	struct wtg_table t;
	struct wtg_machine m;
	char buf[256];
	machine(&m, "", "Not affected");
	/* warm read 1.52 GB/s in 11.05 ms, warm mmap 0.094 GB/s in 179 ms with 256 faults: 656 us each */
	pagecache_table(&t, 1.52, 11.05, 0.094, 179.0, 256);
	why("pagecache", &t, &m, buf, sizeof buf);
	CHECK_STR(buf, "warm mmap 0.094 GB/s, read 1.5: each of 256 faults costs 656 us");
	wtg_table_free(&t);
	/* the mapped pass keeps pace with the read, cold 7.8x slower than warm (the essay's 9x): no line */
	pagecache_table(&t, 1.52, 11.05, 1.2, 14.0, 256);
	why("pagecache", &t, &m, buf, sizeof buf);
	CHECK_STR(buf, "");
	/* cold barely slower than warm (1.3x against the essay's 9x) on a virtual machine: its host */
	wtg_table_free(&t);
	pagecache_table(&t, 0.25, 67.0, 0.2, 80.0, 256);
	machine(&m, "kvm", "Not affected");
	why("pagecache", &t, &m, buf, sizeof buf);
	CHECK_STR(buf, "warm only 1.3x cold: the kvm host may still cache this disk");
	wtg_table_free(&t);
}

/* wss's rows: GB/s at each working set from 16K (x4 each), with the cache level the run placed it in
 * when levels is set. */
static void wss_table(struct wtg_table *t, const double *gbps, int n, bool levels)
{
	static const struct wtg_column cols[] = { { "wss", "B", WTG_T_INT, 0 }, { "gbps", "GB/s", WTG_T_REAL, 2 },
						  { "level", "", WTG_T_TEXT, 0 } };
	static const char *const level[] = { "L1", "L2", "L2", "L3", "L3", "DRAM", "DRAM" };
	wtg_table_init(t, exp_of("wss"));
	wtg_table_set_columns(t, cols, levels ? 3 : 2);
	for (int i = 0; i < n; i++) {
		struct wtg_value v[3] = { WTG_INT((16 << 10) << (2 * i)), WTG_REAL(gbps[i]), WTG_TEXT(level[i % 7]) };
		wtg_table_add_row(t, v, levels ? 3 : 2, NULL);
	}
}

static void test_wss(void)
{
	struct wtg_table t;
	struct wtg_machine m;
	char buf[256];
	machine(&m, "bhyve", "Mitigation: PTI");
	/* 16K 64K 256K 1M 4M 16M 64M */
	const double steep[] = { 439.8, 171.7, 172.6, 98.7, 84.9, 30.0, 8.6 };
	wss_table(&t, steep, 7, false);
	why("wss", &t, &m, buf, sizeof buf);
	CHECK_STR(buf, "not core-bound: 440 GB/s at 16K, 8.6 at 64M");
	wtg_table_free(&t);
	wss_table(&t, steep, 7, true);
	why("wss", &t, &m, buf, sizeof buf);
	CHECK_STR(buf, "not core-bound: 440 GB/s at 16K (L1), 8.6 at 64M (DRAM)");
	wtg_table_free(&t);
	const double flat[] = { 17.5, 17.2, 16.9, 17.0, 16.8, 16.9, 16.7 };
	wss_table(&t, flat, 7, true);
	why("wss", &t, &m, buf, sizeof buf);
	CHECK_STR(buf, "");
	wtg_table_free(&t);
	const double fast[] = { 70, 66, 68, 65, 64, 62, 60 };
	wss_table(&t, fast, 7, true);
	why("wss", &t, &m, buf, sizeof buf);
	CHECK_STR(buf, "flat, so core-bound as in the essay, at 3.5x its speed");
	wtg_table_free(&t);
	/* three loops: the line is the simd sum's own ends, never its fastest against the slow scalar
	 * loop's 1.8 GB/s at the other end */
	static const struct wtg_column kc[] = { { "wss", "B", WTG_T_INT, 0 }, { "gbps", "GB/s", WTG_T_REAL, 2 },
						{ "level", "", WTG_T_TEXT, 0 }, { "kernel", "", WTG_T_TEXT, 0 } };
	wtg_table_init(&t, exp_of("wss"));
	wtg_table_set_columns(&t, kc, 4);
	const struct wtg_value rows[][4] = {
		{ WTG_INT(32 << 10), WTG_REAL(1.9), WTG_TEXT("L1"), WTG_TEXT("scalar") },
		{ WTG_INT(32 << 10), WTG_REAL(321.0), WTG_TEXT("L1"), WTG_TEXT("simd") },
		{ WTG_INT((int64_t)2048 << 20), WTG_REAL(1.8), WTG_TEXT("DRAM"), WTG_TEXT("scalar") },
		{ WTG_INT((int64_t)2048 << 20), WTG_REAL(23.8), WTG_TEXT("DRAM"), WTG_TEXT("simd") },
	};
	for (int i = 0; i < 4; i++)
		wtg_table_add_row(&t, rows[i], 4, NULL);
	why("wss", &t, &m, buf, sizeof buf);
	CHECK_STR(buf, "not core-bound: 321 GB/s at 32K (L1), 24 at 2G (DRAM)");
	wtg_table_free(&t);
}

/* What why here says on zerofill's table: ns per fault (the headline's series), faults per page and
 * page size, on machine m. */
static void zerofill_says(double ns, double fpp, double page, const struct wtg_machine *m, const char *want)
{
	static const struct wtg_column cols[] = {
		{ "pages", "count", WTG_T_INT, 0 }, { "ns_per_fault", "ns", WTG_T_REAL, 1 },
		{ "faults_per_page", "", WTG_T_REAL, 3 }, { "page_size", "B", WTG_T_INT, 0 },
	};
	struct wtg_table t;
	wtg_table_init(&t, exp_of("zerofill"));
	wtg_table_set_columns(&t, cols, 4);
	const double samples[] = { ns * 0.9, ns, ns * 1.1 };
	for (int i = 0; i < 3; i++) {
		struct wtg_value v[4] = { WTG_INT(16384), WTG_REAL(samples[i]), WTG_REAL(fpp), WTG_INT(page) };
		wtg_table_add_row(&t, v, 4, NULL);
	}
	wtg_table_add_series(&t, "ns per fault", "ns", samples, 3);
	says("zerofill", &t, m, want);
}

static void test_zerofill(void)
{
	struct wtg_machine m;
	machine(&m, "bhyve", "Mitigation: PTI");
	/* the essay's 1,280 ns a fault with 16 KiB pages */
	zerofill_says(225000, 1, 4096, &m, "176x the essay's: on a bhyve virtual machine the host may fault too");
	zerofill_says(1500, 1, 4096, &m, "");
	zerofill_says(200000, 1.0 / 512, 4096, &m, "156x the essay's: huge pages, one fault zeroes 512 pages");
	machine(&m, "", "Not affected");
	zerofill_says(300, 1, 4096, &m, "4.3x faster than the essay's: 4K pages to zero, not 16K");
	zerofill_says(225000, 1, 4096, &m, "");
}

/* A table of experiment name with columns cols and rows of values, built here. */
static void table_of(struct wtg_table *t, const char *name, const struct wtg_column *cols, int ncols,
		     const struct wtg_value *rows, int nrows)
{
	wtg_table_init(t, exp_of(name));
	wtg_table_set_columns(t, cols, ncols);
	for (int r = 0; r < nrows; r++)
		wtg_table_add_row(t, rows + r * ncols, ncols, NULL);
}

/* Why here on such a table of name, on machine m, is want. */
static void says_on(const char *name, const struct wtg_column *cols, int ncols, const struct wtg_value *rows,
		    int nrows, const struct wtg_machine *m, const char *want)
{
	struct wtg_table t;
	table_of(&t, name, cols, ncols, rows, nrows);
	says(name, &t, m, want);
}

/* bytewise's byte per read() and valley's 16-byte reads: a crossing each, against the essay's 313 and
 * 312 ns, the reasons syscall's are. */
static void test_crossing(void)
{
	static const struct wtg_column bcols[] = { { "variant", "", WTG_T_TEXT, 0 }, { "bytes", "B", WTG_T_INT, 0 },
						   { "ms", "ms", WTG_T_REAL, 2 } };
	static const struct wtg_column vcols[] = { { "bufsize", "B", WTG_T_INT, 0 },
						   { "ns_per_call", "ns", WTG_T_REAL, 1 } };
	struct wtg_machine m;
	/* 1 MiB a byte per read() in 1488 ms: 1,419 ns a byte, 4.5x the essay's 313 */
	const struct wtg_value slow[] = { WTG_TEXT("64K per read"), WTG_INT(1 << 20), WTG_REAL(0.058),
					  WTG_TEXT("1B per read"), WTG_INT(1 << 20), WTG_REAL(1488.3) };
	machine(&m, "bhyve", "Mitigation: PTI");
	says_on("bytewise", bcols, 3, slow, 2, &m, "4.5x the essay's: page-table isolation on a bhyve virtual machine");
	machine(&m, "", "Not affected");
	says_on("bytewise", bcols, 3, slow, 2, &m, "");
	/* 0.35 s: 334 ns a byte, near the essay's */
	const struct wtg_value near[] = { WTG_TEXT("1B per read"), WTG_INT(1 << 20), WTG_REAL(350) };
	machine(&m, "", "Mitigation: PTI");
	says_on("bytewise", bcols, 3, near, 1, &m, "");

	/* valley: 1,993 ns a 16-byte read, 6.4x the essay's 312 */
	const struct wtg_value valley[] = { WTG_INT(16), WTG_REAL(1993), WTG_INT(1 << 20), WTG_REAL(53966) };
	says_on("valley", vcols, 2, valley, 2, &m, "6.4x the essay's: page-table isolation (PTI) on every crossing");
	machine(&m, "kvm", "Not affected");
	says_on("valley", vcols, 2, valley, 2, &m, "");
	CHECK(exp_of("valley")->essay.value == 312 && exp_of("bytewise")->essay.value == 313);
	/* measured cold (c): its 16-byte reads are as call-bound, the crossing still says why */
	struct wtg_table t;
	machine(&m, "bhyve", "Mitigation: PTI");
	table_of(&t, "valley", vcols, 2, valley, 2);
	t.cold = true;
	says("valley", &t, &m, "6.4x the essay's: page-table isolation on a bhyve virtual machine");
}

/* mmap: ns a file fault (not prefaulted) against the essay's 580, faults per page. */
static void mmap_says(double ns, double fpp, bool cold, const struct wtg_machine *m, const char *want)
{
	static const struct wtg_column cols[] = { { "case", "", WTG_T_TEXT, 0 }, { "faults_per_page", "", WTG_T_REAL, 3 },
						  { "ns_per_fault", "ns", WTG_T_REAL, 1 }, { "majflt", "count", WTG_T_INT, 0 } };
	/* cold: 8 of its faults read the disk */
	const struct wtg_value rows[] = { WTG_TEXT("not prefaulted"), WTG_REAL(fpp), WTG_REAL(ns), WTG_INT(cold ? 8 : 0),
					  WTG_TEXT("prefaulted"), WTG_REAL(0), WTG_NA, WTG_INT(0) };
	struct wtg_table t;
	table_of(&t, "mmap", cols, 4, rows, 2);
	t.cold = cold;
	says("mmap", &t, m, want);
}

static void test_mmap(void)
{
	struct wtg_machine m;
	machine(&m, "bhyve", "Mitigation: PTI");
	/* 32 faults for 16,384 pages, 27,594 ns each */
	mmap_says(27594, 32.0 / 16384, false, &m, "48x the essay's a fault: one fault maps 512 pages, not one");
	mmap_says(27594, 32.0 / 16384, true, &m, "48x the essay's a fault: cold (c), 8 major faults read the disk");
	mmap_says(2900, 1, false, &m, "5x the essay's: on a bhyve virtual machine the host may fault too");
	mmap_says(700, 1, false, &m, "");
	mmap_says(700, 1, true, &m, "");
	machine(&m, "", "Not affected");
	mmap_says(2900, 1, false, &m, "");
}

/* passes: GB/s of the warm passes against the essay's 10, major faults in them. */
static void passes_says(double gbps, int majflt, const char *want)
{
	static const struct wtg_column cols[] = { { "operation", "", WTG_T_TEXT, 0 }, { "gbps", "GB/s", WTG_T_REAL, 2 },
						  { "majflt_total", "count", WTG_T_INT, 0 } };
	const struct wtg_value row[] = { WTG_TEXT("pass"), WTG_REAL(gbps), WTG_INT(majflt) };
	struct wtg_machine m;
	machine(&m, "bhyve", "Mitigation: PTI");
	says_on("passes", cols, 3, row, 1, &m, want);
}

static void test_passes(void)
{
	passes_says(0.8, 1200, "12x slower than the essay's: 1,200 major faults, not all cached");
	passes_says(0.8, 0, "");
	passes_says(21.6, 0, "");
	passes_says(5, 1200, "");
}

/* threads: GB/s at 1 and 2 threads (the headline: the last row's) on a machine of cpus. */
static void threads_says(double gbps, int cpus, const char *want)
{
	static const struct wtg_column cols[] = { { "threads", "count", WTG_T_INT, 0 },
						  { "gbps", "GB/s", WTG_T_REAL, 2 } };
	const struct wtg_value rows[] = { WTG_INT(1), WTG_REAL(gbps), WTG_INT(2), WTG_REAL(gbps * 1.07) };
	struct wtg_machine m;
	machine(&m, "bhyve", "Mitigation: PTI");
	m.cpus = cpus;
	says_on("threads", cols, 2, rows, 2, &m, want);
}

static void test_threads(void)
{
	threads_says(9, 2, "9.9x below the essay's: 2 threads at most, on 2 CPUs, not 8");
	threads_says(39, 2, "");
	threads_says(9, 16, "");
	threads_says(9, 0, "");
}

/* tail: p99 ratio (burners on over off) and the run queue's share with burners on and off. */
static void tail_says(double ratio, double wait_on, double wait_off, const char *want)
{
	static const struct wtg_column cols[] = { { "condition", "", WTG_T_TEXT, 0 },
						  { "p99_ratio", "", WTG_T_REAL, 2 },
						  { "runq_wait_pct", "%", WTG_T_REAL, 1 } };
	const struct wtg_value rows[] = { WTG_TEXT("burners off"), WTG_REAL(1), WTG_REAL(wait_off),
					  WTG_TEXT("burners on (2)"), WTG_REAL(ratio), WTG_REAL(wait_on) };
	struct wtg_machine m;
	machine(&m, "bhyve", "Mitigation: PTI");
	says_on("tail", cols, 3, rows, 2, &m, want);
}

static void test_tail(void)
{
	tail_says(19.2, 66.7, 15.0, "5.6x the essay's: waited for a CPU 67% of the time, 15% alone");
	tail_says(19.2, 20, 15.0, "");
	tail_says(3.0, 66.7, 15.0, "");
	tail_says(1.02, 1.5, 1.2, "p99 held: with burners it waited for a CPU only 1.5% of the time");
	tail_says(1.02, 40, 1.2, "");
}

/* clock: the median pair against the essay's 41 ns, on a machine with clocksource cs. */
static void clock_says(double ns, const char *cs, const char *want)
{
	static const struct wtg_column cols[] = { { "operation", "", WTG_T_TEXT, 0 },
						  { "median_ns", "ns", WTG_T_REAL, 1 } };
	const struct wtg_value row[] = { WTG_TEXT("clock_gettime pair"), WTG_REAL(ns) };
	struct wtg_machine m;
	machine(&m, "", "Not affected");
	wtg_strlcpy(m.clocksource, cs, sizeof m.clocksource);
	says_on("clock", cols, 2, row, 1, &m, want);
}

static void test_clock(void)
{
	clock_says(1450, "hpet", "35x the essay's: the clocksource is hpet, not the TSC");
	clock_says(1450, "tsc", "");
	clock_says(1450, "", "");
	clock_says(29, "kvm-clock", "");
}

/* Every reason list ends and says something; an experiment that compares has the essay's number. */
static void test_declared(void)
{
	for (int i = 0; i < wtg_nexperiments; i++) {
		const struct wtg_experiment *e = wtg_experiments[i];
		if (!e->essay.why)
			continue;
		CHECK(e->essay.figure != NULL);
		int n = 0;
		for (const struct wtg_why *w = e->essay.why; w->holds; w++, n++)
			CHECK(w->say && w->say[0] && strlen(w->say) <= 66);
		CHECK(n > 0);
	}
	CHECK(exp_of("syscall")->essay.value == 89);
	CHECK(exp_of("uncached")->essay.figure && strstr(exp_of("uncached")->essay.figure, "28.9 us"));
	CHECK(exp_of("readcost")->essay.figure && strstr(exp_of("readcost")->essay.figure, "304 ns"));
	CHECK(strstr(exp_of("faultbase")->essay.figure, "\"hello\"") != NULL);
	CHECK(strstr(exp_of("faultbase")->essay.figure, "finally blamed") == NULL);
}

/* Every tab lists terms, every one in the glossary, no id twice; each term is one line at 80x24. */
static void test_glossary(void)
{
	for (int i = 0; i < wtg_nglossary; i++) {
		const struct wtg_term *g = &wtg_glossary[i];
		CHECK(wtg_term_find(g->id) == g);
		CHECK(strlen(g->name) <= WTG_TERM_NAME_MAX && strlen(g->line) <= WTG_TERM_LINE_MAX);
	}
	for (int i = 0; i < wtg_nexperiments; i++) {
		const struct wtg_experiment *e = wtg_experiments[i];
		int n = 0;
		for (; e->terms && e->terms[n]; n++) {
			if (!wtg_term_find(e->terms[n]))
				unit_diag("%s lists %s, not in the glossary", e->name, e->terms[n]);
			CHECK(wtg_term_find(e->terms[n]) != NULL);
		}
		CHECK(n >= 3 && n <= 16);
	}
	CHECK(wtg_term_find("no such term") == NULL);
}

int main(void)
{
	test_syscall();
	test_pagecache();
	test_wss();
	test_zerofill();
	test_crossing();
	test_mmap();
	test_passes();
	test_threads();
	test_tail();
	test_clock();
	test_declared();
	test_glossary();
	return unit_done("test_whyhere");
}
