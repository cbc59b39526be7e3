/* pagecache.c: Disk or RAM?
 *
 * The file's pages are dropped from the page cache with posix_fadvise(POSIX_FADV_DONTNEED) (no root
 * needed; clean pages only, which is why the data file is fsynced when created), then a span of the
 * file is summed cold, and again warm. Residency of the span is counted with mincore before and
 * after, so "cold" is verified, not assumed (pages past the span may still be arriving from the last
 * warm pass's readahead when an eviction ends: mincore sees them only once their read is done, and
 * a cold pass does not read them). Two methods: buffered read() with a 1 MiB buffer, where the kernel's
 * readahead fills the cache and the process takes no major faults (the evidence of cold is time and
 * residency), and mmap, where the process takes the faults itself: a fault that has to start the
 * read is major, one that finds the page already coming in through readahead is minor. The four
 * (cold and warm, each method) are variants of the rounds engine: 15 samples each in seeded random
 * order per round, every cold sample evicting first.
 */
#include "config.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"
#include "io.h"
#include "pages.h"
#include "rounds.h"
#include "why.h"
#include "wtg/ctx.h"
#include "wtg/plan.h"

#define PC_BUF (1u << 20)
#define PC_SPAN (64ull << 20)		/* bytes a sample reads: the file up to this */
#define PC_SPAN_QUICK (16ull << 20)
#define PC_EVICTED_FRACTION 0.10	/* eviction "worked" when at most this share stays resident */
#define PC_NVAR 4			/* cold read, warm read, cold mmap, warm mmap */
#define PC_MIN_SAMPLE_MS 5.0		/* a warm sample repeats its pass until it spans this (and half again) */
#define PC_MAX_REPS 64

enum pc_method { PC_READ = 0, PC_MMAP = 1 };

static const char *const pc_method_name[] = { "read 1 MiB", "mmap" };

struct pc_state {
	struct wtg_ctx *ctx;
	int64_t pages;		/* the span's pages: the ones a sample reads */
	uint64_t span;		/* bytes a sample reads */
	int64_t known;		/* their known sum */
	unsigned char *buf;	/* the read buffer, touched before any pass so no pass pays its faults */
	/* per variant: the latest sample's residency before and after it, its faults per timed sample */
	int64_t res_before[PC_NVAR], res_after[PC_NVAR];
	int64_t most_left;	/* the most pages any eviction left resident */
	double minflt[PC_NVAR][WTG_ROUNDS_MIN], majflt[PC_NVAR][WTG_ROUNDS_MIN];
	int nflt[PC_NVAR];
	double median_ms[PC_NVAR];
	int reps[PC_NVAR];	/* passes per sample: 1 cold; warm, as many as span PC_MIN_SAMPLE_MS */
};

static bool is_cold(int v)
{
	return v % 2 == 0;
}

static int method_of(int v)
{
	return v / 2;
}

static void label(const void *arg, int v, char *buf, size_t len)
{
	(void)arg;
	snprintf(buf, len, "%s pass (%s)", is_cold(v) ? "cold" : "warm", pc_method_name[method_of(v)]);
}

/* Sum the span with buffered reads, in 8 MiB segments so a cold pass notices cancel within tens of
 * ms. Returns 0, 1 (cancelled) or -1 (failed). */
