/* fleet_stats.c: the machines of a summary side by side (wtg/fleet.h): per headline figure the
 * count, quartiles (Hyndman-Fan type 7, as every quantile of wtg), extremes with their machines,
 * overall or for a group, and the line in words that says where the slowest stand apart and why. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/experiment.h"
#include "wtg/fleet.h"
#include "wtg/stats.h"
#include "wtg/util.h"

/* Machine i's value of figure f (NAN: none). */
static double value_of(const struct wtg_fleet *fl, int i, int f)
{
	return fl->m[i].v ? fl->m[i].v[f] : NAN;
}

static bool in_group(const struct wtg_fleet *fl, int i, int d, const char *value)
{
	return d < 0 || strcmp(fl->m[i].dim[d], value) == 0;
}

void wtg_fleet_stat(const struct wtg_fleet *fl, int f, int d, const char *value, struct wtg_fleet_stat *st)
{
	st->n = 0;
	st->min = st->q1 = st->median = st->q3 = st->max = NAN;
	st->min_m = st->max_m = -1;
	double *v = malloc((size_t)(fl->nm ? fl->nm : 1) * sizeof *v);
	if (!v)
		return;
	for (int i = 0; i < fl->nm; i++) {
		double x = value_of(fl, i, f);
		if (!isfinite(x) || !in_group(fl, i, d, value))
			continue;
		v[st->n++] = x;
		if (st->min_m < 0 || x < st->min)
			st->min = x, st->min_m = i;
		if (st->max_m < 0 || x > st->max)
			st->max = x, st->max_m = i;
	}
	if (st->n) {
		wtg_sort(v, (size_t)st->n);
		st->q1 = wtg_quantile_sorted(v, (size_t)st->n, 0.25);
		st->median = wtg_quantile_sorted(v, (size_t)st->n, 0.5);
		st->q3 = wtg_quantile_sorted(v, (size_t)st->n, 0.75);
	}
	free(v);
}

int wtg_fleet_dim_values(const struct wtg_fleet *fl, int f, int d, const char **vals, int max)
{
	int n = 0;
	for (int i = 0; i < fl->nm; i++) {
		if (!isfinite(value_of(fl, i, f)))
			continue;
		const char *x = fl->m[i].dim[d];
		bool seen = false;
		for (int k = 0; k < n && !seen; k++)
			seen = strcmp(vals[k], x) == 0;
		if (!seen && n < max)
			vals[n++] = x;
	}
	return n;
}

