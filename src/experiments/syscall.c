/* syscall.c: What does one kernel crossing cost?
 *
 * Raw syscall(SYS_getpid) timed in batches of 1 .. 10000 calls. Every batch size gets the same
 * number of batches, and all batches (plus empty clock pairs, the stopwatch's own cost) run in one
 * seeded random order, so a slow stretch of the machine cannot favour one batch size. Every batch
 * records its run-queue wait (the probe's schedstat): a batch that waited for a CPU more than 2% of
 * its wall time is contended, and a row's figures use the other batches when enough remain. A
 * batch that never waited can still share the machine with busy tasks on the other CPUs (a core's
 * sibling, the caches, the host's CPU): the tasks runnable are read between batches, and a run
 * among them says so. */
#include "config.h"

#include <math.h>
#include <sched.h>

#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "io.h"
#include "rounds.h"
#include "tail_parts.h"
#include "why.h"
#include "wtg/ctx.h"
#include "wtg/paired.h"
#include "wtg/plan.h"
#include "wtg/watch.h"

static const long batch_sizes[] = { 1, 10, 100, 1000, 10000 };
#define NSIZES ((int)WTG_ARRAY_LEN(batch_sizes))
#define CLOCK_SLOT NSIZES /* schedule entry for an empty clock pair */

/* The stopwatch alone: two clock reads with nothing between them, as wtg_time_getpid_batch does. */
extern const struct wtg_experiment wtg_exp_syscall;

static const struct wtg_column cols[] = {
	{ "batch", "count", WTG_T_INT, 0 },
	{ "batches", "count", WTG_T_INT, 0 },
	{ "median_ns", "ns", WTG_T_REAL, 1 },
	{ "p99_ns", "ns", WTG_T_REAL, 1 },
	{ "mean_ns", "ns", WTG_T_REAL, 1 },
	{ "min_ns", "ns", WTG_T_REAL, 1 },
	{ "ci_low_ns", "ns", WTG_T_REAL, 1 },
	{ "ci_high_ns", "ns", WTG_T_REAL, 1 },
	{ "clock_ns", "ns", WTG_T_REAL, 1 },
	{ "clock_share_pct", "%", WTG_T_REAL, 1 },
	{ "contended", "count", WTG_T_INT, 0 },
	{ "cpu_share", "", WTG_T_REAL, 2 },
	{ "oncpu_ns", "ns", WTG_T_REAL, 1 },
	{ "others_runnable", "count", WTG_T_REAL, 2 },
	/* the contended batches' extra time over the uncontended median band, divided (tail_parts.h) */
	{ "contended_excess_ns", "ns", WTG_T_REAL, 1 },
	{ "contended_wait_pct", "%", WTG_T_REAL, 1 },
	{ "contended_wait_pct_ci_low", "%", WTG_T_REAL, 1 },
	{ "contended_wait_pct_ci_high", "%", WTG_T_REAL, 1 },
	{ "contended_oncpu_pct", "%", WTG_T_REAL, 1 },
	{ "contended_oncpu_pct_ci_low", "%", WTG_T_REAL, 1 },
	{ "contended_oncpu_pct_ci_high", "%", WTG_T_REAL, 1 },
	{ "contended_irq_pct", "%", WTG_T_REAL, 1 },
	{ "contended_irq_pct_ci_low", "%", WTG_T_REAL, 1 },
	{ "contended_irq_pct_ci_high", "%", WTG_T_REAL, 1 },
	{ "contended_steal_pct", "%", WTG_T_REAL, 1 },
	{ "contended_steal_pct_ci_low", "%", WTG_T_REAL, 1 },
	{ "contended_steal_pct_ci_high", "%", WTG_T_REAL, 1 },
	{ "contended_unexplained_pct", "%", WTG_T_REAL, 1 },
	{ "contended_unexplained_pct_ci_low", "%", WTG_T_REAL, 1 },
	{ "contended_unexplained_pct_ci_high", "%", WTG_T_REAL, 1 },
};
#define NCOLS_PLAIN 14	/* the columns before the division's */

static double time_clock_pair(void)
{
	int64_t t0 = wtg_now_ns();
	int64_t t1 = wtg_now_ns();
	return (double)(t1 - t0);
}

/* A run: the shuffled schedule and the samples, grouped by slot kind, each group in time order. */
struct sc_run {
	int nbatches, nslots;
	int *order;
	double *samples;
	unsigned char *contended;	/* per sample (batches only): waited for a CPU */
	double *cpu_share;		/* per sample: on-CPU share of the batch's wall time, NAN unknown */
	double *oncpu_ns;		/* per sample: the batch's on-CPU time per call, NAN unknown */
	double *mhz;			/* per sample: its CPU's frequency after it (cpufreq), NAN not read */
	bool freq;			/* cpufreq is readable here */
	struct wtg_probe_result *probes;
	struct wtg_others others[NSIZES];	/* other runnable tasks, read between batches, per size */
	int filled[NSIZES + 1];
	/* the replicas: equal parts of the schedule; cut[k][j]: size k's batches before replica j + 1 */
	size_t cut[NSIZES + 1][WTG_ROUNDS_REPLICAS - 1];
	int interleaved;			/* replicas after which other experiments measured */
	double start_s[WTG_ROUNDS_REPLICAS];	/* when each replica began in an interleaved run */
	struct tp_reader *rd;			/* read around each batch: CPU clock, schedstat, interrupts, steal */
	bool irq_on[NSIZES], stat_on[NSIZES];	/* per size: interrupts and steal read around its batches */
	struct tp_samples parts[NSIZES];	/* each batch's time on a CPU, waiting, interrupts, steal */
	int arm;				/* a paired run (--versus): 0 arm A, 1 arm B */
	/* arm B of a paired run measures for as long as arm A did each round: its replicas end at
	 * rounds, not at slots (its length is known only at the end); next: where it stands */
	bool timed;
	int next;
	int reached;				/* slots of its schedule it ran before the trim */
	const char *prefix;			/* "" for arm A, "B: " before arm B's series and checks */
};

