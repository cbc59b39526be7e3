/* state.c: the dashboard's state and every change to it: notices, the tab and its deck, the run
 * mode and the one function that changes it (dash_run_event), the runs shown beside the tab, the
 * windows' layout. The loop (dashboard.c), the drawing (draw.c) and the keys (keys.c) build on it;
 * it calls none of them.
 *
 * Every state change and the windows it marks dirty:
 *   resize, layout, an overlay's end ............... all (dash_layout, dash_set_overlay)
 *   the tab ........................................ tabs, frame, view, panels (dash_set_tab)
 *   the run mode (pause, autoplay, hold) ........... frame, view, progress (set_mode)
 *   a notice shown, or its time up ................. status (dash_notice, observe in dashboard.c) */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wtg/conditions.h"
#include "wtg/figure.h"
#include "wtg/gate.h"
#include "wtg/paired.h"
#include "dash.h"


/* ---- small things ---- */

void dash_notice(struct dash *d, enum tui_role role, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->note.text, sizeof d->note.text, fmt, ap);
	va_end(ap);
	d->note.role = role;
	d->note.path = 0;
	d->note.run = -1;
	d->note.until = wtg_now_ns() + NOTICE_NS;
	d->dirty |= DIRTY_STATUS;
}

void dash_notice_run(struct dash *d, int idx, const char *before, const char *after)
{
	dash_notice(d, TR_OK, "%srunning %s%s", before, wtg_experiments[idx]->name, after);
	d->note.run = idx;
}

bool dash_notice_on(struct dash *d, int64_t now)
{
	if (now >= d->note.until)
		return false;
	if (d->note.run < 0)
		return true;
	struct wtg_run_status st;
	wtg_session_status(d->s, d->note.run, &st);
	/* taken from the queue while the data file is made: neither queued nor current yet */
	bool preparing = atomic_load(&d->s->df_state) == WTG_DF_PREPARING;
	if (st.current || st.queue_pos >= 0 || preparing)
		return true;
	d->note.until = 0;	/* its run ended: the line goes back to the keys */
	return false;
}

void dash_notice_path(struct dash *d, enum tui_role role, const char *what, const char *path)
{
	dash_notice(d, role, "%s %s", what, path);
	d->note.path = (int)strlen(what) + 1;
}

int dash_starved_s(int run_idx, int64_t stall_ns)
{
	return run_idx >= 0 && stall_ns > STARVED_NS ? (int)(stall_ns / 1000000000LL) : -1;
}

void dash_set_tab(struct dash *d, int idx)
{
	if (idx == d->tab)
		return;
	d->tab = idx;
	d->dirty |= DIRTY_TABS | DIRTY_FRAME | DIRTY_VIEW | DIRTY_PANELS;
}

void dash_set_overlay(struct dash *d, enum dash_overlay o)
{
	if (d->overlay == OV_BLANK && o == OV_NONE)
		clearok(curscr, TRUE);
	d->overlay = o;
	d->dirty = DIRTY_ALL;
}

bool dash_is_lecture(const struct dash *d)
{
	const struct wtg_options *o = d->s->opt;
	if (o->step || o->norder != wtg_nexperiments)
		return true;
	for (int i = 0; i < o->norder; i++)
		if (o->order[i] != i)
			return true;
	return false;
}

/* ---- the deck: the tabs in lecture order (--order), each with a key ---- */

/* The key of each deck position: 1-9 and 0, then the shifted digits; a tab past them would have
 * none, so tests/unit/test_tui.c holds every experiment of the registry to a key of its own. */
const char dash_deck_keys[] = "1234567890!@#$%^&*()";

int dash_deck_len(const struct dash *d)
{
	return d->s->opt->norder;
}

int dash_deck_at(const struct dash *d, int pos)
{
	return d->s->opt->order[pos];
}

int dash_deck_pos(const struct dash *d, int idx)
{
	for (int i = 0; i < dash_deck_len(d); i++)
		if (dash_deck_at(d, i) == idx)
			return i;
	return -1;
}

int dash_deck_step(const struct dash *d, int delta)
{
	int n = dash_deck_len(d), pos = dash_deck_pos(d, d->tab);
	return dash_deck_at(d, ((pos < 0 ? 0 : pos) + delta % n + n) % n);
}

int dash_deck_next(const struct dash *d, int from)
{
	int p = from < 0 ? 0 : from;
	return p < dash_deck_len(d) ? dash_deck_at(d, p) : -1;
}

/* ---- the run mode: pause, autoplay, the tab that runs when the worker is free ---- */

