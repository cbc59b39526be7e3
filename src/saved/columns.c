/* columns.c: a saved experiment's columns (its own, then the report's extra ones) into a table,
 * and a row's extra cells back into its probe and conditions; the walk (tables.c) and the
 * streaming parse (stream.c) both read rows with them. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "saved.h"

#include "wtg/experiment.h"
#include "wtg/report.h"

static const char *const type_names[] = { "na", "int", "real", "text" };

/* Decimals for a column saved without them: the registry's for a declared column of that name and
 * type, else 3 for a real. */
static int declared_decimals(const struct wtg_experiment *e, const char *name, int type)
{
	for (int i = 0; e && i < e->ncols; i++)
		if (!strcmp(e->cols[i].name, name) && (int)e->cols[i].type == type)
			return e->cols[i].decimals;
	return type == WTG_T_REAL ? 3 : 0;
}

/* The columns: the experiment's own, then (when the file has them) the report's extra ones, which
 * go back into each row's probe and conditions. Returns how many are the table's own. */
int sv_read_columns(struct rd *r, json_t *exp, struct wtg_table *t, int *ntotal)
{
	json_t *a = sv_want_array(r, exp, "columns", WTG_MAX_COLS + WTG_REPORT_NEXTRA);
	if (!a)
		return -1;
	int n = (int)json_array_size(a), own = n;
	struct wtg_column cols[WTG_MAX_COLS + WTG_REPORT_NEXTRA];
	for (int i = 0; i < n; i++) {
		json_t *c = json_array_get(a, (size_t)i);
		size_t back = sv_enter(r, "columns", i);
		json_t *name = json_is_object(c) ? sv_want(r, c, "name", T_STR) : NULL;
		json_t *unit = name ? sv_want(r, c, "unit", T_STR) : NULL;
		json_t *type = unit ? sv_want(r, c, "type", T_STR) : NULL;
		if (!json_is_object(c))
			sv_fail(r, NULL, "should be an object");
		int ty = -1;
		for (int k = 0; type && k < 4; k++)
			if (strcmp(json_string_value(type), type_names[k]) == 0)
				ty = k;
		if (type && ty < 0)
			sv_fail(r, "type", "'%s' is not na, int, real or text", json_string_value(type));
		int dec = -1;	/* optional: reports before it print reals as the registry says */
		if (type && json_object_get(c, "decimals"))
			dec = (int)sv_want_int(r, c, "decimals", 0, 17, false, -1);
		sv_leave(r, back);
		if (r->failed)
			return -1;
		cols[i] = (struct wtg_column){ json_string_value(name), json_string_value(unit), (enum wtg_vtype)ty,
					       dec >= 0 ? dec : declared_decimals(t->exp, json_string_value(name), ty) };
		for (int k = 0; k < i; k++)
			if (strcmp(cols[k].name, cols[i].name) == 0)
				return sv_fail(r, NULL, "column '%s' is given twice", cols[i].name);
	}
	/* the extra columns end the list when the file has them, in this order */
	if (n >= WTG_REPORT_NEXTRA) {
		bool extra = true;
		for (int k = 0; k < WTG_REPORT_NEXTRA; k++)
			extra = extra && !strcmp(cols[n - WTG_REPORT_NEXTRA + k].name, wtg_report_extra_cols[k].name);
		if (extra)
			own = n - WTG_REPORT_NEXTRA;
	}
	if (own > WTG_MAX_COLS)
		return sv_fail(r, "columns", "%d columns, more than %d", own, WTG_MAX_COLS);
	wtg_table_set_columns(t, cols, own);
	*ntotal = n;
	return own;
}

/* "0-3,5" -> a mask of the first 64 CPUs. */
static uint64_t cpu_mask(const char *s)
{
	uint64_t m = 0;
	while (s && *s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (end == s)
			break;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s)
				break;
		}
		for (long c = a < 0 ? 0 : a; c <= b && c < 64; c++)
			m |= 1ull << c;
		s = *end == ',' ? end + 1 : end;
	}
	return m;
}

/* The extra cells of a row back into its probe and conditions. */
void sv_row_extras(const struct wtg_value *x, struct wtg_row *row)
{
	row->has_probe = x[0].type != WTG_T_NA;
	if (row->has_probe) {
		struct wtg_probe_result *p = &row->probe;
		memset(p, 0, sizeof *p);
		p->wall_ms = x[0].r;
		p->user_ms = x[1].type ? x[1].r : NAN;
		p->sys_ms = x[2].type ? x[2].r : NAN;
		p->minflt = x[3].i;
		p->majflt = x[4].i;
		p->vcsw = x[5].i;
		p->ivcsw = x[6].i;
		p->cpus_seen = x[7].type == WTG_T_TEXT ? cpu_mask(x[7].s) : 0;
		p->migrations = x[8].type == WTG_T_INT ? x[8].i : -1;
		p->instructions = p->cycles = -1;
	}
	memset(&row->cond, 0, sizeof row->cond);
	row->cond.burners = x[9].type == WTG_T_INT ? (int)x[9].i : 0;
	row->cond.policy = x[10].type != WTG_T_TEXT ? -1 : !strcmp(x[10].s, "background") ? 1 : 0;
	const char *io = x[11].type == WTG_T_TEXT ? x[11].s : "";
	row->cond.io = !strcmp(io, "direct") ? WTG_IO_DIRECT : !strcmp(io, "evicting") ? WTG_IO_EVICTING :
										 WTG_IO_CACHED;
	/* a run measured in the background or uncached was asked to be: its label says so */
	row->cond.background = row->cond.policy == 1;
	row->cond.uncached = row->cond.io != WTG_IO_CACHED;
}
