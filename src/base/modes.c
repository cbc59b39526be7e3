/* modes.c: whether samples fall into two separated clusters (a machine that flips between two
 * states: getpid at 85 ns or at 103 ns): Hartigan's dip test of unimodality (Hartigan and Hartigan
 * 1985, the algorithm of Hartigan 1985, AS 217), its p-value from a table of the dip's quantiles
 * under the uniform (the least favourable unimodal distribution), simulated with the seeded
 * generator (bench/dip_table.c), then the two clusters of the best split in two (two-means,
 * exact in one dimension, of the values inside Tukey's outer fences), each with its median and
 * share. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/modes.h"
#include "wtg/stats.h"
#include "wtg/util.h"

/* The greatest convex minorant's and least concave majorant's change points, and the dip as 2n
 * times itself until the end (x 1-based through the pointer moved back by one). */
struct dip_work {
	const double *x;
	int *mn, *mj, *gcm, *lcm;
};

/* The largest distance between the GCM and the LCM from low to high: d, and where it lies (ig, ih). */
static double gcm_lcm_gap(const struct dip_work *w, int l_gcm, int l_lcm, int *ig, int *ih)
{
	const double *x = w->x;
	const int *gcm = w->gcm, *lcm = w->lcm;
	int ix = l_gcm - 1, iv = 2;
	double d = 0;
	*ig = l_gcm;
	*ih = l_lcm;
	if (l_gcm == 2 && l_lcm == 2)
		return 1;
	do {
		int gx = gcm[ix], lv = lcm[iv];
		double dx;
		if (gx > lv) {
			/* the next point of either is the LCM's: the distance there */
			int g1 = gcm[ix + 1];
			dx = (lv - g1 + 1) - (x[lv] - x[g1]) * (gx - g1) / (x[gx] - x[g1]);
			++iv;
			if (dx >= d) {
				d = dx;
				*ig = ix + 1;
				*ih = iv - 1;
			}
		} else {
			/* the next point is the GCM's */
			int l1 = lcm[iv - 1];
			dx = (x[gx] - x[l1]) * (lv - l1) / (x[lv] - x[l1]) - (gx - l1 - 1);
			--ix;
			if (dx >= d) {
				d = dx;
				*ig = ix + 1;
				*ih = iv;
			}
		}
		if (ix < 1)
			ix = 1;
		if (iv > l_lcm)
			iv = l_lcm;
	} while (gcm[ix] != lcm[iv]);
	return d;
}

/* The dip of the GCM's pieces from ig, and the LCM's from ih (in units of 1 / 2n). */
static double piece_dip(const struct dip_work *w, int ig, int l_gcm, int ih, int l_lcm)
{
	const double *x = w->x;
	double dip = 0;
	for (int j = ig; j < l_gcm; j++) {
		int jb = w->gcm[j + 1], je = w->gcm[j];
		double best = 1;
		if (je - jb > 1 && x[je] != x[jb]) {
			double c = (je - jb) / (x[je] - x[jb]);
			for (int k = jb; k <= je; k++)
				best = fmax(best, (k - jb + 1) - (x[k] - x[jb]) * c);
		}
		dip = fmax(dip, best);
	}
	for (int j = ih; j < l_lcm; j++) {
		int jb = w->lcm[j], je = w->lcm[j + 1];
		double best = 1;
		if (je - jb > 1 && x[je] != x[jb]) {
			double c = (je - jb) / (x[je] - x[jb]);
			for (int k = jb; k <= je; k++)
				best = fmax(best, (x[k] - x[jb]) * c - (k - jb - 1));
		}
		dip = fmax(dip, best);
	}
	return dip;
}

