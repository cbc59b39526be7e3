/* dashboard.c: the layout, the keys and the loop. The UI thread sleeps in poll() on the terminal,
 * the worker's wake fd and the signal pipe; it copies what it shows out of the tables under their
 * locks, redraws only the windows whose inputs changed, and never waits for the worker. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "wtg/conditions.h"
#include "wtg/probe.h"
#include "wtg/report.h"
#include "tui_internal.h"

#define MIN_ROWS 24
#define MIN_COLS 80
#define TICK_MS 250		/* animation rate while something moves (progress, time left) */
#define FRAME_MIN_NS 30000000LL	/* rows landing faster than this share a frame */
#define NOTICE_NS 6000000000LL
#define STARVED_NS 2000000000LL
#define PANEL_H 5

struct run_info {
	int idx;
	enum wtg_state state;
	int step, nsteps;
	char label[64];
	int64_t started_ns, finished_ns, expected_ns;
	int nrows;
};

struct dash {
	struct wtg_session *s;
	struct tui_look look;
	int rows, cols;
	bool small;
	WINDOW *hdr, *tabs, *box, *view, *pt, *pf, *pc, *prog, *status, *help;

	int tab, tab_first;
	struct wtg_table snap[WTG_MAX_EXP];
	bool tried[WTG_MAX_EXP];	/* auto-run at most once per tab */

	uint64_t sig_hdr, sig_tabs, sig_box, sig_body, sig_panels, sig_prog, sig_status;

	bool paused;
	int paused_idx;
	bool autoplay, ap_holding;
	int ap_idx;
	int64_t ap_t0, ap_hold_until;
	bool help_on;
	bool blank;			/* '.': a black screen until the next key (a clicker's blank button) */
	int64_t resident, resident_at;	/* the data file's pages in the page cache (-1 unknown), when read */
	char notice[PATH_MAX + 256];
	enum tui_role notice_role;
	int notice_path;		/* where the path of a path notice starts, 0 for none */
	int64_t notice_until;
	int64_t stall_ns;		/* the watchdog's: no heartbeat for this long */
	uint64_t step_key;		/* the running experiment's step, to see it stand still */
	int64_t step_since;
	int64_t t_start;
	int64_t last_frame;
	struct stat file_st;		/* --file: its size, for the scan's progress */
	bool file_st_ok;
};

/* ---- small things ---- */

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0x100000001b3ull;
}

static uint64_t mix_str(uint64_t h, const char *s)
{
	while (*s)
		h = mix(h, (unsigned char)*s++);
	return h;
}

static void notice(struct dash *d, enum tui_role role, const char *fmt, ...) WTG_PRINTF(3, 4);
static void notice(struct dash *d, enum tui_role role, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->notice, sizeof d->notice, fmt, ap);
	va_end(ap);
	d->notice_role = role;
	d->notice_path = 0;
	d->notice_until = wtg_now_ns() + NOTICE_NS;
}

/* "WHAT PATH" in the status line; when drawn, the path is shortened from the left to the width
 * there is (never cut at the right), so that its end, the file's name, stays in view. */
static void notice_path(struct dash *d, enum tui_role role, const char *what, const char *path)
{
	notice(d, role, "%s %s", what, path);
	d->notice_path = (int)strlen(what) + 1;
}

/* The notice in at most width columns: a path notice loses the start of its path to an ellipsis. */
static void notice_fit(const struct dash *d, char *out, size_t len, int width)
{
	wtg_strlcpy(out, d->notice, len);
	if (d->notice_path <= 0 || tui_width(out) <= width)
		return;
	const char *ell = d->look.g->ellipsis, *p = d->notice + d->notice_path;
	int room = width - d->notice_path - tui_width(ell);
	while (*p && tui_width(p) > room) {
		p++;
		while ((*p & 0xc0) == 0x80)
			p++;	/* a whole character at a time */
	}
	snprintf(out, len, "%.*s%s%s", d->notice_path, d->notice, ell, p);
}

static bool built(int idx)
{
	return idx >= 0 && idx < wtg_nexperiments && wtg_experiments[idx]->run != NULL;
}

static void run_info(struct wtg_session *s, int idx, struct run_info *ri)
{
	memset(ri, 0, sizeof *ri);
	ri->idx = idx;
	if (idx < 0)
		return;
	struct wtg_table *t = &s->tables[idx];
	pthread_mutex_lock(&t->lock);
	ri->state = t->state;
	ri->step = t->step;
	ri->nsteps = t->nsteps;
	wtg_strlcpy(ri->label, t->step_label, sizeof ri->label);
	ri->started_ns = t->started_ns;
	ri->finished_ns = t->finished_ns;
	ri->expected_ns = t->expected_ns;
	ri->nrows = t->nrows;
	pthread_mutex_unlock(&t->lock);
}

/* Position of idx in the worker's queue, or -1. */
static int queue_pos(struct wtg_session *s, int idx)
{
	int pos = -1;
	pthread_mutex_lock(&s->qlock);
	for (int i = 0; i < s->qlen && pos < 0; i++)
		if (s->queue[i] == idx)
			pos = i;
	pthread_mutex_unlock(&s->qlock);
	return pos;
}

static void fmt_left(char *buf, size_t len, double ns)
{
	if (!(ns >= 0))
		snprintf(buf, len, "estimating time left");
	else if (ns < 1e9)
		snprintf(buf, len, "less than 1 s left");
	else if (ns < 120e9)
		snprintf(buf, len, "about %.0f s left", ns / 1e9);
	else
		snprintf(buf, len, "about %.0f min left", ns / 60e9);
}

/* ---- the private copies of the tables ---- */

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		static const char msg[] = "wtg: out of memory\n";
		(void)!write(2, msg, sizeof msg - 1);
		abort();
	}
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s ? s : "") + 1;
	char *d = xmalloc(n);
	memcpy(d, s ? s : "", n);
	return d;
}

/* Whether src holds what dst already copied. Within a run rows, checks, notes and series are only
 * appended, and a rerun starts at a new time, so the counts, the start, the state and the error
 * tell. */
static bool same_content(const struct wtg_table *dst, const struct wtg_table *src)
{
	return dst->started_ns == src->started_ns && dst->state == src->state && dst->ncols == src->ncols &&
	       dst->nrows == src->nrows && dst->nchecks == src->nchecks && dst->nnotes == src->nnotes &&
	       dst->nseries == src->nseries && dst->has_total == src->has_total &&
	       memcmp(dst->cols, src->cols, sizeof dst->cols) == 0 && strcmp(dst->error, src->error) == 0;
}

