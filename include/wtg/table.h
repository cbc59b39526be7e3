/* table.h: the one result model. Experiments fill it; views and writers read it. */
#ifndef WTG_TABLE_H
#define WTG_TABLE_H

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wtg/probe.h"
#include "wtg/conditions.h"
#include "wtg/util.h"
#include "wtg/watch.h"

#define WTG_MAX_COLS 64

enum wtg_vtype { WTG_T_NA = 0, WTG_T_INT, WTG_T_REAL, WTG_T_TEXT };

struct wtg_column {
	const char *name;	/* stable name, scripts rely on it */
	const char *unit;	/* "" when unitless: "B", "ms", "ns", "GB/s", "count" ... */
	enum wtg_vtype type;
	int decimals;		/* for WTG_T_REAL in text output */
};

struct wtg_value {
	enum wtg_vtype type;
	int64_t i;
	double r;
	union {
		const char *s;	/* copied by the table on add */
		char *own;	/* the same pointer in a table's (or plan's) row: its own copy, freed with it */
	};
};

#define WTG_INT(x) ((struct wtg_value){ .type = WTG_T_INT, .i = (int64_t)(x) })
#define WTG_REAL(x) ((struct wtg_value){ .type = WTG_T_REAL, .r = (double)(x) })
#define WTG_TEXT(x) ((struct wtg_value){ .type = WTG_T_TEXT, .s = (x) })
#define WTG_NA ((struct wtg_value){ .type = WTG_T_NA })
/* A real when x is finite, else n/a (NaN: nothing measured; an infinity: no figure to give). */
static inline struct wtg_value wtg_real_or_na(double x)
{
	return isfinite(x) ? WTG_REAL(x) : WTG_NA;
}

struct wtg_row {
	struct wtg_value *v;		/* ncols values; text owned by the table */
	bool has_probe;
	struct wtg_probe_result probe;
	struct wtg_cond_snapshot cond;	/* the conditions in force when the row was measured */
	int64_t t_ns;			/* when it landed */
};

/* A check's outcome: ok, warn (worth a look, not a failure: e.g. a drift larger than the CI), fail. */
enum wtg_check_status { WTG_CHECK_OK = 0, WTG_CHECK_WARN, WTG_CHECK_FAIL };

struct wtg_check {
	char *name;
	enum wtg_check_status status;
	char *detail;
};

/* Raw samples behind a histogram row, in time order (e.g. per-batch ns per call). */
#define WTG_SERIES_MAX_REPLICAS 16
struct wtg_series {
	char *name;
	char *unit;
	double *v;
	size_t n;
	/* the samples fall into replicas (blocks measured at separate times), replica j holding
	 * replica_len[j] of them in time order, adding up to n; nreplicas 0: not known */
	size_t replica_len[WTG_SERIES_MAX_REPLICAS];
	int nreplicas;
};

/* A warm-up's windows (wtg/warmup.h), every one kept: what ran, unreported, before the timed samples
 * of a row (or of every row, when an experiment warms up once). */
struct wtg_warmup_log {
	char *row;		/* the row it warmed up, by its label */
	char *unit;		/* the medians' unit */
	char *window;		/* a window's length in words ("3 passes of 64M") */
	int max;		/* the most windows the rule allowed */
	double *medians;	/* each window's median, in time order */
	size_t n;
	bool met;		/* the rule was met; false: the maximum was reached */
};

/* A labelled mark on a sweep's x axis (a cache size: "L1 48K"). */
#define WTG_MAX_XMARKS 8
struct wtg_xmark {
	double x;		/* in the x column's unit */
	char label[24];
};

/* WTG_STOPPED: cancelled by the user or the watchdog (WTG_CANCELLED is a run() return code). */
enum wtg_state { WTG_IDLE = 0, WTG_RUNNING, WTG_DONE, WTG_FAILED, WTG_STOPPED };

/* Where a run stands as it goes: the one listing of these fields, which a table holds (its
 * measuring thread sets them through wtg_table_progress and wtg_table_work) and a snapshot and a
 * status (wtg_session_status) copy whole. */
