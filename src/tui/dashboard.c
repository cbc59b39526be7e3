/* dashboard.c: the dashboard's control: its state, the one function that changes the run mode, what
 * it observes of the session (marking dirty what moved), and the loop. The UI thread sleeps in
 * poll() on the terminal, the worker's wake fd and the signal pipe, and never waits for the worker.
 * Drawing is in draw.c, the keys in keys.c.
 *
 * Every state change and the windows it marks dirty:
 *   resize, layout, an overlay's end ............... all (dash_layout, dash_set_overlay)
 *   the tab ........................................ tabs, frame, view, panels (dash_set_tab)
 *   the run mode (pause, autoplay, hold) ........... frame, view, progress (set_mode)
 *   a notice shown, or its time up ................. status (dash_notice, observe)
 *   the tab's table: new content ................... frame, view, panels, tabs (observe)
 *   the tab's table: progress only ................. frame, and view while it has no rows (observe)
 *   the running experiment, or its status .......... tabs, frame, view, progress (observe)
 *   any experiment's state ......................... tabs (observe)
 *   the tab's place in the queue ................... frame, view (observe)
 *   the data file's state .......................... header, progress, panels, view (observe)
 *   the data file's bytes done ..................... header (each 1%), progress (observe)
 *   the conditions, the page-cache residency ....... panels (observe)
 *   starved seconds ................................ status (observe)
 *   a tick of time while something moves ........... progress (observe) */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "wtg/conditions.h"
#include "wtg/gate.h"
#include "dash.h"

#define FRAME_MIN_NS 30000000LL	/* rows landing faster than this share a frame */
#define FRAME_BUSY_NS 150000000LL	/* ... while an experiment measures (a key still draws at once) */
#define RESIDENT_NS 500000000LL
#define BOOT_MAX 512		/* the ratio line bootstraps runs of at most this many samples */	/* how often the page cache's residency of the data file is read */

/* ---- small things ---- */

void dash_notice(struct dash *d, enum tui_role role, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->note.text, sizeof d->note.text, fmt, ap);
	va_end(ap);
	d->note.role = role;
	d->note.path = 0;
	d->note.until = wtg_now_ns() + NOTICE_NS;
	d->dirty |= DIRTY_STATUS;
}

void dash_notice_path(struct dash *d, enum tui_role role, const char *what, const char *path)
{
	dash_notice(d, role, "%s %s", what, path);
	d->note.path = (int)strlen(what) + 1;
}