bool tui_table_copy(struct wtg_table *dst, struct wtg_table *src, bool force)
{
	pthread_mutex_lock(&src->lock);
	if (!force && dst->gen == src->gen) {
		pthread_mutex_unlock(&src->lock);
		return false;
	}
	if (!force && same_content(dst, src)) {
		/* only the progress moved: the series are not copied again for it */
		dst->step = src->step;
		dst->nsteps = src->nsteps;
		memcpy(dst->step_label, src->step_label, sizeof dst->step_label);
		dst->finished_ns = src->finished_ns;
		dst->expected_ns = src->expected_ns;
		dst->gen = src->gen;
		pthread_mutex_unlock(&src->lock);
		return true;
	}
	wtg_table_reset(dst);
	dst->ncols = src->ncols;
	memcpy(dst->cols, src->cols, sizeof dst->cols);
	int width = src->ncols > 0 ? src->ncols : 1;
	dst->rows = xmalloc((size_t)src->nrows * sizeof *dst->rows);
	for (int r = 0; r < src->nrows; r++) {
		dst->rows[r] = src->rows[r];
		dst->rows[r].v = xmalloc((size_t)width * sizeof *dst->rows[r].v);
		for (int c = 0; c < width; c++) {
			dst->rows[r].v[c] = src->rows[r].v[c];
			if (dst->rows[r].v[c].type == WTG_T_TEXT)
				dst->rows[r].v[c].s = xstrdup(src->rows[r].v[c].s);
		}
	}
	dst->nrows = dst->caprows = src->nrows;
	dst->checks = xmalloc((size_t)src->nchecks * sizeof *dst->checks);
	for (int i = 0; i < src->nchecks; i++) {
		dst->checks[i].name = xstrdup(src->checks[i].name);
		dst->checks[i].status = src->checks[i].status;
		dst->checks[i].detail = xstrdup(src->checks[i].detail);
	}
	dst->nchecks = dst->capchecks = src->nchecks;
	dst->notes = xmalloc((size_t)src->nnotes * sizeof *dst->notes);
	for (int i = 0; i < src->nnotes; i++)
		dst->notes[i] = xstrdup(src->notes[i]);
	dst->nnotes = dst->capnotes = src->nnotes;
	dst->series = xmalloc((size_t)src->nseries * sizeof *dst->series);
	for (int i = 0; i < src->nseries; i++) {
		const struct wtg_series *a = &src->series[i];
		struct wtg_series *b = &dst->series[i];
		b->name = xstrdup(a->name);
		b->unit = xstrdup(a->unit);
		b->n = a->n;
		b->v = xmalloc(a->n * sizeof *b->v);
		if (a->n)
			memcpy(b->v, a->v, a->n * sizeof *b->v);
	}
	dst->nseries = dst->capseries = src->nseries;
	dst->state = src->state;
	memcpy(dst->error, src->error, sizeof dst->error);
	dst->step = src->step;
	dst->nsteps = src->nsteps;
	memcpy(dst->step_label, src->step_label, sizeof dst->step_label);
	dst->started_ns = src->started_ns;
	dst->finished_ns = src->finished_ns;
	dst->expected_ns = src->expected_ns;
	dst->total = src->total;
	dst->has_total = src->has_total;
	dst->gen = src->gen;
	pthread_mutex_unlock(&src->lock);
	return true;
}

/* ---- views: the dispatcher ---- */

/* Lines the body of a view wants before the footer gets any. */
static int body_wants(const struct tui_view *v)
{
	const struct wtg_table *t = v->t;
	int want;
	switch (v->e->view) {
	case WTG_VIEW_SWEEP:
	case WTG_VIEW_HISTOGRAM:
		want = v->h * 2 / 3 > 11 ? v->h * 2 / 3 : 11;
		break;
	case WTG_VIEW_BARS:
		want = t->nrows + 3;
		break;
	default:
		want = t->ncols + 3;
		break;
	}
	return want < v->h - 1 ? want : v->h - 1;
}

void tui_view_draw(const struct tui_view *v)
{
	int fmax = v->h - body_wants(v);
	if (fmax > 6)
		fmax = 6;
	if (fmax < 1)
		fmax = 1;
	int f = tui_footer(v, fmax);
	struct tui_view body = *v;
	body.h = v->h - f - (f && v->h - f > 14 ? 1 : 0);
	if (body.h < 3)
		return;
	struct tui_view extra = body;
	bool has_extra = v->e->view != WTG_VIEW_HISTOGRAM && v->t->nseries > 0;
	if (has_extra) {
		if (body.wd >= 120) {
			body.wd = body.wd * 3 / 5;
			extra.x = body.x + body.wd + 2;
			extra.wd = v->wd - body.wd - 2;
		} else if (body.h >= 20) {
			extra.h = body.h * 2 / 5;
			body.h -= extra.h + 1;
			extra.y = body.y + body.h + 1;
		} else {
			has_extra = false;
		}
	}
	switch (v->e->view) {
	case WTG_VIEW_SWEEP: tui_sweep_draw(&body); break;
	case WTG_VIEW_BARS: tui_bars_draw(&body); break;
	case WTG_VIEW_HISTOGRAM: tui_hist_draw(&body); break;
	case WTG_VIEW_COUNTERS: tui_counters_draw(&body); break;
	}
	if (has_extra)
		tui_hist_draw(&extra);
}

/* ---- layout ---- */

static void destroy_windows(struct dash *d)
{
	WINDOW **ws[] = { &d->help, &d->view, &d->hdr, &d->tabs, &d->box, &d->pt, &d->pf, &d->pc, &d->prog,
			  &d->status };
	for (size_t i = 0; i < WTG_ARRAY_LEN(ws); i++)
		if (*ws[i]) {
			delwin(*ws[i]);
			*ws[i] = NULL;
		}
}

static void layout(struct dash *d)
{
	destroy_windows(d);
	getmaxyx(stdscr, d->rows, d->cols);
	d->small = d->rows < MIN_ROWS || d->cols < MIN_COLS;
	werase(stdscr);
	wnoutrefresh(stdscr);
	d->sig_hdr = d->sig_tabs = d->sig_box = d->sig_body = d->sig_panels = d->sig_prog = d->sig_status = 0;
	if (d->small)
		return;
	int W = d->cols, H = d->rows;
	int box_h = H - 2 - PANEL_H - 2;
	d->hdr = newwin(1, W, 0, 0);
	d->tabs = newwin(1, W, 1, 0);
	d->box = newwin(box_h, W, 2, 0);
	d->view = derwin(d->box, box_h - 2, W - 2, 1, 1);
	/* at 80 columns: 24 + 25 + 31, the conditions' words need the most */
	int tw = W * 24 / 80, fw = W * 25 / 80;
	int cw = W - tw - fw;
	int py = 2 + box_h;
	d->pt = newwin(PANEL_H, tw, py, 0);
	d->pf = newwin(PANEL_H, fw, py, tw);
	d->pc = newwin(PANEL_H, cw, py, tw + fw);
	d->prog = newwin(1, W, H - 2, 0);
	d->status = newwin(1, W, H - 1, 0);
	int hh = H - 2 < 23 ? H - 2 : 23, hw = W - 4 < 78 ? W - 4 : 78;
	d->help = newwin(hh, hw, (H - hh) / 2, (W - hw) / 2);
}

/* ---- header and tabs ---- */

/* Bytes the data file's preparation goes through: its size, or the --file's. */
static uint64_t df_total(const struct dash *d)
{
	if (d->s->opt->file)
		return d->file_st_ok ? (uint64_t)d->file_st.st_size : 0;
	return d->s->opt->size;
}

