/* machines.c: the machines view (wtg/fleet.h): more than 8 saved runs (or --summary) on a terminal.
 * Per headline figure one dot per machine on a log axis (a strip chart), the machines overall and
 * in each group (virtual machine, page-table isolation, clock source, page size, vendor, CPUs), the
 * quartiles and the median marked on each strip, the --highlight machine (else this one, when it is
 * among them) marked, and the line in words under them. Left/Right change the figure, Up/Down scroll the groups, q quits. */
#include "config.h"

#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui_internal.h"
#include "wtg/fleet.h"

#define MIN_COLS 60
#define MIN_ROWS 16
#define LABEL_W 18	/* a strip's label, its machines and median before it */

/* One strip: the machines overall (d -1) or of one group. */
struct strip {
	int d;
	const char *value;
};

struct mview {
	const struct wtg_fleet *fl;
	struct tui_look look;
	int highlight;
	int fig;		/* an index into figs */
	int figs[2 * WTG_MAX_EXP], nfigs;	/* the figures some machine has */
	int top;		/* the first group strip shown */
	bool over;		/* over the dashboard (m from its overlays): m goes back to it */
	char said[160];		/* what m says where it cannot go back, on the keys' line until a key */
};

static bool has_value(const struct wtg_fleet *fl, int i, int f)
{
	return fl->m[i].v && isfinite(fl->m[i].v[f]) && fl->m[i].v[f] > 0;
}

/* The strips of figure f: all, then each value of each dimension that differs. */
static int strips_of(const struct wtg_fleet *fl, int f, struct strip *s, int max)
{
	int n = 0;
	s[n++] = (struct strip){ -1, NULL };
	for (int d = 0; d < WTG_NDIMS; d++) {
		const char *vals[32];
		int nv = wtg_fleet_dim_values(fl, f, d, vals, 32);
		for (int k = 0; k < nv && nv > 1 && n < max; k++)
			s[n++] = (struct strip){ d, vals[k] };
	}
	return n;
}

/* "vm kvm", "no PTI", "clock tsc", "4 KiB pages", "AMD", "2 CPUs" (escaped). */
static void strip_label(const struct strip *s, char *buf, size_t len)
{
	char raw[128];
	if (s->d < 0)
		snprintf(raw, sizeof raw, "all");
	else if (strcmp(s->value, "unknown") == 0)
		snprintf(raw, sizeof raw, "%s unknown", wtg_fleet_dim_name(s->d));
	else if (s->d == WTG_DIM_VM)
		snprintf(raw, sizeof raw, strcmp(s->value, "bare metal") == 0 ? "%s" : "vm %s", s->value);
	else if (s->d == WTG_DIM_CLOCK)
		snprintf(raw, sizeof raw, "clock %s", s->value);
	else
		snprintf(raw, sizeof raw, "%s", s->value);
	wtg_escape(buf, len, raw);
}

/* A tick's label: 3 significant digits at most, k M G for thousands. */
static void tick_label(double v, char *buf, size_t len)
{
	static const char *const sfx[] = { "", "k", "M", "G", "T" };
	int k = 0;
	while (fabs(v) >= 1000 && k < 4)
		v /= 1000, k++;
	snprintf(buf, len, "%g%s", v, sfx[k]);
}

/* The column of x on a log axis [lo, hi] of w columns. */
static int column(double x, double lo, double hi, int w)
{
	if (hi <= lo)
		return w / 2;
	int c = (int)lround((log(x) - log(lo)) / (log(hi) - log(lo)) * (w - 1));
	return c < 0 ? 0 : c >= w ? w - 1 : c;
}

