/* roofline.c: Short on math or short on bytes? A multiply-add chain in registers and the byte sum
 * of the prefaulted data file, each under the normal and the background (SCHED_IDLE) policy, whatever
 * the `p` key says. Each timed loop runs in a helper thread that sets its own policy; the measuring
 * thread supervises it with a time limit, because with burners on every CPU a SCHED_IDLE thread can
 * wait for ever. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "common.h"

#define ARITH_ITERS 800000000ull /* iterations of four dependent multiply-add chains */
#define ARITH_ITERS_QUICK 160000000ull
#define ARITH_SLICE (1u << 18) /* the helper looks at its stop flag this often */
#define OPS_PER_ITER 8 /* four multiplies and four adds */
#define SUM_BYTES 16000000000ull /* bytes the sum loop moves, in whole passes over the span */
#define SUM_BYTES_QUICK 4000000000ull
#define SPAN_CAP (256ull << 20)
#define LIMIT_MS 5000 /* internal per-row limit, below --time-limit */
#define LIMIT_MS_QUICK 2000

enum { LOOP_ARITH = 0, LOOP_SUM, NLOOPS };
enum { POL_NORMAL = 0, POL_BACKGROUND, NPOLS };

static const char *const loop_names[NLOOPS] = { "arith", "sum" };
static const char *const pol_names[NPOLS] = { "normal", "background" };

struct helper {
	pthread_t th;
	struct wtg_crew crew;
	int loop, pol;
	/* arith */
	uint64_t iters, result;
	_Atomic uint64_t iters_done;	/* progress, read by the supervisor at the limit */
	/* sum */
	const unsigned char *map;
	uint64_t span;
	int reps;
	atomic_int reps_done;
	int64_t sum;
	/* what happened */
	int granted; /* policy read back by the helper: SCHED_OTHER, SCHED_IDLE, or -1 */
	int set_errno;
	int64_t t0, t1;
	struct wtg_probe_result res;
};

/* Four independent chains of x = x * odd + odd: no memory stream, nothing to vectorize away. */
static uint64_t arith_slice(uint64_t s[4], uint64_t n)
{
	uint64_t a = s[0], b = s[1], c = s[2], d = s[3];
	for (uint64_t i = 0; i < n; i++) {
		a = a * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
		b = b * 0xbf58476d1ce4e5b9ull + 0x94d049bb133111ebull;
		c = c * 0xd6e8feb86659fd93ull + 0x2545f4914f6cdd1dull;
		d = d * 0xff51afd7ed558ccdull + 0xc4ceb9fe1a85ec53ull;
	}
	s[0] = a;
	s[1] = b;
	s[2] = c;
	s[3] = d;
	return a ^ b ^ c ^ d;
}

static void run_loop(struct helper *h)
{
	atomic_bool *stop = &h->crew.stop;
	if (h->loop == LOOP_ARITH) {
		uint64_t s[4] = { 1, 2, 3, 4 };
		uint64_t done = 0;
		while (done < h->iters && !atomic_load(stop)) {
			uint64_t n = h->iters - done < ARITH_SLICE ? h->iters - done : ARITH_SLICE;
			h->result = arith_slice(s, n);
			done += n;
			atomic_store_explicit(&h->iters_done, done, memory_order_relaxed);
		}
		return;
	}
	for (int r = 0; r < h->reps; r++) {
		if (!wtg_crew_sum(&h->crew, h->map, h->span, &h->sum))
			return;
		atomic_store_explicit(&h->reps_done, r + 1, memory_order_relaxed);
	}
}

static void *helper_main(void *arg)
{
	struct helper *h = arg;
	struct sched_param sp = { .sched_priority = 0 };
	if (sched_setscheduler(0, h->pol == POL_BACKGROUND ? SCHED_IDLE : SCHED_OTHER, &sp) < 0)
		h->set_errno = errno;
	h->granted = sched_getscheduler(0);
	if (wtg_crew_gate(&h->crew)) {
		struct wtg_probe p;
		wtg_probe_begin(&p);
		h->t0 = wtg_now_ns();
		run_loop(h);
		h->t1 = wtg_now_ns();
		wtg_probe_end(&p, &h->res);
	}
	wtg_crew_done(&h->crew);
	return NULL;
}