static void draw_header(struct dash *d)
{
	struct wtg_session *s = d->s;
	int st = atomic_load(&s->df_state);
	uint64_t done = atomic_load(&s->df.done);
	uint64_t total = df_total(d);
	uint64_t sig = mix(mix(1, (uint64_t)st), total ? done * 100 / total : done >> 20);
	sig = mix(sig, (uint64_t)d->cols);
	if (sig == d->sig_hdr)
		return;
	d->sig_hdr = sig;
	WINDOW *w = d->hdr;
	const struct tui_look *l = &d->look;
	werase(w);
	char data[PATH_MAX + 128], sz[32], dn[32];
	enum tui_role drole = TR_NORMAL;
	if (st == WTG_DF_READY) {
		wtg_fmt_size(sz, sizeof sz, s->df.size);
		char where[PATH_MAX];
		wtg_strlcpy(where, s->df.path, sizeof where);
		if (s->df.owned) {
			char *slash = strrchr(where, '/');
			if (slash)
				*(slash == where ? slash + 1 : slash) = '\0';	/* the folder */
		}
		/* a path too long for the line gives way from its start; the size and the sum stay */
		snprintf(data, sizeof data, "data %s in , sum %" PRId64 "  wtg  ", sz, s->df.sum);
		int room = d->cols - tui_width(data) > 8 ? d->cols - tui_width(data) : 8;
		int len = (int)strlen(where);
		const char *tail = len > room ? where + len - room : where;
		const char *cut = len > room ? l->g->ellipsis : "";
		if (s->df.owned)
			snprintf(data, sizeof data, "data %s in %s%s, sum %" PRId64, sz, cut, tail, s->df.sum);
		else
			snprintf(data, sizeof data, "data %s%s (%s), sum %" PRId64, cut, tail, sz, s->df.sum);
	} else if (st == WTG_DF_FAILED) {
		snprintf(data, sizeof data, "data file failed: %s", s->df_error);
		drole = TR_ERR;
	} else if (st == WTG_DF_NONE) {
		snprintf(data, sizeof data, "no data file yet (made for the first experiment that reads it)");
		drole = TR_DIM;
	} else {
		wtg_fmt_size(dn, sizeof dn, done);
		wtg_fmt_size(sz, sizeof sz, total);
		if (s->opt->file)
			snprintf(data, sizeof data, "data: reading %s, %s of %s", s->opt->file, dn, sz);
		else
			snprintf(data, sizeof data, "data: writing %s of %s in %s", dn, sz, s->opt->dir);
		drole = TR_WARN;
	}
	char pg[32], mach[256];
	wtg_fmt_size(pg, sizeof pg, (uint64_t)s->machine.page_size);
	const char *name = d->cols >= 120 ? " wtg · where the time goes " : " wtg ";
	if (!l->utf8)
		name = d->cols >= 120 ? " wtg - where the time goes " : " wtg ";
	int x = tui_put(w, 0, 0, d->cols, tui_attr(l, TR_TITLE) | A_REVERSE, name);
	int dw = tui_width(data);
	int room = d->cols - x - 2 - dw - 2;
	/* the counts, with the topology when it fits, then the CPU model in what is left */
	snprintf(mach, sizeof mach, "%d CPUs (%s)%s%s pages", s->machine.cpus, s->topo_summary, l->g->sep, pg);
	if (tui_width(mach) > room)
		snprintf(mach, sizeof mach, "%d CPUs%s%s pages", s->machine.cpus, l->g->sep, pg);
	int mw = tui_width(mach);
	if (room > mw + 6) {
		char full[512];
		snprintf(full, sizeof full, "%s%s%s", s->machine.cpu_model, l->g->sep, mach);
		int fw = tui_width(full);
		if (fw > room) {
			/* shorten the CPU model, keep the counts */
			char model[256];
			int keep = room - mw - tui_width(l->g->sep) - 1;
			wtg_strlcpy(model, s->machine.cpu_model, sizeof model);
			if (keep > 0 && keep < (int)sizeof model)
				model[keep] = '\0';
			snprintf(full, sizeof full, "%s%s%s%s", model, l->g->ellipsis, l->g->sep, mach);
		}
		tui_put(w, 0, x + 1, room, A_NORMAL, full);
	} else if (room > mw) {
		tui_put(w, 0, x + 1, room, A_NORMAL, mach);
	}
	int dx = d->cols - dw - 1;
	if (dx < x + 1)
		dx = x + 1;
	tui_put(w, 0, dx, d->cols - dx, tui_attr(l, drole), data);
	wnoutrefresh(w);
}

/* ---- the deck: the tabs in lecture order (--order), each with a key ---- */

/* The key of each deck position: 1-9 and 0, then the shifted digits. */
static const char deck_keys[] = "1234567890!@#$%^&*(";

static int deck_len(const struct dash *d)
{
	return d->s->opt->norder;
}

static int deck_at(const struct dash *d, int pos)
{
	return d->s->opt->order[pos];
}

/* The deck position of registry index idx, or -1. */
static int deck_pos(const struct dash *d, int idx)
{
	for (int i = 0; i < deck_len(d); i++)
		if (deck_at(d, i) == idx)
			return i;
	return -1;
}

/* The tab delta positions from the current one, wrapping around. */
static int deck_step(const struct dash *d, int delta)
{
	int n = deck_len(d), pos = deck_pos(d, d->tab);
	return deck_at(d, ((pos < 0 ? 0 : pos) + delta % n + n) % n);
}

static void tab_label(char *buf, size_t len, int pos, int idx)
{
	if (pos < (int)sizeof deck_keys - 1)
		snprintf(buf, len, "%c %s", deck_keys[pos], wtg_experiments[idx]->name);
	else
		snprintf(buf, len, "%s", wtg_experiments[idx]->name);
}

static void draw_tabs(struct dash *d, const enum wtg_state *states, int current)
{
	uint64_t sig = mix(mix(mix(2, (uint64_t)d->tab), (uint64_t)(current + 1)), (uint64_t)d->cols);
	for (int i = 0; i < wtg_nexperiments; i++)
		sig = mix(sig, (uint64_t)states[i]);
	if (sig == d->sig_tabs)
		return;
	d->sig_tabs = sig;
	WINDOW *w = d->tabs;
	const struct tui_look *l = &d->look;
	werase(w);
	int n = deck_len(d), cur = deck_pos(d, d->tab);
	int wid[WTG_MAX_EXP];
	for (int p = 0; p < n; p++) {
		char b[64];
		int i = deck_at(d, p);
		tab_label(b, sizeof b, p, i);
		wid[p] = tui_width(b) + 2 + (i == current ? 2 : 0) + (i == d->tab ? 2 : 0);
	}
	/* scroll so that the current tab shows, with arrows where tabs are hidden */
	int avail = d->cols - 4;
	if (cur < d->tab_first)
		d->tab_first = cur < 0 ? 0 : cur;
	for (;;) {
		int used = 0, last = d->tab_first;
		for (int p = d->tab_first; p < n && used + wid[p] <= avail; p++) {
			used += wid[p];
			last = p;
		}
		if (cur <= last || d->tab_first >= cur)
			break;
		d->tab_first++;
	}
	int x = 0;
	if (d->tab_first > 0)
		x += tui_put(w, 0, x, 2, tui_attr(l, TR_DIM), l->g->left);
	x = 2;
	int p;
	for (p = d->tab_first; p < n; p++) {
		if (x + wid[p] > d->cols - 2)
			break;
		int i = deck_at(d, p);
		char b[80], lab[64];
		tab_label(lab, sizeof lab, p, i);
		snprintf(b, sizeof b, "%s%s%s%s%s ", i == d->tab ? "[" : "", i == current ? l->g->play : "",
			 i == current ? " " : "", lab, i == d->tab ? "]" : "");
		attr_t a = A_NORMAL;
		if (!built(i))
			a = tui_attr(l, TR_DIM);
		else if (states[i] == WTG_FAILED)
			a = tui_attr(l, TR_ERR);
		else if (i == current)
			a = tui_attr(l, TR_OK) | A_BOLD;
		if (i == d->tab)
			a = tui_attr(l, TR_CUR);
		tui_put(w, 0, x, d->cols - x, a, " ");
		tui_put(w, 0, x + 1, d->cols - x - 1, a, b);
		x += wid[p];
	}
	if (p < n)
		tui_put(w, 0, d->cols - 2, 2, tui_attr(l, TR_DIM), l->g->right);
	wnoutrefresh(w);
}

/* ---- the experiment's box ---- */

static int centre(WINDOW *w, int y, int width, attr_t a, const char *text)
{
	return tui_wrap(w, y, 1, width - 2, 3, a, true, text);
}

