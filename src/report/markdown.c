/* markdown.c: a report that pastes into a pull request or a slide as it is: the run and the
 * machine at the top, then per experiment a heading, its table with units in the header, a line
 * summing up its checks (and those that did not pass), and its notes. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "wtg/conditions.h"
#include "wtg/experiment.h"
#include "wtg/figure.h"
#include "wtg/report.h"
#include "writers.h"
#include "wtg/paired.h"
#include "wtg/util.h"
#include "wtg/whyhere.h"

/* Text inside a table cell or a line: '|' and markup characters escaped, line breaks and tabs as
 * spaces, any other control character, C1 control or byte that is not UTF-8 in its escaped form
 * (wtg_escape_char), so that nothing reaches a terminal that shows the file. */
void wtg_markdown_text(FILE *f, const char *s)
{
	while (s && *s) {
		size_t used = 1;
		if (*s == '\n' || *s == '\t') {
			putc(' ', f);
		} else if (strchr("|\\`*_<>[]#", *s)) {
			putc('\\', f);
			putc(*s, f);
		} else {
			char tmp[4];
			fwrite(tmp, 1, wtg_escape_char(s, tmp, &used), f);
		}
		s += used;
	}
}

void wtg_markdown_begin(FILE *f, const struct wtg_report_meta *meta)
{
	const struct wtg_machine *m = meta->machine;
	char when[40];
	wtg_report_meta_when(meta, when, sizeof when);
	fprintf(f, "# wtg %s: where the time goes\n\n", PACKAGE_VERSION);
	fprintf(f, "- **run**: %s", when);
	if (isfinite(meta->duration_s))
		fprintf(f, ", %.1f s", meta->duration_s);
	if (meta->has_seed)
		fprintf(f, ", seed %" PRIu64 "%s", meta->seed, meta->quick ? ", quick sizes" : "");
	fputs("\n- **machine**: ", f);
	wtg_markdown_text(f, m->cpu_model);
	fprintf(f, ", %d CPUs", m->cpus);
	if (m->memory_bytes) {
		char mem[32];
		wtg_fmt_size(mem, sizeof mem, m->memory_bytes);
		fprintf(f, ", %s memory", mem);
	}
	if (m->virtualization[0]) {
		fputs(", virtualization ", f);
		wtg_markdown_text(f, m->virtualization);
	}
	fputs("\n- **system**: ", f);
	wtg_markdown_text(f, m->os[0] ? m->os : "unknown OS");
	fputs(", ", f);
	wtg_markdown_text(f, m->kernel);
	fputs(", clock source ", f);
	wtg_markdown_text(f, m->clocksource);
	fputs(", THP ", f);
	wtg_markdown_text(f, m->thp[0] ? m->thp : "unknown");
	fputs(", governor ", f);
	wtg_markdown_text(f, m->governor[0] ? m->governor : "n/a");
	putc('\n', f);
	const struct wtg_report_tally *t = &meta->tally;
	fprintf(f, "- **checks**: %d ok, %d warn, %d failed over %d experiment%s\n", t->ok, t->warn, t->fail,
		t->experiments, t->experiments == 1 ? "" : "s");
}

static void write_table(FILE *f, const struct wtg_table *t)
{
	fputs("|", f);
	for (int c = 0; c < t->ncols; c++) {
		putc(' ', f);
		wtg_markdown_text(f, t->cols[c].name);
		if (t->cols[c].unit && t->cols[c].unit[0]) {
			fputs(" [", f);
			wtg_markdown_text(f, t->cols[c].unit);
			putc(']', f);
		}
		fputs(" |", f);
	}
	fputs("\n|", f);
	for (int c = 0; c < t->ncols; c++)
		fputs(t->cols[c].type == WTG_T_TEXT ? " :--- |" : " ---: |", f);
	putc('\n', f);
	for (int r = 0; r < t->nrows; r++) {
		putc('|', f);
		for (int c = 0; c < t->ncols; c++) {
			char buf[512];
			const struct wtg_value *v = &t->rows[r].v[c];
			wtg_report_fmt_value(buf, sizeof buf, v, &t->cols[c], true);
			putc(' ', f);
			wtg_markdown_text(f, v->type == WTG_T_TEXT && v->s ? v->s : buf);	/* text whole */
			fputs(" |", f);
		}
		putc('\n', f);
	}
	putc('\n', f);
}

