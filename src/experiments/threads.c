/* threads.c: How many cores fill the memory pipe? A prefaulted mapping of the data file, split into
 * N ranges summed by N threads at once, N = 1 .. the online CPUs (beyond them only with --threads,
 * those rows marked oversubscribed). Every thread count is a distribution: the rounds engine runs
 * each N once per round in seeded order, >= 11 rounds, and every sample's total must be the known
 * sum. Ideal scaling is min(N, CPUs) x the one-thread median: more threads than CPUs add no cores. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common.h"
#include "rounds.h"

#define SPAN_CAP (1ull << 30) /* the sweep maps at most this much of a large --file */
#define TARGET_BYTES 512000000ull /* bytes each sample moves, in whole repetitions */
#define TARGET_BYTES_QUICK 128000000ull
#define STACK_SIZE (256u << 10)

struct member {
	pthread_t th;
	struct wtg_crew *crew;
	const unsigned char *base;
	uint64_t off, len;
	int reps;
	/* results, read after the join */
	int64_t sum; /* of the first repetition */
	bool consistent; /* every repetition gave that sum */
	int reps_done;
	int64_t t0, t1;
	struct wtg_probe_result res;
};

static void *member_main(void *arg)
{
	struct member *m = arg;
	wtg_policy_apply_self();
	if (wtg_crew_gate(m->crew)) {
		struct wtg_probe p;
		wtg_probe_begin(&p);
		m->t0 = wtg_now_ns();
		for (int r = 0; r < m->reps; r++) {
			int64_t s = 0;
			if (!wtg_crew_sum(m->crew, m->base + m->off, m->len, &s))
				break;
			if (r == 0)
				m->sum = s;
			else if (s != m->sum)
				m->consistent = false;
			m->reps_done++;
		}
		m->t1 = wtg_now_ns();
		wtg_probe_end(&p, &m->res);
	}
	wtg_policy_unregister_self();
	wtg_crew_done(m->crew);
	return NULL;
}

enum { ROW_OK = 0, ROW_CANCELLED, ROW_STARVED, ROW_FAILED };

/* One row: n members over span bytes of m. Fills *mb (caller frees) on ROW_OK. */
static int one_row(struct wtg_ctx *ctx, const unsigned char *map, uint64_t span, int n, int reps,
		   int64_t limit_ms, struct member **out)
{
	struct wtg_crew crew;
	if (wtg_crew_init(&crew) < 0) {
		wtg_table_fail(ctx->t, "cannot set up %d threads", n);
		return ROW_FAILED;
	}
	struct member *mb = calloc((size_t)n, sizeof *mb);
	if (!mb) {
		wtg_crew_destroy(&crew);
		wtg_table_fail(ctx->t, "out of memory for %d threads", n);
		return ROW_FAILED;
	}
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, STACK_SIZE);
	int created = 0, err = 0;
	for (int i = 0; i < n; i++) {
		mb[i].crew = &crew;
		mb[i].base = map;
		mb[i].reps = reps;
		mb[i].consistent = true;
		wtg_split_range(span, n, i, &mb[i].off, &mb[i].len);
		err = wtg_crew_spawn(&mb[i].th, &attr, member_main, &mb[i]);
		if (err != 0)
			break;
		created++;
	}
	pthread_attr_destroy(&attr);

	int outcome = ROW_OK;
	if (created < n) {
		wtg_table_fail(ctx->t, "cannot start thread %d of %d: %s", created + 1, n, strerror(err));
		outcome = ROW_FAILED;
	} else {
		/* everyone at the gate, then release them together */
		int w = wtg_crew_run(ctx, &crew, n, limit_ms * 1000000);
		if (w == WTG_CREW_CANCELLED)
			outcome = ROW_CANCELLED;
		else if (w == WTG_CREW_TIMEOUT)
			outcome = ROW_STARVED;
	}
	if (outcome != ROW_OK) {
		atomic_store(&crew.stop, true);
		/* a starved member cannot see the flag until it runs again */
		wtg_policy_rescue();
		wtg_crew_finish(ctx, &crew, created);
	}
	for (int i = 0; i < created; i++)
		pthread_join(mb[i].th, NULL);
	if (atomic_load(&crew.shrank)) {
		wtg_table_fail(ctx->t, "%d thread%s: %s", n, n == 1 ? "" : "s", WTG_GUARD_SHRANK);
		outcome = ROW_FAILED;
	}
	wtg_crew_destroy(&crew);
	if (outcome != ROW_OK) {
		free(mb);
		return outcome;
	}
	*out = mb;
	return ROW_OK;
}

/* What the samples share, and what they found. */
struct sweep {
	const unsigned char *map;
	uint64_t span;
	int reps;
	int64_t known;
	int64_t limit_ms;
	bool consistent;	/* every member's repetitions agreed */
	int starved;		/* the thread count that got no CPU in time, 0: none */
	int64_t *sum;		/* per variant: the last sample's total */
	uint64_t checked;	/* samples whose total was compared with the known sum */
	int ncpu;
	double gbps1;		/* the one-thread median so far */
};

