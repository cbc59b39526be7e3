/* keys.c: the key table, one row per key or group: what it does, how the help screen and the man
 * page name it, and the status line's hint. on_key, the help screen and the hints all read it. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wtg/compare.h"
#include "wtg/conditions.h"
#include "dash.h"

/* A condition key's notice, with what it means now: while a row runs, that it waits for the next
 * batch (the conditions panel says "pending" until a row lands). */
static void cond_notice(struct dash *d, unsigned bit, enum tui_role role, const char *fmt, ...) WTG_PRINTF(4, 5);
static void cond_notice(struct dash *d, unsigned bit, enum tui_role role, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	struct wtg_run_status st;
	wtg_session_status(d->s, -1, &st);
	if (st.idx >= 0 && st.state == WTG_RUNNING) {
		d->pending.bits |= bit;
		d->pending.idx = st.idx;
		d->pending.nrows = st.nrows;
		d->dirty |= DIRTY_PANELS;
		dash_notice(d, role, "pending: from the next batch of %s: %s", wtg_experiments[st.idx]->name, msg);
		return;
	}
	dash_notice(d, role, "%s", msg);
}

/* On a tab whose experiment sets the condition itself (tail runs quiet and burners each run), a
 * condition key changes nothing, here or for the next tab: it says so and returns true. */
static bool self_set(struct dash *d, unsigned bit, const char *what, const char *now)
{
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	if (!(e->self_conditions & bit))
		return false;
	const char *key = bit == WTG_COND_BURN ? "b" : bit == WTG_COND_COLD ? "c" : bit == WTG_COND_UNCACHED ? "u" : "p";
	if (bit == WTG_COND_BURN)
		dash_notice(d, TR_WARN, "%s runs quiet and burners itself: b leaves them %s", e->name, now);
	else
		dash_notice(d, TR_WARN, "%s sets %s itself: %s leaves it %s", e->name, what, key, now);
	return true;
}

static void toggle_burners(struct dash *d, int key)
{
	(void)key;
	const struct wtg_options *o = d->s->opt;
	if (self_set(d, WTG_COND_BURN, "the burners", wtg_burner_count() <= 0 ? "off" :
						      wtg_burner_kind() == WTG_BURN_STREAM ? "streaming" : "spinning"))
		return;
	bool on = wtg_burner_count() > 0;
	if (on && wtg_burner_kind() == WTG_BURN_STREAM) {
		wtg_burner_set(0);
		cond_notice(d, WTG_COND_BURN, TR_OK, "burners off: a quiet machine");
		return;
	}
	enum wtg_burn_kind kind = on ? WTG_BURN_STREAM : WTG_BURN_SPIN;
	int n = o->burn > 0 ? o->burn : wtg_online_cpus();
	int got = wtg_burner_set_kind(n, kind);
	if (got < 0) {
		dash_notice(d, TR_ERR, "burners: could not start %d threads", n);
	} else if (kind == WTG_BURN_SPIN) {
		cond_notice(d, WTG_COND_BURN, TR_WARN, "burners on: %d thread%s spinning (b again: streaming)",
			    got, got == 1 ? "" : "s");
	} else {
		char sz[32];
		wtg_fmt_size(sz, sizeof sz, wtg_burner_stream_bytes(got));
		cond_notice(d, WTG_COND_BURN, TR_WARN, "burners streaming: %d thread%s each reading %s", got,
			    got == 1 ? "" : "s", sz);
	}
}

static void toggle_policy(struct dash *d, int key)
{
	(void)key;
	if (self_set(d, WTG_COND_BACKGROUND, "the policy", wtg_policy_requested() ? "background" : "normal"))
		return;
	bool bg = !wtg_policy_requested();
	wtg_policy_request(bg);
	if (bg)
		cond_notice(d, WTG_COND_BACKGROUND, TR_WARN, "background policy (SCHED_IDLE) asked for");
	else
		cond_notice(d, WTG_COND_BACKGROUND, TR_OK, "normal policy asked for");
}

static void toggle_uncached(struct dash *d, int key)
{
	(void)key;
	struct wtg_session *s = d->s;
	if (self_set(d, WTG_COND_UNCACHED, "its I/O", wtg_uncached_requested() ? "uncached" : "cached"))
		return;
	bool on = !wtg_uncached_requested();
	wtg_uncached_request(on);
	if (!on)
		cond_notice(d, WTG_COND_UNCACHED, TR_OK, "cached I/O");
	else if (atomic_load(&s->df_state) == WTG_DF_READY)
		cond_notice(d, WTG_COND_UNCACHED, TR_WARN, "uncached I/O: %s",
			    wtg_iomode_name(wtg_iomode_effective(&s->df)));
	else
		dash_notice(d, TR_WARN, "uncached I/O requested (the data file is not ready yet)");
}

