/* table.c: the result model shared by the experiments, the views and the writers. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wtg/conditions.h"
#include "wtg/experiment.h"
#include "wtg/machine.h"
#include "wtg/table.h"

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);
	if (!q) {
		static const char msg[] = "wtg: out of memory\n";
		(void)!write(2, msg, sizeof msg - 1);
		abort();
	}
	return q;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = xrealloc(NULL, n);
	memcpy(d, s, n);
	return d;
}

#define GROW(arr, n, cap)                                                        \
	do {                                                                     \
		if ((n) == (cap)) {                                              \
			(cap) = (cap) ? (cap) * 2 : 8;                           \
			(arr) = xrealloc((arr), (size_t)(cap) * sizeof *(arr));  \
		}                                                                \
	} while (0)

/* Called with the lock held: gen moves; the reader is woken at once when urgent, else when the last
 * wake is WTG_WAKE_MIN_NS old. */
static void notify(struct wtg_table *t, bool urgent)
{
	t->gen++;
	if (t->wake_fd < 0)
		return;
	int64_t now = wtg_now_ns();
	if (!urgent && now - t->woke_ns < WTG_WAKE_MIN_NS)
		return;
	t->woke_ns = now;
	uint64_t one = 1;
	(void)!write(t->wake_fd, &one, sizeof one);
}

/* Called with the lock held: the progress moved (gen), nothing a view draws from. */
static void progressed(struct wtg_table *t)
{
	notify(t, false);
}

/* Called with the lock held: what the table holds changed (version and gen). */
static void changed(struct wtg_table *t)
{
	t->version++;
	notify(t, false);
}

/* Called with the lock held: the state changed or the run failed; the reader hears of it at once. */
static void changed_now(struct wtg_table *t)
{
	t->version++;
	notify(t, true);
}

void wtg_table_init(struct wtg_table *t, const struct wtg_experiment *exp)
{
	memset(t, 0, sizeof *t);
	pthread_mutex_init(&t->lock, NULL);
	t->exp = exp;
	t->wake_fd = -1;
	t->steal_pct = t->mhz_min = t->mhz_max = NAN;
}

static void clear_locked(struct wtg_table *t)
{
	for (int r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++)
			if (t->rows[r].v[c].type == WTG_T_TEXT)
				free(t->rows[r].v[c].own);
		free(t->rows[r].v);
	}
	free(t->rows);
	for (int i = 0; i < t->nchecks; i++) {
		free(t->checks[i].name);
		free(t->checks[i].detail);
	}
	free(t->checks);
	for (int i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->notes);
	for (int i = 0; i < t->nseries; i++) {
		free(t->series[i].name);
		free(t->series[i].unit);
		free(t->series[i].v);
	}
	free(t->series);
	for (int i = 0; i < t->nwarmups; i++) {
		free(t->warmups[i].row);
		free(t->warmups[i].unit);
		free(t->warmups[i].window);
		free(t->warmups[i].medians);
	}
	free(t->warmups);
	t->warmups = NULL;
	t->nwarmups = t->capwarmups = 0;
	t->rows = NULL;
	t->checks = NULL;
	t->notes = NULL;
	t->nxmarks = 0;
	t->edits = 0;
	t->series = NULL;
	t->nrows = t->caprows = t->nchecks = t->capchecks = 0;
	t->nnotes = t->capnotes = t->nseries = t->capseries = 0;
	t->ncols = 0;
	t->state = WTG_IDLE;
	t->error[0] = '\0';
	memset(&t->progress, 0, sizeof t->progress);
	t->sofar[0] = '\0';
	t->started_ns = t->finished_ns = 0;
	t->has_total = false;
	t->cold = false;
	memset(&t->total, 0, sizeof t->total);
	free(t->watch);
	t->watch = NULL;
	t->steal_pct = t->mhz_min = t->mhz_max = NAN;
}

void wtg_table_reset(struct wtg_table *t)
{
	pthread_mutex_lock(&t->lock);
	clear_locked(t);
	changed(t);
	pthread_mutex_unlock(&t->lock);
}

void wtg_table_free(struct wtg_table *t)
{
	pthread_mutex_lock(&t->lock);
	clear_locked(t);
	pthread_mutex_unlock(&t->lock);
	pthread_mutex_destroy(&t->lock);
}

void wtg_table_add_xmark(struct wtg_table *t, double x, const char *label)
{
	pthread_mutex_lock(&t->lock);
	if (t->nxmarks < WTG_MAX_XMARKS) {
		struct wtg_xmark *m = &t->xmarks[t->nxmarks++];
		m->x = x;
		snprintf(m->label, sizeof m->label, "%s", label);
		changed(t);
	}
	pthread_mutex_unlock(&t->lock);
}

