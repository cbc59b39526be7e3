/* ceiling_cache.c: the ceiling inside the caches, and the verdict for every level.
 *
 * Beside the memory-sized buffer, ceiling runs the sum, loads only, the streams and the prefetch over
 * an L1-sized and an L2-sized buffer (half of each cache, from the machine's cache facts as wss reads
 * them), many passes per sample with each loop's accumulators in registers. There the question is
 * no longer the memory: either the loads cap the sum (loads alone run no faster) or the arithmetic
 * does (loads alone run faster, by the ratio and interval of their row).
 *
 * The load limit is the vector width x the load ports x the clock. The clock is measured with a
 * chain of dependent multiplies of known latency (ceiling_loops.c); the ports are the loads per cycle
 * of the fastest of a few short loads-only passes over the L1-sized buffer, rounded to a whole
 * number (no file on Linux says how many load ports a core has). Where the clock cannot be measured
 * the limit is not given.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ceiling.h"
#include "common.h"
#include "membuf.h"
#include "rounds.h"
#include "wtg/ctx.h"

const char *const wtg_ceil_level_names[WTG_CEIL_NLEVELS] = { "L1", "L2", "memory" };

#define CHUNK (4u << 10)	/* the known sums cover 4 KiB pieces */
#define LIMIT_BYTES (16u << 20)	/* bytes a try of the load limit's loads-only loop moves */
#define LIMIT_TRIES 31

void wtg_ceil_cache_sizes(const struct wtg_ctx *ctx, uint64_t size[2], const char **from)
{
	uint64_t l2 = ctx->machine ? wtg_machine_cache_size(ctx->machine, 2) : 0;
	if (!wtg_cache_size_sane(l2))
		l2 = 1u << 20;
	size[0] = wtg_ctx_l1d(ctx) / 2 / CHUNK * CHUNK;
	if (size[0] < CHUNK)
		size[0] = CHUNK;
	size[1] = l2 / 2 / CHUNK * CHUNK;
	if (size[1] < 2 * size[0])
		size[1] = 2 * size[0];
	*from = ctx->machine && ctx->machine->ncaches && ctx->machine->caches_source ? ctx->machine->caches_source
										      : "assumed";
}

bool wtg_ceil_loads_ok(struct wtg_ctx *ctx, uint64_t last, uint64_t want)
{
	if (last == want)
		return true;
	wtg_table_check(ctx->t, "loads", false, "loads only: the last vector loaded held %016llx, the buffer %016llx",
			(unsigned long long)last, (unsigned long long)want);
	wtg_table_fail(ctx->t, "loads only: the loop did not load the window's last bytes");
	return false;
}

/* The first 8 bytes of the last vector the loads loop reads in p[0, set). */
static uint64_t last_vector(const unsigned char *p, uint64_t set)
{
	size_t width;
	uint64_t want;
	wtg_ceil_width(&width);
	memcpy(&want, p + set - width, sizeof want);
	return want;
}

