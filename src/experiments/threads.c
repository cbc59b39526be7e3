/* threads.c: How many cores fill the memory pipe? A prefaulted mapping of the data file, split into
 * N ranges summed by N threads at once. The counts and placements come from the machine's topology
 * (wtg_topology_thread_plan): 1, 2, 4 ... up to the online CPUs with the CPUs of one node and of one
 * package, each under two placements, compact (a core's SMT siblings, then the node, first) and
 * spread (one thread per core across the nodes first); every thread is pinned to the CPU its
 * placement gives, and runs unpinned, with a note, where the kernel refuses (a cpuset). With more
 * than one NUMA node the threads read an anonymous copy of the mapping bound with mbind: local (each
 * thread's part on its own node), remote (on the farthest node) or interleaved. Every row is a
 * distribution: the rounds engine runs each row once per round in seeded order, >= 15 rounds, and
 * every sample's total must be the known sum. Ideal scaling is min(N, CPUs) x the one-thread median
 * of the same placement and memory; where a speedup's follow-up measured one thread over the row's
 * parts (each part fits caches the whole span does not), that too: min(N, CPUs) x the one-thread
 * median x the parts' gain, the rate N threads would reach if each ran as one thread over its part.
 * Each thread's CPU at the start and end of every sample is mapped to its core type. */
#include "config.h"

#include <math.h>

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"
#include "pages.h"
#include "wtg/ctx.h"
#include "wtg/plan.h"
#include "rounds.h"
#include "threads_crew.h"
#include "threads_moves.h"
#include "wtg/testhooks.h"
#include "wtg/topology.h"
#include "why.h"

#define SPAN_CAP (1ull << 30) /* the sweep maps at most this much of a large --file */
#define TARGET_BYTES 512000000ull /* bytes each sample moves, in whole repetitions */
#define TARGET_BYTES_QUICK 128000000ull
#define WARMUP 2		/* sizing samples per row, the second from a warm start */
#define PARTS_SAMPLES 15	/* the follow-up of a speedup above its ideal: one thread over the parts */
#define MPOL_BIND_ 2
#define MPOL_INTERLEAVE_ 3
#define MPOL_MF_MOVE_ (1u << 1)

/* One row of the sweep: its plan, the CPUs its threads are pinned to, and what they found. */
struct variant {
	struct wtg_thread_plan_row plan;
	int *cpus;			/* plan.threads entries */
	char label[48];			/* "compact 4 threads", "compact remote 1 thread" */
	char group[32];			/* "compact", "compact remote" */
	char cpu_list[256], node_list[64], mem_list[64], seen_list[256], type_list[64];
	struct wtg_cpuset seen;		/* CPUs the threads were found on */
	struct wtg_type_tally types;	/* their core types */
	struct wtg_moves moves;		/* where each worker ran, sample by sample */
	char moves_text[96];
	int64_t sum;			/* the last sample's total */
	bool pinned;			/* every thread of every sample pinned */
	int base;			/* the variant with one thread of the same group, -1: none */
	int reps;			/* repetitions of the span its sizing warm-up asked for */
	double speedup_lo, speedup_hi;	/* the speedup's interval at the last publication, NAN: none */
	/* its speedup interval lay above the ideal: one thread (pinned as the base row's) summed this
	 * row's parts in turn and the whole span, alternately, PARTS_SAMPLES times each after the rounds:
	 * the medians, the ratio parts / whole and its interval (parts_n 0: not measured) */
	int parts_n;
	double parts_gbps, parts_whole_gbps, parts_ratio, parts_lo, parts_hi;
};

/* What the samples share, and what they found. */
struct sweep {
	struct wtg_ctx *ctx;
	const struct wtg_topology *topo;
	unsigned char *map;		/* the data file's mapping */
	unsigned char *numa;		/* its anonymous copy bound per row (several nodes), or NULL */
	uint64_t span;
	int reps;		/* per sample: TARGET_BYTES' worth, then the most the rows' sizing asked for */
	bool sized;		/* the timed rounds began: every row has sw->reps */
	int64_t known;
	int64_t limit_ms;
	bool consistent;	/* every member's repetitions agreed */
	int starved;		/* the variant that got no CPU in time + 1, 0: none */
	struct variant *var;
	int nvar;
	uint64_t checked;	/* samples whose total was compared with the known sum */
	int ncpu;
	int pin_fail, pin_cpu, pin_err;	/* threads not pinned, the first one's CPU and error */
	struct wtg_cpuset allowed;	/* the CPUs this process may run on (taskset, cpuset) */
	char allowed_list[256];
	int bind_err;			/* mbind's first error, 0: none */
	double *gbps;			/* per variant: the median so far */
	struct wtg_rounds_used *used;	/* per variant: the samples its figure uses so far, by replica
					 * (the speedup's interval resamples them) */
};

/* mbind [p, p + len) (rounded out to pages) to the nodes in mask with mode. Returns 0 or errno. */
static int bind_range(unsigned char *p, uint64_t len, int mode, const struct wtg_cpuset *mask)
{
	uint64_t page = (uint64_t)wtg_page_size();
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(page - 1);
	uintptr_t e = ((uintptr_t)p + len + page - 1) & ~(uintptr_t)(page - 1);
	if (e <= a)
		return 0;
	long rc = syscall(SYS_mbind, (void *)a, (unsigned long)(e - a), mode, mask->bits,
			  (unsigned long)(WTG_TOPO_MAX_CPUS + 1), MPOL_MF_MOVE_);
	return rc == 0 ? 0 : errno;
}

/* Place the copy's pages as variant v wants: each thread's part on its node (local), on the node
 * farthest from it (remote), or all of it over every node (interleaved). */