/* One sample of N = v + 1 threads: their total checked against the known sum, the figure GB/s of
 * the wall from the first start to the last finish. */
static int sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	(void)round;
	struct sweep *sw = arg;
	const int n = v + 1;
	struct member *mb = NULL;
	int o = one_row(ctx, sw->map, sw->span, n, sw->reps, sw->limit_ms, &mb);
	if (o == ROW_STARVED) {
		sw->starved = n;
		return WTG_CANCELLED;
	}
	if (o != ROW_OK)
		return o == ROW_CANCELLED ? WTG_CANCELLED : WTG_ERR;
	int64_t total = 0, t0 = mb[0].t0, t1 = mb[0].t1;
	out->res = mb[0].res;
	for (int i = 0; i < n; i++) {
		total += mb[i].sum;
		sw->consistent &= mb[i].consistent && mb[i].reps_done == sw->reps;
		t0 = mb[i].t0 < t0 ? mb[i].t0 : t0;
		t1 = mb[i].t1 > t1 ? mb[i].t1 : t1;
		if (i > 0)
			wtg_probe_add(&out->res, &mb[i].res);
	}
	free(mb);
	out->res.wall_ms = (double)(t1 - t0) / 1e6;
	sw->sum[v] = total;
	sw->checked++;
	if (total != sw->known) {
		char label[48];
		snprintf(label, sizeof label, "%d thread%s", n, n == 1 ? "" : "s");
		wtg_check_sum(ctx, label, total, sw->known);
		return WTG_ERR;
	}
	double bytes = (double)sw->span * (double)sw->reps;
	out->figure = out->res.wall_ms > 0 ? bytes / (out->res.wall_ms * 1e6) : 0;
	return WTG_OK;
}

static void label_of(void *arg, int v, char *buf, size_t len)
{
	(void)arg;
	snprintf(buf, len, "%d thread%s", v + 1, v == 0 ? "" : "s");
}

extern const struct wtg_experiment wtg_exp_threads;

/* gbps itself comes early, where the SPEC has it; its CI, min, max and samples follow */
static const struct wtg_column cols[] = {
	{ "threads", "count", WTG_T_INT, 0 },
	{ "ms", "ms", WTG_T_REAL, 1 },
	{ "gbps", "GB/s", WTG_T_REAL, 2 },
	{ "sum", "", WTG_T_INT, 0 },
	{ "speedup", "", WTG_T_REAL, 2 },
	{ "ideal_gbps", "GB/s", WTG_T_REAL, 2 },
	{ "reps", "count", WTG_T_INT, 0 },
	{ "bytes", "B", WTG_T_INT, 0 },
	{ "oversubscribed", "", WTG_T_INT, 0 },
	WTG_ROUNDS_AFTER("gbps", "GB/s", 2),
};

/* The rows, one per thread count, from the rounds' medians. */
/* The row of N = v + 1 threads from its samples so far (the engine publishes the rows in variant
 * order after each round, so the one-thread median is fresh when the others use it). */
static int row_of(struct wtg_ctx *ctx, void *arg, int v, const struct wtg_rounds_result *res,
		  struct wtg_value *vals)
{
	(void)ctx;
	struct sweep *sw = arg;
	const int n = v + 1;
	const double gbps = res->s.median;
	const uint64_t bytes = sw->span * (uint64_t)sw->reps;
	if (v == 0)
		sw->gbps1 = gbps;
	const struct wtg_value row[] = {
		WTG_INT(n),
		gbps > 0 ? WTG_REAL((double)bytes / (gbps * 1e6)) : WTG_NA,
		WTG_REAL(gbps),
		WTG_INT(sw->sum[v]),
		sw->gbps1 > 0 ? WTG_REAL(gbps / sw->gbps1) : WTG_NA,
		WTG_REAL(sw->gbps1 * (n < sw->ncpu ? n : sw->ncpu)),
		WTG_INT(sw->reps),
		WTG_INT(bytes),
		WTG_INT(n > sw->ncpu),
	};
	memcpy(vals, row, sizeof row);
	int k = (int)WTG_ARRAY_LEN(row);
	return k + wtg_rounds_values_after(vals + k, res);
}

/* Each row's checks and raw samples, once the rounds are over. */
static void row_checks(struct wtg_ctx *ctx, const struct sweep *sw, const struct wtg_rounds *r)
{
	for (int v = 0; v < r->nvariants; v++) {
		char label[48];
		label_of(NULL, v, label, sizeof label);
		wtg_check_sum(ctx, label, sw->sum[v], sw->known);
		wtg_rounds_checks(ctx, label, "GB/s", &r->v[v]);
		wtg_rounds_add_series(ctx, label, "GB/s", &r->v[v]);
	}
}