/* The replica that ends before slot i of the schedule (its equal parts in time), -1 when none does
 * (the last part's end is the schedule's). */
static int replica_end(const struct sc_run *st, int i)
{
	if (st->timed)
		return -1;
	for (int j = 0; j < WTG_ROUNDS_REPLICAS - 1; j++)
		if (i == (int)((long)st->nslots * (j + 1) / WTG_ROUNDS_REPLICAS))
			return j;
	return -1;
}

/* A replica ended before slot i: where each size's batches stand, then (an interleaved run) the other
 * experiments' turn and, when they measured, one untimed batch of every size again. */
static void sc_replica(struct wtg_ctx *ctx, struct sc_run *st, int j)
{
	for (int k = 0; k <= NSIZES; k++)
		st->cut[k][j] = (size_t)st->filled[k];
	bool others = !st->timed && wtg_ctx_interleave(ctx);	/* arm A's replica ends hand over */
	st->start_s[j + 1] = wtg_ctx_run_offset_s(ctx);
	if (!others)
		return;
	st->interleaved++;
	for (int k = 0; k < NSIZES; k++)
		(void)wtg_time_getpid_batch(batch_sizes[k]);
}

/* Whether a timed arm's part may end after slot i: budget_ns (>= 0) spent since t0 and every batch
 * size and the clock pair measured at least once since the part began (filled0: the counts then). */
static bool sc_spent(const struct sc_run *st, int64_t t0, int64_t budget_ns, const int *filled0)
{
	if (budget_ns < 0 || wtg_now_ns() - t0 < budget_ns)
		return false;
	for (int k = 0; k <= NSIZES; k++)
		if (st->filled[k] == filled0[k])
			return false;
	return true;
}

/* Slots from .. to - 1 of the schedule: each a getpid batch of its size, or an empty clock pair;
 * with budget_ns >= 0 (a timed arm; -1: none) it ends sooner, once that long has passed and every
 * size has had a batch. Sets st->next to the slot after the last one run. */
static int sc_measure(struct wtg_ctx *ctx, struct sc_run *st, int from, int to, int64_t budget_ns)
{
	int64_t last_check = wtg_now_ns(), t0 = last_check;
	int filled0[NSIZES + 1];
	memcpy(filled0, st->filled, sizeof filled0);
	if (from == 0)
		st->start_s[0] = wtg_ctx_run_offset_s(ctx);
	st->next = from;
	for (int i = from; i < to && !(i > from && sc_spent(st, t0, budget_ns, filled0)); i++) {
		st->next = i + 1;
		int j = replica_end(st, i);
		if (j >= 0)
			sc_replica(ctx, st, j);
		int k = st->order[i];
		double v;
		int at = k * st->nbatches + st->filled[k]++;
		st->contended[at] = 0;
		st->cpu_share[at] = st->oncpu_ns[at] = st->mhz[at] = NAN;
		if (k == CLOCK_SLOT) {
			v = time_clock_pair();
		} else {
			struct wtg_probe p;
			struct wtg_probe_result r;
			struct tp_mark ma, mb;
			wtg_others_read(&st->others[k], i);
			st->rd->irq_on = st->irq_on[k];
			st->rd->stat_on = st->stat_on[k];
			wtg_probe_begin(&p);
			tp_mark_before(st->rd, &ma);	/* inside the probe: the CPU clock's window is the batch's */
			v = wtg_time_getpid_batch(batch_sizes[k]);
			tp_mark_after(st->rd, &ma, &mb);
			if (st->freq && st->stat_on[k])	/* as cheap as /proc/stat beside a batch */
				st->mhz[at] = wtg_cpu_mhz(mb.cpu);
			wtg_probe_end(&p, &r);
			tp_store(st->rd, &st->parts[k], (size_t)(st->filled[k] - 1), v, batch_sizes[k], &ma, &mb);
			wtg_probe_accumulate(&st->probes[k], &r);
			st->contended[at] = wtg_probe_contended(&r);
			st->cpu_share[at] = wtg_probe_cpu_share(&r);
			if (isfinite(st->cpu_share[at]))
				st->oncpu_ns[at] = v - (r.wall_ms - r.oncpu_ms) * 1e6 / (double)batch_sizes[k];
		}
		st->samples[at] = v;
		int64_t now = wtg_now_ns();
		if (now - last_check > 50 * 1000000LL) {
			last_check = now;
			char label[64];
			snprintf(label, sizeof label, "batch %d of %d", i + 1, st->nslots);
			wtg_ctx_progress(ctx, i, st->nslots, label);
			/* the figure so far, before the rows: batches of 1000, as the verdict reads */
			int h = 0;
			while (h < NSIZES - 1 && batch_sizes[h] != 1000)
				h++;
			if (st->filled[h] > 0)
				wtg_table_sofar(ctx->t, "one kernel crossing %.0f ns (median of %d batches of %ld)",
						wtg_quantile(st->samples + h * st->nbatches, (size_t)st->filled[h], 0.5),
						st->filled[h], batch_sizes[h]);
			if (wtg_ctx_cancelled(ctx))
				return WTG_CANCELLED;
		}
	}
	return WTG_OK;
}