struct wtg_run_progress {
	int step, nsteps;		/* nsteps 0: none */
	char label[64];			/* the step in words */
	int64_t expected_ns;		/* the run's own estimate of its whole time, 0: none */
	/* the work a run reports as it goes (wtg_table_work): done of total in ns, the total being done
	 * and the expected ns of the rest; since work_ns; total 0: it reports none */
	double work_done, work_total;
	int64_t work_ns;
};

struct wtg_table {
	pthread_mutex_t lock;		/* guards everything below; readers lock too */
	const struct wtg_experiment *exp;
	int ncols;
	struct wtg_column cols[WTG_MAX_COLS];
	struct wtg_row *rows;
	int nrows, caprows;
	struct wtg_check *checks;
	int nchecks, capchecks;
	char **notes;
	int nnotes, capnotes;
	struct wtg_series *series;
	int nseries, capseries;
	struct wtg_warmup_log *warmups;
	int nwarmups, capwarmups;
	struct wtg_xmark xmarks[WTG_MAX_XMARKS];
	int nxmarks;
	uint64_t edits;			/* rows replaced in place (wtg_table_set_row) */

	enum wtg_state state;
	char error[256];
	struct wtg_run_progress progress;	/* where the run stands as it goes */
	/* a figure so far, while no row exists yet ("1-byte file read 1,332 ns, median of 24 rounds"):
	 * the dashboard shows it under "measuring:" so a tab has a number before its first row */
	char sofar[96];
	int64_t started_ns, finished_ns;
	/* runs of this experiment started in this session, this one included (a reset keeps it): the
	 * box's "run 2 · done in ..." tells a rerun's end from the run before it; 0 for a saved run */
	int runs;
	bool cold;			/* measured cold: c emptied the page cache of the data file for it */
	struct wtg_probe_result total;	/* the whole run, bracketed by the worker */
	bool has_total;
	/* the machine while it ran (wtg/watch.h): the steal on the CPUs it measured on, in % of their
	 * time, and the lowest and highest current frequency read on them; NAN: unknown or n/a */
	double steal_pct, mhz_min, mhz_max;
	struct wtg_watch *watch;	/* while it runs: started and ended with the state */
	uint64_t gen;			/* bumped on every change, progress included */
	uint64_t version;		/* bumped on every change of the content (not the progress) */
	int wake_fd;			/* eventfd written on a change (see WTG_WAKE_MIN_NS), -1 for none */
	int64_t woke_ns;		/* when the last change wrote it */
};

/* A change of rows or progress wakes the reader (the dashboard) at most once per this; a change of
 * state or a failure at once. The dashboard looks by itself every TICK_MS while a run moves, so a
 * change left unsignalled shows within that; the measuring thread no longer wakes the UI thread
 * for every batch it reports. */
#define WTG_WAKE_MIN_NS 100000000LL

void wtg_table_init(struct wtg_table *t, const struct wtg_experiment *exp);
/* Drop rows, checks, notes and series; keep the experiment. Used before a rerun. */
void wtg_table_reset(struct wtg_table *t);
void wtg_table_free(struct wtg_table *t);

/* All of these lock internally. */
void wtg_table_set_columns(struct wtg_table *t, const struct wtg_column *cols, int ncols);
/* Append a row of ncols values; probe may be NULL. Conditions are snapshotted here. */
void wtg_table_add_row(struct wtg_table *t, const struct wtg_value *v, int n,
		       const struct wtg_probe_result *probe);
/* Replace the values (and probe) of row r, keeping its conditions: a row measured in rounds is
 * added after the first round and refined after each later one. Bumps edits. */
void wtg_table_set_row(struct wtg_table *t, int r, const struct wtg_value *v, int n,
		       const struct wtg_probe_result *probe);
void wtg_table_check(struct wtg_table *t, const char *name, bool ok, const char *fmt, ...)
	WTG_PRINTF(4, 5);
