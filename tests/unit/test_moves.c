/* test_moves.c: where the threads experiment's workers ran (src/experiments/threads_moves.c): each
 * sample's CPUs and migrations kept per worker, the counts and words beside a row's bar (a move, a
 * core-type change between a hybrid machine's P and E CPUs), the verdict's words when a thread count's
 * GB/s drops while its workers moved, and the scheduler's migration count read from a fake /proc
 * (WTG_SYSFS_ROOT). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/experiments/threads_crew.h"
#include "../../src/experiments/threads_moves.h"
#include "unit.h"

/* A hybrid machine: CPUs 0-7 performance, 8-15 efficiency. */
static void hybrid(struct wtg_topology *t)
{
	memset(t, 0, sizeof *t);
	memset(t->type_of, -1, sizeof t->type_of);
	t->ntypes = 2;
	strcpy(t->types[0].name, "performance");
	strcpy(t->types[1].name, "efficiency");
	for (int c = 0; c < 16; c++)
		t->type_of[c] = (int8_t)(c < 8 ? 0 : 1);
}

static void member(struct member *m, int cpu0, int cpu1, int64_t migrations)
{
	memset(m, 0, sizeof *m);
	m->cpu0 = cpu0;
	m->cpu1 = cpu1;
	m->migrations = migrations;
}

static void test_moves(void)
{
	struct wtg_topology t;
	hybrid(&t);
	struct wtg_moves mv = { 0 };
	struct member mb[2];
	char words[128];
	/* 40 samples of two workers: most stay put; sample 5 moves within the P CPUs (3 migrations),
	 * sample 9 ends on an E CPU (1 migration) */
	for (int s = 0; s < 40; s++) {
		member(&mb[0], 0, s == 5 ? 2 : 0, s == 5 ? 3 : 0);
		member(&mb[1], 1, s == 9 ? 12 : 1, s == 9 ? 1 : 0);
		CHECK(wtg_moves_add(&mv, &t, mb, 2) == 0);
	}
	CHECK(mv.n == 40 && mv.nthr == 2);
	CHECK(mv.total == 4 && mv.moved == 2 && mv.type_changes == 1 && mv.unknown == 0);
	CHECK(mv.migr[5] == 3 && mv.migr[9] == 1 && mv.migr[0] == 0);
	/* per sample, per worker: start and end CPU */
	CHECK(mv.cpus[5 * 4 + 0] == 0 && mv.cpus[5 * 4 + 1] == 2 && mv.cpus[9 * 4 + 2] == 1 && mv.cpus[9 * 4 + 3] == 12);
	wtg_moves_words(&mv, words, sizeof words);
	CHECK_STR(words, "4 migrations in 2 samples, core type changes in 1 sample");
	/* a count unknown (no perf, no schedstat): the sample is n/a, a change of CPU still a move */
	member(&mb[0], 3, 4, -1);
	member(&mb[1], 1, 1, 0);
	CHECK(wtg_moves_add(&mv, &t, mb, 2) == 0);
	CHECK(isnan(mv.migr[40]) && mv.unknown == 1 && mv.moved == 3 && mv.total == 4);
	wtg_moves_free(&mv);
	/* nobody moved: no words */
	member(&mb[0], 0, 0, 0);
	CHECK(wtg_moves_add(&mv, &t, mb, 1) == 0);
	wtg_moves_words(&mv, words, sizeof words);
	CHECK_STR(words, "");
	wtg_moves_free(&mv);
}

struct drop_row {
	int n;
	double g, hi;
	const char *group, *moves;
};

/* A table of threads' columns the verdict reads, with the rows given; its words into buf. */
static void drop_words(const struct drop_row *rows, int n, char *buf, size_t len)
{
	static const struct wtg_column cols[] = {
		{ "threads", "count", WTG_T_INT, 0 },	 { "gbps", "GB/s", WTG_T_REAL, 2 },
		{ "gbps_ci_high", "GB/s", WTG_T_REAL, 2 }, { "group", "", WTG_T_TEXT, 0 },
		{ "moves", "", WTG_T_TEXT, 0 },
	};
	struct wtg_table t;
	wtg_table_init(&t, NULL);
	wtg_table_set_columns(&t, cols, 5);
	for (int i = 0; i < n; i++) {
		struct wtg_value v[] = { WTG_INT(rows[i].n), WTG_REAL(rows[i].g), WTG_REAL(rows[i].hi),
					 WTG_TEXT(rows[i].group), WTG_TEXT(rows[i].moves) };
		wtg_table_add_row(&t, v, 5, NULL);
	}
	wtg_moves_drop_words(&t, buf, len);
	wtg_table_free(&t);
}

/* The verdict's words from a table of two groups: spread's 2 threads fell below 1 thread's while its
 * workers moved; compact's did not fall. */
static void test_drop(void)
{
	struct drop_row rows[] = { { 1, 7.5, 7.9, "compact", "" },
				   { 2, 9.3, 9.9, "compact", "2 migrations in 1 sample" },
				   { 1, 7.6, 7.8, "spread", "" },
				   { 2, 6.0, 6.4, "spread", "12 migrations in 5 samples" } };
	char buf[200];
	drop_words(rows, 4, buf, sizeof buf);
	CHECK_STR(buf, "; spread 2 threads fell to 6.0 GB/s from 7.6 at 1, with 12 migrations in 5 samples");
	/* the drop within its interval, or without a move: nothing said */
	rows[3].hi = 7.7;
	rows[1].g = 7.0;
	rows[1].hi = 7.2;
	rows[1].moves = "";
	drop_words(rows, 4, buf, sizeof buf);
	CHECK_STR(buf, "");
}

/* /proc/thread-self/sched's se.nr_migrations, from a fake /proc below WTG_SYSFS_ROOT. */
static void test_sched(void)
{
	CHECK(wtg_sched_migrations_parse("x (1, #threads: 1)\nse.exec_start : 1.0\nse.nr_migrations      :      "
					 "   17\nnr_switches : 4\n") == 17);
	CHECK(wtg_sched_migrations_parse("se.exec_start : 1.0\n") == -1);
	char root[] = "/tmp/wtg-test-moves-XXXXXX", dirs[2][256], sched[300];
	if (!mkdtemp(root)) {
		CHECK(!"mkdtemp");
		return;
	}
	snprintf(dirs[0], sizeof dirs[0], "%s/proc", root);
	snprintf(dirs[1], sizeof dirs[1], "%s/proc/thread-self", root);
	for (int i = 0; i < 2; i++)
		CHECK(mkdir(dirs[i], 0700) == 0);
	snprintf(sched, sizeof sched, "%s/sched", dirs[1]);
	static const char text[] = "wtg (4242, #threads: 3)\n----\nse.exec_start : 12.5\nse.nr_migrations : 42\n";
	int fd = open(sched, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
	if (fd >= 0)
		close(fd);
	setenv("WTG_SYSFS_ROOT", root, 1);
	CHECK(wtg_sched_migrations_self() == 42);
	unlink(sched);
	CHECK(wtg_sched_migrations_self() == -1);	/* no such file: unknown */
	unsetenv("WTG_SYSFS_ROOT");
	for (int i = 1; i >= 0; i--)
		rmdir(dirs[i]);
	rmdir(root);
}

int main(void)
{
	test_moves();
	test_drop();
	test_sched();
	return unit_done("test_moves");
}
