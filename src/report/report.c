/* report.c: the table of writers, what they share (the run's times, the tally, the locale), and
 * saving a report whole or not at all. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "wtg/conditions.h"
#include "wtg/guard.h"
#include "wtg/probe.h"
#include "wtg/report.h"
#include "wtg/util.h"
#include "writers.h"

const struct wtg_writer wtg_writers[WTG_NFORMATS] = {
	[WTG_FMT_TEXT] = { "text", ".txt", wtg_text_begin, wtg_text_table, wtg_text_end },
	[WTG_FMT_CSV] = { "csv", ".csv", wtg_csv_begin, wtg_csv_table, NULL },
	[WTG_FMT_JSON] = { "json", ".json", wtg_json_begin, wtg_json_table, wtg_json_end },
	[WTG_FMT_MARKDOWN] = { "markdown", ".md", wtg_markdown_begin, wtg_markdown_table, NULL },
	[WTG_FMT_SVG] = { "svg", ".svg", wtg_svg_begin, wtg_svg_table, wtg_svg_end },
	[WTG_FMT_HTML] = { "html", ".html", wtg_html_begin, wtg_html_table, wtg_html_end },
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

static void meta_of(struct wtg_report_meta *m, struct wtg_session *s, const bool *which,
		    const struct wtg_table *snap, const struct wtg_report_earlier *earlier);

/* Run the writer over the wanted tables in the C numeric locale. The tables are private: a
 * session's snapshot (wtg_report_write), or a saved run read back, which no other thread touches;
 * no lock is held while the file is written. */
static int write_tables(FILE *f, enum wtg_format fmt, const struct wtg_report_meta *m,
			const struct wtg_table *const *tables)
{
	if ((int)fmt < 0 || fmt >= WTG_NFORMATS || !wtg_writers[fmt].begin) {
		errno = ENOSYS;
		return -1;
	}
	const struct wtg_writer *w = &wtg_writers[fmt];
	locale_t old = wtg_report_locale_begin();
	w->begin(f, m);
	int n = 0;
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++) {
		if (!m->wanted[i] || !tables[i])
			continue;
		w->table(f, m, m->instead[i] ? m->instead[i] : tables[i], n++);
	}
	if (w->end)
		w->end(f, m, n);
	wtg_report_locale_end(old);
	return ferror(f) ? -1 : 0;
}

int wtg_report_write_meta(FILE *f, enum wtg_format fmt, const struct wtg_report_meta *m,
			  const struct wtg_table *const *tables)
{
	return write_tables(f, fmt, m, tables);
}

struct wtg_table *wtg_report_snapshot(struct wtg_session *s, struct wtg_report_meta *m, const bool *which,
				      const struct wtg_report_earlier *earlier)
{
	struct wtg_table *snap = calloc(WTG_MAX_EXP, sizeof *snap);
	if (!snap)
		return NULL;
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++) {
		wtg_table_init(&snap[i], wtg_experiments[i]);
		wtg_table_snapshot(&snap[i], &s->tables[i]);	/* each copied under its lock, in turn */
	}
	meta_of(m, s, which, snap, earlier);
	return snap;
}

void wtg_report_snapshot_free(struct wtg_table *snap)
{
	for (int i = 0; snap && i < wtg_nexperiments && i < WTG_MAX_EXP; i++)
		wtg_table_free(&snap[i]);
	free(snap);
}

/* wtg_report_write with the dashboard's earlier runs of each tab (by registry index, NULL: none). */
static int write_session(FILE *f, enum wtg_format fmt, struct wtg_session *s, const bool *which,
			 const struct wtg_report_earlier *earlier, int64_t written_ns)
{
	struct wtg_report_meta m;
	const struct wtg_table *tables[WTG_MAX_EXP] = { NULL };
	struct wtg_table *snap = wtg_report_snapshot(s, &m, which, earlier);
	if (!snap) {
		errno = ENOMEM;
		return -1;
	}
	if (written_ns)
		m.written_real_ns = written_ns;	/* one time for every file of a save set */
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++)
		tables[i] = &snap[i];
	int rc = write_tables(f, fmt, &m, tables);
	int e = errno;
	wtg_report_snapshot_free(snap);
	errno = e;
	return rc;
}