static void evict_now(struct dash *d, int key)
{
	(void)key;
	struct wtg_session *s = d->s;
	int dfs = atomic_load(&s->df_state);
	if (self_set(d, WTG_COND_COLD, "the page cache", "as it is (nothing evicted)"))
		return;
	if (dfs != WTG_DF_READY) {
		dash_notice(d, TR_WARN, "evict: %s", dfs == WTG_DF_NONE ? "no data file yet" : "the data file is not ready yet");
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
	if (rc < 0) {
		dash_notice(d, TR_ERR, "evict failed: %s pages of the data file still resident", b);
		return;
	}
	/* the next run that reads the file takes it: measured cold, or said why it cannot be */
	wtg_cold_request();
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	const char *arrow = d->look.g->arrow;
	if (e->needs_datafile && !e->measures_cold && !(e->self_conditions & WTG_COND_COLD))	/* fits 80 columns */
		dash_notice(d, TR_WARN, "evicted: %s %s %s pages; not cold: %s", a, arrow, b,
			    e->not_cold ? e->not_cold : WTG_NOT_COLD_WHY);
	else
		cond_notice(d, WTG_COND_COLD, TR_OK, "evicted the data file: %s %s %s pages%s", a,
			    arrow, b, e->measures_cold ? "; r measures it cold" : " resident");
}

static void pick_tab(struct dash *d, int key)
{
	int pos = (int)(strchr(dash_deck_keys, key) - dash_deck_keys);
	if (pos < dash_deck_len(d))
		dash_set_tab(d, dash_deck_at(d, pos));
	else
		dash_notice(d, TR_DIM, "that key does nothing here: ? shows the keys");
}

/* Next: PageDown is what a presenter's clicker sends; with --step it runs the tab too, unless saved
 * runs are presented (--load): then only r measures. */
static void next_tab(struct dash *d, int key)
{
	(void)key;
	dash_set_tab(d, dash_deck_step(d, 1));
	if (d->s->opt->step && !d->nloaded)
		dash_run_event(d, EV_RERUN, wtg_now_ns());
}

static void prev_tab(struct dash *d, int key)
{
	(void)key;
	dash_set_tab(d, dash_deck_step(d, -1));
}

/* v: compare's next pair among those the registry allows (each experiment compare can pair, each
 * condition), rerun on the compare tab. The session holds the pair; a run reads it when it starts,
 * so a compare still running keeps the pair it began with until the cancel stops it. */
static void compare_pair(struct dash *d, int key)
{
	(void)key;
	int ci = wtg_experiment_find("compare");
	if (ci < 0)
		return;
	struct wtg_compare_pair p;
	wtg_session_compare(d->s, &p);
	wtg_compare_next(&p);
	wtg_session_cancel(d->s);
	wtg_session_set_compare(d->s, &p);
	dash_set_tab(d, ci);
	dash_run_event(d, EV_RERUN, wtg_now_ns());
	dash_notice(d, TR_OK, "compare: %s with %s off vs on (v: the next pair)", p.exp, p.cond);
}

/* n: the notes and checks under the view, folded to one line by default. */
static void notes(struct dash *d, int key)
{
	(void)key;
	d->notes_open = !d->notes_open;
	d->dirty |= DIRTY_VIEW;
}

static void blank(struct dash *d, int key)
{
	(void)key;
	dash_set_overlay(d, OV_BLANK);
}

static void terms(struct dash *d, int key)
{
	(void)key;
	dash_set_overlay(d, OV_TERMS);
}

static void help(struct dash *d, int key)
{
	(void)key;
	dash_set_overlay(d, OV_HELP);
}

static void rerun(struct dash *d, int key)
{
	(void)key;
	dash_run_event(d, EV_RERUN, wtg_now_ns());
}

static void step_back(struct dash *d, int key)
{
	(void)key;
	dash_step_back(d);
}

static void scroll_back(struct dash *d, int key)
{
	dash_scroll(d, key == KEY_UP ? 1 : -1);
}

static void pause_key(struct dash *d, int key)
{
	(void)key;
	dash_run_event(d, EV_PAUSE, wtg_now_ns());
}

static void autoplay(struct dash *d, int key)
{
	(void)key;
	dash_run_event(d, EV_AUTOPLAY, wtg_now_ns());
}

/* m: the saved runs as machines (machines.c's view) over the dashboard until m or Esc; q or a signal
 * there ends the dashboard (quit, quit_status). */
static void machines(struct dash *d, int key)
{
	(void)key;
	if (!d->nloaded) {
		dash_notice(d, TR_DIM, "m: the machines view draws saved runs: open them with --load");
		return;
	}
	char msg[256];
	int rc = tui_machines_over(d->s->opt, &d->look, msg, sizeof msg);
	if (rc == -2) {
		dash_notice(d, TR_WARN, "m: %s", msg);
		return;
	}
	if (rc != 0) {
		d->quit = true;
		d->quit_status = rc > 0 ? 128 + rc : 0;
	}
	d->dirty = DIRTY_ALL;
	if (LINES != d->rows || COLS != d->cols)
		dash_layout(d);	/* resized in the machines view, which took the KEY_RESIZE */
}

/* Handled before the table is searched (it also works on a screen too small to draw). */
static void quit(struct dash *d, int key)
{
	(void)d;
	(void)key;
}

/* In help-screen order; the status line's hints in this order too. The help's descriptions fit
 * 55 columns, so that the help is one screen at 80x24. */
const struct dash_key dash_keys[] = {
	{ { 0 }, "1-9 0 ! @ # $ % ^ & * ( )", "1-9 0 !-)", "a tab each (! is Shift-1: the 11th tab ...)", "1-9 0",
	  "tabs", false, pick_tab },
	{ { KEY_NPAGE, KEY_RIGHT, '\t' }, "PageDown Right Tab", "PgDn PgUp -> <-",
	  "next / previous tab, as a clicker sends (Tab too)", NULL, NULL, false, next_tab },
	{ { KEY_PPAGE, KEY_LEFT, KEY_BTAB }, "PageUp Left Shift-Tab", NULL, NULL, NULL, NULL, false, prev_tab },
	{ { 'r', '\r', '\n', KEY_ENTER }, "r Enter", "r  Enter", "run this tab again (stops the running one)",
	  "r", "rerun", false, rerun },
	{ { 'e' }, "e", "e  Up Down", "earlier runs beside this one / scroll long bars", NULL, NULL, false,
	  step_back },
	{ { KEY_UP, KEY_DOWN }, "Up Down", NULL, NULL, NULL, NULL, false, scroll_back },
	{ { ' ' }, "space", "space", "pause: stop the run; again: run it again", "space", "pause", false,
	  pause_key },
	{ { 'a' }, "a", "a .", "autoplay in lecture order; any key stops / blank", "a", "autoplay", false,
	  autoplay },
	{ { '.' }, ".", NULL, NULL, NULL, NULL, false, blank },
	{ { 'n' }, "n", "n  t", "notes and checks: show / fold; t: this tab's terms", NULL, NULL, false, notes },
	{ { 't' }, "t", NULL, NULL, NULL, NULL, false, terms },
	{ { 'v' }, "v", "v  m", "compare: next pair, rerun / m: saved runs as machines", NULL, NULL, false,
	  compare_pair },
	{ { 'm' }, "m", NULL, NULL, NULL, NULL, false, machines },
	{ { 's' }, "s", "s", "save the results: wtg-DATE-TIME.json .html .csv", "s", "save", false,
	  dash_save_results },
	{ { 'w' }, "w", "w", "write this screen as text: wtg-screen-DATE-TIME.txt", NULL, NULL, false,
	  dash_save_screen },
	{ { 'b' }, "b", "b", "burners: off > spin (CPU) > stream (memory) > off", "b p u c", "conditions", false,
	  toggle_burners },
	{ { 'p' }, "p", "p", "background policy (SCHED_IDLE) for measuring", NULL, NULL, false, toggle_policy },
	{ { 'u' }, "u", "u", "uncached I/O: O_DIRECT, else evict before a pass", NULL, NULL, false,
	  toggle_uncached },
	{ { 'c' }, "c", "c", "evict the data file from the page cache now", NULL, NULL, false, evict_now },
	{ { '?', 'h' }, "? h", "? q", "this help / quit", "?", "help", true, help },
	{ { 'q', 'Q' }, "q Q", NULL, NULL, "q", "quit", true, quit },
};
const int dash_nkeys = (int)WTG_ARRAY_LEN(dash_keys);

static const struct dash_key *find_key(int key)
{
	for (int i = 0; i < dash_nkeys; i++) {
		const struct dash_key *k = &dash_keys[i];
		for (int j = 0; j < (int)WTG_ARRAY_LEN(k->codes) && k->codes[j]; j++)
			if (k->codes[j] == key)
				return k;
	}
	if (key > 0 && key < 128 && strchr(dash_deck_keys, key))
		return &dash_keys[0];
	return NULL;
}

bool dash_on_key(struct dash *d, int code, wint_t ch)
{
	int key = code == KEY_CODE_YES ? (int)ch : (ch < 256 ? (int)ch : -1);
	const struct dash_key *k = find_key(key);
	if (key == KEY_RESIZE) {
		dash_layout(d);
		return false;
	}
	if (k && k->act == quit)
		return true;
	if (d->small)
		return false;
	if (d->overlay != OV_NONE) {	/* any key brings the screen back, and does nothing else */
		dash_set_overlay(d, OV_NONE);
		return false;
	}
	if (d->run.mode == DM_AUTOPLAY_RUNNING || d->run.mode == DM_AUTOPLAY_HOLDING) {
		/* the key that takes control back does nothing else */
		dash_run_event(d, EV_TAKE_OVER, wtg_now_ns());
		return false;
	}
	if (k)
		k->act(d, key);
	else if (key >= 0)
		dash_notice(d, TR_DIM, "that key does nothing here: ? shows the keys");
	return false;
}
