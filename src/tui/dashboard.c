/* dashboard.c: the dashboard's loop and what it observes of the session (marking dirty what moved).
 * The UI thread sleeps in poll() on the terminal, the worker's wake fd and the signal pipe, and
 * never waits for the worker. The state and its changes are in state.c, drawing in draw.c, the keys
 * in keys.c; this file calls them, none of them calls it.
 *
 * What observe() sees and the windows it marks dirty (the state's own changes: state.c):
 *   a notice's time up ............................. status (observe)
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
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "wtg/conditions.h"
#include "dash.h"

#define FRAME_MIN_NS 30000000LL	/* rows landing faster than this share a frame */
#define FRAME_BUSY_NS 150000000LL	/* ... while an experiment measures (a key still draws at once) */
#define RESIDENT_NS 500000000LL	/* how often the page cache's residency of the data file is read */

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
	v->cold_asked = wtg_cold_requested();
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
	    v->resident != old.resident || v->cold_asked != old.cold_asked)
		dirty |= DIRTY_PANELS;

	/* starved: the watchdog's figure (wtg_session_stall), the one rule that also ends the run */
	v->stall_s = dash_starved_s(v->run.idx, wtg_session_stall(s));
	v->notice_on = dash_notice_on(d, now);
	if (v->stall_s != old.stall_s || v->notice_on != old.notice_on)
		dirty |= DIRTY_STATUS;

	bool moving = v->current >= 0 || v->df_state == WTG_DF_PREPARING || dash_autoplaying(d);
	v->tick = moving ? now / (TICK_MS * 1000000LL) : -1;
	if (v->tick != old.tick)
		dirty |= DIRTY_PROGRESS;
	return dirty;
}

/* ---- runs: saved, earlier, current ---- */

/* The newest completed run among h's, -1 for none. */
static int newest_done(const struct dash_hist *h)
{
	for (int k = h->n - 1; k >= 0; k--)
		if (h->t[k].state == WTG_DONE)
			return k;
	return -1;
}

/* The tab's last run, which a new one follows, becomes an earlier one, as it ended (the session
 * keeps it whole, even when the last look at it came before its end); a cancelled or failed run is
 * kept as such. Full, the oldest goes, never the newest completed one. */
static void keep_run(struct dash *d, int tab)
{
	struct wtg_table *t = &d->snap[tab];
	if (t->nrows == 0 && t->nseries == 0 && t->state == WTG_IDLE)
		return;
	struct dash_hist *h = &d->hist[tab];
	if (h->n == DASH_KEEP - 1) {
		int drop = newest_done(h) == 0 ? 1 : 0;
		wtg_table_free(&h->t[drop]);
		memmove(&h->t[drop], &h->t[drop + 1], sizeof h->t[0] * (size_t)(h->n - drop - 1));
		memmove(h->label[drop], h->label[drop + 1], sizeof h->label[0] * (size_t)(h->n - drop - 1));
		h->n--;
		h->dropped++;
	}
	struct wtg_table *k = &h->t[h->n];
	wtg_table_init(k, wtg_experiments[tab]);
	if (!wtg_session_previous(d->s, tab, t->started_ns, k))
		wtg_table_snapshot(k, t);	/* runs in between: the last look is what there is */
	dash_run_label(h->label[h->n], sizeof h->label[h->n], k);
	h->n++;
	/* drawn beside the current (before -> after): the newest completed earlier run, else the
	 * newest with something to draw */
	int done = newest_done(h);
	h->back = done >= 0 ? h->n - done : 1;
	while (done < 0 && h->back < h->n && h->t[h->n - h->back].nrows == 0 && h->t[h->n - h->back].nseries == 0)
		h->back++;
	h->cmp_version = 0;
}

/* Every tab's private copy of its table, brought up to date (a new run keeps the one before); what
 * the current tab's moved. */
static unsigned observe_tabs(struct dash *d)
{
	unsigned dirty = 0;
	for (int i = 0; i < wtg_nexperiments; i++) {
		struct wtg_table *t = &d->snap[i];
		struct wtg_run_status st;
		wtg_session_status(d->s, i, &st);
		if (st.started_ns != t->started_ns && t->started_ns != 0)
			keep_run(d, i);
		enum wtg_snap what = wtg_table_snapshot(t, &d->s->tables[i]);
		if (i != d->tab)
			dirty |= what == WTG_SNAP_CONTENT ? DIRTY_TABS : 0;
		else if (what == WTG_SNAP_CONTENT)
			dirty |= DIRTY_TABS | DIRTY_FRAME | DIRTY_VIEW | DIRTY_PANELS;
		else if (what == WTG_SNAP_PROGRESS)	/* "measuring: label" stands in the view until the first row */
			dirty |= DIRTY_FRAME | (t->nrows == 0 && t->nseries == 0 ? DIRTY_VIEW : 0);
	}
	return dirty;
}

