/* report.c: the table of writers, what they share (the run's times, the tally, the locale), and
 * saving a report whole or not at all. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "wtg/conditions.h"
#include "wtg/probe.h"
#include "wtg/report.h"
#include "wtg/util.h"

const struct wtg_writer wtg_writers[WTG_NFORMATS] = {
	[WTG_FMT_TEXT] = { "text", ".txt", wtg_report_text },
	[WTG_FMT_CSV] = { "csv", ".csv", wtg_report_csv },
	[WTG_FMT_JSON] = { "json", ".json", wtg_report_json },
	[WTG_FMT_MARKDOWN] = { "markdown", ".md", wtg_report_markdown },
	[WTG_FMT_SVG] = { "svg", ".svg", wtg_report_svg },
	[WTG_FMT_HTML] = { "html", ".html", wtg_report_html },
};

int wtg_format_parse(const char *name)
{
	for (int i = 0; i < WTG_NFORMATS; i++)
		if (strcmp(name, wtg_writers[i].name) == 0)
			return i;
	return -1;
}

int wtg_format_from_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *dot = strrchr(slash ? slash + 1 : path, '.');
	if (!dot || dot == (slash ? slash + 1 : path))
		return -1;	/* no ending, or a hidden file's leading dot */
	for (int i = 0; i < WTG_NFORMATS; i++)
		if (strcasecmp(dot, wtg_writers[i].ext) == 0)
			return i;
	return -1;
}

int wtg_report_write(FILE *f, enum wtg_format fmt, struct wtg_session *s, const bool *which)
{
	if ((int)fmt < 0 || fmt >= WTG_NFORMATS || !wtg_writers[fmt].write) {
		errno = ENOSYS;
		return -1;
	}
	locale_t old = wtg_report_locale_begin();
	int rc = wtg_writers[fmt].write(f, s, which);
	wtg_report_locale_end(old);
	return rc;
}

static struct wtg_report_run run_info;

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void wtg_report_run_begin(void)
{
	run_info.begun = true;
	run_info.ended = false;
	run_info.start_real_ns = clock_ns(CLOCK_REALTIME);
	run_info.start_ns = clock_ns(CLOCK_MONOTONIC);
	wtg_cond_snapshot(&run_info.cond_start, NULL);
}

void wtg_report_run_end(void)
{
	run_info.ended = true;
	run_info.end_ns = clock_ns(CLOCK_MONOTONIC);
}

const struct wtg_report_run *wtg_report_run_info(void)
{
	return &run_info;
}

double wtg_report_duration_s(void)
{
	if (!run_info.begun)
		return NAN;
	int64_t end = run_info.ended ? run_info.end_ns : clock_ns(CLOCK_MONOTONIC);
	return (double)(end - run_info.start_ns) / 1e9;
}

void wtg_report_iso8601(char *buf, size_t len, int64_t real_ns)
{
	time_t t = (time_t)(real_ns / 1000000000);
	struct tm tm;
	if (!gmtime_r(&t, &tm) || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, len, "1970-01-01T00:00:00Z");
}

void wtg_report_tally(struct wtg_session *s, const bool *which, struct wtg_report_tally *t)
{
	memset(t, 0, sizeof *t);
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++) {
		if (!wtg_report_wanted(s, i, which))
			continue;
		struct wtg_table *tb = &s->tables[i];
		int ok, warn, fail;
		pthread_mutex_lock(&tb->lock);
		wtg_table_count_checks(tb, &ok, &warn, &fail);
		bool bad = tb->state != WTG_DONE;
		pthread_mutex_unlock(&tb->lock);
		t->experiments++;
		t->failed_experiments += bad;
		t->ok += ok;
		t->warn += warn;
		t->fail += fail;
	}
}

