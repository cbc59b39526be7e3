/* mmap.c: What does mapping a file cost?
 *
 * The warm file is mapped (MAP_PRIVATE, PROT_READ) and summed twice per repetition: once as mapped,
 * so the summing pass takes the page faults, and once mapped with MAP_POPULATE, so the mmap call
 * takes them and the summing pass runs on present pages. The difference of the two summing passes,
 * divided by the faults the first one took, is the cost of one file fault. Linux maps around a
 * fault (fault-around) and may back the file with large folios, so one fault often makes many pages
 * present: faults and pages are both reported, never assumed equal.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"
#include "pages.h"
#include "wtg/ctx.h"
#include "wtg/plan.h"
#include "why.h"

#define MM_REPS 11
#define MM_QUICK_REPS 11	/* --quick moves fewer bytes, never fewer samples */

enum { ROW_LAZY = 0, ROW_POPULATE, ROW_PREFAULTED, MM_NCASES };	/* the rows */
static const char *const mm_case[MM_NCASES] = { "not prefaulted", "populate (mmap call)", "prefaulted" };

/* Repetitions of each case. */
static int mm_reps(const struct wtg_options *o)
{
	return o && o->quick ? MM_QUICK_REPS : MM_REPS;
}

enum { MM_LAZY = 0, MM_POPULATED = 1 };

struct mm_run {
	struct wtg_probe_result sum_pr;	/* the summing pass */
	struct wtg_probe_result map_pr;	/* the mmap call (populating or not) */
	int64_t sum;
};

/* One mapping and one timed summing pass. Returns 0, 1 (cancelled) or -1 after wtg_table_fail (mmap
 * failed, or the file shrank under the mapping). */
static int mm_once(struct wtg_ctx *ctx, int fd, uint64_t size, int kind, struct mm_run *r)
{
	struct wtg_probe pb;
	memset(r, 0, sizeof *r);
	wtg_probe_begin(&pb);
	unsigned char *p =
		mmap(NULL, size, PROT_READ, MAP_PRIVATE | (kind == MM_POPULATED ? MAP_POPULATE : 0), fd, 0);
	wtg_probe_end(&pb, &r->map_pr);
	if (p == MAP_FAILED) {
		wtg_table_fail(ctx->t, "mmap of the data file (%llu bytes) failed: %s", (unsigned long long)size,
			       strerror(errno));
		return -1;
	}
	wtg_probe_begin(&pb);
	int rc = wtg_sum_mapped(ctx, p, size, &r->sum);
	wtg_probe_end(&pb, &r->sum_pr);
	munmap(p, size);
	return rc;
}

/* Index of the run whose summing time is the median (odd n). */
static int mm_median_run(const struct mm_run *r, int n, bool map_time)
{
	double v[MM_REPS];
	for (int i = 0; i < n; i++)
		v[i] = map_time ? r[i].map_pr.wall_ms : r[i].sum_pr.wall_ms;
	wtg_sort(v, (size_t)n);
	double med = v[n / 2];
	for (int i = 0; i < n; i++)
		if ((map_time ? r[i].map_pr.wall_ms : r[i].sum_pr.wall_ms) == med)
			return i;
	return 0;
}

static void mm_minmax(const struct mm_run *r, int n, bool map_time, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (int i = 0; i < n; i++) {
		double v = map_time ? r[i].map_pr.wall_ms : r[i].sum_pr.wall_ms;
		if (v < *lo)
			*lo = v;
		if (v > *hi)
			*hi = v;
	}
}

/* A summing case's GB/s as a distribution: one figure a repetition, its median, bootstrap CI and range
 * (NAN everywhere for the populate row, which times the mmap call, not a sum). */
struct mm_rate {
	double median, ci_low, ci_high, min, max;
};

static struct mm_rate mm_rate_of(struct wtg_ctx *ctx, const struct mm_run *r, int reps, double gb, unsigned idx)
{
	struct mm_rate out = { NAN, NAN, NAN, NAN, NAN };
	double v[MM_REPS];
	struct wtg_summary s;
	for (int i = 0; i < reps; i++)
		v[i] = r[i].sum_pr.wall_ms > 0 ? gb / (r[i].sum_pr.wall_ms / 1e3) : 0;
	if (reps > 0 && wtg_summarize(v, (size_t)reps, wtg_ctx_seed(ctx, idx), &s) == 0)
		out = (struct mm_rate){ s.median, s.ci_low, s.ci_high, s.min, s.max };
	return out;
}

