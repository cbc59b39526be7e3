/* tail.c: Where does interference live? The getpid batches of readcost with the burners off and
 * with one burner per online CPU, in alternating blocks (each pair of blocks in seeded order), at
 * least 1000 batches per condition so that p99 is a percentile and not the maximum. Beside the
 * percentiles, the share of batches slower than twice the quiet median, with its Wilson interval:
 * the median barely moves, the tail does. */
#include "config.h"

#include <math.h>

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "io.h"
#include "rounds.h"
#include "wtg/ctx.h"
#include "tail_parts.h"
#include "wtg/plan.h"
#include "wtg/topology.h"
#include "why.h"

#define BLOCKS 10		/* blocks per condition */
#define BLOCK_BATCHES 100	/* batches per block: 1000 per condition */
#define BATCH_NS 1000000	/* a batch takes about 1 ms (calls fitted in the warm-up) */
#define BATCH_NS_QUICK 250000
#define CAL_CALLS 64		/* warm-up: batches of 64 calls time one call */
#define CAL_BATCHES 32
#define MIN_CALLS 16
#define MAX_CALLS 20000
#define SETTLE_MS 50		/* at most this for the burners to get going before a loaded block */
#define SLOW_FACTOR 2.0		/* a batch is slow above twice the quiet median */
#define QUIET_WAIT_PCT 1.0	/* quiet blocks whose thread waited longer for a CPU were not quiet, nor
				 * were they with WTG_QUIET_OTHERS other tasks runnable on average */

enum { OFF = 0, ON = 1 };

struct cond_run {
	double *v;		/* batches in time order */
	int n;
	uint64_t work;		/* burner iterations during this condition's blocks */
	struct wtg_type_tally types;	/* core types of the CPU at each batch's start and end */
	char type_list[64];
	struct wtg_probe_result res;
	int64_t wall_ns, wait_ns;	/* the blocks' time and the measuring thread's run-queue wait in it */
	bool wait_known;		/* schedstat was readable around every block */
	struct wtg_others others;	/* other runnable tasks, read between batches */
	size_t cut[WTG_ROUNDS_REPLICAS - 1];	/* batches before replica j + 1 (pairs of blocks) */
	double start_s[WTG_ROUNDS_REPLICAS];	/* an interleaved run: when each replica began (OFF's) */
	struct tp_reader *rd;	/* read around each batch: CPU clock, schedstat, interrupts, steal */
	struct tp_samples parts;	/* each batch's time on a CPU, waiting, interrupts, steal */
};

/* The measuring thread's booked run-queue wait in ns, -1 unknown. */
static int64_t runq_wait(void)
{
	int64_t run, wait;
	bool runnable, idle;
	return wtg_sched_sample(wtg_gettid(), &run, &wait, &runnable, &idle) == 0 ? wait : -1;
}

/* Fixed warm-up rule: CAL_BATCHES unreported batches of CAL_CALLS, burners off; their median cost
 * per call sets the calls per batch so a quiet batch lasts about target_ns. */
static long fit_calls(int64_t target_ns, double *per_call)
{
	double v[CAL_BATCHES];
	for (int i = 0; i < CAL_BATCHES; i++)
		v[i] = wtg_time_getpid_batch(CAL_CALLS);
	*per_call = wtg_quantile(v, CAL_BATCHES, 0.5);
	long calls = *per_call > 0 ? (long)((double)target_ns / *per_call) : MAX_CALLS;
	return calls < MIN_CALLS ? MIN_CALLS : calls > MAX_CALLS ? MAX_CALLS : calls;
}