void wtg_report_summary_line(FILE *f, struct wtg_session *s, const bool *which)
{
	struct wtg_report_tally t;
	wtg_report_tally(s, which, &t);
	fprintf(f, "%d experiment%s", t.experiments, t.experiments == 1 ? "" : "s");
	if (t.failed_experiments)
		fprintf(f, " (%d did not finish)", t.failed_experiments);
	fprintf(f, ", checks: %d ok, %d warn, %d failed", t.ok, t.warn, t.fail);
	double d = wtg_report_duration_s();
	if (isfinite(d))
		fprintf(f, ", %.1f s", d);
	putc('\n', f);
}

bool wtg_report_wanted(struct wtg_session *s, int idx, const bool *which)
{
	if (idx < 0 || idx >= wtg_nexperiments || idx >= WTG_MAX_EXP)
		return false;
	if (which)
		return which[idx];
	struct wtg_table *t = &s->tables[idx];
	pthread_mutex_lock(&t->lock);
	bool want = t->nrows > 0 || t->state != WTG_IDLE;
	pthread_mutex_unlock(&t->lock);
	return want;
}

int wtg_report_each(FILE *f, struct wtg_session *s, const bool *which,
		    void (*fn)(FILE *f, const struct wtg_table *t, int n))
{
	int n = 0;
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++) {
		if (!wtg_report_wanted(s, i, which))
			continue;
		struct wtg_table *t = &s->tables[i];
		pthread_mutex_lock(&t->lock);
		fn(f, t, n++);
		pthread_mutex_unlock(&t->lock);
	}
	return n;
}

const char *wtg_report_state_name(enum wtg_state st)
{
	switch ((int)st) {
	case WTG_IDLE:
		return "idle";
	case WTG_RUNNING:
		return "running";
	case WTG_DONE:
		return "done";
	case WTG_FAILED:
		return "failed";
	case WTG_STOPPED:
		return "cancelled";
	}
	return "unknown";
}

const char *wtg_report_policy_name(int policy)
{
	return policy == 0 ? "normal" : policy == 1 ? "background" : NULL;
}

const struct wtg_column wtg_report_extra_cols[WTG_REPORT_NEXTRA] = {
	{ "probe_wall_ms", "ms", WTG_T_REAL, 3 },
	{ "probe_user_ms", "ms", WTG_T_REAL, 3 },
	{ "probe_sys_ms", "ms", WTG_T_REAL, 3 },
	{ "probe_minflt", "count", WTG_T_INT, 0 },
	{ "probe_majflt", "count", WTG_T_INT, 0 },
	{ "probe_vcsw", "count", WTG_T_INT, 0 },
	{ "probe_ivcsw", "count", WTG_T_INT, 0 },
	{ "probe_cpus", "", WTG_T_TEXT, 0 },
	{ "probe_migrations", "count", WTG_T_INT, 0 },
	{ "cond_burners", "count", WTG_T_INT, 0 },
	{ "cond_policy", "", WTG_T_TEXT, 0 },
	{ "cond_io", "", WTG_T_TEXT, 0 },
};

const struct wtg_column *wtg_report_column(const struct wtg_table *t, int c)
{
	return c < t->ncols ? &t->cols[c] : &wtg_report_extra_cols[c - t->ncols];
}

void wtg_report_row_values(FILE *f, const struct wtg_table *t, const struct wtg_row *row,
			   void (*fn)(FILE *f, const struct wtg_value *v, int i))
{
	for (int c = 0; c < t->ncols; c++)
		fn(f, &row->v[c], c);
	struct wtg_value extra[WTG_REPORT_NEXTRA];
	char cpus[512];
	wtg_report_extra_values(row, extra, cpus, sizeof cpus);
	for (int i = 0; i < WTG_REPORT_NEXTRA; i++)
		fn(f, &extra[i], t->ncols + i);
}