static void bind_for(struct sweep *sw, const struct variant *var)
{
	const struct wtg_topology *t = sw->topo;
	struct wtg_cpuset mask;
	int e = 0;
	if (var->plan.memory == WTG_MEM_INTERLEAVED) {
		wtg_cpuset_clear(&mask);
		for (int i = 0; i < t->nnodes; i++)
			wtg_cpuset_add(&mask, t->nodes[i].node);
		e = bind_range(sw->numa, sw->span, MPOL_INTERLEAVE_, &mask);
	} else {
		for (int i = 0; i < var->plan.threads && !e; i++) {
			uint64_t off, len;
			wtg_split_range(sw->span, var->plan.threads, i, &off, &len);
			int c = var->cpus[i], nd = c >= 0 && t->node_of[c] >= 0 ? t->node_of[c] : 0;
			if (var->plan.memory == WTG_MEM_REMOTE)
				nd = wtg_topology_remote_node(t, nd);
			wtg_cpuset_clear(&mask);
			wtg_cpuset_add(&mask, t->nodes[nd].node);
			e = bind_range(sw->numa + off, len, MPOL_BIND_, &mask);
		}
	}
	if (e && !sw->bind_err)
		sw->bind_err = e;
}

/* After a sample: where its threads were pinned and found. */
static void record_members(struct sweep *sw, struct variant *var, const struct member *mb, int round)
{
	for (int i = 0; i < var->plan.threads; i++) {
		if (mb[i].pin_err) {
			var->pinned = false;
			if (sw->pin_fail++ == 0) {
				sw->pin_cpu = mb[i].want;
				sw->pin_err = mb[i].pin_err;
			}
		}
		if (round < 0)
			continue;
		wtg_type_tally_add(sw->topo, &var->types, mb[i].cpu0);
		wtg_type_tally_add(sw->topo, &var->types, mb[i].cpu1);
		wtg_cpuset_add(&var->seen, mb[i].cpu0);
		wtg_cpuset_add(&var->seen, mb[i].cpu1);
	}
}

/* What a sample's n members did: their total (checked against the known sum: on a mismatch the
 * check fails the table and ROW_FAILED comes back), the wall from the first start to the last finish,
 * and whether each member ran all its `done` repetitions with one sum per part (sw->consistent). */
static int tally(struct wtg_ctx *ctx, struct sweep *sw, const struct member *mb, int n, int done,
		 const char *label, int64_t *total, double *wall_ms)
{
	int64_t sum = 0, t0 = mb[0].t0, t1 = mb[0].t1;
	for (int i = 0; i < n; i++) {
		sum += mb[i].sum;
		sw->consistent &= mb[i].consistent && mb[i].reps_done == done;
		t0 = mb[i].t0 < t0 ? mb[i].t0 : t0;
		t1 = mb[i].t1 > t1 ? mb[i].t1 : t1;
	}
	*total = sum;
	*wall_ms = (double)(t1 - t0) / 1e6;
	sw->checked++;
	if (sum != sw->known) {
		wtg_check_sum(ctx, label, sum, sw->known);
		return ROW_FAILED;
	}
	return ROW_OK;
}

/* GB/s of a sample of the span, reps times, in wall_ms. */
static double rate(const struct sweep *sw, int reps, double wall_ms)
{
	return wall_ms > 0 ? (double)sw->span * (double)reps / (wall_ms * 1e6) : 0;
}

/* One sample of variant v: its threads' total checked against the known sum, the figure GB/s of
 * the wall from the first start to the last finish; the warm-up after the others' turns, one
 * repetition. */
static int sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	struct sweep *sw = arg;
	struct variant *var = &sw->var[v];
	const int n = var->plan.threads;
	struct member *mb = NULL;
	if (round >= 0 && !sw->sized) {
		/* every row moves the same bytes (a speedup compares like with like): the most any row's
		 * sizing warm-up asked for */
		int most = sw->reps;
		for (int k = 0; k < sw->nvar; k++)
			most = sw->var[k].reps > most ? sw->var[k].reps : most;
		sw->reps = most;
		for (int k = 0; k < sw->nvar; k++)
			sw->var[k].reps = most;
		sw->sized = true;
	}
	if (sw->numa)
		bind_for(sw, var);
	const int reps = round == WTG_ROUND_RETURN ? 1 : var->reps;
	int o = wtg_threads_row(ctx, sw->numa ? sw->numa : sw->map, sw->span, n, reps, 1, var->cpus, &sw->allowed,
			sw->limit_ms, &mb);
	if (o == ROW_STARVED) {
		sw->starved = v + 1;
		return WTG_CANCELLED;
	}
	if (o != ROW_OK)
		return o == ROW_CANCELLED ? WTG_CANCELLED : WTG_ERR;
	out->res = mb[0].res;
	for (int i = 1; i < n; i++)
		wtg_probe_add(&out->res, &mb[i].res);
	int64_t total;
	int summed = tally(ctx, sw, mb, n, reps, var->label, &total, &out->res.wall_ms);
	record_members(sw, var, mb, round);
	if (round >= 0)
		(void)wtg_moves_add(&var->moves, sw->topo, mb, n);
	free(mb);
	var->sum = total;
	if (summed != ROW_OK)
		return WTG_ERR;
	out->figure = rate(sw, reps, out->res.wall_ms);
	/* the sizing warm-up: the rounds engine's rule in whole repetitions of the span, at most 64
	 * times as many (the timed samples ran up to 1.4x the sizing one's rate here) */
	if (round == WTG_ROUND_WARMUP && out->res.wall_ms > 0)
		var->reps = (int)(wtg_rounds_sample_bytes(sw->span * (uint64_t)var->reps, out->res.wall_ms, sw->span,
							  64 * sw->span * (uint64_t)var->reps) / sw->span);
	return WTG_OK;
}

static void label_of(const void *arg, int v, char *buf, size_t len)
{
	const struct sweep *sw = arg;
	wtg_strlcpy(buf, sw->var[v].label, len);
}

extern const struct wtg_experiment wtg_exp_threads;

