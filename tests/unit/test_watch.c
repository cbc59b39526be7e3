/* test_watch.c: steal and frequency read from a fake /proc/stat and cpufreq tree (WTG_SYSFS_ROOT):
 * the figures an experiment's report carries as steal_pct, mhz_min and mhz_max. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "wtg/table.h"
#include "wtg/watch.h"

static char root[64];

/* Write text to ROOT/rel, making its folders; replaced whole (rename), as the kernel's file reads. */
static void put(const char *rel, const char *text)
{
	char path[512], tmp[520];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
	snprintf(tmp, sizeof tmp, "%s.new", path);
	FILE *f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
		perror(path);
		exit(1);
	}
}

/* cpu0 and cpu1: user nice system idle iowait irq softirq steal guest guest_nice, and an intr line */
static const char stat_a[] = "cpu  300 0 100 1000 0 0 0 40 0 0\n"
			     "cpu0 100 0 50 500 0 0 0 10 7 0\n"
			     "cpu1 200 0 50 500 0 0 0 30 0 0\n"
			     "intr 12345 0 0 1\nctxt 99\n";
/* cpu0 ran 200 more ticks of which 50 stolen; cpu1 400 more, of which 20 stolen */
static const char stat_b[] = "cpu  900 0 150 1400 0 0 0 110 0 0\n"
			     "cpu0 200 0 60 540 0 0 0 60 9 0\n"
			     "cpu1 500 0 90 540 0 0 0 50 0 0\n"
			     "intr 23456 0 0 1\nctxt 199\n";

static void test_parse(void)
{
	struct wtg_cpustat a, b;
	CHECK(wtg_cpustat_parse(stat_a, &a));
	CHECK(a.ncpus == 2 && a.seen[0] && a.seen[1]);
	CHECK(a.steal[0] == 10 && a.total[0] == 100 + 50 + 500 + 10);	/* guest is inside user */
	CHECK(wtg_cpustat_parse(stat_b, &b));
	CHECK_NEAR(wtg_cpustat_steal_pct(&a, &b, 1), 100.0 * 50 / 200, 1e-9);
	CHECK_NEAR(wtg_cpustat_steal_pct(&a, &b, 2), 100.0 * 20 / 400, 1e-9);
	CHECK_NEAR(wtg_cpustat_steal_pct(&a, &b, 0), 100.0 * 70 / 600, 1e-9);	/* every CPU */
	CHECK(isnan(wtg_cpustat_steal_pct(&a, &b, 4)));				/* a CPU it does not have */
	CHECK(isnan(wtg_cpustat_steal_pct(&a, &a, 0)));				/* no time passed */
	CHECK(isnan(wtg_cpustat_steal_pct(&b, &a, 0)));				/* counters went back */
	/* a kernel before steal (four time columns): no steal, still the time */
	CHECK(wtg_cpustat_parse("cpu0 1 2 3 4\n", &a) && a.steal[0] == 0 && a.total[0] == 10);
	CHECK(!wtg_cpustat_parse("intr 1 2 3\n", &a));
	CHECK(!wtg_cpustat_parse("", &a));
}

static void test_watch(void)
{
	put("proc/stat", stat_a);
	put("sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "2400000\n");
	put("sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "3000000\n");
	struct wtg_watch w;
	wtg_watch_begin(&w);
	put("proc/stat", stat_b);
	put("sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "1800000\n");
	wtg_watch_end(&w, 1);	/* measured on CPU 0 */
	CHECK_NEAR(w.steal_pct, 25.0, 1e-9);
	CHECK_NEAR(w.mhz_min, 1800.0, 1e-9);
	CHECK_NEAR(w.mhz_max, 2400.0, 1e-9);
	/* on both: the frequencies of both, the steal of both */
	put("proc/stat", stat_a);
	wtg_watch_begin(&w);
	put("proc/stat", stat_b);
	wtg_watch_end(&w, 3);
	CHECK_NEAR(w.steal_pct, 100.0 * 70 / 600, 1e-9);
	CHECK_NEAR(w.mhz_min, 1800.0, 1e-9);
	CHECK_NEAR(w.mhz_max, 3000.0, 1e-9);
	/* one CPU's frequency now (syscall reads it beside its batches); the watch so far, going on */
	CHECK_NEAR(wtg_cpu_mhz(0), 1800.0, 1e-9);
	CHECK_NEAR(wtg_cpu_mhz(1), 3000.0, 1e-9);
	CHECK(isnan(wtg_cpu_mhz(7)));
	put("proc/stat", stat_a);
	wtg_watch_begin(&w);
	put("proc/stat", stat_b);
	double st, lo, hi;
	wtg_watch_so_far(&w, &st, &lo, &hi);
	CHECK(w.running && isnan(w.steal_pct));
	CHECK_NEAR(st, 100.0 * 70 / 600, 1e-9);
	CHECK_NEAR(lo, 1800.0, 1e-9);
	CHECK_NEAR(hi, 3000.0, 1e-9);
	wtg_watch_end(&w, 0);
	/* no cpufreq, no /proc/stat: n/a, never a zero */
	char path[512];
	snprintf(path, sizeof path, "%s/proc/stat", root);
	unlink(path);
	for (int c = 0; c < 2; c++) {
		snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", root, c);
		unlink(path);
	}
	wtg_watch_begin(&w);
	wtg_watch_end(&w, 0);
	CHECK(isnan(w.steal_pct) && isnan(w.mhz_min) && isnan(w.mhz_max));
}

/* A table's run carries them: started with RUNNING, ended with its final state. */
static void test_table(void)
{
	put("proc/stat", stat_a);
	struct wtg_table t;
	wtg_table_init(&t, NULL);
	CHECK(isnan(t.steal_pct));
	wtg_table_set_state(&t, WTG_RUNNING);
	put("proc/stat", stat_b);
	t.total.cpus_seen = 2;
	t.has_total = true;
	wtg_table_set_state(&t, WTG_DONE);
	CHECK_NEAR(t.steal_pct, 5.0, 1e-9);
	CHECK(isnan(t.mhz_min) && isnan(t.mhz_max));
	struct wtg_table snap;
	wtg_table_init(&snap, NULL);
	wtg_table_snapshot(&snap, &t);
	CHECK_NEAR(snap.steal_pct, 5.0, 1e-9);
	wtg_table_reset(&t);
	CHECK(isnan(t.steal_pct));
	wtg_table_free(&snap);
	wtg_table_free(&t);
}

int main(void)
{
	snprintf(root, sizeof root, "/tmp/wtg-test-watch-XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("WTG_SYSFS_ROOT", root, 1);
	test_parse();
	test_watch();
	test_table();
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	return unit_done("test_watch");
}