void wtg_table_mark_caches(struct wtg_table *t, const struct wtg_machine *m)
{
	if (!m)
		return;
	for (int level = 1; level <= 4; level++) {
		uint64_t s = wtg_machine_cache_size(m, level);
		if (!s)
			continue;
		char sz[32], mark[40];
		wtg_fmt_size(sz, sizeof sz, s);
		snprintf(mark, sizeof mark, "L%d %s", level, sz);
		wtg_table_add_xmark(t, (double)s, mark);
	}
}

void wtg_table_set_columns(struct wtg_table *t, const struct wtg_column *cols, int ncols)
{
	if (ncols > WTG_MAX_COLS)
		ncols = WTG_MAX_COLS;
	pthread_mutex_lock(&t->lock);
	if (t->nrows == 0) {
		memcpy(t->cols, cols, (size_t)ncols * sizeof *cols);
		t->ncols = ncols;
		changed(t);
	}
	pthread_mutex_unlock(&t->lock);
}

void wtg_table_add_row(struct wtg_table *t, const struct wtg_value *v, int n,
		       const struct wtg_probe_result *probe)
{
	struct wtg_cond_snapshot cond;
	wtg_cond_snapshot(&cond, NULL);
	pthread_mutex_lock(&t->lock);
	GROW(t->rows, t->nrows, t->caprows);
	struct wtg_row *row = &t->rows[t->nrows];
	memset(row, 0, sizeof *row);
	int nc = t->ncols > 0 ? t->ncols : 1;
	row->v = xrealloc(NULL, (size_t)nc * sizeof *row->v);
	for (int c = 0; c < nc; c++) {
		row->v[c] = c < n ? v[c] : WTG_NA;
		if (row->v[c].type == WTG_T_TEXT)
			row->v[c].own = xstrdup(row->v[c].s ? row->v[c].s : "");
	}
	if (probe) {
		row->has_probe = true;
		row->probe = *probe;
	}
	row->cond = cond;
	row->t_ns = wtg_now_ns();
	t->nrows++;
	changed(t);
	pthread_mutex_unlock(&t->lock);
}

void wtg_table_set_row(struct wtg_table *t, int r, const struct wtg_value *v, int n,
		       const struct wtg_probe_result *probe)
{
	/* the conditions now: a row refined after a key changed them was measured again under the new
	 * ones (the rounds start again), so the row says those, not the ones of its first figure */
	struct wtg_cond_snapshot cond;
	wtg_cond_snapshot(&cond, NULL);
	pthread_mutex_lock(&t->lock);
	if (r >= 0 && r < t->nrows) {
		struct wtg_row *row = &t->rows[r];
		int nc = t->ncols > 0 ? t->ncols : 1;
		for (int c = 0; c < nc; c++) {
			if (row->v[c].type == WTG_T_TEXT)
				free(row->v[c].own);
			row->v[c] = c < n ? v[c] : WTG_NA;
			if (row->v[c].type == WTG_T_TEXT)
				row->v[c].own = xstrdup(row->v[c].s ? row->v[c].s : "");
		}
		row->has_probe = probe != NULL;
		if (probe)
			row->probe = *probe;
		row->cond = cond;
		row->t_ns = wtg_now_ns();
		t->edits++;
		changed(t);
	}
	pthread_mutex_unlock(&t->lock);
}

/* The formatted text whole, however long (a saved run's note or check may be long). */
static char *vformat(const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	char *buf = xrealloc(NULL, n > 0 ? (size_t)n + 1 : 1);
	buf[0] = '\0';
	if (n > 0)
		vsnprintf(buf, (size_t)n + 1, fmt, again);
	va_end(again);
	return buf;
}

static void add_check(struct wtg_table *t, const char *name, enum wtg_check_status st, char *detail)
{
	pthread_mutex_lock(&t->lock);
	GROW(t->checks, t->nchecks, t->capchecks);
	t->checks[t->nchecks].name = xstrdup(name);
	t->checks[t->nchecks].status = st;
	t->checks[t->nchecks].detail = detail;
	t->nchecks++;
	changed(t);
	pthread_mutex_unlock(&t->lock);
}

void wtg_table_check(struct wtg_table *t, const char *name, bool ok, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *detail = vformat(fmt, ap);
	va_end(ap);
	add_check(t, name, ok ? WTG_CHECK_OK : WTG_CHECK_FAIL, detail);
}