/* gbps itself comes early, where the SPEC has it; its CI, min, max and samples follow */
static const struct wtg_column cols[] = {
	{ "threads", "count", WTG_T_INT, 0 },
	{ "ms", "ms", WTG_T_REAL, 1 },
	{ "gbps", "GB/s", WTG_T_REAL, 2 },
	{ "sum", "", WTG_T_INT, 0 },
	{ "speedup", "", WTG_T_REAL, 2 },
	{ "speedup_ci_low", "", WTG_T_REAL, 2 },
	{ "speedup_ci_high", "", WTG_T_REAL, 2 },
	{ "ideal_gbps", "GB/s", WTG_T_REAL, 2 },
	{ "reps", "count", WTG_T_INT, 0 },
	{ "bytes", "B", WTG_T_INT, 0 },
	{ "oversubscribed", "", WTG_T_INT, 0 },
	WTG_ROUNDS_AFTER("gbps", "GB/s", 2),
	{ "placement", "", WTG_T_TEXT, 0 },
	{ "memory", "", WTG_T_TEXT, 0 },
	{ "group", "", WTG_T_TEXT, 0 },
	{ "cpus", "", WTG_T_TEXT, 0 },
	{ "nodes", "", WTG_T_TEXT, 0 },
	{ "memory_nodes", "", WTG_T_TEXT, 0 },
	{ "pinned", "", WTG_T_INT, 0 },
	{ "cpus_seen", "", WTG_T_TEXT, 0 },
	{ "core_type", "", WTG_T_TEXT, 0 },
	/* the ideal as a speedup, with the interval the follow-up's parts / whole ratio gives it (none
	 * without the follow-up: then it is min(N, CPUs) exactly), and that ratio */
	{ "ideal_speedup", "", WTG_T_REAL, 2 },
	{ "ideal_speedup_ci_low", "", WTG_T_REAL, 2 },
	{ "ideal_speedup_ci_high", "", WTG_T_REAL, 2 },
	{ "parts_ratio", "", WTG_T_REAL, 2 },
	/* where the workers ran (threads_moves.h): migrations over the samples, the samples a worker moved
	 * in, those its core type changed in, and the words beside the row's bar */
	{ "migrations", "count", WTG_T_INT, 0 },
	{ "moved_samples", "count", WTG_T_INT, 0 },
	{ "core_type_changes", "count", WTG_T_INT, 0 },
	{ "moves", "", WTG_T_TEXT, 0 },
};

/* The row of variant v from its samples so far (the engine publishes the rows in variant order
 * after each round, so a group's one-thread median, earlier in that order, is fresh when the
 * others use it). */
/* Keep a copy of the samples variant v's figure uses so far, by replica: a later row's speedup
 * resamples its one-thread row's (out of memory, the older copy stays: the interval lags a round). */
static void keep_samples(struct sweep *sw, int v, const struct wtg_rounds_result *res)
{
	(void)wtg_rounds_used_get(res, &sw->used[v]);
}

static int row_of(struct wtg_ctx *ctx, void *arg, int v, const struct wtg_rounds_result *res,
		  struct wtg_value *vals)
{
	struct sweep *sw = arg;
	struct variant *var = &sw->var[v];
	const int n = var->plan.threads;
	const double gbps = res->s.median;
	const uint64_t bytes = sw->span * (uint64_t)var->reps;
	sw->gbps[v] = gbps;
	keep_samples(sw, v, res);
	const double g1 = var->base >= 0 ? sw->gbps[var->base] : 0;
	double slo = NAN, shi = NAN;	/* the one-thread row's own speedup is 1 exactly: no interval */
	if (g1 > 0 && var->base != v)
		wtg_rounds_ratio_ci(&sw->used[v], &sw->used[var->base], wtg_ctx_seed(ctx, (unsigned)v), &slo, &shi);
	var->speedup_lo = slo;
	var->speedup_hi = shi;
	/* the ideal speedup: min(N, CPUs), times the parts' gain where the follow-up measured it */
	const int k = n < sw->ncpu ? n : sw->ncpu;
	const bool parts = var->parts_n && isfinite(var->parts_ratio);
	const double ideal = parts ? k * var->parts_ratio : k;
	const double ilo = parts && isfinite(var->parts_lo) ? k * var->parts_lo : NAN;
	const double ihi = parts && isfinite(var->parts_hi) ? k * var->parts_hi : NAN;
	const struct wtg_value row[] = {
		WTG_INT(n),
		gbps > 0 ? WTG_REAL((double)bytes / (gbps * 1e6)) : WTG_NA,
		WTG_REAL(gbps),
		WTG_INT(var->sum),
		g1 > 0 ? WTG_REAL(gbps / g1) : WTG_NA,
		isfinite(slo) ? WTG_REAL(slo) : WTG_NA,
		isfinite(shi) ? WTG_REAL(shi) : WTG_NA,
		g1 > 0 ? WTG_REAL(g1 * ideal) : WTG_NA,
		WTG_INT(var->reps),
		WTG_INT(bytes),
		WTG_INT(n > sw->ncpu),
	};
	memcpy(vals, row, sizeof row);
	int c = (int)WTG_ARRAY_LEN(row);
	c += wtg_rounds_values_after(vals + c, res);
	wtg_cpuset_format(&var->seen, var->seen_list, sizeof var->seen_list);
	wtg_type_tally_format(sw->topo, &var->types, var->type_list, sizeof var->type_list);
	wtg_moves_words(&var->moves, var->moves_text, sizeof var->moves_text);
	const struct wtg_value more[] = {
		WTG_TEXT(wtg_placement_name(var->plan.placement)),
		WTG_TEXT(wtg_memory_name(var->plan.memory)),
		WTG_TEXT(var->group),
		WTG_TEXT(var->cpu_list),
		WTG_TEXT(var->node_list),
		WTG_TEXT(var->mem_list),
		WTG_INT(var->pinned),
		WTG_TEXT(var->seen_list),
		WTG_TEXT(var->type_list),
		var->base >= 0 ? WTG_REAL(ideal) : WTG_NA,
		isfinite(ilo) ? WTG_REAL(ilo) : WTG_NA,
		isfinite(ihi) ? WTG_REAL(ihi) : WTG_NA,
		parts ? WTG_REAL(var->parts_ratio) : WTG_NA,
		var->moves.unknown < var->moves.n ? WTG_INT(var->moves.total) : WTG_NA,
		WTG_INT(var->moves.moved),
		WTG_INT(var->moves.type_changes),
		WTG_TEXT(var->moves_text),
	};
	memcpy(vals + c, more, sizeof more);
	return c + (int)WTG_ARRAY_LEN(more);
}
/* Whether row v gets the follow-up: its speedup interval lies wholly above its ideal (every row with
 * a one-thread base when WTG_TEST_PARTS is set, for testing). */
