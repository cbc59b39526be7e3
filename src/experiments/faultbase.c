/* faultbase.c: Where does a lone fault come from?
 *
 * Three real child processes are the controls, each wtg itself started with a hidden mode:
 * "exit" returns at once, "map" maps the data file and never touches it, "sum" maps it and sums it.
 * The faults of each come from wait4()'s rusage, so they cover the whole child: exec, the dynamic
 * loader, startup, the experiment's own work and exit. Differences between the controls localize
 * the faults: map minus exit is what mapping costs without touching, sum minus map is the data.
 * Then each control runs once more, forked and held before its exec while perf_event_open samples
 * every one of its minor and major faults with the faulting address (wtg/faulttrace.h): each fault
 * is charged to the mapping it fell in, a table per control and their differences by mapping.
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
#include "wtg/faulttrace.h"
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

/* Read a child's stdout to its end (it writes a line at most) and close it. */
static void fb_collect(int fd, struct fb_run *r)
{
	size_t got = 0;
	for (;;) {
		char tmp[256];
		ssize_t n = read(fd, tmp, sizeof tmp);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		size_t take = (size_t)n < FB_OUT - 1 - got ? (size_t)n : FB_OUT - 1 - got;
		memcpy(r->out + got, tmp, take);
		got += take;
	}
	r->out[got] = '\0';
	close(fd);
}

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
	fb_collect(pfd[0], r);
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
	double ci[2];			/* minflt's median: its bootstrap interval over the runs */
	int rep;			/* the run with the median minflt: its rusage goes with the row */
};

static void fb_summarize(const struct fb_run *runs, int n, uint64_t seed, struct fb_case *c)
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
	if (wtg_bootstrap_median_ci(mi, (size_t)n, WTG_BOOTSTRAP_RESAMPLES, WTG_BOOTSTRAP_CONF, seed, &c->ci[0],
				    &c->ci[1]) < 0)
		c->ci[0] = c->ci[1] = NAN;
	c->majflt = fb_median(ma, n);
	c->ms = fb_median(ms, n);
	c->rep = 0;
	for (int i = 0; i < n; i++)
		if ((double)runs[i].ru.ru_minflt == c->minflt)
			c->rep = i;
}

static void fb_row(struct wtg_ctx *ctx, const char *label, double minflt, double majflt, double ms,
		   int64_t pages, bool per_page, int runs, int64_t lo, int64_t hi, const double *ci,
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
		ci && isfinite(ci[0]) ? WTG_REAL(ci[0]) : WTG_NA,
		ci && isfinite(ci[1]) ? WTG_REAL(ci[1]) : WTG_NA,
		WTG_NA,
		WTG_NA,
		WTG_NA,
	};
	wtg_table_add_row(ctx->t, v, (int)WTG_ARRAY_LEN(v), pr);
}

/* ---- the traced runs: every fault charged to its mapping ---- */

#define FB_BUCKETS 40

struct fb_bucket {
	char name[64];
	int64_t minor, major;
	int64_t major_off;	/* the first major fault's page offset in its file */
	bool major_startup;	/* it came before wtg's own code first faulted */
};

/* Faults by mapping, the largest first once sorted. */
struct fb_set {
	struct fb_bucket b[FB_BUCKETS];
	int n;
};

struct fb_trace {
	struct fb_set map;			/* by the faulting address's mapping */
	struct fb_set ip;			/* by the faulting instruction's */
	int64_t minor, major;			/* sampled */
	int64_t count_min, count_maj;		/* the counters' */
	int64_t lost, throttled;
	int64_t ru_min, ru_maj;			/* the traced run's rusage */
	bool exclude_kernel;
};

/* One traced run of a control: forked, held before its exec until the fault events are open on it,
 * released, its ring buffer drained while it runs. Returns 0 (ft->ok false when the events could
 * not be opened: the run is still made), 1 when no child could be forked (ft->why says so), or -1
 * with a message in the table. */
