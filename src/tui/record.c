/* record.c: --record=FILE.cast, the screen as an asciicast v2 recording (the format asciinema plays
 * and slides embed): a header line with the terminal's size, then one event per frame,
 * [seconds, "o", "what the terminal was sent"], and [seconds, "r", "COLSxLINES"] when it is resized.
 *
 * After each frame the screen curses has put on the terminal (curscr) is compared with the last
 * one recorded, and the cells that changed are written as cursor moves, SGR attributes and UTF-8
 * text: the recording never reads or delays what curses writes to the terminal, costs a compare of
 * the screen per frame, and replayed into a terminal of the same size draws the same screen.
 *
 * Events are kept in memory and written out in blocks. A regular file (or a name to make one) is
 * written to an unnamed spool file in its folder during the session, so that nothing is left
 * behind by a crash, then saved whole at the end through a temp file and a rename (the checks of
 * -o: a file wtg reads is never written). A pipe, a terminal or a device is written in place, never
 * waited on: what it does not take stays in memory up to a bound. A failed write (a full disk, a
 * reader gone) stops the recording, says so once on the status line and once on stderr at the end;
 * the dashboard goes on. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "tui_internal.h"
#include "wtg/report.h"

#define FLUSH_AT (256u << 10)		/* written out in blocks of this size */
#define BEHIND_MAX (16u << 20)		/* a pipe's reader may fall this far behind */
#define LAST_WAIT_MS 2000		/* ... and at the end, take the rest in pauses of at most this */

static struct {
	bool on;			/* recording (false: never asked, or stopped) */
	bool spool;			/* fd is an unnamed spool file, saved to path at the end */
	const char *path;
	int fd;
	int64_t t0;			/* the header's moment, events count from it */
	int rows, cols;			/* the size recorded last */
	cchar_t *shadow;		/* the screen as the recording left it, rows x cols */
	char *buf;			/* events not yet written */
	size_t len, cap;
	off_t whole;			/* the spool's bytes that end with a whole event */
	double last_s;			/* the last event's time */
	char failed[PATH_MAX + 160];	/* why it stopped ("" when it did not) */
	char brief[160];		/* ... in a few words, for the status line */
	bool told;			/* the status line said it */
} rec = { .fd = -1 };

/* ---- the events' text ---- */

static void grow(size_t more)
{
	if (!rec.on || rec.len + more <= rec.cap)
		return;
	size_t cap = rec.cap ? rec.cap : 64 << 10;
	while (cap < rec.len + more)
		cap *= 2;
	char *b = realloc(rec.buf, cap);
	if (!b) {
		rec.on = false;
		snprintf(rec.failed, sizeof rec.failed, "--record '%s': out of memory", rec.path);
		return;
	}
	rec.buf = b;
	rec.cap = cap;
}

static void put(const char *s, size_t n)
{
	grow(n);
	if (!rec.on)
		return;
	memcpy(rec.buf + rec.len, s, n);
	rec.len += n;
}

static void puts_(const char *s)
{
	put(s, strlen(s));
}

static void put_json(const char *s, size_t n);

/* printf into the events: as it is (json false: the event's frame), or escaped into the event's
 * string (json true: terminal text made by wtg, cursor moves and attributes). */
static void put_fmt(bool json, const char *fmt, ...) WTG_PRINTF(2, 3);
static void put_fmt(bool json, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	size_t len = n <= 0 ? 0 : (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1;
	if (json)
		put_json(tmp, len);
	else
		put(tmp, len);
}

/* s as the inside of a JSON string: ", \ and control characters escaped (s is UTF-8). */
static void put_json(const char *s, size_t n)
{
	size_t plain = 0;	/* the bytes before i that need no escape, copied at once */
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c != '"' && c != '\\' && c >= 0x20 && c != 0x7f)
			continue;
		put(s + plain, i - plain);
		plain = i + 1;
		if (c == '"' || c == '\\')
			put_fmt(false, "\\%c", c);
		else
			put_fmt(false, "\\u%04x", c);
	}
	put(s + plain, n - plain);
}

/* wc as UTF-8 into out (4 bytes at most), whatever the locale: an asciicast is UTF-8. The bytes;
 * what is no Unicode scalar value becomes '?'. */