static void set_mode(struct dash *d, enum dash_mode m)
{
	d->run.mode = m;
	d->dirty |= DIRTY_FRAME | DIRTY_VIEW | DIRTY_PROGRESS;
}

bool dash_autoplaying(const struct dash *d)
{
	return d->run.mode == DM_AUTOPLAY_RUNNING || d->run.mode == DM_AUTOPLAY_HOLDING;
}

/* Autoplay shows idx and runs it (or lets it finish when it runs already). Presenting saved runs
 * (--load) it only shows idx for the hold: nothing measures until r. */
static void autoplay_start(struct dash *d, int idx)
{
	struct wtg_session *s = d->s;
	struct wtg_run_status st;
	dash_set_tab(d, idx);
	d->run.idx = idx;
	d->tried[idx] = true;
	if (d->nloaded) {
		set_mode(d, DM_AUTOPLAY_HOLDING);
		d->run.until = wtg_now_ns() + (int64_t)s->opt->hold_ms * 1000000;
		return;
	}
	set_mode(d, DM_AUTOPLAY_RUNNING);
	wtg_session_status(s, idx, &st);
	if (st.current && st.state == WTG_RUNNING) {
		d->run.t0 = st.started_ns;	/* already running: let it finish */
	} else {
		wtg_session_cancel(s);
		d->run.t0 = wtg_now_ns();
		wtg_session_enqueue(s, idx);
	}
}

/* r after a finished run: the rerun is paired against the conditions the tab ran under (its arm B's
 * when it was paired itself): arm A them, arm B those in force now; nothing changed, an A/A run. */
static void pair_rerun(struct dash *d)
{
	const struct wtg_table *t = &d->snap[d->tab];
	if (t->state != WTG_DONE || t->nrows == 0)
		return;
	int r = 0;
	while (wtg_table_paired(t) && r + 1 < t->nrows && !wtg_row_arm_b(t, r))
		r++;
	const struct wtg_cond_snapshot *c = &t->rows[r].cond;
	const struct wtg_arm_state before = { .burn = c->burners, .kind = c->burn_kind, .background = c->background,
					      .uncached = c->uncached, .cold = t->cold };
	wtg_session_pair_next(d->s, d->tab, &before);
}

static void rerun(struct dash *d)
{
	wtg_session_cancel(d->s);
	pair_rerun(d);
	wtg_session_enqueue(d->s, d->tab);
	d->tried[d->tab] = true;
	set_mode(d, DM_NORMAL);
	dash_notice_run(d, d->tab, "", "");
}

static void pause_toggle(struct dash *d)
{
	struct wtg_session *s = d->s;
	if (d->run.mode == DM_PAUSED) {
		set_mode(d, DM_NORMAL);
		if (d->run.idx >= 0) {
			wtg_session_enqueue(s, d->run.idx);
			dash_notice_run(d, d->run.idx, "resumed: ", " again");
		} else {
			dash_notice(d, TR_OK, "resumed");
		}
		return;
	}
	set_mode(d, DM_PAUSED);
	d->run.idx = atomic_load(&s->current);
	for (int i = 0; i < wtg_nexperiments && d->run.idx < 0; i++) {
		struct wtg_run_status st;	/* queued, not started yet (r then space at once) */
		wtg_session_status(s, i, &st);
		if (st.queue_pos == 0)
			d->run.idx = i;
	}
	if (!wtg_session_idle(s))
		wtg_session_cancel(s);	/* nothing starts: not the queue's head either */
	if (d->run.idx >= 0) {
		dash_notice(d, TR_WARN, "paused: %s stopped; space runs it again", wtg_experiments[d->run.idx]->name);
	} else {
		dash_notice(d, TR_WARN, "paused: nothing starts until space");
	}
}

/* Normal mode: the tab shown runs when it never ran and the worker is free (once per tab). */
static void autorun(struct dash *d)
{
	struct wtg_run_status st;
	if (d->small || d->overlay == OV_START || d->tried[d->tab])
		return;
	wtg_session_status(d->s, d->tab, &st);
	if (st.state != WTG_IDLE || st.nrows > 0 || !wtg_session_idle(d->s))
		return;
	d->tried[d->tab] = true;
	wtg_session_enqueue(d->s, d->tab);
}

