/* report.c: what the three writers share, and saving a report whole or not at all. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wtg/conditions.h"
#include "wtg/probe.h"
#include "wtg/report.h"
#include "wtg/util.h"

int wtg_report_write(FILE *f, enum wtg_format fmt, struct wtg_session *s, const bool *which)
{
	switch (fmt) {
	case WTG_FMT_CSV:
		return wtg_report_csv(f, s, which);
	case WTG_FMT_JSON:
		return wtg_report_json(f, s, which);
	case WTG_FMT_SVG:
		return wtg_report_svg(f, s, which);
	case WTG_FMT_HTML:
		return wtg_report_html(f, s, which);
	default:
		return wtg_report_text(f, s, which);
	}
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

/* The permission bits a new file gets (umask applied), or those of the file being replaced. */
static mode_t target_mode(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 07777;
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

/* A device or a pipe (-o /dev/null, a FIFO) is written in place: a rename would replace the node. */
static int save_in_place(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
			 char *err, size_t errlen)
{
	FILE *f = fopen(path, "we");
	if (!f) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	errno = 0;
	int e = 0;
	if (wtg_report_write(f, fmt, s, which) < 0 || fflush(f) != 0 || ferror(f))
		e = errno ? errno : EIO;
	if (fclose(f) != 0 && !e)
		e = errno ? errno : EIO;
	if (e) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
		return -1;
	}
	return 0;
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

/* Write path whole: replace what is there (rename), or with excl never (link, which fails on an
 * existing name). */
static int save_whole(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
		      char *err, size_t errlen, bool excl)
{
	if (!path || !*path) {
		snprintf(err, errlen, "cannot write '': %s", strerror(ENOENT));
		return -1;
	}
	if (!excl && svg_folder(path, fmt, s, which))
		return wtg_report_svg_dir(path, s, which, err, errlen);
	struct stat st;
	if (excl && lstat(path, &st) == 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(EEXIST));
		errno = EEXIST;
		return -1;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return save_in_place(path, fmt, s, which, err, errlen);
	/* the temp file lives beside the target so that rename() replaces it atomically */
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = slash ? slash + 1 : path;
	size_t tlen = dirlen + strlen(base) + 16;
	char *tmp = malloc(tlen);
	if (!tmp) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(ENOMEM));
		return -1;
	}
	/* ".BASE.XXXXXX", or ".wtg.XXXXXX" when that would pass NAME_MAX for a name that itself fits */
	bool named = strlen(base) + 8 <= NAME_MAX;
	snprintf(tmp, tlen, "%.*s.%s.XXXXXX", (int)dirlen, path, named ? base : "wtg");

	int e = 0;
	FILE *f = NULL;
	int fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
		free(tmp);
		return -1;
	}
	if (fchmod(fd, target_mode(path)) < 0) {
		e = errno;
		goto fail;
	}
	f = fdopen(fd, "w");
	if (!f) {
		e = errno;
		goto fail;
	}
	fd = -1;	/* the FILE owns it now */
	errno = 0;
	if (wtg_report_write(f, fmt, s, which) < 0 || fflush(f) != 0 || ferror(f)) {
		e = errno ? errno : EIO;
		goto fail;
	}
	if (fsync(fileno(f)) < 0) {
		e = errno;
		goto fail;
	}
	int rc = fclose(f);
	f = NULL;
	if (rc != 0) {
		e = errno;
		goto fail;
	}
	if (excl ? link(tmp, path) < 0 : rename(tmp, path) < 0) {
		e = errno;
		goto fail;
	}
	if (excl)
		unlink(tmp);
	/* make the rename itself durable; a failure here leaves a complete file, so it is ignored */
	char *dir = strndup(path, dirlen ? dirlen : 1);
	if (dir) {
		int dfd = open(dirlen ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			(void)fsync(dfd);
			close(dfd);
		}
		free(dir);
	}
	free(tmp);
	return 0;

fail:
	if (f)
		fclose(f);
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
	errno = e;
	return -1;
}

int wtg_report_save(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
		    char *err, size_t errlen)
{
	return save_whole(path, fmt, s, which, err, errlen, false);
}

int wtg_report_save_new(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
			char *err, size_t errlen)
{
	return save_whole(path, fmt, s, which, err, errlen, true);
}
