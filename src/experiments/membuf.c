/* membuf.c: buffers sized to this machine, the memory-sized buffer among them (kernels, wss). */
#include "config.h"

#include <pthread.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"
#include "membuf.h"
#include "pages.h"
#include "wtg/ctx.h"
#include "wtg/testhooks.h"
#include "wtg/topology.h"

uint64_t wtg_ctx_l1d(const struct wtg_ctx *ctx)
{
	uint64_t s = ctx->machine ? wtg_machine_cache_size(ctx->machine, 1) : 0;
	return wtg_cache_size_sane(s) ? s : 32u << 10;
}

uint64_t wtg_ctx_llc(const struct wtg_ctx *ctx)
{
	const struct wtg_cache *c = ctx->machine ? wtg_machine_llc(ctx->machine) : NULL;
	return c && wtg_cache_size_sane(c->size) ? c->size : 32u << 20;
}

/* The smallest power of two of at least want and at least 1 MiB, in at most 63 doublings (so 2^63
 * for anything larger: no size wtg uses comes near). */
static uint64_t pow2_at_least(uint64_t want)
{
	uint64_t p = 1u << 20;
	for (int i = 20; i < 63 && p < want; i++)
		p *= 2;
	return p;
}

uint64_t wtg_ram_quarter(void)
{
	/* a fixture tree (WTG_SYSFS_ROOT) is another machine: its nodes' memory, where it says */
	const char *root = getenv("WTG_SYSFS_ROOT");
	if (root && *root) {
		uint64_t mem = wtg_topology_memory(wtg_topology_this());
		if (mem)
			return mem / 4;
	}
	long pages = sysconf(_SC_PHYS_PAGES);
	long page = wtg_page_size();
	if (pages <= 0)
		return 256u << 20;
	return (uint64_t)pages * (uint64_t)page / 4;
}

/* --quick's cap of the memory-sized span: 512 MiB or 1/16 of RAM, whichever is smaller, but never
 * below the smallest power of two past the LLC, so the sweep keeps a step beyond the last cache. */
static uint64_t quick_span_cap(const struct wtg_ctx *ctx)
{
	uint64_t cap = wtg_ram_quarter() / 4, past = pow2_at_least(wtg_ctx_llc(ctx) + 1);
	if (cap > WTG_QUICK_SPAN_MAX)
		cap = WTG_QUICK_SPAN_MAX;
	return cap > past ? cap : past;
}

uint64_t wtg_dram_span(const struct wtg_ctx *ctx)
{
	uint64_t span = pow2_at_least(4 * wtg_ctx_llc(ctx));	/* the LLC is at most 1 TiB */
	if (ctx->opt && ctx->opt->quick && span > quick_span_cap(ctx))
		span = quick_span_cap(ctx);
	uint64_t cap = wtg_ram_quarter() / WTG_CHUNK * WTG_CHUNK;
	/* test hook: WTG_TEST_MAX_BUFFER=SIZE caps it (wtg/testhooks.h) */
	uint64_t test_cap = wtg_testhooks()->max_buffer;
	if (test_cap >= WTG_CHUNK && test_cap < cap)
		cap = test_cap / WTG_CHUNK * WTG_CHUNK;
	return span < cap ? span : cap;
}

const char *wtg_cache_level_name(const struct wtg_ctx *ctx, uint64_t bytes)
{
	static const char *const names[] = { "L1", "L2", "L3", "L4" };
	if (!ctx->machine || !ctx->machine->ncaches) {	/* the assumed caches */
		if (bytes <= wtg_ctx_l1d(ctx))
			return "L1";
		return bytes <= wtg_ctx_llc(ctx) ? "L2" : "DRAM";
	}
	for (int level = 1; level <= 4; level++) {
		uint64_t s = wtg_machine_cache_size(ctx->machine, level);
		if (s && bytes <= s)
			return names[level - 1];
	}
	return "DRAM";
}

#define FILL_PIECE (64u << 20)

