/* save.c: s and w: the results (JSON, HTML, CSV) and the screen (text), in the current folder or
 * the data folder, never over an existing file. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "wtg/report.h"
#include "dash.h"

/* mkdir -p for an absolute path; 0 or -1 (errno set). */
static int make_dirs(const char *path)
{
	char buf[PATH_MAX];
	wtg_strlcpy(buf, path, sizeof buf);
	for (char *p = buf + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(buf, 0777) < 0 && errno != EEXIST)
			return -1;
		*p = c;
		if (!c)
			return 0;
	}
}

/* Where saves go: the current folder when it is writable (unless fallback), else $XDG_DATA_HOME/wtg
 * (~/.local/share/wtg), made when missing. 0 with the absolute folder in dir, or -1. */
static int save_dir(char *dir, size_t len, bool fallback, char *err, size_t errlen)
{
	if (!fallback && access(".", W_OK | X_OK) == 0 && getcwd(dir, len))
		return 0;
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	if (xdg && xdg[0] == '/')
		snprintf(dir, len, "%s/wtg", xdg);
	else if (home && home[0] == '/')
		snprintf(dir, len, "%s/.local/share/wtg", home);
	else {
		snprintf(err, errlen, "the current folder is not writable and HOME is not set");
		return -1;
	}
	if (make_dirs(dir) < 0) {
		snprintf(err, errlen, "cannot make '%s': %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* Writes file k of a set to path, never replacing one: -1 with errno EEXIST when path exists. */
typedef int (*save_fn)(struct dash *d, int k, const char *path, char *err, size_t errlen);

/* The wall-clock time of the save set under way: every file of a set says it was written then (the
 * CSV's run name is the JSON's timestamp; a set that straddled a second named two runs). */
static int64_t set_written_ns;

/* DIR/BASE.EXT for every extension, else with -2, -3 ... after BASE, never over an existing file;
 * what one attempt wrote is removed when a later file of the set is taken. Returns 0 with the stem
 * (DIR/BASE[-N]) in stem, or -1 with err. */
static int save_set(struct dash *d, const char *dir, const char *base, const char *const *ext, int n,
		    save_fn fn, char *stem, size_t len, char *err, size_t errlen)
{
	for (int try = 1; try < 1000; try++) {
		if (try == 1)
			snprintf(stem, len, "%s/%s", dir, base);
		else
			snprintf(stem, len, "%s/%s-%d", dir, base, try);
		int k = 0, e = 0;
		char path[PATH_MAX + 160];
		for (; k < n; k++) {
			snprintf(path, sizeof path, "%s.%s", stem, ext[k]);
			if (fn(d, k, path, err, errlen) < 0) {
				e = errno;
				break;
			}
		}
		if (k == n)
			return 0;
		for (int j = 0; j < k; j++) {
			snprintf(path, sizeof path, "%s.%s", stem, ext[j]);
			unlink(path);
		}
		if (e != EEXIST)
			return -1;
	}
	snprintf(err, errlen, "every name for %s/%s is taken", dir, base);
	return -1;
}

/* The save set in the current folder, else in the data folder; shows where it went. */
static void save_files(struct dash *d, const char *prefix, const char *const *ext, int n, save_fn fn,
		       const char *what)
{
	char base[64], dir[PATH_MAX], stem[PATH_MAX + 128], err[PATH_MAX + 256] = "";
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	set_written_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	time_t now = ts.tv_sec;
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(base, sizeof base, "%Y%m%d-%H%M%S", &tm);
	char name[96];
	snprintf(name, sizeof name, "%s-%s", prefix, base);
	for (int fallback = 0; fallback < 2; fallback++) {
		if (save_dir(dir, sizeof dir, fallback, err, sizeof err) < 0 ||
		    save_set(d, dir, name, ext, n, fn, stem, sizeof stem, err, sizeof err) < 0)
			continue;
		char tail[128] = "";
		for (int k = 1; k < n; k++)
			snprintf(tail + strlen(tail), sizeof tail - strlen(tail), "%s.%s", k == n - 1 ? " and " : ", ",
				 ext[k]);
		/* in the current folder the name alone says where ("./wtg-...json"), whole on any line */
		const char *shown = stem, *slash = strrchr(stem, '/');
		char here[PATH_MAX], cwd[PATH_MAX];
		if (slash && getcwd(cwd, sizeof cwd) && strlen(cwd) == (size_t)(slash - stem) &&
		    strncmp(cwd, stem, (size_t)(slash - stem)) == 0) {
			snprintf(here, sizeof here, ".%s", slash);
			shown = here;
		}
		char full[PATH_MAX + 320];
		snprintf(full, sizeof full, "%s.%s%s", shown, ext[0], tail);
		dash_notice_path(d, TR_OK, what, full);
		return;
	}
	dash_notice(d, TR_ERR, "save failed: %s", err[0] ? err : "the report writer refused");
}

/* One more of a tab's runs for the save, or one more dropped when the list is full. */
static void add_earlier(struct wtg_report_earlier *e, const struct wtg_table *t, const struct wtg_machine *m,
			const char *label)
{
	if (e->n == WTG_REPORT_MAX_EARLIER) {
		e->dropped++;
		return;
	}
	e->t[e->n] = t;
	e->machine[e->n] = m;
	e->label[e->n++] = label;
}

/* Each tab's runs shown beside its current one, oldest first: the saved files' (their own earlier
 * runs, then the run itself), then this session's earlier runs; each labelled with its conditions,
 * a run that ended short saying so. A tab the session has not run is saved as the newest saved run
 * it shows (shown), the runs before it as its earlier ones; one whose last run ended short (or
 * still measures) after a completed one is saved as that completed run, the last run among the
 * others: a completed run is never displaced. */
static void collect_earlier(struct dash *d, struct wtg_report_earlier *er)
{
	static char labels[WTG_MAX_LOADS][WTG_MAX_EXP][128], live[WTG_MAX_EXP][128];
	for (int tab = 0; tab < wtg_nexperiments && tab < WTG_MAX_EXP; tab++) {
		struct wtg_report_earlier *e = &er[tab];
		const struct dash_hist *h = &d->hist[tab];
		memset(e, 0, sizeof *e);
		e->dropped = h->dropped;
		for (int i = 0; i < d->nloaded; i++)
			if (d->loaded[i].present[tab]) {
				e->shown = &d->loaded[i].tables[tab];
				e->shown_machine = &d->loaded[i].meta.machine;
			}
		const struct wtg_table *c = dash_displaced_by(d, tab, true);
		if (c) {
			e->shown = c;
			e->shown_machine = dash_machine_of(d, c) == &d->s->machine ? NULL : dash_machine_of(d, c);
			e->over = true;
		}
		for (int i = 0; i < d->nloaded; i++) {
			const struct wtg_loaded *l = &d->loaded[i];
			if (!l->present[tab])
				continue;
			for (int k = 0; k < l->nearlier[tab]; k++)
				add_earlier(e, &l->earlier[tab][k].t, &l->meta.machine, l->earlier[tab][k].label);
			add_earlier(e, &l->tables[tab], &l->meta.machine,
				    dash_loaded_label(d, i, tab, labels[i][tab], sizeof labels[i][tab]));
		}
		for (int k = 0; k < h->n; k++)	/* this session's: the report's machine */
			add_earlier(e, &h->t[k], NULL, h->label[k]);
		if (c) {
			dash_run_label(live[tab], sizeof live[tab], &d->snap[tab]);
			add_earlier(e, &d->snap[tab], NULL, live[tab]);
		}
	}
}

static int save_report(struct dash *d, int k, const char *path, char *err, size_t errlen)
{
	static const enum wtg_format fmt[] = { WTG_FMT_JSON, WTG_FMT_HTML, WTG_FMT_CSV };
	static struct wtg_report_earlier earlier[WTG_MAX_EXP];
	collect_earlier(d, earlier);
	return wtg_report_save_new(path, fmt[k], d->s, NULL, earlier, set_written_ns, err, errlen);
}

void dash_save_results(struct dash *d, int key)
{
	(void)key;
	static const char *const ext[] = { "json", "html", "csv" };
	save_files(d, "wtg", ext, 3, save_report, "saved");
}

/* Row y of the screen as UTF-8 without its trailing blanks. */
static void screen_line(int y, char *out, size_t len)
{
	size_t o = 0, keep = 0;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	for (int x = 0; x < COLS && o + MB_LEN_MAX + 1 < len; x++) {
		cchar_t c;
		wchar_t wc[CCHARW_MAX + 1];
		attr_t a;
		short pair;
		if (mvwin_wch(curscr, y, x, &c) == ERR || getcchar(&c, wc, &a, &pair, NULL) == ERR || !wc[0])
			wc[0] = L' ', wc[1] = L'\0';
		int w = wcwidth(wc[0]);
		for (int i = 0; wc[i] && o + MB_LEN_MAX + 1 < len; i++) {
			size_t n = wcrtomb(out + o, wc[i], &st);
			if (n == (size_t)-1) {
				out[o] = '?';
				n = 1;
				memset(&st, 0, sizeof st);
			}
			o += n;
		}
		if (wc[0] != L' ')
			keep = o;
		if (w > 1)
			x += w - 1;	/* the cells a wide character covers */
	}
	out[keep] = '\0';
}

/* The screen as plain text (no escape codes), in a new file. */
static int save_screen(struct dash *d, int k, const char *path, char *err, size_t errlen)
{
	(void)d;
	(void)k;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	int e = 0;
	if (!f) {
		e = errno;
		if (fd >= 0)
			close(fd);
	} else {
		size_t len = (size_t)COLS * (MB_LEN_MAX * 2) + 2;
		char *buf = malloc(len);
		for (int y = 0; buf && y < LINES; y++) {
			screen_line(y, buf, len);
			fprintf(f, "%s\n", buf);
		}
		e = !buf ? ENOMEM : fflush(f) != 0 || ferror(f) || fsync(fileno(f)) < 0 ? (errno ? errno : EIO) : 0;
		free(buf);
		if (fclose(f) != 0 && !e)
			e = errno ? errno : EIO;
		if (e)
			unlink(path);
	}
	if (e)
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
	errno = e;
	return e ? -1 : 0;
}

void dash_save_screen(struct dash *d, int key)
{
	(void)key;
	static const char *const ext[] = { "txt" };
	save_files(d, "wtg-screen", ext, 1, save_screen, "screen saved");
}