static void draw_box(struct dash *d, int current)
{
	struct wtg_session *s = d->s;
	struct wtg_table *t = &d->snap[d->tab];
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	int qpos = queue_pos(s, d->tab);
	uint64_t sig = mix(mix(mix(mix(3, (uint64_t)d->tab), t->gen), (uint64_t)(qpos + 2)),
			   (uint64_t)(current + 2) * 2 + d->paused);
	sig = mix(sig, (uint64_t)d->cols * 1000 + (uint64_t)d->rows);
	if (sig == d->sig_box)
		return;
	d->sig_box = sig;
	/* the view itself only when what it shows moved, not for each step of the progress */
	uint64_t body = mix(mix(mix(mix(8, (uint64_t)d->tab), (uint64_t)(qpos + 2)),
				(uint64_t)(current + 2) * 2 + d->paused),
			    (uint64_t)d->cols * 1000 + (uint64_t)d->rows);
	body = mix(mix(mix(body, (uint64_t)t->started_ns), (uint64_t)t->state), (uint64_t)t->ncols);
	body = mix(mix(mix(body, (uint64_t)t->nrows), (uint64_t)t->nchecks), (uint64_t)t->nnotes);
	body = mix(mix(mix_str(body, t->error), (uint64_t)t->nseries), (uint64_t)t->has_total);
	if (t->nrows == 0 && t->nseries == 0)
		body = mix_str(body, t->step_label);	/* "measuring: label" */
	bool body_moved = body != d->sig_body;
	d->sig_body = body;
	const struct tui_look *l = &d->look;
	char title[256], right[96];
	snprintf(title, sizeof title, "%s%s%s", e->name, l->g->sep, e->question);
	attr_t ra = tui_attr(l, TR_DIM);
	if (!built(d->tab)) {
		snprintf(right, sizeof right, "not built yet");
	} else if (t->state == WTG_RUNNING) {
		if (t->nsteps > 0)
			snprintf(right, sizeof right, "%s running, step %d/%d", l->g->play, t->step,
				 t->nsteps);
		else
			snprintf(right, sizeof right, "%s running", l->g->play);
		ra = tui_attr(l, TR_OK) | A_BOLD;
	} else if (t->state == WTG_DONE) {
		char du[32];
		tui_fmt_value(du, sizeof du, (double)(t->finished_ns - t->started_ns), "ns");
		snprintf(right, sizeof right, "done in %s %s", du,
			 wtg_table_checks_ok(t) ? l->g->ok : l->g->bad);
		ra = tui_attr(l, TR_OK);
	} else if (t->state == WTG_FAILED) {
		snprintf(right, sizeof right, "failed %s", l->g->bad);
		ra = tui_attr(l, TR_ERR);
	} else if (t->state == WTG_STOPPED) {
		snprintf(right, sizeof right, "stopped before the end");
		ra = tui_attr(l, TR_WARN);
	} else if (qpos >= 0) {
		snprintf(right, sizeof right, "queued");
	} else {
		snprintf(right, sizeof right, "not run yet");
	}
	tui_frame(d->box, l, tui_attr(l, TR_DIM), title, tui_attr(l, TR_TITLE), right, ra);
	wnoutrefresh(d->box);
	if (!body_moved)
		return;

	WINDOW *vw = d->view;
	werase(vw);
	int vh, vwid;
	getmaxyx(vw, vh, vwid);
	int mid = vh / 2 - 1;
	if (!built(d->tab)) {
		centre(vw, mid, vwid, A_BOLD, "not built yet in this version of wtg");
		centre(vw, mid + 2, vwid, tui_attr(l, TR_DIM), e->runs);
	} else if (t->nrows == 0 && t->nseries == 0 && !t->error[0]) {
		char msg[256];
		if (t->state == WTG_RUNNING)
			snprintf(msg, sizeof msg, "measuring%s %s", t->step_label[0] ? ":" : "",
				 t->step_label);
		else if (t->state == WTG_STOPPED)
			snprintf(msg, sizeof msg, "stopped before the first row: r runs it again");
		else if (qpos >= 0 && current >= 0)
			snprintf(msg, sizeof msg, "queued: runs after %s", wtg_experiments[current]->name);
		else if (qpos >= 0 || (current < 0 && !d->paused && t->state == WTG_IDLE))
			snprintf(msg, sizeof msg, "starting");
		else if (d->paused)
			snprintf(msg, sizeof msg, "paused: space resumes, r runs this one");
		else if (current >= 0)
			snprintf(msg, sizeof msg, "not run yet: r runs it now (stops %s), or wait",
				 wtg_experiments[current]->name);
		else
			snprintf(msg, sizeof msg, "not run yet: r runs it");
		centre(vw, mid, vwid, A_BOLD, msg);
		centre(vw, mid + 2, vwid, tui_attr(l, TR_DIM), e->runs);
	} else {
		struct tui_view v = {
			.w = vw, .y = 0, .x = 1, .h = vh, .wd = vwid - 2, .look = l, .t = t, .e = e,
		};
		tui_view_draw(&v);
	}
	wnoutrefresh(vw);
}

/* ---- the three panels ---- */

/* The probe of the latest run: the whole run once it ended, else the latest row that has one. */
static bool latest_probe(const struct wtg_table *t, struct wtg_probe_result *p, char *what, size_t len)
{
	if (t->has_total && t->state != WTG_RUNNING) {
		*p = t->total;
		snprintf(what, len, "whole run");
		return true;
	}
	for (int r = t->nrows - 1; r >= 0; r--)
		if (t->rows[r].has_probe) {
			*p = t->rows[r].probe;
			snprintf(what, len, "row %d", r + 1);
			return true;
		}
	return false;
}

#define RESIDENT_NS 500000000LL	/* how often the conditions panel reads the page cache's residency */

/* The data file's share in the page cache, read at most every RESIDENT_NS (mincore: well under a
 * millisecond for 256 MiB), so that c, u and pagecache's own evictions show on screen. */
static void sample_residency(struct dash *d, int64_t now)
{
	struct wtg_session *s = d->s;
	if (atomic_load(&s->df_state) != WTG_DF_READY) {
		d->resident = -1;
		return;
	}
	if (now - d->resident_at < RESIDENT_NS)
		return;
	d->resident_at = now;
	d->resident = wtg_datafile_resident_pages(&s->df);
}