/* Autoplay: hold a tab whose run ended, then move on to the next one, or stop after the last. */
static void autoplay_tick(struct dash *d, int64_t now)
{
	if (d->run.mode == DM_AUTOPLAY_RUNNING) {
		struct wtg_run_status st;
		wtg_session_status(d->s, d->run.idx, &st);
		bool ended = st.state == WTG_DONE || st.state == WTG_FAILED || st.state == WTG_STOPPED;
		if (st.started_ns >= d->run.t0 && ended && !st.current) {
			set_mode(d, DM_AUTOPLAY_HOLDING);
			d->run.until = now + (int64_t)d->s->opt->hold_ms * 1000000;
		}
	} else if (now >= d->run.until) {
		int next = dash_deck_next(d, dash_deck_pos(d, d->run.idx) + 1);
		if (next < 0) {
			set_mode(d, DM_NORMAL);
			dash_notice(d, TR_OK, "autoplay: every experiment has run");
		} else {
			autoplay_start(d, next);
		}
	}
}

void dash_run_event(struct dash *d, enum dash_event ev, int64_t now)
{
	int start;
	switch (ev) {
	case EV_PAUSE:
		if (!dash_autoplaying(d))
			pause_toggle(d);
		break;
	case EV_RERUN:
		rerun(d);
		break;
	case EV_AUTOPLAY:
		start = dash_deck_next(d, dash_deck_pos(d, d->tab));
		if (start < 0)
			start = dash_deck_next(d, 0);
		autoplay_start(d, start);
		dash_notice(d, TR_OK, "autoplay: every experiment in turn; any key takes over");
		break;
	case EV_TAKE_OVER:
		if (dash_autoplaying(d)) {
			set_mode(d, DM_NORMAL);
			dash_notice(d, TR_OK, "autoplay stopped: the keys are yours");
		}
		break;
	case EV_TICK:
		if (dash_autoplaying(d))
			autoplay_tick(d, now);
		else if (d->run.mode == DM_NORMAL)
			autorun(d);
		break;
	}
}

const struct wtg_table *dash_shown(const struct dash *d)
{
	const struct wtg_table *t = &d->snap[d->tab];
	const struct wtg_table *c = dash_displaced_by(d, d->tab, false);
	if (c)
		return c;	/* a rerun cancelled or failed: the completed run stays the tab's */
	/* a rerun keeps the result before it on screen until it has a row of its own */
	if (t->nrows > 0 || t->error[0] || (t->nseries > 0 && t->state != WTG_RUNNING && t->state != WTG_STOPPED))
		return t;
	const struct wtg_table *b = dash_before(d);
	return b ? b : t;
}

/* The newest completed run of tab before its live one: this session's, else a saved one; NULL. */
static const struct wtg_table *completed(const struct dash *d, int tab)
{
	const struct dash_hist *h = &d->hist[tab];
	for (int k = h->n - 1; k >= 0; k--)
		if (h->t[k].state == WTG_DONE)
			return &h->t[k];
	for (int i = d->nloaded - 1; i >= 0; i--)
		if (d->loaded[i].present[tab] && d->loaded[i].tables[tab].state == WTG_DONE)
			return &d->loaded[i].tables[tab];
	return NULL;
}

const struct wtg_table *dash_displaced_by(const struct dash *d, int tab, bool running)
{
	enum wtg_state st = d->snap[tab].state;
	if (st == WTG_STOPPED || st == WTG_FAILED || (running && st == WTG_RUNNING))
		return completed(d, tab);
	return NULL;
}

const struct wtg_table *dash_before(const struct dash *d)
{
	const struct wtg_table *c = completed(d, d->tab);
	if (c)
		return c;
	const struct dash_hist *h = &d->hist[d->tab];
	if (h->n > 0)
		return &h->t[h->n - 1];
	for (int i = d->nloaded - 1; i >= 0; i--)
		if (d->loaded[i].present[d->tab])
			return &d->loaded[i].tables[d->tab];
	return NULL;
}

void dash_conditions(char *buf, size_t len, const struct wtg_table *t)
{
	wtg_lay_run_conditions(buf, len, t);
}

void dash_run_label(char *buf, size_t len, const struct wtg_table *t)
{
	char cond[128];
	dash_conditions(cond, sizeof cond, t);
	const char *what = t->state == WTG_STOPPED ? "cancelled" : t->state == WTG_FAILED ? "failed" :
			   t->state == WTG_RUNNING ? "running" : NULL;
	if (what)
		snprintf(buf, len, "%s%s(%s)", cond, cond[0] ? " " : "", what);
	else
		snprintf(buf, len, "%s", cond);
}