int wtg_seeded_buf_init(struct wtg_ctx *ctx, struct wtg_rng *rng, struct wtg_seeded_buf *b, uint64_t size,
			uint64_t chunk)
{
	memset(b, 0, sizeof *b);
	b->chunk = chunk;
	b->size = (size + chunk - 1) / chunk * chunk;
	uint64_t n = b->size / chunk;
	char sz[32];
	wtg_fmt_size(sz, sizeof sz, b->size);
	/* anonymous memory asked for transparent huge pages: a 2 GiB buffer then costs a thousand
	 * faults, not half a million, and a pass over it far fewer TLB misses (the setting is in the
	 * machine block; how much the kernel granted, in b->huge) */
	b->p = wtg_huge_alloc((size_t)b->size);
	b->prefix = malloc((size_t)(n + 1) * sizeof *b->prefix);
	if (!b->p || !b->prefix) {
		wtg_seeded_buf_free(b);
		wtg_table_fail(ctx->t, "cannot allocate a %s buffer", sz);
		return WTG_ERR;
	}
	if (wtg_prefault(ctx, b->p, (size_t)b->size) != WTG_OK) {
		wtg_seeded_buf_free(b);
		return WTG_CANCELLED;
	}
	b->prefix[0] = 0;
	b->huge = -1;
	uint64_t since = 0;
	for (uint64_t i = 0; i < n; i++) {
		b->prefix[i + 1] = b->prefix[i] + wtg_fill_seeded(rng, b->p + i * chunk, (size_t)chunk);
		since += chunk;
		if (since >= FILL_PIECE) {
			since = 0;
			if (wtg_ctx_cancelled(ctx)) {
				wtg_seeded_buf_free(b);
				return WTG_CANCELLED;
			}
		}
	}
	b->huge = wtg_huge_bytes(b->p);
	return WTG_OK;
}

void wtg_huge_phrase(const struct wtg_ctx *ctx, char *buf, size_t len, int64_t huge, uint64_t size)
{
	const char *thp = ctx->machine && ctx->machine->thp[0] ? ctx->machine->thp : "unknown";
	char h[16], all[16];
	wtg_fmt_size(all, sizeof all, size);
	wtg_fmt_size(h, sizeof h, huge > 0 ? (uint64_t)huge : 0);
	if (huge < 0)
		snprintf(buf, len, "its huge pages unknown, THP %s", thp);
	else if (huge == 0)
		snprintf(buf, len, "none of its %s in huge pages, THP %s", all, thp);
	else if ((uint64_t)huge >= size)
		snprintf(buf, len, "all %s in huge pages, THP %s", all, thp);
	else
		snprintf(buf, len, "%s of its %s in huge pages, THP %s", h, all, thp);
}

void wtg_seeded_buf_free(struct wtg_seeded_buf *b)
{
	if (b->p)
		wtg_huge_free(b->p, (size_t)b->size);
	free(b->prefix);
	b->p = NULL;
	b->prefix = NULL;
}

static struct wtg_seeded_buf dram_buf;
static uint64_t dram_seed;

void wtg_first_look(struct wtg_ctx *ctx)
{
	const size_t set = 16u << 10;
	unsigned char *b = wtg_aligned_alloc(64, set);
	if (!b)
		return;
	struct wtg_rng rng;
	wtg_rng_seed(&rng, ctx->opt ? ctx->opt->seed : 1);
	wtg_fill_seeded(&rng, b, set);
	struct wtg_probe_result res;
	int64_t sum;
	for (uint64_t passes = 64; passes <= (1u << 24); passes *= 4) {
		if (wtg_sum_passes(ctx, wtg_sum_bytes, b, set, passes, &sum, &res) != WTG_OK)
			break;
		if (res.wall_ms >= 2.0) {
			wtg_table_sofar(ctx->t, "one core sums %.0f GB/s over 16 KiB (a first look)",
					(double)set * (double)passes / (res.wall_ms * 1e6));
			break;
		}
	}
	free(b);
}