/* The batches of size k a row's figures use: the uncontended ones when at least WTG_CONTENDED_KEEP
 * remain, else all (*all set). Returns their count in use; *busy gets the contended ones. */
static size_t sc_used(const struct sc_run *st, int k, double *use, size_t *busy, bool *all)
{
	const int nb = st->nbatches;
	const unsigned char *flag = st->contended + k * nb;
	*busy = 0;
	for (int i = 0; i < nb; i++)
		*busy += flag[i];
	*all = (size_t)nb - *busy < WTG_CONTENDED_KEEP;
	size_t n = 0;
	for (int i = 0; i < nb; i++)
		if (*all || !flag[i])
			use[n++] = st->samples[k * nb + i];
	return n;
}

/* The "contended" check of batch size k and its flags as a series beside the batches (flags: room for
 * nbatches values). */
static void sc_contention(struct wtg_ctx *ctx, const struct sc_run *st, int k, size_t busy, bool all, double oncpu,
			  double *flags)
{
	const int nb = st->nbatches;
	for (int i = 0; i < nb; i++)
		flags[i] = st->contended[k * nb + i];
	char name[48];
	snprintf(name, sizeof name, "%sbatch %ld contended", st->prefix, batch_sizes[k]);
	wtg_table_add_series(ctx->t, name, "flag", flags, (size_t)nb);
	if (busy == 0)
		return;
	char oncpu_txt[64] = "";
	if (isfinite(oncpu))
		snprintf(oncpu_txt, sizeof oncpu_txt, "; on a CPU a call took %.1f ns (oncpu_ns, the median)", oncpu);
	if (all)
		wtg_table_warn(ctx->t, "contended",
			       "%sbatch %ld: %zu of %d batches waited for a CPU (more than %.0f%% of their wall time) "
			       "and fewer than %d others remain: the figures use all of them, so they count "
			       "time the thread sat descheduled (a busy machine)%s",
			       st->prefix, batch_sizes[k], busy, nb, 100 * WTG_CONTENDED_WAIT_SHARE, WTG_CONTENDED_KEEP, oncpu_txt);
	else
		wtg_table_check(ctx->t, "contended", true,
				"%sbatch %ld: %zu of %d batches waited for a CPU (more than %.0f%% of their wall "
				"time); the figures use the other %zu",
				st->prefix, batch_sizes[k], busy, nb, 100 * WTG_CONTENDED_WAIT_SHARE, (size_t)nb - busy);
}

/* Keep x (size k's nbatches readings, NAN where none) as the series "NAME what" when any was read,
 * then only the readings of the batches the figures use (all, or the uncontended), in place.
 * Returns x, or NULL when none was read. */
static const double *sc_beside(struct wtg_ctx *ctx, const struct sc_run *st, int k, const char *name, bool all,
			       const char *what, const char *unit, double *x)
{
	const int nb = st->nbatches;
	size_t n = 0, read = 0;
	for (int i = 0; i < nb; i++)
		read += isfinite(x[i]);
	if (!read)
		return NULL;
	char sn[64];
	snprintf(sn, sizeof sn, "%s %s", name, what);
	wtg_table_add_series(ctx->t, sn, unit, x, (size_t)nb);
	for (int i = 0; i < nb; i++)
		if (all || !st->contended[k * nb + i])
			x[n++] = x[i];
	return x;
}

/* Beside each of size k's batches, where read around them: the steal (% of its time) and its CPU's
 * MHz, as the series "NAME steal" and "NAME mhz"; *steal and *mhz (in use + nbatches, use + 2
 * nbatches) get them for the batches the figures use, NULL where not read. */
static void sc_state(struct wtg_ctx *ctx, const struct sc_run *st, int k, const char *name, bool all, double *use,
		     const double **steal, const double **mhz)
{
	const int nb = st->nbatches;
	const struct tp_samples *p = &st->parts[k];
	double *s = use + nb, *m = use + 2 * nb;
	for (int i = 0; i < nb; i++) {
		s[i] = st->stat_on[k] && p->w[i] > 0 && isfinite(p->s[i]) ? 100.0 * p->s[i] / p->w[i] : NAN;
		m[i] = st->mhz[k * nb + i];
	}
	*steal = sc_beside(ctx, st, k, name, all, "steal", "%", s);
	*mhz = sc_beside(ctx, st, k, name, all, "mhz", "MHz", m);
}