double wtg_dip(const double *sorted, size_t n)
{
	if (n < 2 || sorted[n - 1] == sorted[0] || n > (size_t)1 << 30)
		return n ? 0.5 / (double)n : NAN;
	int nn = (int)n;
	int *buf = malloc(4 * (n + 2) * sizeof *buf);
	if (!buf)
		return NAN;
	struct dip_work w = { sorted - 1, buf, buf + n + 2, buf + 2 * (n + 2), buf + 3 * (n + 2) };
	const double *x = w.x;
	/* the indices over which the convex minorant combines */
	w.mn[1] = 1;
	for (int j = 2; j <= nn; j++) {
		w.mn[j] = j - 1;
		for (;;) {
			int a = w.mn[j], b = w.mn[a];
			if (a == 1 || (x[j] - x[a]) * (a - b) < (x[a] - x[b]) * (j - a))
				break;
			w.mn[j] = b;
		}
	}
	/* ... and the concave majorant */
	w.mj[nn] = nn;
	for (int k = nn - 1; k >= 1; k--) {
		w.mj[k] = k + 1;
		for (;;) {
			int a = w.mj[k], b = w.mj[a];
			if (a == nn || (x[k] - x[a]) * (a - b) < (x[a] - x[b]) * (k - a))
				break;
			w.mj[k] = b;
		}
	}
	int low = 1, high = nn;
	double dip = 1;
	for (;;) {
		int l_gcm = 1, l_lcm = 1;
		w.gcm[1] = high;
		while (w.gcm[l_gcm] > low) {
			w.gcm[l_gcm + 1] = w.mn[w.gcm[l_gcm]];
			l_gcm++;
		}
		w.lcm[1] = low;
		while (w.lcm[l_lcm] < high) {
			w.lcm[l_lcm + 1] = w.mj[w.lcm[l_lcm]];
			l_lcm++;
		}
		int ig, ih;
		double d = gcm_lcm_gap(&w, l_gcm, l_lcm, &ig, &ih);
		if (d < dip)
			break;
		dip = fmax(dip, piece_dip(&w, ig, l_gcm, ih, l_lcm));
		if (low == w.gcm[ig] && high == w.lcm[ih])
			break;
		low = w.gcm[ig];
		high = w.lcm[ih];
	}
	free(buf);
	return dip / (2.0 * (double)n);
}

/* sqrt(n) dip under the uniform: its quantiles at the probabilities dip_prob for the sample sizes
 * dip_n, each from 20,000 samples of the seeded generator (bench/dip_table.c, seed 1). */
static const double dip_prob[] = { 0.50, 0.80, 0.90, 0.95, 0.99, 0.999 };
static const int dip_n[] = { 10, 15, 20, 30, 50, 100, 200, 500, 1000, 2000 };
static const double dip_q[][WTG_ARRAY_LEN(dip_prob)] = {
#include "dip_table.h"
};

double wtg_dip_p(double dip, size_t n)
{
	if (!isfinite(dip) || n < (size_t)dip_n[0])
		return NAN;
	/* the row of the largest tabled n at most n (sqrt(n) dip settles as n grows) */
	size_t r = 0;
	while (r + 1 < WTG_ARRAY_LEN(dip_n) && (size_t)dip_n[r + 1] <= n)
		r++;
	double s = sqrt((double)n) * dip;
	const double *q = dip_q[r];
	size_t m = WTG_ARRAY_LEN(dip_prob);
	if (s <= q[0])
		return 1 - dip_prob[0];	/* at least this */
	if (s >= q[m - 1])
		return 1 - dip_prob[m - 1];	/* at most this */
	size_t k = 0;
	while (s > q[k + 1])
		k++;
	/* between two tabled quantiles: linear in log(1 - probability) */
	double f = (s - q[k]) / (q[k + 1] - q[k]);
	return exp(log(1 - dip_prob[k]) + f * (log(1 - dip_prob[k + 1]) - log(1 - dip_prob[k])));
}

/* The split of sorted values into two (the first k and the rest) with the least sum of squares
 * about the two means: k. */
static size_t best_split(const double *x, size_t n)
{
	double total = 0, sq = 0;
	for (size_t i = 0; i < n; i++) {
		total += x[i];
		sq += x[i] * x[i];
	}
	double left = 0, best = INFINITY;
	size_t k = 1;
	for (size_t i = 1; i < n; i++) {
		left += x[i - 1];
		double right = total - left;
		/* the sum of squares less what the two means explain */
		double ss = sq - left * left / (double)i - right * right / (double)(n - i);
		if (ss < best) {
			best = ss;
			k = i;
		}
	}
	return k;
}

