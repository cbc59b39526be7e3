/* fuzz_load.c: libFuzzer target for the reader of saved runs: any bytes either load or give one
 * error line; nothing crashes, leaks or hangs; and the streaming reader (wtg_load_buffer) agrees
 * with the reference one (jansson's whole tree, wtg_load_buffer_whole): the same message, or the
 * same experiments, rows and cells. Built by 'make fuzz' (clang); run as
 *   tests/fuzz/fuzz_load -max_total_time=30 tests/fuzz/corpus */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wtg/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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

/* The same tables, rows, cells, probes and conditions, and the same run metadata. */
static bool same_loaded(const struct wtg_loaded *a, const struct wtg_loaded *b)
{
	if (a->npresent != b->npresent || strcmp(a->skipped, b->skipped) || strcmp(a->meta.label, b->meta.label) ||
	    strcmp(a->meta.timestamp, b->meta.timestamp) || strcmp(a->meta.machine.hostname, b->meta.machine.hostname))
		return false;
	for (int i = 0; i < WTG_MAX_EXP; i++) {
		const struct wtg_table *x = &a->tables[i], *y = &b->tables[i];
		if (a->present[i] != b->present[i] || x->ncols != y->ncols || x->nrows != y->nrows ||
		    x->nchecks != y->nchecks || x->nseries != y->nseries)
			return false;
		for (int c = 0; c < x->ncols; c++)
			if (strcmp(x->cols[c].name, y->cols[c].name) || x->cols[c].type != y->cols[c].type)
				return false;
		for (int r = 0; r < x->nrows; r++) {
			const struct wtg_row *p = &x->rows[r], *q = &y->rows[r];
			for (int c = 0; c < x->ncols; c++)
				if (!same_value(&p->v[c], &q->v[c]))
					return false;
			if (p->has_probe != q->has_probe || memcmp(&p->cond, &q->cond, sizeof p->cond) ||
			    (p->has_probe && (p->probe.minflt != q->probe.minflt ||
					      p->probe.cpus_seen != q->probe.cpus_seen)))
				return false;
		}
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct wtg_loaded l, ref;
	char err[512], rerr[512];
	int rc = wtg_load_buffer((const char *)data, size, "fuzz.json", &l, err, sizeof err);
	int rrc = wtg_load_buffer_whole((const char *)data, size, "fuzz.json", &ref, rerr, sizeof rerr);
	if (rc != rrc)
		__builtin_trap();	/* one reader refused what the other took */
	if (rc == 0) {
		if (!same_loaded(&l, &ref))
			__builtin_trap();	/* both took it, but read it differently */
		wtg_loaded_free(&l);
		wtg_loaded_free(&ref);
	} else if (!err[0] || strchr(err, '\n') || strncmp(err, "fuzz.json: ", 11) != 0 || strcmp(err, rerr)) {
		__builtin_trap();	/* every failure is one line naming the file, the reference's line */
	}
	return 0;
}
