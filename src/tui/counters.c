/* counters.c (stub) */
#include "config.h"
#include "tui_internal.h"
