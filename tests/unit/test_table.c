/* test_table.c: the result model: columns, rows, checks, notes, series, reset, and a reader
 * running beside a writer. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "wtg/table.h"
#include "wtg/util.h"

static const struct wtg_column cols[] = {
	{ "label", "", WTG_T_TEXT, 0 },
	{ "bytes", "B", WTG_T_INT, 0 },
	{ "gbps", "GB/s", WTG_T_REAL, 2 },
};

static void test_basics(void)
{
	struct wtg_table t;
	wtg_table_init(&t, NULL);
	CHECK(t.nrows == 0 && t.ncols == 0 && t.state == WTG_IDLE && t.wake_fd == -1);
	uint64_t g0 = t.gen;

	wtg_table_set_columns(&t, cols, 3);
	CHECK(t.ncols == 3);
	CHECK(t.gen > g0);
	CHECK(wtg_table_col(&t, "label") == 0);
	CHECK(wtg_table_col(&t, "gbps") == 2);
	CHECK(wtg_table_col(&t, "nope") == -1);

	char label[32] = "first";
	struct wtg_probe_result p = { .wall_ms = 2.5, .minflt = 7, .migrations = -1, .instructions = -1,
				      .cycles = -1, .cpus_seen = 1, .threads = 1 };
	struct wtg_value r1[] = { WTG_TEXT(label), WTG_INT(4096), WTG_REAL(1.25) };
	wtg_table_add_row(&t, r1, 3, &p);
	strcpy(label, "overwritten");	/* the table copied the text */
	struct wtg_value r2[] = { WTG_TEXT(NULL), WTG_NA };	/* short row: the rest is n/a */
	wtg_table_add_row(&t, r2, 2, NULL);
	CHECK(t.nrows == 2);
	CHECK_STR(t.rows[0].v[0].s, "first");
	CHECK(t.rows[0].v[0].s != label);
	CHECK_STR(t.rows[1].v[0].s, "");
	CHECK(t.rows[0].has_probe && t.rows[0].probe.minflt == 7 && t.rows[0].probe.wall_ms == 2.5);
	CHECK(!t.rows[1].has_probe);
	CHECK(t.rows[1].v[2].type == WTG_T_NA);
	CHECK(t.rows[0].t_ns > 0 && t.rows[1].t_ns >= t.rows[0].t_ns);

	/* columns are fixed once rows exist */
	wtg_table_set_columns(&t, cols, 1);
	CHECK(t.ncols == 3);

	CHECK(wtg_table_num(&t, 0, 1) == 4096.0);
	CHECK(wtg_table_num(&t, 0, 2) == 1.25);
	CHECK(isnan(wtg_table_num(&t, 0, 0)));	/* text */
	CHECK(isnan(wtg_table_num(&t, 1, 1)));	/* n/a */
	CHECK(isnan(wtg_table_num(&t, 2, 1)));	/* no such row */
	CHECK(isnan(wtg_table_num(&t, 0, 3)));	/* no such column */
	CHECK(isnan(wtg_table_num(&t, -1, 0)));

	CHECK(wtg_table_checks_ok(&t));	/* no checks yet */
	wtg_table_check(&t, "sum", true, "got %d want %d", 10, 10);
	CHECK(wtg_table_checks_ok(&t));
	wtg_table_check(&t, "calls", false, "got %d want %d", 3, 4);
	CHECK(!wtg_table_checks_ok(&t));
	CHECK(t.nchecks == 2);
	CHECK_STR(t.checks[0].name, "sum");
	CHECK_STR(t.checks[1].detail, "got 3 want 4");
	CHECK(t.checks[0].status == WTG_CHECK_OK && t.checks[1].status == WTG_CHECK_FAIL);
	wtg_table_warn(&t, "drift", "drift %d%% > CI half-width", 12);
	CHECK(t.nchecks == 3 && t.checks[2].status == WTG_CHECK_WARN);
	CHECK_STR(t.checks[2].detail, "drift 12% > CI half-width");
	{
		int ok = -1, warn = -1, fail = -1;
		wtg_table_count_checks(&t, &ok, &warn, &fail);
		CHECK(ok == 1 && warn == 1 && fail == 1);
	}
	CHECK_STR(wtg_check_status_name(WTG_CHECK_WARN), "warn");

	wtg_table_note(&t, "note %s", "one");
	wtg_table_note(&t, "note two");
	CHECK(t.nnotes == 2);
	CHECK_STR(t.notes[0], "note one");

	double samples[] = { 1.0, 2.5, 4.0 };
	wtg_table_add_series(&t, "getpid", "ns", samples, 3);
	samples[0] = 99;	/* copied too */
	wtg_table_add_series(&t, "empty", NULL, NULL, 0);
	CHECK(t.nseries == 2);
	CHECK_STR(t.series[0].name, "getpid");
	CHECK_STR(t.series[0].unit, "ns");
	CHECK(t.series[0].n == 3 && t.series[0].v[0] == 1.0 && t.series[0].v[2] == 4.0);
	CHECK(t.series[1].n == 0);
	CHECK_STR(t.series[1].unit, "");
	/* the replicas a series falls into: kept when they add up to its samples (empty ones left out),
	 * ignored otherwise, and copied into a snapshot */
	CHECK(t.series[0].nreplicas == 0);
	const size_t wrong[] = { 1, 1 }, right[] = { 1, 0, 2 };
	wtg_table_series_replicas(&t, "getpid", wrong, 2);
	CHECK(t.series[0].nreplicas == 0);
	wtg_table_series_replicas(&t, "getpid", right, 3);
	CHECK(t.series[0].nreplicas == 2 && t.series[0].replica_len[0] == 1 && t.series[0].replica_len[1] == 2);
	wtg_table_series_replicas(&t, "no such series", right, 3);
	struct wtg_table snap;
	wtg_table_init(&snap, NULL);
	wtg_table_snapshot(&snap, &t);
	CHECK(snap.nseries == 2 && snap.series[0].nreplicas == 2 && snap.series[0].replica_len[1] == 2 &&
	      snap.series[1].nreplicas == 0);
	wtg_table_free(&snap);

	wtg_table_progress(&t, 3, 12, "bufsize 256K");
	CHECK(t.progress.step == 3 && t.progress.nsteps == 12);
	CHECK_STR(t.progress.label, "bufsize 256K");
	wtg_table_set_state(&t, WTG_RUNNING);
	CHECK(t.state == WTG_RUNNING && t.started_ns > 0);
	wtg_table_fail(&t, "cannot open '%s'", "x");
	CHECK_STR(t.error, "cannot open 'x'");
	wtg_table_set_state(&t, WTG_FAILED);
	CHECK(t.state == WTG_FAILED && t.finished_ns >= t.started_ns);

	/* reset drops everything but the experiment, and readers see the generation move */
	uint64_t g1 = t.gen;
	wtg_table_reset(&t);
	CHECK(t.gen > g1);
	CHECK(t.nrows == 0 && t.rows == NULL && t.ncols == 0);
	CHECK(t.nchecks == 0 && t.checks == NULL && t.nnotes == 0 && t.notes == NULL);
	CHECK(t.nseries == 0 && t.series == NULL);
	CHECK(t.state == WTG_IDLE && t.error[0] == '\0' && !t.has_total);
	CHECK(wtg_table_checks_ok(&t));
	/* usable again after the reset */
	wtg_table_set_columns(&t, cols, 3);
	wtg_table_add_row(&t, r1, 3, NULL);
	CHECK(t.nrows == 1 && t.ncols == 3);
	CHECK_STR(t.rows[0].v[0].s, "overwritten");
	wtg_table_free(&t);
}