void wtg_table_warn(struct wtg_table *t, const char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *detail = vformat(fmt, ap);
	va_end(ap);
	add_check(t, name, WTG_CHECK_WARN, detail);
}

void wtg_table_note(struct wtg_table *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *note = vformat(fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&t->lock);
	GROW(t->notes, t->nnotes, t->capnotes);
	t->notes[t->nnotes++] = note;
	changed(t);
	pthread_mutex_unlock(&t->lock);
}

/* A copy of v[0, n) (one slot when n is 0, so it is never NULL). */
static double *copy_doubles(const double *v, size_t n)
{
	double *copy = xrealloc(NULL, (n ? n : 1) * sizeof *copy);
	if (n)
		memcpy(copy, v, n * sizeof *copy);
	return copy;
}

void wtg_table_add_series(struct wtg_table *t, const char *name, const char *unit, const double *v,
			  size_t n)
{
	double *copy = copy_doubles(v, n);
	pthread_mutex_lock(&t->lock);
	GROW(t->series, t->nseries, t->capseries);
	struct wtg_series *s = &t->series[t->nseries++];
	s->name = xstrdup(name);
	s->unit = xstrdup(unit ? unit : "");
	s->v = copy;
	s->n = n;
	s->nreplicas = 0;
	changed(t);
	pthread_mutex_unlock(&t->lock);
}

void wtg_table_series_replicas(struct wtg_table *t, const char *name, const size_t *len, int nrep)
{
	if (nrep < 2 || nrep > WTG_SERIES_MAX_REPLICAS)
		return;
	size_t total = 0, held[WTG_SERIES_MAX_REPLICAS];
	int k = 0;
	for (int j = 0; j < nrep; j++) {
		total += len[j];
		if (len[j])	/* a replica that holds none is left out */
			held[k++] = len[j];
	}
	if (k < 2)
		return;
	pthread_mutex_lock(&t->lock);
	for (int i = t->nseries - 1; i >= 0; i--) {
		struct wtg_series *s = &t->series[i];
		if (strcmp(s->name, name) != 0)
			continue;
		if (total == s->n) {
			memcpy(s->replica_len, held, (size_t)k * sizeof *held);
			s->nreplicas = k;
			changed(t);
		}
		break;
	}
	pthread_mutex_unlock(&t->lock);
}

static void copy_warmup(struct wtg_warmup_log *w, const char *row, const char *unit, const char *window, int max,
			const double *medians, size_t n, bool met)
{
	w->row = xstrdup(row ? row : "");
	w->unit = xstrdup(unit ? unit : "");
	w->window = xstrdup(window ? window : "");
	w->max = max;
	w->medians = copy_doubles(medians, n);
	w->n = n;
	w->met = met;
}

void wtg_table_add_warmup(struct wtg_table *t, const char *row, const char *unit, const char *window, int max,
			  const double *medians, size_t n, bool met)
{
	pthread_mutex_lock(&t->lock);
	GROW(t->warmups, t->nwarmups, t->capwarmups);
	copy_warmup(&t->warmups[t->nwarmups++], row, unit, window, max, medians, n, met);
	changed(t);
	pthread_mutex_unlock(&t->lock);
}

void wtg_table_progress(struct wtg_table *t, int step, int nsteps, const char *label)
{
	pthread_mutex_lock(&t->lock);
	t->progress.step = step;
	t->progress.nsteps = nsteps;
	wtg_strlcpy(t->progress.label, label ? label : "", sizeof t->progress.label);
	if (t->watch)
		wtg_watch_tick(t->watch);	/* the frequency, at most every WTG_WATCH_EVERY_NS */
	progressed(t);
	pthread_mutex_unlock(&t->lock);
}

void wtg_table_sofar(struct wtg_table *t, const char *fmt, ...)
{
	char buf[sizeof t->sofar];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&t->lock);
	wtg_strlcpy(t->sofar, buf, sizeof t->sofar);
	progressed(t);
	pthread_mutex_unlock(&t->lock);
}

void wtg_table_work(struct wtg_table *t, double done, double total)
{
	pthread_mutex_lock(&t->lock);
	struct wtg_run_progress *p = &t->progress;
	if (p->work_total <= 0 || done <= 0)
		p->work_ns = wtg_now_ns();
	p->work_done = done;
	p->work_total = total;
	progressed(t);
	pthread_mutex_unlock(&t->lock);
}

