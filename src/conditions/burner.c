/* burner.c (stub) */
#include "config.h"
#include "wtg/conditions.h"
int wtg_burner_set(int n) { (void)n; return 0; }
int wtg_burner_count(void) { return 0; }
uint64_t wtg_burner_work(void) { return 0; }
void wtg_burner_stop_all(void) {}
