/* loads.c: the --load list grows without a bound, a folder given to --load stands for the reports
 * in it, and -o FOLDER names a collected report after its host and time (wtg/fleet.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "wtg/fleet.h"
#include "wtg/report.h"
#include "wtg/util.h"

/* Room for n more loads. */
static int loads_room(struct wtg_options *o, size_t n, size_t *cap)
{
	if ((size_t)o->nloads + n <= *cap)
		return 0;
	size_t want = *cap ? *cap : 16;
	while (want < (size_t)o->nloads + n)
		want *= 2;
	const char **p = realloc(o->loads, want * sizeof *p);
	if (!p)
		return -1;
	o->loads = p;
	*cap = want;
	return 0;
}

static size_t loads_cap;

int wtg_loads_add(struct wtg_options *o, const char *arg)
{
	if (o->nloads == 0)
		loads_cap = 0;	/* a new command line (the options are cleared, the old array kept) */
	if (loads_room(o, 1, &loads_cap) < 0)
		return -1;
	o->loads[o->nloads++] = arg;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.json files in dir (dot names left out), sorted, as "dir/name" strings into *out. Their
 * number, or -1 with errno. */
static int folder_reports(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	char **v = NULL;
	size_t n = 0, cap = 0;
	size_t dl = strlen(dir);
	bool slash = dl && dir[dl - 1] == '/';
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		size_t nl = strlen(de->d_name);
		if (de->d_name[0] == '.' || nl < 6 || strcmp(de->d_name + nl - 5, ".json") != 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **p = realloc(v, cap * sizeof *p);
			if (!p)
				goto nomem;
			v = p;
		}
		char *path = malloc(dl + nl + 2);
		if (!path)
			goto nomem;
		snprintf(path, dl + nl + 2, "%s%s%s", dir, slash ? "" : "/", de->d_name);
		v[n++] = path;
	}
	closedir(d);
	if (n > 1)
		qsort(v, n, sizeof *v, by_name);
	*out = v;
	return (int)n;
nomem:
	closedir(d);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	errno = ENOMEM;
	return -1;
}

/* The folders' counts, said once the command line is known to be good (wtg_loads_say). */
static char counted[4096];

void wtg_loads_say(void)
{
	fputs(counted, stderr);
	counted[0] = '\0';
}

int wtg_loads_expand(struct wtg_options *o)
{
	const char **given = o->loads;
	int ngiven = o->nloads;
	struct stat st;
	bool any = false;
	for (int i = 0; i < ngiven && !any; i++)
		any = stat(given[i], &st) == 0 && S_ISDIR(st.st_mode);
	if (!any)
		return 0;
	o->loads = NULL;
	o->nloads = 0;
	size_t cap = 0;
	for (int i = 0; i < ngiven; i++) {
		if (stat(given[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
			if (loads_room(o, 1, &cap) < 0)
				return wtg_usage_error("--load: out of memory");
			o->loads[o->nloads++] = given[i];
			continue;
		}
		char **files = NULL;
		int n = folder_reports(given[i], &files);
		if (n < 0)
			return wtg_usage_error("--load '%s': %s", given[i], strerror(errno));
		if (n == 0) {
			free(files);
			return wtg_usage_error("--load '%s': a folder without any .json report", given[i]);
		}
		if (loads_room(o, (size_t)n, &cap) < 0)
			return wtg_usage_error("--load: out of memory");
		for (int k = 0; k < n; k++)
			o->loads[o->nloads++] = files[k];	/* kept until exit, as the command line is */
		free(files);
		char shown[512];
		wtg_escape(shown, sizeof shown, given[i]);
		size_t k = strlen(counted);
		snprintf(counted + k, sizeof counted - k, "wtg: --load=%s: %d report%s\n", shown, n, n == 1 ? "" : "s");
	}
	free(given);
	loads_cap = cap;
	return 0;
}

bool wtg_loads_summary(const struct wtg_options *o)
{
	return o->nloads > 0 && (o->summary || o->nloads > WTG_MAX_LOAD_FILES);
}

/* name (NULL: the host name) as a file name takes it: letters, digits, '.', '-' and '_', others as
 * '_', at most 64 bytes. */
static void name_for_file(const char *name, char *buf, size_t len)
{
	char host[256] = "";
	if (name)
		wtg_strlcpy(host, name, sizeof host);
	else if (gethostname(host, sizeof host - 1) != 0 || !host[0])
		wtg_strlcpy(host, "host", sizeof host);
	host[sizeof host - 1] = '\0';
	size_t k = 0;
	for (const char *p = host; *p && k + 1 < len && k < 64; p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			  (c == '.' && k > 0) || c == '-' || c == '_';
		buf[k++] = ok ? c : '_';
	}
	buf[k] = '\0';
}

/* The collected reports' names: where they are written, and their stem (without "-N.json"). */
static char collected[WTG_MAX_OUTPUTS][4096], stems[WTG_MAX_OUTPUTS][4096];
static int ncollected;

/* stem.json, else stem-2.json, stem-3.json ..., the first that does not exist, into buf. */
static int free_name(const char *stem, int from, char *buf, size_t len)
{
	struct stat st;
	for (int k = from; k < 10000; k++) {
		char suffix[16] = "";
		if (k > 1)
			snprintf(suffix, sizeof suffix, "-%d", k);
		int w = snprintf(buf, len, "%s%s.json", stem, suffix);
		if (w < 0 || (size_t)w >= len)
			return -1;
		if (lstat(buf, &st) != 0 && errno == ENOENT)
			return k;
	}
	return -1;
}

const char *wtg_collect_name(const char *folder, const char *name)
{
	char host[80], when[32];
	name_for_file(name, host, sizeof host);
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(when, sizeof when, "%Y%m%d-%H%M%S", &tm);
	size_t fl = strlen(folder);
	if (ncollected == WTG_MAX_OUTPUTS)
		return NULL;
	char *stem = stems[ncollected], *buf = collected[ncollected];
	int w = snprintf(stem, sizeof stems[0], "%s%s%s-%s", folder, fl && folder[fl - 1] == '/' ? "" : "/", host, when);
	if (w < 0 || (size_t)w + 16 >= sizeof stems[0] || free_name(stem, 1, buf, sizeof collected[0]) < 0)
		return NULL;
	ncollected++;
	return buf;
}

int wtg_collect_save(const char *path, enum wtg_format fmt, struct wtg_session *s, const bool *which, char *err,
		     size_t errlen)
{
	int slot = -1;
	for (int i = 0; i < ncollected; i++)
		if (collected[i] == path)
			slot = i;
	if (slot < 0)
		return wtg_report_save_new(path, fmt, s, which, NULL, 0, err, errlen);
	for (int k = 2;; k++) {
		int rc = wtg_report_save_new(collected[slot], fmt, s, which, NULL, 0, err, errlen);
		if (rc == 0 || errno != EEXIST)
			return rc;
		/* another wtg took the name while this one ran: the next free one */
		char next[sizeof collected[0]];
		if ((k = free_name(stems[slot], k, next, sizeof next)) < 0) {
			errno = EEXIST;
			return rc;
		}
		memcpy(collected[slot], next, sizeof next);
	}
}