/* One block of one condition: the burners set for it, then BLOCK_BATCHES batches. */
static int block(struct wtg_ctx *ctx, struct cond_run *c, int cond, int ncpu, long calls, int step,
		 int nsteps)
{
	if (cond == ON) {
		int rc = wtg_burners_start(ctx, ncpu, SETTLE_MS, "");
		if (rc != WTG_OK)
			return rc;
	} else if (wtg_burner_set(0) < 0) {
		wtg_table_fail(ctx->t, "cannot stop the burners");
		return WTG_ERR;
	}
	char label[48];
	snprintf(label, sizeof label, "burners %s: block %d of %d", cond == ON ? "on" : "off",
		 c->n / BLOCK_BATCHES + 1, BLOCKS);
	wtg_ctx_progress(ctx, step, nsteps, label);
	uint64_t w0 = wtg_burner_work();
	struct wtg_probe p;
	struct wtg_probe_result r;
	wtg_probe_begin(&p);
	bool cancelled = false;
	const struct wtg_topology *topo = wtg_topology_this();
	const int64_t wait0 = runq_wait(), t0 = wtg_now_ns();
	for (int i = 0; i < BLOCK_BATCHES && !cancelled; i++) {
		wtg_others_read(&c->others, i);
		wtg_type_tally_add(topo, &c->types, sched_getcpu());
		struct tp_mark ma, mb;
		tp_mark_before(c->rd, &ma);
		double w = wtg_time_getpid_batch(calls);
		tp_mark_after(c->rd, &ma, &mb);
		tp_store(c->rd, &c->parts, (size_t)c->n, w, calls, &ma, &mb);
		c->v[c->n++] = w;
		wtg_type_tally_add(topo, &c->types, sched_getcpu());
		wtg_probe_tick(&p);
		cancelled = i % 10 == 9 && wtg_ctx_cancelled(ctx);
	}
	wtg_probe_end(&p, &r);
	const int64_t wait1 = runq_wait();
	c->wall_ns += wtg_now_ns() - t0;
	c->wait_known = (c->n == BLOCK_BATCHES || c->wait_known) && wait0 >= 0 && wait1 >= wait0;
	c->wait_ns += c->wait_known ? wait1 - wait0 : 0;
	if (cancelled)
		return WTG_CANCELLED;
	c->work += wtg_burner_work() - w0;
	if (c->n == BLOCK_BATCHES)
		c->res = r;
	else
		wtg_probe_accumulate(&c->res, &r);
	return WTG_OK;
}

/* The row was measured over several blocks: record the burners of its own blocks, not whatever
 * runs when it is added. */
static void set_row_burners(struct wtg_table *t, int burners)
{
	pthread_mutex_lock(&t->lock);
	if (t->nrows > 0)
		t->rows[t->nrows - 1].cond.burners = burners;
	pthread_mutex_unlock(&t->lock);
}

/* Add one condition's row: the distribution, then the slow share and its Wilson bounds. */
/* The run-queue wait as a share of the blocks' time (%), NAN unknown; other tasks runnable on
 * average, NAN unknown. */
static double wait_pct(const struct cond_run *c)
{
	return c->wait_known && c->wall_ns > 0 ? 100.0 * (double)c->wait_ns / (double)c->wall_ns : NAN;
}

static double others_mean(const struct cond_run *c)
{
	return wtg_others_mean(&c->others);
}