int wtg_report_write(FILE *f, enum wtg_format fmt, struct wtg_session *s, const bool *which)
{
	return write_session(f, fmt, s, which, NULL, 0);
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

/* Counts table tb's checks into t. */
static void tally_checks(const struct wtg_table *tb, struct wtg_report_tally *t)
{
	int ok, warn, fail;
	wtg_table_count_checks(tb, &ok, &warn, &fail);
	t->experiments++;
	t->failed_experiments += tb->state != WTG_DONE;
	t->ok += ok;
	t->warn += warn;
	t->fail += fail;
}

/* Whether table idx is written: which[idx], or with which NULL a table with rows or a state other
 * than idle; a session table that has not run gives way to the run the tab shows instead (the
 * earlier runs' shown: a saved one), set in m->instead. Counts the written table's checks. tb is
 * private (a snapshot) or its lock is held. */
static bool tally_table(const struct wtg_table *tb, int idx, const bool *which, struct wtg_report_meta *m)
{
	const struct wtg_table *shown = m->earlier ? m->earlier[idx].shown : NULL;
	bool over = shown && m->earlier[idx].over;
	bool ran = tb->nrows > 0 || tb->state != WTG_IDLE;
	bool want = which ? which[idx] : ran || shown;
	if (want && (!ran || over) && shown)
		m->instead[idx] = shown;
	else if (want)
		tally_checks(tb, &m->tally);
	if (m->instead[idx])
		tally_checks(m->instead[idx], &m->tally);
	return want;
}

/* m from the session, its tables' choice and tally from snap (a snapshot of each), or with snap
 * NULL from the live tables, each under its lock in turn; with each tab's earlier runs (NULL: none). */
static void meta_of(struct wtg_report_meta *m, struct wtg_session *s, const bool *which, const struct wtg_table *snap,
		    const struct wtg_report_earlier *earlier)
{
	memset(m, 0, sizeof *m);
	m->machine = &s->machine;
	m->topo = &s->topo;
	m->topo_summary = s->topo_summary;
	m->df_state = (enum wtg_df_state)atomic_load(&s->df_state);
	m->df = &s->df;
	m->df_error = s->df_error;
	m->opt = s->opt;
	wtg_session_compare(s, &m->compare);
	m->label = s->opt ? s->opt->label : NULL;
	m->file = s->opt ? s->opt->file : NULL;
	m->has_seed = s->opt != NULL;
	m->seed = s->opt ? s->opt->seed : 0;
	m->quick = s->opt && s->opt->quick;
	wtg_cond_snapshot(&m->cond, m->df_state == WTG_DF_READY ? &s->df : NULL);
	m->run = run_info;
	m->duration_s = wtg_report_duration_s();
	m->written_real_ns = clock_ns(CLOCK_REALTIME);
	m->earlier = earlier;
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++) {
		if (snap) {
			m->wanted[i] = tally_table(&snap[i], i, which, m);
		} else {
			pthread_mutex_lock(&s->tables[i].lock);
			m->wanted[i] = tally_table(&s->tables[i], i, which, m);
			pthread_mutex_unlock(&s->tables[i].lock);
		}
		m->ntables += m->wanted[i];
	}
}

void wtg_report_meta_from_session(struct wtg_report_meta *m, struct wtg_session *s, const bool *which,
				  const struct wtg_report_earlier *earlier)
{
	meta_of(m, s, which, NULL, earlier);
}

