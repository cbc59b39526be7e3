/* test_readers.c: every file of the fuzz corpus (tests/fuzz/corpus) read by both readers of saved
 * runs, the streaming one and the reference (jansson's whole tree): they agree on each, the same
 * error line or the same experiments, rows and cells (tests/fuzz/readers.c, the comparison the fuzz
 * target makes). One TAP line per file, so the readers are compared on every build, not only where
 * clang's libFuzzer is. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fuzz/readers.h"
#include "unit.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The whole file in a malloc'd buffer (*len bytes), or NULL. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	} else if (buf) {
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

static void test_one(const char *dir, const char *file, int *nloaded, int *nreplicated)
{
	char path[8192], what[512];
	size_t len = 0;
	int loaded = 0, runs = 0;
	snprintf(path, sizeof path, "%s/%s", dir, file);
	char *buf = slurp(path, &len);
	const char *why = buf ? wtg_readers_differ(buf, len, file, &loaded) : "cannot read the file";
	*nloaded += loaded;
	snprintf(what, sizeof what, "corpus/%s (%zu bytes, %s): the two readers agree%s%s", file, len,
		 loaded ? "loads" : "refused", why ? ": " : "", why ? why : "");
	unit_result(why == NULL, __func__, __FILE__, __LINE__, what);
	/* as --load reads it: a report is one run, a --replicate document its runs, else one line */
	why = buf ? wtg_runs_check(buf, len, file, &runs) : "cannot read the file";
	snprintf(what, sizeof what, "corpus/%s as --load reads it: %d run%s%s%s", file, runs, runs == 1 ? "" : "s",
		 why ? ": " : "", why ? why : "");
	unit_result(why == NULL && (!loaded || runs == 1), __func__, __FILE__, __LINE__, what);
	*nreplicated += runs > 1;
	free(buf);
}

static void test_corpus(void)
{
	const char *top = getenv("top_srcdir");
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus", top && *top ? top : ".");
	DIR *d = opendir(dir);
	CHECK(d != NULL);
	if (!d)
		return;
	char *names[1024];
	int n = 0, nloaded = 0, nreplicated = 0;
	struct dirent *de;
	while ((de = readdir(d)) && n < 1024)
		if (de->d_name[0] != '.')
			names[n++] = strdup(de->d_name);
	closedir(d);
	qsort(names, (size_t)n, sizeof names[0], by_name);
	CHECK(n >= 10);	/* the corpus is there, not an empty folder */
	for (int i = 0; i < n; i++) {
		test_one(dir, names[i], &nloaded, &nreplicated);
		free(names[i]);
	}
	/* both kinds of file: some load, some are refused, so both paths are compared */
	CHECK(nloaded > 0 && nloaded < n);
	CHECK(nreplicated >= 1);	/* a --replicate document among them, read as its runs */
}

int main(void)
{
	test_corpus();
	return unit_done("test_readers");
}