static size_t utf8(wchar_t wc, char *out)
{
	unsigned long c = (unsigned long)wc;
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | c >> 6), out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000 && (c < 0xd800 || c > 0xdfff)) {
		out[0] = (char)(0xe0 | c >> 12), out[1] = (char)(0x80 | (c >> 6 & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	if (c >= 0x10000 && c < 0x110000) {
		out[0] = (char)(0xf0 | c >> 18), out[1] = (char)(0x80 | (c >> 12 & 0x3f));
		out[2] = (char)(0x80 | (c >> 6 & 0x3f)), out[3] = (char)(0x80 | (c & 0x3f));
		return 4;
	}
	out[0] = '?';
	return 1;
}

/* A JSON string from outside wtg (the environment): bytes that are not UTF-8 become U+FFFD. */
static void put_json_env(const char *s)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	put("\"", 1);
	for (size_t n = strlen(s); n > 0;) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s, n, &st);
		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			puts_("\xef\xbf\xbd");
			memset(&st, 0, sizeof st);
			k = 1;
		} else {
			put_json(s, k);
		}
		s += k, n -= k;
	}
	put("\"", 1);
}

static double seconds(void)
{
	double t = (double)(wtg_now_ns() - rec.t0) / 1e9;
	if (t < rec.last_s)
		t = rec.last_s;	/* events in order, whatever the clock */
	rec.last_s = t;
	return t;
}

/* ---- writing out ---- */

static void stop(int err, const char *how)
{
	snprintf(rec.brief, sizeof rec.brief, "recording stopped at %.1f s: %s%s", rec.last_s, strerror(err), how);
	snprintf(rec.failed, sizeof rec.failed, "--record '%s': %s%s; stopped after %.1f s", rec.path, strerror(err),
		 how, rec.last_s);
	rec.on = false;
	free(rec.buf);
	rec.buf = NULL;
	rec.len = rec.cap = 0;
	if (rec.spool && rec.whole >= 0 && ftruncate(rec.fd, rec.whole) < 0)
		rec.whole = -1;	/* a half event at the end: nothing is saved */
}

/* What the buffer holds, to the file; in place, what a pipe does not take now waits (up to
 * BEHIND_MAX). */
static void flush(bool last)
{
	size_t done = 0;
	while (rec.on && done < rec.len) {
		ssize_t n = write(rec.fd, rec.buf + done, rec.len - done);
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && !rec.spool) {
			if (!last && rec.len - done <= BEHIND_MAX)
				break;
			struct pollfd pf = { .fd = rec.fd, .events = POLLOUT };
			if (last && poll(&pf, 1, LAST_WAIT_MS) > 0)
				continue;	/* at the end, its reader is given a moment */
			stop(EAGAIN, last ? " (its reader took no more at the end)" : " (its reader fell behind)");
			return;
		}
		stop(n < 0 ? errno : EIO, "");
		return;
	}
	if (!rec.on)
		return;
	memmove(rec.buf, rec.buf + done, rec.len - done);
	rec.len -= done;
	if (rec.spool && rec.len == 0)
		rec.whole = lseek(rec.fd, 0, SEEK_CUR);
}

/* One event line ends: into a spool when enough has gathered, in place (a pipe a player reads)
 * at once. */
static void event_end(void)
{
	puts_("\"]\n");
	if (rec.on && (!rec.spool || rec.len >= FLUSH_AT))
		flush(false);
}

/* ---- the screen ---- */

/* The SGR sequence for a cell's attributes and colour pair. */
static void put_sgr(attr_t a, short pair)
{
	short fg = -1, bg = -1;
	if (pair > 0)
		pair_content(pair, &fg, &bg);
	put_fmt(true, "\x1b[0%s%s%s%s%s", a & A_BOLD ? ";1" : "", a & A_DIM ? ";2" : "",
		a & A_UNDERLINE ? ";4" : "", a & A_BLINK ? ";5" : "", a & A_REVERSE ? ";7" : "");
	if (fg >= 0)
		put_fmt(true, ";%d", fg < 8 ? 30 + fg : fg < 16 ? 82 + fg : 38);
	if (fg >= 16)
		put_fmt(true, ";5;%d", fg);
	if (bg >= 0)
		put_fmt(true, ";%d", bg < 8 ? 40 + bg : bg < 16 ? 92 + bg : 48);
	if (bg >= 16)
		put_fmt(true, ";5;%d", bg);
	put("m", 1);
}

/* The columns wc takes; those the dashboard draws most (ASCII, Latin, box drawing, blocks, braille)
 * without asking the locale. */