void wtg_fleet_fmt(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else if (fabs(v) >= 1000 && fabs(v) < 9e18)
		wtg_fmt_thousands(buf, len, (int64_t)llround(v));
	else if (fabs(v) >= 100)
		snprintf(buf, len, "%.0f", v);
	else if (fabs(v) >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

/* The machines with figure f, worst first (the slowest: the largest time, the smallest rate). */
struct ranked {
	const struct wtg_fleet *fl;
	int f;
	bool higher_better;
};
static _Thread_local struct ranked rank_by;

static int worst_first(const void *a, const void *b)
{
	double x = value_of(rank_by.fl, *(const int *)a, rank_by.f), y = value_of(rank_by.fl, *(const int *)b, rank_by.f);
	int c = x < y ? 1 : x > y ? -1 : 0;
	if (rank_by.higher_better)
		c = -c;
	return c ? c : *(const int *)a - *(const int *)b;
}

static bool is_virtual(const char *vm)
{
	return strcmp(vm, "bare metal") != 0 && strcmp(vm, "unknown") != 0;
}

/* Whether machines a and b agree in dimension d (any two virtual machines agree: what sets them
 * apart is being one). */
static bool same_dim(const struct wtg_fleet_machine *a, const struct wtg_fleet_machine *b, int d)
{
	if (d == WTG_DIM_VM)
		return is_virtual(a->dim[d]) == is_virtual(b->dim[d]) &&
		       (is_virtual(a->dim[d]) || strcmp(a->dim[d], b->dim[d]) == 0);
	return strcmp(a->dim[d], b->dim[d]) == 0;
}

/* The dimensions of mask in which machines a and b agree. */
static unsigned shared_pair(const struct wtg_fleet *fl, int a, int b, unsigned mask)
{
	for (int d = 0; d < WTG_NDIMS; d++)
		if ((mask & (1u << d)) && !same_dim(&fl->m[a], &fl->m[b], d))
			mask &= ~(1u << d);
	return mask;
}

/* How many of the n machines of order agree with order[0] in every dimension of mask. */
static int with_features(const struct wtg_fleet *fl, const int *order, int n, unsigned mask)
{
	int c = 0;
	for (int i = 0; i < n; i++) {
		bool all = true;
		for (int d = 0; d < WTG_NDIMS && all; d++)
			all = !(mask & (1u << d)) || same_dim(&fl->m[order[i]], &fl->m[order[0]], d);
		c += all;
	}
	return c;
}

/* mask without the dimensions the k machines need not name to be told apart (the CPU count, page
 * size, vendor, clock source, in that order; a virtual machine and page-table isolation stay). */
static unsigned fewest_dims(const struct wtg_fleet *fl, const int *order, int n, int k, unsigned mask)
{
	static const int drop[] = { WTG_DIM_CPUS, WTG_DIM_PAGE, WTG_DIM_VENDOR, WTG_DIM_CLOCK };
	for (size_t i = 0; i < WTG_ARRAY_LEN(drop); i++) {
		unsigned less = mask & ~(1u << drop[i]);
		if (less != mask && less && with_features(fl, order, n, less) * 10 <= k * 11)
			mask = less;
	}
	return mask;
}

/* The k machines' shared features in words: "AMD virtual machines with page-table isolation". */
static void say_features(const struct wtg_fleet_machine *m, const char *vm_name, unsigned mask, int k, char *buf,
			 size_t len)
{
	char with[256] = "";
	size_t w = 0;
	for (int d = WTG_DIM_PTI; d < WTG_NDIMS; d++) {
		if (!(mask & (1u << d)) || d == WTG_DIM_VENDOR)
			continue;
		char piece[96];
		if (d == WTG_DIM_PTI)
			snprintf(piece, sizeof piece, "%s", strcmp(m->dim[d], "PTI") == 0 ? "page-table isolation" :
							    "no page-table isolation");
		else if (d == WTG_DIM_CLOCK)
			snprintf(piece, sizeof piece, "the %s clock source", m->dim[d]);
		else
			snprintf(piece, sizeof piece, "%s", m->dim[d]);
		w += (size_t)snprintf(with + w, sizeof with - w, "%s%s", w ? " and " : "", piece);
		if (w >= sizeof with)
			w = sizeof with - 1;
	}
	const char *vm = m->dim[WTG_DIM_VM];
	bool is_vm = is_virtual(vm);
	char noun[96];
	if (mask & (1u << WTG_DIM_VM))
		snprintf(noun, sizeof noun, "%s%s%s", is_vm ? vm_name : "bare-metal ", is_vm ? "virtual machine" : "machine",
			 k > 1 ? "s" : "");
	else
		snprintf(noun, sizeof noun, "machine%s", k > 1 ? "s" : "");
	snprintf(buf, len, "%s%s%s%s%s%s", k > 1 ? "" : "a ", mask & (1u << WTG_DIM_VENDOR) ? m->dim[WTG_DIM_VENDOR] : "",
		 mask & (1u << WTG_DIM_VENDOR) ? " " : "", noun, with[0] ? " with " : "", with);
}

/* "; the 6 slowest are ... (1,150-1,300 ns)": the largest group at the slow end (at most half the
 * machines) whose machines share some features that single them out (of all machines with those
 * features, at least 10 in 11 are among it); nothing when none. */
static size_t say_tail(const struct wtg_fleet *fl, const int *order, int n, const char *unit, char *buf, size_t len)
{
	unsigned varying = 0;
	for (int d = 0; d < WTG_NDIMS; d++)
		for (int i = 1; i < n; i++)
			if (!same_dim(&fl->m[order[i]], &fl->m[order[0]], d)) {
				varying |= 1u << d;
				break;
			}
	/* the shared dimensions only shrink as k grows: count the machines with them when they change */
	int best = 0, count = 0;
	unsigned best_mask = 0, mask = varying, counted = 0;
	for (int k = 1; k <= n / 2 && mask; k++) {
		mask = shared_pair(fl, order[0], order[k - 1], mask);
		if (mask && mask != counted) {
			count = with_features(fl, order, n, mask);
			counted = mask;
		}
		if (mask && count * 10 <= k * 11)	/* nearly all machines with them are among the k */
			best = k, best_mask = mask;
	}
	if (!best || n < 4)
		return 0;
	best_mask = fewest_dims(fl, order, n, best, best_mask);
	/* "kvm virtual machines" when they are all of one kind, else "virtual machines" */
	char vm_name[80];
	snprintf(vm_name, sizeof vm_name, "%s ", fl->m[order[0]].dim[WTG_DIM_VM]);
	for (int i = 1; i < best; i++)
		if (strcmp(fl->m[order[i]].dim[WTG_DIM_VM], fl->m[order[0]].dim[WTG_DIM_VM]) != 0)
			vm_name[0] = '\0';
	char who[384], lo[32], hi[32];
	say_features(&fl->m[order[0]], vm_name, best_mask, best, who, sizeof who);
	wtg_fleet_fmt(hi, sizeof hi, value_of(fl, order[0], rank_by.f));
	wtg_fleet_fmt(lo, sizeof lo, value_of(fl, order[best - 1], rank_by.f));
	if (best == 1)
		return (size_t)snprintf(buf, len, "; the slowest is %s (%s%s%s)", who, hi, *unit ? " " : "", unit);
	char many[32];
	wtg_fmt_thousands(many, sizeof many, best);
	return (size_t)snprintf(buf, len, "; the %s slowest are %s (%s-%s%s%s)", many, who,
				rank_by.higher_better ? hi : lo, rank_by.higher_better ? lo : hi, *unit ? " " : "", unit);
}

static const char *ordinal_suffix(int n)
{
	if (n % 100 >= 11 && n % 100 <= 13)
		return "th";
	return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

void wtg_fleet_line(const struct wtg_fleet *fl, int f, int highlight, char *buf, size_t len)
{
	const struct wtg_fleet_fig *fg = &fl->figs[f];
	const char *unit = fg->h->unit ? fg->h->unit : "";
	struct wtg_fleet_stat st;
	wtg_fleet_stat(fl, f, -1, NULL, &st);
	char med[32], q1[32], q3[32];
	wtg_fleet_fmt(med, sizeof med, st.median);
	wtg_fleet_fmt(q1, sizeof q1, st.q1);
	wtg_fleet_fmt(q3, sizeof q3, st.q3);
	char count[32];
	wtg_fmt_thousands(count, sizeof count, st.n);
	size_t k = (size_t)snprintf(buf, len, "%s: %s machine%s, median %s%s%s [quartiles %s-%s]", fg->name, count,
				    st.n == 1 ? "" : "s", med, *unit ? " " : "", unit, q1, q3);
	int *order = malloc((size_t)(st.n ? st.n : 1) * sizeof *order);
	if (!order || k >= len) {
		free(order);
		return;
	}
	int n = 0;
	for (int i = 0; i < fl->nm; i++)
		if (isfinite(value_of(fl, i, f)))
			order[n++] = i;
	rank_by = (struct ranked){ fl, f, fg->h->higher_better };
	qsort(order, (size_t)n, sizeof *order, worst_first);
	k += say_tail(fl, order, n, unit, buf + k, len - k);
	if (k < len && highlight >= 0 && highlight < fl->nm) {
		double x = value_of(fl, highlight, f);
		char here[32];
		wtg_fleet_fmt(here, sizeof here, x);
		int better = 0;
		for (int i = 0; i < n && isfinite(x); i++) {
			double y = value_of(fl, order[i], f);
			better += fg->h->higher_better ? y > x : y < x;
		}
		char nth[32];
		wtg_fmt_thousands(nth, sizeof nth, better + 1);
		if (isfinite(x))
			snprintf(buf + k, len - k, "; this one: %s%s%s, %s%s fastest", here, *unit ? " " : "", unit,
				 nth, ordinal_suffix(better + 1));
		else
			snprintf(buf + k, len - k, "; this one: no figure");
	}
	free(order);
}

int wtg_fleet_ticks(double lo, double hi, int most, double *t, int cap)
{
	static const double steps[][3] = { { 1, 2, 5 }, { 1, 0, 0 } };
	int n = 0;
	if (!(lo > 0) || !(hi >= lo))
		return 0;
	for (int pass = 0; pass < 2; pass++) {
		n = 0;
		for (int e = (int)floor(log10(lo)) - 1; e <= (int)ceil(log10(hi)); e++)
			for (int k = 0; k < 3; k++) {
				double x = steps[pass][k] * pow(10, e);
				if (steps[pass][k] > 0 && x >= lo && x <= hi && n < cap)
					t[n++] = x;
			}
		if (n <= most)
			break;
	}
	return n;
}
