/* svg_parts.c: a division of extra time as stacked bars under tail's histogram (wtg/layout_parts.h):
 * a bar per quantile, each part's segment in its own colour, its name and share inside where they
 * fit (else its letter, the whole in the segment's tooltip). */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "svg.h"
#include "wtg/layout_parts.h"
#include "wtg/report.h"

#define PART_ROW 30.0	/* a bar and the gap under it */

static const char *const part_colour[WTG_LAY_NPARTS] = { "#1f77b4", "#9467bd", "#ff7f0e", "#d62728", "#8c8c8c" };

double svg_parts_height(const struct wtg_table *t)
{
	struct wtg_lay_parts p;
	return wtg_lay_parts_build(&p, t) * PART_ROW;
}

void svg_draw_parts(FILE *f, const struct svg_frame *fr, const struct wtg_table *t)
{
	struct wtg_lay_parts p;
	int n = wtg_lay_parts_build(&p, t);
	const double lw = 150, bx = fr->x + lw, bw = fr->w - lw;
	for (int i = 0; i < n; i++) {
		const struct wtg_lay_part_bar *b = &p.b[i];
		double y = fr->y + i * PART_ROW;
		char extra[32], head[96];
		wtg_lay_fmt_value(extra, sizeof extra, b->excess, "ns");
		snprintf(head, sizeof head, "%s +%s", b->which, extra);
		svg_text(f, fr->x, y + 17, 17, "start", "font-weight=\"bold\"", head);
		int w[WTG_LAY_NPARTS], cells = (int)bw;	/* one cell a pixel */
		wtg_lay_parts_cells(b, cells, w);
		double x = bx;
		for (int k = 0; k < WTG_LAY_NPARTS; k++) {
			if (w[k] <= 0)
				continue;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"22\" fill=\"%s\"><title>", x, y,
				w[k], part_colour[k]);
			char tip[160];
			snprintf(tip, sizeof tip, "%s: %.1f%% of %s's extra %s (%s)", wtg_lay_part_long[k], b->pct[k],
				 b->which, extra, p.row);
			wtg_xml_string(f, tip);
			fputs("</title></rect>\n", f);
			/* the label's cells: characters about 9 px wide at 15 px */
			char lab[48];
			wtg_lay_part_label(lab, sizeof lab, b, k, (int)((w[k] - 8) / 9.0));
			if (lab[0])
				svg_text(f, x + 4, y + 16, 15, "start", "fill=\"white\" font-weight=\"bold\"", lab);
			x += w[k];
		}
	}
}
