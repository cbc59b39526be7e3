/* rounds.h: every throughput row a distribution. One engine measures N variants (sizes, kernels,
 * thread counts ...) in R >= 15 rounds: a fixed warm-up (unreported samples per variant before round
 * 1), then in every round each variant once, in an order the ctx's seeded generator shuffles afresh.
 * The rounds fall into WTG_ROUNDS_REPLICAS replicas (blocks of consecutive rounds: 1-3, 4-6, ...,
 * 13-15), so each row is measured at five separate times with every other row's rounds between.
 * Every sample records its thread's run-queue wait and CPU time (the probe's schedstat); a sample
 * that waited for a CPU more than 2% of its wall time is contended (wtg_probe_contended). Each
 * variant's figure is the median of its samples, the contended ones left out when at least
 * WTG_ROUNDS_KEEP others remain (all of them are kept in the series); its 95% CI is the two-level
 * bootstrap (replicas, then samples within each), so it widens with the spread between replicas.
 * The descriptor declares the columns X, X_ci_low, X_ci_high, X_min, X_max, samples, replicas,
 * X_replica_spread_pct, contended, cpu_share, sample_ms for the row's figure X (WTG_ROUNDS in
 * experiment.h), helpers fill them and add their checks (ci, drift, regime, contended) and series.
 *
 * The warm-up, fixed before measuring (wtg/warmup.h): first spec.warmup unreported samples of every
 * variant in order (they size a variant's samples), then windows of WTG_ROUNDS_WARM_WINDOW samples of
 * the pilot variant until the medians of WTG_WARMUP_STABLE consecutive windows lie within 1% of each
 * other or WTG_ROUNDS_WARM_MAX windows ran (WTG_ROUNDS_WARM_MAX_QUICK with --quick); every window's median goes to the table's warm-up log and
 * every row's warmup_windows column says how many windows ran before its rounds.
 *
 * A sketch (kernels, one figure per sample):
 *
 *	static int one(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
 *	{ ... time one sample of variant v, check its sum, set out->figure and out->res ... }
 *
 *	static int row(struct wtg_ctx *ctx, void *arg, int v, const struct wtg_rounds_result *r,
 *		       struct wtg_value *vals)
 *	{ vals[0] = WTG_TEXT(name of v); return 1 + wtg_rounds_values(vals + 1, r) (+ more columns); }
 *
 *	static const struct wtg_column cols[] = { { "kernel", "", WTG_T_TEXT, 0 }, WTG_ROUNDS("gbps", "GB/s", 2) };
 *	(the descriptor: WTG_COLUMNS(cols); the run starts with wtg_experiment_columns(&wtg_exp_kernels, ctx->t))
 *	struct wtg_rounds_spec spec = { .nvariants = n, .rounds = WTG_ROUNDS_MIN, .warmup = 1,
 *					.sample = one, .row = row, .label = name_of, .arg = &state };
 *	struct wtg_rounds r;
 *	int rc = wtg_rounds_run(ctx, &spec, &r);	// rows appear after round 1, refined each round
 *	for (int v = 0; rc == WTG_OK && v < n; v++)
 *		wtg_rounds_checks(ctx, name of v, "GB/s", &r.v[v]);
 *	wtg_rounds_note(ctx, &r, spec.warmup);
 *	wtg_rounds_free(&r);
 */
#ifndef WTG_EXPERIMENTS_ROUNDS_H
#define WTG_EXPERIMENTS_ROUNDS_H

#include <stdbool.h>
#include <stddef.h>

#include "wtg/ctx.h"
#include "wtg/experiment.h"
#include "wtg/probe.h"
#include "wtg/stats.h"
#include "wtg/table.h"

