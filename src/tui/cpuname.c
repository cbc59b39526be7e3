/* cpuname.c: a CPU's short name for the dashboard's header, by one rule (wtg/cpuname.h). The
 * generation comes from the family/model numbers where the name does not say it (a cloud VM's
 * "AMD EPYC" or "Intel Xeon Processor"), else from the name's model number. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "wtg/cpuname.h"
#include "wtg/machine.h"
#include "wtg/util.h"

/* The value of "key<tabs>: value" on line, or NULL when the line's key is another. */
static const char *field(const char *line, const char *key)
{
	size_t n = strlen(key);
	if (strncmp(line, key, n) != 0)
		return NULL;
	const char *p = line + n;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

void wtg_cpu_id_parse(const char *cpuinfo, struct wtg_cpu_id *id)
{
	memset(id, 0, sizeof *id);
	id->family = id->model = id->stepping = id->implementer = id->part = -1;
	bool seen = false;
	for (const char *p = cpuinfo; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[256];
		snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
		p = nl ? nl + 1 : NULL;
		if (!line[0] && seen)
			break;	/* the first processor's block ends */
		const char *v;
		seen = true;
		if ((v = field(line, "model name")) != NULL)
			wtg_strlcpy(id->name, v, sizeof id->name);
		else if ((v = field(line, "vendor_id")) != NULL)
			wtg_strlcpy(id->vendor, v, sizeof id->vendor);
		else if ((v = field(line, "cpu family")) != NULL)
			id->family = atoi(v);
		else if ((v = field(line, "model")) != NULL)
			id->model = atoi(v);
		else if ((v = field(line, "stepping")) != NULL)
			id->stepping = atoi(v);
		else if ((v = field(line, "CPU implementer")) != NULL)
			id->implementer = (int)strtol(v, NULL, 0);
		else if ((v = field(line, "CPU part")) != NULL)
			id->part = (int)strtol(v, NULL, 0);
		else
			seen = seen && line[0];
	}
}

/* Intel's server generations by family 6 model: the code names Intel's own documents use. */
static const char *xeon_code(int family, int model, int stepping)
{
	static const struct {
		int model;
		const char *code;
	} gens[] = { { 0x2d, "SNB" }, { 0x3e, "IVT" }, { 0x3f, "HSX" }, { 0x4f, "BDX" }, { 0x56, "BDX" },
		     { 0x6a, "ICX" }, { 0x6c, "ICX" }, { 0x8f, "SPR" }, { 0xcf, "EMR" }, { 0xad, "GNR" },
		     { 0xae, "GNR" }, { 0xaf, "SRF" }, { 0xdd, "CWF" } };
	if (family != 6)
		return NULL;
	if (model == 0x55)	/* one model number, three generations told apart by the stepping */
		return stepping >= 10 ? "CPX" : stepping >= 5 ? "CLX" : stepping >= 0 ? "SKX" : "SKX/CLX";
	for (size_t i = 0; i < WTG_ARRAY_LEN(gens); i++)
		if (gens[i].model == model)
			return gens[i].code;
	return NULL;
}

/* Xeon Scalable's model numbers say the generation in their second digit (Platinum 8480+: 4, SPR). */
static const char *xeon_code_of_name(const char *s)
{
	static const char *const by_digit[] = { NULL, "SKX", "CLX", "ICX", "SPR", "EMR" };
	static const char *const tiers[] = { "Bronze ", "Silver ", "Gold ", "Platinum ", "Max " };
	for (size_t i = 0; i < WTG_ARRAY_LEN(tiers); i++) {
		const char *p = strstr(s, tiers[i]);
		if (!p)
			continue;
		p += strlen(tiers[i]);
		if (isdigit((unsigned char)p[0]) && isdigit((unsigned char)p[1])) {
			int g = p[1] - '0';
			return g < (int)WTG_ARRAY_LEN(by_digit) ? by_digit[g] : NULL;
		}
	}
	return NULL;
}

/* AMD's Zen generation by family (17h, 19h, 1Ah) and model. */
static const char *zen_of(int family, int model)
{
	if (family == 0x17)
		return model == 0x08 || model == 0x18 ? "Zen+" : model < 0x30 ? "Zen" : "Zen 2";
	if (family == 0x19)
		return (model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0x7f) ||
				       (model >= 0xa0 && model <= 0xaf) ?
			       "Zen 4" :
			       "Zen 3";
	if (family == 0x1a)
		return "Zen 5";
	return NULL;
}

/* EPYC's model numbers end in the generation: 7763 Zen 3, 9654 Zen 4, 9755 Zen 5. */
static const char *zen_of_name(const char *s)
{
	static const char *const gen[] = { NULL, "Zen", "Zen 2", "Zen 3", "Zen 4", "Zen 5" };
	const char *p = strstr(s, "EPYC ");
	if (!p)
		return NULL;
	p += 5;
	size_t n = 0;
	while (isdigit((unsigned char)p[n]))
		n++;
	int g = n == 4 ? p[3] - '0' : -1;
	return g > 0 && g < (int)WTG_ARRAY_LEN(gen) ? gen[g] : NULL;
}

/* arm's core by implementer and part (the MIDR fields /proc/cpuinfo shows), by machine.c's table; an
 * Apple core as its chip ("M1 Pro Firestorm": "Apple M1 Pro"). buf holds the chip's name. */
static const char *arm_core(int implementer, int part, char *buf, size_t len)
{
	const char *core = implementer >= 0 && part >= 0 ? wtg_arm_core_name((unsigned)implementer, (unsigned)part) : NULL;
	const char *space = core ? strrchr(core, ' ') : NULL;
	if (!core || implementer != 0x61 || !space)
		return core;
	snprintf(buf, len, "Apple %.*s", (int)(space - core), core);
	return buf;
}

/* Whether word (of n bytes) is filler in a model name: "CPU", "Processor", "16-Core", "Nth Gen". */
static bool filler(const char *w, size_t n)
{
	static const char *const words[] = { "CPU", "Processor", "Intel", "AMD", "Gen", "Genuine" };
	for (size_t i = 0; i < WTG_ARRAY_LEN(words); i++)
		if (n == strlen(words[i]) && strncasecmp(w, words[i], n) == 0)
			return true;
	const char *dash = memchr(w, '-', n);
	if (dash && isdigit((unsigned char)w[0]) && (!strncmp(dash, "-Core", 5) || !strncmp(dash, "-core", 5)))
		return true;	/* "96-Core", "64-Cores" */
	if (n >= 3 && isdigit((unsigned char)w[0]) && (!strncmp(w + n - 2, "th", 2) || !strncmp(w + n - 2, "nd", 2) ||
						       !strncmp(w + n - 2, "rd", 2) || !strncmp(w + n - 2, "st", 2)))
		return true;	/* "12th" (Gen) */
	return false;
}

/* The name without trademarks, its clock, its graphics and filler words, in single spaces. */
static void trim_name(const char *name, char *out, size_t len)
{
	char s[128];
	size_t k = 0;
	for (const char *p = name; *p && k + 1 < sizeof s;) {
		static const char *const marks[] = { "(R)", "(TM)" };
		bool mark = false;
		for (size_t i = 0; i < WTG_ARRAY_LEN(marks) && !mark; i++)
			if (strncasecmp(p, marks[i], strlen(marks[i])) == 0) {
				p += strlen(marks[i]);
				mark = true;
			}
		if (!mark)
			s[k++] = *p++;
	}
	s[k] = '\0';
	char *cut = strstr(s, " @");
	if (cut)
		*cut = '\0';
	if ((cut = strstr(s, " with ")) != NULL)	/* "with Radeon Graphics" */
		*cut = '\0';
	size_t o = 0;
	out[0] = '\0';
	for (const char *p = s; *p;) {
		while (*p == ' ' || *p == '\t')
			p++;
		size_t n = strcspn(p, " \t");
		if (n && !filler(p, n) && o + n + 2 < len)
			o += (size_t)snprintf(out + o, len - o, "%s%.*s", o ? " " : "", (int)n, p);
		p += n;
	}
}

void wtg_cpu_short_name(const struct wtg_cpu_id *id, char *buf, size_t len)
{
	char t[128];
	trim_name(id->name, t, sizeof t);
	bool generic = !t[0] || strncmp(t, "ARMv", 4) == 0;
	char chip[64];
	const char *core = arm_core(id->implementer, id->part, chip, sizeof chip), *code;
	if (core && generic) {
		snprintf(buf, len, "%s", core);
	} else if (strcasestr(t, "Xeon") &&
		   ((code = xeon_code(id->family, id->model, id->stepping)) || (code = xeon_code_of_name(t)))) {
		snprintf(buf, len, "Xeon (%s)", code);
	} else if (strcasestr(t, "EPYC") && ((code = zen_of(id->family, id->model)) || (code = zen_of_name(t)))) {
		snprintf(buf, len, "EPYC %s", code);
	} else if (strstr(t, "Core ") && !strcasestr(t, "Xeon")) {
		snprintf(buf, len, "%s", strstr(t, "Core"));	/* "12th Gen Intel Core i7-1260P": the Core on */
	} else if (t[0] && !generic) {
		snprintf(buf, len, "%s", t);
	} else if (id->implementer >= 0 && wtg_arm_implementer_name((unsigned)id->implementer)) {
		snprintf(buf, len, "%s part 0x%03x", wtg_arm_implementer_name((unsigned)id->implementer),
			 id->part < 0 ? 0 : id->part);
	} else {
		snprintf(buf, len, "%s", t[0] ? t : id->name[0] ? id->name : "unknown CPU");
	}
}

const char *wtg_cpu_short_this(void)
{
	static char name[128];
	if (!name[0]) {
		char *text = wtg_read_text("/proc/cpuinfo");
		struct wtg_cpu_id id;
		wtg_cpu_id_parse(text ? text : "", &id);
		free(text);
		wtg_cpu_short_name(&id, name, sizeof name);
	}
	return name;
}