/* ---- a writer adding rows while a reader reads under the lock ---- */

#define NROWS 1000

struct shared {
	struct wtg_table t;
	bool bad;	/* the reader saw a row out of order or torn */
	int reads;
};

static void *writer(void *arg)
{
	struct shared *sh = arg;
	for (int i = 0; i < NROWS; i++) {
		char label[32];
		snprintf(label, sizeof label, "row %d", i);
		struct wtg_value v[] = { WTG_TEXT(label), WTG_INT(i), WTG_REAL(i * 0.5) };
		wtg_table_add_row(&sh->t, v, 3, NULL);
		if (i % 100 == 0)
			wtg_table_note(&sh->t, "at %d", i);
	}
	return NULL;
}

static void *reader(void *arg)
{
	struct shared *sh = arg;
	int last = 0;
	while (last < NROWS) {
		pthread_mutex_lock(&sh->t.lock);
		int n = sh->t.nrows;
		if (n < last)
			sh->bad = true;
		for (int r = 0; r < n; r++) {
			char want[32];
			snprintf(want, sizeof want, "row %d", r);
			if (sh->t.rows[r].v[1].i != r || strcmp(sh->t.rows[r].v[0].s, want) != 0 ||
			    wtg_table_num(&sh->t, r, 2) != r * 0.5)
				sh->bad = true;
		}
		pthread_mutex_unlock(&sh->t.lock);
		last = n;
		sh->reads++;
	}
	return NULL;
}