/* A check in the third state: listed in reports and amber on screen, not a failure. */
void wtg_table_warn(struct wtg_table *t, const char *name, const char *fmt, ...) WTG_PRINTF(3, 4);
void wtg_table_note(struct wtg_table *t, const char *fmt, ...) WTG_PRINTF(2, 3);
/* Copies the samples. */
void wtg_table_add_series(struct wtg_table *t, const char *name, const char *unit,
			  const double *v, size_t n);
/* Say that the last series named name falls into nrep replicas of len[j] samples each, in time
 * order (a comparison of two runs then resamples the replicas, then the samples within each);
 * empty replicas are left out; ignored unless the lengths add up to its samples and 2 ..
 * WTG_SERIES_MAX_REPLICAS replicas hold samples. */
void wtg_table_series_replicas(struct wtg_table *t, const char *name, const size_t *len, int nrep);
/* Keep a warm-up's n window medians (copied) for the report. */
void wtg_table_add_warmup(struct wtg_table *t, const char *row, const char *unit, const char *window, int max,
			  const double *medians, size_t n, bool met);
/* Mark x on the sweep's x axis with label (at most WTG_MAX_XMARKS; later ones are dropped). */
void wtg_table_add_xmark(struct wtg_table *t, double x, const char *label);
/* Mark each of m's cache levels on t's x axis ("L1 48K"): a working-set sweep, measured or saved. */
struct wtg_machine;
void wtg_table_mark_caches(struct wtg_table *t, const struct wtg_machine *m);
void wtg_table_progress(struct wtg_table *t, int step, int nsteps, const char *label);
/* The figure so far (printf-style; "" clears it), shown until the first row. */
void wtg_table_sofar(struct wtg_table *t, const char *fmt, ...) WTG_PRINTF(2, 3);
/* The run's work so far in ns: done (the finished steps' cost, declared or measured) of total (that
 * plus the expected ns of the steps still to run, declared before they run). The time left is then
 * total - done from the first call on (done 0), never a rate carried over from steps of another kind;
 * the first call starts work_ns. */
void wtg_table_work(struct wtg_table *t, double done, double total);

/* The time left in ns (-1: unknown yet) of a run that stands at p, elapsed_ns since it started, and
 * the share done in *frac (0 .. 1; -1: no measure at all). From the work when the run reports it: the
 * ns it declares still to come, so steps of unequal cost count by their cost; else the run's own
 * estimate while it holds; else the elapsed time per step so far. */
double wtg_progress_left_ns(const struct wtg_run_progress *p, int64_t elapsed_ns, double *frac);
void wtg_table_set_state(struct wtg_table *t, enum wtg_state s);
/* The run measures the data file cold (c): its label says "cold cache". */
void wtg_table_set_cold(struct wtg_table *t, bool cold);
/* The machine's steal and frequency range while t runs, so far (its watch), else as recorded. */
void wtg_table_watched(struct wtg_table *t, double *steal, double *mhz_min, double *mhz_max);
void wtg_table_fail(struct wtg_table *t, const char *fmt, ...) WTG_PRINTF(2, 3);

/* What a snapshot found: nothing new, only the progress (step, label, times), or new content. */
enum wtg_snap { WTG_SNAP_SAME = 0, WTG_SNAP_PROGRESS, WTG_SNAP_CONTENT };
/* Bring dst, a reader's private table (wtg_table_init, never shared), up to date with src, locking
 * src while copying: the progress fields when only they moved, everything when the content's
 * version moved. Returns what changed, so a reader redraws only what it must. */
enum wtg_snap wtg_table_snapshot(struct wtg_table *dst, struct wtg_table *src);

/* Helpers for readers holding the lock. Index of a column by name, or -1. */
int wtg_table_col(const struct wtg_table *t, const char *name);
/* Numeric value of a cell as double (NAN for text or n/a). */
double wtg_table_num(const struct wtg_table *t, int row, int col);
/* True when no check failed (warnings do not fail a table). */
bool wtg_table_checks_ok(const struct wtg_table *t);
/* Counts of checks in each state; any pointer may be NULL. */
void wtg_table_count_checks(const struct wtg_table *t, int *ok, int *warn, int *fail);
/* "ok", "warn" or "fail". */
const char *wtg_check_status_name(enum wtg_check_status s);

#endif