unsigned dash_observe(struct dash *d, int64_t now)
{
	unsigned dirty = observe_worker(d);
	dirty |= observe_conditions(d, now);
	dirty |= observe_tabs(d);
	d->dirty |= dirty;
	return dirty;
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
	d->pending.idx = -1;
	d->note.run = -1;
	if (dash_is_lecture(d))
		d->overlay = OV_START;	/* the lecture's cover: the first tab runs after a key */
	if (s->opt->file)
		d->file_st_ok = stat(s->opt->file, &d->file_st) == 0;
	for (int i = 0; i < wtg_nexperiments; i++)
		wtg_table_init(&d->snap[i], wtg_experiments[i]);
}

/* What moved, drawn; the frame recorded (--record), and a recording that stopped said once. */
static void frame(struct dash *d, int64_t now)
{
	dash_observe(d, now);
	dash_draw(d, now);
	tui_record_frame();
	char msg[256];
	if (tui_record_stopped(msg, sizeof msg)) {
		dash_notice(d, TR_WARN, "%s", msg);
		dash_draw(d, now);
	}
}

/* Keys until none is waiting; returns true to quit. */
static bool read_keys(struct dash *d, bool *input)
{
	wint_t ch;
	int code;
	while ((code = wget_wch(stdscr, &ch)) != ERR) {
		*input = true;
		if (dash_on_key(d, code, ch) || d->quit)
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
			bool continued = false;
			int sig = tui_signal_take(&continued);
			if (sig)
				return 128 + sig;
			if (continued) {	/* stopped and continued: the terminal may be a shell's */
				tui_screen_resume();
				d->dirty = DIRTY_ALL;
				input = true;	/* a frame now */
			}
		}
		if (r > 0 && (pf[1].revents & POLLIN)) {
			wtg_session_drain_wake(s);
			pending = true;
		}
		if (read_keys(d, &input))	/* and KEY_RESIZE after a SIGWINCH */
			return d->quit_status;
		if (r > 0 && (pf[0].revents & (POLLHUP | POLLERR)))
			return 128 + SIGHUP;	/* the terminal went away */
		dash_run_event(d, EV_TICK, now);
		if (input || r <= 0 || (pending && now - d->last_frame >= frame_ns)) {
			frame(d, now);
			d->last_frame = now;
			pending = false;
		}
	}
}

/* The dashboard on s, with the n saved runs l drawn from the start (none: l NULL, n 0). */
static int run(struct wtg_session *s, struct wtg_loaded *l, int n)
{
	static struct dash dd;
	struct dash *d = &dd;
	dash_init(d, s);
	d->loaded = l;
	d->nloaded = n;
	for (int i = 0; i < wtg_nexperiments && d->nloaded; i++)
		d->tried[i] = true;	/* saved runs: nothing measures until r */
	if (tui_screen_open(&d->look, s->opt) < 0)
		return 1;
	dash_layout(d);
	frame(d, wtg_now_ns());	/* the first frame comes before any work starts */
	if (wtg_session_start(s) < 0) {
		tui_screen_close();
		tui_record_end(true);
		fprintf(stderr, "wtg: cannot start the worker thread\n");
		return 1;
	}
	int status = loop(d);
	wtg_session_cancel(s);
	dash_destroy_windows(d);
	tui_screen_close();
	if (tui_record_end(true) && status == 0)
		status = 1;	/* the dashboard ended as asked; the recording it was to make did not */
	for (int i = 0; i < wtg_nexperiments; i++) {
		wtg_table_free(&d->snap[i]);
		for (int k = 0; k < d->hist[i].n; k++)
			wtg_table_free(&d->hist[i].t[k]);
	}
	return status;
}

int wtg_tui_main(struct wtg_session *s)
{
	return run(s, NULL, 0);
}

int wtg_tui_main_loaded(struct wtg_session *s, struct wtg_loaded *l, int n)
{
	return run(s, l, n);
}
