/* test_cpuname.c: the header's short CPU names over a table of real /proc/cpuinfo first blocks:
 * Xeon by its code name (from the family/model numbers, else the model number), EPYC by its Zen
 * generation (a cloud VM's bare "AMD EPYC" by its family), Core and Ryzen by their model, arm by
 * implementer and part, anything else trimmed of trademarks, clock and filler words. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "wtg/cpuname.h"

static const struct {
	const char *cpuinfo;
	const char *want;
} cases[] = {
	/* Intel servers: the numbers say the generation */
	{ "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n"
	  "model name\t: Intel(R) Xeon(R) Platinum 8480+\nstepping\t: 8\n",
	  "Xeon (SPR)" },
	{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 207\n"
	  "model name\t: INTEL(R) XEON(R) PLATINUM 8581C CPU @ 2.30GHz\nstepping\t: 2\n",
	  "Xeon (EMR)" },
	{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 207\n"
	  "model name\t: Intel(R) Xeon(R) Platinum 8592+\nstepping\t: 2\n",
	  "Xeon (EMR)" },
	{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
	  "model name\t: Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz\nstepping\t: 7\n",
	  "Xeon (CLX)" },
	{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
	  "model name\t: Intel(R) Xeon(R) Platinum 8175M CPU @ 2.50GHz\nstepping\t: 4\n",
	  "Xeon (SKX)" },
	{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 106\n"
	  "model name\t: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz\nstepping\t: 6\n",
	  "Xeon (ICX)" },
	{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 79\n"
	  "model name\t: Intel(R) Xeon(R) CPU E5-2686 v4 @ 2.30GHz\nstepping\t: 1\n",
	  "Xeon (BDX)" },
	/* a VM's generic name: the family/model numbers alone say it */
	{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n"
	  "model name\t: Intel Xeon Processor (SapphireRapids)\nstepping\t: 4\n",
	  "Xeon (SPR)" },
	/* the name's model number when the numbers are unknown (a masked model) */
	{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 250\n"
	  "model name\t: Intel(R) Xeon(R) Gold 5418Y\n",
	  "Xeon (SPR)" },
	/* AMD EPYC: Zen by family 19h/1Ah, else by the name's last digit */
	{ "vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC 9654 96-Core Processor\n",
	  "EPYC Zen 4" },
	{ "vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 160\nmodel name\t: AMD EPYC 9754 128-Core Processor\n",
	  "EPYC Zen 4" },
	{ "vendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: AMD EPYC 9755 128-Core Processor\n",
	  "EPYC Zen 5" },
	{ "vendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: AMD EPYC\n", "EPYC Zen 5" },
	{ "vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nmodel name\t: AMD EPYC 7763 64-Core Processor\n",
	  "EPYC Zen 3" },
	{ "vendor_id\t: AuthenticAMD\ncpu family\t: 23\nmodel\t\t: 49\nmodel name\t: AMD EPYC 7R32\n", "EPYC Zen 2" },
	{ "vendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9475F 48-Core Processor\n", "EPYC Zen 5" },
	/* desktops and laptops: the model is the name */
	{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 154\nmodel name\t: 12th Gen Intel(R) Core(TM) i7-1260P\n",
	  "Core i7-1260P" },
	{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 142\n"
	  "model name\t: Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz\n",
	  "Core i7-8650U" },
	{ "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 170\nmodel name\t: Intel(R) Core(TM) Ultra 7 155H\n",
	  "Core Ultra 7 155H" },
	{ "vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 97\nmodel name\t: AMD Ryzen 9 7950X 16-Core Processor\n",
	  "Ryzen 9 7950X" },
	{ "vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 80\n"
	  "model name\t: AMD Ryzen 7 PRO 5850U with Radeon Graphics\n",
	  "Ryzen 7 PRO 5850U" },
	/* arm: implementer and part where the name is missing or generic */
	{ "processor\t: 0\nBogoMIPS\t: 48.00\nCPU implementer\t: 0x61\nCPU architecture: 8\nCPU variant\t: 0x1\n"
	  "CPU part\t: 0x022\nCPU revision\t: 1\n",
	  "Apple M1" },
	{ "processor\t: 0\nBogoMIPS\t: 243.75\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xd0c\n", "Neoverse N1" },
	{ "processor\t: 0\nBogoMIPS\t: 2100.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd4f\n", "Neoverse V2" },
	{ "processor\t: 0\nmodel name\t: ARMv7 Processor rev 3 (v7l)\nCPU implementer\t: 0x41\nCPU part\t: 0xd08\n",
	  "Cortex-A72" },
	{ "processor\t: 0\nCPU implementer\t: 0x61\nCPU part\t: 0x0ff\n", "Apple part 0x0ff" },
	/* unknown: trimmed, never empty */
	{ "vendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Celeron(R) N4020 CPU @ 1.10GHz\n", "Celeron N4020" },
	{ "vendor_id\t: AuthenticAMD\ncpu family\t: 16\nmodel name\t: AMD Opteron(tm) Processor 6276\n", "Opteron 6276" },
	{ "model name\t: QEMU Virtual CPU version 2.5+\n", "QEMU Virtual version 2.5+" },
	{ "processor\t: 0\n", "unknown CPU" },
	{ "", "unknown CPU" },
};

/* Only the first processor's block is read: a later one's name does not leak in. */
static void first_block(void)
{
	struct wtg_cpu_id id;
	wtg_cpu_id_parse("processor\t: 0\nmodel name\t: Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz\n\n"
			 "processor\t: 1\nmodel name\t: something else\nmodel\t\t: 99\n",
			 &id);
	CHECK_STR(id.name, "Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz");
	CHECK(id.model == -1);
	CHECK(id.family == -1);
}

int main(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct wtg_cpu_id id;
		char got[128];
		wtg_cpu_id_parse(cases[i].cpuinfo, &id);
		wtg_cpu_short_name(&id, got, sizeof got);
		if (strcmp(got, cases[i].want) != 0)
			unit_diag("case %zu: %s", i, cases[i].cpuinfo);
		CHECK_STR(got, cases[i].want);
	}
	first_block();
	/* a buffer too small still ends in a terminated string */
	struct wtg_cpu_id id;
	char small[6];
	wtg_cpu_id_parse(cases[0].cpuinfo, &id);
	wtg_cpu_short_name(&id, small, sizeof small);
	CHECK(strlen(small) == 5);
	CHECK(wtg_cpu_short_this()[0] != '\0');
	return unit_done("test_cpuname");
}
