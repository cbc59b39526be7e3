/* dash.h: the dashboard's own state, shared by its control (state.c, dashboard.c, keys.c, save.c) and its
 * drawing (draw.c). Control changes state and marks what it dirtied; drawing reads the state and
 * redraws only the dirty windows. */
#ifndef WTG_TUI_DASH_H
#define WTG_TUI_DASH_H

#include <limits.h>
#include <sys/stat.h>

#include "tui_internal.h"
#include "wtg/load.h"

#define MIN_ROWS 20		/* below 24x80 the compact layout: no panels */
#define MIN_COLS 60
#define FULL_ROWS 24
#define FULL_COLS 80
#define BIG_ROWS 35		/* from 120x35 the headline figure in block digits */
#define BIG_COLS 120
#define TICK_MS 250		/* animation rate while something moves (progress, time left) */
#define NOTICE_NS 6000000000LL
#define STARVED_NS 2000000000LL	/* the watchdog's starved time the status line shows from */
#define PANEL_H 5
/* Runs of a tab kept for the session: the current and 15 before it (the man page says so); past it
 * the oldest goes, never the newest completed one, and the screen (e) and the save count those. */
#define DASH_KEEP 16
#define DASH_MAX_RUNS 8		/* runs a view draws at once */

/* What the user asked the dashboard to do with the worker; the worker's own state (running, queued)
 * is read from the session. Every change goes through dash_run_event() in state.c. */
enum dash_mode {
	DM_NORMAL,		/* a tab not run yet runs when the worker is free */
	DM_PAUSED,		/* nothing starts until space; run.idx is what space runs again */
	DM_AUTOPLAY_RUNNING,	/* autoplay: run.idx runs (or waits to start) */
	DM_AUTOPLAY_HOLDING,	/* autoplay: run.idx ended; the next starts at run.until */
};

enum dash_event {
	EV_PAUSE,		/* space */
	EV_RERUN,		/* r, Enter, or a step with --step */
	EV_AUTOPLAY,		/* a */
	EV_TAKE_OVER,		/* any key while autoplay runs */
	EV_TICK,		/* time passed: autoplay's run ended, its hold ran out */
};

/* What sits over the dashboard; any key removes it and does nothing else. */
enum dash_overlay { OV_NONE, OV_HELP, OV_BLANK, OV_START, OV_TERMS };

/* The windows to redraw at the next frame (as tmux's CLIENT_REDRAW* bits). */
enum {
	DIRTY_HEADER = 1 << 0,
	DIRTY_TABS = 1 << 1,
	DIRTY_FRAME = 1 << 2,		/* the experiment box's frame and titles */
	DIRTY_VIEW = 1 << 3,		/* the view inside the box */
	DIRTY_PANELS = 1 << 4,
	DIRTY_PROGRESS = 1 << 5,
	DIRTY_STATUS = 1 << 6,
	DIRTY_ALL = (1 << 7) - 1,
};

/* The session's state as last seen: dash_observe() compares it with the session's and marks what
 * moved. Drawing reads these, never the session's live values, so nothing drawn escapes a flag. */
struct dash_seen {
	int df_state;
	uint64_t df_done;		/* bytes of the data file written or read so far */
	uint64_t df_total;		/* ... of its size, or the --file's */
	int df_pct;			/* ... in percent of its size (the header moves in steps of 1%) */
	int current;			/* registry index running now, -1 */
	struct wtg_run_status run;	/* the running experiment's status */
	int qpos;			/* the current tab's place in the queue, -1 */
	enum wtg_state states[WTG_MAX_EXP];
	int burners;
	enum wtg_burn_kind burn_kind;
	bool bg, uncached;
	int granted;
	bool answered;		/* granted answers the current request (wtg_policy_answered) */
	enum wtg_iomode io;
	int64_t resident, resident_at;	/* the data file's pages in the page cache (-1 unknown), when read */
	bool cold_asked;		/* c asked for a cold run that no run has taken yet */
	int stall_s;			/* whole seconds the worker has been starved, -1 when not */
	int64_t tick;			/* TICK_MS periods since the start, while something moves */
	bool notice_on;
};

