/* iomode.c: how the I/O experiments read the data file (the "u" condition).
 *
 * Uncached reads use O_DIRECT where the data file accepted it (df->direct_ok, probed when the file
 * was made); elsewhere (tmpfs on older kernels, some network filesystems) the file's pages are
 * dropped from the page cache before every pass instead. The request is an atomic flag the UI
 * flips; the mode in force is derived from it and the file each time it is asked for.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>

#include "wtg/conditions.h"
#include "wtg/datafile.h"

static atomic_bool uncached;
static _Atomic(const struct wtg_datafile *) cond_df;

void wtg_uncached_request(bool on)
{
	atomic_store(&uncached, on);
}

bool wtg_uncached_requested(void)
{
	return atomic_load(&uncached);
}

static atomic_bool cold;

void wtg_cold_request(void)
{
	atomic_store(&cold, true);
}

bool wtg_cold_requested(void)
{
	return atomic_load(&cold);
}

bool wtg_cold_take(void)
{
	return atomic_exchange(&cold, false);
}

void wtg_cond_set_datafile(const struct wtg_datafile *df)
{
	atomic_store(&cond_df, df);
}

/* NULL means the data file set with wtg_cond_set_datafile (which may be NULL too) */
static const struct wtg_datafile *resolve(const struct wtg_datafile *df)
{
	return df ? df : atomic_load(&cond_df);
}

enum wtg_iomode wtg_iomode_effective(const struct wtg_datafile *df)
{
	df = resolve(df);
	/* nothing to read yet: nothing but the cache is in force */
	if (!df || !atomic_load(&uncached))
		return WTG_IO_CACHED;
	return df->direct_ok ? WTG_IO_DIRECT : WTG_IO_EVICTING;
}

const char *wtg_iomode_name(enum wtg_iomode m)
{
	switch (m) {
	case WTG_IO_DIRECT:
		return "direct";
	case WTG_IO_EVICTING:
		return "evicting";
	case WTG_IO_CACHED:
		break;
	}
	return "cached";
}

int wtg_iomode_open(const struct wtg_datafile *df, bool *direct)
{
	df = resolve(df);
	*direct = false;
	if (!df) {
		errno = ENOENT;
		return -1;
	}
	bool d = wtg_iomode_effective(df) == WTG_IO_DIRECT;
	int fd = open(df->path, O_RDONLY | O_CLOEXEC | (d ? O_DIRECT : 0));
	if (fd >= 0)
		*direct = d;
	return fd;
}

void wtg_iomode_before_pass(const struct wtg_datafile *df)
{
	df = resolve(df);
	if (df && wtg_iomode_effective(df) == WTG_IO_EVICTING)
		wtg_datafile_evict(df);
}

bool wtg_cond_same(const struct wtg_cond_snapshot *a, const struct wtg_cond_snapshot *b)
{
	return a->burners == b->burners && (a->burners == 0 || a->burn_kind == b->burn_kind) &&
	       a->background == b->background && a->uncached == b->uncached;
}

void wtg_cond_snapshot(struct wtg_cond_snapshot *s, const struct wtg_datafile *df)
{
	memset(s, 0, sizeof *s);
	s->burners = wtg_burner_count();
	s->burn_kind = wtg_burner_kind();
	s->policy = wtg_policy_granted();
	s->background = wtg_policy_requested();
	s->uncached = wtg_uncached_requested();
	s->io = wtg_iomode_effective(df);
}
