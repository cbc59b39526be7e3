/* layout_parts.c: a division of extra time as a stacked bar (wtg/layout_parts.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wtg/layout.h"
#include "wtg/layout_parts.h"

const char wtg_lay_part_letter[WTG_LAY_NPARTS + 1] = "WCISU";
const char *const wtg_lay_part_name[WTG_LAY_NPARTS] = { "wait", "on-CPU", "irq", "steal", "unexplained" };
const char *const wtg_lay_part_long[WTG_LAY_NPARTS] = { "waiting for a CPU", "on a CPU (grown)", "interrupts",
							"steal", "unexplained" };
/* the columns' names of the parts: P_<col>_pct */
static const char *const part_col[WTG_LAY_NPARTS] = { "wait", "oncpu", "irq", "steal", "unexplained" };
static const char *const quantiles[WTG_LAY_PART_BARS] = { "p99", "p90" };

static double cell_num(const struct wtg_table *t, int row, const char *col)
{
	int c = wtg_table_col(t, col);
	return c >= 0 ? wtg_table_num(t, row, c) : NAN;
}

int wtg_lay_parts_build(struct wtg_lay_parts *p, const struct wtg_table *t)
{
	memset(p, 0, sizeof *p);
	int row = -1;
	for (int r = t->nrows - 1; r >= 0 && row < 0; r--)
		if (cell_num(t, r, "p99_excess_ns") > 0)
			row = r;
	if (row < 0)
		return 0;
	const char *label = t->exp ? t->exp->hist.label : NULL;
	wtg_lay_row_label(p->row, sizeof p->row, t, row, &label, 1);
	for (int q = 0; q < WTG_LAY_PART_BARS; q++) {
		char col[48];
		snprintf(col, sizeof col, "%s_excess_ns", quantiles[q]);
		struct wtg_lay_part_bar *b = &p->b[p->n];
		b->excess = cell_num(t, row, col);
		if (!(b->excess > 0))
			continue;
		snprintf(b->which, sizeof b->which, "%s", quantiles[q]);
		for (int k = 0; k < WTG_LAY_NPARTS; k++) {
			snprintf(col, sizeof col, "%s_%s_pct", quantiles[q], part_col[k]);
			b->pct[k] = cell_num(t, row, col);
		}
		p->n++;
	}
	return p->n;
}

int wtg_lay_parts_cells(const struct wtg_lay_part_bar *b, int cells, int *w)
{
	double pos = 0, rem[WTG_LAY_NPARTS];
	for (int k = 0; k < WTG_LAY_NPARTS; k++)
		pos += b->pct[k] > 0 ? b->pct[k] : 0;
	int used = 0;
	for (int k = 0; k < WTG_LAY_NPARTS; k++) {
		double exact = pos > 0 && b->pct[k] > 0 ? cells * b->pct[k] / pos : 0;
		w[k] = (int)floor(exact);
		rem[k] = exact - w[k];
		used += w[k];
	}
	while (pos > 0 && used < cells) {	/* the largest remainders get the cells left */
		int best = -1;
		for (int k = 0; k < WTG_LAY_NPARTS; k++)
			if (b->pct[k] > 0 && (best < 0 || rem[k] > rem[best]))
				best = k;
		w[best]++;
		rem[best] = -1;
		used++;
	}
	/* a visible part keeps a cell, taken from the widest */
	for (int k = 0; k < WTG_LAY_NPARTS; k++) {
		if (w[k] > 0 || !(b->pct[k] >= 0.5))
			continue;
		int wide = 0;
		for (int j = 1; j < WTG_LAY_NPARTS; j++)
			wide = w[j] > w[wide] ? j : wide;
		if (w[wide] > 1) {
			w[wide]--;
			w[k] = 1;
		}
	}
	return pos > 0 ? cells : 0;
}

int wtg_lay_part_label(char *buf, size_t len, const struct wtg_lay_part_bar *b, int k, int cells)
{
	char c[3][48];
	snprintf(c[0], sizeof c[0], "%s %.0f%%", wtg_lay_part_name[k], b->pct[k]);
	snprintf(c[1], sizeof c[1], "%c%.0f%%", wtg_lay_part_letter[k], b->pct[k]);
	snprintf(c[2], sizeof c[2], "%c", wtg_lay_part_letter[k]);
	buf[0] = '\0';
	for (int i = 0; i < 3; i++)
		if ((int)strlen(c[i]) <= cells) {
			snprintf(buf, len, "%s", c[i]);
			return i < 2;
		}
	return 0;
}

void wtg_lay_parts_rest(char *buf, size_t len, const struct wtg_lay_part_bar *b, const int *w)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int k = 0; k < WTG_LAY_NPARTS && o < len; k++) {
		if (!isfinite(b->pct[k]) || fabs(b->pct[k]) < 0.5)
			continue;
		char lab[48];
		int n = 0;
		if (b->pct[k] < 0)
			n = snprintf(buf + o, len - o, "%s%s %.0f%%", o ? ", " : "", wtg_lay_part_name[k], b->pct[k]);
		else if (!wtg_lay_part_label(lab, sizeof lab, b, k, w[k]))
			n = snprintf(buf + o, len - o, "%s%c %.0f%%", o ? ", " : "", wtg_lay_part_letter[k], b->pct[k]);
		if (n > 0)
			o += (size_t)n;
	}
}