/* A row per batch size with the clock pair's share of it; returns that share at batch 1. */
static double sc_rows(struct wtg_ctx *ctx, const struct sc_run *st, double clock_ns)
{
	int nb = st->nbatches;
	double share1 = 0;
	double *use = malloc(3 * (size_t)nb * sizeof *use);	/* the batches used, their steal and MHz */
	if (!use) {
		wtg_table_fail(ctx->t, "out of memory summarizing the batches");
		return 0;
	}
	for (int k = 0; k < NSIZES; k++) {
		const double *v = st->samples + k * nb;
		size_t busy;
		bool all;
		size_t n = sc_used(st, k, use, &busy, &all);
		struct wtg_summary s;
		/* the median's interval: the two-level bootstrap over the replicas (parts of the schedule) */
		if (wtg_summarize_resamples(use, n, wtg_ctx_seed(ctx, (unsigned)k), 0, &s) < 0 ||
		    wtg_replicas_ci(v, all ? NULL : st->contended + k * nb, (size_t)nb, st->cut[k],
				    wtg_ctx_seed(ctx, (unsigned)k), &s.ci_low, &s.ci_high) < 0) {
			wtg_table_fail(ctx->t, "out of memory summarizing batch %ld", batch_sizes[k]);
			break;
		}
		/* a batch far shorter than the CPU clock's read cannot tell its share: none for its row */
		bool resolved = s.median * (double)batch_sizes[k] >= WTG_PROBE_RESOLVE * (double)wtg_probe_cpu_excess_ns();
		double cpu = resolved ? wtg_median_finite(st->cpu_share + k * nb, (size_t)nb, use) : NAN;
		double oncpu = resolved ? wtg_median_finite(st->oncpu_ns + k * nb, (size_t)nb, use) : NAN;
		double share = s.median > 0 ? 100.0 * clock_ns / (double)batch_sizes[k] / s.median : 0;
		if (k == 0)
			share1 = share;
		struct wtg_value row[WTG_MAX_COLS] = {
			WTG_INT(batch_sizes[k]), WTG_INT(nb),	  WTG_REAL(s.median), WTG_REAL(s.p99),
			WTG_REAL(s.mean),	 WTG_REAL(s.min),   WTG_REAL(s.ci_low), WTG_REAL(s.ci_high),
			WTG_REAL(clock_ns),	 WTG_REAL(share),	 WTG_INT(busy),
			isfinite(cpu) ? WTG_REAL(cpu) : WTG_NA,
			isfinite(oncpu) ? WTG_REAL(oncpu) : WTG_NA,
			st->others[k].n ? WTG_REAL(wtg_others_mean(&st->others[k])) : WTG_NA,
		};
		/* the contended batches' extra time divided, where some batches waited and some did not */
		struct tp_division d;
		st->rd->irq_on = st->irq_on[k];	/* n/a where not read */
		st->rd->stat_on = st->stat_on[k];
		if (resolved && busy > 0 && (int)busy < nb)
			tp_divide_marked(&st->parts[k], st->contended + k * nb, TP_RESAMPLES,
					 wtg_ctx_seed(ctx, 300u + (unsigned)k), &d);
		else
			tp_division_na(&d);	/* nothing to set apart */
		tp_values(&d, st->rd, true, row + NCOLS_PLAIN);
		char name[32];
		snprintf(name, sizeof name, "%sbatch %ld", st->prefix, batch_sizes[k]);
		wtg_table_add_series(ctx->t, name, "ns", v, (size_t)nb);
		wtg_series_replicas_cut(ctx, name, (size_t)nb, st->cut[k]);
		sc_contention(ctx, st, k, busy, all, oncpu, use);
		wtg_table_add_row(ctx->t, row, wtg_arms_tag(ctx, row, (int)WTG_ARRAY_LEN(cols), st->arm), &st->probes[k]);
		const double *steal, *mhz;	/* beside each batch the figures use */
		sc_state(ctx, st, k, name, all, use, &steal, &mhz);
		n = sc_used(st, k, use, &busy, &all);
		wtg_regime_modes_with(ctx, name, "ns", use, steal, mhz, n, "batches", true);
		bool ok = s.min <= s.median && s.median <= s.p99 && s.p99 <= s.max && s.ci_low <= s.median &&
			  s.median <= s.ci_high;
		wtg_table_check(ctx->t, "quantiles", ok,
				"%sbatch %ld: min <= median <= p99 <= max, CI [%.1f, %.1f] holds the "
				"median %.1f",
				st->prefix, batch_sizes[k], s.ci_low, s.ci_high, s.median);
	}
	free(use);
	return share1;
}

/* Other tasks runnable while the batches ran, over the whole schedule: the mean of the rows'
 * others_runnable (NAN when the table has none, as a saved run from before the column). */
static double others_mean(const struct wtg_table *t)
{
	int c = wtg_table_col(t, "others_runnable");
	double sum = 0;
	int n = 0;
	for (int r = 0; c >= 0 && r < t->nrows; r++) {
		double v = wtg_table_num(t, r, c);
		if (isfinite(v)) {
			sum += v;
			n++;
		}
	}
	return n ? sum / n : NAN;
}

/* The run's own burners, as its rows record them: runnable by design, the condition. */
static int own_burners(const struct wtg_table *t)
{
	return t->nrows > 0 ? t->rows[0].cond.burners : 0;
}

/* "quiet": with as many as WTG_QUIET_OTHERS other tasks runnable on average beyond the run's own
 * burners (others_mean, as the verdict reads it) the figures are a busy machine's even where no
 * batch waited; the burners themselves are the condition. */
static void sc_quiet(struct wtg_ctx *ctx)
{
	double o = others_mean(ctx->t);
	if (!isfinite(o))
		return;
	const int burners = own_burners(ctx->t);
	int ncpu = wtg_online_cpus();
	double beyond = o - burners;
	if (beyond < WTG_QUIET_OTHERS && burners > 0)
		wtg_table_check(ctx->t, "quiet", true,
				"%.2f other tasks runnable on average (%d CPUs), %d of them this run's own burners: "
				"they are the condition, not noise", o, ncpu, burners);
	else if (beyond < WTG_QUIET_OTHERS)
		wtg_table_check(ctx->t, "quiet", true,
				"the machine was quiet: %.2f other tasks runnable on average while the batches ran "
				"(%d CPUs)", o, ncpu);
	else {
		char own[64] = "";
		if (burners > 0)
			snprintf(own, sizeof own, ", %.2f beyond this run's own %d burners", beyond, burners);
		wtg_table_warn(ctx->t, "quiet",
			       "the machine was busy: %.2f other tasks runnable on average while the batches ran "
			       "(%d CPUs%s); a batch that never waited for a CPU still shared the machine with them "
			       "(a core's sibling, the caches, the host's CPU), so these figures are a busy machine's, "
			       "not the cost of a crossing on a quiet one",
			       o, ncpu, own);
	}
}