static void draw_panels(struct dash *d)
{
	struct wtg_session *s = d->s;
	const struct wtg_table *t = &d->snap[d->tab];
	int burners = wtg_burner_count();
	bool bg = wtg_policy_requested(), unc = wtg_uncached_requested();
	int granted = wtg_policy_granted();
	int dfs = atomic_load(&s->df_state);
	enum wtg_iomode io = dfs == WTG_DF_READY ? wtg_iomode_effective(&s->df) : WTG_IO_CACHED;
	uint64_t sig = mix(mix(mix(4, (uint64_t)d->tab), t->gen), (uint64_t)burners * 2 + wtg_burner_kind());
	sig = mix(mix(mix(sig, bg), (uint64_t)(granted + 2)), (uint64_t)unc * 10 + (uint64_t)io);
	sig = mix(mix(mix(sig, (uint64_t)dfs), (uint64_t)d->cols), (uint64_t)(d->resident + 1));
	if (sig == d->sig_panels)
		return;
	d->sig_panels = sig;
	const struct tui_look *l = &d->look;
	attr_t dim = tui_attr(l, TR_DIM), key = tui_attr(l, TR_KEY);
	struct wtg_probe_result p;
	memset(&p, 0, sizeof p);
	char what[32];
	bool have = latest_probe(t, &p, what, sizeof what);

	/* where the time went */
	WINDOW *w = d->pt;
	werase(w);
	char title[96];
	int pw = getmaxx(w) - 2;
	snprintf(title, sizeof title, "where the time went%s%s", have ? l->g->sep : "", have ? what : "");
	if (tui_width(title) + 3 > pw)
		snprintf(title, sizeof title, "where the time went");
	tui_frame(w, l, dim, title, tui_attr(l, TR_TITLE), NULL, 0);
	const char *names[3] = { "wall", "user", "sys " };
	enum tui_role roles[3] = { TR_WALL, TR_USER, TR_SYS };
	double ms[3] = { have ? p.wall_ms : NAN, have ? p.user_ms : NAN, have ? p.sys_ms : NAN };
	double mx = fmax(ms[0], fmax(ms[1], ms[2]));
	for (int i = 0; i < 3; i++) {
		char v[32];
		tui_fmt_value(v, sizeof v, ms[i], "ms");
		int x = 1 + tui_printf(w, 1 + i, 1, pw, A_NORMAL, "%s %8s ", names[i], v);
		if (have && mx > 0)
			tui_hbar(w, 1 + i, x, pw - x + 1, ms[i] / mx, tui_attr(l, roles[i]), l);
	}
	wnoutrefresh(w);

	/* faults, switches, CPUs */
	w = d->pf;
	werase(w);
	pw = getmaxx(w) - 2;
	snprintf(title, sizeof title, "faults%sswitches%sCPUs", l->g->sep, l->g->sep);
	if (tui_width(title) + 3 > pw)
		snprintf(title, sizeof title, "faults%sswitches%sCPUs", l->utf8 ? "·" : "/",
			 l->utf8 ? "·" : "/");
	tui_frame(w, l, dim, title, tui_attr(l, TR_TITLE), NULL, 0);
	if (have) {
		char a[32], b[32], cpus[160], mig[32];
		wtg_fmt_thousands(a, sizeof a, p.minflt);
		wtg_fmt_thousands(b, sizeof b, p.majflt);
		tui_printf(w, 1, 1, pw, A_NORMAL, "minor %-9s major %s", a, b);
		wtg_fmt_thousands(a, sizeof a, p.vcsw);
		wtg_fmt_thousands(b, sizeof b, p.ivcsw);
		tui_printf(w, 2, 1, pw, A_NORMAL, "vol   %-9s invol %s", a, b);
		wtg_probe_cpus_str(p.cpus_seen, cpus, sizeof cpus);
		if ((int)strlen(cpus) > 9)
			snprintf(cpus, sizeof cpus, "%d of %d", __builtin_popcountll(p.cpus_seen),
				 s->machine.cpus);
		if (p.migrations < 0)
			snprintf(mig, sizeof mig, "n/a");
		else
			wtg_fmt_thousands(mig, sizeof mig, p.migrations);
		/* "CPU 0" for one, "CPUs 0-1" for several: "CPUs 0" would read as none */
		tui_printf(w, 3, 1, pw, A_NORMAL, "%-5s %-9s migr  %s",
			   __builtin_popcountll(p.cpus_seen) == 1 ? "CPU" : "CPUs", cpus, mig);
	} else {
		tui_put(w, 2, 1, pw, dim, "no run measured yet");
	}
	wnoutrefresh(w);

	/* conditions, with their keys and what is in force */
	w = d->pc;
	werase(w);
	tui_frame(w, l, dim, "conditions", tui_attr(l, TR_TITLE), NULL, 0);
	pw = getmaxx(w) - 2;
	char line[128];
	int x;
	bool wide = pw >= 40;
	x = 1 + tui_put(w, 1, 1, pw, key, "[b]");
	if (burners > 0)
		snprintf(line, sizeof line, " burners on, %d thread%s %s", burners, burners == 1 ? "" : "s",
			 wtg_burner_kind() == WTG_BURN_STREAM ? (wide ? "streaming memory" : "stream")
							       : (wide ? "spinning" : "spin"));
	else
		snprintf(line, sizeof line, " burners off");
	tui_put(w, 1, x, pw - x + 1, burners > 0 ? tui_attr(l, TR_WARN) : A_NORMAL, line);

	/* the policy asked for, and what the kernel reports for the measuring thread */
	x = 1 + tui_put(w, 2, 1, pw, key, "[p]");
	const char *want = bg ? "background" : "normal";
	const char *how = "";
	if (granted < 0 && bg)
		how = " pending";
	else if (granted >= 0 && (granted == 1) != bg)
		how = bg ? " refused" : " pending";
	else if (bg)
		how = " granted";
	snprintf(line, sizeof line, " policy %s%s%s", want, how, wide && bg ? " (SCHED_IDLE)" : "");
	tui_put(w, 2, x, pw - x + 1, bg ? tui_attr(l, TR_WARN) : A_NORMAL, line);

	x = 1 + tui_put(w, 3, 1, pw, key, "[u]");
	if (!unc)
		snprintf(line, sizeof line, " I/O cached");
	else if (dfs != WTG_DF_READY)
		snprintf(line, sizeof line, " I/O uncached: pending");
	else
		snprintf(line, sizeof line, " I/O uncached: %s", wtg_iomode_name(io));
	x += tui_put(w, 3, x, pw - x + 1, unc ? tui_attr(l, TR_WARN) : A_NORMAL, line);
	/* [c]: how much of the data file the page cache holds now */
	long page = s->machine.page_size > 0 ? s->machine.page_size : 4096;
	int64_t pages = dfs == WTG_DF_READY ? (int64_t)((s->df.size + (uint64_t)page - 1) / (uint64_t)page) : 0;
	if (d->resident >= 0 && pages > 0 && pw - x >= 12) {
		double pct = 100.0 * (double)d->resident / (double)pages;
		x += 2 + tui_put(w, 3, x + 2, pw - x - 1, key, "[c]");
		snprintf(line, sizeof line, wide ? " cached %.0f%%" : " %.0f%%", pct);
		tui_put(w, 3, x, pw - x + 1, pct < 50 ? tui_attr(l, TR_WARN) : A_NORMAL, line);
	}
	wnoutrefresh(w);
}

/* ---- progress and status lines ---- */

static int next_built(const struct dash *d, int from);

static void draw_progress(struct dash *d, const struct run_info *ri, int64_t now)
{
	struct wtg_session *s = d->s;
	int dfs = atomic_load(&s->df_state);
	uint64_t done = atomic_load(&s->df.done);
	uint64_t sig = mix(mix(mix(5, (uint64_t)(ri->idx + 2)), (uint64_t)ri->step), (uint64_t)ri->nsteps);
	sig = mix(mix(mix(sig, (uint64_t)dfs), done), (uint64_t)(now / (TICK_MS * 1000000LL)));
	sig = mix(mix(mix(sig, d->paused), d->autoplay * 2 + d->ap_holding), (uint64_t)d->cols);
	sig = mix_str(sig, ri->label);
	if (sig == d->sig_prog)
		return;
	d->sig_prog = sig;
	WINDOW *w = d->prog;
	const struct tui_look *l = &d->look;
	werase(w);
	int W = d->cols;
	char head[160], tail[96];
	double frac = -1, left = -1;
	attr_t ha = A_BOLD;
	if (dfs == WTG_DF_PREPARING) {
		uint64_t total = df_total(d);
		char a[32], b[32];
		wtg_fmt_size(a, sizeof a, done);
		wtg_fmt_size(b, sizeof b, total);
		snprintf(head, sizeof head, " %s %s the data file  %s of %s", l->g->play,
			 s->opt->file ? "reading" : "writing", a, b);
		if (total > 0) {
			frac = (double)done / (double)total;
			if (frac > 0.02)
				left = (double)(now - d->t_start) * (1 - frac) / frac;
		}
	} else if (ri->idx >= 0) {
		const char *name = wtg_experiments[ri->idx]->name;
		if (ri->nsteps > 0)
			snprintf(head, sizeof head, " %s %s  step %d/%d  %s", l->g->play, name, ri->step,
				 ri->nsteps, ri->label);
		else
			snprintf(head, sizeof head, " %s %s  %s", l->g->play, name, ri->label);
		/* the experiment's own estimate while it holds, else elapsed time per step so far */
		double el = (double)(now - ri->started_ns);
		bool expected = ri->expected_ns > 0 && el < (double)ri->expected_ns;
		if (ri->nsteps > 0) {
			frac = (double)ri->step / ri->nsteps;
			if (expected)
				left = (double)ri->expected_ns - el;
			else if (frac > 0)
				left = el * (1 - frac) / frac;
		} else if (expected) {
			frac = el / (double)ri->expected_ns;
			left = (double)ri->expected_ns - el;
		} else {
			frac = 0;
		}
	} else if (d->paused) {
		const char *what = d->paused_idx >= 0 ? wtg_experiments[d->paused_idx]->name : "";
		snprintf(head, sizeof head, " %s paused%s%s: space resumes", l->g->pause, what[0] ? " " : "",
			 what);
		ha = tui_attr(l, TR_WARN);
	} else if (d->autoplay && d->ap_holding) {
		int next = next_built(d, deck_pos(d, d->ap_idx) + 1);
		double sleft = (double)(d->ap_hold_until - now) / 1e9;
		if (next >= 0)
			snprintf(head, sizeof head, " %s autoplay: %s next in %.0f s (any key takes over)",
				 l->g->play, wtg_experiments[next]->name, sleft < 0 ? 0 : ceil(sleft));
		else
			snprintf(head, sizeof head, " %s autoplay: last one, ending in %.0f s", l->g->play,
				 sleft < 0 ? 0 : ceil(sleft));
	} else {
		snprintf(head, sizeof head, " idle: r reruns this tab, a plays them all");
		ha = tui_attr(l, TR_DIM);
	}
	/* autoplay's tag takes the right end; the bar and the time left fit in what remains */
	bool tag = d->autoplay && !d->ap_holding;
	if (tag)
		W -= 10;
	int x = tui_put(w, 0, 0, W, ha, head);
	if (frac >= 0) {
		if (left >= 0 || frac > 0)
			fmt_left(tail, sizeof tail, left);
		else
			snprintf(tail, sizeof tail, "starting");
		int tw = tui_width(tail);
		int bw = W - x - tw - 5;
		if (bw > 40)
			bw = 40;
		if (bw >= 6) {
			tui_progress(w, 0, x + 2, bw, frac, tui_attr(l, TR_BAR), l);
			tui_put(w, 0, x + 2 + bw + 2, tw, A_NORMAL, tail);
		} else if (W - x - 2 > tw) {
			tui_put(w, 0, x + 2, tw, A_NORMAL, tail);
		}
	}
	if (tag && W - x > 2)
		tui_put(w, 0, W + 1, 9, tui_attr(l, TR_KEY), "autoplay");
	wnoutrefresh(w);
}

