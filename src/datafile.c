/* datafile.c (stub) */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "wtg/datafile.h"
int wtg_datafile_create(struct wtg_datafile *df, const char *dir, uint64_t size, uint64_t seed,
			char *err, size_t errlen)
{
	(void)df; (void)dir; (void)size; (void)seed;
	snprintf(err, errlen, "not built yet");
	return -1;
}
int wtg_datafile_use(struct wtg_datafile *df, const char *path, char *err, size_t errlen)
{
	(void)df; (void)path;
	snprintf(err, errlen, "not built yet");
	return -1;
}
int64_t wtg_datafile_prefix_sum(const struct wtg_datafile *df, uint64_t bytes)
{
	(void)df; (void)bytes;
	return -1;
}
int wtg_datafile_evict(const struct wtg_datafile *df) { (void)df; return -1; }
int64_t wtg_datafile_resident_pages(const struct wtg_datafile *df) { (void)df; return -1; }
void wtg_datafile_remove(struct wtg_datafile *df)
{
	if (df->owned && df->path[0])
		unlink(df->path);
	df->owned = false;
}
void wtg_datafile_free(struct wtg_datafile *df) { (void)df; }
void wtg_datafile_emergency_remove(void) {}