static int add_row(struct wtg_ctx *ctx, const char *label, struct cond_run *c, int burners,
		   double quiet_median, const struct cond_run *off, const struct wtg_summary *s_off,
		   struct wtg_summary *s)
{
	/* the median's interval: the two-level bootstrap over the replicas (blocks of pairs) */
	uint64_t seed = wtg_ctx_seed(ctx, (unsigned)ctx->t->nrows);
	if (wtg_summarize_resamples(c->v, (size_t)c->n, seed, 0, s) < 0 ||
	    wtg_replicas_ci(c->v, NULL, (size_t)c->n, c->cut, seed, &s->ci_low, &s->ci_high) < 0) {
		wtg_table_fail(ctx->t, "%s: no samples to summarize (out of memory)", label);
		return -1;
	}
	int slow = 0;
	for (int i = 0; i < c->n; i++)
		slow += c->v[i] > SLOW_FACTOR * quiet_median;
	double lo = 0, hi = 0;
	wtg_wilson_interval((uint64_t)slow, (uint64_t)c->n, WTG_BOOTSTRAP_CONF, &lo, &hi);
	double ratio = 1.0, rlo = NAN, rhi = NAN;	/* the quiet row is the ratio's denominator: 1 */
	if (off && s_off->p99 > 0) {
		ratio = s->p99 / s_off->p99;
		size_t len_c[WTG_ROUNDS_REPLICAS], len_off[WTG_ROUNDS_REPLICAS];
		wtg_replica_lens((size_t)c->n, c->cut, len_c);
		wtg_replica_lens((size_t)off->n, off->cut, len_off);
		wtg_bootstrap_ratio_ci_replicas(c->v, len_c, WTG_ROUNDS_REPLICAS, off->v, len_off, WTG_ROUNDS_REPLICAS,
						0.99, WTG_BOOTSTRAP_RESAMPLES, WTG_BOOTSTRAP_CONF,
						wtg_ctx_seed(ctx, 100u + (unsigned)burners), &rlo, &rhi);
	}
	wtg_type_tally_format(wtg_topology_this(), &c->types, c->type_list, sizeof c->type_list);
	struct tp_division d99, d90;
	tp_divide(&c->parts, 0.99, TP_RESAMPLES, wtg_ctx_seed(ctx, 200u + (unsigned)burners), &d99);
	tp_divide(&c->parts, 0.90, 0, 0, &d90);
	const struct wtg_value v[] = {
		WTG_INT(c->work),	    WTG_REAL(ratio),		   wtg_real_or_na(rlo),
		wtg_real_or_na(rhi),	    WTG_INT(burners),		   WTG_INT(slow),
		WTG_REAL(100.0 * slow / c->n), WTG_REAL(100.0 * lo),	   WTG_REAL(100.0 * hi),
		WTG_INT(BLOCKS),	    WTG_INT(c->n / BLOCKS),	   wtg_real_or_na(others_mean(c)),
		wtg_real_or_na(wait_pct(c)),    WTG_TEXT(c->type_list),
		wtg_real_or_na(c->rd->irq_read_ns), wtg_real_or_na(c->rd->stat_read_ns),
	};
	struct wtg_value all[WTG_MAX_COLS];
	int n = (int)WTG_ARRAY_LEN(v) - 2;	/* the division's cells before the reads' costs */
	memcpy(all, v, (size_t)n * sizeof *v);
	n += tp_values(&d99, c->rd, true, all + n);
	n += tp_values(&d90, c->rd, false, all + n);
	all[n++] = v[WTG_ARRAY_LEN(v) - 2];
	all[n++] = v[WTG_ARRAY_LEN(v) - 1];
	wtg_add_summary_row(ctx, label, s, c->v, (size_t)c->n, &c->res, all, n);
	wtg_series_replicas_cut(ctx, label, (size_t)c->n, c->cut);
	set_row_burners(ctx->t, burners);
	wtg_table_check(ctx->t, "wilson", lo <= (double)slow / c->n && (double)slow / c->n <= hi,
			"%s: %d of %d batches above %.0f ns (2 x the quiet median), Wilson 95%% [%.2f%%, "
			"%.2f%%] holds the share",
			label, slow, c->n, SLOW_FACTOR * quiet_median, 100.0 * lo, 100.0 * hi);
	return 0;
}

/* Whether the quiet blocks were quiet: the measuring thread hardly waited for a CPU and on average
 * fewer than WTG_QUIET_OTHERS other tasks were runnable. When not, the p99 ratio compares the burners
 * with a machine that was busy already and understates them. */
static bool quiet_held(const struct cond_run *off)
{
	double w = wait_pct(off), o = others_mean(off);
	return !(w > QUIET_WAIT_PCT) && !(o >= WTG_QUIET_OTHERS);
}

static void quiet_check(struct wtg_ctx *ctx, const struct cond_run *off, int ncpu)
{
	char w[32] = "unknown", o[32] = "unknown";
	if (isfinite(wait_pct(off)))
		snprintf(w, sizeof w, "%.2f%%", wait_pct(off));
	if (isfinite(others_mean(off)))
		snprintf(o, sizeof o, "%.2f", others_mean(off));
	if (quiet_held(off))
		wtg_table_check(ctx->t, "quiet", true,
				"the quiet blocks were quiet: the measuring thread waited %s of their time for a "
				"CPU, %s other tasks runnable on average (%d CPUs)", w, o, ncpu);
	else
		wtg_table_warn(ctx->t, "quiet",
			       "the quiet blocks were not quiet: the measuring thread waited %s of their time "
			       "for a CPU, %s other tasks runnable on average (%d CPUs): the p99 ratio compares "
			       "the burners with a machine already busy, not with a quiet one", w, o, ncpu);
}

/* Pair b begins a new replica (the pairs fall into replicas as rounds do): where both conditions'
 * batches stand; then, in an interleaved run, the burners go back to the run's own and the other
 * experiments take their turn. Returns WTG_OK or WTG_ERR. */