/* How the contended batches' extra time was divided, and around which batches the counts were read. */
static void sc_parts_notes(struct wtg_ctx *ctx, const struct sc_run *st)
{
	const struct tp_reader *rd = st->rd;
	char sizes[2][64] = { "", "" };
	for (int k = 0; k < NSIZES; k++)
		for (int c = 0; c < 2; c++)
			if (c ? st->stat_on[k] : st->irq_on[k])
				snprintf(sizes[c] + strlen(sizes[c]), sizeof sizes[c] - strlen(sizes[c]), "%s%ld",
					 sizes[c][0] ? ", " : "", batch_sizes[k]);
	wtg_table_note(ctx->t,
		       "contended_*: the mean ns per call of a size's contended batches less the mean of its "
		       "uncontended ones between their 45th and 55th percentiles, divided as tail divides its p99's "
		       "extra time: waiting for a CPU (schedstat), on a CPU grown (the thread's CPU clock), "
		       "interrupts on its CPU (/proc/interrupts: read around batches of %s, where a read of %.0f us "
		       "costs at most %.0f%% of one), steal (/proc/stat: batches of %s, a read %.0f us), the rest "
		       "unexplained; each share with a bootstrap 95%% interval (%d resamples); n/a where no batch, or "
		       "every batch, waited, and where a batch is too short for the CPU clock (as cpu_share)",
		       sizes[0][0] ? sizes[0] : "no size", rd->irq_read_ns / 1e3, 100.0 * TP_READ_SHARE,
		       sizes[1][0] ? sizes[1] : "no size", rd->stat_read_ns / 1e3, TP_RESAMPLES);
}

static void sc_notes(struct wtg_ctx *ctx, const struct sc_run *st, double clock_ns, double share1)
{
	sc_quiet(ctx);
	int counted = 0;
	for (int k = 0; k <= NSIZES; k++)
		counted += st->filled[k] == st->nbatches;
	wtg_table_check(ctx->t, "batches", counted == NSIZES + 1,
			"every batch size and the clock pair ran %d times in one shuffled schedule of %d",
			st->nbatches, st->nslots);
	wtg_table_note(ctx->t,
		       "ns per call = (clock after - clock before) / batch; the %d batches of each size and "
		       "%d empty clock pairs ran interleaved in seeded random order (seed %llu)",
		       st->nbatches, st->nbatches, (unsigned long long)ctx->opt->seed);
	wtg_table_note(ctx->t,
		       "batch=1 includes the stopwatch: a clock pair alone measures %.1f ns (median, "
		       "clock_ns), %.0f%% of the batch=1 median; at batch=10000 its share is %.4f ns per "
		       "call",
		       clock_ns, share1, clock_ns / 10000.0);
	wtg_table_note(ctx->t, "each figure is an average over the calls of one batch, not the latency of "
			       "single calls: a stall inside a batch is spread over its calls");
	wtg_table_note(ctx->t,
		       "a batch is contended when its thread waited runnable for a CPU more than %.0f%% of its "
		       "wall time (schedstat's run-queue wait before and after): such a batch counted time the "
		       "thread sat descheduled; a row's figures use the other batches when at least %d remain "
		       "(contended; the series keep every batch, flagged in 'batch N contended'); oncpu_ns is "
		       "the median of the batches' ns per call less the time per call the thread spent off a CPU "
		       "(the thread's CPU clock, %s, against the wall clock around the batch, less the CPU clock's "
		       "own read, %.0f ns here): it leaves waiting out; cpu_share and oncpu_ns are n/a where a "
		       "batch lasts under %d times that read, which would decide them",
		       100 * WTG_CONTENDED_WAIT_SHARE, WTG_CONTENDED_KEEP, wtg_thread_cpu_source(),
		       (double)wtg_probe_cpu_excess_ns(), WTG_PROBE_RESOLVE);
	wtg_table_note(ctx->t,
		       "others_runnable: /proc/stat procs_running less the measuring thread, read before every "
		       "%dth batch (outside its timing) and averaged per batch size; the machine counts as quiet "
		       "below %.0f on average over the run (the rows' averages averaged)",
		       WTG_RUNNABLE_EVERY, WTG_QUIET_OTHERS);
	wtg_replicas_notes(ctx, "equal parts of the schedule in time", "an untimed batch of every size",
			   st->interleaved, st->start_s);
	sc_parts_notes(ctx, st);
}

/* Batches of each size a run times. */
static int batches_of(const struct wtg_options *o)
{
	return o->quick ? 100 : 200;
}

static void syscall_runs(bool quick, char *buf, size_t len)
{
	snprintf(buf, len, "raw syscall(SYS_getpid) in batches of 1..10000 calls, %d batches each; median and "
		 "p99 ns per call", batches_of(&(const struct wtg_options){ .quick = quick }));
}

/* The schedule's arrays for nbatches of every size and as many clock pairs, shuffled with the seed.
 * Returns 0, or -1 out of memory. */