static bool wants_parts(const struct sweep *sw, int v)
{
	const struct variant *var = &sw->var[v];
	if (var->base < 0 || var->base == v || !isfinite(var->speedup_lo))
		return false;
	const int n = var->plan.threads, ideal = n < sw->ncpu ? n : sw->ncpu;
	return var->speedup_lo > ideal || wtg_testhooks()->parts;
}

/* One sample of the follow-up: one thread pinned as var's one-thread base is, over the span in
 * `parts` parts in turn; *gbps its rate. Returns ROW_OK, or another outcome (a failed sum: ROW_FAILED,
 * after its check). */
static int parts_sample(struct wtg_ctx *ctx, struct sweep *sw, const struct variant *var, int parts,
			const char *label, double *gbps)
{
	struct member *mb = NULL;
	int o = wtg_threads_row(ctx, sw->numa ? sw->numa : sw->map, sw->span, 1, var->reps, parts, sw->var[var->base].cpus,
			&sw->allowed, sw->limit_ms, &mb);
	if (o != ROW_OK)
		return o;
	int64_t total;
	double ms;
	o = tally(ctx, sw, mb, 1, var->reps * parts, label, &total, &ms);
	free(mb);
	*gbps = rate(sw, var->reps, ms);
	return o;
}

/* The follow-up of a speedup above its ideal: one thread, pinned as the row's one-thread base is,
 * sums the row's N parts one after another, each as many times as the row's threads sum theirs (the
 * same bytes as any sample of the rows), alternating with samples of the whole span as the base row
 * reads it: PARTS_SAMPLES pairs once the rounds are over, each total checked against the known sum,
 * the ratio of the two medians with its bootstrap interval. When each part fits a cache the whole
 * span does not, the parts run faster than the whole by about as much as the speedup passes N.
 * Returns WTG_OK (measured, or cut short by a stop: parts_n stays 0) or WTG_ERR. */
static int parts_follow_up(struct wtg_ctx *ctx, struct sweep *sw, int v)
{
	struct variant *var = &sw->var[v];
	const int n = var->plan.threads;
	double fig[PARTS_SAMPLES], base[PARTS_SAMPLES];
	char label[96];
	snprintf(label, sizeof label, "%s: one thread, the parts in turn", var->label);
	if (sw->numa)
		bind_for(sw, &sw->var[var->base]);
	for (int k = 0; k < PARTS_SAMPLES; k++)
		for (int half = 0; half < 2; half++) {
			const bool parts = (k + half) % 2 == 0;	/* parts first in even pairs, the whole first in odd */
			if (wtg_ctx_cancelled(ctx))
				return WTG_OK;
			int o = parts_sample(ctx, sw, var, parts ? n : 1, label, parts ? &fig[k] : &base[k]);
			if (o != ROW_OK)
				return o == ROW_FAILED ? WTG_ERR : WTG_OK;
		}
	var->parts_gbps = wtg_quantile(fig, PARTS_SAMPLES, 0.5);
	var->parts_whole_gbps = wtg_quantile(base, PARTS_SAMPLES, 0.5);
	var->parts_ratio = var->parts_whole_gbps > 0 ? var->parts_gbps / var->parts_whole_gbps : NAN;
	if (wtg_bootstrap_ratio_ci(fig, PARTS_SAMPLES, base, PARTS_SAMPLES, 0.5, WTG_BOOTSTRAP_RESAMPLES,
				   WTG_BOOTSTRAP_CONF, wtg_ctx_seed(ctx, (unsigned)(1000 + v)), &var->parts_lo,
				   &var->parts_hi) < 0)
		var->parts_lo = var->parts_hi = NAN;
	var->parts_n = n;
	wtg_table_add_series(ctx->t, label, "GB/s", fig, PARTS_SAMPLES);
	snprintf(label, sizeof label, "%s: one thread, the whole span", var->label);
	wtg_table_add_series(ctx->t, label, "GB/s", base, PARTS_SAMPLES);
	return WTG_OK;
}

/* The rows whose follow-up measured the parts again, with their ideal from it (the rounds published
 * the rows in variant order, the last ones in the table). */
static void republish_parts(struct wtg_ctx *ctx, struct sweep *sw, struct wtg_rounds *r)
{
	const int first = ctx->t->nrows - sw->nvar;
	for (int v = 0; v < sw->nvar && first >= 0; v++) {
		if (!sw->var[v].parts_n)
			continue;
		struct wtg_value vals[WTG_MAX_COLS];
		int n = row_of(ctx, sw, v, &r->v[v], vals);
		wtg_table_set_row(ctx->t, first + v, vals, n, &r->v[v].probe);
	}
}

/* A speedup whose whole interval lies above min(N, CPUs) is not more cores at work: N threads each
 * read span / N bytes, which may fit caches (one per core complex) the one thread's span does not
 * (a 64 MiB --quick file over two core complexes of 32 MiB each), or the one-thread baseline sagged
 * while it was measured. The follow-up (parts_follow_up) tells the two apart: when one thread
 * summing the parts in turn runs fast enough that N times its rate reaches the speedup's interval,
 * caches explain it. */