static int width(wchar_t wc)
{
	if ((wc >= 0x20 && wc < 0x300) || (wc >= 0x2500 && wc < 0x2600) || (wc >= 0x2800 && wc < 0x2900))
		return 1;
	return wcwidth(wc);
}

/* Row y of curscr, a cell a column: curses gives a double-width character once (chars, scratch of
 * cols + 1), the row holds it in both its columns. */
static bool read_row(int y, cchar_t *chars, cchar_t *row)
{
	memset(chars, 0, sizeof *chars * ((size_t)rec.cols + 1));
	memset(row, 0, sizeof *row * (size_t)rec.cols);
	if (mvwin_wchnstr(curscr, y, 0, chars, rec.cols) == ERR)
		return false;
	for (int i = 0, x = 0; i < rec.cols && x < rec.cols && chars[i].chars[0]; i++) {
		row[x++] = chars[i];
		if (chars[i].chars[0] >= 0x300 && width(chars[i].chars[0]) == 2 && x < rec.cols)
			row[x++] = chars[i];
	}
	return true;
}

/* A cursor move to row y, column x (from 1), escaped into the event's string. */
static void put_move(int y, int x)
{
	char b[32];
	int n = 0;
	b[n++] = '\\', b[n++] = 'u', b[n++] = '0', b[n++] = '0', b[n++] = '1', b[n++] = 'b', b[n++] = '[';
	n += snprintf(b + n, sizeof b - (size_t)n, "%d;%dH", y, x);
	put(b, (size_t)n);
}

/* The cells of curscr that differ from the shadow (all of them when all is set), as text that
 * draws them; the shadow then holds curscr. */
static void put_changes(bool all)
{
	attr_t cur_a = 0;
	short cur_p = 0;
	bool sgr_known = false;
	int cy = -1, cx = -1;
	cchar_t *row = calloc(2 * ((size_t)rec.cols + 1), sizeof *row), *chars = row + rec.cols + 1;
	if (!row)
		return;
	for (int y = 0; y < rec.rows; y++) {
		cchar_t *sh = rec.shadow + (size_t)y * (size_t)rec.cols;
		if (!read_row(y, chars, row))
			continue;
		if (!all && memcmp(row, sh, sizeof *row * (size_t)rec.cols) == 0)
			continue;
		bool right = false;	/* x is the right half of a double-width character */
		for (int x = 0; x < rec.cols; x++) {
			if (right) {
				right = false;
				continue;	/* drawn with its left half */
			}
			right = row[x].chars[0] >= 0x300 && width(row[x].chars[0]) == 2;
			if (!all && memcmp(&row[x], &sh[x], sizeof *row) == 0)
				continue;
			wchar_t wc[CCHARW_MAX + 1];
			attr_t a;
			short p;
			if (getcchar(&row[x], wc, &a, &p, NULL) == ERR || wc[0] == 0)
				wc[0] = L' ', wc[1] = 0;
			int w = width(wc[0]);
			if (w <= 0 || wc[0] < L' ')
				wc[0] = L'?', wc[1] = 0, w = 1;
			if (y != cy || x != cx)
				put_move(y + 1, x + 1);
			a &= A_BOLD | A_DIM | A_UNDERLINE | A_BLINK | A_REVERSE;
			if (!sgr_known || a != cur_a || p != cur_p)
				put_sgr(a, p);
			sgr_known = true, cur_a = a, cur_p = p;
			char mb[4 * CCHARW_MAX];
			size_t n = 0;
			for (int k = 0; k < CCHARW_MAX && wc[k]; k++)
				n += utf8(wc[k], mb + n);
			put_json(mb, n);
			cy = y, cx = x + (w > 1 ? w : 1);
			if (cx >= rec.cols)
				cy = -1;	/* terminals differ at the last column: move explicitly */
		}
		memcpy(sh, row, sizeof *row * (size_t)rec.cols);
	}
	free(row);
	if (sgr_known)
		puts_("\\u001b[0m");
}

/* The shadow at the size curses has now; false when out of memory (the recording stops). */
static bool resize_shadow(void)
{
	free(rec.shadow);
	rec.rows = LINES, rec.cols = COLS;
	rec.shadow = calloc((size_t)rec.rows * (size_t)rec.cols + 1, sizeof *rec.shadow);
	if (!rec.shadow) {
		rec.on = false;
		snprintf(rec.failed, sizeof rec.failed, "--record '%s': out of memory", rec.path);
	}
	return rec.shadow != NULL;
}

