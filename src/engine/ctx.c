/* ctx.c: the context helpers every experiment calls between batches (cancel, progress). */
#include "config.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "wtg/conditions.h"
#include "wtg/experiment.h"
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

void wtg_ctx_work(struct wtg_ctx *ctx, double done, double total)
{
	wtg_table_work(ctx->t, done, total);
}