struct dash {
	struct wtg_session *s;
	struct tui_look look;
	int rows, cols;
	bool small;
	bool compact;			/* below 80x24: the panels give way to the experiment */
	bool notes_open;		/* n: the notes and checks under the view, folded by default */
	struct {			/* a condition key pressed while a row runs, until the next row lands */
		unsigned bits;		/* wtg_cond_bit */
		int idx;		/* the run it waits on */
		int nrows;		/* ... and its rows when the key was pressed */
	} pending;
	WINDOW *hdr, *tabs, *box, *view, *pt, *pf, *pc, *prog, *status, *help;
	unsigned dirty;

	int tab, tab_first;
	struct wtg_table snap[WTG_MAX_EXP];
	/* The tab's earlier runs this session, oldest first, each labelled with its conditions; the
	 * view draws the one at back[tab] (1: the run before the current) beside the current. */
	struct dash_hist {
		struct wtg_table t[DASH_KEEP - 1];
		char label[DASH_KEEP - 1][96];
		int n;
		int dropped;		/* runs the cap let go this session */
		int back;
		char cmp[512];		/* "before -> after (x0.58, CI [a, b])" for the headlines */
		uint64_t cmp_version;	/* the current run's content the line was made for */
	} hist[WTG_MAX_EXP];
	int scroll[WTG_MAX_EXP];	/* Up/Down: rows of a long bar chart scrolled back from the latest */
	struct wtg_loaded *loaded;	/* --load: the saved runs, drawn beside whatever runs live */
	int nloaded;
	bool tried[WTG_MAX_EXP];	/* auto-run at most once per tab */

	struct {
		enum dash_mode mode;
		int idx;		/* paused: what space runs again; autoplay: the tab it plays */
		int64_t t0;		/* autoplay: runs of idx that started before this are not its */
		int64_t until;		/* autoplay holding: when the next starts */
	} run;
	enum dash_overlay overlay;

	struct dash_seen seen;

	struct {			/* a line in the status line for NOTICE_NS after a key */
		char text[PATH_MAX + 256];
		enum tui_role role;
		int path;		/* where the path of a path notice starts, 0 for none */
		int64_t until;
		int run;		/* "running NAME": the experiment it speaks of, ended with its run; -1 */
	} note;

	bool quit;			/* the loop ends with quit_status (q or a signal in m's machines view) */
	int quit_status;

	int64_t t_start;
	int64_t last_frame;
	struct stat file_st;		/* --file: its size, for the scan's progress */
	bool file_st_ok;
};

/* ---- dashboard.c: what the session shows ---- */

/* Compare the session with what was seen (d->seen), mark what moved dirty; returns those marks. */
unsigned dash_observe(struct dash *d, int64_t now);

/* ---- state.c: state and its transitions ---- */

/* The whole seconds the status line says the worker has been starved, -1 for none: the watchdog's
 * figure (wtg_session_stall: runnable, waiting for a CPU) from STARVED_NS on, while run_idx runs;
 * the dashboard has no starvation rule of its own. */
int dash_starved_s(int run_idx, int64_t stall_ns);
/* Whether autoplay runs or holds a tab. */
bool dash_autoplaying(const struct dash *d);
/* lead.c: the verdict over t's view (large where the screen has room), the essay's line beside this
 * machine's figure and why here, from line 0 of vw (vh lines, vwid columns); returns the lines used. */
int dash_draw_lead(struct dash *d, const struct wtg_table *t, WINDOW *vw, int vh, int vwid);
/* The one place the run mode changes: what ev does in the mode the dashboard is in. */
void dash_run_event(struct dash *d, enum dash_event ev, int64_t now);
/* Show the tab at registry index idx. */
void dash_set_tab(struct dash *d, int idx);
void dash_notice(struct dash *d, enum tui_role role, const char *fmt, ...) WTG_PRINTF(3, 4);
/* "WHAT PATH" in the status line; the path gives way from its start when the line is short. */
void dash_notice_path(struct dash *d, enum tui_role role, const char *what, const char *path);
/* "BEFORErunning NAMEAFTER" for experiment idx, in the status line while it is queued or runs (the
 * worker's state, not a time: it goes when the run ends, however soon). */
void dash_notice_run(struct dash *d, int idx, const char *before, const char *after);
/* Whether the notice still stands at now: its time is not up, and a run's has not ended. */
bool dash_notice_on(struct dash *d, int64_t now);
/* New windows for the terminal's size; everything dirty. */
void dash_layout(struct dash *d);
/* Delete the windows (before endwin, or a new layout). */
void dash_destroy_windows(struct dash *d);
void dash_set_overlay(struct dash *d, enum dash_overlay o);
/* Whether the dashboard opens a lecture (--step, or an --order other than the registry's): the
 * start screen comes first, and the first tab runs after it. */