static void draw_status(struct dash *d, int64_t now, const struct run_info *ri)
{
	const struct tui_look *l = &d->look;
	/* starved: no heartbeat, or no new step while the background policy runs under burners */
	uint64_t key = mix_str(mix(mix(7, (uint64_t)(ri->idx + 2)), (uint64_t)ri->step), ri->label);
	if (key != d->step_key) {
		d->step_key = key;
		d->step_since = now;
	}
	int64_t still = now - d->step_since;
	bool squeezed = wtg_burner_count() > 0 && wtg_policy_requested() && still > STARVED_NS;
	int64_t stall = d->stall_ns > STARVED_NS ? d->stall_ns : squeezed ? still : 0;
	bool starved = ri->idx >= 0 && stall > 0;
	bool note = now < d->notice_until;
	uint64_t sig = mix(mix(6, starved ? (uint64_t)(stall / 1000000000LL) + 1 : 0), note);
	sig = mix(mix_str(sig, note ? d->notice : ""), (uint64_t)d->cols);
	if (sig == d->sig_status)
		return;
	d->sig_status = sig;
	WINDOW *w = d->status;
	werase(w);
	int W = d->cols;
	const char *keys = "  ? help  q quit ";
	int kw = tui_width(keys);
	if (starved) {
		/* the whole line: this is what matters now */
		tui_printf(w, 0, 0, W, tui_attr(l, TR_ERR),
			   " worker starved: no progress for %lld s (background policy under burners)",
			   (long long)(stall / 1000000000LL));
		wnoutrefresh(w);
		return;
	} else if (note) {
		tui_put(w, 0, 0, 1, A_NORMAL, " ");
		char fit[sizeof d->notice + 8];
		notice_fit(d, fit, sizeof fit, W - kw - 1);
		tui_put_clip(w, 0, 1, W - kw - 1, tui_attr(l, d->notice_role), l, fit);
	} else {
		static const char *const parts[][2] = {
			{ "1-9 0", "tabs" }, { "r", "rerun" }, { "space", "pause" }, { "a", "autoplay" },
			{ "s", "save" }, { "b p u c", "conditions" },
		};
		int x = 1;
		for (size_t i = 0; i < WTG_ARRAY_LEN(parts); i++) {
			int need = tui_width(parts[i][0]) + tui_width(parts[i][1]) + 3;
			if (x + need > W - kw)
				break;
			x += tui_put(w, 0, x, W - x, tui_attr(l, TR_KEY), parts[i][0]);
			x += tui_printf(w, 0, x, W - x, A_NORMAL, " %s  ", parts[i][1]);
		}
	}
	int x = W - kw;
	x += tui_put(w, 0, x, 3, A_NORMAL, "  ");
	x += tui_put(w, 0, x, 1, tui_attr(l, TR_KEY), "?");
	x += tui_put(w, 0, x, 7, A_NORMAL, " help  ");
	x += tui_put(w, 0, x, 1, tui_attr(l, TR_KEY), "q");
	tui_put(w, 0, x, W - x, A_NORMAL, " quit");
	wnoutrefresh(w);
}

/* ---- help ---- */

static void draw_help(struct dash *d)
{
	WINDOW *w = d->help;
	const struct tui_look *l = &d->look;
	/* one screen at 80x24: descriptions of at most 55 columns */
	static const char *const keys[][2] = {
		{ "1-9 0 !-&", "a tab each (! is Shift-1: the 11th tab ...)" },
		{ "PgDn PgUp -> <-", "next / previous tab, as a clicker sends (Tab too)" },
		{ "r  Enter", "run this tab again (stops the running one)" },
		{ "space", "pause: stop the run; again: run it again" },
		{ "a .", "autoplay in lecture order; any key stops / blank" },
		{ "s", "save the results: wtg-DATE-TIME.json .html .csv" },
		{ "w", "write this screen as text: wtg-screen-DATE-TIME.txt" },
		{ "b", "burners: off > spin (CPU) > stream (memory) > off" },
		{ "p", "background policy (SCHED_IDLE) for measuring" },
		{ "u", "uncached I/O: O_DIRECT, else evict before a pass" },
		{ "c", "evict the data file from the page cache now" },
		{ "? q", "this help / quit" },
	};
	static const char *const views[][2] = {
		{ "sweep", "a line per series on a log2 x axis; marks are rows" },
		{ "bars", "a bar per row; threads: ideal = 1 thread x N" },
		{ "histogram", "samples in bins (log over decades); median p90 p99" },
		{ "counters", "faults and times per case, per page and per fault" },
		{ "panels", "wall/user/sys of the latest run; faults, switches," },
		{ "", "CPUs seen; the conditions and what the kernel gave" },
	};
	werase(w);
	tui_frame(w, l, tui_attr(l, TR_TITLE), "help: keys and views", tui_attr(l, TR_TITLE),
		  "any key closes", tui_attr(l, TR_DIM));
	int hw = getmaxx(w) - 4, hh = getmaxy(w) - 1;
	int y = 1;
	for (size_t i = 0; i < WTG_ARRAY_LEN(keys) && y < hh; i++, y++) {
		tui_put(w, y, 2, 16, tui_attr(l, TR_KEY), keys[i][0]);
		tui_put(w, y, 19, hw - 17, A_NORMAL, keys[i][1]);
	}
	y++;
	for (size_t i = 0; i < WTG_ARRAY_LEN(views) && y < hh; i++, y++) {
		tui_put(w, y, 2, 16, tui_attr(l, TR_TITLE), views[i][0]);
		tui_put(w, y, 19, hw - 17, A_NORMAL, views[i][1]);
	}
	if (y + 1 < hh)
		tui_put(w, y + 1, 2, hw, tui_attr(l, TR_DIM),
			"A tab not run yet runs when the worker is free.");
	touchwin(w);
	wnoutrefresh(w);
}