/* Who holds the shared buffer now, and who is done with it in this pass over the selection, by
 * registry index (an interleaved run has several experiments between get and done at once). */
static pthread_mutex_t dram_lock = PTHREAD_MUTEX_INITIALIZER;
static bool dram_holding[32], dram_released[32];

static int registry_index(const struct wtg_experiment *self)
{
	for (int k = 0; k < wtg_nexperiments && k < (int)WTG_ARRAY_LEN(dram_holding); k++)
		if (wtg_experiments[k] == self)
			return k;
	return -1;
}

static uint64_t dram_seed_of(const struct wtg_ctx *ctx)
{
	return (ctx->opt ? ctx->opt->seed : 1) ^ 0x6d656d6f72796275ull;	/* "memorybu" */
}

static void hold(const struct wtg_experiment *self)
{
	int k = registry_index(self);
	if (k >= 0)
		dram_holding[k] = true;
}

int wtg_dram_buf_get(struct wtg_ctx *ctx, const struct wtg_experiment *self, const struct wtg_seeded_buf **out)
{
	uint64_t seed = dram_seed_of(ctx);
	uint64_t size = wtg_dram_span(ctx);
	pthread_mutex_lock(&dram_lock);
	int rc = WTG_OK;
	if (dram_buf.p && (dram_seed != seed || dram_buf.size != size))
		wtg_seeded_buf_free(&dram_buf);
	if (!dram_buf.p) {
		wtg_first_look(ctx);
		struct wtg_rng rng;
		wtg_rng_seed(&rng, seed);
		rc = wtg_seeded_buf_init(ctx, &rng, &dram_buf, size, 4u << 10);
		if (rc == WTG_OK)
			dram_seed = seed;
	}
	if (rc == WTG_OK)
		hold(self);
	pthread_mutex_unlock(&dram_lock);
	if (rc != WTG_OK)
		return rc;
	if (ctx->opt && ctx->opt->quick && size < 4 * wtg_ctx_llc(ctx)) {
		char got[32], llc[32];
		wtg_fmt_size(got, sizeof got, size);
		wtg_fmt_size(llc, sizeof llc, wtg_ctx_llc(ctx));
		wtg_table_note(ctx->t,
			       "--quick: the memory-sized buffer is %s, not 4x the %s last-level cache (at most "
			       "512 MiB or 1/16 of RAM, but past the LLC, so the DRAM step stays); run without "
			       "--quick for the full span",
			       got, llc);
	}
	*out = &dram_buf;
	return WTG_OK;
}

const struct wtg_seeded_buf *wtg_dram_buf_peek(struct wtg_ctx *ctx, const struct wtg_experiment *self)
{
	const struct wtg_seeded_buf *b = NULL;
	pthread_mutex_lock(&dram_lock);
	if (dram_buf.p && dram_seed == dram_seed_of(ctx) && dram_buf.size == wtg_dram_span(ctx)) {
		hold(self);
		b = &dram_buf;
	}
	pthread_mutex_unlock(&dram_lock);
	return b;
}

/* Under dram_lock: whether the buffer is still wanted: an experiment holds it, or (a headless run)
 * a selected experiment that declares it has not been done with it in this pass. */
static bool dram_buf_wanted(const struct wtg_options *o)
{
	for (int k = 0; k < wtg_nexperiments && k < (int)WTG_ARRAY_LEN(dram_holding); k++) {
		if (dram_holding[k])
			return true;
		if (o && o->mode == WTG_MODE_RUN && k < (int)WTG_ARRAY_LEN(o->selected) && o->selected[k] &&
		    wtg_experiments[k]->shares_dram_buf && !dram_released[k])
			return true;
	}
	return false;
}