bool dash_built(int idx)
{
	return idx >= 0 && idx < wtg_nexperiments && wtg_experiments[idx]->run != NULL;
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

/* The key of each deck position: 1-9 and 0, then the shifted digits. */
const char dash_deck_keys[] = "1234567890!@#$%^&*(";

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

int dash_next_built(const struct dash *d, int from)
{
	for (int p = from < 0 ? 0 : from; p < dash_deck_len(d); p++)
		if (dash_built(dash_deck_at(d, p)))
			return dash_deck_at(d, p);
	return -1;
}

/* ---- the run mode: pause, autoplay, the tab that runs when the worker is free ---- */

static void set_mode(struct dash *d, enum dash_mode m)
{
	d->run.mode = m;
	d->dirty |= DIRTY_FRAME | DIRTY_VIEW | DIRTY_PROGRESS;
}

static bool autoplaying(const struct dash *d)
{
	return d->run.mode == DM_AUTOPLAY_RUNNING || d->run.mode == DM_AUTOPLAY_HOLDING;
}

/* Autoplay shows idx and runs it (or lets it finish when it runs already). */
static void autoplay_start(struct dash *d, int idx)
{
	struct wtg_session *s = d->s;
	struct wtg_run_status st;
	dash_set_tab(d, idx);
	set_mode(d, DM_AUTOPLAY_RUNNING);
	d->run.idx = idx;
	d->tried[idx] = true;
	wtg_session_status(s, idx, &st);
	if (st.current && st.state == WTG_RUNNING) {
		d->run.t0 = st.started_ns;	/* already running: let it finish */
	} else {
		wtg_session_cancel(s);
		d->run.t0 = wtg_now_ns();
		wtg_session_enqueue(s, idx);
	}
}

static void rerun(struct dash *d)
{
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	if (!dash_built(d->tab)) {
		dash_notice(d, TR_WARN, "%s is not built yet", e->name);
		return;
	}
	wtg_session_cancel(d->s);
	wtg_session_enqueue(d->s, d->tab);
	d->tried[d->tab] = true;
	set_mode(d, DM_NORMAL);
	dash_notice(d, TR_OK, "running %s", e->name);
}

static void pause_toggle(struct dash *d)
{
	struct wtg_session *s = d->s;
	if (d->run.mode == DM_PAUSED) {
		set_mode(d, DM_NORMAL);
		if (d->run.idx >= 0) {
			wtg_session_enqueue(s, d->run.idx);
			dash_notice(d, TR_OK, "resumed: running %s again", wtg_experiments[d->run.idx]->name);
		} else {
			dash_notice(d, TR_OK, "resumed");
		}
		return;
	}
	set_mode(d, DM_PAUSED);
	d->run.idx = atomic_load(&s->current);
	if (d->run.idx >= 0) {
		wtg_session_cancel(s);
		dash_notice(d, TR_WARN, "paused: %s stopped; space runs it again", wtg_experiments[d->run.idx]->name);
	} else {
		dash_notice(d, TR_WARN, "paused: nothing starts until space");
	}
}

/* Normal mode: the tab shown runs when it never ran and the worker is free (once per tab). */
static void autorun(struct dash *d)
{
	struct wtg_run_status st;
	if (d->small || d->overlay == OV_START || !dash_built(d->tab) || d->tried[d->tab])
		return;
	wtg_session_status(d->s, d->tab, &st);
	if (st.state != WTG_IDLE || st.nrows > 0 || !wtg_session_idle(d->s))
		return;
	d->tried[d->tab] = true;
	wtg_session_enqueue(d->s, d->tab);
}

/* Autoplay: hold a tab whose run ended, then move on to the next built one, or stop after the last. */
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
		int next = dash_next_built(d, dash_deck_pos(d, d->run.idx) + 1);
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
		if (!autoplaying(d))
			pause_toggle(d);
		break;
	case EV_RERUN:
		rerun(d);
		break;
	case EV_AUTOPLAY:
		start = dash_next_built(d, dash_deck_pos(d, d->tab));
		if (start < 0)
			start = dash_next_built(d, 0);
		if (start < 0) {
			dash_notice(d, TR_WARN, "autoplay: no experiment is built yet");
			break;
		}
		autoplay_start(d, start);
		dash_notice(d, TR_OK, "autoplay: every experiment in turn; any key takes over");
		break;
	case EV_TAKE_OVER:
		if (autoplaying(d)) {
			set_mode(d, DM_NORMAL);
			dash_notice(d, TR_OK, "autoplay stopped: the keys are yours");
		}
		break;
	case EV_TICK:
		if (autoplaying(d))
			autoplay_tick(d, now);
		else if (d->run.mode == DM_NORMAL)
			autorun(d);
		break;
	}
}

/* ---- what the session shows: compared with what was seen, marking what moved ---- */