static void mm_row(struct wtg_ctx *ctx, const char *label, const struct wtg_probe_result *pr, int64_t pages,
		   double ns_per_fault, double ns_per_page, long page, const struct mm_rate *rate, int reps,
		   double lo, double hi, int64_t sum, const double *fault_ci)
{
	double gbps = rate->median;
	const struct wtg_value v[] = {
		WTG_TEXT(label),
		WTG_REAL(pr->wall_ms),
		WTG_INT(pr->minflt),
		WTG_INT(pr->majflt),
		WTG_INT(pages),
		WTG_REAL((double)pr->minflt / (double)pages),
		isnan(ns_per_fault) ? WTG_NA : WTG_REAL(ns_per_fault),
		WTG_INT(page),
		isnan(ns_per_page) ? WTG_NA : WTG_REAL(ns_per_page),
		isnan(gbps) ? WTG_NA : WTG_REAL(gbps),
		WTG_INT(reps),
		WTG_REAL(lo),
		WTG_REAL(hi),
		sum < 0 ? WTG_NA : WTG_INT(sum),
		wtg_real_or_na(rate->ci_low),
		wtg_real_or_na(rate->ci_high),
		wtg_real_or_na(rate->min),
		wtg_real_or_na(rate->max),
		WTG_INT(reps),
		fault_ci ? wtg_real_or_na(fault_ci[0]) : WTG_NA,
		fault_ci ? wtg_real_or_na(fault_ci[1]) : WTG_NA,
	};
	wtg_table_add_row(ctx->t, v, (int)WTG_ARRAY_LEN(v), pr);
}

/* Fault-around window from debugfs, when it is readable (root with debugfs mounted). */
static long fault_around_bytes(void)
{
	char buf[32], *end;
	if (wtg_read_small("/sys/kernel/debug/fault_around_bytes", buf, sizeof buf) <= 0)
		return -1;
	long v = strtol(buf, &end, 10);
	return end != buf && v >= 0 ? v : -1;
}

extern const struct wtg_experiment wtg_exp_mmap;

static const struct wtg_column cols[] = {
	{ "case", "", WTG_T_TEXT, 0 },
	{ "ms", "ms", WTG_T_REAL, 2 },
	{ "minflt", "count", WTG_T_INT, 0 },
	{ "majflt", "count", WTG_T_INT, 0 },
	{ "pages", "count", WTG_T_INT, 0 },
	{ "faults_per_page", "", WTG_T_REAL, 4 },
	{ "ns_per_fault", "ns", WTG_T_REAL, 1 },
	{ "page_size", "B", WTG_T_INT, 0 },
	{ "ns_per_page", "ns", WTG_T_REAL, 1 },
	{ "gbps", "GB/s", WTG_T_REAL, 2 },
	{ "reps", "count", WTG_T_INT, 0 },
	{ "ms_min", "ms", WTG_T_REAL, 2 },
	{ "ms_max", "ms", WTG_T_REAL, 2 },
	{ "sum", "", WTG_T_INT, 0 },
	{ "gbps_ci_low", "GB/s", WTG_T_REAL, 2 },
	{ "gbps_ci_high", "GB/s", WTG_T_REAL, 2 },
	{ "gbps_min", "GB/s", WTG_T_REAL, 2 },
	{ "gbps_max", "GB/s", WTG_T_REAL, 2 },
	{ "samples", "count", WTG_T_INT, 0 },
	{ "ns_per_fault_ci_low", "ns", WTG_T_REAL, 1 },	/* the median's bootstrap interval over the reps */
	{ "ns_per_fault_ci_high", "ns", WTG_T_REAL, 1 },
};

/* What a run measured: the repetitions of each case and what the rows make of them. */
struct mm_result {
	int reps;
	struct mm_run warm;
	struct mm_run runs[2][MM_REPS];
	int64_t pages, resident;
	long page;
	int il, ip;			/* the median repetitions of the summing passes */
	double diff[MM_REPS];		/* ns per fault of each repetition */
	double ns_fault, dms_med;
};

