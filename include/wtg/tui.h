/* tui.h: the live dashboard. */
#ifndef WTG_TUI_H
#define WTG_TUI_H

#include "wtg/session.h"

/* Runs the dashboard until the user quits; restores the terminal on every path.
 * Returns the process exit status. */
int wtg_tui_main(struct wtg_session *s);
struct wtg_loaded;
/* The dashboard on n saved runs (--load): they are drawn from the start, and nothing measures
 * until a tab is run. */
int wtg_tui_main_loaded(struct wtg_session *s, struct wtg_loaded *l, int n);

#endif