/* Data file, worker, tab states, the queue. */
static unsigned observe_worker(struct dash *d)
{
	struct wtg_session *s = d->s;
	struct dash_seen *v = &d->seen;
	unsigned dirty = 0;
	int dfs = atomic_load(&s->df_state);
	uint64_t done = atomic_load(&s->df.done);
	uint64_t total = s->opt->file ? (d->file_st_ok ? (uint64_t)d->file_st.st_size : 0) : s->opt->size;
	int pct = total ? (int)(done * 100 / total) : (int)(done >> 20);
	if (dfs != v->df_state)
		dirty |= DIRTY_HEADER | DIRTY_PROGRESS | DIRTY_PANELS | DIRTY_VIEW;
	if (pct != v->df_pct || total != v->df_total)
		dirty |= DIRTY_HEADER;
	if (done != v->df_done)
		dirty |= DIRTY_PROGRESS;
	v->df_state = dfs, v->df_done = done, v->df_total = total, v->df_pct = pct;

	struct wtg_run_status run, st;
	wtg_session_status(s, -1, &run);
	if (run.idx != v->current)
		dirty |= DIRTY_TABS | DIRTY_FRAME | DIRTY_VIEW | DIRTY_PROGRESS;
	if (memcmp(&run, &v->run, sizeof run) != 0)
		dirty |= DIRTY_PROGRESS;
	v->current = run.idx;
	v->run = run;
	for (int i = 0; i < wtg_nexperiments; i++) {
		wtg_session_status(s, i, &st);
		if (st.state != v->states[i])
			dirty |= DIRTY_TABS;
		v->states[i] = st.state;
		if (i == d->tab && st.queue_pos != v->qpos) {
			dirty |= DIRTY_FRAME | DIRTY_VIEW;
			v->qpos = st.queue_pos;
		}
	}
	return dirty;
}

/* The conditions, the page cache's residency, starvation, notices, time. */
static unsigned observe_conditions(struct dash *d, int64_t now)
{
	struct wtg_session *s = d->s;
	struct dash_seen *v = &d->seen, old = d->seen;
	v->burners = wtg_burner_count();
	v->burn_kind = wtg_burner_kind();
	v->bg = wtg_policy_requested();
	v->uncached = wtg_uncached_requested();
	v->granted = wtg_policy_granted();
	v->answered = wtg_policy_answered();
	v->io = v->df_state == WTG_DF_READY ? wtg_iomode_effective(&s->df) : WTG_IO_CACHED;
	if (v->df_state != WTG_DF_READY) {
		v->resident = -1;
	} else if (now - v->resident_at >= RESIDENT_NS) {
		/* mincore: well under a millisecond for 256 MiB, so c, u and pagecache's evictions show */
		v->resident_at = now;
		v->resident = wtg_datafile_resident_pages(&s->df);
	}
	unsigned dirty = 0;
	if (d->pending.bits && (v->current != d->pending.idx || v->run.nrows != d->pending.nrows)) {
		d->pending.bits = 0;	/* the next batch started, or the run ended: it applies */
		dirty |= DIRTY_PANELS;
	}
	if (v->burners != old.burners || v->burn_kind != old.burn_kind || v->bg != old.bg ||
	    v->uncached != old.uncached || v->granted != old.granted || v->answered != old.answered || v->io != old.io ||
	    v->resident != old.resident)
		dirty |= DIRTY_PANELS;

	/* starved: no heartbeat, or no new step while the background policy runs under burners */
	const struct wtg_run_status *r = &v->run;
	if (r->idx != d->step_run.idx || r->step != d->step_run.step || strcmp(r->label, d->step_run.label)) {
		d->step_run = *r;
		d->step_since = now;
	}
	int64_t still = now - d->step_since;
	bool squeezed = v->burners > 0 && v->bg && still > STARVED_NS;
	int64_t stall = d->stall_ns > STARVED_NS ? d->stall_ns : squeezed ? still : 0;
	v->stall_s = r->idx >= 0 && stall > 0 ? (int)(stall / 1000000000LL) : -1;
	v->notice_on = now < d->note.until;
	if (v->stall_s != old.stall_s || v->notice_on != old.notice_on)
		dirty |= DIRTY_STATUS;

	bool moving = v->current >= 0 || v->df_state == WTG_DF_PREPARING || autoplaying(d);
	v->tick = moving ? now / (TICK_MS * 1000000LL) : -1;
	if (v->tick != old.tick)
		dirty |= DIRTY_PROGRESS;
	return dirty;
}

/* ---- runs: saved, earlier, current ---- */