static int replica_begins(struct wtg_ctx *ctx, struct cond_run *c, int b, int before, long calls,
			  int *interleaved)
{
	int j = wtg_rounds_replica(b, BLOCKS) - 1;
	if (b == 0 || j == wtg_rounds_replica(b - 1, BLOCKS) - 1)
		return WTG_OK;
	c[OFF].cut[j] = (size_t)c[OFF].n;
	c[ON].cut[j] = (size_t)c[ON].n;
	if (!ctx->relay)
		return WTG_OK;
	if (wtg_burner_set(before) < 0) {
		wtg_table_fail(ctx->t, "cannot put the burners back");
		return WTG_ERR;
	}
	bool others = wtg_ctx_interleave(ctx);
	c[OFF].start_s[j + 1] = wtg_ctx_run_offset_s(ctx);
	if (others) {
		(*interleaved)++;
		(void)wtg_time_getpid_batch(calls);	/* untimed, as a warm-up after the others */
	}
	return WTG_OK;
}

/* The blocks, alternating: each pair (one block per condition) in the seeded generator's order. */
static int measure(struct wtg_ctx *ctx, struct cond_run *c, int ncpu, long calls, char *order, int before,
		   int *interleaved)
{
	const int nsteps = 2 * BLOCKS + 1;
	for (int b = 0; b < BLOCKS; b++) {
		int brc = replica_begins(ctx, c, b, before, calls, interleaved);
		if (brc != WTG_OK)
			return brc;
		int first = (int)wtg_rng_below(&ctx->rng, 2);
		order[b] = first == ON ? 'N' : 'F';
		for (int k = 0; k < 2; k++) {
			int cond = k == 0 ? first : 1 - first;
			int rc = block(ctx, &c[cond], cond, ncpu, calls, 1 + 2 * b + k, nsteps);
			if (rc != WTG_OK)
				return rc;
		}
		/* the lesson so far, before the rows: the p99s of the blocks run */
		double quiet = wtg_quantile(c[OFF].v, (size_t)c[OFF].n, 0.99);
		double loaded = wtg_quantile(c[ON].v, (size_t)c[ON].n, 0.99);
		if (quiet > 0)
			wtg_table_sofar(ctx->t, "p99 x%.2f with burners: %.0f vs %.0f ns (%d of %d block pairs)",
					loaded / quiet, loaded, quiet, b + 1, BLOCKS);
	}
	order[BLOCKS] = '\0';
	return wtg_burner_set(0) < 0 ? WTG_ERR : WTG_OK;
}

extern const struct wtg_experiment wtg_exp_tail;

static const struct wtg_column cols[] = {
	WTG_DISTRIBUTION("condition"),
	{ "burner_iterations", "count", WTG_T_INT, 0 },
	{ "p99_ratio", "", WTG_T_REAL, 2 },
	{ "p99_ratio_ci_low", "", WTG_T_REAL, 2 },
	{ "p99_ratio_ci_high", "", WTG_T_REAL, 2 },
	{ "burners", "count", WTG_T_INT, 0 },
	{ "above_2x", "count", WTG_T_INT, 0 },
	{ "above_2x_pct", "%", WTG_T_REAL, 2 },
	{ "above_2x_pct_ci_low", "%", WTG_T_REAL, 2 },
	{ "above_2x_pct_ci_high", "%", WTG_T_REAL, 2 },
	{ "blocks", "count", WTG_T_INT, 0 },
	{ "block_batches", "count", WTG_T_INT, 0 },
	{ "others_runnable", "count", WTG_T_REAL, 2 },
	{ "runq_wait_pct", "%", WTG_T_REAL, 2 },
	{ "core_type", "", WTG_T_TEXT, 0 },
	/* the p99's extra time over the median's batches divided (tail_parts.h), each part's share */
	{ "p99_excess_ns", "ns", WTG_T_REAL, 1 },
	{ "p99_wait_pct", "%", WTG_T_REAL, 1 },
	{ "p99_wait_pct_ci_low", "%", WTG_T_REAL, 1 },
	{ "p99_wait_pct_ci_high", "%", WTG_T_REAL, 1 },
	{ "p99_oncpu_pct", "%", WTG_T_REAL, 1 },
	{ "p99_oncpu_pct_ci_low", "%", WTG_T_REAL, 1 },
	{ "p99_oncpu_pct_ci_high", "%", WTG_T_REAL, 1 },
	{ "p99_irq_pct", "%", WTG_T_REAL, 1 },
	{ "p99_irq_pct_ci_low", "%", WTG_T_REAL, 1 },
	{ "p99_irq_pct_ci_high", "%", WTG_T_REAL, 1 },
	{ "p99_steal_pct", "%", WTG_T_REAL, 1 },
	{ "p99_steal_pct_ci_low", "%", WTG_T_REAL, 1 },
	{ "p99_steal_pct_ci_high", "%", WTG_T_REAL, 1 },
	{ "p99_unexplained_pct", "%", WTG_T_REAL, 1 },
	{ "p99_unexplained_pct_ci_low", "%", WTG_T_REAL, 1 },
	{ "p99_unexplained_pct_ci_high", "%", WTG_T_REAL, 1 },
	{ "p90_excess_ns", "ns", WTG_T_REAL, 1 },
	{ "p90_wait_pct", "%", WTG_T_REAL, 1 },
	{ "p90_oncpu_pct", "%", WTG_T_REAL, 1 },
	{ "p90_irq_pct", "%", WTG_T_REAL, 1 },
	{ "p90_steal_pct", "%", WTG_T_REAL, 1 },
	{ "p90_unexplained_pct", "%", WTG_T_REAL, 1 },
	{ "irq_read_ns", "ns", WTG_T_REAL, 0 },
	{ "stat_read_ns", "ns", WTG_T_REAL, 0 },
};