void wtg_report_extra_values(const struct wtg_row *row, struct wtg_value *out, char *buf, size_t len)
{
	for (int i = 0; i < WTG_REPORT_NEXTRA; i++)
		out[i] = WTG_NA;
	if (row->has_probe) {
		const struct wtg_probe_result *p = &row->probe;
		out[0] = WTG_REAL(p->wall_ms);
		out[1] = WTG_REAL(p->user_ms);
		out[2] = WTG_REAL(p->sys_ms);
		out[3] = WTG_INT(p->minflt);
		out[4] = WTG_INT(p->majflt);
		out[5] = WTG_INT(p->vcsw);
		out[6] = WTG_INT(p->ivcsw);
		if (p->cpus_seen && len > 1) {
			wtg_probe_cpus_str(p->cpus_seen, buf, (int)(len > 4096 ? 4096 : len));
			out[7] = WTG_TEXT(buf);
		}
		if (p->migrations >= 0)
			out[8] = WTG_INT(p->migrations);
	}
	out[9] = WTG_INT(row->cond.burners);
	const char *pol = wtg_report_policy_name(row->cond.policy);
	if (pol)
		out[10] = WTG_TEXT(pol);
	out[11] = WTG_TEXT(wtg_iomode_name(row->cond.io));
}

void wtg_report_real(char *buf, size_t len, double v)
{
	if (!isfinite(v)) {
		if (len)
			buf[0] = '\0';
		return;
	}
	snprintf(buf, len, "%.10g", v);
}

locale_t wtg_report_locale_begin(void)
{
	static locale_t c_locale;	/* created once, never freed: uselocale keeps using it */
	static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&once);
	if (!c_locale)
		c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	locale_t c = c_locale;
	pthread_mutex_unlock(&once);
	return c ? uselocale(c) : (locale_t)0;
}

void wtg_report_locale_end(locale_t old)
{
	if (old)
		uselocale(old);
}

/* The permission bits a new file gets (umask applied). */
static mode_t new_file_mode(void)
{
	unsigned mask = 022;
	/* umask() cannot be read without changing it (racy with threads); /proc can */
	FILE *f = fopen("/proc/self/status", "r");
	if (f) {
		char line[256];
		while (fgets(line, sizeof line, f))
			if (sscanf(line, "Umask: %o", &mask) == 1)
				break;
		fclose(f);
	}
	return (mode_t)(0666 & ~mask);
}

/* Write the report into f and flush it: 0, or the errno of the failure. */
static int write_flush(FILE *f, enum wtg_format fmt, struct wtg_session *s, const bool *which)
{
	errno = 0;
	if (wtg_report_write(f, fmt, s, which) < 0 || fflush(f) != 0 || ferror(f))
		return errno ? errno : EIO;
	return 0;
}

/* The message for a failed save; errno is left at e. */
static int save_failed(const char *path, int e, char *err, size_t errlen)
{
	snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
	errno = e;
	return -1;
}

/* A device, a pipe, a /dev or /proc name (-o /dev/null, a FIFO, /dev/fd/1) is written in place: a
 * rename would replace the node or the link. */
static int save_in_place(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
			 char *err, size_t errlen)
{
	FILE *f = fopen(path, "we");
	if (!f)
		return save_failed(path, errno, err, errlen);
	int e = write_flush(f, fmt, s, which);
	if (fclose(f) != 0 && !e)
		e = errno ? errno : EIO;
	return e ? save_failed(path, e, err, errlen) : 0;
}

static int save_stdout(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
		       char *err, size_t errlen)
{
	int e = write_flush(stdout, fmt, s, which);
	return e ? save_failed(strcmp(path, "-") ? path : "standard output", e, err, errlen) : 0;
}

static bool special_name(const char *path)
{
	return strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0;
}