static double sd_of(const double *x, size_t n)
{
	double m = wtg_mean(x, n), s = 0;
	for (size_t i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return n > 1 ? sqrt(s / (double)(n - 1)) : 0;
}

static size_t distinct(const double *x, size_t n)
{
	size_t k = n ? 1 : 0;
	for (size_t i = 1; i < n; i++)
		k += x[i] != x[i - 1];
	return k;
}

int wtg_two_modes(const double *v, size_t n, struct wtg_modes *out)
{
	memset(out, 0, sizeof *out);
	out->dip = out->p = out->ashman_d = NAN;
	out->mode[0] = out->mode[1] = out->share[0] = out->share[1] = out->cut = NAN;
	double *x = malloc((n ? n : 1) * sizeof *x);
	if (!x)
		return -1;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			x[m++] = v[i];
	out->n = m;
	if (m < WTG_MODES_MIN_N) {
		free(x);
		return 0;
	}
	wtg_sort(x, m);
	out->dip = wtg_dip(x, m);
	out->p = wtg_dip_p(out->dip, m);
	/* the split leaves out the far tail (beyond Tukey's outer fences, 3 IQR past the quartiles): a
	 * few slow outliers would otherwise be the best split of all */
	double q1 = wtg_quantile_sorted(x, m, 0.25), q3 = wtg_quantile_sorted(x, m, 0.75);
	size_t a = 0, b = m;
	while (a < b && x[a] < q1 - 3 * (q3 - q1))
		a++;
	while (b > a && x[b - 1] > q3 + 3 * (q3 - q1))
		b--;
	const double *y = x + a;
	size_t c = b - a, k = best_split(y, c);
	out->mode[0] = wtg_quantile_sorted(y, k, 0.5);
	out->mode[1] = wtg_quantile_sorted(y + k, c - k, 0.5);
	out->cut = k ? y[k - 1] : NAN;
	out->share[0] = (double)k / (double)c;
	out->share[1] = 1 - out->share[0];
	double s0 = sd_of(y, k), s1 = sd_of(y + k, c - k);
	double m0 = wtg_mean(y, k), m1 = wtg_mean(y + k, c - k);
	out->ashman_d = s0 + s1 > 0 ? M_SQRT2 * fabs(m1 - m0) / sqrt(s0 * s0 + s1 * s1) : INFINITY;
	/* two regimes: the dip test rejects one mode, both clusters hold a share worth naming, they
	 * stand apart (Ashman's D), and each spreads over values of its own (a clock's few ticks are not
	 * two states) */
	out->two = out->p < WTG_MODES_P && out->share[0] >= WTG_MODES_MIN_SHARE &&
		   out->share[1] >= WTG_MODES_MIN_SHARE && out->ashman_d > WTG_MODES_MIN_D &&
		   distinct(y, k) >= WTG_MODES_MIN_DISTINCT && distinct(y + k, c - k) >= WTG_MODES_MIN_DISTINCT;
	free(x);
	return 0;
}

/* A mode to three significant figures, whole from 1000 up ("85.2", "7690", not "7.69e+03"). */
static void mode_num(char *buf, size_t len, double v)
{
	snprintf(buf, len, fabs(v) >= 1000 && fabs(v) < 1e15 ? "%.0f" : "%.3g", v);
}

int wtg_modes_words(char *buf, size_t len, const struct wtg_modes *m, const char *unit)
{
	const char *sp = unit && unit[0] ? " " : "", *u = sp[0] ? unit : "";
	char a[32], b[32];
	mode_num(a, sizeof a, m->mode[0]);
	mode_num(b, sizeof b, m->mode[1]);
	int n = snprintf(buf, len, "%s%s%s (%.0f%%) and %s%s%s (%.0f%%): two regimes", a, sp, u, 100 * m->share[0], b,
			 sp, u, 100 * m->share[1]);
	return n < 0 ? 0 : (size_t)n >= len ? (int)len - 1 : n;
}

void wtg_modes_split_mean(const struct wtg_modes *m, const double *v, const double *x, size_t n, double mean[2])
{
	double sum[2] = { 0, 0 };
	size_t cnt[2] = { 0, 0 };
	for (size_t i = 0; x && i < n; i++) {
		if (!isfinite(v[i]) || !isfinite(x[i]))
			continue;
		int j = v[i] > m->cut;
		sum[j] += x[i];
		cnt[j]++;
	}
	for (int j = 0; j < 2; j++)
		mean[j] = cnt[j] ? sum[j] / (double)cnt[j] : NAN;
}

void wtg_modes_state_of(const struct wtg_modes *m, const double *v, const double *steal, const double *mhz, size_t n,
			const char *unit, double run_steal, double mhz_min, double mhz_max, struct wtg_modes_state *s)
{
	static const char *const times[] = { "ns", "us", "ms", "s" };
	s->slow_high = false;
	for (size_t i = 0; unit && i < WTG_ARRAY_LEN(times); i++)
		s->slow_high = s->slow_high || strcmp(unit, times[i]) == 0;
	wtg_modes_split_mean(m, v, steal, n, s->steal);
	wtg_modes_split_mean(m, v, mhz, n, s->mhz);
	s->run_steal = run_steal;
	s->run_mhz_min = mhz_min;
	s->run_mhz_max = mhz_max;
}

/* Append ", " and the piece p to buf at *o. */
static void piece(char *buf, size_t len, size_t *o, const char *p)
{
	int n = snprintf(buf + *o, len - *o, "%s%s", *o ? ", " : "", p);
	if (n > 0)
		*o = *o + (size_t)n >= len ? len - 1 : *o + (size_t)n;
}

/* A reading per sample (steal %, or MHz) of the two clusters in words: "steal 0.1% vs 4.2% in the slow
 * one" (fast first) when it moved, else "steal 0.3% in both". Returns whether it moved. */
static bool split_words(char *p, size_t len, const double *x, int slow, bool mhz)
{
	const int fast = 1 - slow;
	bool moves = mhz ? fabs(x[slow] / x[fast] - 1) >= WTG_MODES_MHZ_MOVED
			 : fabs(x[slow] - x[fast]) >= WTG_MODES_STEAL_MOVED;
	if (moves)
		snprintf(p, len, mhz ? "%.0f vs %.0f MHz in the slow one" : "steal %.1f%% vs %.1f%% in the slow one",
			 x[fast], x[slow]);
	else
		snprintf(p, len, mhz ? "%.0f MHz in both" : "steal %.1f%% in both", (x[0] + x[1]) / 2);
	return moves;
}

/* The run's steal or frequency in words, when not read per sample. */
static void run_words(char *p, size_t len, const struct wtg_modes_state *s, bool mhz)
{
	if (!mhz && !isfinite(s->run_steal))
		snprintf(p, len, "steal not readable");
	else if (!mhz)
		snprintf(p, len, s->run_steal < 0.05 ? "no steal over the run"
						     : "steal %.1f%% over the run (not read per sample)", s->run_steal);
	else if (!isfinite(s->run_mhz_min) || !isfinite(s->run_mhz_max))
		snprintf(p, len, "frequency not readable");
	else if (s->run_mhz_max <= s->run_mhz_min * (1 + WTG_MODES_MHZ_MOVED))
		snprintf(p, len, "frequency held at %.0f MHz", s->run_mhz_max);
	else
		snprintf(p, len, "frequency %.0f-%.0f MHz over the run (not read per sample)", s->run_mhz_min,
			 s->run_mhz_max);
}

int wtg_modes_state_words(char *buf, size_t len, const struct wtg_modes_state *s)
{
	if (!len)
		return 0;
	char moved[200] = "", held[200] = "", p[96];
	size_t om = 0, oh = 0;
	/* the slow cluster: the upper for a time, the lower for a rate */
	const int slow = s->slow_high ? 1 : 0;
	for (int k = 0; k < 2; k++) {	/* steal, then the frequency */
		const double *x = k ? s->mhz : s->steal;
		bool moves = false;
		if (isfinite(x[0]) && isfinite(x[1]) && (k == 0 || x[1 - slow] > 0))
			moves = split_words(p, sizeof p, x, slow, k == 1);
		else
			run_words(p, sizeof p, s, k == 1);
		piece(moves ? moved : held, sizeof moved, moves ? &om : &oh, p);
	}
	int n = moved[0] ? snprintf(buf, len, "%s", moved)
			 : snprintf(buf, len, "nothing watched moved with them: %s", held);
	return n < 0 ? 0 : (size_t)n >= len ? (int)len - 1 : n;
}
