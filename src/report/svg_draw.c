/* svg_draw.c: the SVG writer's drawing primitives, shared by the chart frame (svg.c) and the views
 * (svg_views.c): text escaped for XML, sized and fitted; lines; markers; the inks that tell series
 * and runs apart. */
#include "config.h"

#include <stdio.h>

#include "wtg/layout.h"
#include "wtg/report.h"
#include "svg.h"
#include "wtg/util.h"

/* Series and runs are told apart by colour, dash pattern and marker shape. */
static const char *const colour[WTG_LAY_MAX_RUNS] = { "#1f5fa8", "#c8452b", "#2e7d32", "#7b3fa0",
						      "#00838f", "#8d5524", "#d81b60", "#555555" };
static const char *const dashes[3] = { "", "14 7", "4 6" };

struct svg_ink svg_ink_of(const struct svg_runs *rs, int r, int k)
{
	if (rs->n <= 1)
		return (struct svg_ink){ colour[k % 3], dashes[k % 3], k % 3 };
	return (struct svg_ink){ colour[r % WTG_LAY_MAX_RUNS], dashes[k % 3], r % 3 };
}

const char *svg_group_colour(int g)
{
	return colour[g % 3];
}

void wtg_xml_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	while (*p) {
		unsigned c = *p;
		int n = wtg_utf8_len(p);
		if (n == 0) {
			fputs("\xef\xbf\xbd", f);	/* U+FFFD for a byte that is not UTF-8 */
			p++;
			continue;
		}
		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c == '\'')
			fputs("&#39;", f);
		else if (c < 0x20 || c == 0x7f)
			putc(' ', f);	/* XML has no place for control characters */
		else
			fwrite(p, 1, (size_t)n, f);
		p += n;
	}
}

/* A text element: anchor "start", "middle" or "end"; extra attributes as given. */
void svg_text(FILE *f, double x, double y, double size, const char *anchor, const char *extra, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" text-anchor=\"%s\"%s%s>", x, y, size, anchor,
		extra && *extra ? " " : "", extra ? extra : "");
	wtg_xml_string(f, s);
	fputs("</text>\n", f);
}

/* About how wide a string is in a sans-serif face (for laying out labels before the viewer does). */
double svg_text_w(const char *s, double size)
{
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		n += (*p & 0xc0) != 0x80;
	return (double)n * size * 0.56;
}

/* A line of text from x to at most `right`: its size lowered from `size` until it fits. */
void svg_text_fit(FILE *f, double x, double y, double size, double right, const char *extra, const char *s)
{
	double w = svg_text_w(s, size);
	if (w > right - x && w > 0)
		size = size * (right - x) / w;
	svg_text(f, x, y, size < 11 ? 11 : size, "start", extra, s);
}

void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, double width,
	      const char *dash)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"%s%s%s/>\n",
		x1, y1, x2, y2, stroke, width, dash && *dash ? " stroke-dasharray=\"" : "", dash ? dash : "",
		dash && *dash ? "\"" : "");
}

/* A circle, a square or a triangle in the ink's colour. */
void svg_marker(FILE *f, const struct svg_ink *k, double x, double y, double r)
{
	const char *c = k->colour;
	if (k->shape == 0)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"white\" stroke-width=\"1.5\"/>\n",
			x, y, r, c);
	else if (k->shape == 1)
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"white\" stroke-width=\"1.5\"/>\n",
			x - r, y - r, 2 * r, 2 * r, c);
	else
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\" stroke=\"white\" stroke-width=\"1.5\"/>\n",
			x, y - 1.2 * r, x + 1.1 * r, y + 0.8 * r, x - 1.1 * r, y + 0.8 * r, c);
}

/* A message in the middle of an empty chart. */
void svg_empty(FILE *f, const struct svg_frame *fr, const char *msg)
{
	svg_text(f, fr->x + fr->w / 2, fr->y + fr->h / 2, 26, "middle", "fill=\"#666666\"", msg);
}