double wtg_progress_left_ns(const struct wtg_run_progress *p, int64_t elapsed_ns, double *frac)
{
	double el = (double)elapsed_ns;
	if (p->work_total > 0) {	/* each step's declared cost: no rate carried from one kind to another */
		double done = p->work_done < 0 ? 0 : p->work_done < p->work_total ? p->work_done : p->work_total;
		*frac = done / p->work_total;
		return p->work_total - done;
	}
	bool expected = p->expected_ns > 0 && el < (double)p->expected_ns;
	if (p->nsteps > 0) {
		*frac = (double)p->step / p->nsteps;
		if (expected)
			return (double)p->expected_ns - el;
		return *frac > 0 ? el * (1 - *frac) / *frac : -1;
	}
	if (expected) {
		*frac = el / (double)p->expected_ns;
		return (double)p->expected_ns - el;
	}
	*frac = 0;
	return -1;
}

void wtg_table_set_cold(struct wtg_table *t, bool cold)
{
	pthread_mutex_lock(&t->lock);
	t->cold = cold;
	changed(t);
	pthread_mutex_unlock(&t->lock);
}

void wtg_table_watched(struct wtg_table *t, double *steal, double *mhz_min, double *mhz_max)
{
	struct wtg_watch *w = malloc(sizeof *w);
	pthread_mutex_lock(&t->lock);
	bool running = w && t->watch;
	if (running)
		*w = *t->watch;
	*steal = t->steal_pct;
	*mhz_min = t->mhz_min;
	*mhz_max = t->mhz_max;
	pthread_mutex_unlock(&t->lock);
	if (running)	/* /proc/stat read outside the lock */
		wtg_watch_so_far(w, steal, mhz_min, mhz_max);
	free(w);
}

void wtg_table_set_state(struct wtg_table *t, enum wtg_state s)
{
	/* the machine's state is read outside the lock: /proc/stat takes tens of microseconds */
	struct wtg_watch *w = NULL;
	if (s == WTG_RUNNING && (w = malloc(sizeof *w)))
		wtg_watch_begin(w);
	pthread_mutex_lock(&t->lock);
	if (s != WTG_RUNNING && s != WTG_IDLE && t->watch) {
		w = t->watch;
		t->watch = NULL;
		uint64_t mask = t->has_total ? t->total.cpus_seen : 0;
		pthread_mutex_unlock(&t->lock);
		wtg_watch_end(w, mask);
		pthread_mutex_lock(&t->lock);
		t->steal_pct = w->steal_pct;
		t->mhz_min = w->mhz_min;
		t->mhz_max = w->mhz_max;
		free(w);
		w = NULL;
	}
	t->state = s;
	if (s == WTG_RUNNING) {
		t->started_ns = wtg_now_ns();
		t->runs++;
		free(t->watch);
		t->watch = w;
		t->steal_pct = t->mhz_min = t->mhz_max = NAN;
	}
	else if (s != WTG_IDLE)
		t->finished_ns = wtg_now_ns();
	changed_now(t);
	pthread_mutex_unlock(&t->lock);
}

void wtg_table_fail(struct wtg_table *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pthread_mutex_lock(&t->lock);
	vsnprintf(t->error, sizeof t->error, fmt, ap);
	changed_now(t);
	pthread_mutex_unlock(&t->lock);
	va_end(ap);
}

int wtg_table_col(const struct wtg_table *t, const char *name)
{
	for (int c = 0; c < t->ncols; c++)
		if (strcmp(t->cols[c].name, name) == 0)
			return c;
	return -1;
}

double wtg_table_num(const struct wtg_table *t, int row, int col)
{
	if (row < 0 || row >= t->nrows || col < 0 || col >= t->ncols)
		return NAN;
	const struct wtg_value *v = &t->rows[row].v[col];
	switch (v->type) {
	case WTG_T_INT:
		return (double)v->i;
	case WTG_T_REAL:
		return v->r;
	default:
		return NAN;
	}
}

bool wtg_table_checks_ok(const struct wtg_table *t)
{
	for (int i = 0; i < t->nchecks; i++)
		if (t->checks[i].status == WTG_CHECK_FAIL)
			return false;
	return true;
}

void wtg_table_count_checks(const struct wtg_table *t, int *ok, int *warn, int *fail)
{
	int n[3] = { 0, 0, 0 };
	for (int i = 0; i < t->nchecks; i++)
		n[t->checks[i].status]++;
	if (ok)
		*ok = n[WTG_CHECK_OK];
	if (warn)
		*warn = n[WTG_CHECK_WARN];
	if (fail)
		*fail = n[WTG_CHECK_FAIL];
}

const char *wtg_check_status_name(enum wtg_check_status s)
{
	return s == WTG_CHECK_OK ? "ok" : s == WTG_CHECK_WARN ? "warn" : "fail";
}

/* ---- snapshots: a reader's private copy ---- */