static void speedup_check(struct wtg_ctx *ctx, const struct sweep *sw, int v)
{
	const struct variant *var = &sw->var[v];
	if (var->base < 0 || var->base == v)
		return;
	/* the interval the row shows: its last publication came after the last round */
	const double lo = var->speedup_lo, hi = var->speedup_hi;
	if (!isfinite(lo) || !isfinite(hi))
		return;
	const int n = var->plan.threads, ideal = n < sw->ncpu ? n : sw->ncpu;
	char whole[32], part[32];
	wtg_fmt_size(whole, sizeof whole, sw->span);
	wtg_fmt_size(part, sizeof part, sw->span / (uint64_t)n);
	if (lo > ideal && var->parts_n && isfinite(var->parts_hi)) {
		if (lo <= ideal * var->parts_hi)
			wtg_table_check(ctx->t, "speedup", true,
					"%s: speedup CI [%.2f, %.2f] lies above the ideal %d, and one thread summing the "
					"%d parts of %s in turn ran %.2fx [%.2f, %.2f] its rate over the whole %s "
					"(alternating, after the rounds): each "
					"part fits a cache the whole does not, so against %d x that rate (%.2f at most) "
					"the speedup is no more than the ideal: caches, not more cores",
					var->label, lo, hi, ideal, n, part, var->parts_ratio, var->parts_lo,
					var->parts_hi, whole, ideal, ideal * var->parts_hi);
		else
			wtg_table_warn(ctx->t, "speedup",
				       "%s: speedup CI [%.2f, %.2f] lies above the ideal %d by more than caches "
				       "explain: one thread summing the %d parts of %s in turn ran only %.2fx [%.2f, "
				       "%.2f] its rate over the whole %s, alternating after the rounds (%d x that is %.2f at "
				       "most); the one-thread row "
				       "may have sagged while it was measured",
				       var->label, lo, hi, ideal, n, part, var->parts_ratio, var->parts_lo, var->parts_hi,
				       whole, ideal, ideal * var->parts_hi);
	} else if (lo > ideal) {
		wtg_table_warn(ctx->t, "speedup",
			       "%s: speedup CI [%.2f, %.2f] lies above the ideal %d, which more cores cannot "
			       "explain: each thread reads %s of the %s, which may fit caches of its own the one "
			       "thread's %s does not (a larger --size measures memory), or the one-thread row "
			       "sagged while it was measured",
			       var->label, lo, hi, ideal, part, whole, whole);
	} else {
		wtg_table_check(ctx->t, "speedup", true, "%s: speedup CI [%.2f, %.2f] reaches no higher than "
				"the ideal %d at its low end", var->label, lo, hi, ideal);
	}
}

/* Each row's checks and raw samples, once the rounds are over. */
static void row_checks(struct wtg_ctx *ctx, const struct sweep *sw, const struct wtg_rounds *r)
{
	for (int v = 0; v < r->nvariants; v++) {
		const char *label = sw->var[v].label;
		wtg_check_sum(ctx, label, sw->var[v].sum, sw->known);
		wtg_rounds_checks(ctx, label, "GB/s", &r->v[v]);
		speedup_check(ctx, sw, v);
	}
}

/* What the placements did: pinned or not (and why), where the memory was, the core types. */
static void placement_notes(struct wtg_ctx *ctx, const struct sweep *sw)
{
	const struct wtg_topology *t = sw->topo;
	char sum[128];
	wtg_topology_summary(t, sum, sizeof sum);
	wtg_table_note(ctx->t,
		       "placements (%s): compact fills a core's SMT siblings, then its node, before the next; "
		       "spread puts one thread on each core, the nodes in turn, before any core gets a second; "
		       "each thread pinned with pthread_setaffinity_np to its CPU (column cpus)",
		       sum);
	bool same = true;	/* compact and spread pin every count to the same CPUs (no SMT, one node) */
	for (int v = 0; v < sw->nvar; v++)
		for (int u = 0; u < sw->nvar; u++)
			if (sw->var[u].plan.threads == sw->var[v].plan.threads &&
			    sw->var[u].plan.memory == sw->var[v].plan.memory &&
			    memcmp(sw->var[u].cpus, sw->var[v].cpus, (size_t)sw->var[v].plan.threads * sizeof(int)))
				same = false;
	if (same)
		wtg_table_note(ctx->t, "on this machine compact and spread pin every count to the same CPUs: "
				       "their rows differ by noise alone");
	if (sw->pin_fail)
		wtg_table_note(ctx->t,
			       "pinning failed for %d thread%s (the first to CPU %d: %s; this process may run "
			       "on CPUs %s): they ran unpinned where the kernel put them (pinned = 0, cpus_seen)",
			       sw->pin_fail, sw->pin_fail == 1 ? "" : "s", sw->pin_cpu,
			       sw->pin_err == EPERM ? "outside the process's CPU affinity (taskset or a cpuset)"
						    : strerror(sw->pin_err),
			       sw->allowed_list);
	if (sw->numa)
		wtg_table_note(ctx->t,
			       "%d NUMA nodes: the threads read an anonymous copy of the mapping whose pages mbind "
			       "moves before each sample: local (each thread's part on its CPU's node), remote "
			       "(on the farthest node) or interleaved (over every node)%s%s",
			       t->nnodes, sw->bind_err ? "; mbind failed: " : "",
			       sw->bind_err ? strerror(sw->bind_err) : "");
	else if (t->nnodes > 1)
		wtg_table_note(ctx->t, "%d NUMA nodes, but no memory for a bound copy: every row reads the "
				       "data file's pages where the page cache put them",
			       t->nnodes);
	else
		wtg_table_note(ctx->t, "one NUMA node: all memory is local, so no remote or interleaved rows");
	char types[512];
	wtg_topology_types_note(t, types, sizeof types);
	wtg_table_note(ctx->t, "%s", types);
}