static int pc_read_pass(struct pc_state *st, int reps, struct wtg_probe_result *pr, int64_t *sum)
{
	int fd = open(st->ctx->df->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int64_t bytes = 0, calls;
	int rc = 0;
	*sum = 0;
	struct wtg_probe pb;
	wtg_probe_begin(&pb);
	for (int k = 0; k < reps && rc == 0; k++) {
		int64_t one = 0;
		if (k > 0 && lseek(fd, 0, SEEK_SET) != 0)
			rc = -1;
		else
			rc = wtg_read_sum_long(st->ctx, fd, st->buf, PC_BUF, st->span, &one, &bytes, &calls);
		if (rc == 0 && (uint64_t)bytes != st->span)
			rc = -1;
		*sum += one;
	}
	wtg_probe_end(&pb, pr);
	close(fd);
	return rc;
}

/* Map the span and sum it; the mapping is made and removed inside the probe. Returns 0, 1 (cancelled),
 * -1 (open or mmap failed) or -2 (the file shrank under the mapping: the table has failed). */
static int pc_mmap_pass(struct pc_state *st, int reps, struct wtg_probe_result *pr, int64_t *sum)
{
	const struct wtg_datafile *df = st->ctx->df;
	int fd = open(df->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct wtg_probe pb;
	int rc = 0;
	*sum = 0;
	wtg_probe_begin(&pb);
	for (int k = 0; k < reps && rc == 0; k++) {
		int64_t one = 0;
		unsigned char *p = mmap(NULL, st->span, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			rc = -1;
			break;
		}
		rc = wtg_sum_mapped(st->ctx, p, st->span, &one);
		if (rc < 0)
			rc = -2;
		munmap(p, st->span);
		*sum += one;
	}
	wtg_probe_end(&pb, pr);
	close(fd);
	return rc;
}

/* One sample: a cold one evicts the file first (outside the timing); residency on both sides. */
static int sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	struct pc_state *st = arg;
	char what[48];
	label(arg, v, what, sizeof what);
	if (is_cold(v)) {
		if (wtg_datafile_evict(ctx->df) < 0) {
			wtg_table_fail(ctx->t, "posix_fadvise(POSIX_FADV_DONTNEED) on the data file failed");
			return WTG_ERR;
		}
	}
	int64_t before = wtg_datafile_resident_range(ctx->df, 0, st->span);
	if (is_cold(v) && before > st->most_left)
		st->most_left = before;
	int64_t sum = 0;
	const int reps = st->reps[v];
	int rc = method_of(v) == PC_READ ? pc_read_pass(st, reps, &out->res, &sum)
					 : pc_mmap_pass(st, reps, &out->res, &sum);
	if (rc == 1)
		return WTG_CANCELLED;
	if (rc == -2)
		return WTG_ERR;
	if (rc < 0) {
		wtg_table_fail(ctx->t, "%s: reading the data file failed", what);
		return WTG_ERR;
	}
	st->res_before[v] = before;
	st->res_after[v] = wtg_datafile_resident_range(ctx->df, 0, st->span);
	if (round >= 0 && st->nflt[v] < WTG_ROUNDS_MIN) {	/* faults per pass */
		st->minflt[v][st->nflt[v]] = (double)out->res.minflt / reps;
		st->majflt[v][st->nflt[v]++] = (double)out->res.majflt / reps;
	}
	out->figure = out->res.wall_ms > 0 ? (double)st->span * reps / (out->res.wall_ms * 1e6) : 0;
	/* the sizing warm-up: a warm sample that would span less than half again PC_MIN_SAMPLE_MS
	 * repeats its pass more times (a cold pass cannot be repeated cold: it is one pass) */
	if (round == WTG_ROUND_WARMUP && !is_cold(v) && out->res.wall_ms > 0 &&
	    out->res.wall_ms < 1.5 * PC_MIN_SAMPLE_MS) {
		double more = ceil(reps * 1.5 * PC_MIN_SAMPLE_MS / out->res.wall_ms);
		st->reps[v] = more > PC_MAX_REPS ? PC_MAX_REPS : (int)more;
	}
	return wtg_check_sum_quiet(ctx, what, sum, st->known * reps) ? WTG_OK : WTG_ERR;
}

/* The rounds start again (a key changed the conditions): the dropped samples' fault counts go too. */
static void restart(void *arg)
{
	struct pc_state *st = arg;
	memset(st->nflt, 0, sizeof st->nflt);
}

/* The row of variant v; a warm row carries the ratio of its method's cold median time to its own
 * (the cold row comes first in each round's publishing). */
static int row(struct wtg_ctx *ctx, void *arg, int v, const struct wtg_rounds_result *r, struct wtg_value *vals)
{
	(void)ctx;
	struct pc_state *st = arg;
	double ms = r->s.median > 0 ? (double)st->span / (r->s.median * 1e6) : NAN;
	st->median_ms[v] = ms;
	double ratio = is_cold(v) || isnan(ms) ? NAN : st->median_ms[v - 1] / ms;
	int n = 0;
	vals[n++] = WTG_TEXT(is_cold(v) ? "cold" : "warm");
	vals[n++] = isnan(ms) ? WTG_NA : WTG_REAL(ms);
	vals[n++] = WTG_REAL(r->s.median);
	vals[n++] = WTG_INT(llround(wtg_quantile(st->minflt[v], (size_t)st->nflt[v], 0.5)));
	vals[n++] = WTG_INT(llround(wtg_quantile(st->majflt[v], (size_t)st->nflt[v], 0.5)));
	n += wtg_rounds_values_after(vals + n, r);
	vals[n++] = st->res_before[v] < 0 ? WTG_NA : WTG_INT(st->res_before[v]);
	vals[n++] = st->res_after[v] < 0 ? WTG_NA : WTG_INT(st->res_after[v]);
	vals[n++] = WTG_INT(st->pages);
	vals[n++] = WTG_TEXT(pc_method_name[method_of(v)]);
	vals[n++] = WTG_INT(st->span);
	vals[n++] = isnan(ratio) ? WTG_NA : WTG_REAL(ratio);
	vals[n++] = WTG_INT(st->known);
	return n;
}

extern const struct wtg_experiment wtg_exp_pagecache;

static const struct wtg_column cols[] = {
	{ "pass", "", WTG_T_TEXT, 0 },
	{ "ms", "ms", WTG_T_REAL, 2 },
	{ "gbps", "GB/s", WTG_T_REAL, 2 },
	{ "minflt", "count", WTG_T_INT, 0 },
	{ "majflt", "count", WTG_T_INT, 0 },
	WTG_ROUNDS_AFTER("gbps", "GB/s", 2),
	{ "resident_before", "count", WTG_T_INT, 0 },
	{ "resident_after", "count", WTG_T_INT, 0 },
	{ "pages", "count", WTG_T_INT, 0 },
	{ "method", "", WTG_T_TEXT, 0 },
	{ "bytes", "B", WTG_T_INT, 0 },
	{ "cold_warm_ratio", "", WTG_T_REAL, 2 },
	{ "sum", "", WTG_T_INT, 0 },
};

static void add_notes(struct pc_state *st, const struct wtg_rounds *r)
{
	struct wtg_ctx *ctx = st->ctx;
	const struct wtg_datafile *df = ctx->df;
	char span[32];
	wtg_fmt_size(span, sizeof span, st->span);
	wtg_table_note(ctx->t, "cold/warm: %.2fx with read (1 MiB buffer), %.2fx with mmap (median times)",
		       st->median_ms[0] / st->median_ms[1], st->median_ms[2] / st->median_ms[3]);
	wtg_table_note(ctx->t,
		       "a sample sums the first %s of the file; a cold sample first evicts the whole file "
		       "(outside the timing); a warm sample repeats the pass as often as its sizing warm-up "
		       "says it needs to span %.0f ms (here %d with read, %d with mmap; ms per pass); minflt, "
		       "majflt: medians over the samples, per pass; resident_before, resident_after: the "
		       "span's resident pages of its %lld (%ld B each) around the latest sample (pages past it "
		       "may still be arriving from a warm pass's readahead, which no cold pass reads)",
		       span, PC_MIN_SAMPLE_MS, st->reps[1], st->reps[3], (long long)st->pages, wtg_page_size());
	wtg_rounds_note(ctx, r, 1);
	bool worked = st->most_left >= 0 && (double)st->most_left <= PC_EVICTED_FRACTION * (double)st->pages;
	if (worked)
		wtg_table_note(ctx->t,
			       "eviction worked: at most %lld of the span's %lld pages stayed resident after "
			       "POSIX_FADV_DONTNEED in any cold sample, so the cold passes went to the block "
			       "device (which may cache on its own, e.g. a virtual disk's host)",
			       (long long)st->most_left, (long long)st->pages);
	else
		wtg_table_note(ctx->t,
			       "eviction did NOT work here (up to %lld of the span's %lld pages still resident after "
			       "POSIX_FADV_DONTNEED%s): the cold passes are not cold",
			       (long long)st->most_left, (long long)st->pages,
			       wtg_datafile_in_memory(df) ? "; on tmpfs the page cache is where the file lives" : "");
	wtg_table_note(
		ctx->t,
		"major faults in the cold passes: read %.0f (readahead fills the cache inside read(), "
		"so the evidence of cold is time and residency); mmap %.0f (a fault is major only when "
		"it has to start the read itself: readahead makes the rest minor)",
		wtg_quantile(st->majflt[0], (size_t)st->nflt[0], 0.5),
		wtg_quantile(st->majflt[2], (size_t)st->nflt[2], 0.5));
	if (wtg_uncached_requested())
		wtg_table_note(
			ctx->t,
			"the uncached condition does not apply here: this experiment is about the page "
			"cache, so its passes are always buffered");
}

/* Bytes a sample reads of a file of size bytes. */
static uint64_t pc_span(const struct wtg_options *o, uint64_t size)
{
	return wtg_span_of(size, o->quick ? PC_SPAN_QUICK : PC_SPAN);
}

static int pagecache_run(struct wtg_ctx *ctx)
{
	wtg_experiment_columns(&wtg_exp_pagecache, ctx->t);
	const struct wtg_datafile *df = ctx->df;
	struct pc_state *st = calloc(1, sizeof *st);
	if (!st || !(st->buf = malloc(PC_BUF))) {
		free(st);
		wtg_table_fail(ctx->t, "out of memory for a 1 MiB buffer");
		return WTG_ERR;
	}
	st->ctx = ctx;
	for (int v = 0; v < PC_NVAR; v++)
		st->reps[v] = 1;
	st->span = pc_span(ctx->opt, df->size);
	st->known = wtg_datafile_prefix_sum(df, st->span);
	st->pages = wtg_pages_of(st->span, wtg_page_size());
	memset(st->buf, 1, PC_BUF); /* not 0: malloc + memset 0 may become calloc, which touches nothing */
	struct wtg_rounds r = { 0 };
	const struct wtg_rounds_spec spec = {
		.nvariants = PC_NVAR, .rounds = WTG_ROUNDS_MIN, .warmup = 1,
		.pilot = 1, .unit = "GB/s",	/* windows of warm reads: a cold pass is cold by design */
		.sample = sample, .row = row, .arg = st, .label = label, .restart = restart,
	};
	int rc = wtg_rounds_run(ctx, &spec, &r);
	if (rc == WTG_OK) {
		wtg_ctx_progress(ctx, 1, 1, "done");
		for (int v = 0; v < PC_NVAR; v++) {
			char name[48];
			label(st, v, name, sizeof name);
			wtg_check_sums_row(ctx, name, (int)r.v[v].n, st->known * (int64_t)r.v[v].n);
			wtg_rounds_checks(ctx, name, "GB/s", &r.v[v]);
		}
		add_notes(st, &r);
	}
	wtg_rounds_free(&r);
	free(st->buf);
	free(st);
	return rc;
}

/* --dry-run: cold and warm passes by each method over the span pc_span() gives the file. */
static void pagecache_plan(struct wtg_plan *p)
{
	static const char *const names[] = { "pass", "method", "bytes" };
	const uint64_t span = pc_span(p->opt, p->file_size);
	wtg_plan_columns(p, names, 3);
	for (int v = 0; v < PC_NVAR; v++) {
		const struct wtg_value row[] = { WTG_TEXT(is_cold(v) ? "cold" : "warm"),
						 WTG_TEXT(pc_method_name[method_of(v)]),
						 WTG_INT(span) };
		wtg_plan_row(p, row);
	}
	wtg_rounds_plan(p, 1);
}

/* "cold 0.9 GB/s, warm 7.7 GB/s: RAM 8.4x disk". */
static int pagecache_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	double cold = wtg_verdict_value(t, "pass", "cold", "gbps");
	double warm = wtg_verdict_value(t, "pass", "warm", "gbps");
	if (!isfinite(warm) || !(cold > 0))
		return wtg_verdict_fmt(buf, len, isfinite(cold), "cold passes = %.2f GB/s", cold);
	return wtg_verdict_fmt(buf, len, true, "cold %.2f GB/s, warm %.2f GB/s: RAM %.1fx disk", cold, warm,
			       warm / cold);
}

