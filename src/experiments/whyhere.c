/* whyhere.c: "why here". When this machine's figure is more than 3x the essay's either way, or its
 * figures point the other way, the tab says the likely reason in one line. Each experiment declares
 * its candidate reasons (reasons.c): a predicate over the run's table and the machine record, and a
 * sentence the predicate fills with what was measured. The first that holds is the line; none that
 * holds, no line: wtg never guesses past what it measured or read about the machine. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wtg/figure.h"
#include "wtg/util.h"
#include "wtg/whyhere.h"
#include "why.h"

int wtg_why_row(const struct wtg_table *t, const char *col_a, const char *a, const char *col_b, const char *b)
{
	int ca = wtg_table_col(t, col_a), cb = col_b ? wtg_table_col(t, col_b) : -1;
	if (ca < 0 || (col_b && cb < 0))
		return -1;
	for (int r = 0; r < t->nrows; r++) {
		const struct wtg_value *va = &t->rows[r].v[ca], *vb = cb >= 0 ? &t->rows[r].v[cb] : NULL;
		if (va->type != WTG_T_TEXT || !va->s || strcmp(va->s, a) != 0)
			continue;
		if (!vb || (vb->type == WTG_T_TEXT && vb->s && strcmp(vb->s, b) == 0))
			return r;
	}
	return -1;
}

double wtg_why_num(const struct wtg_table *t, int r, const char *col)
{
	int c = wtg_table_col(t, col);
	return r >= 0 && r < t->nrows && c >= 0 ? wtg_table_num(t, r, c) : NAN;
}

bool wtg_why_pti(const struct wtg_machine *m)
{
	for (int i = 0; i < m->nmitigations; i++)
		if (strstr(m->mitigations[i].status, "PTI"))
			return true;
	return false;
}

bool wtg_why_vm(const struct wtg_machine *m, char *buf, size_t len)
{
	const char *v = m->virtualization;
	if (v[0] && strcmp(v, "none") != 0)
		wtg_strlcpy(buf, v, len);
	else if (m->hypervisor)
		wtg_strlcpy(buf, "a hypervisor", len);
	else
		return false;
	return true;
}

/* A measured number as a sentence says it: two significant digits under 10 (0.75, 3.6), whole above
 * (24, 1,254). */
static void say_number(char *buf, size_t len, double x)
{
	if (!isfinite(x))
		snprintf(buf, len, "?");
	else if (fabs(x) >= 1000 && fabs(x) < 9e18)
		wtg_fmt_thousands(buf, len, (int64_t)llround(x));
	else if (fabs(x) >= 10)
		snprintf(buf, len, "%.0f", x);
	else
		snprintf(buf, len, "%.2g", x);
}

/* say with {0}..{3} and {a} {b} replaced from v (words escaped: a saved run's machine names them). */
static void fill(const char *say, const struct wtg_why_vals *v, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (const char *p = say; *p && k + 1 < len; p++) {
		char piece[160];
		if (p[0] == '{' && p[1] >= '0' && p[1] <= '3' && p[2] == '}') {
			say_number(piece, sizeof piece, v->n[p[1] - '0']);
			p += 2;
		} else if (p[0] == '{' && (p[1] == 'a' || p[1] == 'b') && p[2] == '}') {
			wtg_escape(piece, sizeof piece, v->s[p[1] - 'a']);
			p += 2;
		} else {
			piece[0] = *p;
			piece[1] = '\0';
		}
		k += (size_t)snprintf(buf + k, len - k, "%s", piece);
		if (k >= len)
			k = len - 1;
	}
}

int wtg_why_here(const struct wtg_experiment *e, const struct wtg_table *t, const struct wtg_machine *m, char *buf,
		 size_t len)
{
	static const struct wtg_machine unknown;
	if (len)
		buf[0] = '\0';
	if (!e || !t || !e->essay.why || t->nrows == 0 || len == 0)
		return 0;
	struct wtg_why_in in = { .t = t, .m = m ? m : &unknown, .here = NAN, .essay = NAN, .factor = NAN };
	if (e->essay.value > 0) {
		in.essay = e->essay.value;
		if (e->essay.here) {
			in.here = e->essay.here(t);
		} else if (e->headline[0].figure) {
			struct wtg_figure f;
			wtg_figure_read(&e->headline[0], t, &f);
			in.here = f.found ? f.value : NAN;
		}
		in.factor = in.here / in.essay;
		in.apart = isfinite(in.factor) && in.factor > 0 &&
			   (in.factor > WTG_WHY_APART || in.factor < 1 / WTG_WHY_APART);
	}
	for (const struct wtg_why *w = e->essay.why; w->holds; w++) {
		struct wtg_why_vals v = { .n = { NAN, NAN, NAN, NAN } };
		if (w->holds(&in, &v)) {
			fill(w->say, &v, buf, len);
			return (int)strlen(buf);
		}
	}
	return 0;
}