static char *dup_or_empty(const char *s)
{
	return xstrdup(s ? s : "");
}

/* The progress fields, copied on every snapshot that saw gen move. */
static void copy_progress(struct wtg_table *dst, const struct wtg_table *src)
{
	dst->progress = src->progress;
	memcpy(dst->sofar, src->sofar, sizeof dst->sofar);
	dst->finished_ns = src->finished_ns;
	dst->gen = src->gen;
}

static void copy_rows(struct wtg_table *dst, const struct wtg_table *src)
{
	int width = src->ncols > 0 ? src->ncols : 1;
	dst->rows = xrealloc(NULL, ((size_t)src->nrows + 1) * sizeof *dst->rows);
	for (int r = 0; r < src->nrows; r++) {
		dst->rows[r] = src->rows[r];
		dst->rows[r].v = xrealloc(NULL, (size_t)width * sizeof *dst->rows[r].v);
		for (int c = 0; c < width; c++) {
			dst->rows[r].v[c] = src->rows[r].v[c];
			if (dst->rows[r].v[c].type == WTG_T_TEXT)
				dst->rows[r].v[c].s = dup_or_empty(src->rows[r].v[c].s);
		}
	}
	dst->nrows = dst->caprows = src->nrows;
}

/* Checks, notes and series. */
static void copy_extras(struct wtg_table *dst, const struct wtg_table *src)
{
	dst->checks = xrealloc(NULL, ((size_t)src->nchecks + 1) * sizeof *dst->checks);
	for (int i = 0; i < src->nchecks; i++) {
		dst->checks[i].name = dup_or_empty(src->checks[i].name);
		dst->checks[i].status = src->checks[i].status;
		dst->checks[i].detail = dup_or_empty(src->checks[i].detail);
	}
	dst->nchecks = dst->capchecks = src->nchecks;
	dst->notes = xrealloc(NULL, ((size_t)src->nnotes + 1) * sizeof *dst->notes);
	for (int i = 0; i < src->nnotes; i++)
		dst->notes[i] = dup_or_empty(src->notes[i]);
	dst->nnotes = dst->capnotes = src->nnotes;
	dst->series = xrealloc(NULL, ((size_t)src->nseries + 1) * sizeof *dst->series);
	for (int i = 0; i < src->nseries; i++) {
		const struct wtg_series *a = &src->series[i];
		struct wtg_series *b = &dst->series[i];
		b->name = dup_or_empty(a->name);
		b->unit = dup_or_empty(a->unit);
		b->n = a->n;
		b->v = copy_doubles(a->v, a->n);
		memcpy(b->replica_len, a->replica_len, sizeof b->replica_len);
		b->nreplicas = a->nreplicas;
	}
	dst->nseries = dst->capseries = src->nseries;
	dst->warmups = xrealloc(NULL, ((size_t)src->nwarmups + 1) * sizeof *dst->warmups);
	for (int i = 0; i < src->nwarmups; i++) {
		const struct wtg_warmup_log *a = &src->warmups[i];
		copy_warmup(&dst->warmups[i], a->row, a->unit, a->window, a->max, a->medians, a->n, a->met);
	}
	dst->nwarmups = dst->capwarmups = src->nwarmups;
}

enum wtg_snap wtg_table_snapshot(struct wtg_table *dst, struct wtg_table *src)
{
	pthread_mutex_lock(&src->lock);
	enum wtg_snap what = WTG_SNAP_SAME;
	if (dst->gen == src->gen && dst->version == src->version) {
		pthread_mutex_unlock(&src->lock);
		return what;
	}
	what = WTG_SNAP_PROGRESS;
	if (dst->version != src->version) {
		clear_locked(dst);
		dst->ncols = src->ncols;
		memcpy(dst->cols, src->cols, sizeof dst->cols);
		copy_rows(dst, src);
		copy_extras(dst, src);
		dst->nxmarks = src->nxmarks;
		memcpy(dst->xmarks, src->xmarks, sizeof dst->xmarks);
		dst->edits = src->edits;
		dst->state = src->state;
		memcpy(dst->error, src->error, sizeof dst->error);
		dst->started_ns = src->started_ns;
		dst->runs = src->runs;
		dst->total = src->total;
		dst->has_total = src->has_total;
		dst->steal_pct = src->steal_pct;
		dst->mhz_min = src->mhz_min;
		dst->mhz_max = src->mhz_max;
		dst->cold = src->cold;
		dst->version = src->version;
		what = WTG_SNAP_CONTENT;
	}
	copy_progress(dst, src);
	pthread_mutex_unlock(&src->lock);
	return what;
}