#define WTG_ROUNDS_REPLICAS 5	/* blocks of rounds at separate times */
#define WTG_ROUNDS_PER_REPLICA 3
/* timed samples per variant, in default and --quick mode alike */
#define WTG_ROUNDS_MIN (WTG_ROUNDS_REPLICAS * WTG_ROUNDS_PER_REPLICA)
#define WTG_ROUNDS_KEEP WTG_CONTENDED_KEEP	/* uncontended samples a figure needs to leave the contended ones out */
#define WTG_SAMPLE_MIN_MS 5.0	/* a timed throughput sample spans at least this (a time slice or more) */
#define WTG_ROUNDS_WARM_WINDOW 3	/* samples of the pilot variant in a warm-up window */
#define WTG_ROUNDS_WARM_MAX 8		/* warm-up windows at most */
#define WTG_ROUNDS_WARM_MAX_QUICK 5	/* ... with --quick: the rule's five windows, met or not */
/* X, X_ci_low, X_ci_high, X_min, X_max, samples, replicas, X_replica_spread_pct, contended, cpu_share,
 * sample_ms, warmup_windows */
#define WTG_ROUNDS_NCOLS 12

struct wtg_rounds_result;

/* What one sample of a variant reports. */
struct wtg_rounds_sample {
	double figure;			/* the headline figure X of this sample (GB/s, ms, ...) */
	struct wtg_probe_result res;	/* the probe around the timed region alone */
};

/* Measure one sample of variant v. round is -1 for a warm-up sample (not reported), else 0 ..
 * rounds-1. Check the sample's sum here: on a mismatch wtg_check_sum (which fails the table) and
 * return WTG_ERR. Returns WTG_OK, WTG_CANCELLED or WTG_ERR (after wtg_table_fail). */
typedef int (*wtg_rounds_fn)(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out);

struct wtg_rounds_spec {
	int nvariants;		/* >= 1 */
	int rounds;		/* timed samples per variant; below WTG_ROUNDS_MIN it is raised to it */
	int warmup;		/* unreported samples per variant before the warm-up windows, variants in
				 * order (they size the samples) */
	int pilot;		/* the variant whose samples form the warm-up windows (0: the first) */
	const char *unit;	/* the figure's unit, for the warm-up log (NULL: none) */
	bool no_windows;	/* only the sizing samples: a variant too slow to repeat in windows (the
				 * caller's note says why) */
	/* Optional: every sample warms what it reads before timing it (wss re-reads a set that fits in
	 * the LLC; a larger one comes from memory anyway), in words for the note; then an interleaved
	 * run does not warm up again after the others' turn. NULL: it does. */
	const char *self_warming;
	/* Optional: the warm-up after the others' turns is lighter than a sample (the sample function is
	 * called with WTG_ROUND_RETURN and makes one pass where a sample makes several), in words for the
	 * note ("one untimed pass of every row"). NULL: a whole sample of every variant. */
	const char *return_pass;
	wtg_rounds_fn sample;
	void *arg;		/* passed to sample and label */
	/* Optional, a paired run (ctx->arms): arm B's own state, a copy of arg's the caller made before
	 * the run. Arm B's samples and rows use it, and after arm A's warm-up and windows arm B takes its
	 * own spec->warmup sizing samples under its condition (unreported), so each arm's samples are
	 * sized by that arm's warm-up: an uncached or loaded arm spans as long as the other, not as many
	 * bytes. NULL: arm B shares arg, its samples sized by arm A's warm-up. */
	void *arg_b;
	/* Progress label of variant v ("scalar 24K"); NULL: "variant N". */
	void (*label)(const void *arg, int v, char *buf, size_t len);
	/* Optional: the row of variant v from its result so far (r->n samples, r->s their summary,
	 * r->probe): write its values at vals (room for WTG_MAX_COLS) and return their count. The engine
	 * adds the rows in variant order after round 1 and replaces them after every later round
	 * (wtg_table_set_row), so the table fills while it is measured; the last holds the final
	 * summary. NULL: the caller adds rows when the run is over. */
	int (*row)(struct wtg_ctx *ctx, void *arg, int v, const struct wtg_rounds_result *r,
		   struct wtg_value *vals);
	/* Optional: a key changed the conditions and the engine drops every sample so far to start the
	 * rounds again; forget what the samples added up (running totals). */
	void (*restart)(void *arg);
	/* Optional, in an interleaved run: called with back false before the other experiments take
	 * their turn (let go of what would change theirs: a mapping of the data file), with back true
	 * when the turn is back, before the warm-up again; non-WTG_OK ends the run. */
	int (*away)(void *arg, bool back);
	/* Progress: the engine's samples are steps first_step .. of nsteps (0: its own count, from 0). */
	int first_step, nsteps;
	/* The engine declares the run's work in ns (wtg_ctx_work): the samples' times so far, and the
	 * samples still to take at their variant's last time (the mean of the known ones before a
	 * variant's first), so the time left counts variants of very unequal cost by their cost. Only for
	 * a run whose time is this one rounds run. */
	bool declare_work;
};