static void notes(struct wtg_ctx *ctx, const struct sweep *sw, const struct wtg_rounds *r, int maxn)
{
	char sz[32];
	wtg_fmt_size(sz, sizeof sz, sw->span);
	wtg_table_note(ctx->t,
		       "%s of the data file, mapped with MAP_POPULATE and touched once per page before "
		       "timing; %d rows up to %d threads (%d online CPUs%s)",
		       sz, r->nvariants, maxn, sw->ncpu,
		       maxn > sw->ncpu ? "; rows above them are oversubscribed, asked for with --threads"
				       : "; --threads=N goes beyond them");
	wtg_rounds_note(ctx, r, WARMUP);
	wtg_table_note(ctx->t,
		       "per sample: N contiguous ranges differing by at most one byte, each summed %d times "
		       "(%s; every row the same bytes: %.0f MB or more, as much as the rows' sizing warm-ups "
		       "said a sample needs to span %.0f ms at the least); ms from the first start to the last "
		       "finish; the total was checked against the known sum in all %llu samples (sum: the last "
		       "one's)",
		       sw->reps, wtg_sum_simd_name(), (double)(ctx->opt->quick ? TARGET_BYTES_QUICK : TARGET_BYTES) / 1e6,
		       WTG_SAMPLE_MIN_MS, (unsigned long long)sw->checked);
	int cached = 0;
	for (int v = 0; v < sw->nvar; v++)
		cached += sw->var[v].parts_n && isfinite(sw->var[v].parts_ratio);
	wtg_table_note(ctx->t, "ideal_gbps = min(N, %d CPUs) x the one-thread median of the same placement and "
			       "memory: threads beyond the CPUs share them, so they cannot add bandwidth%s",
		       sw->ncpu,
		       cached ? "; on a row whose follow-up ran, times its parts / whole ratio (ideal_speedup, "
				"with that ratio's interval): N threads each reading one part could at best run "
				"as one thread over one part does"
			      : "");
	for (int v = 0; v < sw->nvar; v++) {
		const struct variant *var = &sw->var[v];
		if (!var->parts_n)
			continue;
		char part[32];
		wtg_fmt_size(part, sizeof part, sw->span / (uint64_t)var->parts_n);
		wtg_table_note(ctx->t,
			       "%s: its speedup's follow-up: one thread (pinned as %s) summed the %d parts of %s "
			       "one after another, each %d times, alternating with the whole span as that row "
			       "reads it, %d samples of each after the rounds (series '%s: one thread, the parts "
			       "in turn' and '...: the whole span', every total the known sum): the parts %.2f "
			       "GB/s, the whole %.2f, a ratio of %.2f [%.2f, %.2f]",
			       var->label, sw->var[var->base].label, var->parts_n, part, var->reps, PARTS_SAMPLES,
			       var->label, var->parts_gbps, var->parts_whole_gbps, var->parts_ratio, var->parts_lo,
			       var->parts_hi);
	}
	placement_notes(ctx, sw);
	if (sw->span < ctx->df->size)
		wtg_table_note(ctx->t,
			       "the data file is larger than %s: only its first %s is used, checked "
			       "against that prefix's known sum",
			       sz, sz);
}

/* The variants of the plan: CPUs, labels, node lists, the one-thread row of each group. */
static int plan_variants(struct sweep *sw, int maxn)
{
	const struct wtg_topology *t = sw->topo;
	struct wtg_thread_plan_row plan[WTG_MAX_PLAN_ROWS];
	sw->nvar = wtg_topology_thread_plan(t, maxn, plan);
	sw->var = calloc((size_t)sw->nvar, sizeof *sw->var);
	sw->gbps = calloc((size_t)sw->nvar, sizeof *sw->gbps);
	sw->used = calloc((size_t)sw->nvar, sizeof *sw->used);
	if (!sw->var || !sw->gbps || !sw->used)
		return -1;
	for (int v = 0; v < sw->nvar; v++) {
		struct variant *var = &sw->var[v];
		var->plan = plan[v];
		var->pinned = true;
		var->base = -1;
		var->speedup_lo = var->speedup_hi = NAN;
		var->parts_gbps = var->parts_whole_gbps = var->parts_ratio = var->parts_lo = var->parts_hi = NAN;
		const int n = plan[v].threads;
		if (!(var->cpus = calloc((size_t)n, sizeof *var->cpus)))
			return -1;
		wtg_topology_place(t, plan[v].placement, n, var->cpus);
		snprintf(var->group, sizeof var->group, "%s%s%s", wtg_placement_name(plan[v].placement),
			 plan[v].memory == WTG_MEM_LOCAL ? "" : " ",
			 plan[v].memory == WTG_MEM_LOCAL ? "" : wtg_memory_name(plan[v].memory));
		snprintf(var->label, sizeof var->label, "%s %d thread%s", var->group, n, n == 1 ? "" : "s");
		struct wtg_cpuset s;
		wtg_cpuset_clear(&s);
		for (int i = 0; i < n; i++)
			wtg_cpuset_add(&s, var->cpus[i]);
		wtg_cpuset_format(&s, var->cpu_list, sizeof var->cpu_list);
		wtg_topology_nodes_of(t, var->cpus, n, &s);
		wtg_cpuset_format(&s, var->node_list, sizeof var->node_list);
		struct wtg_cpuset mem = s;
		if (plan[v].memory == WTG_MEM_REMOTE) {
			wtg_cpuset_clear(&mem);
			for (int i = 0; i < t->nnodes; i++)
				if (wtg_cpuset_has(&s, t->nodes[i].node))
					wtg_cpuset_add(&mem, t->nodes[wtg_topology_remote_node(t, i)].node);
		} else if (plan[v].memory == WTG_MEM_INTERLEAVED) {
			for (int i = 0; i < t->nnodes; i++)
				wtg_cpuset_add(&mem, t->nodes[i].node);
		}
		wtg_cpuset_format(&mem, var->mem_list, sizeof var->mem_list);
		for (int u = 0; u < sw->nvar; u++)
			if (plan[u].threads == 1 && plan[u].placement == plan[v].placement &&
			    plan[u].memory == plan[v].memory)
				var->base = u;
	}
	return 0;
}

