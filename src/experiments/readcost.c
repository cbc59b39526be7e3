/* readcost.c: What does read() add to a crossing?
 *
 * Three operations timed in batches: a raw getpid (the bare crossing), a 1-byte read of /dev/zero
 * (a read with no file behind it) and a 1-byte read of the warm data file. Every round runs one
 * batch of each in an order drawn from the seeded generator, so a slow stretch of the machine
 * lands on all three alike. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "io.h"
#include "rounds.h"
#include "why.h"
#include "wtg/ctx.h"
#include "wtg/plan.h"

enum { OP_GETPID, OP_ZERO, OP_FILE, NOPS };
static const char *const op_name[NOPS] = { "getpid", "1-byte /dev/zero read", "1-byte file read" };

/* The warm file read: read() from offset 0 (the descriptor is rewound before each batch, outside
 * the timed region). The bytes read are checked against the file's first chunk, itself checked
 * against the known sum, so every batch's sum is known. */
struct fileread {
	int fd;
	unsigned char ref[WTG_CHUNK];
	long reflen;
	int64_t refsum;
};

static int fileread_open(struct wtg_ctx *ctx, struct fileread *f)
{
	struct wtg_datafile *df = ctx->df;
	f->fd = open(df->path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		wtg_table_fail(ctx->t, "cannot open %s: %s", df->path, strerror(errno));
		return -1;
	}
	f->reflen = df->size < WTG_CHUNK ? (long)df->size : (long)WTG_CHUNK;
	ssize_t r = pread(f->fd, f->ref, (size_t)f->reflen, 0);
	if (r != f->reflen) {
		wtg_table_fail(ctx->t, "reading the first %ld bytes of %s: %s", f->reflen, df->path,
			       r < 0 ? strerror(errno) : "short read");
		close(f->fd);
		return -1;
	}
	f->refsum = 0;
	for (long i = 0; i < f->reflen; i++)
		f->refsum += f->ref[i];
	int64_t known = wtg_datafile_prefix_sum(df, (uint64_t)f->reflen);
	if (f->refsum != known) {
		wtg_table_fail(ctx->t, "the first %ld bytes of %s sum to %lld, not the known %lld", f->reflen,
			       df->path, (long long)f->refsum, (long long)known);
		close(f->fd);
		return -1;
	}
	return 0;
}

/* Expected sum of `calls` 1-byte reads from offset 0, wrapping at reflen as the batch does. */
static int64_t fileread_expect(const struct fileread *f, long calls)
{
	int64_t s = (int64_t)(calls / f->reflen) * f->refsum;
	for (long i = 0; i < calls % f->reflen; i++)
		s += f->ref[i];
	return s;
}

/* ns per call; -1 on a failed read. A file shorter than the batch is rewound every reflen reads,
 * each stretch timed on its own so the lseek stays outside the timing. */
static double fileread_batch(struct fileread *f, long calls, int64_t *sum)
{
	double ns = 0;
	for (long left = calls; left > 0;) {
		long n = left < f->reflen ? left : f->reflen;
		if (lseek(f->fd, 0, SEEK_SET) < 0)
			return -1;
		double per = wtg_time_read1_batch(f->fd, n, sum);
		if (per < 0)
			return -1;
		ns += per * (double)n;
		left -= n;
	}
	return ns / (double)calls;
}

extern const struct wtg_experiment wtg_exp_readcost;

static const struct wtg_column cols[] = {
	WTG_DISTRIBUTION("operation"),
	{ "calls_per_sample", "count", WTG_T_INT, 0 },
};

/* A run: its plan, its open descriptors, the samples and what the checks need. */
struct rc_run {
	int rounds;
	long calls;
	struct fileread f;
	int zfd;
	double *v;				/* rounds samples per operation */
	double *vb;				/* a paired run's arm B (--versus): the same, NULL unpaired */
	struct wtg_probe_result probes[NOPS], probes_b[NOPS];
	int64_t file_sum, zero_sum, file_bad, file_expect;
	struct wtg_summary s[NOPS];
	int batch_rounds;			/* rounds run, warm-up rounds included */
	int interleaved;			/* replicas after which other experiments measured */
	double start_s[WTG_ROUNDS_REPLICAS];	/* when each replica began in an interleaved run */
};

/* One batch of op: ns per call, or -1 after wtg_table_fail(). */
static double rc_batch(struct wtg_ctx *ctx, struct rc_run *st, int op, struct wtg_probe_result *res)
{
	struct wtg_probe p;
	int64_t s = 0;
	double ns;
	wtg_probe_begin(&p);
	if (op == OP_GETPID)
		ns = wtg_time_getpid_batch(st->calls);
	else if (op == OP_ZERO)
		ns = wtg_time_read1_batch(st->zfd, st->calls, &s);
	else
		ns = fileread_batch(&st->f, st->calls, &s);
	wtg_probe_end(&p, res);
	if (ns < 0) {
		wtg_table_fail(ctx->t, "%s failed: %s", op_name[op], errno ? strerror(errno) : "unexpected end of file");
		return -1;
	}
	if (op == OP_ZERO)
		st->zero_sum += s;
	if (op == OP_FILE) {
		st->file_sum += s;
		st->file_bad += s != st->file_expect;
	}
	return ns;
}