/* How the p99's extra time was divided, and what was not read. */
static void parts_notes(struct wtg_ctx *ctx, const struct tp_reader *rd)
{
	char oncpu[200];
	if (wtg_thread_cpu_moves())
		snprintf(oncpu, sizeof oncpu, "the batch's wall time less its wait: no perf task-clock counter here, "
					      "and reading CLOCK_THREAD_CPUTIME_ID beside a batch would preempt the thread "
					      "outside it");
	else
		snprintf(oncpu, sizeof oncpu, "the thread's CPU time from %s, its own read of %lld ns taken out",
			 wtg_thread_cpu_source(), (long long)rd->clock_excess_ns);
	wtg_table_note(ctx->t,
		       "the p99's extra time (p99_*): the mean of the batches above the p99 less the mean of those "
		       "between the 45th and 55th percentiles, in ns per call, divided: waiting for a CPU "
		       "(schedstat's run-queue wait), on a CPU (%s), interrupts (the wall time one costs, the "
		       "slope over every batch, times how many more the tail took on its CPU), steal "
		       "(/proc/stat's, in ticks of %.0f ms), and the rest unexplained; each share with a "
		       "bootstrap 95%% interval (%d resamples of the batches); p90_* the same for the batches "
		       "above the p90",
		       oncpu, rd->tick_ns / 1e6, TP_RESAMPLES);
	const char *what[2] = { "/proc/interrupts", "/proc/stat" };
	const double cost[2] = { rd->irq_read_ns, rd->stat_read_ns };
	const bool on[2] = { rd->irq_on, rd->stat_on };
	for (int k = 0; k < 2; k++) {
		if (on[k])
			continue;
		if (isfinite(cost[k]))
			wtg_table_note(ctx->t,
				       "%s was not read around each batch: one read costs %.0f us, more than "
				       "%.0f%% of a batch; its part is n/a",
				       what[k], cost[k] / 1e3, 100.0 * TP_READ_SHARE);
		else
			wtg_table_note(ctx->t, "%s is not readable here: its part is n/a", what[k]);
	}
}