const struct wtg_experiment wtg_exp_pagecache = {
	.name = "pagecache",
	.question = "Disk or RAM?",
	.runs = "cold passes (each after posix_fadvise DONTNEED) and warm passes, read and mmap, in rounds; GB/s, faults",
	.needs_datafile = true,
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_COUNTERS,
	.bars = { .label = { "pass", "method" }, .value = "gbps",
		  .caption = "GB/s of a cold pass (after DONTNEED) and a warm one, each way of reading (higher is "
			     "better); every counter in the table" },
	.headline = { { "GB/s, cold read passes", "pass", "cold", "gbps", "gbps_ci_low", "gbps_ci_high", NULL,
			"GB/s", true } },
	.typical_s = 2,
	.typical_quick_s = 1,
	.verdict = pagecache_verdict,
	.essay = { "cold 0.46 s with 12,040 faults, warm 0.05 s with 1: nine times", NULL, .value = 9,
		   .here = wtg_why_pagecache_ratio, .why = wtg_why_pagecache },
	.self_conditions = WTG_COND_COLD | WTG_COND_UNCACHED,
	.terms = WTG_TERMS("pagecache", "coldwarm", "evict", "readahead", "mmap", "minflt", "majflt", "faultaround",
			   "odirect"),
	.interleaves = true,
	.alternates = true,
	.run = pagecache_run,
	.plan = pagecache_plan,
};