/* The warm-up pass, then every repetition of both cases in seeded order; each sum checked. */
static int mm_measure(struct wtg_ctx *ctx, int fd, uint64_t size, struct mm_result *m)
{
	const struct wtg_datafile *df = ctx->df;
	int nsteps = 1 + 2 * m->reps;
	/* fixed warm-up rule: one unreported mmap pass, so every page is in the page cache before
	 * measuring; cold (c): none, and every pass starts on an evicted file */
	int rc;
	if (!ctx->cold) {
		wtg_ctx_progress(ctx, 0, nsteps, "warm-up pass");
		rc = mm_once(ctx, fd, size, MM_LAZY, &m->warm);
		if (rc != 0)
			return rc == 1 ? WTG_CANCELLED : WTG_ERR;
		if (!wtg_check_sum(ctx, "warm-up pass (mmap, not reported)", m->warm.sum, df->sum))
			return WTG_ERR;
	}
	m->resident = wtg_datafile_resident_pages(df);
	int order[2] = { MM_LAZY, MM_POPULATED };
	int step = 1;
	for (int rep = 0; rep < m->reps; rep++) {
		/* the two cases in seeded random order in every repetition */
		wtg_shuffle_int(&ctx->rng, order, 2);
		for (int k = 0; k < 2; k++) {
			int kind = order[k];
			char label[64];
			snprintf(label, sizeof label, "%s, repetition %d",
				 kind == MM_LAZY ? "not prefaulted" : "prefaulted", rep + 1);
			wtg_ctx_progress(ctx, step++, nsteps, label);
			if (ctx->cold)
				wtg_datafile_evict(df);
			rc = mm_once(ctx, fd, size, kind, &m->runs[kind][rep]);
			if (rc < 0)
				return WTG_ERR;
			if (rc == 1)
				return WTG_CANCELLED;
			if (m->runs[kind][rep].sum != df->sum) {
				wtg_check_sum(ctx, label, m->runs[kind][rep].sum, df->sum);
				return WTG_ERR;
			}
		}
	}
	wtg_ctx_progress(ctx, nsteps, nsteps, "done");
	return WTG_OK;
}

/* The three rows (the median repetition speaks for each case), the checks and the raw series. */
static void mm_rows(struct wtg_ctx *ctx, uint64_t size, struct mm_result *m)
{
	const struct mm_run *lazy = m->runs[MM_LAZY], *pop = m->runs[MM_POPULATED];
	int reps = m->reps;
	m->il = mm_median_run(lazy, reps, false);
	m->ip = mm_median_run(pop, reps, false);
	int il = m->il, ip = m->ip, im = mm_median_run(pop, reps, true);
	/* ns per fault: median over repetitions of the paired difference of the summing passes,
	 * over the faults the not-prefaulted pass took */
	double dms[MM_REPS], lo, hi;
	for (int i = 0; i < reps; i++) {
		dms[i] = lazy[i].sum_pr.wall_ms - pop[i].sum_pr.wall_ms;
		m->diff[i] = lazy[i].sum_pr.minflt > 0 ? dms[i] * 1e6 / (double)lazy[i].sum_pr.minflt : NAN;
	}
	m->ns_fault = wtg_quantile(m->diff, (size_t)reps, 0.5);
	double fault_ci[2] = { NAN, NAN };
	if (wtg_bootstrap_median_ci(m->diff, (size_t)reps, WTG_BOOTSTRAP_RESAMPLES, WTG_BOOTSTRAP_CONF,
				    wtg_ctx_seed(ctx, 4), &fault_ci[0], &fault_ci[1]) < 0)
		fault_ci[0] = fault_ci[1] = NAN;
	m->dms_med = wtg_quantile(dms, (size_t)reps, 0.5);
	double gb = (double)size / 1e9;
	int64_t pages = m->pages;

	struct mm_rate lazy_rate = mm_rate_of(ctx, lazy, reps, gb, 1), pop_rate = mm_rate_of(ctx, pop, reps, gb, 2);
	const struct mm_rate none = { NAN, NAN, NAN, NAN, NAN };
	mm_minmax(lazy, reps, false, &lo, &hi);
	mm_row(ctx, mm_case[ROW_LAZY], &lazy[il].sum_pr, pages, m->ns_fault, m->dms_med * 1e6 / (double)pages,
	       m->page, &lazy_rate, reps, lo, hi, lazy[il].sum, fault_ci);
	mm_minmax(pop, reps, true, &lo, &hi);
	const struct wtg_probe_result *mp = &pop[im].map_pr;
	mm_row(ctx, mm_case[ROW_POPULATE], mp, pages,
	       mp->minflt > 0 ? mp->wall_ms * 1e6 / (double)mp->minflt : NAN,
	       mp->wall_ms * 1e6 / (double)pages, m->page, &none, reps, lo, hi, -1, NULL);
	mm_minmax(pop, reps, false, &lo, &hi);
	mm_row(ctx, mm_case[ROW_PREFAULTED], &pop[ip].sum_pr, pages, NAN, NAN, m->page, &pop_rate, reps, lo, hi,
	       pop[ip].sum, NULL);

	char what[96];
	snprintf(what, sizeof what, "%d not-prefaulted and %d prefaulted mmap sums", reps, reps);
	wtg_check_sum(ctx, what, lazy[il].sum, ctx->df->sum);
	/* Over every repetition, not the median one's: a build that instruments memory accesses
	 * (ThreadSanitizer's shadow) adds thousands of faults of its own to both passes, and one pair's
	 * counts can cross where the totals do not. */
	long long pop_flt = 0, lazy_flt = 0;
	for (int i = 0; i < reps; i++) {
		pop_flt += pop[i].sum_pr.minflt;
		lazy_flt += lazy[i].sum_pr.minflt;
	}
	wtg_table_check(ctx->t, "prefault", pop_flt < lazy_flt,
			"the prefaulted summing passes took fewer minor faults (%lld in %d) than the "
			"not-prefaulted ones (%lld in %d)",
			pop_flt, reps, lazy_flt, reps);

	double series[MM_REPS];
	for (int i = 0; i < reps; i++)
		series[i] = lazy[i].sum_pr.wall_ms;
	wtg_table_add_series(ctx->t, "not prefaulted", "ms", series, (size_t)reps);
	for (int i = 0; i < reps; i++)
		series[i] = pop[i].sum_pr.wall_ms;
	wtg_table_add_series(ctx->t, "prefaulted", "ms", series, (size_t)reps);
	wtg_table_add_series(ctx->t, "ns per fault", "ns", m->diff, (size_t)reps);
}

