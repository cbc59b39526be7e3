/* iomode.c (stub) */
#include "config.h"
#include <fcntl.h>
#include <string.h>
#include "wtg/conditions.h"
#include "wtg/datafile.h"
void wtg_uncached_request(bool on) { (void)on; }
bool wtg_uncached_requested(void) { return false; }
enum wtg_iomode wtg_iomode_effective(const struct wtg_datafile *df) { (void)df; return WTG_IO_CACHED; }
const char *wtg_iomode_name(enum wtg_iomode m) { return m == WTG_IO_DIRECT ? "direct" : m == WTG_IO_EVICTING ? "evicting" : "cached"; }
int wtg_iomode_open(const struct wtg_datafile *df, bool *direct) { *direct = false; return open(df->path, O_RDONLY | O_CLOEXEC); }
void wtg_iomode_before_pass(const struct wtg_datafile *df) { (void)df; }
void wtg_cond_set_datafile(const struct wtg_datafile *df) { (void)df; }
void wtg_cond_snapshot(struct wtg_cond_snapshot *s, const struct wtg_datafile *df) { (void)df; memset(s, 0, sizeof *s); }