static void draw_strip(const struct mview *v, int y, int x0, int w, double lo, double hi, const struct strip *s)
{
	const struct wtg_fleet *fl = v->fl;
	const struct tui_glyphs *g = v->look.g;
	int f = v->figs[v->fig];
	struct wtg_fleet_stat st;
	wtg_fleet_stat(fl, f, s->d, s->value, &st);
	char label[64], med[32];
	strip_label(s, label, sizeof label);
	wtg_fleet_fmt(med, sizeof med, st.median);
	tui_put_clip(stdscr, y, 0, LABEL_W - 6, s->d < 0 ? A_BOLD : A_NORMAL, &v->look, label);
	tui_printf(stdscr, y, LABEL_W - 5, 5, tui_attr(&v->look, TR_DIM), "%4d", st.n);
	tui_printf(stdscr, y, LABEL_W, 8, A_NORMAL, "%7s", med);
	if (st.n == 0)
		return;
	int *count = calloc((size_t)w, sizeof *count);
	if (!count)
		return;
	int q1 = column(st.q1, lo, hi, w), q3 = column(st.q3, lo, hi, w), mc = column(st.median, lo, hi, w);
	attr_t axis = tui_attr(&v->look, TR_DIM);
	tui_repeat(stdscr, y, x0 + q1, q3 - q1 + 1, axis, g->ax_h);
	tui_put(stdscr, y, x0 + q1, 1, axis, v->look.utf8 ? "├" : "[");
	tui_put(stdscr, y, x0 + q3, 1, axis, v->look.utf8 ? "┤" : "]");
	for (int i = 0; i < fl->nm; i++)
		if (has_value(fl, i, f) && (s->d < 0 || strcmp(fl->m[i].dim[s->d], s->value) == 0))
			count[column(fl->m[i].v[f], lo, hi, w)]++;
	for (int c = 0; c < w; c++) {
		char digit[2] = { (char)('0' + (count[c] < 10 ? count[c] : 0)), '\0' };
		if (count[c] == 1)
			tui_put(stdscr, y, x0 + c, 1, tui_attr(&v->look, TR_S1), v->look.utf8 ? "•" : "o");
		else if (count[c] > 1)
			tui_put(stdscr, y, x0 + c, 1, tui_attr(&v->look, TR_S1) | A_BOLD,
				count[c] < 10 ? digit : v->look.utf8 ? "●" : "#");
	}
	/* the median over the dots, so that it is never hidden */
	tui_put(stdscr, y, x0 + mc, 1, tui_attr(&v->look, TR_S2) | A_BOLD, v->look.utf8 ? "┃" : "|");
	int h = v->highlight;
	if (h >= 0 && has_value(fl, h, f) && (s->d < 0 || strcmp(fl->m[h].dim[s->d], s->value) == 0))
		tui_put(stdscr, y, x0 + column(fl->m[h].v[f], lo, hi, w), 1, tui_attr(&v->look, TR_CUR), g->marker[1]);
	free(count);
}

/* The log axis under the strips: ticks at 1, 2, 5 x 10^k (only 10^k when those crowd), labelled
 * where there is room. */
static void draw_axis(const struct mview *v, int y, int x0, int w, double lo, double hi)
{
	attr_t a = tui_attr(&v->look, TR_DIM);
	tui_repeat(stdscr, y, x0, w, a, v->look.g->ax_h);
	double t[64];
	int n = wtg_fleet_ticks(lo, hi, w / 7, t, 64), last_end = -1;
	for (int k = 0; k < n; k++) {
		int c = column(t[k], lo, hi, w);
		char lab[16];
		tick_label(t[k], lab, sizeof lab);
		int lw = (int)strlen(lab), lx = c - lw / 2 < 0 ? 0 : c - lw / 2;
		tui_put(stdscr, y, x0 + c, 1, a, v->look.g->ax_xtick);
		if (lx > last_end && lx + lw <= w) {
			tui_put(stdscr, y + 1, x0 + lx, lw, a, lab);
			last_end = lx + lw;
		}
	}
}