/* The round replica j + 1 begins at (rounds fall into replicas as in the rounds engine). */
static size_t rc_cut(int rounds, int j)
{
	int r = 0;
	while (r < rounds && wtg_rounds_replica(r, rounds) <= j)
		r++;
	return (size_t)r;
}

/* One round: a batch of each operation in seeded order; round -1 is a warm-up round, not recorded
 * (arm: a paired run's, 0 A or 1 B). */
static int rc_round(struct wtg_ctx *ctx, struct rc_run *st, int r, int arm)
{
	int order[NOPS] = { OP_GETPID, OP_ZERO, OP_FILE };
	wtg_shuffle_int(&ctx->rng, order, NOPS);
	st->batch_rounds++;
	for (int i = 0; i < NOPS; i++) {
		int op = order[i];
		struct wtg_probe_result res;
		double ns = rc_batch(ctx, st, op, &res);
		if (ns < 0)
			return WTG_ERR;
		if (r < 0)
			continue;
		(arm ? st->vb : st->v)[op * st->rounds + r] = ns;
		wtg_probe_accumulate(arm ? &st->probes_b[op] : &st->probes[op], &res);
		if (wtg_ctx_cancelled(ctx))
			return WTG_CANCELLED;
	}
	if (r >= 0 && arm == 0) {
		char label[48];
		snprintf(label, sizeof label, "round %d of %d", r + 1, st->rounds);
		wtg_ctx_progress(ctx, r + 1, st->rounds, label);
		/* the headline so far: the medians of the rounds run */
		double file = wtg_quantile(st->v + OP_FILE * st->rounds, (size_t)r + 1, 0.5);
		double pid = wtg_quantile(st->v + OP_GETPID * st->rounds, (size_t)r + 1, 0.5);
		if (pid > 0)
			wtg_table_sofar(ctx->t, "a 1-byte file read %.0f ns = %.2f getpids (medians of %d round%s)",
					file, file / pid, r + 1, r ? "s" : "");
	}
	return WTG_OK;
}

/* The fixed warm-up (one round, not recorded), then the rounds. When a replica ends, an interleaved
 * run's other experiments take their turn; if they measured, a warm-up round runs again. */
static int rc_measure(struct wtg_ctx *ctx, struct rc_run *st)
{
	st->start_s[0] = wtg_ctx_run_offset_s(ctx);
	int rc = rc_round(ctx, st, -1, 0);
	for (int r = 0; rc == WTG_OK && r < st->rounds; r++) {
		int j = wtg_rounds_replica(r, st->rounds);
		if (r > 0 && j != wtg_rounds_replica(r - 1, st->rounds)) {
			bool others = wtg_ctx_interleave(ctx);
			st->start_s[j] = wtg_ctx_run_offset_s(ctx);
			if (others) {
				st->interleaved++;
				rc = rc_round(ctx, st, -1, 0);
			}
		}
		/* a paired run: each arm's round, in the order drawn for it */
		bool b_first = st->vb && wtg_arms_b_first(ctx, r);
		for (int pass = 0; rc == WTG_OK && pass < (st->vb ? 2 : 1); pass++) {
			int arm = st->vb && (pass == 0) == b_first;
			if (st->vb)
				rc = wtg_arms_enter(ctx, arm);
			if (rc == WTG_OK)
				rc = rc_round(ctx, st, r, arm);
		}
	}
	return rc;
}

/* A row per operation (a paired run: arm A's, then arm B's, and each operation's pairs), then the
 * sum checks. */
