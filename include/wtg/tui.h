/* tui.h: the live dashboard. */
#ifndef WTG_TUI_H
#define WTG_TUI_H

#include "wtg/session.h"

/* Runs the dashboard until the user quits; restores the terminal on every path.
 * Returns the process exit status. */
int wtg_tui_main(struct wtg_session *s);

#endif
