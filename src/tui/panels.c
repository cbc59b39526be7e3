/* panels.c: the three panels under the experiment's box (where the time went; faults, switches and
 * CPUs; the conditions), drawn from the run on screen and what the dashboard last saw of the
 * conditions. draw.c calls dash_draw_panels when they are dirty. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wtg/conditions.h"
#include "wtg/probe.h"
#include "dash.h"

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

/* A count in at most room columns: "7,202" when it fits, else "7.2k", "72k", "7.2M" ... (never
 * below 1 of a unit: a count too wide for any is still whole, and the line clips it visibly). */
static void fit_count(char *buf, size_t len, int64_t v, int room)
{
	static const char units[] = "kMGTPE";
	wtg_fmt_thousands(buf, len, v);
	double x = (double)v;
	for (int u = 0; tui_width(buf) > room && u < 6 && fabs(x) >= 1000; u++) {
		x /= 1000;
		if (fabs(x) < 9.95)
			snprintf(buf, len, "%.1f%c", x, units[u]);
		else
			snprintf(buf, len, "%.0f%c", x, units[u]);
	}
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
		/* "minor " 6 columns " major ": the second count has what is left (4 at 80 columns),
		 * the first 6 and more on a wider screen; a count wider than its room is abbreviated */
		int lw = pw >= 27 ? 6 + (pw - 23) / 2 : 6, right = pw - lw - 13;
		fit_count(a, sizeof a, p.minflt, lw);
		fit_count(b, sizeof b, p.majflt, right);
		tui_printf(w, 1, 1, pw, A_NORMAL, "minor %-*s major %s", lw, a, b);
		fit_count(a, sizeof a, p.vcsw, lw);
		fit_count(b, sizeof b, p.ivcsw, right);
		tui_printf(w, 2, 1, pw, A_NORMAL, "vol   %-*s invol %s", lw, a, b);
		wtg_probe_cpus_str(p.cpus_seen, cpus, sizeof cpus);
		if (tui_width(cpus) > lw)
			snprintf(cpus, sizeof cpus, "%d/%d", __builtin_popcountll(p.cpus_seen), d->s->machine.cpus);
		if (p.migrations < 0)
			snprintf(mig, sizeof mig, "n/a");
		else
			fit_count(mig, sizeof mig, p.migrations, right);
		/* "CPU 0" for one, "CPUs 0-1" for several: "CPUs 0" would read as none */
		tui_printf(w, 3, 1, pw, A_NORMAL, "%-5s %-*s migr  %s",
			   __builtin_popcountll(p.cpus_seen) == 1 ? "CPU" : "CPUs", lw, cpus, mig);
	} else {
		tui_put(w, 2, 1, pw, dim, "no run measured yet");
	}
	wnoutrefresh(w);
}

static void append(char *buf, const char *s, size_t len)
{
	size_t n = strlen(buf);
	if (n < len)
		wtg_strlcpy(buf + n, s, len - n);
}

