/* csv.c: per experiment a "# experiment NAME" line, the header row and the rows (RFC 4180). */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "wtg/experiment.h"
#include "wtg/report.h"

/* Quote a field only when it holds a comma, a quote, a line break or edge spaces. */
static void csv_field(FILE *f, const char *s)
{
	size_t n = strlen(s);
	if (strpbrk(s, ",\"\r\n") == NULL && !(n && (s[0] == ' ' || s[n - 1] == ' '))) {
		fputs(s, f);
		return;
	}
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	putc('"', f);
}

static void csv_value(FILE *f, const struct wtg_value *v)
{
	char buf[64];
	switch (v->type) {
	case WTG_T_INT:
		fprintf(f, "%" PRId64, v->i);
		break;
	case WTG_T_REAL:
		wtg_report_real(buf, sizeof buf, v->r);	/* NaN and infinities: an empty field */
		fputs(buf, f);
		break;
	case WTG_T_TEXT:
		csv_field(f, v->s ? v->s : "");
		break;
	default:
		break;
	}
}

/* Comment lines stay one line each: line breaks and other control characters become spaces. */
static void comment_text(FILE *f, const char *s)
{
	for (; s && *s; s++)
		putc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
}

/* One field of a row, with the comma before all but the first. */
static void csv_cell(FILE *f, const struct wtg_value *v, int i)
{
	if (i)
		putc(',', f);
	csv_value(f, v);
}

static void write_experiment(FILE *f, const struct wtg_table *t, int n)
{
	(void)n;
	fputs("# experiment ", f);
	comment_text(f, t->exp ? t->exp->name : "");
	putc('\n', f);
	for (int c = 0; c < t->ncols + WTG_REPORT_NEXTRA; c++) {
		if (c)
			putc(',', f);
		csv_field(f, wtg_report_column(t, c)->name);
	}
	putc('\n', f);
	for (int r = 0; r < t->nrows; r++) {
		wtg_report_row_values(f, t, &t->rows[r], csv_cell);
		putc('\n', f);
	}
	for (int i = 0; i < t->nchecks; i++) {
		fputs("# check ", f);
		comment_text(f, t->checks[i].name);
		fputs(t->checks[i].status == WTG_CHECK_OK ? " ok "
		      : t->checks[i].status == WTG_CHECK_WARN ? " warn " : " FAILED ", f);
		comment_text(f, t->checks[i].detail);
		putc('\n', f);
	}
	for (int i = 0; i < t->nnotes; i++) {
		fputs("# note ", f);
		comment_text(f, t->notes[i]);
		putc('\n', f);
	}
	if (t->state != WTG_DONE) {
		fprintf(f, "# state %s", wtg_report_state_name(t->state));
		if (t->error[0]) {
			fputs(": ", f);
			comment_text(f, t->error);
		}
		putc('\n', f);
	}
}

int wtg_report_csv(FILE *f, struct wtg_session *s, const bool *which)
{
	locale_t old = wtg_report_locale_begin();
	wtg_report_each(f, s, which, write_experiment);
	wtg_report_locale_end(old);
	return ferror(f) ? -1 : 0;
}
