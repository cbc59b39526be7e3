/* verdict.c: how a comparison of two runs reads (wtg/verdict.h): the rule for a ratio's interval
 * (wtg_verdict_of), a figure that is a difference (compared as after - before, never a ratio), the
 * run-to-run drift this session measured (replicas' spread, A/A pairs) and the verdict of two runs
 * taken one after the other, which calls a change faster or slower only beyond that drift. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wtg/stats.h"
#include "wtg/table.h"
#include "wtg/util.h"
#include "wtg/verdict.h"

/* The band of no change: the gate's threshold, else the default. */
static double band_of(double threshold)
{
	return threshold > 0 ? threshold : WTG_NO_CHANGE_PCT / 100;
}

enum wtg_verdict wtg_verdict_of(double ratio, double lo, double hi, bool higher_better, double threshold)
{
	if (!isfinite(ratio))
		return WTG_V_NONE;
	if (!isfinite(lo) || !isfinite(hi))
		return WTG_V_INCONCLUSIVE;
	/* worse: a time up, a throughput down */
	bool worse = higher_better ? hi < 1 : lo > 1;
	bool better = higher_better ? lo > 1 : hi < 1;
	if (worse && threshold > 0) {
		bool beyond = higher_better ? hi < 1 - threshold && ratio < 1 - threshold :
					      lo > 1 + threshold && ratio > 1 + threshold;
		if (beyond)
			return WTG_V_REGRESSION;
	}
	if (worse || better)
		return worse ? WTG_V_SLOWER : WTG_V_FASTER;
	double band = band_of(threshold);
	return lo >= 1 - band && hi <= 1 + band ? WTG_V_SAME : WTG_V_INCONCLUSIVE;
}

enum wtg_verdict wtg_verdict_next(double ratio, double lo, double hi, bool higher_better, double threshold)
{
	if (!isfinite(ratio))
		return WTG_V_NONE;
	if (!isfinite(lo) || !isfinite(hi) || lo <= 0 || hi <= 0)
		return WTG_V_INCONCLUSIVE;
	bool worse = higher_better ? ratio < lo : ratio > hi;
	/* worse by more than the threshold: beyond the interval a next run of a baseline made that much
	 * worse would fall in, as a single run's CI must lie beyond the threshold */
	if (worse && threshold > 0 && (higher_better ? ratio < lo * (1 - threshold) : ratio > hi * (1 + threshold)))
		return WTG_V_REGRESSION;
	/* the change: the ratio over where a next run of the baseline falls, read as a CI */
	enum wtg_verdict v = wtg_verdict_of(ratio, ratio / hi, ratio / lo, higher_better, 0);
	if (v == WTG_V_SAME || v == WTG_V_INCONCLUSIVE) {
		double band = band_of(threshold);
		v = ratio / hi >= 1 - band && ratio / lo <= 1 + band ? WTG_V_SAME : WTG_V_INCONCLUSIVE;
	}
	return v;
}

const char *wtg_verdict_name(enum wtg_verdict v)
{
	static const char *const names[] = { "", "no change", "faster", "slower", "slower (regression)",
					     "missing", "not comparable", "inconclusive",
					     "differ by more than their intervals: the machine's state moved between the runs",
					     "differ by more than their intervals (no run-to-run drift measured)",
					     "within its noise" };
	return v >= 0 && v < (int)WTG_ARRAY_LEN(names) ? names[v] : "";
}

const char *wtg_verdict_short(enum wtg_verdict v)
{
	return v == WTG_V_MOVED ? "the machine moved" : v == WTG_V_NO_DRIFT ? "drift unknown" : wtg_verdict_name(v);
}

const char *wtg_fmt_signed(char *buf, size_t len, double v)
{
	if (fabs(v) >= 1000 && fabs(v) < 1e9)
		snprintf(buf, len, "%+.0f", v);
	else
		snprintf(buf, len, v == 0 ? "%.3g" : "%+.3g", v);
	return buf;
}

const char *wtg_verdict_words(char *buf, size_t len, enum wtg_verdict v, double lo, double hi, const char *dash,
			      double diff, const char *unit)
{
	const char *name = wtg_verdict_name(v);
	if (v == WTG_V_INCONCLUSIVE && isfinite(lo) && isfinite(hi))
		snprintf(buf, len, "%s [%.2f%s%.2f]", name, lo, dash, hi);
	else if (v == WTG_V_NOISE && isfinite(diff)) {
		char d[32], a[32], b[32];
		const char *sp = unit && unit[0] ? " " : "", *u = sp[0] ? unit : "";
		wtg_fmt_signed(d, sizeof d, diff);
		wtg_fmt_signed(a, sizeof a, lo);
		wtg_fmt_signed(b, sizeof b, hi);
		if (isfinite(lo) && isfinite(hi))
			snprintf(buf, len, "%s: %s%s%s [%s, %s]", name, d, sp, u, a, b);
		else
			snprintf(buf, len, "%s: %s%s%s", name, d, sp, u);
	} else
		snprintf(buf, len, "%s", name);
	return buf;
}