static void mm_notes(struct wtg_ctx *ctx, const struct mm_result *m)
{
	const struct mm_run *lz = &m->runs[MM_LAZY][m->il];
	long page = m->page;
	long long pages = (long long)m->pages;
	wtg_table_note(ctx->t,
		       "each case ran %d times, the two in seeded random order per repetition; a row is "
		       "the repetition with the median time (ms_min, ms_max: the range)",
		       m->reps);
	wtg_table_note(ctx->t,
		       "faults per page %.4f: one fault made about %.1f of the %lld pages (%ld B) present "
		       "(fault-around and large folios), so faults are not pages",
		       (double)lz->sum_pr.minflt / (double)pages,
		       lz->sum_pr.minflt > 0 ? (double)pages / (double)lz->sum_pr.minflt : NAN, pages, page);
	long fab = fault_around_bytes();
	if (fab > 0)
		wtg_table_note(ctx->t, "fault_around_bytes (debugfs): %ld, i.e. %ld pages", fab, fab / page);
	wtg_table_note(ctx->t,
		       "ns_per_fault (not prefaulted): median of the paired differences of the summing "
		       "passes (%.2f ms) over the faults the not-prefaulted pass took%s",
		       m->dms_med, m->ns_fault < 0 ? "; negative: the difference is within the noise" : "");
	wtg_table_note(ctx->t,
		       "ns_per_fault (populate): the MAP_POPULATE mmap call's time over the minor faults "
		       "it counted; it also walks the page tables page by page (get_user_pages), so it is an "
		       "upper bound, not the fault alone; ns_per_page: the same times over the file's pages");
	if (ctx->cold)
		wtg_table_note(ctx->t,
			       "cold cache (c): no warm-up; the data file was evicted from the page cache before "
			       "every pass (%lld of %lld pages resident at the start), so the faults read the disk",
			       (long long)m->resident, pages);
	else
		wtg_table_note(ctx->t,
			       "warm-up: one unreported mmap pass before measuring (%lld major faults); then %lld "
			       "of %lld pages were resident%s",
			       (long long)m->warm.sum_pr.majflt, (long long)m->resident, pages,
			       lz->sum_pr.majflt > 0 ? "; major faults in the summing pass: part of the file was "
						       "not in the page cache" : "");
	if (wtg_uncached_requested())
		wtg_table_note(ctx->t, "the uncached condition does not apply here: a mapping always reads "
				       "through the page cache");
}

