/* test_machine.c: the cache hierarchy read from a sysfs tree (WTG_SYSFS_ROOT) and from this machine. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "wtg/machine.h"

static char root[64];

static void put(int idx, const char *file, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpu0/cache/index%d", root, idx);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
	if (system(cmd) != 0)
		return;
	snprintf(path + strlen(path), sizeof path - strlen(path), "/%s", file);
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", text);
		fclose(f);
	}
}

static void cache(int idx, const char *level, const char *type, const char *size, const char *shared)
{
	put(idx, "level", level);
	put(idx, "type", type);
	put(idx, "size", size);
	put(idx, "coherency_line_size", "64");
	put(idx, "shared_cpu_list", shared);
}

int main(void)
{
	snprintf(root, sizeof root, "/tmp/wtg-test-sysfs-XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	/* a two-socket server's CPU 0: 48K L1d, 32K L1i, 2M L2, 105M L3 shared by 0-47,96-143 */
	cache(0, "1", "Data", "48K", "0,96");
	cache(1, "1", "Instruction", "32K", "0,96");
	cache(2, "2", "Unified", "2048K", "0,96");
	cache(3, "3", "Unified", "107520K", "0-47,96-143");
	struct wtg_machine m;
	memset(&m, 0, sizeof m);
	wtg_machine_read_caches(&m, root);
	CHECK(m.ncaches == 4);
	CHECK_STR(m.caches_source, "sysfs");
	CHECK(wtg_machine_cache_size(&m, 1) == 48 * 1024);	/* the data cache, not the instruction one */
	CHECK(wtg_machine_cache_size(&m, 2) == 2048 * 1024);
	CHECK(wtg_machine_cache_size(&m, 3) == 107520ull * 1024);
	CHECK(wtg_machine_cache_size(&m, 4) == 0);
	const struct wtg_cache *llc = wtg_machine_llc(&m);
	CHECK(llc && llc->level == 3 && llc->line == 64);
	CHECK(llc && strcmp(llc->shared_cpus, "0-47,96-143") == 0);
	CHECK_STR(m.caches[1].type, "Instruction");

	/* a fixture without caches reports none rather than this machine's */
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
	CHECK(mkdir(root, 0700) == 0);
	wtg_machine_read_caches(&m, root);
	CHECK(m.ncaches == 0 && wtg_machine_llc(&m) == NULL);
	CHECK_STR(m.caches_source, "none");
	rmdir(root);

	/* this machine: sysfs or the C library's cpuid reading; L1 data below L2 below the LLC */
	wtg_machine_read_caches(&m, NULL);
	if (m.ncaches > 0) {
		uint64_t l1 = wtg_machine_cache_size(&m, 1), l2 = wtg_machine_cache_size(&m, 2);
		CHECK(l1 >= 4096);
		CHECK(l2 == 0 || l2 > l1);
		CHECK(wtg_machine_llc(&m)->size >= l1);
	}
	return unit_done("test_machine");
}