int wtg_ceil_cache_sample(struct wtg_ctx *ctx, const struct wtg_seeded_buf *b, uint64_t set, enum wtg_ceil_kind kind,
			  int streams, uint64_t bytes, const char *what, struct wtg_probe_result *res, int64_t *sum)
{
	if (kind == WTG_CK_REF) {
		uint64_t pos = 0;
		return wtg_seeded_sum_sample(ctx, wtg_sum_bytes, b, set, bytes, &pos, what, res, sum);
	}
	const bool loads = kind == WTG_CK_LOADS;
	const uint64_t passes = bytes / set, piece = WTG_SUM_PIECE / set ? WTG_SUM_PIECE / set : 1;
	const uint64_t k = loads || streams < 1 ? 1 : (uint64_t)streams, part = set / k;
	const unsigned char *s[WTG_CEIL_MAX_STREAMS];
	for (uint64_t j = 0; j < k; j++)
		s[j] = b->p + j * part;
	int64_t got = 0;
	uint64_t last = 0;
	int rc = WTG_OK;
	struct wtg_probe pb;
	wtg_probe_begin(&pb);
	for (uint64_t done = 0, n; done < passes && rc == WTG_OK; done += n) {
		n = passes - done < piece ? passes - done : piece;
		if (loads)
			last = wtg_ceil_loads(b->p, (size_t)set, n);
		else
			got += wtg_ceil_streams(s, (int)k, (size_t)part, kind == WTG_CK_PREFETCH, n);
		if (wtg_ctx_cancelled(ctx))
			rc = WTG_CANCELLED;
	}
	wtg_probe_end(&pb, res);
	*sum = got;
	if (rc != WTG_OK)
		return rc;
	if (loads)
		return wtg_ceil_loads_ok(ctx, last, last_vector(b->p, set)) ? WTG_OK : WTG_ERR;
	return wtg_check_sum_quiet(ctx, what, got, wtg_seeded_buf_known(b, 0, set) * (int64_t)passes) ? WTG_OK : WTG_ERR;
}

double wtg_ceil_load_limit(const unsigned char *p, uint64_t set, double *ghz, int *ports, double *per_cycle)
{
	size_t width;
	wtg_ceil_width(&width);
	const double g0 = wtg_ceil_clock_ghz();
	const uint64_t passes = LIMIT_BYTES / set ? LIMIT_BYTES / set : 1;
	int64_t best = 0;
	for (int t = 0; t < LIMIT_TRIES; t++) {
		int64_t t0 = wtg_now_ns();
		wtg_ceil_loads(p, (size_t)set, passes);
		int64_t dt = wtg_now_ns() - t0;
		if (dt > 0 && (best == 0 || dt < best))
			best = dt;
	}
	const double g1 = wtg_ceil_clock_ghz();
	/* the faster of the clocks before and after: the limit is an upper bound */
	*ghz = isnan(g0) ? g1 : isnan(g1) ? g0 : fmax(g0, g1);
	*ports = 0;
	*per_cycle = NAN;
	if (isnan(*ghz) || best <= 0)
		return NAN;
	*per_cycle = (double)(passes * set) / (double)best / *ghz;
	*ports = (int)lround(*per_cycle / (double)width);
	if (*ports < 1)
		*ports = 1;
	return (double)width * *ports * *ghz;
}

void wtg_ceil_cache_notes(struct wtg_ctx *ctx, const uint64_t set[2], const char *huge, const char *from,
			  const struct wtg_ceil_limit *lim)
{
	char l1[32], l2[32];
	wtg_fmt_size(l1, sizeof l1, set[0]);
	wtg_fmt_size(l2, sizeof l2, set[1]);
	wtg_table_note(ctx->t,
		       "L1 and L2 rows: the first %s and all %s of one seeded buffer of their own (%s), half of "
		       "L1d and of L2 (%s cache sizes), read in whole passes, many per sample, each loop's "
		       "accumulators kept in registers from pass to pass; each row's ratio is to its own "
		       "buffer's reference; the verdict says per buffer what caps the sum: in a cache, the "
		       "arithmetic when loads alone run faster beyond noise, else the loads",
		       l1, l2, huge, from);
	size_t width;
	const char *w = wtg_ceil_width(&width);
	if (isnan(lim->ghz)) {
		wtg_table_note(ctx->t,
			       "load limit: not given: the clock cannot be measured here (no chain of dependent "
			       "instructions of known latency for this architecture, or its timing was implausible)");
		return;
	}
	wtg_table_note(ctx->t,
		       "load limit: %zu-byte loads (%s) x %d per cycle x %.2f GHz = %.0f GB/s; the clock from the "
		       "fastest of 31 chains of 2^18 dependent 64-bit imul (3 cycles each on every Intel core "
		       "since Nehalem and AMD core since Zen), before and after the loads, the faster kept; the "
		       "loads per cycle from the fastest of 31 loads-only passes of 16 MiB over the L1-sized "
		       "buffer (%.1f bytes per cycle, %.2f loads), rounded to whole ports: no file says how many "
		       "load ports a core has; bytes_per_cycle: a row's GB/s over the clock",
		       width, w, lim->ports, lim->ghz, lim->gbps, lim->per_cycle, lim->per_cycle / (double)width);
}