static void free_variants(struct sweep *sw)
{
	for (int v = 0; sw->var && v < sw->nvar; v++) {
		free(sw->var[v].cpus);
		wtg_moves_free(&sw->var[v].moves);
		if (sw->used)
			wtg_rounds_used_free(&sw->used[v]);
	}
	free(sw->var);
	free(sw->gbps);
	free(sw->used);
}

struct copy_job {
	unsigned char *dst;
	const unsigned char *src;
	uint64_t n;
};

static void copy_pages(void *arg)
{
	struct copy_job *j = arg;
	memcpy(j->dst, j->src, j->n);
}

/* With several nodes: the anonymous copy the rows bind (NULL when it cannot be made: the rows then
 * read the mapping). */
static unsigned char *numa_copy(const struct sweep *sw)
{
	if (sw->topo->nnodes < 2)
		return NULL;
	unsigned char *p = mmap(NULL, sw->span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	struct copy_job j = { p, sw->map, sw->span };
	if (wtg_guard_call(copy_pages, &j) < 0) {
		munmap(p, sw->span);
		return NULL;
	}
	return p;
}

/* The CPUs the worker (and so its threads) may run on; every online CPU when it cannot be read. */
static void read_allowed(struct sweep *sw)
{
	wtg_cpuset_clear(&sw->allowed);
	cpu_set_t *set = CPU_ALLOC(WTG_TOPO_MAX_CPUS);
	size_t sz = CPU_ALLOC_SIZE(WTG_TOPO_MAX_CPUS);
	if (set && sched_getaffinity(0, sz, set) == 0) {
		for (int c = 0; c < WTG_TOPO_MAX_CPUS; c++)
			if (CPU_ISSET_S(c, sz, set))
				wtg_cpuset_add(&sw->allowed, c);
	} else {
		sw->allowed = sw->topo->online;
	}
	CPU_FREE(set);
	wtg_cpuset_format(&sw->allowed, sw->allowed_list, sizeof sw->allowed_list);
}

static void starved_fail(struct wtg_ctx *ctx, const struct sweep *sw)
{
	/* the run stopped, this is why: every row is measured in every round, so no row can stand
	 * without the others */
	wtg_table_fail(ctx->t,
		       "starved: %s got no chance to finish a sample in %.0f s (%d burners, policy %s); the "
		       "sweep was ended",
		       sw->var[sw->starved - 1].label, (double)sw->limit_ms / 1000.0, wtg_burner_count(),
		       wtg_policy_requested() ? "background" : "normal");
}

/* The largest thread count: --threads, else the online CPUs. */
static int max_threads(const struct wtg_options *o, const struct wtg_topology *t)
{
	return o->threads > 0 ? o->threads : t->cpus_online > 0 ? t->cpus_online : 1;
}

/* Repetitions of a span of the file that make a sample's bytes. */
static int reps_for(const struct wtg_options *o, uint64_t span)
{
	const uint64_t target = o->quick ? TARGET_BYTES_QUICK : TARGET_BYTES;
	int reps = span ? (int)((target + span - 1) / span) : 1;
	return reps < 1 ? 1 : reps;
}

/* An interleaved run's other turns: the mapping lets its pages go (pagecache and uncached evict the
 * file), and faults them back before the warm-up again. */
static int away(void *arg, bool back)
{
	struct sweep *sw = arg;
	if (!back) {
		wtg_map_release(sw->map, sw->span);
		return WTG_OK;
	}
	return wtg_map_refault(sw->ctx, sw->map, sw->span);
}

static int threads_run(struct wtg_ctx *ctx)
{
	struct sweep sw = { .ctx = ctx, .topo = wtg_topology_this(), .consistent = true,
			    .limit_ms = ctx->opt->time_limit_ms };
	sw.ncpu = sw.topo->cpus_online;
	read_allowed(&sw);
	const int maxn = max_threads(ctx->opt, sw.topo);
	wtg_experiment_columns(&wtg_exp_threads, ctx->t);
	sw.span = wtg_datafile_span(ctx->df, SPAN_CAP);
	sw.known = wtg_datafile_prefix_sum(ctx->df, sw.span);
	sw.reps = reps_for(ctx->opt, sw.span);
	if (plan_variants(&sw, maxn) < 0) {
		free_variants(&sw);
		wtg_table_fail(ctx->t, "out of memory for %d threads", maxn);
		return WTG_ERR;
	}
	for (int v = 0; v < sw.nvar; v++)
		sw.var[v].reps = sw.reps;
	const int nsteps = 1 + wtg_rounds_steps(ctx->opt, sw.nvar, WTG_ROUNDS_MIN, WARMUP);
	wtg_ctx_progress(ctx, 0, nsteps, "prefaulting the mapping");
	unsigned char *map = wtg_map_prefaulted(ctx, sw.span);
	if (!map) {
		free_variants(&sw);
		return WTG_ERR;
	}
	sw.map = map;
	sw.numa = numa_copy(&sw);
	/* two sizing samples a row: the first, over a freshly mapped file, ran 1.7 times slower than the
	 * rounds here (two-thread rows then spanned 4.5 ms); the second sizes from a warm start */
	struct wtg_rounds_spec spec = { .nvariants = sw.nvar, .rounds = WTG_ROUNDS_MIN, .warmup = WARMUP, .unit = "GB/s",
					.sample = sample, .row = row_of, .arg = &sw, .label = label_of,
					.away = away, .first_step = 1, .nsteps = nsteps,
					.return_pass = "each row's threads over their ranges once, untimed" };
	struct wtg_rounds r;
	int rc = wtg_ctx_cancelled(ctx) ? WTG_CANCELLED : wtg_rounds_run(ctx, &spec, &r);
	for (int v = 0; rc == WTG_OK && v < sw.nvar; v++)
		if (wants_parts(&sw, v))
			rc = parts_follow_up(ctx, &sw, v);
	if (rc == WTG_OK)
		republish_parts(ctx, &sw, &r);
	if (rc == WTG_ERR)
		wtg_rounds_free(&r);
	munmap(map, sw.span);
	if (rc == WTG_CANCELLED && sw.starved) {
		starved_fail(ctx, &sw);
	} else if (rc == WTG_OK) {
		row_checks(ctx, &sw, &r);
		wtg_table_check(ctx->t, "repeats", sw.consistent,
				"every thread's range gave the same sum in each of its %d repetitions, in every "
				"sample",
				sw.reps);
		notes(ctx, &sw, &r, maxn);
		for (int v = 0; v < sw.nvar; v++)
			wtg_moves_series(ctx, &sw.var[v].moves, sw.var[v].label);
		wtg_rounds_free(&r);
		wtg_ctx_progress(ctx, nsteps, nsteps, "done");
	}
	if (sw.numa)
		munmap(sw.numa, sw.span);
	free_variants(&sw);
	return rc;
}

/* --dry-run: the rows plan_variants gives on this machine's topology; a row takes about the same
 * time whatever its thread count (the bytes are fixed), so the typical time scales with the rows
 * against the rows on the two-CPU reference machine (2 counts x 2 placements). */
static void threads_plan(struct wtg_plan *p)
{
	/* no bytes: a row's repetitions are set by its sizing warm-up (enough to span WTG_SAMPLE_MIN_MS) */
	static const char *const names[] = { "threads", "placement", "memory", "cpus", "nodes", "memory_nodes",
					      "oversubscribed" };
	struct sweep sw = { .topo = p->topo, .ncpu = p->topo->cpus_online };
	if (plan_variants(&sw, max_threads(p->opt, p->topo)) < 0)
		p->failed = true;
	wtg_plan_columns(p, names, (int)WTG_ARRAY_LEN(names));
	for (int v = 0; v < sw.nvar && !p->failed; v++) {
		const struct variant *var = &sw.var[v];
		const struct wtg_value row[] = {
			WTG_INT(var->plan.threads), WTG_TEXT(wtg_placement_name(var->plan.placement)),
			WTG_TEXT(wtg_memory_name(var->plan.memory)), WTG_TEXT(var->cpu_list),
			WTG_TEXT(var->node_list), WTG_TEXT(var->mem_list), WTG_INT(var->plan.threads > sw.ncpu),
		};
		wtg_plan_row(p, row);
	}
	free_variants(&sw);
	wtg_rounds_plan(p, WARMUP);
	p->work = p->nrows;
	p->ref_work = WTG_NPLACEMENTS * 2;	/* counts 1 and 2 */
	snprintf(p->how, sizeof p->how, "typical time x %d rows / %d on a %d-CPU machine", p->nrows,
		 WTG_NPLACEMENTS * 2, WTG_PLAN_REF_CPUS);
}

/* "4 threads: 20.1 GB/s, 1 thread: 11.0". */
static int threads_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	int tc = wtg_table_col(t, "threads"), gc = wtg_table_col(t, "gbps");
	double one = NAN, best = NAN, at = 0;
	for (int r = 0; tc >= 0 && gc >= 0 && r < t->nrows; r++) {
		double n = wtg_table_num(t, r, tc), g = wtg_table_num(t, r, gc);
		if (n == 1 && isnan(one))
			one = g;
		if (isfinite(g) && (isnan(best) || g > best)) {
			best = g;
			at = n;
		}
	}
	char drop[200];
	wtg_moves_drop_words(t, drop, sizeof drop);
	return wtg_verdict_fmt(buf, len, isfinite(best) && isfinite(one),
			       "best %.0f threads = %.1f GB/s, 1 thread = %.1f GB/s (%.1fx)%s", at, best, one, best / one,
			       drop);
}

