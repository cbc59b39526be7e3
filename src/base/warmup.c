/* warmup.c: the warm-up's stopping rule (see wtg/warmup.h). */
#include "config.h"

#include <math.h>

#include "wtg/warmup.h"

double wtg_warmup_spread(const double *medians, size_t n)
{
	if (!medians || n < WTG_WARMUP_STABLE)
		return NAN;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = n - WTG_WARMUP_STABLE; i < n; i++) {
		double m = medians[i];
		if (!isfinite(m) || m <= 0)
			return NAN;
		lo = fmin(lo, m);
		hi = fmax(hi, m);
	}
	return hi / lo - 1;
}

bool wtg_warmup_stable(const double *medians, size_t n)
{
	double spread = wtg_warmup_spread(medians, n);
	/* the bound is inclusive: 100 and 101 are within 1%, whatever the last bit of 1.01 says */
	return isfinite(spread) && spread <= WTG_WARMUP_TOLERANCE + 1e-12;
}

enum wtg_warmup_state wtg_warmup_decide(const double *medians, size_t n, size_t max)
{
	if (wtg_warmup_stable(medians, n))
		return WTG_WARMUP_MET;
	return n >= max ? WTG_WARMUP_MAX : WTG_WARMUP_GOING;
}

const char *wtg_warmup_state_name(enum wtg_warmup_state s)
{
	switch (s) {
	case WTG_WARMUP_MET:
		return "met";
	case WTG_WARMUP_MAX:
		return "max";
	default:
		return "going";
	}
}