enum wtg_verdict wtg_verdict_diff(double diff, double lo, double hi, bool higher_better)
{
	if (!isfinite(diff))
		return WTG_V_NONE;
	if (!isfinite(lo) || !isfinite(hi) || (lo <= 0 && hi >= 0))
		return WTG_V_NOISE;
	bool up = lo > 0;
	return up == higher_better ? WTG_V_FASTER : WTG_V_SLOWER;
}

void wtg_drift_init(struct wtg_drift *d)
{
	memset(d, 0, sizeof *d);
}

/* A row's replica spread (largest - smallest replica median, over the median) as a standard
 * deviation: the expected range of k normal values is d2(k) of theirs (Tippett's d2). */
static void add_spread(struct wtg_drift *d, const struct wtg_figure *f)
{
	static const double d2[] = { 0, 0, 1.128, 1.693, 2.059, 2.326, 2.534, 2.704, 2.847, 2.970, 3.078 };
	int k = f->spread_replicas;
	if (!isfinite(f->spread_pct) || f->spread_pct < 0 || k < 2 || k >= (int)WTG_ARRAY_LEN(d2))
		return;
	double sd = f->spread_pct / 100 / d2[k];
	d->ss_log += sd * sd * (k - 1);
	d->ss_abs += sd * sd * f->value * f->value * (k - 1);
	d->df += k - 1;
	d->runs++;
}

void wtg_drift_add_run(struct wtg_drift *d, const struct wtg_figure *f)
{
	if (f->found && (!f->samples || !f->replica_len || f->nreplicas < 2))
		add_spread(d, f);
	if (!f->found || !f->samples || !f->replica_len || f->nreplicas < 2)
		return;
	double med[WTG_SERIES_MAX_REPLICAS], lg[WTG_SERIES_MAX_REPLICAS];
	int k = 0;
	bool positive = true;
	size_t at = 0;
	for (int j = 0; j < f->nreplicas && j < WTG_SERIES_MAX_REPLICAS; j++) {
		double m = f->replica_len[j] ? wtg_quantile(f->samples + at, f->replica_len[j], 0.5) : NAN;
		at += f->replica_len[j];
		if (!isfinite(m))
			continue;
		positive = positive && m > 0;
		med[k++] = m;
	}
	if (k < 2)
		return;
	double mean = 0, mlog = 0;
	for (int j = 0; j < k; j++) {
		mean += med[j] / k;
		lg[j] = positive ? log(med[j]) : 0;
		mlog += lg[j] / k;
	}
	for (int j = 0; j < k; j++) {
		d->ss_abs += (med[j] - mean) * (med[j] - mean);
		d->ss_log += (lg[j] - mlog) * (lg[j] - mlog);
	}
	d->df += k - 1;
	d->runs++;
}

void wtg_drift_add_pair(struct wtg_drift *d, double a, double b)
{
	if (!isfinite(a) || !isfinite(b))
		return;
	d->pairs++;
	d->aa_abs = fmax(d->aa_abs, fabs(b - a));
	if (a > 0 && b > 0)
		d->aa_log = fmax(d->aa_log, fabs(log(b / a)));
}

bool wtg_drift_band(const struct wtg_drift *d, double *ratio_band, double *abs_band)
{
	*ratio_band = *abs_band = NAN;
	if (d->df < 1 && d->pairs == 0)
		return false;
	double lg = d->aa_log, ab = d->aa_abs;
	if (d->df >= 1) {
		/* two runs, each of which may sit in one state all along as a replica does: a replica's
		 * spread, sqrt 2 of it for the two, t for the few degrees of freedom */
		double t = wtg_t_quantile(0.975, d->df) * sqrt(2.0);
		lg = fmax(lg, t * sqrt(d->ss_log / d->df));
		ab = fmax(ab, t * sqrt(d->ss_abs / d->df));
	}
	*ratio_band = exp(lg) - 1;
	*abs_band = ab;
	return true;
}

enum wtg_verdict wtg_verdict_sequential(double ratio, double lo, double hi, bool higher_better, double threshold,
					double ratio_band)
{
	enum wtg_verdict v = wtg_verdict_of(ratio, lo, hi, higher_better, threshold);
	if (v != WTG_V_FASTER && v != WTG_V_SLOWER)
		return v;
	double band = threshold > 0 ? threshold : WTG_NO_CHANGE_PCT / 100;
	if (lo >= 1 - band && hi <= 1 + band)
		return WTG_V_SAME;	/* whatever moved, less than the band */
	if (!isfinite(ratio_band))
		return WTG_V_NO_DRIFT;
	bool beyond = lo > 1 + ratio_band || hi < 1 / (1 + ratio_band);
	return beyond ? v : WTG_V_MOVED;
}

enum wtg_verdict wtg_verdict_sequential_diff(double diff, double lo, double hi, bool higher_better,
					     double abs_band)
{
	enum wtg_verdict v = wtg_verdict_diff(diff, lo, hi, higher_better);
	if (v != WTG_V_FASTER && v != WTG_V_SLOWER)
		return v;
	if (!isfinite(abs_band))
		return WTG_V_NO_DRIFT;
	return lo > abs_band || hi < -abs_band ? v : WTG_V_MOVED;
}