/* After a condition's words: "pending" until the next batch, or that the tab's experiment sets it. */
static const char *cond_tag(const struct dash *d, unsigned bit, char *buf, size_t len)
{
	const struct wtg_experiment *e = wtg_experiments[d->tab];
	buf[0] = '\0';
	if (d->pending.bits & bit)
		snprintf(buf, len, ", pending");
	else if (e->self_conditions & bit)
		snprintf(buf, len, " (%s sets it)", e->name);
	return buf;
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
	int pw = getmaxx(w) - 2;
	/* the keys below say what the next run gets; a saved or earlier run on screen that was not
	 * measured quiet says what it had on the frame, so "[u] I/O cached" never passes for its */
	char shown[128] = "", cond[96];
	const struct wtg_table *st = dash_shown(d);
	wtg_lay_table_conditions(cond, sizeof cond, st);
	int room = pw + 2 - 19;	/* beside " conditions " with a frame cell either side */
	if (st != &d->snap[d->tab] && cond[0] && strcmp(cond, "quiet") != 0) {
		snprintf(shown, sizeof shown, "run: %s", cond);
		if (tui_width(shown) > room)
			snprintf(shown, sizeof shown, "%s", tui_width(cond) <= room ? cond : "not quiet");
	}
	tui_frame(w, l, dim, "conditions", tui_attr(l, TR_TITLE), shown, tui_attr(l, TR_WARN));
	char line[160], tag[64];
	int x;
	bool wide = pw >= 40;
	x = 1 + tui_put(w, 1, 1, pw, key, "[b]");
	if (burners > 0 && wide)
		snprintf(line, sizeof line, " burners on, %d thread%s %s", burners, burners == 1 ? "" : "s",
			 v->burn_kind == WTG_BURN_STREAM ? "streaming memory" : "spinning");
	else if (burners > 0)	/* an 80-column screen's panel: the count and the kind, whole */
		snprintf(line, sizeof line, " burners on: %d %s", burners,
			 v->burn_kind == WTG_BURN_STREAM ? "stream" : "spin");
	else
		snprintf(line, sizeof line, " burners off");
	if (wtg_experiments[d->tab]->self_conditions & WTG_COND_BURN)
		snprintf(line, sizeof line, " burners: set by %s", wtg_experiments[d->tab]->name);
	else if ((d->pending.bits & WTG_COND_BURN) && burners > 0)	/* what is asked for, and that it waits */
		snprintf(line, sizeof line, " burners %d %s, pending", burners,
			 v->burn_kind == WTG_BURN_STREAM ? "stream" : "spin");
	else if (d->pending.bits & WTG_COND_BURN)
		snprintf(line, sizeof line, " burners off, pending");
	tui_put_clip(w, 1, x, pw - x + 1, burners > 0 ? tui_attr(l, TR_WARN) : A_NORMAL, l, line);

	/* the policy asked for, and what the kernel reports for the measuring thread */
	x = 1 + tui_put(w, 2, 1, pw, key, "[p]");
	const char *want = bg ? "background" : "normal";
	const char *how = "";
	if (granted < 0 && bg)
		how = " pending";
	else if (granted >= 0 && (granted == 1) != bg)
		how = bg && v->answered ? " refused" : " pending";
	else if (bg)
		how = " granted";
	snprintf(line, sizeof line, " policy %s%s%s%s", want, how, wide && bg ? " (SCHED_IDLE)" : "",
		 cond_tag(d, WTG_COND_BACKGROUND, tag, sizeof tag));
	if (!wide && (wtg_experiments[d->tab]->self_conditions & WTG_COND_BACKGROUND))
		snprintf(line, sizeof line, " policy: set by %s", wtg_experiments[d->tab]->name);
	tui_put_clip(w, 2, x, pw - x + 1, bg ? tui_attr(l, TR_WARN) : A_NORMAL, l, line);

	x = 1 + tui_put(w, 3, 1, pw, key, "[u]");
	if (!unc)
		snprintf(line, sizeof line, " I/O cached");
	else if (dfs != WTG_DF_READY)
		snprintf(line, sizeof line, " I/O uncached: pending");
	else
		snprintf(line, sizeof line, " I/O uncached: %s", wtg_iomode_name(io));
	append(line, cond_tag(d, WTG_COND_UNCACHED, tag, sizeof tag), sizeof line);
	if (!wide && (wtg_experiments[d->tab]->self_conditions & WTG_COND_UNCACHED))
		snprintf(line, sizeof line, " I/O: set by %s", wtg_experiments[d->tab]->name);
	x += tui_put_clip(w, 3, x, pw - x + 1, unc ? tui_attr(l, TR_WARN) : A_NORMAL, l, line);
	/* [c]: how much of the data file the page cache holds now, and a cold run asked for that no run
	 * has taken yet (or that waits for the next batch) */
	const struct wtg_session *s = d->s;
	long page = s->machine.page_size > 0 ? s->machine.page_size : 4096;
	int64_t pages = dfs == WTG_DF_READY ? (int64_t)((s->df.size + (uint64_t)page - 1) / (uint64_t)page) : 0;
	if (v->resident >= 0 && pages > 0 && pw - x >= 12) {
		double pct = 100.0 * (double)v->resident / (double)pages;
		bool asked = v->cold_asked || (d->pending.bits & WTG_COND_COLD);
		int gap = asked && !wide ? 1 : 2;	/* 80 columns: room for "0% pending" */
		x += gap + tui_put(w, 3, x + gap, pw - x - 1, key, "[c]");
		if (wide)
			snprintf(line, sizeof line, " cached %.0f%%%s", pct, asked ? ", cold pending" : "");
		else if (asked) {	/* the share c left and the request, or the request alone */
			if (snprintf(line, sizeof line, " %.0f%% pending", pct) > pw - x + 1)
				snprintf(line, sizeof line, " pending");
		} else
			snprintf(line, sizeof line, " %.0f%%", pct);
		tui_put(w, 3, x, pw - x + 1, pct < 50 ? tui_attr(l, TR_WARN) : A_NORMAL, line);
	}
	wnoutrefresh(w);
}


void dash_draw_panels(struct dash *d)
{
	if (d->compact)
		return;	/* below 80x24 the experiment has their room */
	struct wtg_probe_result p;
	memset(&p, 0, sizeof p);
	char what[32];
	bool have = latest_probe(dash_shown(d), &p, what, sizeof what);	/* the run on screen, saved too */
	panel_time(d, &p, have, what);
	panel_faults(d, &p, have);
	panel_conditions(d);
}

