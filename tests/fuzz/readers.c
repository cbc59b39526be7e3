/* readers.c: the two readers of saved runs compared (see readers.h). */
#include <stdbool.h>
#include <string.h>

#include "readers.h"
#include "wtg/load.h"
#include "wtg/util.h"

static bool same_value(const struct wtg_value *a, const struct wtg_value *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case WTG_T_INT: return a->i == b->i;
	case WTG_T_REAL: return !memcmp(&a->r, &b->r, sizeof a->r);
	case WTG_T_TEXT: return !strcmp(a->s, b->s);
	default: return true;
	}
}

static bool same_row(const struct wtg_table *x, const struct wtg_row *p, const struct wtg_row *q)
{
	for (int c = 0; c < x->ncols; c++)
		if (!same_value(&p->v[c], &q->v[c]))
			return false;
	return p->has_probe == q->has_probe && !memcmp(&p->cond, &q->cond, sizeof p->cond) &&
	       (!p->has_probe || (p->probe.minflt == q->probe.minflt && p->probe.cpus_seen == q->probe.cpus_seen));
}

/* The same columns, rows, cells, probes and conditions. */
static bool same_table(const struct wtg_table *x, const struct wtg_table *y)
{
	if (x->ncols != y->ncols || x->nrows != y->nrows || x->nchecks != y->nchecks || x->nseries != y->nseries)
		return false;
	for (int c = 0; c < x->ncols; c++)
		if (strcmp(x->cols[c].name, y->cols[c].name) || x->cols[c].type != y->cols[c].type)
			return false;
	for (int r = 0; r < x->nrows; r++)
		if (!same_row(x, &x->rows[r], &y->rows[r]))
			return false;
	return true;
}

/* The same tables (and earlier runs, with their labels), and the same run metadata. */
static bool same_loaded(const struct wtg_loaded *a, const struct wtg_loaded *b)
{
	if (a->npresent != b->npresent || strcmp(a->skipped, b->skipped) || strcmp(a->meta.label, b->meta.label) ||
	    strcmp(a->meta.timestamp, b->meta.timestamp) || strcmp(a->meta.machine.hostname, b->meta.machine.hostname))
		return false;
	for (int i = 0; i < WTG_MAX_EXP; i++) {
		if (a->present[i] != b->present[i] || !same_table(&a->tables[i], &b->tables[i]) ||
		    a->nearlier[i] != b->nearlier[i])
			return false;
		for (int k = 0; k < a->nearlier[i]; k++)
			if (strcmp(a->earlier[i][k].label, b->earlier[i][k].label) ||
			    !same_table(&a->earlier[i][k].t, &b->earlier[i][k].t))
				return false;
	}
	return true;
}

/* The error as wtg_error puts it on stderr (escaped: a field quoted in it may hold any byte) is one
 * line, begins with the file's name and says something after it. */
static bool one_line_naming(const char *err, const char *name, size_t n)
{
	char shown[2048];
	wtg_escape(shown, sizeof shown, err);
	return err[0] && !strchr(shown, '\n') && !strncmp(err, name, n) && !strncmp(err + n, ": ", 2) &&
	       err[n + 2];
}

/* "NAME, run K: ...": a run of a --replicate document named in one line. */
static bool names_a_run(const char *err, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(err, name, n) || strncmp(err + n, ", run ", 6))
		return false;
	const char *p = err + n + 6;
	if (*p < '1' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	char rest[1024];
	snprintf(rest, sizeof rest, "%s", p);
	return one_line_naming(rest, "", 0);	/* ": " and the reason, one line */
}

const char *wtg_readers_differ(const char *buf, size_t len, const char *name, int *loaded)
{
	static struct wtg_loaded l, ref;
	char err[512], rerr[512];
	size_t n = strlen(name);
	const char *why = NULL;
	int rc = wtg_load_buffer(buf, len, name, &l, err, sizeof err);
	int rrc = wtg_load_buffer_whole(buf, len, name, &ref, rerr, sizeof rerr);
	if (loaded)
		*loaded = rc == 0 && rrc == 0;
	if (rc != rrc)
		why = rc == 0 ? "the streaming reader took what the reference refused"
			      : "the streaming reader refused what the reference took";
	else if (rc == 0 && !same_loaded(&l, &ref))
		why = "both took it, but read it differently";
	else if (rc != 0 && !one_line_naming(err, name, n))
		why = "the error is not one line naming the file";
	else if (rc != 0 && strcmp(err, rerr))
		why = "the error lines differ";
	if (rc == 0)
		wtg_loaded_free(&l);
	if (rrc == 0)
		wtg_loaded_free(&ref);
	return why;
}

const char *wtg_runs_check(const char *buf, size_t len, const char *name, int *nruns)
{
	static struct wtg_loaded ls[WTG_RUNS_CHECK_MAX];
	char err[512];
	int n = -1;
	const char *why = NULL;
	int rc = wtg_load_buffer_runs(buf, len, name, ls, WTG_RUNS_CHECK_MAX, &n, err, sizeof err);
	if (rc == 0 && (n < 1 || n > WTG_RUNS_CHECK_MAX))
		why = "loaded, but not 1 to the most runs";
	else if (rc != 0 && n != 0)
		why = "refused, but runs left loaded";
	else if (rc != 0 && !one_line_naming(err, name, strlen(name)) && !names_a_run(err, name))
		why = "the error is not one line naming the file (and the run)";
	for (int i = 0; rc == 0 && i < n; i++)
		wtg_loaded_free(&ls[i]);
	if (nruns)
		*nruns = rc == 0 ? n : 0;
	return why;
}