/* The round a sample callback is given for an unreported warm-up sample: WTG_ROUND_WARMUP for the
 * warm-up before the rounds (the one that sizes the timed samples), WTG_ROUND_REWARM for a warm-up
 * window, WTG_ROUND_RETURN for the warm-up an interleaved run repeats after other experiments
 * measured (the sizes stay as they were in both; a spec with return_pass makes it one pass); the
 * timed rounds are 0 and up. */
#define WTG_ROUND_WARMUP (-1)
#define WTG_ROUND_REWARM (-2)
#define WTG_ROUND_RETURN (-3)

/* One variant's outcome. */
struct wtg_rounds_result {
	double *samples;		/* the timed figures, in time order: sample i is round i */
	unsigned char *contended;	/* per sample: 1 when it waited for a CPU (wtg_probe_contended) */
	double *cpu_share;		/* per sample: on-CPU share of its wall time, NAN unknown */
	double *wall_ms;		/* per sample: its timed span */
	size_t n;
	int rounds;			/* the rounds planned (replica boundaries); 0: n */
	/* median, two-level CI, min, max, drift of the samples the figure uses (wtg_summarize, with
	 * the CI from wtg_bootstrap_median_ci_replicas) */
	struct wtg_summary s;
	size_t used;			/* samples the figure uses: the uncontended ones, or all */
	size_t ncontended;
	bool busy_by_design;		/* more threads than CPUs, or burners on: contention is the condition */
	int replicas;			/* replicas holding samples the figure uses */
	double replica_median[WTG_ROUNDS_REPLICAS];
	int replica_first[WTG_ROUNDS_REPLICAS], replica_last[WTG_ROUNDS_REPLICAS];	/* rounds, 1-based */
	double replica_spread_pct;	/* (largest - smallest replica median) / median, in % */
	double cpu_share_median;	/* NAN when schedstat was unreadable */
	double sample_ms;		/* median timed span of a sample */
	int warmup_windows;		/* warm-up windows run before the rounds (the experiment's) */
	struct wtg_probe_result probe;	/* the timed samples' probes together (wall times add up) */
};

struct wtg_rounds {
	int nvariants, rounds;
	int warm_windows;		/* warm-up windows run */
	int warm_max;			/* ... at most (wtg_rounds_warm_max) */
	bool warm_met;			/* the rule was met (else the maximum was reached) */
	double warm_median[WTG_ROUNDS_WARM_MAX];	/* each window's median */
	char warm_row[64];		/* the pilot variant's label */
	struct wtg_rounds_result *v;	/* nvariants */
	/* a paired run (ctx->arms, wtg/paired.h): arm B's results, nvariants (arm A's are v); NULL when
	 * unpaired. Its rows follow arm A's, each row's per-round figures kept as the series "row N arm
	 * A" and "row N arm B". */
	struct wtg_rounds_result *b;
	/* an interleaved run: the replicas after which other experiments measured, and when each
	 * replica began, in seconds since the run's first experiment did */
	int interleaved;
	const char *self_warming;	/* the spec's: why no warm-up again after the others' turns */
	const char *return_pass;	/* the spec's: the lighter warm-up after them, in words */
	double replica_start_s[WTG_ROUNDS_REPLICAS];
};

/* Run the spec: warm-up, then the rounds in seeded random order (in a paired run every round runs
 * the variants in each arm, the arms in seeded order, the condition switched between them), checking cancel before every
 * sample and showing progress ("round 3/11: scalar 24K"). On WTG_OK every variant has rounds
 * samples and its summary (seeded per variant from --seed, the experiment and v). On WTG_CANCELLED
 * or WTG_ERR out holds nothing to free (rows already published stay, as measured so far). An out-of-memory is WTG_ERR after wtg_table_fail. */