/* The current run of the tab becomes an earlier one (the oldest kept goes). */
static void keep_run(struct dash *d, int tab)
{
	struct wtg_table *t = &d->snap[tab];
	if (t->nrows == 0 && t->nseries == 0)
		return;
	struct dash_hist *h = &d->hist[tab];
	if (h->n == DASH_KEEP - 1) {
		wtg_table_free(&h->t[0]);
		memmove(&h->t[0], &h->t[1], sizeof h->t[0] * (DASH_KEEP - 2));
		memmove(h->label[0], h->label[1], sizeof h->label[0] * (DASH_KEEP - 2));
		h->n--;
	}
	wtg_table_init(&h->t[h->n], wtg_experiments[tab]);
	wtg_table_snapshot(&h->t[h->n], t);
	wtg_lay_table_conditions(h->label[h->n], sizeof h->label[h->n], t);
	h->n++;
	h->back = 1;
	h->cmp_version = 0;
}

const struct wtg_table *dash_shown(const struct dash *d)
{
	const struct wtg_table *t = &d->snap[d->tab];
	if (t->nrows > 0 || t->nseries > 0 || t->state == WTG_RUNNING || t->error[0])
		return t;
	const struct dash_hist *h = &d->hist[d->tab];
	if (h->n > 0)
		return &h->t[h->n - 1];
	for (int i = d->nloaded - 1; i >= 0; i--)
		if (d->loaded[i].present[d->tab])
			return &d->loaded[i].tables[d->tab];
	return t;
}

/* The label of the live run: --label (or "live" beside saved runs) and its conditions. */
static void live_label(const struct dash *d, const struct wtg_table *t, char *buf, size_t len)
{
	char cond[96];
	wtg_lay_table_conditions(cond, sizeof cond, t);
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

/* The line of ratios above the view, what a class reads first. Two runs: "A -> B: x0.58 [CI 0.51-0.66]
 * figure; x1.02 [CI ...] figure" (before -> after, then each headline's ratio and what it is); more:
 * "figure vs A: B x0.58 [a, b], C x1.02 [a, b]; ..." (each run against the first). */
static void make_compare(const struct dash *d, const struct wtg_table *const *t, const char *const *label, int n,
			 char *buf, size_t len)
{
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	const char *dash = d->look.g->dash;
	int nh;
	const struct wtg_headline *h = wtg_headlines_of(e, &nh);
	size_t k = 0;
	buf[0] = '\0';
	if (n == 2)
		k += (size_t)snprintf(buf, len, "%s %s %s:", label[0], d->look.g->arrow, label[1]);
	size_t head = k;
	for (int i = 0; i < nh && k < len; i++) {
		struct wtg_figure base, now;
		wtg_figure_read(&h[i], t[0], &base);
		char fig[96];
		short_figure(fig, sizeof fig, h[i].figure);
		int shown = 0;
		for (int r = 1; r < n && k < len; r++) {
			double ratio, lo, hi;
			const char *method;
			wtg_figure_read(&h[i], t[r], &now);
			struct wtg_figure b = base;
			if (b.nsamples > BOOT_MAX || now.nsamples > BOOT_MAX) {
				b.samples = now.samples = NULL;	/* from the two CIs: the screen stays live */
				b.nsamples = now.nsamples = 0;
			}
			wtg_ratio_ci(&b, &now, d->s->opt->seed, &ratio, &lo, &hi, &method);
			if (isnan(ratio))
				continue;
			char ci[64] = "";
			if (n == 2 && !isnan(lo))
				snprintf(ci, sizeof ci, " [CI %.2f%s%.2f]", lo, dash, hi);
			else if (!isnan(lo))
				snprintf(ci, sizeof ci, " [%.2f, %.2f]", lo, hi);
			if (n == 2)
				k += (size_t)snprintf(buf + k, len - k, "%s x%.2f%s %s", k > head ? ";" : "", ratio, ci, fig);
			else if (shown++ == 0)
				k += (size_t)snprintf(buf + k, len - k, "%s%s vs %s: %s x%.2f%s", k ? "; " : "", fig,
						      label[0], label[r], ratio, ci);
			else
				k += (size_t)snprintf(buf + k, len - k, ", %s x%.2f%s", label[r], ratio, ci);
		}
	}
	if (k == head)
		buf[0] = '\0';	/* no figure in both runs: no line */
}

void dash_view_runs(struct dash *d, struct tui_view *v)
{
	static const struct wtg_table *tabs[WTG_LAY_MAX_RUNS];
	static const char *labels[WTG_LAY_MAX_RUNS];
	static char live[128];
	int n = 0, tab = d->tab;
	unsigned faded = 0;
	struct dash_hist *h = &d->hist[tab];
	for (int i = 0; i < d->nloaded && n < WTG_LAY_MAX_RUNS - 2; i++)
		if (d->loaded[i].present[tab] && &d->loaded[i].tables[tab] != v->t) {
			tabs[n] = &d->loaded[i].tables[tab];
			labels[n++] = d->loaded[i].meta.label;
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
		labels[n] = h->n && v->t == &h->t[h->n - 1] ? h->label[h->n - 1] : "";
		for (int i = 0; i < d->nloaded; i++)
			if (v->t == &d->loaded[i].tables[tab])
				labels[n] = d->loaded[i].meta.label;
	}
	v->scroll = d->scroll[tab];
	v->tables = tabs;
	v->ntables = n;
	v->labels = labels;
	v->faded = faded;
	v->compare = NULL;
	if (n == 0 || v->t->state == WTG_RUNNING)
		return;
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
	dash_notice(d, TR_OK, "beside it: the run %d before this one (%s); %d kept", h->back, h->label[h->n - h->back],
		    h->n);
}

bool dash_header_runs(const struct dash *d, char *buf, size_t len)
{
	if (d->nloaded == 0)
		return false;
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < d->nloaded && k < len; i++) {
		const struct wtg_run_meta *m = &d->loaded[i].meta;
		char date[16] = "";
		snprintf(date, sizeof date, "%.10s", m->timestamp);
		k += (size_t)snprintf(buf + k, len - k, "%s%s: %s%s%s", i ? d->look.g->sep : "", m->label,
				      m->machine.hostname[0] ? m->machine.hostname : m->machine.cpu_model,
				      date[0] ? " " : "", date);
	}
	return true;
}