static void draw(struct mview *v)
{
	const struct wtg_fleet *fl = v->fl;
	erase();
	int W = COLS, H = LINES;
	if (W < MIN_COLS || H < MIN_ROWS) {
		tui_printf(stdscr, 0, 0, W, A_BOLD, "terminal too small: need %dx%d, have %dx%d", MIN_COLS, MIN_ROWS, W, H);
		refresh();
		tui_record_frame();
		return;
	}
	int f = v->figs[v->fig];
	const struct wtg_fleet_fig *fg = &fl->figs[f];
	const struct wtg_headline *h = fg->h;
	tui_printf(stdscr, 0, 0, W, tui_attr(&v->look, TR_TITLE), "wtg%s%d machine%s, %d run%s%sfigure %d of %d",
		   v->look.g->sep, fl->nm, fl->nm == 1 ? "" : "s", fl->runs, fl->runs == 1 ? "" : "s", v->look.g->sep,
		   v->fig + 1, v->nfigs);
	tui_printf(stdscr, 1, 0, W, A_BOLD, "%s: %s (%s%s%s)", fg->name, h->figure, h->unit ? h->unit : "",
		   h->unit && *h->unit ? ", " : "", h->higher_better ? "higher is better" : "lower is better");
	char legend[512], who[128] = "";
	if (v->highlight >= 0)
		wtg_escape(who, sizeof who, fl->m[v->highlight].name);
	snprintf(legend, sizeof legend, "%s a machine, 2-9 several  %s quartiles  %s median%s%s%s", v->look.utf8 ? "•" : "o",
		 v->look.utf8 ? "├─┤" : "[-]", v->look.utf8 ? "┃" : "|", who[0] ? "  " : "", who[0] ? v->look.g->marker[1] : "",
		 "");
	int lx = tui_put(stdscr, 2, 0, W, tui_attr(&v->look, TR_DIM), legend);
	if (who[0])
		tui_printf(stdscr, 2, lx, W - lx, tui_attr(&v->look, TR_DIM), " this one (%s)", who);
	double lo = INFINITY, hi = -INFINITY;
	for (int i = 0; i < fl->nm; i++)
		if (has_value(fl, i, f)) {
			lo = fmin(lo, fl->m[i].v[f]);
			hi = fmax(hi, fl->m[i].v[f]);
		}
	if (hi / lo < 1.2) {	/* one value, or nearly: a window around it */
		double mid = sqrt(lo * hi);
		lo = mid / 1.1, hi = mid * 1.1;
	}
	struct strip s[1 + WTG_NDIMS * 32];
	int ns = strips_of(fl, f, s, (int)WTG_ARRAY_LEN(s));
	int x0 = LABEL_W + 9, w = W - x0 - 1;
	int rows = H - 3 - 2 - 3 - 1;	/* header 3, axis 2, the line in words 3, keys 1 */
	int groups = ns - 1, shown = rows - 1 < groups ? rows - 1 : groups;
	if (v->top > groups - shown)
		v->top = groups - shown;
	if (v->top < 0)
		v->top = 0;
	draw_strip(v, 3, x0, w, lo, hi, &s[0]);
	for (int k = 0; k < shown; k++)
		draw_strip(v, 4 + k, x0, w, lo, hi, &s[1 + v->top + k]);
	int ay = 4 + shown;
	draw_axis(v, ay, x0, w, lo, hi);
	if (groups > shown)
		tui_printf(stdscr, ay, 0, x0 - 1, tui_attr(&v->look, TR_DIM), "groups %d-%d of %d", v->top + 1,
			   v->top + shown, groups);
	char line[1024], shown_line[2048];
	wtg_fleet_line(fl, f, v->highlight, line, sizeof line);
	wtg_escape(shown_line, sizeof shown_line, line);
	tui_wrap_clip(stdscr, ay + 2, 0, W, 3, A_NORMAL, &v->look, false, shown_line);
	char keys[512];
	int kn = v->said[0] ? snprintf(keys, sizeof keys, "%s", v->said)
			    : snprintf(keys, sizeof keys, "%s%s figure  Up/Down groups  %sq quit", v->look.g->left,
				       v->look.g->right, v->over ? "m back  " : "");
	if (fl->left_out && kn > 0 && (size_t)kn < sizeof keys) {
		const char *base = strrchr(fl->left[0], '/');
		char name[256];
		wtg_escape(name, sizeof name, base ? base + 1 : fl->left[0]);
		snprintf(keys + kn, sizeof keys - (size_t)kn, "%s%d report%s left out: %s%s", v->look.g->sep, fl->left_out,
			 fl->left_out == 1 ? "" : "s", name, fl->left_out > 1 ? " ..." : "");
	}
	tui_put_clip(stdscr, H - 1, 0, W, tui_attr(&v->look, fl->left_out ? TR_WARN : TR_DIM), &v->look, keys);
	refresh();
	tui_record_frame();
}

/* Keys until q, m over the dashboard, a terminating signal or the terminal going away; returns the
 * signal, 0 for q, -1 for m. */