static void test_concurrency(void)
{
	static struct shared sh;
	wtg_table_init(&sh.t, NULL);
	wtg_table_set_columns(&sh.t, cols, 3);
	pthread_t w, r;
	CHECK(pthread_create(&r, NULL, reader, &sh) == 0);
	CHECK(pthread_create(&w, NULL, writer, &sh) == 0);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	CHECK(sh.t.nrows == NROWS);
	CHECK(sh.t.nnotes == NROWS / 100);
	CHECK(!sh.bad);
	CHECK(sh.reads >= 1);
	CHECK_STR(sh.t.rows[NROWS - 1].v[0].s, "row 999");
	wtg_table_free(&sh.t);
}

/* Rows refined in place (the rounds engine) and x marks; reset drops both. */
static void test_set_row_and_xmarks(void)
{
	struct wtg_table t;
	wtg_table_init(&t, NULL);
	wtg_table_set_columns(&t, cols, 3);
	struct wtg_value r1[] = { WTG_TEXT("a"), WTG_INT(1), WTG_REAL(1.0) };
	wtg_table_add_row(&t, r1, 3, NULL);
	wtg_table_add_row(&t, r1, 3, NULL);
	uint64_t g = t.gen;
	char label[16] = "refined";
	struct wtg_probe_result p = { .wall_ms = 9, .threads = 1 };
	struct wtg_value r2[] = { WTG_TEXT(label), WTG_INT(2) };	/* short: the rest becomes n/a */
	/* a key changed the conditions after the row's first figure: the refined row says the new ones */
	CHECK(!t.rows[1].cond.uncached);
	wtg_uncached_request(true);
	wtg_table_set_row(&t, 1, r2, 2, &p);
	wtg_uncached_request(false);
	CHECK(t.rows[1].cond.uncached && !t.rows[0].cond.uncached);
	strcpy(label, "changed");
	CHECK(t.nrows == 2 && t.edits == 1 && t.gen > g);
	CHECK_STR(t.rows[1].v[0].s, "refined");
	CHECK(t.rows[1].v[1].i == 2 && t.rows[1].v[2].type == WTG_T_NA);
	CHECK(t.rows[1].has_probe && t.rows[1].probe.wall_ms == 9);
	CHECK_STR(t.rows[0].v[0].s, "a");
	wtg_table_set_row(&t, 5, r2, 2, NULL);	/* no such row: nothing happens */
	CHECK(t.nrows == 2 && t.edits == 1);
	for (int i = 0; i < WTG_MAX_XMARKS + 2; i++)
		wtg_table_add_xmark(&t, 1024.0 * (i + 1), "L1 a label longer than the room it has");
	CHECK(t.nxmarks == WTG_MAX_XMARKS);
	CHECK(t.xmarks[1].x == 2048.0 && strlen(t.xmarks[1].label) < sizeof t.xmarks[1].label);
	wtg_table_reset(&t);
	CHECK(t.nxmarks == 0 && t.edits == 0 && t.nrows == 0);
	wtg_table_free(&t);
}

/* The time left comes from each step's cost when the run reports its work: bytewise's one-byte
 * samples cost thousands of times a 64 KiB pass, so 13 of 15 steps done can be a tenth of the time. */
static void test_progress_left(void)
{
	double frac;
	/* by step count: 13 of 15 steps in 13 s leaves 2 s */
	struct wtg_run_progress by_step = { .step = 13, .nsteps = 15 };
	const int64_t by_step_el = 13000000000LL;
	double left = wtg_progress_left_ns(&by_step, by_step_el, &frac);
	CHECK(fabs(left - 2e9) < 1e3);
	CHECK(fabs(frac - 13.0 / 15) < 1e-12);
	/* the same run reporting its work: the 13 cheap steps were 3 s of 30 s declared: 27 s left, and
	 * the bar at 10%, not 87% */
	struct wtg_run_progress by_work = { .step = 13, .nsteps = 15, .work_done = 3e9,
					.work_total = 30e9 };
	const int64_t by_work_el = 13000000000LL;
	left = wtg_progress_left_ns(&by_work, by_work_el, &frac);
	CHECK(fabs(left - 27e9) < 1e3);
	CHECK(fabs(frac - 0.1) < 1e-12);
	/* the work declared, nothing of it done yet: all of it, not "less than 1 s" from the steps */
	struct wtg_run_progress begun = { .step = 1, .nsteps = 33, .work_total = 8e9 };
	const int64_t begun_el = 5000000000LL;
	CHECK(fabs(wtg_progress_left_ns(&begun, begun_el, &frac) - 8e9) < 1e3 && frac == 0);
	/* more work done than planned (a restart): nothing left, never negative */
	struct wtg_run_progress over = { .work_done = 120, .work_total = 100 };
	const int64_t over_el = 1;
	CHECK(wtg_progress_left_ns(&over, over_el, &frac) == 0 && frac == 1);
	/* the run's own estimate of its whole time, while it holds */
	struct wtg_run_progress est = { .expected_ns = 10000000000LL };
	const int64_t est_el = 4000000000LL;
	CHECK(fabs(wtg_progress_left_ns(&est, est_el, &frac) - 6e9) < 1e3 && fabs(frac - 0.4) < 1e-12);
	/* nothing to go by */
	struct wtg_run_progress none = {  };
	const int64_t none_el = 1;
	CHECK(wtg_progress_left_ns(&none, none_el, &frac) < 0 && frac == 0);

	/* the table carries the work: the first report (done 0) starts its clock, a reset clears it */
	struct wtg_table t;
	wtg_table_init(&t, NULL);
	wtg_table_work(&t, 0, 50);
	CHECK(t.progress.work_total == 50 && t.progress.work_done == 0 && t.progress.work_ns > 0);
	int64_t t0 = t.progress.work_ns;
	wtg_table_work(&t, 20, 50);
	CHECK(t.progress.work_done == 20 && t.progress.work_ns == t0);
	wtg_table_reset(&t);
	CHECK(t.progress.work_total == 0 && t.progress.work_done == 0 && t.progress.work_ns == 0);
	wtg_table_free(&t);
}