static int sc_alloc(struct wtg_ctx *ctx, struct sc_run *st, int nbatches, int arm, struct tp_reader *rd)
{
	*st = (struct sc_run){ .nbatches = nbatches, .arm = arm, .prefix = arm ? "B: " : "", .rd = rd };
	st->nslots = (NSIZES + 1) * st->nbatches;
	st->order = malloc((size_t)st->nslots * sizeof *st->order);
	st->samples = malloc((size_t)st->nslots * sizeof *st->samples);
	st->contended = malloc((size_t)st->nslots);
	st->cpu_share = malloc((size_t)st->nslots * sizeof *st->cpu_share);
	st->mhz = malloc((size_t)st->nslots * sizeof *st->mhz);
	st->oncpu_ns = malloc((size_t)st->nslots * sizeof *st->oncpu_ns);
	st->probes = calloc(NSIZES, sizeof *st->probes);
	if (!st->order || !st->samples || !st->contended || !st->cpu_share || !st->oncpu_ns || !st->probes || !st->mhz)
		return -1;
	for (int k = 0; k < NSIZES; k++)
		if (tp_samples_alloc(&st->parts[k], (size_t)nbatches) < 0)
			return -1;
	for (int i = 0; i < st->nslots; i++)
		st->order[i] = i % (NSIZES + 1);
	wtg_shuffle_int(&ctx->rng, st->order, (size_t)st->nslots);
	return 0;
}

static void sc_free(struct sc_run *st)
{
	free(st->order);
	free(st->samples);
	free(st->contended);
	free(st->cpu_share);
	free(st->mhz);
	free(st->oncpu_ns);
	free(st->probes);
	for (int k = 0; k < NSIZES; k++)
		tp_samples_free(&st->parts[k]);
}

/* The median of size k's batches arm st measured since filled0 (its count before the round). */
static double sc_round_median(const struct sc_run *st, int k, const int *filled0)
{
	int n = st->filled[k] - filled0[k];
	return n > 0 ? wtg_quantile(st->samples + k * st->nbatches + filled0[k], (size_t)n, 0.5) : NAN;
}

/* The arms' time so far in a paired run: arm B is given what keeps its total at arm A's. */
struct sc_clock {
	int64_t a_total, b_total;	/* ns each arm has measured for */
	int64_t a_last;			/* A's latest part (before its first: an estimate) */
	int a_round;			/* the round of A's latest part, -1 before its first */
};

/* Round r's part of arm a: arm A its r-th fifteenth of the schedule; arm B (timed) from where it
 * stands until its time so far reaches A's (counting A's latest part again when A has not yet run
 * in this round), never past its own r-th fifteenth's end, its replicas ending with rounds 3, 6, ..
 * The time each arm took goes into ck. */
static int sc_part(struct wtg_ctx *ctx, struct sc_run *a, int r, struct sc_clock *ck)
{
	const int rounds = WTG_ROUNDS_MIN;
	const int end = (int)((long)a->nslots * (r + 1) / rounds);
	int64_t t0 = wtg_now_ns();
	int rc = WTG_OK;
	if (!a->timed) {
		rc = sc_measure(ctx, a, (int)((long)a->nslots * r / rounds), end, -1);
		ck->a_last = wtg_now_ns() - t0;
		ck->a_total += ck->a_last;
		ck->a_round = r;
		return rc;
	}
	if (r > 0 && r % WTG_ROUNDS_PER_REPLICA == 0)
		sc_replica(ctx, a, r / WTG_ROUNDS_PER_REPLICA - 1);
	int64_t budget = ck->a_total + (ck->a_round == r ? 0 : ck->a_last) - ck->b_total;
	if (a->next < end)
		rc = sc_measure(ctx, a, a->next, end, budget > 0 ? budget : 0);
	ck->b_total += wtg_now_ns() - t0;
	return rc;
}

/* Arm B trimmed to the batches every size (and the clock pair) reached, the first of each in time
 * order: its arrays packed to that count, its replica cuts within it. */
static void sc_trim(struct sc_run *st)
{
	int m = st->nbatches, nb = st->nbatches;
	for (int k = 0; k <= NSIZES; k++)
		m = st->filled[k] < m ? st->filled[k] : m;
	st->reached = st->next;
	for (int k = 1; k <= NSIZES; k++) {	/* size 0's are in place */
		memmove(st->samples + k * m, st->samples + k * nb, (size_t)m * sizeof *st->samples);
		memmove(st->contended + k * m, st->contended + k * nb, (size_t)m);
		memmove(st->cpu_share + k * m, st->cpu_share + k * nb, (size_t)m * sizeof *st->cpu_share);
		memmove(st->oncpu_ns + k * m, st->oncpu_ns + k * nb, (size_t)m * sizeof *st->oncpu_ns);
		memmove(st->mhz + k * m, st->mhz + k * nb, (size_t)m * sizeof *st->mhz);
	}
	for (int k = 0; k <= NSIZES; k++) {
		st->filled[k] = m;
		for (int j = 0; j < WTG_ROUNDS_REPLICAS - 1; j++)
			st->cut[k][j] = st->cut[k][j] < (size_t)m ? st->cut[k][j] : (size_t)m;
		if (k < NSIZES && st->parts[k].len > (size_t)m)
			st->parts[k].len = (size_t)m;
	}
	st->nbatches = m;
	st->nslots = (NSIZES + 1) * m;
}

/* A paired run: each arm's schedule in WTG_ROUNDS_MIN rounds, each round a part of it in each arm,
 * the arms in seeded order, arm B as long as arm A; per[k] gets each round's median of size k in
 * arm A, then in arm B. */
