/* faultbase.h: the child process faultbase measures in (src/experiments/faultbase.c). */
#ifndef WTG_FAULTBASE_H
#define WTG_FAULTBASE_H

/* The hidden child mode of faultbase (wtg --child=MODE FILE): exit, map, or sum. Returns the exit status. */
int wtg_faultbase_child(const char *mode, const char *path);

#endif
