/* policy.c (stub) */
#include "config.h"
#include "wtg/conditions.h"
void wtg_policy_request(bool background) { (void)background; }
bool wtg_policy_requested(void) { return false; }
int wtg_policy_apply_self(void) { return 0; }
void wtg_policy_unregister_self(void) {}
int wtg_policy_granted(void) { return 0; }
void wtg_policy_rescue(void) {}
