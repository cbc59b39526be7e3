/* test_paired.c: --versus's paired statistics on synthetic rounds (the median of the per-round ratios
 * B/A, its sign-test interval, a difference where a figure is not positive), the condition's parse
 * and words, which experiments can alternate, and the headline entries read from a paired table. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "wtg/experiment.h"
#include "wtg/figure.h"
#include "wtg/paired.h"
#include "wtg/table.h"

#define N 15

/* A/A: both arms draw from one distribution (a slow drift shared by both arms of a round, noise
 * of either sign): the interval holds 1. */
static void test_aa(void)
{
	double a[N], b[N];
	for (int i = 0; i < N; i++) {
		double drift = 100 + 3 * i;
		double noise = ((i * 7) % 5 - 2) * 0.4;	/* -0.8 .. 0.8, both signs */
		a[i] = drift + noise;
		b[i] = drift - noise;
	}
	struct wtg_paired_stat s;
	CHECK(wtg_paired_stat(a, b, N, false, &s) == 0);
	CHECK(!s.difference);
	CHECK(s.n == N);
	CHECK(s.lo <= 1 && 1 <= s.hi);
	CHECK(s.lo <= s.value && s.value <= s.hi);
}

/* B at 0.62 of A in every round, whatever A does: the ratio is 0.62 and the interval collapses on it. */
static void test_shifted(void)
{
	double a[N], b[N];
	for (int i = 0; i < N; i++) {
		a[i] = 5 + (i % 4) * 1.5;
		b[i] = 0.62 * a[i];
	}
	struct wtg_paired_stat s;
	CHECK(wtg_paired_stat(a, b, N, false, &s) == 0);
	CHECK_NEAR(s.value, 0.62, 1e-12);
	CHECK_NEAR(s.lo, 0.62, 1e-12);
	CHECK_NEAR(s.hi, 0.62, 1e-12);
	CHECK(s.hi < 1);
}

/* Known ratios 0.1 .. 1.5 (shuffled): the median 0.8, the interval the 4th smallest and the 4th
 * largest (the sign test's ranks for 15 at 95%: P(Bin(15, 1/2) <= 3) = 1.76%), coverage 96.5%. */
static void test_ranks(void)
{
	static const int perm[N] = { 7, 2, 14, 0, 9, 4, 11, 1, 13, 6, 3, 12, 8, 5, 10 };
	double a[N], b[N];
	for (int i = 0; i < N; i++) {
		a[i] = 2.0;
		b[i] = 2.0 * (perm[i] + 1) / 10.0;
	}
	struct wtg_paired_stat s;
	CHECK(wtg_paired_stat(a, b, N, false, &s) == 0);
	CHECK_NEAR(s.value, 0.8, 1e-12);
	CHECK(s.k == 4);
	CHECK_NEAR(s.lo, 0.4, 1e-12);
	CHECK_NEAR(s.hi, 1.2, 1e-12);
	CHECK_NEAR(s.coverage, 1 - 2 * (1.0 + 15 + 105 + 455) / 32768.0, 1e-9);
	/* too few rounds for a 95% interval: the value, no bounds */
	CHECK(wtg_paired_stat(a, b, 5, false, &s) < 0);
	CHECK(isfinite(s.value) && isnan(s.lo) && isnan(s.hi));
}

/* A figure that is zero or negative in some round is paired as a difference B - A, never a ratio;
 * rounds where an arm has no figure are left out. */
static void test_difference(void)
{
	double a[N], b[N];
	for (int i = 0; i < N; i++) {
		a[i] = i - 5.0;	/* -5 .. 9 */
		b[i] = a[i] + 2.5;
	}
	a[3] = NAN;
	struct wtg_paired_stat s;
	CHECK(wtg_paired_stat(a, b, N, false, &s) == 0);
	CHECK(s.difference);
	CHECK(s.n == N - 1);
	CHECK_NEAR(s.value, 2.5, 1e-12);
	CHECK_NEAR(s.lo, 2.5, 1e-12);
	/* asked for a difference, positive figures are one too */
	for (int i = 0; i < N; i++)
		a[i] = 10 + i, b[i] = 9 + i;
	CHECK(wtg_paired_stat(a, b, N, true, &s) == 0);
	CHECK(s.difference);
	CHECK_NEAR(s.value, -1, 1e-12);
}