static int sc_paired(struct wtg_ctx *ctx, struct sc_run *st, double (*per)[2][WTG_ROUNDS_MIN], double per_call)
{
	const int rounds = WTG_ROUNDS_MIN;
	wtg_arms_begin(ctx);
	int rc = WTG_OK;
	/* B's budget before A has run a part (B first in the first round): A's first part's calls at
	 * the cost a call took before the run */
	double calls = 0;
	for (int i = 0; i < st[0].nslots / rounds; i++)
		calls += st[0].order[i] == CLOCK_SLOT ? 0 : (double)batch_sizes[st[0].order[i]];
	struct sc_clock ck = { .a_last = per_call > 0 ? (int64_t)(calls * per_call) : 0, .a_round = -1 };
	st[1].timed = true;
	for (int r = 0; r < rounds && rc == WTG_OK; r++) {
		bool b_first = wtg_arms_b_first(ctx, r);
		for (int pass = 0; pass < 2 && rc == WTG_OK; pass++) {
			int arm = (pass == 0) == b_first;
			struct sc_run *a = &st[arm];
			int filled0[NSIZES + 1];
			memcpy(filled0, a->filled, sizeof filled0);
			/* an arm's time includes switching to it (B's burners resumed and settled): the
			 * run's time is the two arms' equal shares */
			int64_t t0 = wtg_now_ns();
			rc = wtg_arms_enter(ctx, arm);
			int64_t sw = wtg_now_ns() - t0;
			if (arm)
				ck.b_total += sw;
			else
				ck.a_total += sw;
			if (rc == WTG_OK)
				rc = sc_part(ctx, a, r, &ck);
			for (int k = 0; k < NSIZES; k++)
				per[k][arm][r] = sc_round_median(a, k, filled0);
		}
	}
	return rc;
}

/* The rows of arm st (from its batches) and their series; the notes with arm A's. */
static void sc_finish(struct wtg_ctx *ctx, struct sc_run *st, int arms)
{
	const double *clk = st[0].samples + CLOCK_SLOT * st[0].nbatches;
	double clock_ns = wtg_quantile(clk, (size_t)st[0].nbatches, 0.5);
	double share1 = 0;
	for (int arm = 0; arm < arms; arm++) {
		(void)wtg_arms_enter(ctx, arm);	/* the rows say their arm's conditions */
		double s1 = sc_rows(ctx, &st[arm], clock_ns);
		if (arm == 0)
			share1 = s1;
	}
	wtg_table_add_series(ctx->t, "clock pair", "ns", clk, (size_t)st[0].nbatches);
	sc_notes(ctx, &st[0], clock_ns, share1);
}

/* The files read around each batch, opened once, and what a read costs beside a batch of 100. */
static double sc_reader(struct tp_reader *rd)
{
	double v[9];
	for (int i = 0; i < 9; i++)
		v[i] = wtg_time_getpid_batch(100);	/* untimed: a call's cost, for the batches' lengths */
	double per_call = wtg_quantile(v, 9, 0.5);
	tp_reader_open(rd, per_call * 100);
	return per_call;
}

/* Which counts a batch of each size reads around it: those costing little beside it. */
static void sc_reads(struct tp_reader *rd, struct sc_run *st, double per_call)
{
	for (int k = 0; k < NSIZES; k++) {
		tp_reader_for(rd, per_call * (double)batch_sizes[k]);
		st->irq_on[k] = rd->irq_on;
		st->stat_on[k] = rd->stat_on;
	}
	st->freq = isfinite(wtg_cpu_mhz(sched_getcpu()));
}

static int syscall_run(struct wtg_ctx *ctx)
{
	wtg_experiment_columns(&wtg_exp_syscall, ctx->t);
	/* the schedule: nbatches of every size and nbatches clock pairs, shuffled with the seed; a
	 * paired run has one such schedule per arm */
	struct sc_run st[2];
	const int arms = ctx->arms ? 2 : 1;
	double (*per)[2][WTG_ROUNDS_MIN] = NULL;
	int rc = WTG_OK;
	memset(st, 0, sizeof st);
	struct tp_reader rd;
	const double per_call = sc_reader(&rd);
	for (int arm = 0; arm < arms && rc == WTG_OK; arm++)
		if (sc_alloc(ctx, &st[arm], batches_of(ctx->opt), arm, &rd) < 0)
			rc = WTG_ERR;
	for (int arm = 0; arm < arms && rc == WTG_OK; arm++)
		sc_reads(&rd, &st[arm], per_call);
	if (rc == WTG_OK && arms == 2 && !(per = calloc(NSIZES, sizeof *per)))
		rc = WTG_ERR;
	if (rc != WTG_OK)
		wtg_table_fail(ctx->t, "out of memory");
	else if (arms == 2)
		rc = sc_paired(ctx, st, per, per_call);
	else
		rc = sc_measure(ctx, &st[0], 0, st[0].nslots, -1);
	if (rc == WTG_OK && arms == 2)
		sc_trim(&st[1]);
	wtg_ctx_progress(ctx, st[0].nslots, st[0].nslots, "summarizing");
	if (rc == WTG_OK) {
		int first = ctx->t->nrows;
		sc_finish(ctx, st, arms);
		if (arms == 2)
			wtg_table_note(ctx->t,
				       "paired: each round arm B measured until its time so far reached arm A's, each "
				       "arm's time counting its switches to it (B's burners resumed and settled: equal time "
				       "in each arm, so a paired run takes about twice an unpaired one however much slower B "
				       "is), and until every batch size and the clock pair had one in the "
				       "round: B ran %d of its %d shuffled slots; its rows keep the first %d batches of every size "
				       "(as many as all reached), its per-round figures every batch of the round",
				       st[1].reached, (NSIZES + 1) * batches_of(ctx->opt), st[1].nbatches);
		for (int k = 0; per && k < NSIZES; k++)
			wtg_arms_record(ctx, first + k, "ns", per[k][0], per[k][1], WTG_ROUNDS_MIN);
	}
	if (arms == 2)
		wtg_arms_end(ctx, rc);
	free(per);
	for (int arm = 0; arm < arms; arm++)
		sc_free(&st[arm]);
	tp_reader_close(&rd);
	return rc;
}