static int mmap_run(struct wtg_ctx *ctx)
{
	wtg_experiment_columns(&wtg_exp_mmap, ctx->t);
	const struct wtg_datafile *df = ctx->df;
	struct mm_result *m = calloc(1, sizeof *m);
	if (!m) {
		wtg_table_fail(ctx->t, "out of memory");
		return WTG_ERR;
	}
	m->page = wtg_page_size();
	m->pages = wtg_pages_of(df->size, m->page);
	m->reps = mm_reps(ctx->opt);
	int fd = open(df->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(m);
		wtg_table_fail(ctx->t, "cannot open the data file '%s'", df->path);
		return WTG_ERR;
	}
	int rc = mm_measure(ctx, fd, df->size, m);
	close(fd);
	if (rc == WTG_OK) {
		mm_rows(ctx, df->size, m);
		mm_notes(ctx, m);
	}
	free(m);
	return rc;
}

/* --dry-run: the three cases over the whole file, mm_reps() repetitions each; the time scales
 * with the file's size against the default one. */
static void mmap_plan(struct wtg_plan *p)
{
	static const char *const names[] = { "case", "pages", "page_size", "reps" };
	const long page = wtg_page_size();
	wtg_plan_columns(p, names, 4);
	for (int c = 0; c < MM_NCASES; c++) {
		const struct wtg_value row[] = { WTG_TEXT(mm_case[c]), WTG_INT(wtg_pages_of(p->file_size, page)),
						 WTG_INT(page), WTG_INT(mm_reps(p->opt)) };
		wtg_plan_row(p, row);
	}
	p->samples = mm_reps(p->opt);
	p->work = (double)p->file_size;
	p->ref_work = (double)(p->opt->quick ? WTG_QUICK_SIZE : WTG_DEFAULT_SIZE);
	snprintf(p->how, sizeof p->how, "typical time x the file's size / the default size");
}

/* "faults != pages: one fault maps 242 pages" (not prefaulted). */
static int mmap_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	double fpp = wtg_verdict_value(t, "case", "not prefaulted", "faults_per_page");
	if (isfinite(fpp) && fpp > 0 && fpp < 0.5)
		return wtg_verdict_fmt(buf, len, true, "faults != pages: one fault maps %.0f pages", 1 / fpp);
	return wtg_verdict_fmt(buf, len, isfinite(fpp), "%.2f faults per page mapped", fpp);
}

/* The essay counted a fault a page; fault-around maps many pages a fault. */
static const char *mmap_cannot(const struct wtg_table *t)
{
	double fpp = wtg_verdict_value(t, "case", "not prefaulted", "faults_per_page");
	return isfinite(fpp) && fpp < 0.5 ? "fault-around maps many pages per fault" : NULL;
}

const struct wtg_experiment wtg_exp_mmap = {
	.name = "mmap",
	.question = "What does mapping a file cost?",
	.runs = "mmap + sum, not prefaulted vs prefaulted; minor/major faults, faults per page, ns per fault",
	.needs_datafile = true,
	.not_alternating = "measures repetitions, each mapping the file twice and keeping the difference, "
			   "not rounds of both arms",
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_COUNTERS,
	.counters = { .by_difference = true },
	.bars = { .label = { "case" }, .value = "faults_per_page", .extra = "ns_per_fault",
		  .caption = "faults per page mapped: below 1, one fault maps many pages; every counter in the table" },
	.headline = { { "ns per file fault, not prefaulted", "case", "not prefaulted", "ns_per_fault",
			"ns_per_fault_ci_low", "ns_per_fault_ci_high", "ns per fault", "ns", false, .difference = true } },
	.typical_s = 1,
	.typical_quick_s = 1,
	.verdict = mmap_verdict,
	.essay = { "65,536 faults for 65,536 pages: a fault a page, about 580 ns each", mmap_cannot, .value = 580,
		   .why = wtg_why_mmap },
	.terms = WTG_TERMS("mmap", "prefault", "page", "minflt", "majflt", "faultaround"),
	.measures_cold = true,
	.run = mmap_run,
	.plan = mmap_plan,
};