/* The notes that say how it was measured and what it found. */
static void notes(struct wtg_ctx *ctx, const struct wtg_summary *s, long calls, double per_call, int ncpu,
		  int before, const char *order, const struct tp_reader *rd)
{
	const int n = BLOCKS * BLOCK_BATCHES;
	wtg_table_note(ctx->t, "p99 ratio (burners on / off): %.2f, its 95%% CI a two-level bootstrap of the two "
		       "conditions' p99s (%d resamples of the replicas, then of the batches within each); "
		       "median ratio: %.2f",
		       s[OFF].p99 > 0 ? s[ON].p99 / s[OFF].p99 : 0, WTG_BOOTSTRAP_RESAMPLES,
		       s[OFF].median > 0 ? s[ON].median / s[OFF].median : 0);
	wtg_table_note(ctx->t, "others_runnable: /proc/stat procs_running less the measuring thread, read before "
		       "every %dth batch and averaged; runq_wait_pct: the measuring thread's run-queue wait "
		       "(schedstat) as a share of its blocks' time; quiet blocks count as quiet below %.0f%% "
		       "and %.0f other task", WTG_RUNNABLE_EVERY, QUIET_WAIT_PCT, WTG_QUIET_OTHERS);
	wtg_table_note(ctx->t,
		       "%d batches of %ld raw getpid calls per condition (ns per call per batch), in %d "
		       "blocks of %d per condition, alternating; each pair of blocks in seeded order "
		       "(N: burners on first, F: off first): %s",
		       n, calls, BLOCKS, BLOCK_BATCHES, order);
	wtg_table_note(ctx->t,
		       "calls per batch fitted before measuring: %d unreported batches of %d calls, median "
		       "%.0f ns per call, so a quiet batch lasts about %.2f ms",
		       CAL_BATCHES, CAL_CALLS, per_call, (double)calls * per_call / 1e6);
	wtg_table_note(ctx->t,
		       "burners on: %d (one per online CPU); each loaded block starts once every burner has "
		       "reported a batch of its work done (at most %d ms after they start); put back to %d "
		       "afterwards",
		       ncpu, SETTLE_MS, before);
	wtg_table_note(ctx->t,
		       "p99 of %d batches sits between order statistics %d and %d: %d batches lie above "
		       "it, so it is not the maximum; above_2x is the share of batches slower than twice "
		       "the quiet median, with its Wilson 95%% interval",
		       n, (int)(0.99 * (n - 1)) + 1, (int)(0.99 * (n - 1)) + 2, n - (int)(0.99 * (n - 1)) - 1);
	parts_notes(ctx, rd);
	char types[512];
	wtg_topology_types_note(wtg_topology_this(), types, sizeof types);
	wtg_table_note(ctx->t, "%s", types);
}

/* The loaded condition's row label. */
static void on_label(char *buf, size_t len, int ncpu)
{
	snprintf(buf, len, "burners on (%d)", ncpu);
}

static int tail_run(struct wtg_ctx *ctx)
{
	const int n = BLOCKS * BLOCK_BATCHES;
	const int ncpu = wtg_online_cpus();
	wtg_experiment_columns(&wtg_exp_tail, ctx->t);
	struct tp_reader rd = { .fd_sched = -1, .fd_irq = -1, .fd_stat = -1 };	/* opened after the warm-up */
	struct cond_run c[2] = { { .v = calloc((size_t)n, sizeof(double)), .rd = &rd },
				 { .v = calloc((size_t)n, sizeof(double)), .rd = &rd } };
	bool parts = tp_samples_alloc(&c[OFF].parts, (size_t)n) == 0 && tp_samples_alloc(&c[ON].parts, (size_t)n) == 0;
	const int before = wtg_burner_count(); /* whatever the b key set is put back at the end */
	int rc = WTG_OK;
	char order[BLOCKS + 1] = "";
	if (!c[OFF].v || !c[ON].v || !parts) {
		wtg_table_fail(ctx->t, "out of memory for %d samples", 2 * n);
		rc = WTG_ERR;
		goto out;
	}
	if (wtg_burner_set(0) < 0) {
		wtg_table_fail(ctx->t, "cannot stop the burners");
		rc = WTG_ERR;
		goto out;
	}
	wtg_ctx_progress(ctx, 0, 2 * BLOCKS + 1, "warm-up: fitting the batch size");
	double per_call = 0;
	long calls = fit_calls(ctx->opt->quick ? BATCH_NS_QUICK : BATCH_NS, &per_call);
	tp_reader_open(&rd, (double)calls * per_call);	/* what a read costs beside a batch */
	int interleaved = 0;
	c[OFF].start_s[0] = wtg_ctx_run_offset_s(ctx);
	rc = measure(ctx, c, ncpu, calls, order, before, &interleaved);
	if (rc != WTG_OK)
		goto out;
	struct wtg_summary s[2];
	char label[48];
	on_label(label, sizeof label, ncpu);
	double quiet = wtg_quantile(c[OFF].v, (size_t)n, 0.5);
	if (add_row(ctx, "burners off", &c[OFF], 0, quiet, NULL, NULL, &s[OFF]) < 0 ||
	    add_row(ctx, label, &c[ON], ncpu, quiet, &c[OFF], &s[OFF], &s[ON]) < 0) {
		rc = WTG_ERR;
		goto out;
	}
	wtg_table_check(ctx->t, "loaded", c[ON].work > 0 && c[OFF].work == 0,
			"the burners did %llu iterations during the loaded blocks and %llu during the idle "
			"ones",
			(unsigned long long)c[ON].work, (unsigned long long)c[OFF].work);
	quiet_check(ctx, &c[OFF], ncpu);
	notes(ctx, s, calls, per_call, ncpu, before, order, &rd);
	wtg_replicas_notes(ctx, "blocks of consecutive pairs of blocks",
			   "an untimed batch (the run's own burners back while the others measured)", interleaved,
			   c[OFF].start_s);
	wtg_ctx_progress(ctx, 2 * BLOCKS + 1, 2 * BLOCKS + 1, "done");
out:
	wtg_burner_set(before);
	tp_reader_close(&rd);
	tp_samples_free(&c[OFF].parts);
	tp_samples_free(&c[ON].parts);
	free(c[OFF].v);
	free(c[ON].v);
	return rc;
}