/* ---- the verdict ---- */

/* What a move of each suspect's row says: `sign` is the direction that points at the suspect (+1 a
 * rise: taking it away lifted the ceiling; -1 a fall: adding it lowered it; 0 either). */
static const struct {
	const char *suspect;
	int sign;
	const char *yes, *no;
} meaning[] = {
	{ "vector execution", 1, "the sum's vector arithmetic is part of one core's cap here",
	  "loads alone ran slower: the arithmetic is not what caps one core here" },
	{ "translation", -1, "translation is part of one core's cap here",
	  "4 KiB pages ran faster: huge pages do not lift one core's cap here" },
	{ "loop code", 0, "the loop's own code moves one core's ceiling here", "" },
	{ "load machinery", 1, "the load machinery (misses in flight) is part of one core's cap here",
	  "more misses in flight slowed it: they are not what caps one core here" },
	{ "shared path", -1, "a path shared with another core is part of one core's cap here",
	  "it ran faster beside a second thread: no shared path caps one core here" },
};

static const char *meaning_of(const char *suspect, double ratio)
{
	for (size_t i = 0; i < WTG_ARRAY_LEN(meaning); i++)
		if (strcmp(meaning[i].suspect, suspect) == 0)
			return meaning[i].sign == 0 || (ratio > 1) == (meaning[i].sign > 0) ? meaning[i].yes
											    : meaning[i].no;
	return "";
}

struct cols {
	int variant, level, suspect, ratio, lo, hi, gbps, limit;
};

static const char *text_at(const struct wtg_table *t, int r, int c)
{
	const struct wtg_value *v = c >= 0 ? &t->rows[r].v[c] : NULL;
	return v && v->type == WTG_T_TEXT && v->s ? v->s : "";
}

/* Row r's level: its level column, "memory" in a table saved before ceiling had levels. */
static const char *level_at(const struct wtg_table *t, const struct cols *c, int r)
{
	return c->level < 0 ? "memory" : text_at(t, r, c->level);
}

/* The row of a level whose suspect is `suspect`, -1 when none. */
static int row_of(const struct wtg_table *t, const struct cols *c, const char *level, const char *suspect)
{
	for (int r = 0; r < t->nrows; r++)
		if (strcmp(level_at(t, c, r), level) == 0 && strcmp(text_at(t, r, c->suspect), suspect) == 0)
			return r;
	return -1;
}

/* "4K pages: x0.81 [0.78-0.84]: translation is part of one core's cap here": the row of the level
 * whose ratio lies furthest from 1 on a log scale among those whose interval does not hold 1; the
 * reference and the chase are no changes to the sum. */
static int memory_part(const struct wtg_table *t, const struct cols *c, const char *level, char *buf, size_t len)
{
	int best = -1, judged = 0;
	for (int r = 0; r < t->nrows; r++) {
		const char *s = text_at(t, r, c->suspect);
		double x = wtg_table_num(t, r, c->ratio), lo = wtg_table_num(t, r, c->lo), hi = wtg_table_num(t, r, c->hi);
		if (strcmp(level_at(t, c, r), level) != 0 || !*s || strcmp(s, "reference") == 0 ||
		    strcmp(s, "latency") == 0 || !(x > 0) || !isfinite(lo) || !isfinite(hi))
			continue;
		judged++;
		if (lo <= 1 && hi >= 1)
			continue;
		if (best < 0 || fabs(log(x)) > fabs(log(wtg_table_num(t, best, c->ratio))))
			best = r;
	}
	if (best < 0)
		return wtg_verdict_fmt(buf, len, judged > 0,
				       "none moved one core's ceiling beyond noise: each of the %d ratios' 95%% "
				       "intervals holds 1",
				       judged);
	double x = wtg_table_num(t, best, c->ratio);
	return wtg_verdict_fmt(buf, len, *text_at(t, best, c->variant), "%s: x%.2f [%.2f-%.2f]: %s",
			       text_at(t, best, c->variant), x, wtg_table_num(t, best, c->lo),
			       wtg_table_num(t, best, c->hi), meaning_of(text_at(t, best, c->suspect), x));
}