static int fb_traced(struct wtg_ctx *ctx, int mode, struct fb_run *r, struct wtg_ftrace *ft, size_t expect)
{
	memset(r, 0, sizeof *r);
	memset(ft, 0, sizeof *ft);
	ft->fd_min = ft->fd_maj = -1;
	int go[2], out[2];
	if (pipe2(go, O_CLOEXEC) < 0) {
		wtg_table_fail(ctx->t, "pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe2(out, O_CLOEXEC) < 0) {
		wtg_table_fail(ctx->t, "pipe: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		return -1;
	}
	char arg[32];
	snprintf(arg, sizeof arg, "--child=%s", fb_mode[mode]);
	char name[] = "wtg";
	char *argv[] = { name, arg, ctx->df->path, NULL };
	const char *exe = ctx->argv0 ? ctx->argv0 : "/proc/self/exe";
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	pid_t pid = fork();
	if (pid == 0) {
		/* async-signal-safe calls only: the parent has other threads */
		char c;
		ssize_t n;
		close(go[1]);
		do
			n = read(go[0], &c, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1 || dup2(out[1], STDOUT_FILENO) < 0 || (devnull >= 0 && dup2(devnull, STDIN_FILENO) < 0))
			_exit(127);
		execve(exe, argv, environ);
		_exit(127);
	}
	int err = errno;
	close(go[0]);
	close(out[1]);
	if (devnull >= 0)
		close(devnull);
	if (pid < 0) {
		/* the untraced runs stand: the trace is missing, and says why */
		close(go[1]);
		close(out[0]);
		snprintf(ft->why, sizeof ft->why, "no fault trace: cannot fork the traced %s control: %s",
			 fb_mode[mode], strerror(err));
		return 1;
	}
	wtg_ftrace_open(ft, pid, expect);
	int64_t t0 = wtg_now_ns();
	ssize_t w1 = write(go[1], "g", 1);
	close(go[1]);
	pid_t w;
	for (;;) {
		w = wait4(pid, &r->status, ft->ok && w1 == 1 ? WNOHANG : 0, &r->ru);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		wtg_ftrace_drain(ft, 2);
	}
	r->ms = (double)(wtg_now_ns() - t0) / 1e6;
	fb_collect(out[0], r);
	wtg_ftrace_finish(ft);
	if (w < 0) {
		wtg_table_fail(ctx->t, "wait4 for the traced %s control: %s", fb_mode[mode], strerror(errno));
		return -1;
	}
	return 0;
}

static struct fb_bucket *fb_bucket_of(struct fb_set *set, const char *name)
{
	for (int i = 0; i < set->n; i++)
		if (strcmp(set->b[i].name, name) == 0)
			return &set->b[i];
	if (set->n == FB_BUCKETS)
		return &set->b[FB_BUCKETS - 1];	/* "other": the last slot is made for it */
	struct fb_bucket *b = &set->b[set->n++];
	memset(b, 0, sizeof *b);
	wtg_strlcpy(b->name, set->n == FB_BUCKETS ? "other" : name, sizeof b->name);
	b->major_off = -1;
	return b;
}

static int fb_bucket_cmp(const void *a, const void *b)
{
	const struct fb_bucket *x = a, *y = b;
	int64_t fx = x->minor + x->major, fy = y->minor + y->major;
	return fx != fy ? (fx < fy ? 1 : -1) : strcmp(x->name, y->name);
}

/* Charge every sampled fault to its mapping. A fault is "at startup" when it came before the first
 * fault whose instruction was in wtg's own text. */
static void fb_attribute(const struct wtg_ftrace *ft, const struct wtg_ftrace_names *nm, const struct fb_run *r,
			 struct fb_trace *tr)
{
	memset(tr, 0, sizeof *tr);
	tr->count_min = ft->count_min;
	tr->count_maj = ft->count_maj;
	tr->lost = ft->lost;
	tr->throttled = ft->throttled;
	tr->exclude_kernel = ft->exclude_kernel;
	tr->ru_min = r->ru.ru_minflt;
	tr->ru_maj = r->ru.ru_majflt;
	uint64_t own = UINT64_MAX;
	for (size_t i = 0; i < ft->nfaults; i++) {
		const struct wtg_ftrace_fault *f = &ft->faults[i];
		const struct wtg_ftrace_map *m = wtg_ftrace_find(ft, f->ip, f->time);
		if (m && (m->prot & PROT_EXEC) && m->ino == nm->exe_ino && m->dev_major == nm->exe_major &&
		    m->dev_minor == nm->exe_minor && f->time < own)
			own = f->time;
	}
	for (size_t i = 0; i < ft->nfaults; i++) {
		const struct wtg_ftrace_fault *f = &ft->faults[i];
		char buf[64];
		uint64_t off;
		struct fb_bucket *b = fb_bucket_of(&tr->map, wtg_ftrace_bucket(ft, nm, f, buf, sizeof buf, &off));
		/* the instruction's mapping: the same naming, its address the ip */
		struct wtg_ftrace_fault at_ip = *f;
		at_ip.addr = f->ip;
		uint64_t ipoff;
		fb_bucket_of(&tr->ip, wtg_ftrace_bucket(ft, nm, &at_ip, buf, sizeof buf, &ipoff))->minor++;
		if (!f->major) {
			b->minor++;
			tr->minor++;
			continue;
		}
		b->major++;
		tr->major++;
		if (b->major_off < 0) {
			b->major_off = (int64_t)off;
			b->major_startup = f->time < own;
		}
	}
	qsort(tr->map.b, (size_t)tr->map.n, sizeof tr->map.b[0], fb_bucket_cmp);
	qsort(tr->ip.b, (size_t)tr->ip.n, sizeof tr->ip.b[0], fb_bucket_cmp);
}

static void fb_trace_row(struct wtg_ctx *ctx, const char *label, const char *mapping, int64_t minor, int64_t major,
			 int64_t off, bool startup)
{
	char lab[64];	/* its own case, so that a control's row stays the only one of its name */
	snprintf(lab, sizeof lab, "%s, traced", label);
	const struct wtg_value v[] = {
		WTG_TEXT(lab), WTG_INT(minor), WTG_INT(major), WTG_NA, WTG_NA, WTG_NA, WTG_NA, WTG_NA, WTG_NA,
		WTG_NA, WTG_NA,	/* no interval: one traced run */
		WTG_TEXT(mapping),
		off >= 0 ? WTG_INT(off) : WTG_NA,
		off >= 0 ? WTG_TEXT(startup ? "at startup" : "after startup") : WTG_NA,
	};
	wtg_table_add_row(ctx->t, v, (int)WTG_ARRAY_LEN(v), NULL);
}

/* The mappings of a minus b, those that differ. */
static void fb_trace_diff(struct wtg_ctx *ctx, const char *label, const struct fb_set *a, const struct fb_set *b)
{
	for (int pass = 0; pass < 2; pass++) {
		const struct fb_set *x = pass ? b : a, *y = pass ? a : b;
		for (int i = 0; i < x->n; i++) {
			const struct fb_bucket *bx = &x->b[i];
			int64_t ymin = 0, ymaj = 0;
			bool both = false;
			for (int j = 0; j < y->n && !both; j++)
				if (strcmp(y->b[j].name, bx->name) == 0) {
					both = true;
					ymin = y->b[j].minor;
					ymaj = y->b[j].major;
				}
			if (pass && both)
				continue;	/* listed in the first pass */
			int64_t dmin = bx->minor - ymin, dmaj = bx->major - ymaj;
			if (pass) {
				dmin = -dmin;
				dmaj = -dmaj;
			}
			if (dmin || dmaj)
				fb_trace_row(ctx, label, bx->name, dmin, dmaj, -1, false);
		}
	}
}

/* "61% ld-linux-x86-64.so.2, 37% libc.so.6, 2% wtg text" (the four largest) of all faults. */
static void fb_set_words(char *buf, size_t len, const struct fb_set *set, int64_t all)
{
	int o = 0;
	buf[0] = '\0';
	for (int i = 0; i < set->n && i < 4 && all > 0 && o >= 0 && (size_t)o < len; i++)
		o += snprintf(buf + o, len - (size_t)o, "%s%.0f%% %s", i ? ", " : "",
			      100.0 * (double)(set->b[i].minor + set->b[i].major) / (double)all, set->b[i].name);
	if (set->n > 4 && o >= 0 && (size_t)o < len)
		snprintf(buf + o, len - (size_t)o, " and %d more", set->n - 4);
}

/* Whether the sampled faults add up to the counters' within 1% (and nothing was lost). */
static bool fb_trace_adds_up(const struct fb_trace *tr)
{
	int64_t sampled = tr->minor + tr->major, counted = tr->count_min + tr->count_maj;
	if (tr->count_min < 0 || tr->count_maj < 0)
		return false;
	return llabs(sampled - counted) * 100 <= counted && tr->lost == 0;
}

static void fb_trace_report(struct wtg_ctx *ctx, const struct fb_trace *tr, bool traced, const char *why)
{
	if (!traced) {
		wtg_table_note(ctx->t, "%s", why);
		return;
	}
	for (int c = 0; c < FB_NCASES; c++) {
		const struct fb_trace *t = &tr[c];
		for (int i = 0; i < t->map.n; i++) {
			const struct fb_bucket *b = &t->map.b[i];
			fb_trace_row(ctx, fb_label[c], b->name, b->minor, b->major, b->major ? b->major_off : -1,
				     b->major_startup);
		}
	}
	fb_trace_diff(ctx, "map - exit", &tr[FB_MAP].map, &tr[FB_EXIT].map);
	fb_trace_diff(ctx, "sum - map", &tr[FB_SUM].map, &tr[FB_MAP].map);
	for (int c = 0; c < FB_NCASES; c++) {
		const struct fb_trace *t = &tr[c];
		bool ok = fb_trace_adds_up(t);
		int64_t all = t->minor + t->major;
		char where[200], from[200];
		fb_set_words(where, sizeof where, &t->map, all);
		fb_set_words(from, sizeof from, &t->ip, all);
		wtg_table_check(ctx->t, "trace", ok,
				"%s: %lld minor + %lld major faults sampled in %d mappings, the counters %lld + %lld; "
				"%lld lost",
				fb_mode[c], (long long)t->minor, (long long)t->major, t->map.n, (long long)t->count_min,
				(long long)t->count_maj, (long long)t->lost);
		if (t->throttled)
			wtg_table_warn(ctx->t, "trace",
				       "%s: the kernel throttled the sampling %lld times "
				       "(kernel.perf_event_max_sample_rate): faults while throttled are neither "
				       "sampled nor counted", fb_mode[c], (long long)t->throttled);
		wtg_table_note(ctx->t,
			       "traced %s control: %lld faults at addresses in %s; by the faulting instruction: %s; "
			       "its rusage counted %lld minor and %lld major",
			       fb_mode[c], (long long)all, where, from, (long long)t->ru_min, (long long)t->ru_maj);
	}
	wtg_table_note(ctx->t,
		       "each control ran once more for the trace, forked and held before its exec: perf_event_open "
		       "sampled every minor and major fault from the exec on (period 1, address and instruction), "
		       "charged to the mapping that held the address%s; rusage also counts the forked child's "
		       "faults before its exec",
		       tr[FB_EXIT].exclude_kernel ? " (user mode only, as kernel.perf_event_paranoid allows: "
						    "faults the kernel takes on the program's memory inside a system "
						    "call are left out)"
						  : "");
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
	{ "minflt_ci_low", "count", WTG_T_REAL, 1 },	/* the median's bootstrap interval over the runs */
	{ "minflt_ci_high", "count", WTG_T_REAL, 1 },
	{ "mapping", "", WTG_T_TEXT, 0 },
	{ "major_offset", "B", WTG_T_INT, 0 },
	{ "major_when", "", WTG_T_TEXT, 0 },
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
	int step = 0, nsteps = (reps + 1) * FB_NCASES;
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
	/* one more run of each control, traced */
	struct wtg_ftrace_names nm;
	memset(&nm, 0, sizeof nm);
	wtg_ftrace_file_id(ctx->argv0 ? ctx->argv0 : "/proc/self/exe", &nm.exe_major, &nm.exe_minor, &nm.exe_ino);
	wtg_ftrace_file_id(df->path, &nm.data_major, &nm.data_minor, &nm.data_ino);
	struct fb_trace tr[FB_NCASES];
	bool traced = true;
	char why[200] = "";
	for (int c = 0; c < FB_NCASES && exited_ok; c++) {
		char label[48];
		snprintf(label, sizeof label, "%s control, traced", fb_mode[c]);
		wtg_ctx_progress(ctx, step++, nsteps, label);
		if (wtg_ctx_cancelled(ctx))
			return WTG_CANCELLED;
		struct fb_run r;
		struct wtg_ftrace ft;
		int trc = fb_traced(ctx, c, &r, &ft, c == FB_SUM ? (size_t)pages + 1024 : 1024);
		if (trc != 0) {
			wtg_strlcpy(why, ft.why, sizeof why);
			wtg_ftrace_free(&ft);
			if (trc < 0)
				return WTG_ERR;
			traced = false;
			break;
		}
		if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0) {
			exited_ok = false;
			snprintf(bad, sizeof bad, "the traced %s control ended with status 0x%x", fb_mode[c],
				 (unsigned)r.status);
		}
		traced = traced && ft.ok;
		if (!ft.ok)
			wtg_strlcpy(why, ft.why, sizeof why);
		fb_attribute(&ft, &nm, &r, &tr[c]);
		wtg_ftrace_free(&ft);
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
		fb_summarize(runs[c], reps, wtg_ctx_seed(ctx, (unsigned)c), &cs[c]);
		struct wtg_probe_result pr;
		fb_probe(&runs[c][cs[c].rep], &pr);
		fb_row(ctx, fb_label[c], cs[c].minflt, cs[c].majflt, cs[c].ms, c == FB_EXIT ? 0 : pages,
		       false, reps, cs[c].minflt_lo, cs[c].minflt_hi, cs[c].ci, &pr);
	}
	fb_row(ctx, "map - exit", cs[FB_MAP].minflt - cs[FB_EXIT].minflt,
	       cs[FB_MAP].majflt - cs[FB_EXIT].majflt, cs[FB_MAP].ms - cs[FB_EXIT].ms, pages, false, 0, 0, 0,
	       NULL, NULL);
	fb_row(ctx, "sum - map", cs[FB_SUM].minflt - cs[FB_MAP].minflt, cs[FB_SUM].majflt - cs[FB_MAP].majflt,
	       cs[FB_SUM].ms - cs[FB_MAP].ms, pages, true, 0, 0, 0, NULL, NULL);

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
	fb_trace_report(ctx, tr, traced, why);
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

/* Where the traced controls' major faults fell: "; 1 major fault: ld-linux-x86-64.so.2, offset
 * 0x2a000, at startup: not the mapped file", "; no major fault in the traced controls", or "" when
 * the table holds no trace. */
static void fb_major_words(const struct wtg_table *t, char *buf, size_t len)
{
	buf[0] = '\0';
	int cc = wtg_table_col(t, "case"), mc = wtg_table_col(t, "mapping"), jc = wtg_table_col(t, "majflt");
	int oc = wtg_table_col(t, "major_offset"), wc = wtg_table_col(t, "major_when");
	if (cc < 0 || mc < 0 || jc < 0)
		return;
	double all = 0, in_file = 0, most = 0;
	int best = -1, rows = 0;
	for (int r = 0; r < t->nrows; r++) {
		const struct wtg_value *c = &t->rows[r].v[cc], *m = &t->rows[r].v[mc];
		if (m->type != WTG_T_TEXT || c->type != WTG_T_TEXT || strstr(c->s, " - "))
			continue;	/* a difference between controls, or not a traced row */
		rows++;
		double j = wtg_table_num(t, r, jc);
		if (!(j > 0))
			continue;
		all += j;
		if (strcmp(m->s, "data file") == 0)
			in_file += j;
		double in_map = 0;	/* this mapping's major faults over the three controls */
		for (int q = 0; q < t->nrows; q++) {
			const struct wtg_value *cq = &t->rows[q].v[cc], *mq = &t->rows[q].v[mc];
			if (mq->type == WTG_T_TEXT && cq->type == WTG_T_TEXT && !strstr(cq->s, " - ") &&
			    strcmp(mq->s, m->s) == 0)
				in_map += fmax(wtg_table_num(t, q, jc), 0);
		}
		if (in_map > most) {
			most = in_map;
			best = r;
		}
	}
	if (!rows)
		return;
	if (best < 0) {
		snprintf(buf, len, "; no major fault in the traced controls");
		return;
	}
	double off = oc >= 0 ? wtg_table_num(t, best, oc) : NAN;
	const struct wtg_value *w = wc >= 0 ? &t->rows[best].v[wc] : NULL;
	char at[48] = "", file[64];
	if (isfinite(off))
		snprintf(at, sizeof at, ", offset 0x%llx", (unsigned long long)off);
	if (in_file > 0)
		snprintf(file, sizeof file, "%.0f of them in the mapped file", in_file);
	else
		snprintf(file, sizeof file, "not the mapped file");
	snprintf(buf, len, "; %.0f major fault%s traced: %s%s%s%s%s: %s", all, all == 1 ? "" : "s",
		 all > most ? "most in " : "", t->rows[best].v[mc].s, at, w && w->type == WTG_T_TEXT ? ", " : "",
		 w && w->type == WTG_T_TEXT ? w->s : "", file);
}

/* "a bare exit = 90 faults; summing adds 0.06 a page; no major fault in the traced controls". */
static int faultbase_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	double bare = wtg_verdict_value(t, "case", "exit only", "minflt");
	double fpp = wtg_verdict_value(t, "case", "sum - map", "faults_per_page");
	char major[160];
	fb_major_words(t, major, sizeof major);
	if (!isfinite(fpp))
		return wtg_verdict_fmt(buf, len, isfinite(bare), "a bare start and exit = %.0f faults%s", bare,
				       major);
	return wtg_verdict_fmt(buf, len, isfinite(bare), "a bare exit = %.0f faults; summing adds %.3g a page%s",
			       bare, fpp, major);
}

const struct wtg_experiment wtg_exp_faultbase = {
	.name = "faultbase",
	.question = "Where does a lone fault come from?",
	.runs = "child processes as controls: exit only, map without touching, map and sum; each once more "
		"with every fault sampled and charged to its mapping (perf_event_open)",
	.needs_datafile = true,
	.not_cold = "the first of its sums reads it back",
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_COUNTERS,
	.headline = { { "minor faults of a bare start and exit", "case", "exit only", "minflt", "minflt_ci_low",
			"minflt_ci_high", NULL, "count", false } },
	.typical_s = 1,
	.typical_quick_s = 1,
	.verdict = faultbase_verdict,
	.essay = { "a warm run's one hard fault came with startup: a bare \"hello\" had it too (memory "
		   "pressure explained another run's 24,120)", NULL },
	.terms = WTG_TERMS("majflt", "minflt", "mmap", "pagecache", "coldwarm"),
	.run = faultbase_run,
	.plan = faultbase_plan,
};