bool dash_is_lecture(const struct dash *d);

/* ---- runs: the saved ones, the tab's earlier ones, the current one ---- */

/* The table the box shows for the tab: the live run once it has a row (or ended with samples or an
 * error), else the newest earlier or saved run (a rerun keeps it until then), else the live one. */
const struct wtg_table *dash_shown(const struct dash *d);
/* The tab's newest run before the live one: the newest completed (done) one, this session's else a
 * saved one; else this session's newest earlier run, else the newest saved one; NULL for none. */
const struct wtg_table *dash_before(const struct dash *d);
/* The completed run that stands for tab's live run when that one ended short (cancelled or failed)
 * or, with running, still measures: a completed run is never displaced. NULL when the live run is
 * the one to show (done, or nothing completed before it). */
const struct wtg_table *dash_displaced_by(const struct dash *d, int tab, bool running);
/* A run's conditions in words (wtg_lay_table_conditions), an experiment that runs quiet and burners
 * itself (tail) named so: "quiet and burners", never "quiet". */
void dash_conditions(char *buf, size_t len, const struct wtg_table *t);
/* A kept run's label: its conditions ("quiet", "burners 2 spin"), and what became of it when it did
 * not complete: "quiet (cancelled)", "(failed)" (no rows, no conditions), "(running)". */
void dash_run_label(char *buf, size_t len, const struct wtg_table *t);
/* When run t ran, "HH:MM:SS" (local time; a saved run's from its file), in buf. */
const char *dash_run_clock(const struct dash *d, const struct wtg_table *t, char *buf, size_t len);
/* The label of saved file i's run of tab: "saved: uncached" (the file's label when several are
 * loaded or it saved one), in buf. */
const char *dash_loaded_label(const struct dash *d, int i, int tab, char *buf, size_t len);
/* Fill v's runs drawn beside v->t (tables, labels, faded, compare) for the tab. */
void dash_view_runs(struct dash *d, struct tui_view *v);
/* The machine table t was measured on: a saved run's own, else this one's. */
const struct wtg_machine *dash_machine_of(const struct dash *d, const struct wtg_table *t);
/* The header's words for saved runs in at most width columns ("quiet: HOST 2026-11-30", else without the
 * dates, else the labels alone, else "2 saved runs", else ""), false when none are loaded. */
bool dash_header_runs(const struct dash *d, char *buf, size_t len, int width);
/* Scroll the tab's rows by delta (positive: back towards the first row). */
void dash_scroll(struct dash *d, int delta);
/* Step the earlier run drawn beside the current one (one further back, wrapping). */
void dash_step_back(struct dash *d);

/* ---- the deck: the tabs in lecture order (--order) ---- */

extern const char dash_deck_keys[];
int dash_deck_len(const struct dash *d);
int dash_deck_at(const struct dash *d, int pos);
int dash_deck_pos(const struct dash *d, int idx);
int dash_deck_step(const struct dash *d, int delta);
/* The experiment at deck position from (0 when negative), or -1 past the deck's end. */
int dash_deck_next(const struct dash *d, int from);

/* ---- keys.c: the key table ---- */

struct dash_key {
	int codes[5];		/* what wget_wch gives (0 ends the list) */
	const char *man;	/* the keys as the man page's KEYS section names them */
	const char *label;	/* the help screen's key column; NULL: shares the line above */
	const char *help;
	const char *hint_keys;	/* the status line's hint, NULL for none */
	const char *hint;
	bool right;		/* the hint stands at the right end of the status line */
	void (*act)(struct dash *d, int key);
};

extern const struct dash_key dash_keys[];
extern const int dash_nkeys;
/* Act on one key; returns true to quit. */
bool dash_on_key(struct dash *d, int code, wint_t ch);

/* ---- save.c ---- */

/* s: the results as JSON, HTML and CSV; w: the screen as text. */
void dash_save_results(struct dash *d, int key);
void dash_save_screen(struct dash *d, int key);

/* ---- draw.c ---- */

/* The three panels under the box (panels.c); nothing on a compact screen. */
void dash_draw_panels(struct dash *d);
/* The terms the current tab uses, one line each, over the dashboard (terms.c). */
void dash_draw_terms(struct dash *d);
/* Redraw what is dirty (all of it under an overlay's end or a resize) and update the terminal. */
void dash_draw(struct dash *d, int64_t now);

#endif