/* The tab's private copy of its table, brought up to date; a new run keeps the one before. */
static unsigned observe_tab(struct dash *d)
{
	struct wtg_table *t = &d->snap[d->tab];
	struct wtg_run_status st;
	wtg_session_status(d->s, d->tab, &st);
	if (st.started_ns != t->started_ns && t->started_ns != 0)
		keep_run(d, d->tab);
	switch (wtg_table_snapshot(t, &d->s->tables[d->tab])) {
	case WTG_SNAP_CONTENT:
		return DIRTY_TABS | DIRTY_FRAME | DIRTY_VIEW | DIRTY_PANELS;
	case WTG_SNAP_PROGRESS:
		/* "measuring: label" stands in the view until the first row */
		return DIRTY_FRAME | (t->nrows == 0 && t->nseries == 0 ? DIRTY_VIEW : 0);
	default:
		return 0;
	}
}

static void observe(struct dash *d, int64_t now)
{
	d->dirty |= observe_worker(d);
	d->dirty |= observe_conditions(d, now);
	d->dirty |= observe_tab(d);
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

void dash_layout(struct dash *d)
{
	destroy_windows(d);
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

/* ---- the loop ---- */

static void dash_init(struct dash *d, struct wtg_session *s)
{
	memset(d, 0, sizeof *d);
	d->s = s;
	d->run.mode = DM_NORMAL;
	d->run.idx = -1;
	d->tab = dash_deck_at(d, 0);	/* the lecture's first tab */
	d->t_start = wtg_now_ns();
	d->seen.current = -1;
	d->seen.qpos = -1;
	d->seen.df_state = -1;
	d->seen.resident = -1;
	d->step_run.idx = -1;
	d->pending.idx = -1;
	if (dash_is_lecture(d))
		d->overlay = OV_START;	/* the lecture's cover: the first tab runs after a key */
	if (s->opt->file)
		d->file_st_ok = stat(s->opt->file, &d->file_st) == 0;
	for (int i = 0; i < wtg_nexperiments; i++)
		wtg_table_init(&d->snap[i], wtg_experiments[i]);
}

/* Keys until none is waiting; returns true to quit. */
static bool read_keys(struct dash *d, bool *input)
{
	wint_t ch;
	int code;
	while ((code = wget_wch(stdscr, &ch)) != ERR) {
		*input = true;
		if (dash_on_key(d, code, ch))
			return true;
	}
	return false;
}

/* Poll, keys, ticks and frames until the user quits or a signal ends it; the exit status. */
static int loop(struct dash *d)
{
	struct wtg_session *s = d->s;
	bool pending = true;
	for (;;) {
		int64_t now = wtg_now_ns();
		bool animate = d->seen.tick >= 0 || now < d->note.until;
		int timeout = animate ? TICK_MS : -1;
		/* the dashboard's own work moves what it shows: while a run measures, frames are fewer */
		const int64_t frame_ns = d->seen.current >= 0 ? FRAME_BUSY_NS : FRAME_MIN_NS;
		if (pending) {
			int64_t wait = (d->last_frame + frame_ns - now) / 1000000;
			timeout = wait < 0 ? 0 : (timeout < 0 || wait < timeout ? (int)wait : timeout);
		}
		struct pollfd pf[3] = {
			{ .fd = STDIN_FILENO, .events = POLLIN },
			{ .fd = s->wake_fd, .events = POLLIN },
			{ .fd = tui_signal_fd(), .events = POLLIN },
		};
		int r = poll(pf, 3, timeout);
		if (r < 0 && errno != EINTR)
			return 0;
		now = wtg_now_ns();
		bool input = false;
		if (r > 0 && (pf[2].revents & POLLIN)) {
			int sig = tui_signal_take();
			if (sig)
				return 128 + sig;
		}
		if (r > 0 && (pf[1].revents & POLLIN)) {
			wtg_session_drain_wake(s);
			pending = true;
		}
		if (read_keys(d, &input))	/* and KEY_RESIZE after a SIGWINCH */
			return 0;
		if (r > 0 && (pf[0].revents & (POLLHUP | POLLERR)))
			return 128 + SIGHUP;	/* the terminal went away */
		d->stall_ns = wtg_session_watchdog(s, s->opt->time_limit_ms * 1000000LL);
		dash_run_event(d, EV_TICK, now);
		if (input || r <= 0 || (pending && now - d->last_frame >= frame_ns)) {
			observe(d, now);
			dash_draw(d, now);
			d->last_frame = now;
			pending = false;
		}
	}
}

static struct wtg_loaded *tui_loaded;
static int tui_nloaded;

int wtg_tui_main(struct wtg_session *s)
{
	static struct dash dd;
	struct dash *d = &dd;
	dash_init(d, s);
	d->loaded = tui_loaded;
	d->nloaded = tui_nloaded;
	for (int i = 0; i < wtg_nexperiments && d->nloaded; i++)
		d->tried[i] = true;	/* saved runs: nothing measures until r */
	if (tui_screen_open(&d->look, s->opt) < 0)
		return 1;
	dash_layout(d);
	observe(d, wtg_now_ns());
	dash_draw(d, wtg_now_ns());	/* the first frame comes before any work starts */
	if (wtg_session_start(s) < 0) {
		tui_screen_close();
		fprintf(stderr, "wtg: cannot start the worker thread\n");
		return 1;
	}
	int status = loop(d);
	wtg_session_cancel(s);
	destroy_windows(d);
	tui_screen_close();
	for (int i = 0; i < wtg_nexperiments; i++) {
		wtg_table_free(&d->snap[i]);
		for (int k = 0; k < d->hist[i].n; k++)
			wtg_table_free(&d->hist[i].t[k]);
	}
	return status;
}

int wtg_tui_main_loaded(struct wtg_session *s, struct wtg_loaded *l, int n)
{
	tui_loaded = l;
	tui_nloaded = n;
	return wtg_tui_main(s);
}
