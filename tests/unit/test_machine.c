/* test_machine.c: the cache hierarchy read from a sysfs tree (WTG_SYSFS_ROOT) and from this machine. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "wtg/machine.h"
#include "wtg/util.h"

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

/* /proc/cpuinfo as arm64 and x86-64 kernels write it: the core's name from implementer and part
 * (big and little cores both), CPU 0's numbers, the features the byte sums choose by. */
static void check_cpuinfo(void)
{
	static const char n1[] = "processor\t: 0\nBogoMIPS\t: 50.00\n"
		"Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp ssbs\n"
		"CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n\n"
		"processor\t: 1\nBogoMIPS\t: 50.00\n"
		"Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp ssbs\n"
		"CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n";
	static const char biglittle[] = "processor\t: 0\nFeatures\t: fp asimd asimddp sve sve2 i8mm\n"
		"CPU implementer\t: 0x41\nCPU variant\t: 0x2\nCPU part\t: 0xd05\nCPU revision\t: 0\n\n"
		"processor\t: 4\nFeatures\t: fp asimd asimddp sve sve2 i8mm\n"
		"CPU implementer\t: 0x41\nCPU variant\t: 0x4\nCPU part\t: 0xd0b\nCPU revision\t: 1\n\n"
		"processor\t: 5\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\nCPU part\t: 0xd0b\n\n"
		"processor\t: 6\nCPU implementer\t: 0x99\nCPU part\t: 0x123\n";
	static const char x86[] = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 97\n"
		"model name\t: AMD Ryzen 9 7950X 16-Core Processor\nstepping\t: 2\n"
		"flags\t\t: fpu sse sse2 avx avx2 avx512f avx512bw avx512_vnni hypervisor\n";
	struct wtg_machine m;
	char text[2048];

	memset(&m, 0, sizeof m);
	wtg_strlcpy(text, n1, sizeof text);
	wtg_machine_parse_cpuinfo(&m, text);
	CHECK_STR(m.cpu_model, "Arm Neoverse N1");
	CHECK_STR(m.cpu_id, "implementer 0x41 part 0xd0c variant 0x3 revision 1");
	CHECK_STR(m.cpu_features, "asimd asimddp");	/* asimdhp and asimdrdm are other words */
	CHECK(!m.hypervisor);

	memset(&m, 0, sizeof m);
	wtg_strlcpy(text, biglittle, sizeof text);
	wtg_machine_parse_cpuinfo(&m, text);
	CHECK_STR(m.cpu_model, "Arm Cortex-A55 + Arm Cortex-A76 + implementer 0x99 part 0x123");
	CHECK_STR(m.cpu_id, "implementer 0x41 part 0xd05 variant 0x2 revision 0");	/* CPU 0's */
	CHECK_STR(m.cpu_features, "asimd asimddp sve sve2 i8mm");

	memset(&m, 0, sizeof m);
	wtg_strlcpy(text, x86, sizeof text);
	wtg_machine_parse_cpuinfo(&m, text);
	CHECK_STR(m.cpu_model, "AMD Ryzen 9 7950X 16-Core Processor");
	CHECK_STR(m.cpu_id, "family 25 model 97 stepping 2");
	CHECK_STR(m.cpu_features, "sse2 avx2 avx512bw avx512_vnni");
	CHECK(m.hypervisor);

	CHECK_STR(wtg_arm_core_name(0x41, 0xd4f), "Neoverse V2");
	CHECK(wtg_arm_core_name(0x41, 0xfff) == NULL);
	CHECK_STR(wtg_arm_implementer_name(0x61), "Apple");
	CHECK(wtg_arm_implementer_name(0x00) == NULL);
}

int main(void)
{
	check_cpuinfo();
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
