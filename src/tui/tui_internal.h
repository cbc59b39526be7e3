/* tui_internal.h: shared by the dashboard's files (stub) */
#ifndef WTG_TUI_INTERNAL_H
#define WTG_TUI_INTERNAL_H
#include "wtg/tui.h"
#endif