int wtg_rounds_run(struct wtg_ctx *ctx, const struct wtg_rounds_spec *spec, struct wtg_rounds *out);
void wtg_rounds_free(struct wtg_rounds *r);

/* How many bytes a sample should move to span at least WTG_SAMPLE_MIN_MS, from the warm-up sample
 * that moved `bytes` in wall_ms: bytes when it spanned 1.5 times that, else enough for 1.5 times it at
 * the warm-up's rate (a warm-up runs colder than the rounds), in whole units (a pass over the working
 * set, a chunk), at most cap (rounded down to units, never below bytes). A rule fixed before the
 * timed samples: a variant whose one pass is short repeats its working set more times per sample. */
uint64_t wtg_rounds_sample_bytes(uint64_t bytes, double wall_ms, uint64_t unit, uint64_t cap);

/* The span of a warm-up sample to size the timed ones by: its wall time less the time it waited
 * for a CPU (a warm-up preempted on a busy machine would otherwise look long enough). */
double wtg_rounds_warmup_ms(const struct wtg_probe_result *res);

/* A plan's samples and warm-up for rows measured in rounds, warmup sizing samples per row first (the
 * windows' most from p->opt). */
void wtg_rounds_plan(struct wtg_plan *p, int warmup);

/* The warm-up windows a run of these options takes at most: WTG_ROUNDS_WARM_MAX, with --quick
 * WTG_ROUNDS_WARM_MAX_QUICK (o NULL: the former). */
int wtg_rounds_warm_max(const struct wtg_options *o);

/* The rounds steps a spec of nvariants, rounds and warmup takes at most under options o, the warm-up
 * windows' most included (for callers adding own steps). */
int wtg_rounds_steps(const struct wtg_options *o, int nvariants, int rounds, int warmup);

/* Write the WTG_ROUNDS_NCOLS values of r at v that match the columns WTG_ROUNDS(x, ...) declares
 * (experiment.h): median, CI low, CI high, min, max, n, ..., warmup_windows. */
int wtg_rounds_values(struct wtg_value *v, const struct wtg_rounds_result *r);
/* The replica (0-based) of sample i of a variant measured in `rounds` rounds. */
int wtg_rounds_replica(int i, int rounds);
/* The two-level interval (wtg_bootstrap_median_ci_replicas) of n values in time order, replica j+1
 * beginning at index cut[j] (WTG_ROUNDS_REPLICAS - 1 cuts, ascending), leaving out those with
 * skip[i] set (skip may be NULL); for designs outside the rounds engine (syscall's and readcost's
 * batches). Returns the replicas that held values, or -1 out of memory. */
int wtg_replicas_ci(const double *v, const unsigned char *skip, size_t n, const size_t *cut, uint64_t seed,
		    double *lo, double *hi);
/* The samples a row's figure uses (the uncontended ones, or all), in time order, grouped by the
 * replicas that hold any: what a ratio of two rows is drawn from. */
struct wtg_rounds_used {
	double *v;
	size_t n;
	size_t len[WTG_ROUNDS_REPLICAS], nrep;
};
/* Copy r's used samples into u (its buffer grown as needed; u zeroed before the first call).
 * Returns 0, or -1 out of memory (u then holds what it held). */
int wtg_rounds_used_get(const struct wtg_rounds_result *r, struct wtg_rounds_used *u);
void wtg_rounds_used_free(struct wtg_rounds_used *u);
/* The 95% interval of median(num) / median(den): the two-level bootstrap of both sides
 * (wtg_bootstrap_ratio_ci_replicas), so each row's spread between replicas widens it as it widens
 * the row's own interval. Returns 0, or -1 with NAN bounds. */
int wtg_rounds_ratio_ci(const struct wtg_rounds_used *num, const struct wtg_rounds_used *den, uint64_t seed,
			double *lo, double *hi);
/* Summarize r from its samples (the figure's samples, the two-level CI, replicas, contention,
 * cpu_share, sample_ms); r->busy_by_design says that contention is the row's condition, and then no
 * sample is left out. Returns 0, or -1 out of memory. */
