/* ctx.c: the context helpers every experiment calls between batches (cancel, progress). */
#include "config.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "wtg/conditions.h"
#include "wtg/ctx.h"
#include "wtg/experiment.h"
#include "wtg/relay.h"
#include "wtg/table.h"
#include "wtg/util.h"

bool wtg_ctx_cancelled(struct wtg_ctx *ctx)
{
	if (ctx->heartbeat)
		atomic_store(ctx->heartbeat, wtg_now_ns());
	wtg_policy_apply_self();
	return ctx->cancel && atomic_load(ctx->cancel);
}

void wtg_ctx_progress(struct wtg_ctx *ctx, int step, int nsteps, const char *label)
{
	if (ctx->heartbeat)
		atomic_store(ctx->heartbeat, wtg_now_ns());
	wtg_table_progress(ctx->t, step, nsteps, label);
}

bool wtg_ctx_interleave(struct wtg_ctx *ctx)
{
	if (!ctx->relay || (ctx->cancel && atomic_load(ctx->cancel)))
		return false;
	return wtg_relay_pass(ctx->relay, ctx->relay_slot);
}

double wtg_ctx_run_offset_s(const struct wtg_ctx *ctx)
{
	if (!ctx->relay)
		return 0;
	struct wtg_relay *r = ctx->relay;
	pthread_mutex_lock(&r->lock);
	int64_t start = r->start_ns;
	pthread_mutex_unlock(&r->lock);
	return start > 0 ? (double)(wtg_now_ns() - start) / 1e9 : 0;
}

void wtg_ctx_work(struct wtg_ctx *ctx, double done, double total)
{
	wtg_table_work(ctx->t, done, total);
}