const char *dash_run_clock(const struct dash *d, const struct wtg_table *t, char *buf, size_t len)
{
	for (int i = 0; i < d->nloaded; i++)
		if (t == &d->loaded[i].tables[d->tab]) {	/* "2026-11-30T19:26:36Z": its time */
			const char *ts = d->loaded[i].meta.timestamp;
			snprintf(buf, len, "%.8s", strlen(ts) > 11 ? ts + 11 : "?");
			return buf;
		}
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	time_t at = now.tv_sec - (time_t)((wtg_now_ns() - t->started_ns) / 1000000000LL);
	struct tm tm;
	localtime_r(&at, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
	return buf;
}

/* The label of the live run: --label (or "live" beside saved runs) and its conditions. */
static void live_label(const struct dash *d, const struct wtg_table *t, char *buf, size_t len)
{
	char cond[96];
	dash_conditions(cond, sizeof cond, t);
	const char *name = d->s->opt->label ? d->s->opt->label : d->nloaded ? "live" : NULL;
	if (name)
		snprintf(buf, len, "%s%s%s", name, cond[0] ? ": " : "", cond);
	else
		snprintf(buf, len, "%s", cond[0] ? cond : "now");
}

/* A headline's figure without its parenthetical ("GB/s, 16-byte reads (the call-bound end)" ->
 * "GB/s, 16-byte reads"): the ratio line must fit a projector's 60 or 80 columns. */
static void short_figure(char *buf, size_t len, const char *figure)
{
	wtg_strlcpy(buf, figure, len);
	char *p = strstr(buf, " (");
	if (p && strchr(p, ')'))
		*p = '\0';
}

/* A figure as "x1.50 [CI 1.20-1.90]" (its CI when it has one). */
static void value_ci(char *buf, size_t len, const struct wtg_figure *f, const char *dash)
{
	if (isfinite(f->lo) && isfinite(f->hi))
		snprintf(buf, len, "x%.2f [CI %.2f%s%.2f]", f->value, f->lo, dash, f->hi);
	else
		snprintf(buf, len, "x%.2f", f->value);
}

/* One headline of two runs for the ratio line, the verdict before the figure's words (a narrow
 * screen cuts the end): " x0.58 [CI 0.51-0.66] faster: FIGURE"; a figure that is a ratio itself:
 * " FIGURE x1.50 -> x3.20 [CI 2.61-3.90], slower"; a difference: " -160 ns [CI -200, -120] faster:
 * FIGURE", or " within its noise: +12 ns [-40, +60]: FIGURE"; runs of different work: " not
 * comparable (WHY): FIGURE". The verdict as wtg_gate_pair gives it (two runs one after the other:
 * faster or slower only beyond the drift this session measured). */
static void pair_words(const struct dash *d, const struct wtg_headline *h, const struct wtg_gate_pair *p,
		       const char *fig, char *buf, size_t len)
{
	const char *dash = d->look.g->dash;
	char a[64], b[64], words[192];
	/* the CI is on the line already: the verdict's name alone after it, in its short words */
	const char *v = p->v == WTG_V_INCONCLUSIVE || p->v == WTG_V_MOVED || p->v == WTG_V_NO_DRIFT ?
				wtg_verdict_short(p->v) : wtg_gate_pair_words(words, sizeof words, h, p, dash);
	if (p->v == WTG_V_APART) {
		snprintf(buf, len, " not comparable (%s): %s", p->why, fig);
	} else if (p->difference && p->v == WTG_V_NOISE) {
		snprintf(buf, len, " %s: %s", v, fig);
	} else if (p->difference) {
		char x[32], y[32], z[32];
		snprintf(buf, len, " %s %s [CI %s, %s] %s: %s", wtg_fmt_signed(x, sizeof x, p->diff), h->unit,
			 wtg_fmt_signed(y, sizeof y, p->diff_lo), wtg_fmt_signed(z, sizeof z, p->diff_hi), v, fig);
	} else if (h->is_ratio) {
		/* the before figure plain, the after one with its CI: a projector's 60 columns */
		snprintf(a, sizeof a, "x%.2f", p->base.value);
		value_ci(b, sizeof b, &p->now, dash);
		snprintf(buf, len, " %s %s %s %s, %s", fig, a, d->look.g->arrow, b, v);
	} else if (!isnan(p->lo)) {
		snprintf(buf, len, " x%.2f [CI %.2f%s%.2f] %s: %s", p->ratio, p->lo, dash, p->hi, v, fig);
	} else {
		snprintf(buf, len, " x%.2f %s: %s", p->ratio, v, fig);
	}
}

/* What this session measured of headline h's drift on this tab: the replicas of every run kept and
 * of the live one, and as A/A pairs each two runs in a row under the same conditions; then the
 * replicas of the compared runs a and b where they are not among those (a saved run). */
static void session_drift(const struct dash *d, const struct wtg_headline *h, const struct wtg_table *a,
			  const struct wtg_table *b, struct wtg_drift *dr)
{
	const struct dash_hist *hs = &d->hist[d->tab];
	const struct wtg_table *live = &d->snap[d->tab];
	char cond[96];
	dash_conditions(cond, sizeof cond, live);
	wtg_drift_init(dr);
	struct wtg_figure prev = { 0 }, f;
	for (int i = 0; i <= hs->n; i++) {
		const struct wtg_table *t = i < hs->n ? &hs->t[i] : live;
		if (t->nrows == 0 || (i == hs->n && t->state == WTG_RUNNING))
			break;
		wtg_figure_read(h, t, &f);
		wtg_drift_add_run(dr, &f);
		const char *lab = i < hs->n ? hs->label[i] : cond;
		if (i > 0 && prev.found && f.found && !strcmp(lab, hs->label[i - 1]))
			wtg_drift_add_pair(dr, prev.value, f.value);
		prev = f;
		a = a == t ? NULL : a;
		b = b == t ? NULL : b;
	}
	const struct wtg_table *more[] = { a, b };
	for (int i = 0; i < 2; i++)
		if (more[i]) {
			wtg_figure_read(h, more[i], &f);
			wtg_drift_add_run(dr, &f);
		}
}

/* The headline the verdict over the view speaks of, for the ratio line to give first: of those whose
 * unit the verdict names after a number, the one whose figure lies nearest that number (valley's
 * "best buffer 1M: 14.2 GB/s" is its 64 KiB figure, not its 16-byte one); 0 when none. */
static int verdict_headline(const struct wtg_experiment *e, const struct wtg_table *t)
{
	int nh, best = 0;
	const struct wtg_headline *h = wtg_headlines_of(e, &nh);
	char v[512];	/* as the reports: ceiling's three parts run past 256 */
	double gap = INFINITY;
	wtg_experiment_verdict(e, t, v, sizeof v);
	for (int i = 0; i < nh; i++) {
		struct wtg_figure f;
		size_t ul = strlen(h[i].unit);
		wtg_figure_read(&h[i], t, &f);
		if (!f.found || !(f.value > 0) || !ul)
			continue;
		for (const char *p = strstr(v, h[i].unit); p; p = strstr(p + 1, h[i].unit)) {
			const char *q = p;
			while (q > v && q[-1] == ' ')
				q--;
			while (q > v && (strchr("0123456789.", q[-1]) != NULL))
				q--;
			double x = strtod(q, NULL);
			if (q < p && x > 0 && fabs(log(x / f.value)) < gap) {
				gap = fabs(log(x / f.value));
				best = i;
			}
		}
	}
	return best;
}

/* The paired line ("A vs B, paired over N rounds: x.. [..] word: FIGURE; x.. ...") with the part
 * whose figure is `figure` moved to the front of the parts. */
static void paired_first(char *buf, size_t len, const char *figure)
{
	char fig[96], out[1024];
	short_figure(fig, sizeof fig, figure);
	const char *head = strstr(buf, "rounds:"), *part[WTG_MAX_HEADLINES + 1];
	size_t plen[WTG_MAX_HEADLINES + 1], fl = strlen(fig);
	int np = 0, m = -1;
	if (!head || !fl)
		return;
	head += strlen("rounds:");
	for (const char *p = head; *p && np <= WTG_MAX_HEADLINES; np++) {
		const char *end = strchr(p, ';');
		part[np] = p;
		plen[np] = end ? (size_t)(end - p) : strlen(p);
		if (m < 0 && plen[np] >= fl && !strncmp(p + plen[np] - fl, fig, fl))
			m = np;
		p += plen[np] + (end ? 1 : 0);
	}
	if (m <= 0)
		return;
	size_t k = (size_t)snprintf(out, sizeof out, "%.*s%.*s", (int)(head - buf), buf, (int)plen[m], part[m]);
	for (int i = 0; i < np && k < sizeof out; i++)
		if (i != m)
			k += (size_t)snprintf(out + k, sizeof out - k, ";%.*s", (int)plen[i], part[i]);
	wtg_strlcpy(buf, out, len);
}

/* The line of ratios above the view, what a class reads first. Two runs: "A -> B: x0.58 [CI 0.51-0.66]
 * figure; x1.02 [CI ...] figure" (before -> after, then each headline's ratio and what it is); more:
 * "figure vs ●: ◆ x0.58 [a, b], ■ x1.02 [a, b]; ..." (each run against the first, by its mark on the
 * chart, whose legend or figures lines name it). */
static void make_compare(const struct dash *d, const struct wtg_table *const *t, const char *const *label, int n,
			 char *buf, size_t len)
{
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	int nh;
	const struct wtg_headline *h = wtg_headlines_of(e, &nh);
	size_t k = 0;
	buf[0] = '\0';
	int first = verdict_headline(e, t[n - 1]);
	if (wtg_table_paired(t[n - 1])) {	/* a paired rerun: its own arms, not the runs in turn */
		wtg_paired_line(t[n - 1], d->look.g->dash, buf, len);
		paired_first(buf, len, h[first].figure);
		return;
	}
	if (n == 2)
		k += (size_t)snprintf(buf, len, "%s %s %s, sequential:", label[0], d->look.g->arrow, label[1]);
	size_t head = k;
	for (int j = 0; j < nh && k < len; j++) {
		int i = j == 0 ? first : j <= first ? j - 1 : j;	/* the verdict's figure first */
		char fig[96];
		short_figure(fig, sizeof fig, h[i].figure);
		int shown = 0;
		for (int r = 1; r < n && k < len; r++) {
			/* the headless comparison's reading (src/saved/gate.c) of the same samples: the
			 * same ratio, interval and verdict; runs of different work are not compared */
			struct wtg_gate_pair p;
			struct wtg_drift dr;
			char sig[32];
			session_drift(d, &h[i], t[0], t[r], &dr);
			wtg_gate_pair_drift(&h[i], t[0], t[r], d->s->opt->seed, 0, &dr, &p);
			/* a rerun with nothing changed (A/A): its own move is drift, whatever its interval */
			if (n == 2 && !strcmp(label[0], label[1]) && (p.v == WTG_V_FASTER || p.v == WTG_V_SLOWER))
				p.v = WTG_V_MOVED;
			char what[256];
			if (p.v != WTG_V_APART && (p.v == WTG_V_MISSING || isnan(p.difference ? p.diff : p.ratio)))
				continue;
			else if (n == 2)
				pair_words(d, &h[i], &p, fig, what, sizeof what);
			else if (p.difference)
				snprintf(what, sizeof what, " %s %s", wtg_fmt_signed(sig, sizeof sig, p.diff), h[i].unit);
			else if (!isnan(p.lo))
				snprintf(what, sizeof what, " x%.2f [%.2f, %.2f]", p.ratio, p.lo, p.hi);
			else
				snprintf(what, sizeof what, " x%.2f", p.ratio);
			if (n == 2)
				k += (size_t)snprintf(buf + k, len - k, "%s%s", k > head ? ";" : "", what);
			else if (shown++ == 0)	/* more runs: each by its mark on the chart */
				k += (size_t)snprintf(buf + k, len - k, "%s%s vs %s: %s%s", k ? "; " : "", fig,
						      tui_run_marker(&d->look, 0), tui_run_marker(&d->look, r),
						      p.v == WTG_V_APART ? " not comparable" : what);
			else
				k += (size_t)snprintf(buf + k, len - k, ", %s%s", tui_run_marker(&d->look, r),
						      p.v == WTG_V_APART ? " not comparable" : what);
		}
	}
	if (k == head)
		buf[0] = '\0';	/* no figure in both runs: no line */
}

const char *dash_loaded_label(const struct dash *d, int i, int tab, char *buf, size_t len)
{
	const struct wtg_loaded *l = &d->loaded[i];
	char cond[96];
	dash_conditions(cond, sizeof cond, &l->tables[tab]);
	const char *name = d->nloaded > 1 || l->saved.label_saved ? l->meta.label : "saved";
	snprintf(buf, len, "%s%s%s", name, cond[0] ? ": " : "", cond);
	return buf;
}

/* The legend's names: the runs' labels, where two are the same (a rerun under the same conditions:
 * "quiet" twice) told apart: the current run (index n) ", now", the earlier run beside it (index
 * before, back runs before it) ", before" or ", 2 before", any other ", #k" (its place, from 1); a
 * label longer than 12 columns the word alone.
 * The ratio line keeps the plain labels ("quiet -> quiet": a rerun). */
static const char **legend_labels(const char **label, int n, int before, int back)
{
	static char buf[WTG_LAY_MAX_RUNS][160];
	static const char *out[WTG_LAY_MAX_RUNS];
	for (int i = 0; i <= n; i++) {
		out[i] = label[i];
		bool twice = false;
		for (int j = 0; j <= n && !twice; j++)
			twice = j != i && strcmp(label[i], label[j]) == 0;
		if (!twice)
			continue;
		/* a long label ("quiet and burners") gives way to the word that tells the runs apart: the
		 * ratio line above names the conditions */
		const char *l = wtg_text_width(label[i]) > 12 ? "" : label[i], *c = l[0] ? ", " : "";
		if (i == n)
			snprintf(buf[i], sizeof buf[i], "%s%snow", l, c);
		else if (i == before && back > 1)
			snprintf(buf[i], sizeof buf[i], "%s%s%d before", l, c, back);
		else if (i == before)
			snprintf(buf[i], sizeof buf[i], "%s%sbefore", l, c);
		else
			snprintf(buf[i], sizeof buf[i], "%s%s#%d", l, c, i + 1);
		out[i] = buf[i];
	}
	return out;
}

void dash_view_runs(struct dash *d, struct tui_view *v)
{
	static const struct wtg_table *tabs[WTG_LAY_MAX_RUNS];
	static const char *labels[WTG_LAY_MAX_RUNS];
	static char live[128], saved[WTG_MAX_LOADS][128], oldest[WTG_MAX_LOADS][160], relabel[WTG_LAY_MAX_RUNS][96];
	int n = 0, tab = d->tab;
	unsigned faded = 0;
	struct dash_hist *h = &d->hist[tab];
	for (int i = 0; i < d->nloaded && n < WTG_LAY_MAX_RUNS - 2; i++) {
		const struct wtg_loaded *l = &d->loaded[i];
		if (!l->present[tab])
			continue;
		/* the latest earlier runs that fit beside the saved one; the first drawn says how many older
		 * ones are not (left out here, or let go by the save) */
		int room = WTG_LAY_MAX_RUNS - 2 - n - (&l->tables[tab] != v->t), k0 = l->nearlier[tab] - room;
		k0 = k0 > 0 ? k0 : 0;
		for (int k = k0; k < l->nearlier[tab] && n < WTG_LAY_MAX_RUNS - 2; k++) {
			faded |= 1u << n;	/* what the saved run was compared with when it was saved */
			tabs[n] = &l->earlier[tab][k].t;
			labels[n] = l->earlier[tab][k].label;
			if (!strcmp(labels[n], "quiet")) {	/* saved before tail's runs were named so */
				dash_conditions(relabel[n], sizeof relabel[n], tabs[n]);
				labels[n] = relabel[n];
			}
			if (k == k0 && (k0 || l->dropped[tab])) {
				if (k0 && l->dropped[tab])
					snprintf(oldest[i], sizeof oldest[i], "%s (%d older not drawn, %d before them not saved)",
						 labels[n], k0, l->dropped[tab]);
				else
					snprintf(oldest[i], sizeof oldest[i], "%s (%d older not %s)", labels[n],
						 k0 ? k0 : l->dropped[tab], k0 ? "drawn" : "saved");
				labels[n] = oldest[i];
			}
			n++;
		}
		dash_loaded_label(d, i, tab, saved[i], sizeof saved[i]);
		if (&l->tables[tab] != v->t && n < WTG_LAY_MAX_RUNS - 2) {
			tabs[n] = &l->tables[tab];
			labels[n++] = saved[i];
		}
	}
	int before = h->n - h->back;	/* the earlier run drawn beside the current */
	if (v->t == &d->snap[tab] && before >= 0 && before < h->n) {
		faded |= 1u << n;
		tabs[n] = &h->t[before];
		labels[n++] = h->label[before];
	}
	if (v->t == &d->snap[tab]) {
		live_label(d, v->t, live, sizeof live);
		labels[n] = live;
	} else {
		labels[n] = "";
		for (int k = 0; k < h->n; k++)
			if (v->t == &h->t[k])
				labels[n] = h->label[k];
		for (int i = 0; i < d->nloaded; i++)
			if (v->t == &d->loaded[i].tables[tab])
				labels[n] = saved[i];
	}
	v->scroll = d->scroll[tab];
	v->tables = tabs;
	v->ntables = n;
	v->labels = legend_labels(labels, n, v->t == &d->snap[tab] && before >= 0 && before < h->n ? n - 1 : -1,
				  h->back);
	v->faded = faded;
	v->compare = NULL;
	if ((n == 0 && !wtg_table_paired(v->t)) || v->t->state == WTG_RUNNING)
		return;	/* a paired run alone (a saved one) has its own two arms to set side by side */
	uint64_t key = v->t->version * 131 + (uint64_t)h->back * 17 + (uint64_t)h->n + 1;
	if (key != h->cmp_version) {
		tabs[n] = v->t;
		make_compare(d, tabs, labels, n + 1, h->cmp, sizeof h->cmp);
		h->cmp_version = key;
	}
	v->compare = h->cmp;
}

void dash_scroll(struct dash *d, int delta)
{
	int n = dash_shown(d)->nrows * (d->nloaded + (d->hist[d->tab].n ? 2 : 1));
	int v = d->scroll[d->tab] + delta;
	d->scroll[d->tab] = v < 0 ? 0 : v > n ? n : v;
	d->dirty |= DIRTY_VIEW;
}

void dash_step_back(struct dash *d)
{
	struct dash_hist *h = &d->hist[d->tab];
	if (h->n == 0) {
		dash_notice(d, TR_DIM, "no earlier run of %s this session: r runs it again", wtg_experiments[d->tab]->name);
		return;
	}
	h->back = h->back % h->n + 1;
	d->dirty |= DIRTY_VIEW | DIRTY_FRAME;
	if (h->dropped)
		dash_notice(d, TR_OK, "beside it: %d before (%s); %d kept, %d dropped (%d a tab)", h->back,
			    h->label[h->n - h->back], h->n, h->dropped, DASH_KEEP);
	else
		dash_notice(d, TR_OK, "beside it: the run %d before this one (%s); %d kept", h->back,
			    h->label[h->n - h->back], h->n);
}

const struct wtg_machine *dash_machine_of(const struct dash *d, const struct wtg_table *t)
{
	for (int i = 0; i < d->nloaded; i++)
		for (int k = 0; k < WTG_MAX_EXP; k++)
			if (t == &d->loaded[i].tables[k])
				return &d->loaded[i].meta.machine;
	return &d->s->machine;
}

bool dash_header_runs(const struct dash *d, char *buf, size_t len, int width)
{
	if (d->nloaded == 0)
		return false;
	/* whole, else without the dates, else the labels alone, else how many */
	for (int form = 0; form < 3; form++) {
		size_t k = 0;
		buf[0] = '\0';
		for (int i = 0; i < d->nloaded && k < len; i++) {
			const struct wtg_run_meta *m = &d->loaded[i].meta;
			char date[16] = "";
			if (form == 0)
				snprintf(date, sizeof date, "%.10s", m->timestamp);
			k += (size_t)snprintf(buf + k, len - k, "%s%s%s%s%s%s", i ? d->look.g->sep : "", m->label,
					      form < 2 ? ": " : "",
					      form == 2 ? "" : m->machine.hostname[0] ? m->machine.hostname : m->machine.cpu_model,
					      date[0] ? " " : "", date);
		}
		if (tui_width(buf) <= width)
			return true;
	}
	snprintf(buf, len, "%d saved run%s", d->nloaded, d->nloaded == 1 ? "" : "s");
	if (tui_width(buf) > width)
		buf[0] = '\0';
	return true;
}

/* ---- layout ---- */

void dash_destroy_windows(struct dash *d)
{
	WINDOW **ws[] = { &d->help, &d->view, &d->hdr, &d->tabs, &d->box, &d->pt, &d->pf, &d->pc, &d->prog,
			  &d->status };
	for (size_t i = 0; i < WTG_ARRAY_LEN(ws); i++)
		if (*ws[i]) {
			delwin(*ws[i]);
			*ws[i] = NULL;
		}
}

void dash_layout(struct dash *d)
{
	dash_destroy_windows(d);
	getmaxyx(stdscr, d->rows, d->cols);
	d->small = d->rows < MIN_ROWS || d->cols < MIN_COLS;
	d->compact = d->rows < FULL_ROWS || d->cols < FULL_COLS;
	werase(stdscr);
	wnoutrefresh(stdscr);
	d->dirty = DIRTY_ALL;
	if (d->small)
		return;
	int W = d->cols, H = d->rows;
	int box_h = H - 2 - (d->compact ? 0 : PANEL_H) - 2;
	d->hdr = newwin(1, W, 0, 0);
	d->tabs = newwin(1, W, 1, 0);
	d->box = newwin(box_h, W, 2, 0);
	d->view = derwin(d->box, box_h - 2, W - 2, 1, 1);
	d->prog = newwin(1, W, H - 2, 0);
	d->status = newwin(1, W, H - 1, 0);
	int hh = H - 2 < 23 ? H - 2 : 23, hw = W - 4 < 78 ? W - 4 : 78;
	d->help = newwin(hh, hw, (H - hh) / 2, (W - hw) / 2);
	if (d->compact)
		return;	/* the panels' room goes to the experiment */
	/* at 80 columns: 24 + 25 + 31, the conditions' words need the most */
	int tw = W * 24 / 80, fw = W * 25 / 80;
	int cw = W - tw - fw;
	int py = 2 + box_h;
	d->pt = newwin(PANEL_H, tw, py, 0);
	d->pf = newwin(PANEL_H, fw, py, tw);
	d->pc = newwin(PANEL_H, cw, py, tw + fw);
}