void tui_record_frame(void)
{
	if (!rec.on)
		return;
	bool all = false;
	if (rec.shadow == NULL || LINES != rec.rows || COLS != rec.cols) {
		if (rec.shadow) {	/* a resize: the new size, then the whole screen again */
			put_fmt(false, "[%.6f, \"r\", \"%dx%d\"]\n", seconds(), COLS, LINES);
		}
		if (!resize_shadow())
			return;
		all = true;
	}
	size_t mark = rec.len;
	put_fmt(false, "[%.6f, \"o\", \"", seconds());
	size_t body = rec.len;
	if (all)
		puts_("\\u001b[0m\\u001b[H\\u001b[2J");
	put_changes(all);
	if (!rec.on)
		return;
	if (rec.len == body) {	/* nothing changed: no event */
		rec.len = mark;
		return;
	}
	event_end();
}

/* ---- start and end ---- */

/* The spool: unnamed in the recording's folder (nothing to leave behind), else a name removed at
 * once. -1 with errno. */
static int spool_open(const char *path)
{
	char folder[PATH_MAX];
	wtg_path_split(path, folder, sizeof folder);
	int fd = open(folder, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
	char tmp[PATH_MAX + 32];
	snprintf(tmp, sizeof tmp, "%s/.wtg-record-XXXXXX", folder);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd >= 0)
		unlink(tmp);
	return fd;
}

int tui_record_start(const struct wtg_options *o)
{
	if (!o->record)
		return 0;
	memset(&rec, 0, sizeof rec);
	rec.path = o->record;
	struct stat st;
	rec.spool = !(stat(o->record, &st) == 0 && !S_ISREG(st.st_mode));
	rec.fd = rec.spool ? spool_open(o->record) : open(o->record, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (rec.fd < 0) {
		if (errno == ENXIO)	/* a FIFO opened without waiting */
			wtg_error("--record '%s': no program reads this FIFO yet: start the player first", o->record);
		else
			wtg_error("--record '%s': %s", o->record, strerror(errno));
		return -1;
	}
	rec.on = true;
	return 0;
}

void tui_record_header(void)
{
	if (!rec.on)
		return;
	rec.t0 = wtg_now_ns();
	put_fmt(false, "{\"version\": 2, \"width\": %d, \"height\": %d, \"timestamp\": %lld, \"env\": {\"TERM\": ",
		COLS, LINES, (long long)time(NULL));
	const char *term = getenv("TERM"), *shell = getenv("SHELL");
	put_json_env(term ? term : "");
	puts_(", \"SHELL\": ");
	put_json_env(shell ? shell : "");
	puts_("}}\n");
	rec.rows = LINES, rec.cols = COLS;
}

bool tui_record_stopped(char *msg, size_t len)
{
	if (rec.told || !rec.failed[0])
		return false;
	rec.told = true;
	snprintf(msg, len, "%s", rec.brief[0] ? rec.brief : "recording stopped: out of memory");
	return true;
}

/* Copies the spool into the file the save makes. */
static int copy_spool(FILE *f, void *arg)
{
	(void)arg;
	char b[1 << 16];
	ssize_t n;
	if (lseek(rec.fd, 0, SEEK_SET) < 0)
		return -1;
	while ((n = read(rec.fd, b, sizeof b)) > 0)
		if (fwrite(b, 1, (size_t)n, f) != (size_t)n)
			return -1;
	return n < 0 ? -1 : 0;
}

int tui_record_end(bool keep)
{
	if (!rec.path)
		return 0;
	if (rec.on && keep)
		flush(true);
	int rc = 0;
	if (!keep) {
		/* nothing was shown: nothing to keep */
	} else if (rec.spool && (rec.on || rec.whole > 0)) {
		char err[PATH_MAX + 256];
		if (wtg_report_save_with(rec.path, copy_spool, NULL, err, sizeof err) < 0) {
			wtg_error("--record: %s", err);
			rc = 1;
		} else if (rec.failed[0]) {
			wtg_error("%s ('%s' holds what came before)", rec.failed, rec.path);
			rc = 1;
		}
	} else if (rec.failed[0]) {
		wtg_error("%s%s", rec.failed, rec.spool ? "; nothing written" : "");
		rc = 1;
	}
	if (rec.fd >= 0)
		close(rec.fd);
	free(rec.buf);
	free(rec.shadow);
	memset(&rec, 0, sizeof rec);
	rec.fd = -1;
	return rc;
}
