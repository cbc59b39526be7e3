/* syscall.c: What does one kernel crossing cost? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_syscall = {
	.name = "syscall",
	.question = "What does one kernel crossing cost?",
	.runs = "raw syscall(SYS_getpid) in batches of 1..10000 calls, 200 batches each; median and p99 ns per call",
	.view = WTG_VIEW_SWEEP,
	.needs_datafile = false,
	.run = NULL,
};
