/* layout_parts.h: a division of extra time as a stacked bar, before it is drawn: tail's p99 and
 * p90, whose extra time over the median's batches is divided among waiting for a CPU, on-CPU time
 * grown, interrupts, steal and unexplained (the columns P_excess_ns and P_<part>_pct of a row). The
 * dashboard's histogram view and the SVG report draw it from here. */
#ifndef WTG_LAYOUT_PARTS_H
#define WTG_LAYOUT_PARTS_H

#include <stddef.h>

#include "wtg/table.h"

#define WTG_LAY_NPARTS 5	/* wait, oncpu, irq, steal, unexplained: the columns' order */
#define WTG_LAY_PART_BARS 2	/* p99, p90 */

extern const char wtg_lay_part_letter[WTG_LAY_NPARTS + 1];		/* "WCISU" */
extern const char *const wtg_lay_part_name[WTG_LAY_NPARTS];	/* "wait", "on-CPU", ... */
extern const char *const wtg_lay_part_long[WTG_LAY_NPARTS];	/* "waiting for a CPU", ... */

struct wtg_lay_part_bar {
	char which[8];			/* "p99" */
	double excess;			/* ns per call */
	double pct[WTG_LAY_NPARTS];	/* share of the excess, NAN n/a */
};

struct wtg_lay_parts {
	char row[64];			/* the row divided: "burners on (2)" */
	int n;
	struct wtg_lay_part_bar b[WTG_LAY_PART_BARS];
};

/* The division of the table's last row that has one (p99 first, then p90). Returns the bars' count,
 * 0 when no row is divided. */
int wtg_lay_parts_build(struct wtg_lay_parts *p, const struct wtg_table *t);
/* The cells of each part in a bar `cells` wide: the positive shares in proportion (largest
 * remainder), a part of at least 0.5% given one cell while the bar has room. Returns their sum. */
int wtg_lay_parts_cells(const struct wtg_lay_part_bar *b, int cells, int *w);
/* The text inside part k's segment of `cells` cells: "wait 76%" when it fits, else "W76%", else
 * "W", else "". Returns 1 when the share is in it, 0 when not. */
int wtg_lay_part_label(char *buf, size_t len, const struct wtg_lay_part_bar *b, int k, int cells);
/* The shares a bar of those cells leaves out of its segments (a negative part, or a segment too
 * narrow for its share): "C 2%, on-CPU -5%"; "" when none. */
void wtg_lay_parts_rest(char *buf, size_t len, const struct wtg_lay_part_bar *b, const int *w);

#endif