void wtg_dram_buf_done(struct wtg_ctx *ctx, const struct wtg_experiment *self)
{
	pthread_mutex_lock(&dram_lock);
	int k = registry_index(self);
	if (k >= 0) {
		dram_holding[k] = false;
		dram_released[k] = true;
	}
	if (!dram_buf_wanted(ctx->opt)) {
		/* every user is done: free it, and the next pass (--replicate) starts afresh */
		wtg_seeded_buf_free(&dram_buf);
		memset(dram_released, 0, sizeof dram_released);
	}
	pthread_mutex_unlock(&dram_lock);
}

int64_t wtg_seeded_buf_known(const struct wtg_seeded_buf *b, uint64_t off, uint64_t len)
{
	return b->prefix[(off + len) / b->chunk] - b->prefix[off / b->chunk];
}

int wtg_seeded_sum_sample(struct wtg_ctx *ctx, wtg_sum_fn fn, const struct wtg_seeded_buf *b, uint64_t set,
			  uint64_t bytes, uint64_t *pos, const char *what, struct wtg_probe_result *res,
			  int64_t *sum)
{
	int64_t s = 0, known = 0;
	uint64_t p = *pos % set, since = 0;
	int rc = WTG_OK;
	/* whole passes over a small set go through the repeating form, many per call (as
	 * wtg_sum_passes does): no call, edge handling and fold per pass of 16 KiB */
	wtg_sum_rep_fn rep = wtg_sum_repeat_of(fn);
	struct wtg_probe pb;
	wtg_probe_begin(&pb);
	for (uint64_t done = 0; done < bytes;) {
		uint64_t n = set - p;
		if (n > bytes - done)
			n = bytes - done;
		if (n > WTG_SUM_PIECE)
			n = WTG_SUM_PIECE;
		uint64_t k = rep && p == 0 && n == set ? (bytes - done) / set : 1;
		if (k > WTG_SUM_PIECE / set)
			k = WTG_SUM_PIECE / set;
		if (k > 1) {
			s += rep(b->p, (size_t)set, k); /* k whole passes: p stays 0 */
			n = k * set;
		} else {
			s += fn(b->p + p, (size_t)n);
			p = p + n == set ? 0 : p + n;
		}
		done += n;
		since += n;
		if (since >= WTG_SUM_PIECE) {
			since = 0;
			if (wtg_ctx_cancelled(ctx)) {
				rc = WTG_CANCELLED;
				break;
			}
		}
	}
	wtg_probe_end(&pb, res);
	if (rc != WTG_OK)
		return rc;
	/* the known sum of what was read, outside the timing: whole passes plus the wrapped part */
	uint64_t start = *pos % set, passes = bytes / set, rest = bytes % set;
	known = wtg_seeded_buf_known(b, 0, set) * (int64_t)passes;
	if (start + rest <= set)
		known += wtg_seeded_buf_known(b, start, rest);
	else
		known += wtg_seeded_buf_known(b, start, set - start) + wtg_seeded_buf_known(b, 0, start + rest - set);
	*pos = p;
	*sum = s;
	return wtg_check_sum_quiet(ctx, what, s, known) ? WTG_OK : WTG_ERR;
}

uint64_t wtg_lead_in_start(uint64_t set, uint64_t pos, uint64_t chunk, uint64_t *lead)
{
	*lead = (*lead < set ? *lead : set) / chunk * chunk;
	return (pos % set / chunk * chunk + set - *lead) % set;
}

int wtg_seeded_lead_in(struct wtg_ctx *ctx, const struct wtg_seeded_buf *b, uint64_t set, uint64_t pos,
		       uint64_t lead, const char *what)
{
	uint64_t at = wtg_lead_in_start(set, pos, b->chunk, &lead);
	if (lead == 0)
		return WTG_OK;
	struct wtg_probe_result r;
	int64_t sum;
	char lw[96];
	snprintf(lw, sizeof lw, "%s (its lead-in)", what);
	return wtg_seeded_sum_sample(ctx, wtg_sum_bytes, b, set, lead, &at, lw, &r, &sum);
}