static int loop(struct mview *v)
{
	draw(v);
	for (;;) {
		struct pollfd pf[2] = { { .fd = STDIN_FILENO, .events = POLLIN }, { .fd = tui_signal_fd(), .events = POLLIN } };
		if (poll(pf, 2, -1) < 0)
			continue;
		if (pf[0].revents & (POLLHUP | POLLERR))
			return SIGHUP;	/* the terminal went away */
		if (pf[1].revents) {
			bool cont = false;
			int sig = tui_signal_take(&cont);
			if (sig)
				return sig;
			if (cont)
				tui_screen_resume();
			draw(v);
		}
		int ch;
		while ((ch = getch()) != ERR) {
			v->said[0] = '\0';
			switch (ch) {
			case 'q': case 'Q':
				return 0;
			case 27:	/* Esc: back to the dashboard, or out */
				return v->over ? -1 : 0;
			case 'm':
				if (v->over)
					return -1;
				snprintf(v->said, sizeof v->said, "m: the runs overlaid are at most %d; these are %d runs",
					 WTG_MAX_LOAD_FILES, v->fl->runs);
				break;
			case KEY_RIGHT: case KEY_NPAGE: case 'l': case ' ':
				v->fig = (v->fig + 1) % v->nfigs;
				v->top = 0;
				break;
			case KEY_LEFT: case KEY_PPAGE: case 'h':
				v->fig = (v->fig + v->nfigs - 1) % v->nfigs;
				v->top = 0;
				break;
			case KEY_DOWN: case 'j':
				v->top++;
				break;
			case KEY_UP: case 'k':
				v->top--;
				break;
			default:
				break;
			}
			draw(v);
		}
	}
}

/* The --load files read into fl as machines, the machine marked and the figures to draw: 0, or the
 * exit status after the line saying why not (in msg when given, else on stderr). */
static int setup(const struct wtg_options *o, struct wtg_fleet *fl, struct mview *v, char *msg, size_t len)
{
	v->fl = fl;
	if (wtg_fleet_read(o, fl, &v->highlight))
		return 2;
	char host[256] = "";
	if (v->highlight < 0 && gethostname(host, sizeof host - 1) == 0 && host[0])
		for (int i = 0; i < fl->nm && v->highlight < 0; i++)
			if (strcmp(fl->m[i].host, host) == 0)
				v->highlight = i;	/* this machine, when it is among them */
	for (int f = 0; f < fl->nfigs; f++)
		for (int i = 0; i < fl->nm; i++)
			if (has_value(fl, i, f)) {
				v->figs[v->nfigs++] = f;
				break;
			}
	if (v->nfigs == 0) {
		if (msg)
			snprintf(msg, len, "none of the %d machines has a headline figure to draw", fl->nm);
		else
			wtg_error("none of the %d machines has a headline figure to draw", fl->nm);
		wtg_fleet_free(fl);
		return 1;
	}
	return 0;
}

int tui_machines_over(const struct wtg_options *o, const struct tui_look *look, char *msg, size_t len)
{
	static struct wtg_fleet fl;
	struct mview v = { .look = *look, .over = true };
	msg[0] = '\0';
	if (setup(o, &fl, &v, msg, len)) {
		if (!msg[0])
			snprintf(msg, len, "the saved runs could not be read again as machines");
		return -2;
	}
	int rc = loop(&v);
	wtg_fleet_free(&fl);
	clearok(curscr, TRUE);	/* the dashboard's screen again, every cell */
	return rc < 0 ? 0 : rc == 0 ? -1 : rc;
}

int wtg_tui_machines(const struct wtg_options *o)
{
	static struct wtg_fleet fl;
	struct mview v = { 0 };
	int rc = setup(o, &fl, &v, NULL, 0);
	if (rc)
		return rc;
	if (tui_screen_open(&v.look, o) < 0) {
		wtg_fleet_free(&fl);
		return 1;
	}
	int sig = loop(&v);
	tui_screen_close();
	int failed = tui_record_end(true);
	int left = fl.left_out;
	wtg_fleet_free(&fl);
	if (sig)
		return 128 + sig;
	return left || failed ? 1 : 0;
}