/* compare's figure: ns per getpid, the median of batches of 1000 */
static double pairing_figure(struct wtg_ctx *ctx)
{
	/* 21 batches of 1000: median ns per call, about 5 ms at 200 ns a call */
	double v[21];
	for (int i = 0; i < 21; i++)
		v[i] = wtg_time_getpid_batch(1000);
	(void)ctx;
	return wtg_quantile(v, WTG_ARRAY_LEN(v), 0.5);
}

/* --dry-run: one row per batch size, each timed batches_of() times (shuffled with as many empty
 * clock pairs). */
static void syscall_plan(struct wtg_plan *p)
{
	static const char *const names[] = { "batch", "batches" };
	wtg_plan_columns(p, names, 2);
	for (int k = 0; k < NSIZES; k++) {
		const struct wtg_value row[] = { WTG_INT(batch_sizes[k]), WTG_INT(batches_of(p->opt)) };
		wtg_plan_row(p, row);
	}
	p->samples = batches_of(p->opt);
	p->b_timed = true;	/* arm B as long as arm A each round (sc_part) */
}

/* The contended batches' extra time of the row with the most of them (the larger batch on a tie), in
 * words: "; 12 batches of 1000 waited for a CPU, and their extra 1.2 us is 88% waiting for a CPU,
 * 12% unexplained"; "" when no row has a division, or its contended batches are fewer than
 * SC_VERDICT_SHARE of its batches (a few batches' division stays in the columns: the verdict keeps
 * its room for the figure's regimes). */
#define SC_VERDICT_SHARE 0.05
static void sc_parts_words(const struct wtg_table *t, char *buf, size_t len)
{
	buf[0] = '\0';
	int ce = wtg_table_col(t, "contended_excess_ns"), cb = wtg_table_col(t, "contended"),
	    cs = wtg_table_col(t, "batch"), cn = wtg_table_col(t, "batches"), row = -1;
	for (int r = 0; ce >= 0 && cb >= 0 && cs >= 0 && cn >= 0 && r < t->nrows; r++)
		if (wtg_table_num(t, r, ce) > 0 && wtg_table_num(t, r, cb) >= SC_VERDICT_SHARE * wtg_table_num(t, r, cn) &&
		    (row < 0 || wtg_table_num(t, r, cb) >= wtg_table_num(t, row, cb)))
			row = r;
	char words[200];
	const char *lead = "the contended batches' extra ", *colon;
	if (row < 0 || tp_row_words(words, sizeof words, t, row, "contended", "contended batches") <= 0 ||
	    strncmp(words, lead, strlen(lead)) != 0 || !(colon = strstr(words, ": ")))
		return;
	/* read aloud: "; 12 batches of 1000 waited for a CPU, and their extra 1.2 us is 88% waiting ..." */
	const char *extra = words + strlen(lead);
	snprintf(buf, len, "; %.0f batches of %.0f waited for a CPU, and their extra %.*s is %s", wtg_table_num(t, row, cb),
		 wtg_table_num(t, row, cs), (int)(colon - extra), extra, colon + 2);
}

/* "one kernel crossing = 159 ns": the median getpid in batches of 1000; measured among other busy
 * tasks (beyond the run's own burners) it says so; then the contended batches' extra time divided. */
static int syscall_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	double ns = wtg_verdict_value(t, "batch", "1000", "median_ns");
	double o = others_mean(t);
	o -= own_burners(t);	/* the run's own burners are the condition */
	char parts[256];
	sc_parts_words(t, parts, sizeof parts);
	if (isfinite(o) && o >= WTG_QUIET_OTHERS)
		return wtg_verdict_fmt(buf, len, isfinite(ns),
				       "one kernel crossing = %.0f ns on a busy machine, %.1f other tasks runnable%s", ns, o,
				       parts);
	return wtg_verdict_fmt(buf, len, isfinite(ns), "one kernel crossing = %.0f ns%s", ns, parts);
}

const struct wtg_experiment wtg_exp_syscall = {
	.name = "syscall",
	.question = "What does one kernel crossing cost?",
	.runs = "raw syscall(SYS_getpid) in batches of 1..10000 calls, 200 batches each; median and p99 ns "
		"per call",
	.runs_with = syscall_runs,
	.needs_datafile = false,
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_SWEEP,
	.sweep = { .x = "batch", .y = { "median_ns", "p99_ns" }, .xlo = 1, .xhi = 10000,
		   .xtitle = "calls per batch" },
	.headline = { { "ns per getpid, batches of 1000", "batch", "1000", "median_ns", "ci_low_ns", "ci_high_ns",
			"batch 1000", "ns", false } },
	.compare = { pairing_figure, "median_ns", 1, "ns per getpid (median of batches of 1000)", .is_default = true },
	.typical_s = 3,
	.typical_quick_s = 1,
	.verdict = syscall_verdict,
	.essay = { "89 ns a raw getpid (95 ns in a later run)", NULL, .value = 89, .why = wtg_why_syscall },
	.terms = WTG_TERMS("crossing", "getpid", "batch", "median", "p99", "ci", "pti", "contended"),
	.interleaves = true,
	.alternates = true,
	.run = syscall_run,
	.plan = syscall_plan,
};