/* The verdict in bold, then each headline figure as the JSON's headlines read it, with its 95%
 * interval (bootstrapped with seed where the table gives none). */
static void write_headlines(FILE *f, const struct wtg_table *t, uint64_t seed)
{
	char verdict[512];
	if (t->exp && wtg_experiment_verdict(t->exp, t, verdict, sizeof verdict) > 0) {
		fputs("**Verdict:** ", f);
		wtg_markdown_text(f, verdict);
		fputs("\n\n", f);
	}
	int n = 0;
	const struct wtg_headline *h = wtg_headlines_of(t->exp, &n);
	for (int i = 0; i < n; i++) {
		struct wtg_figure fig;
		wtg_figure_read_ci(&h[i], t, seed, &fig);
		fputs(i ? "- " : "Headline figures:\n\n- ", f);
		wtg_markdown_text(f, h[i].figure);
		if (fig.found && isfinite(fig.value))
			fprintf(f, ": %.6g ", fig.value);
		else
			fputs(": n/a ", f);
		wtg_markdown_text(f, h[i].unit);
		if (isfinite(fig.lo) && isfinite(fig.hi))
			fprintf(f, " (95%% interval %.6g to %.6g)", fig.lo, fig.hi);
		fprintf(f, ", %s is better\n", h[i].higher_better ? "higher" : "lower");
	}
	if (n)
		putc('\n', f);
}

void wtg_markdown_table(FILE *f, const struct wtg_report_meta *m, const struct wtg_table *t, int n)
{
	(void)n;
	const struct wtg_experiment *e = t->exp;
	fputs("\n## ", f);
	wtg_markdown_text(f, e ? e->name : "?");
	fputs(": ", f);
	wtg_markdown_text(f, e ? e->question : "");
	fputs("\n\n", f);
	if (t->state != WTG_DONE) {
		fprintf(f, "**%s**", wtg_report_state_name(t->state));
		if (t->error[0]) {
			fputs(": ", f);
			wtg_markdown_text(f, t->error);
		}
		fputs("\n\n", f);
	}
	if (t->nrows > 0)
		write_table(f, t);
	write_headlines(f, t, m->seed);
	char state[384];
	wtg_report_machine_state(state, sizeof state, t);
	if (state[0]) {
		fputs("Machine while it ran: ", f);
		wtg_markdown_text(f, state);
		fputs("\n\n", f);
	}
	char why[512];
	if (e && wtg_why_here(e, t, wtg_report_machine_of(m, t), why, sizeof why) > 0) {
		fputs("Why here: ", f);
		wtg_markdown_text(f, why);
		fputs("\n\n", f);
	}
	struct wtg_paired_entry pe[WTG_MAX_HEADLINES];
	int np = wtg_paired_entries(t, pe, WTG_MAX_HEADLINES);
	for (int i = 0; i < np; i++) {
		char ratio[160];
		wtg_paired_fmt(&pe[i], ratio, sizeof ratio);
		fputs("Paired, arm B against arm A: ", f);
		wtg_markdown_text(f, pe[i].figure);
		fputs(": ", f);
		wtg_markdown_text(f, ratio);
		fputs(i + 1 < np ? "  \n" : "\n\n", f);
	}
	int ok, warn, fail;
	wtg_table_count_checks(t, &ok, &warn, &fail);
	fprintf(f, "Checks: %d ok, %d warn, %d failed.\n", ok, warn, fail);
	for (int i = 0; i < t->nchecks; i++) {
		if (t->checks[i].status == WTG_CHECK_OK)
			continue;
		fprintf(f, "- **%s** ", wtg_check_status_name(t->checks[i].status));
		wtg_markdown_text(f, t->checks[i].name);
		fputs(": ", f);
		wtg_markdown_text(f, t->checks[i].detail);
		putc('\n', f);
	}
	if (t->nnotes)
		putc('\n', f);
	for (int i = 0; i < t->nnotes; i++) {
		fputs("> ", f);
		wtg_markdown_text(f, t->notes[i]);
		fputs(i + 1 < t->nnotes ? "\n>\n" : "\n", f);
	}
}