/* ---- one frame ---- */

static void draw(struct dash *d, int64_t now)
{
	struct wtg_session *s = d->s;
	if (d->small) {
		char msg[96];
		werase(stdscr);
		snprintf(msg, sizeof msg, "terminal too small: need %dx%d, have %dx%d", MIN_COLS, MIN_ROWS,
			 d->cols, d->rows);
		int y = d->rows / 2 - 1;
		tui_put(stdscr, y < 0 ? 0 : y, 0, d->cols, A_BOLD, msg);
		tui_put(stdscr, (y < 0 ? 0 : y) + 1, 0, d->cols, A_NORMAL, "q quits");
		wnoutrefresh(stdscr);
		doupdate();
		d->last_frame = now;
		return;
	}
	if (d->blank) {
		werase(stdscr);
		wnoutrefresh(stdscr);
		doupdate();
		d->last_frame = now;
		return;
	}
	int current = atomic_load(&s->current);
	enum wtg_state states[WTG_MAX_EXP];
	for (int i = 0; i < wtg_nexperiments; i++) {
		pthread_mutex_lock(&s->tables[i].lock);
		states[i] = s->tables[i].state;
		pthread_mutex_unlock(&s->tables[i].lock);
	}
	tui_table_copy(&d->snap[d->tab], &s->tables[d->tab], false);
	struct run_info ri;
	run_info(s, current, &ri);
	draw_header(d);
	draw_tabs(d, states, current);
	draw_box(d, current);
	sample_residency(d, now);
	draw_panels(d);
	draw_progress(d, &ri, now);
	draw_status(d, now, &ri);
	if (d->help_on)
		draw_help(d);
	doupdate();
	d->last_frame = now;
}

/* ---- control: keys, autoplay, the tab that runs when the worker is free ---- */

/* The first built experiment at deck position from or after it, or -1. */
static int next_built(const struct dash *d, int from)
{
	for (int p = from < 0 ? 0 : from; p < deck_len(d); p++)
		if (built(deck_at(d, p)))
			return deck_at(d, p);
	return -1;
}

static void autoplay_start(struct dash *d, int idx)
{
	struct wtg_session *s = d->s;
	d->tab = idx;
	d->ap_idx = idx;
	d->ap_holding = false;
	d->tried[idx] = true;
	struct run_info ri;
	run_info(s, idx, &ri);
	if (atomic_load(&s->current) == idx && ri.state == WTG_RUNNING) {
		d->ap_t0 = ri.started_ns;	/* already running: let it finish */
	} else {
		wtg_session_cancel(s);
		d->ap_t0 = wtg_now_ns();
		wtg_session_enqueue(s, idx);
	}
}

static void autoplay_tick(struct dash *d, int64_t now)
{
	if (!d->autoplay)
		return;
	struct wtg_session *s = d->s;
	if (!d->ap_holding) {
		struct run_info ri;
		run_info(s, d->ap_idx, &ri);
		bool ended = ri.state == WTG_DONE || ri.state == WTG_FAILED || ri.state == WTG_STOPPED;
		if (ri.started_ns >= d->ap_t0 && ended && atomic_load(&s->current) != d->ap_idx) {
			d->ap_holding = true;
			d->ap_hold_until = now + (int64_t)d->s->opt->hold_ms * 1000000;
		}
	} else if (now >= d->ap_hold_until) {
		int next = next_built(d, deck_pos(d, d->ap_idx) + 1);
		if (next < 0) {
			d->autoplay = false;
			d->ap_holding = false;
			notice(d, TR_OK, "autoplay: every experiment has run");
		} else {
			autoplay_start(d, next);
		}
	}
}

static void autorun_tick(struct dash *d)
{
	struct wtg_session *s = d->s;
	if (d->paused || d->autoplay || d->small || !built(d->tab) || d->tried[d->tab])
		return;
	struct run_info ri;
	run_info(s, d->tab, &ri);
	if (ri.state != WTG_IDLE || ri.nrows > 0 || !wtg_session_idle(s))
		return;
	d->tried[d->tab] = true;
	wtg_session_enqueue(s, d->tab);
}

static void rerun(struct dash *d)
{
	struct wtg_session *s = d->s;
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	if (!built(d->tab)) {
		notice(d, TR_WARN, "%s is not built yet", e->name);
		return;
	}
	wtg_session_cancel(s);
	wtg_session_enqueue(s, d->tab);
	d->tried[d->tab] = true;
	d->paused = false;
	notice(d, TR_OK, "running %s", e->name);
}

static void toggle_pause(struct dash *d)
{
	struct wtg_session *s = d->s;
	if (d->paused) {
		d->paused = false;
		if (d->paused_idx >= 0) {
			wtg_session_enqueue(s, d->paused_idx);
			notice(d, TR_OK, "resumed: running %s again", wtg_experiments[d->paused_idx]->name);
		} else {
			notice(d, TR_OK, "resumed");
		}
		return;
	}
	d->paused = true;
	d->paused_idx = atomic_load(&s->current);
	if (d->paused_idx >= 0) {
		wtg_session_cancel(s);
		notice(d, TR_WARN, "paused: %s stopped; space runs it again",
		       wtg_experiments[d->paused_idx]->name);
	} else {
		notice(d, TR_WARN, "paused: nothing starts until space");
	}
}

/* b cycles off -> spin -> stream -> off. */
static void toggle_burners(struct dash *d)
{
	const struct wtg_options *o = d->s->opt;
	bool on = wtg_burner_count() > 0;
	if (on && wtg_burner_kind() == WTG_BURN_STREAM) {
		wtg_burner_set(0);
		notice(d, TR_OK, "burners off: the next batches run on a quiet machine");
		return;
	}
	enum wtg_burn_kind kind = on ? WTG_BURN_STREAM : WTG_BURN_SPIN;
	int n = o->burn > 0 ? o->burn : wtg_online_cpus();
	int got = wtg_burner_set_kind(n, kind);
	if (got < 0) {
		notice(d, TR_ERR, "burners: could not start %d threads", n);
	} else if (kind == WTG_BURN_SPIN) {
		notice(d, TR_WARN, "burners on: %d thread%s spinning from the next batch on (b again: streaming)",
		       got, got == 1 ? "" : "s");
	} else {
		char sz[32];
		wtg_fmt_size(sz, sizeof sz, wtg_burner_stream_bytes(got));
		notice(d, TR_WARN, "burners streaming: %d thread%s each reading %s, from the next batch on", got,
		       got == 1 ? "" : "s", sz);
	}
}

static void toggle_policy(struct dash *d)
{
	bool bg = !wtg_policy_requested();
	wtg_policy_request(bg);
	if (bg)
		notice(d, TR_WARN, "background policy (SCHED_IDLE) asked for the next batch");
	else
		notice(d, TR_OK, "normal policy asked for the next batch");
}

static void toggle_uncached(struct dash *d)
{
	struct wtg_session *s = d->s;
	bool on = !wtg_uncached_requested();
	wtg_uncached_request(on);
	if (!on)
		notice(d, TR_OK, "cached I/O from the next pass");
	else if (atomic_load(&s->df_state) == WTG_DF_READY)
		notice(d, TR_WARN, "uncached I/O from the next pass: %s",
		       wtg_iomode_name(wtg_iomode_effective(&s->df)));
	else
		notice(d, TR_WARN, "uncached I/O requested (the data file is not ready yet)");
}

