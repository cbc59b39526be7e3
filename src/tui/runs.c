/* runs.c: the runs a view draws side by side (saved, earlier, the live one), and the colour and
 * marker each run has in every view. */
#include "config.h"

#include "tui_internal.h"

int tui_view_runs(const struct tui_view *v, const struct wtg_table **t, const char **label, bool *faded)
{
	int n = 0, first = v->ntables > WTG_LAY_MAX_RUNS - 1 ? v->ntables - (WTG_LAY_MAX_RUNS - 1) : 0;
	for (int i = first; i < v->ntables; i++, n++) {
		t[n] = v->tables[i];
		label[n] = v->labels ? v->labels[i] : "";
		faded[n] = (v->faded >> i) & 1;
	}
	t[n] = v->t;
	label[n] = v->labels ? v->labels[v->ntables] : "";
	faded[n] = false;
	return n + 1;
}

enum tui_role tui_run_role(int k, bool faded)
{
	static const enum tui_role roles[WTG_LAY_MAX_RUNS] = { TR_S1, TR_S2, TR_S3, TR_USER, TR_SYS, TR_WARN,
							       TR_OK, TR_KEY };
	return faded ? TR_DIM : roles[k % WTG_LAY_MAX_RUNS];
}

const char *tui_run_marker(const struct tui_look *l, int k)
{
	static const char *const utf8[WTG_LAY_MAX_RUNS] = { "●", "◆", "■", "▲", "○", "◇", "□", "△" };
	static const char *const ascii[WTG_LAY_MAX_RUNS] = { "o", "x", "+", "*", "#", "@", "%", "&" };
	return (l->utf8 ? utf8 : ascii)[k % WTG_LAY_MAX_RUNS];
}
