/* arms.h: what the engine knows of a paired run (--versus, wtg/paired.h): the changed condition,
 * the conditions of each arm and the arms' bookkeeping a run carries (src/engine/arms.c). The
 * rounds that alternate the arms and their statistics are the experiments' (src/experiments/paired.c). */
#ifndef WTG_ARMS_H
#define WTG_ARMS_H

#include <stdbool.h>
#include <stddef.h>

#include "wtg/conditions.h"

struct wtg_experiment;

enum wtg_versus_cond { WTG_VS_NONE = 0, WTG_VS_SAME, WTG_VS_BURN, WTG_VS_BACKGROUND, WTG_VS_UNCACHED, WTG_VS_COLD };

/* The changed condition of arm B. */
struct wtg_versus {
	enum wtg_versus_cond cond;
	int burn;			/* WTG_VS_BURN: burners in arm B */
	enum wtg_burn_kind burn_kind;
};

/* What --versus accepts, for its error. */
#define WTG_VERSUS_CHOICES "same, burn[=N][:spin|stream], background, uncached, cold"
/* The verdict threshold of a paired figure: no change only inside 1 +- this. */
#define WTG_PAIRED_THRESHOLD 0.10
/* After burners start or resume, an arm's samples wait until every burner reports a batch of its
 * steady work done (wtg_burner_going), at most this long; then the arm goes on and the run says so. */
#define WTG_PAIRED_SETTLE_MAX_MS 1000
/* A switch's typical wait for that report, for the plan's time. */
#define WTG_PAIRED_SETTLE_MS 2
/* The rounds of a paired row in the rounds engine (rounds.h: WTG_ROUNDS_MIN), for the plan's time */
#define WTG_PAIRED_ROUNDS 15

/* Whether experiment e can run paired under v; false with the reason in why ("tail sets burners
 * itself"). */
bool wtg_versus_applies(const struct wtg_experiment *e, const struct wtg_versus *v, char *why, size_t len);

/* The conditions of one arm. */
struct wtg_arm_state {
	int burn;			/* burners, 0 none */
	enum wtg_burn_kind kind;
	bool background, uncached, cold;
};

/* A run's arms (ctx->arms): the condition, each arm's conditions, the order per round. */
struct wtg_arms {
	struct wtg_versus vs;
	/* st[0] arm A, st[1] arm B; preset: both set by the caller (the dashboard's rerun against the
	 * conditions the tab last ran under), else arm A is the conditions found at the start and arm B
	 * those with vs applied */
	struct wtg_arm_state st[2];
	bool preset;
	int arm;			/* the arm in force: 0 A, 1 B */
	bool used;			/* a design alternated (else the run says it could not) */
	double *order;			/* per round: 1 when B ran first */
	size_t nrounds, caprounds;
	int col;			/* the table's "arm" column, -1 before wtg_arms_begin */
	int policy_bad;			/* rounds whose measuring thread did not get the arm's policy */
	/* the thread that switches the arms measures too: it applies the policy to itself (else
	 * each measurement starts a fresh thread that applies the request, as compare does) */
	bool apply_self;
	/* the burners' settles: how many, their total and longest wait (ms), and those that reached
	 * WTG_PAIRED_SETTLE_MAX_MS before every burner reported */
	int settles, settle_late;
	double settle_ms, settle_max_ms;
};

/* The conditions in force now (cold: as given). */
void wtg_arm_state_now(struct wtg_arm_state *st, bool cold);
/* The arm order's memory freed. */
void wtg_arms_free(struct wtg_arms *a);

#endif