int wtg_rounds_summarize(struct wtg_rounds_result *r, uint64_t seed);
/* The same without x (WTG_ROUNDS_NCOLS - 1 values, the columns of WTG_ROUNDS_AFTER), for a table
 * whose SPEC places x among other columns. */
int wtg_rounds_values_after(struct wtg_value *v, const struct wtg_rounds_result *r);

/* The row's checks and raw samples: "ci" (ok, or fail when min <= ci_low <= median <= ci_high <= max
 * does not hold); "drift": ok, or warn when the median of the second half of the samples differs
 * from the first half's by more than the CI's half-width (the condition moved while measuring);
 * "regime": warn when the samples fall into two separated clusters (wtg_regime_modes), else ok, or
 * warn naming the replica whose median lies outside the other replicas' two-level interval; "contended" when samples waited for a CPU: ok when the figure could leave them out or
 * contention is the row's condition, warn when fewer than WTG_ROUNDS_KEEP others remained. Then
 * the series (wtg_rounds_add_series). label names the row, unit the figure's. */
void wtg_rounds_checks(struct wtg_ctx *ctx, const char *label, const char *unit,
		       const struct wtg_rounds_result *r);
/* The "regime" check's warning when the n values (a row's samples, called what: "samples",
 * "batches") fall into two separated clusters (wtg_two_modes: Hartigan's dip test, then the
 * two-means split): "LABEL: 85 ns (60%) and 103 ns (40%): two regimes (...)"; otherwise, with ok_too,
 * an ok check giving the test's p-value. Returns whether they did. */
bool wtg_regime_modes(struct wtg_ctx *ctx, const char *label, const char *unit, const double *v, size_t n,
		      const char *what, bool ok_too);
/* The same with the steal (% of its time) and its CPU's MHz beside each value (NULL: not read per
 * sample): the warning says whether steal, or the frequency, moved with the regimes
 * (wtg_modes_state_words), per sample where read, else over the run so far. */
bool wtg_regime_modes_with(struct wtg_ctx *ctx, const char *label, const char *unit, const double *v,
			   const double *steal, const double *mhz, size_t n, const char *what, bool ok_too);
/* Keep r's raw samples as a series named label, every one (contended too), with the replicas they
 * fall into, and beside it the series "label contended" of per-sample flags (1 contended, 0 not),
 * for views and writers. */
void wtg_rounds_add_series(struct wtg_ctx *ctx, const char *label, const char *unit,
			   const struct wtg_rounds_result *r);

/* How many of n values in time order each replica holds, replica j + 1 beginning at value cut[j]
 * (WTG_ROUNDS_REPLICAS - 1 cuts, ascending): WTG_ROUNDS_REPLICAS lengths into len, some maybe 0. */
void wtg_replica_lens(size_t n, const size_t *cut, size_t *len);
/* The series name (just added, n samples in time order) falls into replicas as the cuts say
 * (replica j + 1 begins at sample cut[j]; WTG_ROUNDS_REPLICAS - 1 cuts, ascending). */
void wtg_series_replicas_cut(struct wtg_ctx *ctx, const char *name, size_t n, const size_t *cut);

/* The notes of a design outside the rounds engine whose batches form replicas (syscall, readcost,
 * tail): what its replicas are ("blocks of consecutive rounds") and the two-level interval; then,
 * when other experiments measured between them (interleaved > 0), after how many, what followed each
 * turn ("an untimed batch") and when each replica began, as wtg_rounds_note says it. */
void wtg_replicas_notes(struct wtg_ctx *ctx, const char *replicas, const char *again, int interleaved,
			const double *start_s);

/* The note that says how a table's rows were measured: "each row: N timed samples after W
 * unreported warm-up sample(s) per variant; variants in seeded random order in every round; the
 * figure is the median, with a bootstrap 95% CI, min and max", then what the replicas, the
 * contention rule and the samples' span were, then the warm-up rule and its outcome. */
void wtg_rounds_note(struct wtg_ctx *ctx, const struct wtg_rounds *r, int warmup);

#endif