/* A run of very unequal steps declaring each one's cost in ns before it runs, bytewise's way: 24 s
 * planned, a 64 KiB part at 1 s, then 15 one-byte samples at 1.533 s each. Its first step took 3 s
 * where 1 s was declared (the rounds' own time, a busy machine): the 23 s still declared are what is
 * left, within 30%, not the first step's rate carried over to the one-byte samples (69 s); and before
 * any step is done, the 24 s, not "estimating". */
static void test_progress_declared(void)
{
	struct wtg_table t;
	wtg_table_init(&t, NULL);
	const double ns_1b = 23e9 / 15;
	wtg_table_work(&t, 0, 1e9 + 15 * ns_1b);
	struct wtg_run_progress p = { .step = 1, .nsteps = 16,
				      .work_done = t.progress.work_done, .work_total = t.progress.work_total };
	int64_t p_el = 500000000LL;
	double frac, left = wtg_progress_left_ns(&p, p_el, &frac);
	CHECK_NEAR(left, 24e9, 0.3 * 24e9);
	/* the first step done, 3 s after the work began */
	wtg_table_work(&t, 1e9, 1e9 + 15 * ns_1b);
	p_el = 3000000000LL;
	p.step = 2;
	p.work_done = t.progress.work_done;
	p.work_total = t.progress.work_total;
	left = wtg_progress_left_ns(&p, p_el, &frac);
	CHECK_NEAR(left, 23e9, 0.3 * 23e9);
	CHECK_NEAR(frac, 1.0 / 24, 1e-9);
	/* the one-byte samples, each as declared: the estimate follows the declared rest to the end */
	for (int k = 1; k <= 15; k++) {
		wtg_table_work(&t, 1e9 + k * ns_1b, 1e9 + 15 * ns_1b);
		p_el = (int64_t)(3e9 + k * ns_1b);
		p.step = 2 + k;
		p.work_done = t.progress.work_done;
		p.work_total = t.progress.work_total;
		left = wtg_progress_left_ns(&p, p_el, &frac);
		CHECK_NEAR(left, (15 - k) * ns_1b, 0.3 * (15 - k) * ns_1b + 1);
	}
	wtg_table_free(&t);
}

/* The runs of an experiment this session: counted as each starts, kept across a reset (the rerun's
 * table is reset first), carried by a snapshot: the box's "run 2 · done in" reads it. */
static void test_run_count(void)
{
	struct wtg_table t, snap;
	wtg_table_init(&t, NULL);
	wtg_table_init(&snap, NULL);
	CHECK(t.runs == 0);
	wtg_table_set_state(&t, WTG_RUNNING);
	wtg_table_set_state(&t, WTG_DONE);
	CHECK(t.runs == 1);
	wtg_table_reset(&t);
	CHECK(t.runs == 1);
	wtg_table_set_state(&t, WTG_RUNNING);
	wtg_table_set_state(&t, WTG_STOPPED);
	CHECK(t.runs == 2);
	wtg_table_snapshot(&snap, &t);
	CHECK(snap.runs == 2);
	CHECK(snap.state == WTG_STOPPED);
	wtg_table_free(&snap);
	wtg_table_free(&t);
}

int main(void)
{
	test_basics();
	test_run_count();
	test_progress_left();
	test_progress_declared();
	test_set_row_and_xmarks();
	test_concurrency();
	return unit_done("test_table");
}
