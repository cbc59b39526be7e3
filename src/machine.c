/* machine.c: the machine block (CPU, pages, kernel, clock source, hypervisor, THP). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "wtg/machine.h"
#include "wtg/probe.h"
#include "wtg/util.h"

static void read_line(const char *path, char *buf, size_t len)
{
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

void wtg_machine_read(struct wtg_machine *m)
{
	memset(m, 0, sizeof *m);
	wtg_strlcpy(m->cpu_model, "unknown CPU", sizeof m->cpu_model);
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (f) {
		char line[4096];
		bool got_model = false;
		while (fgets(line, sizeof line, f)) {
			char *colon = strchr(line, ':');
			if (!colon)
				continue;
			char *val = colon + 1;
			while (*val == ' ' || *val == '\t')
				val++;
			val[strcspn(val, "\n")] = '\0';
			if (!got_model && (strncmp(line, "model name", 10) == 0 || strncmp(line, "Model", 5) == 0)) {
				wtg_strlcpy(m->cpu_model, val, sizeof m->cpu_model);
				got_model = true;
			} else if (strncmp(line, "flags", 5) == 0 && strstr(val, " hypervisor")) {
				m->hypervisor = true;
			}
		}
		fclose(f);
	}
	m->cpus = wtg_online_cpus();
	m->page_size = sysconf(_SC_PAGESIZE);
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(m->kernel, sizeof m->kernel, "%s %s %s", u.sysname, u.release, u.machine);
	read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", m->clocksource,
		  sizeof m->clocksource);
	if (!m->clocksource[0])
		wtg_strlcpy(m->clocksource, "unknown", sizeof m->clocksource);
	char thp[128];
	read_line("/sys/kernel/mm/transparent_hugepage/enabled", thp, sizeof thp);
	char *l = strchr(thp, '['), *r = l ? strchr(l, ']') : NULL;
	if (l && r) {
		*r = '\0';
		wtg_strlcpy(m->thp, l + 1, sizeof m->thp);
	} else {
		wtg_strlcpy(m->thp, thp[0] ? thp : "unknown", sizeof m->thp);
	}
	m->hw_counters = wtg_probe_have_hw_counters();
}
