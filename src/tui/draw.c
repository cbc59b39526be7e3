/* draw.c: the dashboard's windows, each drawn from the dashboard's state and what it last saw of
 * the session (struct dash_seen), and only when marked dirty: header, tabs, the experiment's box,
 * the three panels, the progress and status lines, and the help over them. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wtg/conditions.h"
#include "wtg/probe.h"
#include "dash.h"

/* The notice in at most width columns: a path notice loses the start of its path to an ellipsis. */
static void notice_fit(const struct dash *d, char *out, size_t len, int width)
{
	wtg_strlcpy(out, d->note.text, len);
	if (d->note.path <= 0 || tui_width(out) <= width)
		return;
	const char *ell = d->look.g->ellipsis, *p = d->note.text + d->note.path;
	int room = width - d->note.path - tui_width(ell);
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
	char runs[1024];
	if (dash_header_runs(d, runs, sizeof runs))	/* saved runs: theirs, not this machine's */
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
		if (!dash_built(i))
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

/* The box's frame: the experiment, its question, and where its run stands. */
static void draw_frame(struct dash *d)
{
	const struct wtg_table *t = &d->snap[d->tab];
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	int qpos = d->seen.qpos;
	const struct tui_look *l = &d->look;
	char title[256], right[96];
	snprintf(title, sizeof title, "%s%s%s", e->name, l->g->sep, e->question);
	attr_t ra = tui_attr(l, TR_DIM);
	if (!dash_built(d->tab)) {
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
	} else if (dash_shown(d) != t) {	/* a saved or earlier run stands in the box */
		snprintf(right, sizeof right, "%s: r runs it live", d->nloaded ? "saved" : "earlier run");
	} else {
		snprintf(right, sizeof right, "not run yet");
	}
	tui_frame(d->box, l, tui_attr(l, TR_DIM), title, tui_attr(l, TR_TITLE), right, ra);
	wnoutrefresh(d->box);
}

/* What the box holds: the view, or a line saying why there is none yet. */
static void draw_body(struct dash *d)
{
	const struct wtg_table *t = dash_shown(d);
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	const struct tui_look *l = &d->look;
	int qpos = d->seen.qpos, current = d->seen.current;
	bool paused = d->run.mode == DM_PAUSED;
	WINDOW *vw = d->view;
	werase(vw);
	int vh, vwid;
	getmaxyx(vw, vh, vwid);
	int mid = vh / 2 - 1;
	if (!dash_built(d->tab)) {
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
		centre(vw, mid, vwid, A_BOLD, msg);
		centre(vw, mid + 2, vwid, tui_attr(l, TR_DIM), e->runs);
	} else {
		struct tui_view v = {
			.w = vw, .y = 0, .x = 1, .h = vh, .wd = vwid - 2, .look = l, .t = t, .e = e,
		};
		dash_view_runs(d, &v);
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

/* Where the time went: wall, user and sys of the latest run, as bars. */
static void panel_time(struct dash *d, const struct wtg_probe_result *pr, bool have, const char *what)
{
	const struct tui_look *l = &d->look;
	const struct wtg_probe_result p = *pr;
	attr_t dim = tui_attr(l, TR_DIM);
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
}

/* Faults, context switches, the CPUs the run was seen on and its migrations. */
static void panel_faults(struct dash *d, const struct wtg_probe_result *pr, bool have)
{
	const struct tui_look *l = &d->look;
	const struct wtg_probe_result p = *pr;
	attr_t dim = tui_attr(l, TR_DIM);
	WINDOW *w = d->pf;
	werase(w);
	char title[96];
	int pw = getmaxx(w) - 2;
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
				 d->s->machine.cpus);
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
}

/* The conditions, with their keys and what is in force. */
static void panel_conditions(struct dash *d)
{
	const struct tui_look *l = &d->look;
	const struct dash_seen *v = &d->seen;
	int burners = v->burners, granted = v->granted, dfs = v->df_state;
	bool bg = v->bg, unc = v->uncached;
	enum wtg_iomode io = v->io;
	attr_t dim = tui_attr(l, TR_DIM), key = tui_attr(l, TR_KEY);
	WINDOW *w = d->pc;
	werase(w);
	tui_frame(w, l, dim, "conditions", tui_attr(l, TR_TITLE), NULL, 0);
	int pw = getmaxx(w) - 2;
	char line[128];
	int x;
	bool wide = pw >= 40;
	x = 1 + tui_put(w, 1, 1, pw, key, "[b]");
	if (burners > 0)
		snprintf(line, sizeof line, " burners on, %d thread%s %s", burners, burners == 1 ? "" : "s",
			 v->burn_kind == WTG_BURN_STREAM ? (wide ? "streaming memory" : "stream")
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
	const struct wtg_session *s = d->s;
	long page = s->machine.page_size > 0 ? s->machine.page_size : 4096;
	int64_t pages = dfs == WTG_DF_READY ? (int64_t)((s->df.size + (uint64_t)page - 1) / (uint64_t)page) : 0;
	if (v->resident >= 0 && pages > 0 && pw - x >= 12) {
		double pct = 100.0 * (double)v->resident / (double)pages;
		x += 2 + tui_put(w, 3, x + 2, pw - x - 1, key, "[c]");
		snprintf(line, sizeof line, wide ? " cached %.0f%%" : " %.0f%%", pct);
		tui_put(w, 3, x, pw - x + 1, pct < 50 ? tui_attr(l, TR_WARN) : A_NORMAL, line);
	}
	wnoutrefresh(w);
}


static void draw_panels(struct dash *d)
{
	struct wtg_probe_result p;
	memset(&p, 0, sizeof p);
	char what[32];
	bool have = latest_probe(&d->snap[d->tab], &p, what, sizeof what);
	panel_time(d, &p, have, what);
	panel_faults(d, &p, have);
	panel_conditions(d);
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
	} else if (d->run.mode == DM_PAUSED) {
		const char *what = d->run.idx >= 0 ? wtg_experiments[d->run.idx]->name : "";
		snprintf(head, sizeof head, " %s paused%s%s: space resumes", l->g->pause, what[0] ? " " : "",
			 what);
		ha = tui_attr(l, TR_WARN);
	} else if (d->run.mode == DM_AUTOPLAY_HOLDING) {
		int next = dash_next_built(d, dash_deck_pos(d, d->run.idx) + 1);
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
		tui_printf(w, 0, 0, W, tui_attr(l, TR_ERR),
			   " worker starved: no progress for %lld s (background policy under burners)",
			   (long long)d->seen.stall_s);
		wnoutrefresh(w);
		return;
	} else if (note) {
		tui_put(w, 0, 0, 1, A_NORMAL, " ");
		char fit[sizeof d->note.text + 8];
		notice_fit(d, fit, sizeof fit, W - kw - 1);
		tui_put_clip(w, 0, 1, W - kw - 1, tui_attr(l, d->note.role), l, fit);
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
		if (dirty & DIRTY_FRAME)
			draw_frame(d);
		if (dirty & DIRTY_VIEW)
			draw_body(d);
		if (dirty & DIRTY_PANELS)
			draw_panels(d);
		if (dirty & DIRTY_PROGRESS)
			draw_progress(d, now);
		if (dirty & DIRTY_STATUS)
			draw_status(d);
		if (d->overlay == OV_HELP)
			draw_help(d);
	}
	doupdate();
}