static void evict_now(struct dash *d)
{
	struct wtg_session *s = d->s;
	int dfs = atomic_load(&s->df_state);
	if (dfs != WTG_DF_READY) {
		notice(d, TR_WARN, "evict: %s", dfs == WTG_DF_NONE ? "no data file yet" : "the data file is not ready yet");
		return;
	}
	int64_t before = wtg_datafile_resident_pages(&s->df);
	int rc = wtg_datafile_evict(&s->df);
	int64_t after = wtg_datafile_resident_pages(&s->df);
	char a[32], b[32];
	if (before < 0)
		snprintf(a, sizeof a, "?");
	else
		wtg_fmt_thousands(a, sizeof a, before);
	if (after < 0)
		snprintf(b, sizeof b, "?");
	else
		wtg_fmt_thousands(b, sizeof b, after);
	if (rc < 0)
		notice(d, TR_ERR, "evict failed: %s pages of the data file still resident", b);
	else
		notice(d, TR_OK, "evicted the data file: %s %s %s pages resident", a, d->look.g->arrow, b);
}

/* ---- saving: reports and the screen, never over a file ---- */

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
	time_t now = time(NULL);
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
		char full[PATH_MAX + 320];
		snprintf(full, sizeof full, "%s.%s%s", stem, ext[0], tail);
		notice_path(d, TR_OK, what, full);
		return;
	}
	notice(d, TR_ERR, "save failed: %s", err[0] ? err : "the report writer refused");
}

static int save_report(struct dash *d, int k, const char *path, char *err, size_t errlen)
{
	static const enum wtg_format fmt[] = { WTG_FMT_JSON, WTG_FMT_HTML, WTG_FMT_CSV };
	return wtg_report_save_new(path, fmt[k], d->s, NULL, err, errlen);
}

static void save_now(struct dash *d)
{
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

static void save_screen_now(struct dash *d)
{
	static const char *const ext[] = { "txt" };
	save_files(d, "wtg-screen", ext, 1, save_screen, "screen saved");
}

static bool on_key(struct dash *d, int code, wint_t ch)
{
	int key = code == KEY_CODE_YES ? (int)ch : (ch < 256 ? (int)ch : -1);
	if (key == KEY_RESIZE) {
		layout(d);
		return false;
	}
	if (key == 'q' || key == 'Q')
		return true;
	if (d->small)
		return false;
	if (d->blank) {	/* any key brings the screen back, and does nothing else */
		d->blank = false;
		d->sig_hdr = d->sig_tabs = d->sig_box = d->sig_body = 0;
		d->sig_panels = d->sig_prog = d->sig_status = 0;
		clearok(curscr, TRUE);
		return false;
	}
	if (d->help_on) {
		d->help_on = false;
		d->sig_hdr = d->sig_tabs = d->sig_box = d->sig_body = 0;
		d->sig_panels = d->sig_prog = d->sig_status = 0;
		return false;
	}
	if (d->autoplay) {
		/* the key that takes control back does nothing else */
		d->autoplay = false;
		d->ap_holding = false;
		notice(d, TR_OK, "autoplay stopped: the keys are yours");
		return false;
	}
	const char *k = key > 0 && key < 128 ? strchr(deck_keys, key) : NULL;
	if (k && k - deck_keys < deck_len(d)) {
		d->tab = deck_at(d, (int)(k - deck_keys));
	} else if (key == '\t' || key == KEY_RIGHT || key == KEY_NPAGE) {
		/* next: PageDown is what a presenter's clicker sends */
		d->tab = deck_step(d, 1);
		if (d->s->opt->step)
			rerun(d);
	} else if (key == KEY_BTAB || key == KEY_LEFT || key == KEY_PPAGE) {
		d->tab = deck_step(d, -1);
	} else if (key == '.') {
		d->blank = true;
	} else if (key == 'r' || key == '\r' || key == '\n' || key == KEY_ENTER) {
		rerun(d);
	} else if (key == ' ') {
		toggle_pause(d);
	} else if (key == 'b') {
		toggle_burners(d);
	} else if (key == 'p') {
		toggle_policy(d);
	} else if (key == 'u') {
		toggle_uncached(d);
	} else if (key == 'c') {
		evict_now(d);
	} else if (key == 's') {
		save_now(d);
	} else if (key == 'w') {
		save_screen_now(d);
	} else if (key == '?' || key == 'h') {
		d->help_on = true;
	} else if (key == 'a') {
		int start = next_built(d, deck_pos(d, d->tab));
		if (start < 0)
			start = next_built(d, 0);
		if (start < 0) {
			notice(d, TR_WARN, "autoplay: no experiment is built yet");
		} else {
			d->autoplay = true;
			d->paused = false;
			autoplay_start(d, start);
			notice(d, TR_OK, "autoplay: every experiment in turn; any key takes over");
		}
	} else if (key >= 0) {
		notice(d, TR_DIM, "that key does nothing here: ? shows the keys");
	}
	return false;
}

/* ---- the loop ---- */

int wtg_tui_main(struct wtg_session *s)
{
	static struct dash dd;
	struct dash *d = &dd;
	memset(d, 0, sizeof *d);
	d->s = s;
	d->paused_idx = -1;
	d->tab = deck_at(d, 0);	/* the lecture's first tab */
	d->t_start = wtg_now_ns();
	if (s->opt->file)
		d->file_st_ok = stat(s->opt->file, &d->file_st) == 0;
	for (int i = 0; i < wtg_nexperiments; i++)
		wtg_table_init(&d->snap[i], wtg_experiments[i]);

	if (tui_screen_open(&d->look, s->opt) < 0)
		return 1;
	layout(d);
	draw(d, wtg_now_ns());		/* the first frame comes before any work starts */
	if (wtg_session_start(s) < 0) {
		tui_screen_close();
		fprintf(stderr, "wtg: cannot start the worker thread\n");
		return 1;
	}

	int status = 0;
	bool pending = true;
	for (;;) {
		int64_t now = wtg_now_ns();
		int current = atomic_load(&s->current);
		bool animate = current >= 0 || atomic_load(&s->df_state) == WTG_DF_PREPARING || d->autoplay ||
			       now < d->notice_until;
		int timeout = animate ? TICK_MS : -1;
		if (pending) {
			int64_t wait = (d->last_frame + FRAME_MIN_NS - now) / 1000000;
			timeout = wait < 0 ? 0 : (timeout < 0 || wait < timeout ? (int)wait : timeout);
		}
		struct pollfd pf[3] = {
			{ .fd = STDIN_FILENO, .events = POLLIN },
			{ .fd = s->wake_fd, .events = POLLIN },
			{ .fd = tui_signal_fd(), .events = POLLIN },
		};
		int r = poll(pf, 3, timeout);
		if (r < 0 && errno != EINTR)
			break;
		now = wtg_now_ns();
		bool input = false;
		if (r > 0 && (pf[2].revents & POLLIN)) {
			int sig = tui_signal_take();
			if (sig) {
				status = 128 + sig;
				break;
			}
		}
		if (r > 0 && (pf[1].revents & POLLIN)) {
			wtg_session_drain_wake(s);
			pending = true;
		}
		/* keys (and KEY_RESIZE after a SIGWINCH) */
		bool quit = false;
		wint_t ch;
		int code;
		while (!quit && (code = wget_wch(stdscr, &ch)) != ERR) {
			quit = on_key(d, code, ch);
			input = true;
		}
		if (quit)
			break;
		if (r > 0 && (pf[0].revents & (POLLHUP | POLLERR))) {
			status = 128 + SIGHUP;	/* the terminal went away */
			break;
		}
		d->stall_ns = wtg_session_watchdog(s, s->opt->time_limit_ms * 1000000LL);
		autoplay_tick(d, now);
		autorun_tick(d);
		bool due = input || r == 0 || (pending && now - d->last_frame >= FRAME_MIN_NS) || r < 0;
		if (due) {
			draw(d, now);
			pending = false;
		}
	}
	wtg_session_cancel(s);
	destroy_windows(d);
	tui_screen_close();
	for (int i = 0; i < wtg_nexperiments; i++)
		wtg_table_free(&d->snap[i]);
	return status;
}