void wtg_report_summary(FILE *f, struct wtg_session *s, const bool *which)
{
	struct wtg_report_meta m;
	wtg_report_meta_from_session(&m, s, which, NULL);
	wtg_report_summary_line(f, &m);
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

/* What a save writes: a session's tables (s, which), metadata and tables made elsewhere (m,
 * tables: a saved run read back), or what fn writes (a comparison). */
struct source {
	struct wtg_session *s;
	const bool *which;
	const struct wtg_report_earlier *earlier;	/* with s: each tab's earlier runs, NULL: none */
	int64_t written_ns;				/* with s: when it says it was written, 0 now */
	const struct wtg_report_meta *m;
	const struct wtg_table *const *tables;
	int (*fn)(FILE *f, void *arg);
	void *arg;
};

/* The temp files being written, for wtg_report_remove_temps in a signal handler. A slot is filled
 * and emptied with the signals that end wtg blocked, so a handler never sees half a name, nor the
 * name of a temp file already renamed into place. */
#define MAX_TEMPS 4
static char temp_path[MAX_TEMPS][PATH_MAX];
static volatile sig_atomic_t temp_used[MAX_TEMPS];

/* mkstemp of template in a free slot: the descriptor (its slot in *slot), or -1 with errno. */
static int temp_create(const char *template, int *slot)
{
	wtg_session_on_emergency(wtg_report_remove_temps);
	sigset_t old;
	wtg_thread_sigmask(&old);
	int i = 0, fd = -1, e = ENAMETOOLONG;
	while (i < MAX_TEMPS && temp_used[i])
		i++;
	if (i == MAX_TEMPS) {
		e = EMFILE;	/* not reached: saves run one at a time */
	} else if (strlen(template) < PATH_MAX) {
		wtg_strlcpy(temp_path[i], template, PATH_MAX);
		fd = mkstemp(temp_path[i]);
		e = errno;
		if (fd >= 0) {
			temp_used[i] = 1;
			*slot = i;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return fd;
}

/* The temp file in slot renamed (or with excl linked) to path, or with path NULL removed; the slot
 * freed. 0, or -1 with errno (the temp file then removed). */
static int temp_release(int slot, const char *path, bool excl)
{
	sigset_t old;
	wtg_thread_sigmask(&old);
	const char *tmp = temp_path[slot];
	int rc = !path ? -1 : excl ? link(tmp, path) : rename(tmp, path);
	int e = errno;
	if (rc < 0 || excl)
		unlink(tmp);
	temp_used[slot] = 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return rc;
}

void wtg_report_remove_temps(void)
{
	int e = errno;
	for (int i = 0; i < MAX_TEMPS; i++)
		if (temp_used[i])
			unlink(temp_path[i]);
	errno = e;
}

/* Write the report into f and flush it: 0, or the errno of the failure. */
static int write_flush(FILE *f, enum wtg_format fmt, const struct source *src)
{
	errno = 0;
	int rc = src->fn ? src->fn(f, src->arg) :
		 src->s	 ? write_session(f, fmt, src->s, src->which, src->earlier, src->written_ns) :
			   wtg_report_write_meta(f, fmt, src->m, src->tables);
	if (rc < 0 || fflush(f) != 0 || ferror(f))
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

static int save_replace(const char *path, const char *shown, enum wtg_format fmt, const struct source *src,
			char *err, size_t errlen, bool excl);

/* What is not a regular file (a terminal, a pipe, a device: -o /dev/null, a FIFO, /dev/fd/1) is
 * written in place: a rename would replace the node or the link. A FIFO nobody reads is an error at
 * once, not a wait; a name that has become a regular file meanwhile goes through the rename. */
static int save_in_place(const char *path, enum wtg_format fmt, const struct source *src, char *err,
			 size_t errlen)
{
	int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 && errno == ENXIO && stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
		snprintf(err, errlen, "cannot write '%s': no reader on this FIFO", path);
		errno = ENXIO;
		return -1;
	}
	if (fd < 0)
		return save_failed(path, errno, err, errlen);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		close(fd);
		return save_replace(path, path, fmt, src, err, errlen, false);
	}
	int fl = fcntl(fd, F_GETFL);
	FILE *f = fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		int e = errno;
		close(fd);
		return save_failed(path, e, err, errlen);
	}
	int e = write_flush(f, fmt, src);
	if (fclose(f) != 0 && !e)
		e = errno ? errno : EIO;
	return e ? save_failed(path, e, err, errlen) : 0;
}

static int save_stdout(const char *path, enum wtg_format fmt, const struct source *src, char *err,
		       size_t errlen)
{
	int e = write_flush(stdout, fmt, src);
	return e ? save_failed(strcmp(path, "-") ? path : "standard output", e, err, errlen) : 0;
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
 * are kept. With excl it is linked instead, which fails on an existing name. Messages name shown, the
 * name the user gave. */
static int save_replace(const char *path, const char *shown, enum wtg_format fmt, const struct source *src,
			char *err, size_t errlen, bool excl)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = slash ? slash + 1 : path;
	size_t tlen = dirlen + strlen(base) + 16;
	char *tmp = malloc(tlen);
	if (!tmp)
		return save_failed(shown, ENOMEM, err, errlen);
	/* ".BASE.XXXXXX", or ".wtg.XXXXXX" when that would pass NAME_MAX for a name that itself fits */
	bool named = strlen(base) + 8 <= NAME_MAX;
	snprintf(tmp, tlen, "%.*s.%s.XXXXXX", (int)dirlen, path, named ? base : "wtg");

	int e = 0, slot = -1;
	FILE *f = NULL;
	int fd = temp_create(tmp, &slot);
	free(tmp);
	if (fd < 0)
		return save_failed(shown, errno, err, errlen);
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
	e = write_flush(f, fmt, src);
	if (!e && fsync(fileno(f)) < 0)
		e = errno;
	if (e)
		goto fail;
	int rc = fclose(f);
	f = NULL;
	if (rc != 0) {
		e = errno;
		goto fail;
	}
	/* the moment of writing: what the name is now, not what it was when wtg started */
	if (!excl && wtg_target_check(path, shown, false, err, errlen) < 0) {
		e = errno;
		temp_release(slot, NULL, false);
		errno = e;
		return -1;
	}
	if (temp_release(slot, path, excl) < 0)
		return save_failed(shown, errno, err, errlen);
	sync_folder(path, dirlen);
	return 0;

fail:
	if (f)
		fclose(f);
	if (fd >= 0)
		close(fd);
	temp_release(slot, NULL, false);
	return save_failed(shown, e, err, errlen);
}

/* The metadata of what src writes. */
static void source_meta(const struct source *src, struct wtg_report_meta *m)
{
	if (src->s)
		wtg_report_meta_from_session(m, src->s, src->which, src->earlier);
	else
		*m = *src->m;
}

/* Several SVG charts, or SVG into a folder: one file each. */
static bool svg_folder(const char *path, enum wtg_format fmt, const struct source *src)
{
	if (fmt != WTG_FMT_SVG || src->fn)
		return false;
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return true;
	struct wtg_report_meta m;
	source_meta(src, &m);
	return m.ntables > 1;
}

static int svg_dir(const char *dir, const struct source *src, char *err, size_t errlen);

/* Where a symbolic link at path leads, made absolute: the file, or for a dangling link the name it
 * would be made as. NULL with errno on a failure. */
static char *link_target(const char *path)
{
	char *real = realpath(path, NULL);
	if (real || errno != ENOENT)
		return real;
	char cur[PATH_MAX], folder[PATH_MAX], t[PATH_MAX];
	wtg_strlcpy(cur, path, sizeof cur);
	for (int hops = 0; hops < 40; hops++) {
		ssize_t n = readlink(cur, t, sizeof t - 1);
		if (n < 0)
			break;	/* no link (the name to make), or unreadable: realpath below says */
		t[n] = '\0';
		wtg_path_split(cur, folder, sizeof folder);
		int w = t[0] == '/' ? snprintf(cur, sizeof cur, "%s", t) : snprintf(cur, sizeof cur, "%s/%s", folder, t);
		if (w < 0 || (size_t)w >= sizeof cur) {
			errno = ENAMETOOLONG;
			return NULL;
		}
	}
	const char *base = wtg_path_split(cur, folder, sizeof folder);
	char *dir = realpath(folder, NULL);
	if (!dir)
		return NULL;
	size_t len = strlen(dir) + strlen(base) + 2;
	real = malloc(len);
	if (real)
		snprintf(real, len, "%s/%s", dir, base);
	free(dir);
	return real;
}

/* A regular file, or a name to make one, whatever the spelling (/proc/self/cwd/x, /dev/shm/x, a link,
 * /dev/fd/N open on a file) goes through a temp file and a rename; a terminal, a pipe or a device is
 * written in place; "-" and standard output's own file are written to standard output. */
static int save(const char *path, enum wtg_format fmt, const struct source *src, char *err, size_t errlen)
{
	if (!path || !*path)
		return save_failed("", ENOENT, err, errlen);
	if (wtg_report_is_stdout(path))
		return save_stdout(path, fmt, src, err, errlen);
	if (svg_folder(path, fmt, src))
		return svg_dir(path, src, err, errlen);
	struct stat st, lst;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return save_in_place(path, fmt, src, err, errlen);
	if (lstat(path, &lst) != 0 || !S_ISLNK(lst.st_mode))
		return save_replace(path, path, fmt, src, err, errlen, false);
	/* a link (/dev/fd/N too): replace its target and keep the link, when it was a link at the start */
	if (wtg_target_check(path, path, true, err, errlen) < 0)
		return -1;
	char *real = link_target(path);
	if (!real)
		return save_failed(path, errno, err, errlen);
	struct stat rst;
	int rc;
	if (stat(path, &st) == 0 && (stat(real, &rst) != 0 || rst.st_dev != st.st_dev || rst.st_ino != st.st_ino)) {
		/* /dev/fd/N on a file removed since, or a name that moved: nothing wtg can rename onto */
		snprintf(err, errlen, "cannot write '%s': it leads to a file that has no name to replace", path);
		errno = ENOENT;
		rc = -1;
	} else {
		rc = save_replace(real, path, fmt, src, err, errlen, false);
	}
	int e = errno;
	free(real);
	errno = e;
	return rc;
}

int wtg_report_save(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
		    char *err, size_t errlen)
{
	struct source src = { .s = s, .which = which };
	return save(path, fmt, &src, err, errlen);
}

int wtg_report_save_meta(const char *path, enum wtg_format fmt, const struct wtg_report_meta *m,
			 const struct wtg_table *const *tables, char *err, size_t errlen)
{
	struct source src = { .m = m, .tables = tables };
	return save(path, fmt, &src, err, errlen);
}

int wtg_report_save_with(const char *path, int (*fn)(FILE *f, void *arg), void *arg, char *err,
			 size_t errlen)
{
	struct source src = { .fn = fn, .arg = arg };
	return save(path, WTG_FMT_TEXT, &src, err, errlen);
}

int wtg_report_save_new(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which,
			const struct wtg_report_earlier *earlier, int64_t written_ns, char *err, size_t errlen)
{
	struct stat st;
	if (!path || !*path)
		return save_failed("", ENOENT, err, errlen);
	if (lstat(path, &st) == 0)
		return save_failed(path, EEXIST, err, errlen);
	struct source src = { .s = s, .which = which, .earlier = earlier, .written_ns = written_ns };
	return save_replace(path, path, fmt, &src, err, errlen, true);
}

int wtg_report_svg_dir(const char *dir, struct wtg_session *s, const bool *which, char *err, size_t errlen)
{
	struct source src = { .s = s, .which = which };
	return svg_dir(dir, &src, err, errlen);
}

/* Each wanted table's chart as DIR/NAME.svg. */
static int svg_dir(const char *dir, const struct source *src, char *err, size_t errlen)
{
	struct stat st;
	if (stat(dir, &st) < 0 && (errno != ENOENT || mkdir(dir, 0777) < 0)) {
		snprintf(err, errlen, "cannot make the folder '%s': %s", dir, strerror(errno));
		return -1;
	}
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "'%s' is not a folder: several SVG charts go into one", dir);
		return -1;
	}
	struct wtg_report_meta m;
	source_meta(src, &m);
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++) {
		if (!m.wanted[i])
			continue;
		bool one[WTG_MAX_EXP] = { false };
		one[i] = true;
		struct wtg_report_meta m1 = m;
		memcpy(m1.wanted, one, sizeof one);
		m1.ntables = 1;
		struct source s1 = { .s = src->s, .which = one, .m = &m1, .tables = src->tables };
		char path[4096];
		wtg_svg_chart_path(path, sizeof path, dir, i);
		if (save(path, WTG_FMT_SVG, &s1, err, errlen) < 0)
			return -1;
	}
	return 0;
}
