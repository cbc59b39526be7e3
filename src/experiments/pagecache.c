/* pagecache.c: Disk or RAM?
 *
 * The file's pages are dropped from the page cache with posix_fadvise(POSIX_FADV_DONTNEED) (no root
 * needed; clean pages only, which is why the data file is fsynced when created), then the file is
 * summed cold and again warm. Residency is counted with mincore before and after, so "cold" is
 * verified, not assumed. Two methods: buffered read() with a 1 MiB buffer, where the kernel's
 * readahead fills the cache and the process takes no major faults (the evidence of cold is time and
 * residency), and mmap, where the process takes the faults itself: a fault that has to start the
 * read is major, one that finds the page already coming in through readahead is minor.
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

#define PC_BUF (1u << 20)
#define PC_EVICTED_FRACTION 0.10	/* eviction "worked" when at most this share stays resident */

enum pc_method { PC_READ = 0, PC_MMAP = 1 };

static const char *const pc_method_name[] = { "read 1 MiB", "mmap" };

struct pc_state {
	struct wtg_ctx *ctx;
	int64_t pages;		/* the file's pages */
	int step, nsteps;
	int64_t evicted_left[2];	/* resident pages right after each eviction */
	int64_t before_evict[2];
	int64_t after_cold[2];
	int64_t cold_majflt[2];
	unsigned char *buf;	/* the read buffer, touched before any pass so no pass pays its faults */
};

static void pc_row(struct pc_state *st, const char *pass, const char *method,
		   const struct wtg_probe_result *pr, int64_t bytes, int64_t res_before, int64_t res_after,
		   double ratio, int64_t sum)
{
	double gbps = bytes > 0 && pr->wall_ms > 0 ? (double)bytes / (pr->wall_ms * 1e6) : NAN;
	const struct wtg_value v[] = {
		WTG_TEXT(pass),
		WTG_REAL(pr->wall_ms),
		isnan(gbps) ? WTG_NA : WTG_REAL(gbps),
		WTG_INT(pr->minflt),
		WTG_INT(pr->majflt),
		res_before < 0 ? WTG_NA : WTG_INT(res_before),
		res_after < 0 ? WTG_NA : WTG_INT(res_after),
		WTG_INT(st->pages),
		WTG_TEXT(method),
		bytes > 0 ? WTG_INT(bytes) : WTG_NA,
		isnan(ratio) ? WTG_NA : WTG_REAL(ratio),
		sum < 0 ? WTG_NA : WTG_INT(sum),
	};
	wtg_table_add_row(st->ctx->t, v, (int)WTG_ARRAY_LEN(v), pr);
}

/* Drop the file from the page cache and record the residency on both sides as an "evict" row. */
static int pc_evict(struct pc_state *st, int m)
{
	const struct wtg_datafile *df = st->ctx->df;
	char label[48];
	snprintf(label, sizeof label, "evict (before %s)", pc_method_name[m]);
	wtg_ctx_progress(st->ctx, st->step++, st->nsteps, label);
	int64_t before = wtg_datafile_resident_pages(df);
	struct wtg_probe pb;
	struct wtg_probe_result pr;
	wtg_probe_begin(&pb);
	int rc = wtg_datafile_evict(df);
	wtg_probe_end(&pb, &pr);
	int64_t after = wtg_datafile_resident_pages(df);
	if (rc < 0) {
		wtg_table_fail(st->ctx->t, "posix_fadvise(POSIX_FADV_DONTNEED) on the data file failed");
		return -1;
	}
	pc_row(st, "evict", "fadvise DONTNEED", &pr, 0, before, after, NAN, -1);
	st->before_evict[m] = before;
	st->evicted_left[m] = after;
	return 0;
}

/* Sum the whole file with buffered reads, in 8 MiB segments so a cold pass notices cancel within tens
 * of ms. Returns 0, 1 (cancelled) or -1 (failed). */