/* --dry-run: the two conditions, BLOCKS blocks of BLOCK_BATCHES batches each, after the warm-up
 * that fits the batch size. */
static void tail_plan(struct wtg_plan *p)
{
	char on[48];
	on_label(on, sizeof on, wtg_online_cpus());
	const char *const rows[] = { "burners off", on };
	wtg_plan_labels(p, "condition", rows, 2, BLOCKS * BLOCK_BATCHES, CAL_BATCHES);
}

/* The p99's extra time of the loaded row divided, in words ("; under burners the p99's extra 1.9 us is 84%
 * waiting for a CPU, 9% on a CPU, 7% unexplained"), or "" when the table has no division. */
static void parts_words(const struct wtg_table *t, char *buf, size_t len)
{
	int row = -1;
	buf[0] = '\0';
	wtg_verdict_extreme(t, NULL, NULL, "burners", 1, &row);
	char words[200];
	char *colon;
	if (tp_row_words(words, sizeof words, t, row, "p99", "p99") <= 0)
		return;
	int o = snprintf(buf, len, "; under burners %s", words);
	if (o > 0 && (size_t)o + 3 < len && (colon = strstr(buf, ": ")) != NULL) {
		memmove(colon + 4, colon + 2, strlen(colon + 2) + 1);	/* "extra 1.9 us: 84%" reads "... is 84%" */
		memcpy(colon, " is ", 4);
	}
}

/* "p99 with burners = x3.1 the quiet one; under burners the p99's extra 1.9 us is 84% waiting for a
 * CPU, ...": a sentence read aloud, its figure after the "= " (the dashboard's "here:"). */
static int tail_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	double r = wtg_verdict_value(t, NULL, NULL, "p99_ratio");
	double w = wtg_verdict_value(t, "condition", "burners off", "runq_wait_pct");
	double o = wtg_verdict_value(t, "condition", "burners off", "others_runnable");
	char parts[256];
	parts_words(t, parts, sizeof parts);
	if (isfinite(r) && (w > QUIET_WAIT_PCT || o >= WTG_QUIET_OTHERS))
		return wtg_verdict_fmt(buf, len, true, "p99 with burners = x%.1f the quiet one, though the quiet blocks were busy too%s",
				       r, parts);
	return wtg_verdict_fmt(buf, len, isfinite(r), "p99 with burners = x%.1f the quiet one%s", r, parts);
}

const struct wtg_experiment wtg_exp_tail = {
	.name = "tail",
	.question = "Where does interference live?",
	.runs = "getpid batches with the burners off and on in alternating seeded blocks, 1000 per "
		"condition; percentiles, p99 ratio, share above 2x the quiet median (Wilson CI)",
	.needs_datafile = false,
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_HISTOGRAM,
	.hist = { .label = "condition" },
	/* the lesson is the p99: before -> after leads with it, then the median */
	.headline = { { "p99 ratio (p99 with burners over p99 without)", NULL, NULL, "p99_ratio", "p99_ratio_ci_low",
			"p99_ratio_ci_high", NULL, "", false, .is_ratio = true },
		      { "median ns per getpid (burners off)", "condition", "burners off", "median_ns", "ci_low_ns",
			"ci_high_ns", "burners off", "ns", false } },
	.typical_s = 3,
	.typical_quick_s = 1,
	.verdict = tail_verdict,
	.essay = { "the median holds, the p99 moves 3.4x when other work shares the CPUs", NULL, .value = 3.4,
		   .why = wtg_why_tail },
	.self_conditions = WTG_COND_BURN,
	.terms = WTG_TERMS("tail", "p99", "median", "burner", "contended", "ci"),
	.interleaves = true,
	.run = tail_run,
	.plan = tail_plan,
};
