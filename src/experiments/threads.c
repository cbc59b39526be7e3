/* threads.c: How many cores fill the memory pipe? A prefaulted mapping of the data file, split into
 * N ranges summed by N threads at once, N = 1 .. --threads. Every row's total must be the known sum. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common.h"

#define SPAN_CAP (1ull << 30) /* the sweep maps at most this much of a large --file */
#define TARGET_BYTES 2000000000ull /* bytes each row moves, in whole repetitions */
#define TARGET_BYTES_QUICK 500000000ull
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

static int run(struct wtg_ctx *ctx)
{
	const int maxn = ctx->opt->threads > 0 ? ctx->opt->threads : 1;
	const uint64_t target = ctx->opt->quick ? TARGET_BYTES_QUICK : TARGET_BYTES;
	const struct wtg_column cols[] = {
		{ "threads", "count", WTG_T_INT, 0 },
		{ "ms", "ms", WTG_T_REAL, 1 },
		{ "gbps", "GB/s", WTG_T_REAL, 2 },
		{ "sum", "", WTG_T_INT, 0 },
		{ "speedup", "", WTG_T_REAL, 2 },
		{ "ideal_gbps", "GB/s", WTG_T_REAL, 2 },
		{ "reps", "count", WTG_T_INT, 0 },
		{ "bytes", "B", WTG_T_INT, 0 },
	};
	wtg_table_set_columns(ctx->t, cols, (int)WTG_ARRAY_LEN(cols));

	uint64_t span = wtg_datafile_span(ctx->df, SPAN_CAP);
	int64_t known = wtg_datafile_prefix_sum(ctx->df, span);
	int reps = (int)((target + span - 1) / span);
	if (reps < 1)
		reps = 1;
	wtg_ctx_progress(ctx, 0, maxn, "prefaulting the mapping");
	unsigned char *map = wtg_map_prefaulted(ctx, span);
	if (!map)
		return WTG_ERR;
	if (wtg_ctx_cancelled(ctx)) {
		munmap(map, span);
		return WTG_CANCELLED;
	}

	int rc = WTG_OK;
	bool all_consistent = true;
	double gbps1 = 0;
	for (int n = 1; n <= maxn; n++) {
		char label[48];
		snprintf(label, sizeof label, "%d thread%s", n, n == 1 ? "" : "s");
		wtg_ctx_progress(ctx, n - 1, maxn, label);
		struct member *mb = NULL;
		int o = one_row(ctx, map, span, n, reps, ctx->opt->time_limit_ms, &mb);
		if (o == ROW_CANCELLED) {
			rc = WTG_CANCELLED;
			break;
		}
		if (o == ROW_FAILED) {
			rc = WTG_ERR;
			break;
		}
		if (o == ROW_STARVED) {
			const struct wtg_value v[] = {
				WTG_INT(n), WTG_NA, WTG_NA, WTG_NA, WTG_NA, WTG_NA, WTG_INT(reps), WTG_NA,
			};
			wtg_table_add_row(ctx->t, v, (int)WTG_ARRAY_LEN(v), NULL);
			/* the row ended early, the sweep with it: the run stopped, this is why */
			wtg_table_fail(ctx->t,
				       "starved: %d thread%s waited for a CPU for %.0f s (%d burners, "
				       "policy %s); the remaining thread counts were skipped",
				       n, n == 1 ? "" : "s", (double)ctx->opt->time_limit_ms / 1000.0,
				       wtg_burner_count(), wtg_policy_requested() ? "background" : "normal");
			rc = WTG_CANCELLED;
			break;
		}
		int64_t total = 0, t0 = mb[0].t0, t1 = mb[0].t1;
		struct wtg_probe_result res = mb[0].res;
		for (int i = 0; i < n; i++) {
			total += mb[i].sum;
			all_consistent &= mb[i].consistent && mb[i].reps_done == reps;
			if (mb[i].t0 < t0)
				t0 = mb[i].t0;
			if (mb[i].t1 > t1)
				t1 = mb[i].t1;
			if (i > 0)
				wtg_probe_add(&res, &mb[i].res);
		}
		free(mb);
		/* wall of the row: first start to last finish, as a user would time it */
		double ms = (double)(t1 - t0) / 1e6;
		res.wall_ms = ms;
		uint64_t bytes = span * (uint64_t)reps;
		double gbps = ms > 0 ? (double)bytes / (ms * 1e6) : 0;
		if (n == 1)
			gbps1 = gbps;
		const struct wtg_value v[] = {
			WTG_INT(n),
			WTG_REAL(ms),
			WTG_REAL(gbps),
			WTG_INT(total),
			gbps1 > 0 ? WTG_REAL(gbps / gbps1) : WTG_NA,
			gbps1 > 0 ? WTG_REAL(gbps1 * n) : WTG_NA,
			WTG_INT(reps),
			WTG_INT(bytes),
		};
		wtg_table_add_row(ctx->t, v, (int)WTG_ARRAY_LEN(v), &res);
		if (!wtg_check_sum(ctx, label, total, known)) {
			rc = WTG_ERR;
			break;
		}
	}
	munmap(map, span);
	if (rc != WTG_OK)
		return rc;
	wtg_table_check(ctx->t, "repeats", all_consistent,
			"every thread's range gave the same sum in each of its %d repetitions", reps);
	wtg_ctx_progress(ctx, maxn, maxn, "done");
	char sz[32];
	wtg_fmt_size(sz, sizeof sz, span);
	wtg_table_note(ctx->t,
		       "%s of the data file, mapped with MAP_POPULATE and touched once per page before "
		       "timing; N = 1 .. %d threads (%d online CPUs), ascending",
		       sz, maxn, wtg_online_cpus());
	wtg_table_note(ctx->t,
		       "per row: N contiguous ranges differing by at most one byte, each summed %d times "
		       "(%s); sum is one repetition's total; ms from the first start to the last finish",
		       reps, wtg_sum_simd_name());
	if (span < ctx->df->size)
		wtg_table_note(ctx->t,
			       "the data file is larger than %s: only its first %s is used, checked "
			       "against that prefix's known sum",
			       sz, sz);
	return WTG_OK;
}

const struct wtg_experiment wtg_exp_threads = {
	.name = "threads",
	.question = "How many cores fill the memory pipe?",
	.runs = "prefaulted mapping split into N ranges, N = 1 .. --threads; GB/s, sum checked per row",
	.view = WTG_VIEW_BARS,
	.needs_datafile = true,
	.run = run,
};