static int pc_read_pass(struct pc_state *st, struct wtg_probe_result *pr, int64_t *sum)
{
	int fd = open(st->ctx->df->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int64_t bytes, calls;
	struct wtg_probe pb;
	wtg_probe_begin(&pb);
	int rc = wtg_read_sum_long(st->ctx, fd, st->buf, PC_BUF, 0, sum, &bytes, &calls);
	wtg_probe_end(&pb, pr);
	close(fd);
	return rc;
}

/* Map the file and sum it; the mapping is made and removed inside the probe. Returns 0, 1 (cancelled),
 * -1 (open or mmap failed) or -2 (the file shrank under the mapping: the table has failed). */
static int pc_mmap_pass(struct pc_state *st, struct wtg_probe_result *pr, int64_t *sum)
{
	const struct wtg_datafile *df = st->ctx->df;
	int fd = open(df->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct wtg_probe pb;
	int rc = -1;
	wtg_probe_begin(&pb);
	unsigned char *p = mmap(NULL, df->size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p != MAP_FAILED) {
		rc = wtg_sum_mapped(st->ctx, p, df->size, sum);
		if (rc < 0)
			rc = -2;
		munmap(p, df->size);
	}
	wtg_probe_end(&pb, pr);
	close(fd);
	return rc;
}

/* A cold or warm pass with the given method; adds its row. The warm row carries the ratio of the
 * cold pass's time (cold_ms) to its own. Returns WTG_OK, WTG_CANCELLED or WTG_ERR. */
static int pc_pass(struct pc_state *st, int m, bool cold, double cold_ms, double *ms)
{
	struct wtg_ctx *ctx = st->ctx;
	char label[48];
	snprintf(label, sizeof label, "%s pass (%s)", cold ? "cold" : "warm", pc_method_name[m]);
	wtg_ctx_progress(ctx, st->step++, st->nsteps, label);
	int64_t before = wtg_datafile_resident_pages(ctx->df);
	struct wtg_probe_result pr;
	int64_t sum = 0;
	int rc = m == PC_READ ? pc_read_pass(st, &pr, &sum) : pc_mmap_pass(st, &pr, &sum);
	if (rc == 1)
		return WTG_CANCELLED;
	if (rc == -2)
		return WTG_ERR;
	if (rc < 0) {
		wtg_table_fail(ctx->t, "%s: reading the data file failed", label);
		return WTG_ERR;
	}
	int64_t after = wtg_datafile_resident_pages(ctx->df);
	if (cold)
		st->after_cold[m] = after;
	*ms = pr.wall_ms;
	pc_row(st, cold ? "cold" : "warm", pc_method_name[m], &pr, (int64_t)ctx->df->size, before, after,
	       cold ? NAN : cold_ms / pr.wall_ms, sum);
	if (cold)
		st->cold_majflt[m] = pr.majflt;
	return wtg_check_sum(ctx, label, sum, ctx->df->sum) ? WTG_OK : WTG_ERR;
}

static int run_pagecache(struct wtg_ctx *ctx)
{
	const struct wtg_column cols[] = {
		{ "pass", "", WTG_T_TEXT, 0 },
		{ "ms", "ms", WTG_T_REAL, 2 },
		{ "gbps", "GB/s", WTG_T_REAL, 2 },
		{ "minflt", "count", WTG_T_INT, 0 },
		{ "majflt", "count", WTG_T_INT, 0 },
		{ "resident_before", "count", WTG_T_INT, 0 },
		{ "resident_after", "count", WTG_T_INT, 0 },
		{ "pages", "count", WTG_T_INT, 0 },
		{ "method", "", WTG_T_TEXT, 0 },
		{ "bytes", "B", WTG_T_INT, 0 },
		{ "cold_warm_ratio", "", WTG_T_REAL, 2 },
		{ "sum", "", WTG_T_INT, 0 },
	};
	wtg_table_set_columns(ctx->t, cols, (int)WTG_ARRAY_LEN(cols));
	const struct wtg_datafile *df = ctx->df;
	long page = wtg_page_size();
	struct pc_state st = {
		.ctx = ctx,
		.pages = wtg_pages_of(df->size, page),
		.nsteps = 6,
	};
	st.buf = malloc(PC_BUF);
	if (!st.buf) {
		wtg_table_fail(ctx->t, "out of memory for a 1 MiB buffer");
		return WTG_ERR;
	}
	memset(st.buf, 1, PC_BUF); /* not 0: malloc + memset 0 may become calloc, which touches nothing */
	double cold[2], warm[2];
	for (int m = PC_READ; m <= PC_MMAP; m++) {
		int rc = pc_evict(&st, m) < 0 ? WTG_ERR : WTG_OK;
		if (rc == WTG_OK)
			rc = pc_pass(&st, m, true, 0, &cold[m]);
		if (rc == WTG_OK)
			rc = pc_pass(&st, m, false, cold[m], &warm[m]);
		if (rc != WTG_OK) {
			free(st.buf);
			return rc;
		}
	}
	free(st.buf);
	wtg_ctx_progress(ctx, st.nsteps, st.nsteps, "done");

	bool worked = true;
	for (int m = PC_READ; m <= PC_MMAP; m++) {
		int64_t left = st.evicted_left[m];
		if (left < 0 || (double)left > PC_EVICTED_FRACTION * (double)st.pages)
			worked = false;
	}
	wtg_table_note(ctx->t, "cold/warm: %.2fx with read (1 MiB buffer), %.2fx with mmap",
		       cold[PC_READ] / warm[PC_READ], cold[PC_MMAP] / warm[PC_MMAP]);
	wtg_table_note(ctx->t,
		       "resident pages of %lld (%ld B each), read method: %lld before eviction, %lld after "
		       "eviction, %lld after the cold pass; mmap method: %lld, %lld, %lld",
		       (long long)st.pages, page, (long long)st.before_evict[PC_READ],
		       (long long)st.evicted_left[PC_READ], (long long)st.after_cold[PC_READ],
		       (long long)st.before_evict[PC_MMAP], (long long)st.evicted_left[PC_MMAP],
		       (long long)st.after_cold[PC_MMAP]);
	if (worked)
		wtg_table_note(ctx->t,
			       "eviction worked: at most %lld of %lld pages stayed resident after "
			       "POSIX_FADV_DONTNEED, so the cold passes went to the block device (which may "
			       "cache on its own, e.g. a virtual disk's host)",
			       (long long)(st.evicted_left[PC_READ] > st.evicted_left[PC_MMAP]
						   ? st.evicted_left[PC_READ]
						   : st.evicted_left[PC_MMAP]),
			       (long long)st.pages);
	else
		wtg_table_note(ctx->t,
			       "eviction did NOT work here (%lld and %lld of %lld pages still resident after "
			       "POSIX_FADV_DONTNEED%s): the cold passes are not cold",
			       (long long)st.evicted_left[PC_READ], (long long)st.evicted_left[PC_MMAP],
			       (long long)st.pages,
			       wtg_datafile_in_memory(df)
				       ? "; on tmpfs the page cache is where the file lives"
				       : "");
	wtg_table_note(
		ctx->t,
		"major faults in the cold passes: read %lld (readahead fills the cache inside read(), "
		"so the evidence of cold is time and residency); mmap %lld (a fault is major only when "
		"it has to start the read itself: readahead makes the rest minor)",
		(long long)st.cold_majflt[PC_READ], (long long)st.cold_majflt[PC_MMAP]);
	if (wtg_uncached_requested())
		wtg_table_note(
			ctx->t,
			"the uncached condition does not apply here: this experiment is about the page "
			"cache, so its passes are always buffered");
	return WTG_OK;
}

const struct wtg_experiment wtg_exp_pagecache = {
	.name = "pagecache",
	.question = "Disk or RAM?",
	.runs = "evict (posix_fadvise DONTNEED), a cold pass, then a warm pass; time, GB/s, major faults",
	.view = WTG_VIEW_COUNTERS,
	.needs_datafile = true,
	.run = run_pagecache,
};