static double thread_cpu_ms(pthread_t th)
{
	clockid_t cid;
	struct timespec ts;
	if (pthread_getcpuclockid(th, &cid) != 0 || clock_gettime(cid, &ts) != 0)
		return NAN;
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Outcome of one supervised row. */
struct outcome {
	bool ok, starved, cancelled, failed;
	bool rescued; /* the helper was put back to SCHED_OTHER after the limit */
	double cpu_ms; /* the helper's CPU time when the limit passed */
	double done_frac; /* share of the loop it had finished then */
};

static struct outcome supervise(struct wtg_ctx *ctx, struct helper *h, int64_t limit_ms)
{
	struct outcome o = { 0 };
	int err = wtg_crew_spawn(&h->th, NULL, helper_main, h);
	if (err != 0) {
		wtg_table_fail(ctx->t, "cannot start the %s loop's thread: %s", loop_names[h->loop],
			       strerror(err));
		o.failed = true;
		return o;
	}
	int w = wtg_crew_run(ctx, &h->crew, 1, limit_ms * 1000000);
	if (w != WTG_CREW_REACHED) {
		o.cpu_ms = thread_cpu_ms(h->th);
		if (h->loop == LOOP_ARITH)
			o.done_frac = (double)atomic_load(&h->iters_done) / (double)h->iters;
		else
			o.done_frac = (double)atomic_load(&h->reps_done) / (double)h->reps;
		atomic_store(&h->crew.stop, true);
		/* back to SCHED_OTHER so it runs again and sees the flag */
		struct sched_param sp = { .sched_priority = 0 };
		o.rescued = pthread_setschedparam(h->th, SCHED_OTHER, &sp) == 0;
		wtg_crew_finish(ctx, &h->crew, 1);
		o.cancelled = w == WTG_CREW_CANCELLED;
		o.starved = w == WTG_CREW_TIMEOUT;
	} else {
		o.ok = true;
	}
	pthread_join(h->th, NULL);
	if (atomic_load(&h->crew.shrank)) {
		wtg_table_fail(ctx->t, "the %s loop: %s", loop_names[h->loop], WTG_GUARD_SHRANK);
		o = (struct outcome){ .failed = true };
	}
	return o;
}

/* The note that ends a row whose thread did not finish in time, with what it did get. */
static void starved_note(struct wtg_ctx *ctx, int loop, int pol, const struct outcome *o, int burners,
			 int64_t limit_ms)
{
	char who[64], got[96];
	if (burners > 0)
		snprintf(who, sizeof who, "while %d burner%s ran", burners, burners == 1 ? "" : "s");
	else
		snprintf(who, sizeof who, "while other threads held the CPUs");
	if (isnan(o->cpu_ms))
		snprintf(got, sizeof got, "did not finish (its CPU time is not readable)");
	else if (o->cpu_ms >= 1.0)
		snprintf(got, sizeof got, "got only %.1f ms of CPU (%.1f%% of the loop)", o->cpu_ms,
			 100.0 * o->done_frac);
	else
		snprintf(got, sizeof got, "got no CPU");
	wtg_table_note(ctx->t, "%s, %s: starved: %s policy %s in %.0f s of waiting for a CPU %s; row ended, "
		       "timing n/a%s",
		       loop_names[loop], pol_names[pol], pol_names[pol], got, (double)limit_ms / 1000.0, who,
		       o->rescued ? "" : " (it could not be put back to SCHED_OTHER)");
}

static const char *policy_name(int p)
{
	return p == SCHED_IDLE ? "SCHED_IDLE" : p == SCHED_OTHER ? "SCHED_OTHER" : "?";
}

static int run(struct wtg_ctx *ctx)
{
	const bool quick = ctx->opt->quick;
	int64_t limit_ms = quick ? LIMIT_MS_QUICK : LIMIT_MS;
	if (ctx->opt->time_limit_ms > 0 && ctx->opt->time_limit_ms < limit_ms)
		limit_ms = ctx->opt->time_limit_ms;
	const struct wtg_column cols[] = {
		{ "loop", "", WTG_T_TEXT, 0 },
		{ "policy", "", WTG_T_TEXT, 0 },
		{ "ms", "ms", WTG_T_REAL, 1 },
		{ "ratio", "", WTG_T_REAL, 2 },
		{ "gops", "Gop/s", WTG_T_REAL, 2 },
		{ "gbps", "GB/s", WTG_T_REAL, 2 },
		{ "granted", "", WTG_T_TEXT, 0 },
		{ "status", "", WTG_T_TEXT, 0 },
		{ "cpu_ms", "ms", WTG_T_REAL, 1 },
		{ "order", "", WTG_T_INT, 0 },
		{ "burners", "count", WTG_T_INT, 0 },
	};
	wtg_table_set_columns(ctx->t, cols, (int)WTG_ARRAY_LEN(cols));

	uint64_t span = wtg_datafile_span(ctx->df, SPAN_CAP);
	int64_t known = wtg_datafile_prefix_sum(ctx->df, span);
	uint64_t sum_bytes = quick ? SUM_BYTES_QUICK : SUM_BYTES;
	int reps = (int)((sum_bytes + span - 1) / span);
	uint64_t iters = quick ? ARITH_ITERS_QUICK : ARITH_ITERS;
	wtg_ctx_progress(ctx, 0, NLOOPS * NPOLS, "prefaulting the mapping");
	unsigned char *map = wtg_map_prefaulted(ctx, span);
	if (!map)
		return WTG_ERR;

	int rc = WTG_OK;
	int step = 0;
	uint64_t arith_result[NPOLS] = { 0 };
	bool arith_ok[NPOLS] = { false };
	for (int loop = 0; loop < NLOOPS && rc == WTG_OK; loop++) {
		int order[NPOLS] = { POL_NORMAL, POL_BACKGROUND };
		wtg_shuffle_int(&ctx->rng, order, NPOLS);
		struct helper h[NPOLS];
		struct outcome o[NPOLS];
		int ran[NPOLS] = { 0 };
		int burners[NPOLS] = { 0 };
		for (int k = 0; k < NPOLS && rc == WTG_OK; k++) {
			int pol = order[k];
			char label[48];
			snprintf(label, sizeof label, "%s, %s policy", loop_names[loop], pol_names[pol]);
			wtg_ctx_progress(ctx, step++, NLOOPS * NPOLS, label);
			if (wtg_ctx_cancelled(ctx)) {
				rc = WTG_CANCELLED;
				break;
			}
			struct helper *hp = &h[pol];
			memset(hp, 0, sizeof *hp);
			if (wtg_crew_init(&hp->crew) < 0) {
				wtg_table_fail(ctx->t, "cannot set up the %s loop's thread",
					       loop_names[loop]);
				rc = WTG_ERR;
				break;
			}
			hp->loop = loop;
			hp->pol = pol;
			hp->iters = iters;
			hp->map = map;
			hp->span = span;
			hp->reps = reps;
			hp->granted = -1;
			burners[pol] = wtg_burner_count();
			o[pol] = supervise(ctx, hp, limit_ms);
			wtg_crew_destroy(&hp->crew);
			ran[pol] = k + 1;
			if (o[pol].failed)
				rc = WTG_ERR;
			else if (o[pol].cancelled)
				rc = WTG_CANCELLED;
		}
		if (rc != WTG_OK)
			break;
		double ms[NPOLS];
		for (int pol = 0; pol < NPOLS; pol++)
			ms[pol] = o[pol].ok ? (double)(h[pol].t1 - h[pol].t0) / 1e6 : NAN;
		for (int pol = 0; pol < NPOLS; pol++) {
			struct helper *hp = &h[pol];
			struct wtg_value gops = WTG_NA, gbps = WTG_NA, ratio = WTG_NA;
			if (o[pol].ok && ms[pol] > 0) {
				if (loop == LOOP_ARITH)
					gops = WTG_REAL((double)(iters * OPS_PER_ITER) / (ms[pol] * 1e6));
				else
					gbps = WTG_REAL((double)(span * (uint64_t)reps) / (ms[pol] * 1e6));
				if (o[POL_NORMAL].ok)
					ratio = WTG_REAL(ms[pol] / ms[POL_NORMAL]);
			}
			const struct wtg_value v[] = {
				WTG_TEXT(loop_names[loop]),
				WTG_TEXT(pol_names[pol]),
				o[pol].ok ? WTG_REAL(ms[pol]) : WTG_NA,
				ratio,
				gops,
				gbps,
				WTG_TEXT(policy_name(hp->granted)),
				WTG_TEXT(o[pol].ok ? "ok" : "starved"),
				o[pol].ok ? WTG_REAL(hp->res.user_ms + hp->res.sys_ms)
					  : WTG_REAL(o[pol].cpu_ms),
				WTG_INT(ran[pol]),
				WTG_INT(burners[pol]),
			};
			wtg_table_add_row(ctx->t, v, (int)WTG_ARRAY_LEN(v), o[pol].ok ? &hp->res : NULL);
			if (hp->set_errno)
				wtg_table_note(ctx->t, "%s, %s: the kernel refused %s (%s); it ran under %s",
					       loop_names[loop], pol_names[pol],
					       pol == POL_BACKGROUND ? "SCHED_IDLE" : "SCHED_OTHER",
					       strerror(hp->set_errno), policy_name(hp->granted));
			if (o[pol].starved)
				starved_note(ctx, loop, pol, &o[pol], burners[pol], limit_ms);
			if (o[pol].ok && loop == LOOP_SUM) {
				char what[64];
				snprintf(what, sizeof what, "sum, %s policy, %d passes", pol_names[pol],
					 reps);
				if (!wtg_check_sum(ctx, what, hp->sum, known * reps))
					rc = WTG_ERR;
			}
			if (o[pol].ok && loop == LOOP_ARITH) {
				arith_ok[pol] = true;
				arith_result[pol] = hp->result;
				wtg_sink += hp->result;
			}
		}
	}
	munmap(map, span);
	if (rc != WTG_OK)
		return rc;
	if (arith_ok[POL_NORMAL] && arith_ok[POL_BACKGROUND])
		wtg_table_check(ctx->t, "arith", arith_result[POL_NORMAL] == arith_result[POL_BACKGROUND],
				"both policies computed the same chain result %016llx",
				(unsigned long long)arith_result[POL_NORMAL]);
	wtg_ctx_progress(ctx, NLOOPS * NPOLS, NLOOPS * NPOLS, "done");
	char sz[32];
	wtg_fmt_size(sz, sizeof sz, span);
	wtg_table_note(ctx->t,
		       "arith: %llu x 4 dependent 64-bit multiply-adds in registers; sum: %d passes over "
		       "%s of the data file, prefaulted (%s)",
		       (unsigned long long)iters, reps, sz, wtg_sum_simd_name());
	wtg_table_note(ctx->t,
		       "each loop runs in its own thread that sets its policy itself, whatever the p key "
		       "says; granted is what the kernel reported back; ratio = background ms / normal ms; "
		       "the two policies run in seeded random order (order)");
	wtg_table_note(ctx->t,
		       "a row whose thread has waited for a CPU (runnable, not running) for %.0f s is "
		       "ended, its thread put back to SCHED_OTHER to exit",
		       (double)limit_ms / 1000.0);
	return WTG_OK;
}

const struct wtg_experiment wtg_exp_roofline = {
	.name = "roofline",
	.question = "Short on math or short on bytes?",
	.runs = "an arithmetic loop and the byte sum under the normal and the background policy",
	.view = WTG_VIEW_BARS,
	.needs_datafile = true,
	.run = run,
};