static void notes(struct wtg_ctx *ctx, const struct sweep *sw, const struct wtg_rounds *r, int ncpu)
{
	char sz[32];
	wtg_fmt_size(sz, sizeof sz, sw->span);
	wtg_table_note(ctx->t,
		       "%s of the data file, mapped with MAP_POPULATE and touched once per page before "
		       "timing; N = 1 .. %d threads (%d online CPUs%s)",
		       sz, r->nvariants, ncpu,
		       r->nvariants > ncpu ? "; rows above them are oversubscribed, asked for with --threads"
					   : "; --threads=N goes beyond them");
	wtg_rounds_note(ctx, r, 1);
	wtg_table_note(ctx->t,
		       "per sample: N contiguous ranges differing by at most one byte, each summed %d times "
		       "(%s); ms from the first start to the last finish; the total was checked against "
		       "the known sum in all %llu samples (sum: the last one's)",
		       sw->reps, wtg_sum_simd_name(), (unsigned long long)sw->checked);
	wtg_table_note(ctx->t, "ideal_gbps = min(N, %d CPUs) x the one-thread median: threads beyond the "
			       "CPUs share them, so they cannot add bandwidth",
		       ncpu);
	if (sw->span < ctx->df->size)
		wtg_table_note(ctx->t,
			       "the data file is larger than %s: only its first %s is used, checked "
			       "against that prefix's known sum",
			       sz, sz);
}

static int threads_run(struct wtg_ctx *ctx)
{
	const int ncpu = wtg_online_cpus();
	const int maxn = ctx->opt->threads > 0 ? ctx->opt->threads : ncpu > 0 ? ncpu : 1;
	const uint64_t target = ctx->opt->quick ? TARGET_BYTES_QUICK : TARGET_BYTES;
	wtg_experiment_columns(&wtg_exp_threads, ctx->t);
	struct sweep sw = { .span = wtg_datafile_span(ctx->df, SPAN_CAP), .consistent = true,
			    .limit_ms = ctx->opt->time_limit_ms, .ncpu = ncpu };
	sw.known = wtg_datafile_prefix_sum(ctx->df, sw.span);
	sw.reps = (int)((target + sw.span - 1) / sw.span);
	if (sw.reps < 1)
		sw.reps = 1;
	sw.sum = calloc((size_t)maxn, sizeof *sw.sum);
	if (!sw.sum) {
		wtg_table_fail(ctx->t, "out of memory for %d threads", maxn);
		return WTG_ERR;
	}
	const int nsteps = 1 + wtg_rounds_steps(maxn, WTG_ROUNDS_MIN, 1);
	wtg_ctx_progress(ctx, 0, nsteps, "prefaulting the mapping");
	unsigned char *map = wtg_map_prefaulted(ctx, sw.span);
	if (!map) {
		free(sw.sum);
		return WTG_ERR;
	}
	sw.map = map;
	struct wtg_rounds_spec spec = { .nvariants = maxn, .rounds = WTG_ROUNDS_MIN, .warmup = 1,
					.sample = sample, .row = row_of, .arg = &sw, .label = label_of,
					.first_step = 1, .nsteps = nsteps };
	struct wtg_rounds r;
	int rc = wtg_ctx_cancelled(ctx) ? WTG_CANCELLED : wtg_rounds_run(ctx, &spec, &r);
	munmap(map, sw.span);
	if (rc == WTG_CANCELLED && sw.starved) {
		/* the run stopped, this is why: every thread count is measured in every round, so no
		 * row can stand without the others */
		wtg_table_fail(ctx->t,
			       "starved: %d thread%s got no chance to finish a sample in %.0f s (%d burners, "
			       "policy %s); the sweep was ended",
			       sw.starved, sw.starved == 1 ? "" : "s", (double)sw.limit_ms / 1000.0,
			       wtg_burner_count(), wtg_policy_requested() ? "background" : "normal");
	} else if (rc == WTG_OK) {
		row_checks(ctx, &sw, &r);
		wtg_table_check(ctx->t, "repeats", sw.consistent,
				"every thread's range gave the same sum in each of its %d repetitions, in every "
				"sample",
				sw.reps);
		notes(ctx, &sw, &r, ncpu);
		wtg_rounds_free(&r);
		wtg_ctx_progress(ctx, nsteps, nsteps, "done");
	}
	free(sw.sum);
	return rc;
}

const struct wtg_experiment wtg_exp_threads = {
	.name = "threads",
	.question = "How many cores fill the memory pipe?",
	.runs = "prefaulted mapping split into N ranges, N = 1 .. online CPUs (--threads beyond, marked "
		"oversubscribed); >= 11 seeded rounds per N, median GB/s with CI, sum checked per sample",
	.needs_datafile = true,
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_BARS,
	.bars = { .label = { "threads" }, .value = "gbps", .extra = "ms", .ideal = true },
	.headline = { { "GB/s with the most threads", NULL, NULL, "gbps", "gbps_ci_low", "gbps_ci_high", NULL, "GB/s",
			true } },
	.typical_s = 2,
	.typical_quick_s = 1,
	.run = threads_run,
};
