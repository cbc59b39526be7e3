/* draw.c: the dashboard's windows, each drawn from the dashboard's state and what it last saw of
 * the session (struct dash_seen), and only when marked dirty: header, tabs, the experiment's box,
 * the three panels (panels.c), the progress and status lines, and the help over them. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dash.h"
#include "wtg/cpuname.h"

/* The notice in at most width columns: a path notice loses the middle of its path ("/tmp/…/wtg-
 * 20261203-101500.json, .html and .csv"), its folders' names from the end, so that the file names
 * stay whole; a file name too long for that loses its start. */
static void notice_fit(const struct dash *d, char *out, size_t len, int width)
{
	wtg_strlcpy(out, d->note.text, len);
	if (d->note.path <= 0 || tui_width(out) <= width)
		return;
	const char *ell = d->look.g->ellipsis, *path = d->note.text + d->note.path, *p = path;
	const char *name = strrchr(path, '/');
	int room = width - d->note.path - tui_width(ell) - (name ? tui_width(name) : width);
	if (name && room >= 1) {
		char head[PATH_MAX];
		size_t keep = 0;	/* the folders that fit whole, else the characters */
		for (size_t i = 0; path + i < name; i++)
			if (path[i] == '/' && wtg_text_width_n(path, i + 1) <= room)
				keep = i + 1;
		while (!keep && path + keep < name && wtg_text_width_n(path, keep + 1) <= room)
			keep++;
		while (keep > 0 && (path[keep] & 0xc0) == 0x80)
			keep--;	/* a whole character */
		snprintf(head, sizeof head, "%.*s", (int)keep, path);
		snprintf(out, len, "%.*s%s%s%s", d->note.path, d->note.text, head, ell, name);
		return;
	}
	room = width - d->note.path - tui_width(ell);
	while (*p && tui_width(p) > room) {
		p++;
		while ((*p & 0xc0) == 0x80)
			p++;	/* a whole character at a time */
	}
	snprintf(out, len, "%.*s%s%s", d->note.path, d->note.text, ell, p);
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


/* "steal 2.1%" while the hypervisor takes time from this machine's CPUs (over the last second or
 * more), else "": the header shows it, redrawn when it changes. */
static char hdr_steal[32];

static void steal_words(char *buf, size_t len)
{
	double st = wtg_watch_steal_now();
	if (isfinite(st) && st >= 0.05)
		snprintf(buf, len, "steal %.1f%%", st);
	else if (len)
		buf[0] = '\0';
}

static void draw_header(struct dash *d)
{
	struct wtg_session *s = d->s;
	int st = d->seen.df_state;
	uint64_t done = d->seen.df_done, total = d->seen.df_total;
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
		snprintf(data, sizeof data, "no data file yet%s", d->cols >= 160 ? " (made for the first experiment that reads it)" : "");
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
	/* the CPU by its short name ("Xeon (SPR)", "EPYC Zen 5") and the counts with the topology, each
	 * whole or not at all: the topology gives way first, then the page size, then the steal, and the
	 * CPU's name last (a class compares machines by it) */
	steal_words(hdr_steal, sizeof hdr_steal);
	const char *cpu = wtg_cpu_short_this();
	static const unsigned char forms[][4] = {	/* named, topology, pages, steal */
		{ 1, 1, 1, 1 }, { 1, 0, 1, 1 }, { 1, 0, 0, 1 }, { 1, 0, 0, 0 },
		{ 0, 0, 1, 1 }, { 0, 0, 0, 1 }, { 0, 0, 0, 0 },
	};
	for (size_t form = 0; form < WTG_ARRAY_LEN(forms); form++) {
		bool named = forms[form][0], topo = forms[form][1], pages = forms[form][2];
		bool steal = forms[form][3] && hdr_steal[0];
		if (named && !cpu[0])
			continue;	/* no name read: the forms without it */
		snprintf(mach, sizeof mach, "%s%s%d CPUs%s%s%s%s%s%s%s%s", named ? cpu : "", named ? l->g->sep : "",
			 s->machine.cpus, topo ? " (" : "", topo ? s->topo_summary : "", topo ? ")" : "",
			 pages ? l->g->sep : "", pages ? pg : "", pages ? " pages" : "", steal ? l->g->sep : "",
			 steal ? hdr_steal : "");
		if (tui_width(mach) <= room) {
			tui_put(w, 0, x + 1, room, A_NORMAL, mach);
			break;
		}
	}
	char runs[1024];
	if (dash_header_runs(d, runs, sizeof runs, room))	/* saved runs: theirs, not this machine's */
		tui_put(w, 0, x + 1, room, A_BOLD, runs), wclrtoeol(w);
	int dx = d->cols - dw - 1;
	if (dx < x + 1)
		dx = x + 1;
	tui_put(w, 0, dx, d->cols - dx, tui_attr(l, drole), data);
	wnoutrefresh(w);
}


static void tab_label(char *buf, size_t len, int pos, int idx)
{
	if (pos < (int)strlen(dash_deck_keys))
		snprintf(buf, len, "%c %s", dash_deck_keys[pos], wtg_experiments[idx]->name);
	else
		snprintf(buf, len, "%s", wtg_experiments[idx]->name);
}

static void draw_tabs(struct dash *d)
{
	const enum wtg_state *states = d->seen.states;
	int current = d->seen.current;
	WINDOW *w = d->tabs;
	const struct tui_look *l = &d->look;
	werase(w);
	int n = dash_deck_len(d), cur = dash_deck_pos(d, d->tab);
	int wid[WTG_MAX_EXP];
	for (int p = 0; p < n; p++) {
		char b[64];
		int i = dash_deck_at(d, p);
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
		int i = dash_deck_at(d, p);
		char b[80], lab[64];
		tab_label(lab, sizeof lab, p, i);
		snprintf(b, sizeof b, "%s%s%s%s%s ", i == d->tab ? "[" : "", i == current ? l->g->play : "",
			 i == current ? " " : "", lab, i == d->tab ? "]" : "");
		attr_t a = A_NORMAL;
		if (states[i] == WTG_FAILED)
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

static void draw_fold(struct dash *d);

/* The box's frame: the experiment, its question, and where its run stands. */
static void draw_frame(struct dash *d)
{
	const struct wtg_table *t = &d->snap[d->tab];
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	int qpos = d->seen.qpos;
	const struct tui_look *l = &d->look;
	char title[256], right[96], no[32] = "";
	snprintf(title, sizeof title, "%s%s%s", e->name, l->g->sep, e->question);
	if (t->runs > 1)	/* a rerun's end, told from the run before it */
		snprintf(no, sizeof no, "run %d%s", t->runs, l->g->sep);
	attr_t ra = tui_attr(l, TR_DIM);
	const struct wtg_table *c = dash_displaced_by(d, d->tab, false);
	char hms[16];
	if (c) {	/* the completed run stays on screen: say which, and what became of the rerun */
		snprintf(right, sizeof right, "the rerun %s; showing the run of %s",
			 t->state == WTG_FAILED		  ? "failed" :
			 strstr(t->error, " starved") ? "ended starved" :
							  "was cancelled",
			 dash_run_clock(d, c, hms, sizeof hms));
		ra = tui_attr(l, TR_WARN);
	} else if (t->state == WTG_RUNNING) {
		if (t->progress.nsteps > 0)
			snprintf(right, sizeof right, "%s running, step %d/%d", l->g->play, t->progress.step,
				 t->progress.nsteps);
		else
			snprintf(right, sizeof right, "%s running", l->g->play);
		ra = tui_attr(l, TR_OK) | A_BOLD;
	} else if (t->state == WTG_DONE) {
		char du[32];
		tui_fmt_value(du, sizeof du, (double)(t->finished_ns - t->started_ns), "ns");
		snprintf(right, sizeof right, "%sdone in %s %s", no, du,
			 wtg_table_checks_ok(t) ? l->g->ok : l->g->bad);
		ra = tui_attr(l, TR_OK);
	} else if (t->state == WTG_FAILED) {
		snprintf(right, sizeof right, "%sfailed %s", no, l->g->bad);
		ra = tui_attr(l, TR_ERR);
	} else if (t->state == WTG_STOPPED) {
		snprintf(right, sizeof right, "%sstopped before the end", no);
		ra = tui_attr(l, TR_WARN);
	} else if (qpos >= 0) {
		snprintf(right, sizeof right, "queued");
	} else if (dash_shown(d) != t) {	/* a saved or earlier run stands in the box */
		snprintf(right, sizeof right, "%s: r runs it live", d->nloaded ? "saved" : "earlier run");
	} else {
		snprintf(right, sizeof right, "not run yet");
	}
	tui_frame(d->box, l, tui_attr(l, TR_DIM), title, tui_attr(l, TR_TITLE), right, ra);
	draw_fold(d);
}

/* What the fold holds, on the box's bottom border (the view keeps the row): "[n] 3 notes, 5 checks
 * ok: n shows them"; the border alone when the run on screen has neither. */
static void draw_fold(struct dash *d)
{
	const struct tui_look *l = &d->look;
	const struct wtg_table *t = dash_shown(d);
	int bh, bw, ok = 0, warn = 0, fail = 0;
	getmaxyx(d->box, bh, bw);
	tui_repeat(d->box, bh - 1, 1, bw - 2, tui_attr(l, TR_DIM), l->g->h);
	wnoutrefresh(d->box);
	if (d->overlay == OV_START || (t->nnotes == 0 && t->nchecks == 0))
		return;
	wtg_table_count_checks(t, &ok, &warn, &fail);
	char line[160];
	int n = snprintf(line, sizeof line, "%d note%s, %d check%s", t->nnotes, t->nnotes == 1 ? "" : "s",
			 t->nchecks, t->nchecks == 1 ? "" : "s");
	if (fail)
		n += snprintf(line + n, sizeof line - (size_t)n, " (%d failed)", fail);
	else if (warn)
		n += snprintf(line + n, sizeof line - (size_t)n, " (%d warn)", warn);
	else if (t->nchecks)
		n += snprintf(line + n, sizeof line - (size_t)n, " ok");
	snprintf(line + n, sizeof line - (size_t)n, d->notes_open ? ": n folds them " : ": n shows them ");
	int x = 2 + tui_put(d->box, bh - 1, 2, bw - 4, tui_attr(l, TR_KEY), " [n] ");
	tui_put_clip(d->box, bh - 1, x, bw - 2 - x, tui_attr(l, fail ? TR_ERR : warn ? TR_WARN : TR_DIM), l, line);
	wnoutrefresh(d->box);
}

/* The view under the lead, with the notes and checks folded into one line unless n opened them. */
static void draw_view(struct dash *d, const struct wtg_table *t, WINDOW *vw, int y, int vh, int vwid)
{
	static struct wtg_table folded;	/* the table without its notes and checks: a shallow copy */
	const struct wtg_table *shown = t;
	bool fold = (t->nnotes > 0 || t->nchecks > 0);
	if (fold && !d->notes_open) {
		folded = *t;
		folded.nnotes = 0;
		folded.nchecks = 0;
		shown = &folded;
	}
	int h = vh - y;
	if (h >= 3) {
		struct tui_view v = {
			.w = vw, .y = y, .x = 1, .h = h, .wd = vwid - 2, .look = &d->look, .t = t,
			.e = wtg_experiments[d->tab],
		};
		dash_view_runs(d, &v);	/* the earlier and saved runs beside this one (it knows t) */
		v.t = shown;
		tui_view_draw(&v);
	}
}

/* What the box holds: the view, or a line saying why there is none yet. */
static void draw_body(struct dash *d)
{
	const struct wtg_table *t = dash_shown(d);
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	const struct tui_look *l = &d->look;
	int qpos = d->seen.qpos, current = d->seen.current;
	bool paused = d->run.mode == DM_PAUSED;
	char rbuf[512];
	const char *runs = wtg_experiment_runs(e, d->s->opt && d->s->opt->quick, rbuf, sizeof rbuf);
	WINDOW *vw = d->view;
	werase(vw);
	int vh, vwid;
	getmaxyx(vw, vh, vwid);
	int mid = vh / 2 - 1;
	if (t->nrows == 0 && t->nseries == 0 && !t->error[0]) {
		char msg[256];
		if (t->state == WTG_RUNNING)
			snprintf(msg, sizeof msg, "measuring%s %s", t->progress.label[0] ? ":" : "",
				 t->progress.label);
		else if (t->state == WTG_STOPPED)
			snprintf(msg, sizeof msg, "stopped before the first row: r runs it again");
		else if (qpos >= 0 && current >= 0)
			snprintf(msg, sizeof msg, "queued: runs after %s", wtg_experiments[current]->name);
		else if (qpos < 0 && d->nloaded && t->state == WTG_IDLE)
			snprintf(msg, sizeof msg, "not in the saved runs: r measures it on this machine");
		else if (qpos >= 0 || (current < 0 && !paused && t->state == WTG_IDLE))
			snprintf(msg, sizeof msg, "starting");
		else if (paused)
			snprintf(msg, sizeof msg, "paused: space resumes, r runs this one");
		else if (current >= 0)
			snprintf(msg, sizeof msg, "not run yet: r runs it now (stops %s), or wait",
				 wtg_experiments[current]->name);
		else
			snprintf(msg, sizeof msg, "not run yet: r runs it");
		int y = mid + centre(vw, mid, vwid, A_BOLD, msg);
		if (t->state == WTG_RUNNING && t->sofar[0]) {	/* a figure before the first row, whole */
			snprintf(msg, sizeof msg, "so far: %s", t->sofar);
			y += tui_wrap_clip(vw, y, 1, vwid - 2, 2, A_BOLD, l, true, msg);
		}
		centre(vw, y > mid + 2 ? y : mid + 2, vwid, tui_attr(l, TR_DIM), runs);
	} else {
		int y = dash_draw_lead(d, t, vw, vh, vwid);
		draw_view(d, t, vw, y, vh, vwid);
	}
	draw_fold(d);
	wnoutrefresh(vw);
}


/* ---- progress and status lines ---- */

static void draw_progress(struct dash *d, int64_t now)
{
	struct wtg_session *s = d->s;
	const struct wtg_run_status *ri = &d->seen.run;
	int dfs = d->seen.df_state;
	uint64_t done = d->seen.df_done;
	WINDOW *w = d->prog;
	const struct tui_look *l = &d->look;
	werase(w);
	int W = d->cols;
	char head[160], tail[96];
	double frac = -1, left = -1;
	attr_t ha = A_BOLD;
	if (dfs == WTG_DF_PREPARING) {
		uint64_t total = d->seen.df_total;
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
		const struct wtg_run_progress *pr = &ri->progress;
		if (pr->nsteps > 0)
			snprintf(head, sizeof head, " %s %s  step %d/%d  %s", l->g->play, name, pr->step,
				 pr->nsteps, pr->label);
		else
			snprintf(head, sizeof head, " %s %s  %s", l->g->play, name, pr->label);
		/* the work the experiment declares still to come, else its own estimate, else the
		 * elapsed time per step */
		left = wtg_progress_left_ns(pr, now - ri->started_ns, &frac);
	} else if (d->run.mode == DM_PAUSED) {
		const char *what = d->run.idx >= 0 ? wtg_experiments[d->run.idx]->name : "";
		snprintf(head, sizeof head, " %s paused%s%s: space resumes", l->g->pause, what[0] ? " " : "",
			 what);
		ha = tui_attr(l, TR_WARN);
	} else if (d->run.mode == DM_AUTOPLAY_HOLDING) {
		int next = dash_deck_next(d, dash_deck_pos(d, d->run.idx) + 1);
		double sleft = (double)(d->run.until - now) / 1e9;
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
	bool tag = d->run.mode == DM_AUTOPLAY_RUNNING;
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


static void draw_status(struct dash *d)
{
	const struct tui_look *l = &d->look;
	bool starved = d->seen.stall_s >= 0, note = d->seen.notice_on;
	WINDOW *w = d->status;
	werase(w);
	int W = d->cols;
	int kw = 1;	/* the right-hand hints, each "  KEY HINT", and a blank */
	for (int i = 0; i < dash_nkeys; i++)
		if (dash_keys[i].hint && dash_keys[i].right)
			kw += 3 + tui_width(dash_keys[i].hint_keys) + tui_width(dash_keys[i].hint);
	if (starved) {
		/* the whole line: this is what matters now */
		const struct dash_seen *v = &d->seen;
		char why[64];
		if (v->burners > 0 && v->bg)
			snprintf(why, sizeof why, "background policy under burners");
		else if (v->burners > 0)
			snprintf(why, sizeof why, "%d burner%s", v->burners, v->burners == 1 ? "" : "s");
		else
			snprintf(why, sizeof why, "other programs hold the CPUs");
		tui_printf(w, 0, 0, W, tui_attr(l, TR_ERR), " worker starved: no progress for %lld s (%s)",
			   (long long)v->stall_s, why);
		wnoutrefresh(w);
		return;
	} else if (note) {
		/* a message that does not fit beside the hints takes the whole line (a narrow projector
		 * screen): what a key just did matters more than "? help"; a saved file's path is
		 * shortened from its left instead, so the hints stay */
		if (d->note.path <= 0 && tui_width(d->note.text) > W - kw - 1)
			kw = 1;
		tui_put(w, 0, 0, 1, A_NORMAL, " ");
		char fit[sizeof d->note.text + 8];
		notice_fit(d, fit, sizeof fit, W - kw - 1);
		tui_put_clip(w, 0, 1, W - kw - 1, tui_attr(l, d->note.role), l, fit);
		if (kw == 1) {
			wnoutrefresh(w);
			return;
		}
	} else {
		int x = 1;
		for (int i = 0; i < dash_nkeys; i++) {
			const struct dash_key *k = &dash_keys[i];
			if (!k->hint || k->right)
				continue;
			int need = tui_width(k->hint_keys) + tui_width(k->hint) + 3;
			if (x + need > W - kw)
				break;
			x += tui_put(w, 0, x, W - x, tui_attr(l, TR_KEY), k->hint_keys);
			x += tui_printf(w, 0, x, W - x, A_NORMAL, " %s  ", k->hint);
		}
	}
	int x = W - kw;
	for (int i = 0; i < dash_nkeys; i++) {
		const struct dash_key *k = &dash_keys[i];
		if (!k->hint || !k->right)
			continue;
		x += tui_put(w, 0, x, 2, A_NORMAL, "  ");
		x += tui_put(w, 0, x, W - x, tui_attr(l, TR_KEY), k->hint_keys);
		x += tui_printf(w, 0, x, W - x, A_NORMAL, " %s", k->hint);
	}
	wnoutrefresh(w);
}


/* ---- help ---- */

static void draw_help(struct dash *d)
{
	WINDOW *w = d->help;
	const struct tui_look *l = &d->look;
	/* one screen at 80x24: descriptions of at most 55 columns */
	static const char *const panels[][2] = {
		{ "panels", "wall/user/sys of the latest run; faults, switches," },
		{ "", "CPUs seen; the conditions and what the kernel gave" },
	};
	werase(w);
	tui_frame(w, l, tui_attr(l, TR_TITLE), "help: keys and views", tui_attr(l, TR_TITLE),
		  "any key closes", tui_attr(l, TR_DIM));
	int hw = getmaxx(w) - 4, hh = getmaxy(w) - 1;
	int y = 1;
	for (int i = 0; i < dash_nkeys && y < hh; i++) {
		if (!dash_keys[i].label)
			continue;	/* on the line of the key before it */
		tui_put(w, y, 2, 16, tui_attr(l, TR_KEY), dash_keys[i].label);
		tui_put(w, y, 19, hw - 17, A_NORMAL, dash_keys[i].help);
		y++;
	}
	y++;
	for (int i = 0; i < tui_nview_classes && y < hh; i++, y++) {
		tui_put(w, y, 2, 16, tui_attr(l, TR_TITLE), tui_view_class((enum wtg_view)i)->name);
		tui_put(w, y, 19, hw - 17, A_NORMAL, tui_view_class((enum wtg_view)i)->help);
	}
	for (size_t i = 0; i < WTG_ARRAY_LEN(panels) && y < hh; i++, y++) {
		tui_put(w, y, 2, 16, tui_attr(l, TR_TITLE), panels[i][0]);
		tui_put(w, y, 19, hw - 17, A_NORMAL, panels[i][1]);
	}
	if (y + 1 < hh)
		tui_put(w, y + 1, 2, hw, tui_attr(l, TR_DIM),
			"A tab not run yet runs when the worker is free.");
	touchwin(w);
	wnoutrefresh(w);
}

/* ---- the start screen: the lecture's cover ---- */

/* The machine in one line: CPU model, CPUs, caches, memory, clock source. */
static void machine_line(const struct dash *d, char *buf, size_t len)
{
	const struct wtg_machine *m = &d->s->machine;
	const char *sep = d->look.g->sep;
	char mem[32] = "", llc[32] = "";
	const struct wtg_cache *c = wtg_machine_llc(m);
	if (m->memory_bytes)
		wtg_fmt_size(mem, sizeof mem, m->memory_bytes);
	if (c)
		wtg_fmt_size(llc, sizeof llc, c->size);
	snprintf(buf, len, "%s%s%d CPU%s%s%s%s%s%s%s%s%s%sclock %s", m->cpu_model, sep, m->cpus,
		 m->cpus == 1 ? "" : "s", sep, llc[0] ? llc : "", llc[0] ? " last-level cache" : "", llc[0] ? sep : "",
		 mem[0] ? mem : "", mem[0] ? " memory" : "", mem[0] ? sep : "", m->hypervisor ? "virtual machine" : "",
		 m->hypervisor ? sep : "", m->clocksource[0] ? m->clocksource : "?");
}

static void draw_start(struct dash *d)
{
	const struct tui_look *l = &d->look;
	WINDOW *vw = d->view;
	int vh, vwid;
	getmaxyx(vw, vh, vwid);
	tui_frame(d->box, l, tui_attr(l, TR_DIM), d->look.utf8 ? "wtg \xc2\xb7 where the time goes" : "wtg - where the time goes",
		  tui_attr(l, TR_TITLE), NULL, 0);
	wnoutrefresh(d->box);
	werase(vw);
	char buf[512], order[256] = "";
	int y = vh >= 18 ? vh / 2 - 8 : 0;
	y += centre(vw, y, vwid, tui_attr(l, TR_TITLE) | A_BOLD, "A program adds up every byte of a file.");
	y += centre(vw, y, vwid, tui_attr(l, TR_TITLE) | A_BOLD, "Where does the time go?");
	if (vh >= 16)
		y++;
	machine_line(d, buf, sizeof buf);
	y += centre(vw, y, vwid, A_NORMAL, buf);
	snprintf(buf, sizeof buf, "%s%s%d B pages", d->s->topo_summary, l->g->sep, (int)d->s->machine.page_size);
	y += centre(vw, y, vwid, tui_attr(l, TR_DIM), buf) + 1;
	for (int p = 0; p < dash_deck_len(d); p++) {
		size_t n = strlen(order);
		snprintf(order + n, sizeof order - n, "%s%s", p ? " " : "", wtg_experiments[dash_deck_at(d, p)]->name);
	}
	snprintf(buf, sizeof buf, "the lecture: %s", order);
	y += centre(vw, y, vwid, A_NORMAL, buf) + 1;
	y += centre(vw, y, vwid, tui_attr(l, TR_KEY), "PageDown/PageUp next/previous   1-9 0 !-* a tab   r rerun");
	y += centre(vw, y, vwid, tui_attr(l, TR_KEY), "b p u c conditions   n notes   t terms   v compare's pair");
	y += centre(vw, y, vwid, tui_attr(l, TR_KEY), "a autoplay   . blank   ? help   q quit");
	if (y + 1 < vh)
		centre(vw, y + 1, vwid, A_BOLD | A_BLINK, "press a key to begin");
	else
		centre(vw, vh - 1, vwid, A_BOLD, "press a key to begin");
	wnoutrefresh(vw);
}

/* ---- one frame ---- */

/* A screen too small to draw on: it says so, and q still quits. */
static void draw_small(struct dash *d)
{
	char msg[96];
	werase(stdscr);
	snprintf(msg, sizeof msg, "terminal too small: need %dx%d, have %dx%d", MIN_COLS, MIN_ROWS, d->cols,
		 d->rows);
	int y = d->rows / 2 - 1;
	tui_put(stdscr, y < 0 ? 0 : y, 0, d->cols, A_BOLD, msg);
	tui_put(stdscr, (y < 0 ? 0 : y) + 1, 0, d->cols, A_NORMAL, "q quits");
	wnoutrefresh(stdscr);
}

void dash_draw(struct dash *d, int64_t now)
{
	char steal[sizeof hdr_steal];
	steal_words(steal, sizeof steal);
	if (strcmp(steal, hdr_steal) != 0)
		d->dirty |= DIRTY_HEADER;
	unsigned dirty = d->dirty;
	d->dirty = 0;
	if (d->small) {
		draw_small(d);
	} else if (d->overlay == OV_BLANK) {
		werase(stdscr);
		wnoutrefresh(stdscr);
	} else {
		if (dirty & DIRTY_HEADER)
			draw_header(d);
		if (dirty & DIRTY_TABS)
			draw_tabs(d);
		if (d->overlay == OV_START && (dirty & (DIRTY_FRAME | DIRTY_VIEW)))
			draw_start(d);
		else if (dirty & DIRTY_FRAME)
			draw_frame(d);
		if (d->overlay != OV_START && (dirty & DIRTY_VIEW))
			draw_body(d);
		if (dirty & DIRTY_PANELS)
			dash_draw_panels(d);
		if (dirty & DIRTY_PROGRESS)
			draw_progress(d, now);
		if (dirty & DIRTY_STATUS)
			draw_status(d);
		if (d->overlay == OV_HELP)
			draw_help(d);
		else if (d->overlay == OV_TERMS)
			dash_draw_terms(d);
	}
	doupdate();
}