static void test_parse(void)
{
	struct wtg_versus v;
	char why[160], words[64];
	CHECK(wtg_versus_parse("same", 2, &v, why, sizeof why) == 0 && v.cond == WTG_VS_SAME);
	CHECK(wtg_versus_parse("background", 2, &v, why, sizeof why) == 0 && v.cond == WTG_VS_BACKGROUND);
	CHECK(wtg_versus_parse("uncached", 2, &v, why, sizeof why) == 0 && v.cond == WTG_VS_UNCACHED);
	CHECK(wtg_versus_parse("cold", 2, &v, why, sizeof why) == 0 && v.cond == WTG_VS_COLD);
	CHECK(wtg_versus_parse("burn", 3, &v, why, sizeof why) == 0 && v.cond == WTG_VS_BURN && v.burn == 3 &&
	      v.burn_kind == WTG_BURN_SPIN);
	CHECK(wtg_versus_parse("burn=2:stream", 3, &v, why, sizeof why) == 0 && v.burn == 2 &&
	      v.burn_kind == WTG_BURN_STREAM);
	wtg_versus_words(&v, words, sizeof words);
	CHECK_STR(words, "burners 2 stream");
	CHECK(wtg_versus_parse("burn:stream", 4, &v, why, sizeof why) == 0 && v.burn == 4 &&
	      v.burn_kind == WTG_BURN_STREAM);
	CHECK(wtg_versus_parse("burn=1", 4, &v, why, sizeof why) == 0 && v.burn == 1);
	CHECK(wtg_versus_parse("burnt", 2, &v, why, sizeof why) == -1);
	CHECK(wtg_versus_parse("burn:lava", 2, &v, why, sizeof why) == -1);
	CHECK(wtg_versus_parse("", 2, &v, why, sizeof why) == -1);
	CHECK(wtg_versus_parse("burn=0", 2, &v, why, sizeof why) == -2);
	char want[160];
	snprintf(want, sizeof want, "--versus: burn's count must be a whole number from 1 to %d, not '0'",
		 wtg_burner_max());
	CHECK_STR(why, want);
	CHECK(wtg_versus_parse("burn=x:spin", 2, &v, why, sizeof why) == -2);
}

/* Which experiments can alternate each condition, and why not. */
static void test_applies(void)
{
	struct wtg_versus v = { .cond = WTG_VS_BURN, .burn = 2 };
	char why[192];
	const struct wtg_experiment *tail = wtg_experiments[wtg_experiment_find("tail")];
	const struct wtg_experiment *valley = wtg_experiments[wtg_experiment_find("valley")];
	const struct wtg_experiment *sc = wtg_experiments[wtg_experiment_find("syscall")];
	const struct wtg_experiment *clock = wtg_experiments[wtg_experiment_find("clock")];
	const struct wtg_experiment *faultbase = wtg_experiments[wtg_experiment_find("faultbase")];
	const struct wtg_experiment *zerofill = wtg_experiments[wtg_experiment_find("zerofill")];
	const struct wtg_experiment *readcost = wtg_experiments[wtg_experiment_find("readcost")];
	CHECK(!wtg_versus_applies(tail, &v, why, sizeof why));
	CHECK(strstr(why, "tail") != NULL);
	CHECK(wtg_versus_applies(valley, &v, why, sizeof why) && why[0] == '\0');
	v.cond = WTG_VS_UNCACHED;
	CHECK(!wtg_versus_applies(sc, &v, why, sizeof why));
	CHECK_STR(why, "syscall reads no file");
	v.cond = WTG_VS_COLD;
	CHECK(wtg_versus_applies(valley, &v, why, sizeof why));
	v.cond = WTG_VS_SAME;
	CHECK(wtg_versus_applies(clock, &v, why, sizeof why) && why[0] == '\0');
	CHECK(!wtg_versus_applies(faultbase, &v, why, sizeof why));
	CHECK_STR(why, "faultbase does not measure in rounds that can alternate");
	CHECK(!wtg_versus_applies(zerofill, &v, why, sizeof why));
	CHECK_STR(why, "zerofill takes 5 repetitions, too few to pair: a sign-test interval at 95% needs 6 rounds or more");
	v.cond = WTG_VS_UNCACHED;
	CHECK(!wtg_versus_applies(readcost, &v, why, sizeof why));
	CHECK_STR(why, "readcost does not read under uncached I/O: it times 1-byte reads of the warm page cache (a "
		       "1-byte read cannot use O_DIRECT)");
	CHECK(wtg_versus_applies(valley, &v, why, sizeof why));
	v.cond = WTG_VS_BURN;
	CHECK(wtg_versus_applies(readcost, &v, why, sizeof why));	/* burners it reads, uncached not */
	v.cond = WTG_VS_NONE;
	CHECK(!wtg_versus_applies(valley, &v, why, sizeof why));
}