static int rc_rows(struct wtg_ctx *ctx, struct rc_run *st)
{
	int first = ctx->t->nrows;
	for (int arm = 0; arm < (st->vb ? 2 : 1); arm++) {
		(void)wtg_arms_enter(ctx, arm);	/* the rows say their arm's conditions */
		for (int op = 0; op < NOPS; op++) {
			const struct wtg_value ev[] = { WTG_INT(st->calls) };
			double *v = (arm ? st->vb : st->v) + op * st->rounds;
			size_t cut[WTG_ROUNDS_REPLICAS - 1];
			for (int j = 0; j < WTG_ROUNDS_REPLICAS - 1; j++)
				cut[j] = rc_cut(st->rounds, j);
			/* the median's interval: the two-level bootstrap over the replicas */
			struct wtg_summary sb, *sm = arm ? &sb : &st->s[op];
			if (wtg_summarize_resamples(v, (size_t)st->rounds, wtg_ctx_seed(ctx, (unsigned)op), 0, sm) < 0 ||
			    wtg_replicas_ci(v, NULL, (size_t)st->rounds, cut, wtg_ctx_seed(ctx, (unsigned)op), &sm->ci_low,
					    &sm->ci_high) < 0) {
				wtg_table_fail(ctx->t, "%s: out of memory summarizing", op_name[op]);
				return WTG_ERR;
			}
			wtg_add_summary_row_arm(ctx, op_name[op], sm, v, (size_t)st->rounds,
						arm ? &st->probes_b[op] : &st->probes[op], ev, 1, arm);
			char name[64];
			snprintf(name, sizeof name, "%s%s", arm ? "B: " : "", op_name[op]);
			wtg_series_replicas_cut(ctx, name, (size_t)st->rounds, cut);
			wtg_regime_modes(ctx, name, "ns", v, (size_t)st->rounds, "rounds", true);
		}
	}
	for (int op = 0; st->vb && op < NOPS; op++)
		wtg_arms_record(ctx, first + op, "ns", st->v + op * st->rounds, st->vb + op * st->rounds,
				(size_t)st->rounds);
	wtg_table_check(ctx->t, "sum", st->file_bad == 0,
			"file reads: %d batches of %ld bytes from offset 0, each summing to %lld (from the "
			"first %ld bytes, whose sum %lld is the known prefix sum); %lld differed; total %lld",
			st->batch_rounds, st->calls, (long long)st->file_expect, st->f.reflen, (long long)st->f.refsum,
			(long long)st->file_bad, (long long)st->file_sum);
	if (st->file_bad)
		wtg_table_fail(ctx->t,
			       "%lld file batches read bytes that differ from the file's known content",
			       (long long)st->file_bad);
	wtg_table_check(ctx->t, "zero", st->zero_sum == 0, "/dev/zero reads summed to %lld (must be 0)",
			(long long)st->zero_sum);
	if (st->zero_sum)
		wtg_table_fail(ctx->t, "/dev/zero returned non-zero bytes");
	return WTG_OK;
}

static void rc_notes(struct wtg_ctx *ctx, const struct rc_run *st)
{
	const struct wtg_summary *s = st->s;
	wtg_table_note(ctx->t,
		       "each sample is one batch of %ld calls (ns per call); %d rounds, each running one "
		       "batch of every operation in an order drawn from the seeded generator (seed %llu)",
		       st->calls, st->rounds, (unsigned long long)ctx->opt->seed);
	wtg_table_note(ctx->t,
		       "warm-up (fixed before measuring): one unrecorded round of all three; the file "
		       "read is read() of 1 byte at the file offset, rewound to 0 with lseek before each "
		       "batch (outside the timing), so every batch reads the same first %ld bytes",
		       st->calls < st->f.reflen ? st->calls : st->f.reflen);
	wtg_replicas_notes(ctx, "blocks of consecutive rounds",
			   "a warm-up round again (its file batch checked too)", st->interleaved, st->start_s);
	for (int op = 0; op < NOPS; op++)
		if (fabs(s[op].drift) > 0.05)
			wtg_table_note(ctx->t,
				       "drift: %s's second-half median (%.1f ns) differs from its first-half "
				       "median (%.1f ns) by %+.1f%%: the machine changed during the run",
				       op_name[op], s[op].second_half_median, s[op].first_half_median,
				       s[op].drift * 100.0);
	wtg_table_note(ctx->t,
		       "medians: getpid %.1f ns, /dev/zero %.1f ns, file %.1f ns: the file read %s the "
		       "bare crossing by %.1f ns, and %s /dev/zero by %.1f ns",
		       s[OP_GETPID].median, s[OP_ZERO].median, s[OP_FILE].median,
		       s[OP_FILE].median >= s[OP_GETPID].median ? "exceeds" : "is below",
		       fabs(s[OP_FILE].median - s[OP_GETPID].median),
		       s[OP_FILE].median >= s[OP_ZERO].median ? "exceeds" : "is below",
		       fabs(s[OP_FILE].median - s[OP_ZERO].median));
	if (wtg_uncached_requested())
		wtg_table_note(ctx->t, "uncached I/O does not apply here: %s", wtg_exp_readcost.not_uncached);
}

/* Rounds (one batch of each operation) a run times. */
static int rounds_of(const struct wtg_options *o)
{
	return o->quick ? 40 : 120;
}

/* Calls in one batch. */
static int calls_of(const struct wtg_options *o)
{
	return o->quick ? 5000 : 20000;
}

static void readcost_runs(bool quick, char *buf, size_t len)
{
	const struct wtg_options o = { .quick = quick };
	snprintf(buf, len, "getpid, 1-byte /dev/zero read, 1-byte warm file read; %d x %d calls, shuffled rounds",
		 rounds_of(&o), calls_of(&o));
}

