/* faultbase.c: Where does a lone fault come from?
 *
 * Three real child processes are the controls, each wtg itself started with a hidden mode:
 * "exit" returns at once, "map" maps the data file and never touches it, "sum" maps it and sums it.
 * The faults of each come from wait4()'s rusage, so they cover the whole child: exec, the dynamic
 * loader, startup, the experiment's own work and exit. Differences between the controls localize
 * the faults: map minus exit is what mapping costs without touching, sum minus map is the data.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "pages.h"
#include "wtg/ctx.h"
#include "wtg/faultbase.h"
#include "wtg/plan.h"

extern char **environ;

#define FB_REPS 5		/* odd, so every median is one of the runs */
#define FB_QUICK_REPS 3
#define FB_OUT 128

enum { FB_EXIT = 0, FB_MAP, FB_SUM, FB_NCASES };

static const char *const fb_mode[FB_NCASES] = { "exit", "map", "sum" };
static const char *const fb_label[FB_NCASES] = { "exit only", "map, never touch", "map and sum" };

/* ---- the child side: wtg --child=MODE FILE ---- */

static int child_fail(const char *mode, const char *what, const char *path)
{
	wtg_error("--child=%s: %s '%s': %s", mode, what, path, strerror(errno));
	return 1;
}

int wtg_faultbase_child(const char *mode, const char *path)
{
	if (strcmp(mode, "exit") == 0)
		return 0;
	bool sum = strcmp(mode, "sum") == 0;
	if (!sum && strcmp(mode, "map") != 0) {
		wtg_error("--child: unknown mode '%s' (exit, map or sum)", mode);
		return 2;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return child_fail(mode, "cannot open", path);
	struct stat st;
	if (fstat(fd, &st) < 0 || st.st_size <= 0) {
		close(fd);
		wtg_error("--child=%s: '%s' is not a non-empty file", mode, path);
		return 1;
	}
	size_t size = (size_t)st.st_size;
	unsigned char *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return child_fail(mode, "cannot map", path);
	if (!sum)
		return 0;	/* mapped, never touched; exit unmaps it */
	/* the file may shrink under the mapping: say so instead of dying of SIGBUS */
	int64_t s = 0;
	wtg_guard_install();	/* sigaction with a valid handler for SIGBUS cannot fail */
	if (wtg_guard_sum(p, size, &s) < 0) {
		fprintf(stderr, "wtg: --child=%s: '%s': %s\n", mode, path, WTG_GUARD_SHRANK);
		return 1;
	}
	/* formatted on the stack and written raw: stdio would allocate, and those faults would be
	 * charged to "sum" but not to "map" */
	char out[32];
	int n = snprintf(out, sizeof out, "%" PRId64 "\n", s);
	if (n <= 0 || write(STDOUT_FILENO, out, (size_t)n) != n)
		return 1;
	return 0;
}

/* ---- the parent side ---- */

struct fb_run {
	struct rusage ru;
	double ms;
	int status;
	char out[FB_OUT];
};

/* Start wtg --child=MODE FILE with stdout on a pipe, collect its output, reap it with wait4.
 * Returns 0, or -1 with a message in the table. */
static int fb_spawn(struct wtg_ctx *ctx, int mode, struct fb_run *r)
{
	memset(r, 0, sizeof *r);
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		wtg_table_fail(ctx->t, "pipe: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	char arg[32];
	snprintf(arg, sizeof arg, "--child=%s", fb_mode[mode]);
	char name[] = "wtg";
	char *argv[] = { name, arg, ctx->df->path, NULL };
	const char *exe = ctx->argv0 ? ctx->argv0 : "/proc/self/exe";
	pid_t pid;
	int64_t t0 = wtg_now_ns();
	int rc = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (rc != 0) {
		close(pfd[0]);
		wtg_table_fail(ctx->t, "cannot start the %s control (%s): %s", fb_mode[mode], exe,
			       strerror(rc));
		return -1;
	}
	size_t got = 0;
	for (;;) {
		char tmp[256];
		ssize_t n = read(pfd[0], tmp, sizeof tmp);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		size_t take = (size_t)n < FB_OUT - 1 - got ? (size_t)n : FB_OUT - 1 - got;
		memcpy(r->out + got, tmp, take);
		got += take;
	}
	r->out[got] = '\0';
	close(pfd[0]);
	pid_t w;
	do
		w = wait4(pid, &r->status, 0, &r->ru);
	while (w < 0 && errno == EINTR);
	r->ms = (double)(wtg_now_ns() - t0) / 1e6;
	if (w < 0) {
		wtg_table_fail(ctx->t, "wait4 for the %s control: %s", fb_mode[mode], strerror(errno));
		return -1;
	}
	return 0;
}

static double tv_ms(struct timeval tv)
{
	return (double)tv.tv_sec * 1e3 + (double)tv.tv_usec / 1e3;
}

/* The child's rusage as a probe record, so the row's wall/user/sys and faults are the child's. */
static void fb_probe(const struct fb_run *r, struct wtg_probe_result *pr)
{
	memset(pr, 0, sizeof *pr);
	pr->wall_ms = r->ms;
	pr->user_ms = tv_ms(r->ru.ru_utime);
	pr->sys_ms = tv_ms(r->ru.ru_stime);
	pr->minflt = r->ru.ru_minflt;
	pr->majflt = r->ru.ru_majflt;
	pr->vcsw = r->ru.ru_nvcsw;
	pr->ivcsw = r->ru.ru_nivcsw;
	pr->migrations = -1;
	pr->instructions = -1;
	pr->cycles = -1;
	pr->threads = 1;
}

static double fb_median(double *v, int n)
{
	return wtg_quantile(v, (size_t)n, 0.5);
}

struct fb_case {
	double minflt, majflt, ms;	/* medians over the runs */
	int64_t minflt_lo, minflt_hi;
	int rep;			/* the run with the median minflt: its rusage goes with the row */
};

static void fb_summarize(const struct fb_run *runs, int n, struct fb_case *c)
{
	double mi[FB_REPS], ma[FB_REPS], ms[FB_REPS];
	c->minflt_lo = INT64_MAX;
	c->minflt_hi = INT64_MIN;
	for (int i = 0; i < n; i++) {
		mi[i] = (double)runs[i].ru.ru_minflt;
		ma[i] = (double)runs[i].ru.ru_majflt;
		ms[i] = runs[i].ms;
		if (runs[i].ru.ru_minflt < c->minflt_lo)
			c->minflt_lo = runs[i].ru.ru_minflt;
		if (runs[i].ru.ru_minflt > c->minflt_hi)
			c->minflt_hi = runs[i].ru.ru_minflt;
	}
	c->minflt = fb_median(mi, n);
	c->majflt = fb_median(ma, n);
	c->ms = fb_median(ms, n);
	c->rep = 0;
	for (int i = 0; i < n; i++)
		if ((double)runs[i].ru.ru_minflt == c->minflt)
			c->rep = i;
}

static void fb_row(struct wtg_ctx *ctx, const char *label, double minflt, double majflt, double ms,
		   int64_t pages, bool per_page, int runs, int64_t lo, int64_t hi,
		   const struct wtg_probe_result *pr)
{
	const struct wtg_value v[] = {
		WTG_TEXT(label),
		WTG_INT(llround(minflt)),
		WTG_INT(llround(majflt)),
		WTG_REAL(ms),
		WTG_INT(pages),
		per_page ? WTG_REAL(minflt / (double)pages) : WTG_NA,
		runs > 0 ? WTG_INT(runs) : WTG_NA,
		runs > 0 ? WTG_INT(lo) : WTG_NA,
		runs > 0 ? WTG_INT(hi) : WTG_NA,
	};
	wtg_table_add_row(ctx->t, v, (int)WTG_ARRAY_LEN(v), pr);
}

extern const struct wtg_experiment wtg_exp_faultbase;

static const struct wtg_column cols[] = {
	{ "case", "", WTG_T_TEXT, 0 },
	{ "minflt", "count", WTG_T_INT, 0 },
	{ "majflt", "count", WTG_T_INT, 0 },
	{ "ms", "ms", WTG_T_REAL, 2 },
	{ "pages", "count", WTG_T_INT, 0 },
	{ "faults_per_page", "", WTG_T_REAL, 4 },
	{ "runs", "count", WTG_T_INT, 0 },
	{ "minflt_min", "count", WTG_T_INT, 0 },
	{ "minflt_max", "count", WTG_T_INT, 0 },
};

/* Runs of each control. */
static int fb_reps(const struct wtg_options *o)
{
	return o && o->quick ? FB_QUICK_REPS : FB_REPS;
}

static int faultbase_run(struct wtg_ctx *ctx)
{
	wtg_experiment_columns(&wtg_exp_faultbase, ctx->t);
	const struct wtg_datafile *df = ctx->df;
	int64_t pages = wtg_pages_of(df->size, wtg_page_size());
	int reps = fb_reps(ctx->opt);
	struct fb_run runs[FB_NCASES][FB_REPS];
	int order[FB_NCASES] = { FB_EXIT, FB_MAP, FB_SUM };
	int step = 0, nsteps = reps * FB_NCASES;
	bool exited_ok = true, sums_ok = true;
	int64_t printed = -1;
	char bad[160] = "";
	for (int rep = 0; rep < reps; rep++) {
		wtg_shuffle_int(&ctx->rng, order, FB_NCASES);
		for (int k = 0; k < FB_NCASES; k++) {
			int c = order[k];
			char label[48];
			snprintf(label, sizeof label, "%s control, run %d", fb_mode[c], rep + 1);
			wtg_ctx_progress(ctx, step++, nsteps, label);
			if (wtg_ctx_cancelled(ctx))
				return WTG_CANCELLED;
			struct fb_run *r = &runs[c][rep];
			if (fb_spawn(ctx, c, r) < 0)
				return WTG_ERR;
			if (!WIFEXITED(r->status) || WEXITSTATUS(r->status) != 0) {
				exited_ok = false;
				snprintf(bad, sizeof bad, "the %s control ended with status 0x%x", fb_mode[c],
					 (unsigned)r->status);
			} else if (c == FB_SUM) {
				char *end;
				errno = 0;
				long long got = strtoll(r->out, &end, 10);
				printed = errno || end == r->out ? -1 : (int64_t)got;
				if (errno || end == r->out || *end != '\n' || got != df->sum) {
					sums_ok = false;
					wtg_check_sum(ctx, label, errno || end == r->out ? -1 : (int64_t)got,
						      df->sum);
				}
			}
		}
	}
	wtg_ctx_progress(ctx, nsteps, nsteps, "done");
	wtg_table_check(ctx->t, "children", exited_ok, "%s",
			exited_ok ? "every control exited with status 0" : bad);
	if (!exited_ok)
		wtg_table_fail(ctx->t, "%s", bad);
	if (sums_ok) {
		char what[64];
		snprintf(what, sizeof what, "%d sum controls (printed on their stdout)", reps);
		wtg_check_sum(ctx, what, printed, df->sum);
	}
	if (!exited_ok || !sums_ok)
		return WTG_ERR;

	struct fb_case cs[FB_NCASES];
	for (int c = 0; c < FB_NCASES; c++) {
		fb_summarize(runs[c], reps, &cs[c]);
		struct wtg_probe_result pr;
		fb_probe(&runs[c][cs[c].rep], &pr);
		fb_row(ctx, fb_label[c], cs[c].minflt, cs[c].majflt, cs[c].ms, c == FB_EXIT ? 0 : pages,
		       false, reps, cs[c].minflt_lo, cs[c].minflt_hi, &pr);
	}
	fb_row(ctx, "map - exit", cs[FB_MAP].minflt - cs[FB_EXIT].minflt,
	       cs[FB_MAP].majflt - cs[FB_EXIT].majflt, cs[FB_MAP].ms - cs[FB_EXIT].ms, pages, false, 0, 0, 0,
	       NULL);
	fb_row(ctx, "sum - map", cs[FB_SUM].minflt - cs[FB_MAP].minflt, cs[FB_SUM].majflt - cs[FB_MAP].majflt,
	       cs[FB_SUM].ms - cs[FB_MAP].ms, pages, true, 0, 0, 0, NULL);

	wtg_table_note(
		ctx->t,
		"each control ran %d times (wtg --child=MODE FILE via posix_spawn, the three in seeded "
		"random order per round); minflt, majflt and ms are medians; faults from wait4()'s rusage",
		reps);
	wtg_table_note(ctx->t,
		       "a bare start and exit of wtg costs %.0f minor and %.0f major faults: every program "
		       "pays these before it touches any data",
		       cs[FB_EXIT].minflt, cs[FB_EXIT].majflt);
	wtg_table_note(
		ctx->t,
		"mapping without touching changes the count by %+.0f; summing the %lld pages adds %.0f "
		"(%.4f per page: one fault can map many pages)",
		cs[FB_MAP].minflt - cs[FB_EXIT].minflt, (long long)pages,
		cs[FB_SUM].minflt - cs[FB_MAP].minflt,
		(cs[FB_SUM].minflt - cs[FB_MAP].minflt) / (double)pages);
	if (cs[FB_EXIT].majflt > 0)
		wtg_table_note(ctx->t,
			       "the exit-only control already has major faults: they come from starting the "
			       "program, not from the data file");
	return WTG_OK;
}

/* --dry-run: the three controls, fb_reps() runs each of a child over the whole file. */
static void faultbase_plan(struct wtg_plan *p)
{
	static const char *const names[] = { "case", "pages", "runs" };
	const int64_t pages = wtg_pages_of(p->file_size, wtg_page_size());
	wtg_plan_columns(p, names, 3);
	for (int c = 0; c < FB_NCASES; c++) {
		const struct wtg_value row[] = { WTG_TEXT(fb_label[c]), WTG_INT(c == FB_EXIT ? 0 : pages),
						 WTG_INT(fb_reps(p->opt)) };
		wtg_plan_row(p, row);
	}
	p->samples = fb_reps(p->opt);
}

/* "a bare exit = 90 faults; summing adds 0.06 a page". */
static int faultbase_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	double bare = wtg_verdict_value(t, "case", "exit only", "minflt");
	double fpp = wtg_verdict_value(t, "case", "sum - map", "faults_per_page");
	if (!isfinite(fpp))
		return wtg_verdict_fmt(buf, len, isfinite(bare), "a bare start and exit = %.0f faults", bare);
	return wtg_verdict_fmt(buf, len, isfinite(bare), "a bare exit = %.0f faults; summing adds %.3g a page", bare,
			       fpp);
}

const struct wtg_experiment wtg_exp_faultbase = {
	.name = "faultbase",
	.question = "Where does a lone fault come from?",
	.runs = "child processes as controls: exit only, map without touching, map and sum",
	.needs_datafile = true,
	.not_cold = "the first of its sums reads it back",
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_COUNTERS,
	.typical_s = 1,
	.typical_quick_s = 1,
	.verdict = faultbase_verdict,
	.essay = { "a warm run's one hard fault came with startup: a bare \"hello\" had it too (memory "
		   "pressure explained another run's 24,120)", NULL },
	.terms = WTG_TERMS("majflt", "minflt", "mmap", "pagecache", "coldwarm"),
	.run = faultbase_run,
	.plan = faultbase_plan,
};