/* A paired syscall table: arm A's and arm B's rows, the per-round series of the headline's row: the
 * entry is read from arm A's row's series, and the headline figure from arm A's row. */
static void test_entries(void)
{
	const struct wtg_experiment *e = wtg_experiments[wtg_experiment_find("syscall")];
	struct wtg_table t;
	wtg_table_init(&t, e);
	wtg_experiment_columns(e, &t);
	struct wtg_column cols[WTG_MAX_COLS];
	memcpy(cols, t.cols, (size_t)t.ncols * sizeof *cols);
	int arm = t.ncols;
	cols[arm] = (struct wtg_column){ "arm", "", WTG_T_TEXT, 0 };
	wtg_table_set_columns(&t, cols, arm + 1);
	int batch = wtg_table_col(&t, "batch"), med = wtg_table_col(&t, "median_ns");
	double a[N], b[N];
	for (int i = 0; i < N; i++) {
		a[i] = 100 + i;
		b[i] = 1.25 * a[i];
	}
	for (int k = 0; k < 2; k++) {
		struct wtg_value row[WTG_MAX_COLS];
		for (int c = 0; c <= arm; c++)
			row[c] = WTG_NA;
		row[batch] = WTG_INT(1000);
		row[med] = WTG_REAL(k ? 133.0 : 107.0);
		row[arm] = WTG_TEXT(k ? "B" : "A");
		wtg_table_add_row(&t, row, arm + 1, NULL);
	}
	CHECK(wtg_table_paired(&t));
	CHECK(wtg_headline_row(&e->headline[0], &t) == 0);
	struct wtg_paired_entry pe[WTG_MAX_HEADLINES];
	CHECK(wtg_paired_entries(&t, pe, WTG_MAX_HEADLINES) == 0);	/* no per-round series yet */
	wtg_table_add_series(&t, "row 1 arm A", "ns", a, N);
	wtg_table_add_series(&t, "row 1 arm B", "ns", b, N);
	CHECK(wtg_paired_entries(&t, pe, WTG_MAX_HEADLINES) == 1);
	CHECK_STR(pe[0].figure, e->headline[0].figure);
	CHECK_NEAR(pe[0].s.value, 1.25, 1e-12);
	CHECK(pe[0].s.n == N);
	CHECK_NEAR(pe[0].a, 107, 1e-12);
	CHECK_NEAR(pe[0].b, 133, 1e-12);	/* arm B's row's own figure */
	char line[160];
	wtg_paired_fmt(&pe[0], line, sizeof line);
	CHECK(strncmp(line, "x1.250 [1.250-1.250] ", 21) == 0);
	CHECK(strstr(line, ", 15 rounds") != NULL);
	struct wtg_figure f;
	wtg_figure_read(&e->headline[0], &t, &f);
	CHECK_NEAR(f.value, 107, 1e-12);	/* arm A's row, not arm B's */
	CHECK(wtg_paired_skipped(&t) == NULL);
	wtg_table_note(&t, "not paired: syscall sets nothing");
	CHECK_STR(wtg_paired_skipped(&t), "syscall sets nothing");
	wtg_table_free(&t);
}

int main(void)
{
	test_aa();
	test_shifted();
	test_ranks();
	test_difference();
	test_parse();
	test_applies();
	test_entries();
	return unit_done("test_paired");
}