bool wtg_report_is_stdout(const char *path)
{
	struct stat a, b;
	if (strcmp(path, "-") == 0)
		return true;
	return stat(path, &a) == 0 && fstat(STDOUT_FILENO, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* Durable rename: fsync the folder; a failure leaves a complete file, so it is ignored. */
static void sync_folder(const char *path, size_t dirlen)
{
	char *dir = strndup(path, dirlen ? dirlen : 1);
	if (!dir)
		return;
	int dfd = open(dirlen ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	free(dir);
}

/* Temp file beside path, written, synced and renamed over it; the replaced file's owner and mode
 * are kept. With excl it is linked instead, which fails on an existing name. */
static int save_replace(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
			char *err, size_t errlen, bool excl)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = slash ? slash + 1 : path;
	size_t tlen = dirlen + strlen(base) + 16;
	char *tmp = malloc(tlen);
	if (!tmp)
		return save_failed(path, ENOMEM, err, errlen);
	/* ".BASE.XXXXXX", or ".wtg.XXXXXX" when that would pass NAME_MAX for a name that itself fits */
	bool named = strlen(base) + 8 <= NAME_MAX;
	snprintf(tmp, tlen, "%.*s.%s.XXXXXX", (int)dirlen, path, named ? base : "wtg");

	int e = 0;
	FILE *f = NULL;
	int fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		free(tmp);
		return save_failed(path, e, err, errlen);
	}
	struct stat st;
	bool existed = stat(path, &st) == 0 && S_ISREG(st.st_mode);
	if (fchmod(fd, existed ? st.st_mode & 07777 : new_file_mode()) < 0) {
		e = errno;
		goto fail;
	}
	/* only root (or a group member) can give the file back; others keep their own */
	if (existed && (st.st_uid != geteuid() || st.st_gid != getegid()))
		(void)fchown(fd, st.st_uid, st.st_gid);
	if (existed && (st.st_mode & 07000) && fchmod(fd, st.st_mode & 07777) < 0) {
		e = errno;	/* chown clears set-id bits: put them back */
		goto fail;
	}
	f = fdopen(fd, "w");
	if (!f) {
		e = errno;
		goto fail;
	}
	fd = -1;	/* the FILE owns it now */
	e = write_flush(f, fmt, s, which);
	if (!e && fsync(fileno(f)) < 0)
		e = errno;
	if (e)
		goto fail;
	int rc = fclose(f);
	f = NULL;
	if (rc != 0 || (excl ? link(tmp, path) : rename(tmp, path)) < 0) {
		e = errno;
		goto fail;
	}
	if (excl)
		unlink(tmp);
	sync_folder(path, dirlen);
	free(tmp);
	return 0;

fail:
	if (f)
		fclose(f);
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return save_failed(path, e, err, errlen);
}

/* Several SVG charts, or SVG into a folder: one file each. */
static bool svg_folder(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which)
{
	if (fmt != WTG_FMT_SVG)
		return false;
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return true;
	int n = 0;
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++)
		n += wtg_report_wanted(s, i, which);
	return n > 1;
}

int wtg_report_save(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
		    char *err, size_t errlen)
{
	if (!path || !*path)
		return save_failed("", ENOENT, err, errlen);
	if (wtg_report_is_stdout(path))
		return save_stdout(path, fmt, s, which, err, errlen);
	if (svg_folder(path, fmt, s, which))
		return wtg_report_svg_dir(path, s, which, err, errlen);
	struct stat st;
	if (special_name(path) || (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
		return save_in_place(path, fmt, s, which, err, errlen);
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		/* replace the link's target and keep the link; a dangling link is written through */
		char *real = realpath(path, NULL);
		if (!real || special_name(real)) {
			free(real);
			return save_in_place(path, fmt, s, which, err, errlen);
		}
		int rc = save_replace(real, fmt, s, which, err, errlen, false);
		int e = errno;
		if (rc < 0)	/* name the path the user gave */
			save_failed(path, e, err, errlen);
		free(real);
		errno = e;
		return rc;
	}
	return save_replace(path, fmt, s, which, err, errlen, false);
}

int wtg_report_save_new(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
			char *err, size_t errlen)
{
	struct stat st;
	if (!path || !*path)
		return save_failed("", ENOENT, err, errlen);
	if (lstat(path, &st) == 0)
		return save_failed(path, EEXIST, err, errlen);
	return save_replace(path, fmt, s, which, err, errlen, true);
}