static int readcost_run(struct wtg_ctx *ctx)
{
	wtg_experiment_columns(&wtg_exp_readcost, ctx->t);
	struct rc_run *st = calloc(1, sizeof *st);
	if (!st) {
		wtg_table_fail(ctx->t, "out of memory");
		return WTG_ERR;
	}
	st->rounds = rounds_of(ctx->opt);
	st->calls = calls_of(ctx->opt);
	if (fileread_open(ctx, &st->f) < 0) {
		free(st);
		return WTG_ERR;
	}
	st->zfd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	st->v = malloc((size_t)NOPS * (size_t)st->rounds * sizeof *st->v);
	if (ctx->arms)
		st->vb = malloc((size_t)NOPS * (size_t)st->rounds * sizeof *st->vb);
	int rc = WTG_ERR;
	if (st->zfd < 0)
		wtg_table_fail(ctx->t, "cannot open /dev/zero: %s", strerror(errno));
	else if (!st->v || (ctx->arms && !st->vb))
		wtg_table_fail(ctx->t, "out of memory");
	else
		rc = WTG_OK;
	st->file_expect = fileread_expect(&st->f, st->calls);
	if (rc == WTG_OK && ctx->arms)
		wtg_arms_begin(ctx);
	if (rc == WTG_OK)
		rc = rc_measure(ctx, st);
	if (st->zfd >= 0)
		close(st->zfd);
	close(st->f.fd);
	if (rc == WTG_OK)
		rc = rc_rows(ctx, st);
	if (rc == WTG_OK)
		rc_notes(ctx, st);
	if (ctx->arms)
		wtg_arms_end(ctx, rc);
	free(st->vb);
	free(st->v);
	free(st);
	return rc;
}

/* compare's figure: ns per 1-byte read of the warm file, the median of batches */
static double pairing_figure(struct wtg_ctx *ctx)
{
	/* median of 11 batches of 2000 1-byte file reads: about 10 ms */
	struct fileread f;
	if (fileread_open(ctx, &f) < 0)
		return NAN;
	double v[11];
	int64_t expect = fileread_expect(&f, 2000);
	for (int i = 0; i < 11; i++) {
		int64_t sum = 0;
		v[i] = fileread_batch(&f, 2000, &sum);
		if (v[i] < 0 || sum != expect) {
			wtg_table_fail(ctx->t, "readcost: a 1-byte file read batch %s",
				       v[i] < 0 ? "failed" : "read bytes that differ from the file");
			close(f.fd);
			return NAN;
		}
	}
	close(f.fd);
	return wtg_quantile(v, WTG_ARRAY_LEN(v), 0.5);
}

/* --dry-run: one row per operation, rounds_of() batches each after one warm-up round. */
static void readcost_plan(struct wtg_plan *p)
{
	wtg_plan_labels(p, "operation", op_name, NOPS, rounds_of(p->opt), 1);
}

/* "a 1-byte file read = 1.34 getpids (1,353 ns)": what read() adds to the bare crossing. */
static int readcost_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	double gp = wtg_verdict_value(t, "operation", op_name[0], "median_ns");
	double file = wtg_verdict_value(t, "operation", op_name[2], "median_ns");
	return wtg_verdict_fmt(buf, len, isfinite(gp) && isfinite(file) && gp > 0,
			       "a 1-byte file read = %.2f getpids (%.0f ns)", file / gp, file);
}

const struct wtg_experiment wtg_exp_readcost = {
	.name = "readcost",
	.question = "What does read() add to a crossing?",
	.runs = "getpid, 1-byte /dev/zero read, 1-byte warm file read; 120 x 20000 calls, shuffled rounds",
	.runs_with = readcost_runs,
	.needs_datafile = true,
	.not_cold = "it times a read of a warm file",
	.not_uncached = "it times 1-byte reads of the warm page cache (a 1-byte read cannot use O_DIRECT)",
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_HISTOGRAM,
	.hist = { .label = "operation" },
	.headline = { { "ns per 1-byte warm file read", "operation", "1-byte file read", "median_ns", "ci_low_ns",
			"ci_high_ns", "1-byte file read", "ns", false } },
	.compare = { pairing_figure, "median_ns", 1, "ns per 1-byte read of the warm file" },
	.verdict = readcost_verdict,
	.typical_s = 11,
	.typical_quick_s = 1,
	.essay = { "a 1-byte warm-file read 304 ns = 3.3 getpids; /dev/zero 270 ns", NULL, .value = 304,
		   .why = wtg_why_readcost },
	.terms = WTG_TERMS("crossing", "getpid", "devzero", "median", "p90", "p99", "ci", "bootstrap", "drift"),
	.interleaves = true,
	.alternates = true,
	.run = readcost_run,
	.plan = readcost_plan,
};