/* The essay needed eight cores; with two, the pipe may never fill. */
static const char *threads_cannot(const struct wtg_table *t)
{
	(void)t;
	return wtg_online_cpus() < 8 ? "too few CPUs here to show where the pipe fills" : NULL;
}

const struct wtg_experiment wtg_exp_threads = {
	.name = "threads",
	.question = "How many cores fill the memory pipe?",
	.runs = "prefaulted mapping split into N ranges, N = 1, 2, 4 .. online CPUs with the per-node and "
		"per-package counts (--threads beyond, marked oversubscribed), each pinned compact and spread "
		"(local/remote/interleaved memory with several NUMA nodes); >= 15 seeded rounds per row, "
		"median GB/s with CI, sum checked per sample",
	.needs_datafile = true,
	.not_cold = "it prefaults its mapping first",
	.not_uncached = "it sums a mapping of the file, prefaulted first",
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_BARS,
	.bars = { .label = { "group", "threads" }, .value = "gbps", .extra = "ms", .ideal = true },
	.headline = { { "GB/s with the most threads", NULL, NULL, "gbps", "gbps_ci_low", "gbps_ci_high", NULL, "GB/s",
			true, .work_col = "threads" } },
	.typical_s = 2,
	.typical_quick_s = 1,
	.verdict = threads_verdict,
	.essay = { "8 cores to fill the pipe: 18 GB/s a core, 95 GB/s at 8", threads_cannot, .value = 95,
		   .why = wtg_why_threads },
	.terms = WTG_TERMS("membound", "corebound", "scaling", "oversub", "gbps", "dram"),
	.interleaves = true,
	.alternates = true,
	.run = threads_run,
	.plan = threads_plan,
};