/* Inside a cache: "the arithmetic: loads alone x1.70 [1.60-1.80] faster" when loads alone run faster
 * beyond noise, else "the loads: loads alone no faster (x1.01 [0.98-1.04]), the sum at 0.97 of the
 * 664 GB/s load limit". */
static int cache_part(const struct wtg_table *t, const struct cols *c, const char *level, char *buf, size_t len)
{
	int lr = row_of(t, c, level, "vector execution"), rr = row_of(t, c, level, "reference");
	double x = lr < 0 ? NAN : wtg_table_num(t, lr, c->ratio);
	double lo = lr < 0 ? NAN : wtg_table_num(t, lr, c->lo), hi = lr < 0 ? NAN : wtg_table_num(t, lr, c->hi);
	if (!(x > 0) || !isfinite(lo) || !isfinite(hi))
		return 0;
	if (lo > 1)
		return wtg_verdict_fmt(buf, len, true, "the arithmetic: loads alone x%.2f [%.2f-%.2f] faster", x, lo, hi);
	double limit = rr < 0 ? NAN : wtg_table_num(t, rr, c->limit), g = rr < 0 ? NAN : wtg_table_num(t, rr, c->gbps);
	char at[96] = ", the load limit unknown (no clock measured)";
	if (limit > 0 && g > 0)
		snprintf(at, sizeof at, ", the sum at %.2f of the %.0f GB/s load limit", g / limit, limit);
	return wtg_verdict_fmt(buf, len, true, "the loads: loads alone no faster (x%.2f [%.2f-%.2f])%s", x, lo, hi, at);
}

int wtg_ceil_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	struct cols c = {
		wtg_table_col(t, "variant"), wtg_table_col(t, "level"), wtg_table_col(t, "suspect"),
		wtg_table_col(t, "ratio"), wtg_table_col(t, "ratio_ci_low"), wtg_table_col(t, "ratio_ci_high"),
		wtg_table_col(t, "gbps"), wtg_table_col(t, "load_limit_gbps"),
	};
	if (!len || c.variant < 0 || c.suspect < 0 || c.ratio < 0 || c.lo < 0 || c.hi < 0)
		return 0;
	size_t n = 0;
	buf[0] = '\0';
	/* memory first: one core's cap is the question, and a narrow screen keeps the first parts whole
	 * (the dashboard drops the last "; ..." parts that do not fit); a busy machine's note follows the
	 * memory part, whose reference row it counts */
	for (int k = 0; k < WTG_CEIL_NLEVELS; k++) {
		int l = k == 0 ? WTG_CEIL_MEM : k - 1;
		const char *name = wtg_ceil_level_names[l];
		char part[320];
		int got = l == WTG_CEIL_MEM ? memory_part(t, &c, name, part, sizeof part)
					     : cache_part(t, &c, name, part, sizeof part);
		if (got <= 0)
			continue;
		if (l == WTG_CEIL_MEM && t->exp && (size_t)got < sizeof part)
			wtg_verdict_busy_note(t->exp, t, part + got, sizeof part - (size_t)got);
		/* a table without levels is one memory-sized buffer: no prefix */
		int w = c.level < 0 ? snprintf(buf + n, len - n, "%s", part)
				    : snprintf(buf + n, len - n, "%s%s: %s", n ? "; " : "", name, part);
		if (w < 0 || (size_t)w >= len - n)
			return (int)strlen(buf);
		n += (size_t)w;
	}
	return (int)n;
}
