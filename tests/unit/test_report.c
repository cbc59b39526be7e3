/* test_report.c: the three writers over a session filled by hand, and saving whole or not at all. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "wtg/experiment.h"
#include "wtg/report.h"
#include "wtg/session.h"
#include "wtg/table.h"

/* ---- a tiny strict JSON checker (RFC 8259 grammar, no extensions) ---- */

struct jp {
	const char *p;
	int depth;
};

static void ws(struct jp *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
		j->p++;
}

static bool jvalue(struct jp *j);

static bool jstring(struct jp *j)
{
	if (*j->p != '"')
		return false;
	j->p++;
	for (;;) {
		unsigned char c = (unsigned char)*j->p;
		if (c == '"') {
			j->p++;
			return true;
		}
		if (c < 0x20)	/* includes the terminating NUL */
			return false;
		if (c == '\\') {
			j->p++;
			if (*j->p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)j->p[i]))
						return false;
				j->p += 5;
				continue;
			}
			if (!*j->p || !strchr("\"\\/bfnrt", *j->p))
				return false;
		}
		j->p++;
	}
}

static bool jnumber(struct jp *j)
{
	const char *p = j->p;
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (isdigit((unsigned char)*p))
			p++;
	else
		return false;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return false;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return false;
		while (isdigit((unsigned char)*p))
			p++;
	}
	j->p = p;
	return true;
}

static bool jlist(struct jp *j, char close, bool object)
{
	j->p++;
	ws(j);
	if (*j->p == close) {
		j->p++;
		return true;
	}
	for (;;) {
		ws(j);
		if (object) {
			if (!jstring(j))
				return false;
			ws(j);
			if (*j->p++ != ':')
				return false;
		}
		if (!jvalue(j))
			return false;
		ws(j);
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p != close)
			return false;
		j->p++;
		return true;
	}
}

static bool jvalue(struct jp *j)
{
	ws(j);
	if (++j->depth > 64)
		return false;
	bool ok;
	switch (*j->p) {
	case '{':
		ok = jlist(j, '}', true);
		break;
	case '[':
		ok = jlist(j, ']', false);
		break;
	case '"':
		ok = jstring(j);
		break;
	case 't':
		ok = strncmp(j->p, "true", 4) == 0 && (j->p += 4);
		break;
	case 'f':
		ok = strncmp(j->p, "false", 5) == 0 && (j->p += 5);
		break;
	case 'n':
		ok = strncmp(j->p, "null", 4) == 0 && (j->p += 4);
		break;
	default:
		ok = jnumber(j);
	}
	j->depth--;
	return ok;
}

static bool json_valid(const char *s)
{
	struct jp j = { s, 0 };
	if (!jvalue(&j))
		return false;
	ws(&j);
	return *j.p == '\0';
}

/* ---- helpers ---- */


static char *render(enum wtg_format fmt, struct wtg_session *s, const bool *which)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	int rc = wtg_report_write(f, fmt, s, which);
	fclose(f);
	if (rc != 0) {
		free(buf);
		return NULL;
	}
	if (getenv("WTG_TEST_SHOW"))	/* the report as the checks read it */
		fputs(buf, stderr);
	return buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

/* The line of text that follows the line starting with `start`, or "" (static buffer). */
static const char *line_after(const char *text, const char *start)
{
	static char line[1024];
	line[0] = '\0';
	const char *p = strstr(text, start);
	if (!p)
		return line;
	p = strchr(p, '\n');
	if (!p)
		return line;
	p++;
	size_t n = strcspn(p, "\n");
	if (n >= sizeof line)
		n = sizeof line - 1;
	memcpy(line, p, n);
	line[n] = '\0';
	return line;
}

static const char *line_starting(const char *text, const char *start)
{
	static char line[1024];
	line[0] = '\0';
	const char *p = text;
	while (p && *p) {
		if (strncmp(p, start, strlen(start)) == 0) {
			size_t n = strcspn(p, "\n");
			if (n >= sizeof line)
				n = sizeof line - 1;
			memcpy(line, p, n);
			line[n] = '\0';
			return line;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return line;
}

static struct wtg_probe_result probe(double wall, int64_t minflt, uint64_t cpus, int64_t migr)
{
	struct wtg_probe_result p = {
		.wall_ms = wall, .user_ms = wall / 4, .sys_ms = wall / 2, .minflt = minflt, .majflt = 0,
		.vcsw = 1, .ivcsw = 2, .migrations = migr, .instructions = -1, .cycles = -1,
		.cpus_seen = cpus, .threads = 1,
	};
	return p;
}

static int valley, readcost, syscall_idx;

/* valley: a plain numeric table, every check ok, the conditions changed on its last row. */
static void fill_valley(struct wtg_table *t)
{
	static const struct wtg_column cols[] = {
		{ "bufsize", "B", WTG_T_INT, 0 },	{ "read_calls", "count", WTG_T_INT, 0 },
		{ "bytes", "B", WTG_T_INT, 0 },	{ "ms", "ms", WTG_T_REAL, 3 },
		{ "gbps", "GB/s", WTG_T_REAL, 2 },	{ "sum", "", WTG_T_INT, 0 },
	};
	wtg_table_set_columns(t, cols, 6);
	wtg_table_set_state(t, WTG_RUNNING);
	struct wtg_probe_result p1 = probe(12.5, 3, 0x3, -1), p2 = probe(1234.5, 40000, 0x1, 2);
	struct wtg_value r1[] = { WTG_INT(16), WTG_INT(4194304), WTG_INT(67108864), WTG_REAL(12.5),
				  WTG_REAL(5.36870912), WTG_INT(8556150000LL) };
	struct wtg_value r2[] = { WTG_INT(65536), WTG_INT(1024), WTG_INT(67108864), WTG_REAL(1234.5),
				  WTG_REAL(0.054), WTG_INT(8556150000LL) };
	wtg_table_add_row(t, r1, 6, &p1);
	wtg_table_add_row(t, r2, 6, &p2);
	pthread_mutex_lock(&t->lock);
	/* the conditions as they would be snapshotted: none, then burners + background + direct */
	t->rows[0].cond = (struct wtg_cond_snapshot){ .burners = 0, .policy = 0, .io = WTG_IO_CACHED };
	t->rows[1].cond = (struct wtg_cond_snapshot){ .burners = 2, .policy = 1, .io = WTG_IO_DIRECT };
	t->total = probe(1500.25, 40003, 0x3, 2);
	t->has_total = true;
	pthread_mutex_unlock(&t->lock);
	wtg_table_check(t, "sum", true, "every row's sum equals the known sum 8556150000");
	wtg_table_note(t, "64K and up: the buffer no longer fits the L1 cache");
	wtg_table_note(t, "a long note that has to be wrapped: %s %s %s",
		       "every read() crosses into the kernel and back, so with a 16-byte buffer the "
		       "crossings",
		       "cost far more than the bytes; past 64K the calls are few and the copy dominates, and",
		       "past the last-level cache the memory bandwidth sets the ceiling for every size.");
	wtg_table_set_state(t, WTG_DONE);
}

/* readcost: text that needs escaping, NaN and infinity, n/a, a series, a failed check. */
static void fill_readcost(struct wtg_table *t)
{
	static const struct wtg_column cols[] = {
		{ "operation", "", WTG_T_TEXT, 0 },
		{ "samples", "count", WTG_T_INT, 0 },
		{ "median_ns", "ns", WTG_T_REAL, 1 },
	};
	wtg_table_set_columns(t, cols, 3);
	wtg_table_set_state(t, WTG_RUNNING);
	char label[64];
	strcpy(label, "say \"hi\", then\nleave");
	struct wtg_value r1[] = { WTG_TEXT(label), WTG_INT(120), WTG_REAL(NAN) };
	wtg_table_add_row(t, r1, 3, NULL);
	strcpy(label, "changed after the add");	/* the table keeps its own copy */
	struct wtg_value r2[] = { WTG_TEXT("inf\tcase"), WTG_NA, WTG_REAL(INFINITY) };
	wtg_table_add_row(t, r2, 3, NULL);
	/* a median whose 10-digit form (130.4045) would print 130.405 at six digits, where it is 130.404 */
	struct wtg_value r3[] = { WTG_TEXT("getpid"), WTG_INT(120), WTG_REAL(130.40449999996) };
	wtg_table_add_row(t, r3, 3, NULL);
	/* the headline's row, with the same median: its headline figure must read as its cell does */
	struct wtg_value r4[] = { WTG_TEXT("1-byte file read"), WTG_INT(120), WTG_REAL(130.40449999996) };
	wtg_table_add_row(t, r4, 3, NULL);
	pthread_mutex_lock(&t->lock);
	for (int r = 0; r < t->nrows; r++)
		t->rows[r].cond = (struct wtg_cond_snapshot){ .policy = 0, .io = WTG_IO_CACHED };
	pthread_mutex_unlock(&t->lock);
	double samples[] = { 310.5, 318.25, NAN, 1e21 };
	wtg_table_add_series(t, "getpid", "ns", samples, 4);
	wtg_table_check(t, "sum", false, "got 1, want 2 \x01 (control char)");
	wtg_table_note(t, "a note, with \"quotes\"\nand a second line");
	wtg_table_fail(t, "a check failed");
	wtg_table_set_state(t, WTG_FAILED);
}

static void test_json_checker(void)
{
	CHECK(json_valid("{\"a\": [1, -2.5e+3, \"x\\n\", true, false, null]}"));
	CHECK(!json_valid("{\"a\": [1, 2,]}"));
	CHECK(!json_valid("{\"a\": nan}"));
	CHECK(!json_valid("[\"raw\nnewline\"]"));
	CHECK(!json_valid("[01]"));
	CHECK(!json_valid("{} {}"));
}

static void test_json(struct wtg_session *s)
{
	char *j = render(WTG_FMT_JSON, s, NULL);
	CHECK(j != NULL);
	if (!j)
		return;
	CHECK(json_valid(j));
	CHECK(strstr(j, "\"tool\": \"wtg\"") != NULL);
	CHECK(strstr(j, "\"version\": \"" PACKAGE_VERSION "\"") != NULL);
	CHECK(strstr(j, "\"hw_counters\": \"n/a (no hardware counters)\"") != NULL);
	CHECK(strstr(j, "\"known_sum\": 8556150000") != NULL);
	CHECK(strstr(j, "\"direct_io\": true") != NULL);
	CHECK(strstr(j, "\"seed\": 7") != NULL);
	CHECK(strstr(j, "\"quick\": true") != NULL);
	/* only the tables with rows or a state: valley and readcost, in registry order */
	CHECK(count(j, "\"name\": \"valley\"") == 1);
	CHECK(count(j, "\"name\": \"readcost\"") == 1);
	CHECK(count(j, "\"name\": \"syscall\"") == 0);
	CHECK(strstr(j, "\"name\": \"valley\"") < strstr(j, "\"name\": \"readcost\""));
	CHECK(strstr(j, "\"title\": \"How big should the read buffer be?\"") != NULL);
	CHECK(strstr(j, "\"state\": \"failed\"") != NULL);
	CHECK(strstr(j, "\"error\": \"a check failed\"") != NULL);
	CHECK(strstr(j, "\"error\": null") != NULL);
	CHECK(strstr(j, "{\"name\": \"gbps\", \"unit\": \"GB/s\", \"type\": \"real\", \"decimals\": 2}") != NULL);
	CHECK(strstr(j, "{\"name\": \"cond_io\", \"unit\": \"\", \"type\": \"text\"}") != NULL);
	/* the rows: integers as integers, the probe and the conditions after the own columns */
	CHECK(strstr(j, "{\"bufsize\": 16, \"read_calls\": 4194304, \"bytes\": 67108864, \"ms\": 12.5, "
			"\"gbps\": 5.36870912, \"sum\": 8556150000, \"probe_wall_ms\": 12.5, \"probe_user_ms\": 3.125, "
			"\"probe_sys_ms\": 6.25, \"probe_minflt\": 3, \"probe_majflt\": 0, \"probe_vcsw\": 1, "
			"\"probe_ivcsw\": 2, \"probe_cpus\": \"0-1\", \"probe_migrations\": null, \"cond_burners\": 0, "
			"\"cond_policy\": \"normal\", \"cond_io\": \"cached\"}") != NULL);
	CHECK(strstr(j, "\"probe_migrations\": 2, \"cond_burners\": 2, \"cond_policy\": \"background\", "
			"\"cond_io\": \"direct\"}") != NULL);
	/* escaping, NaN and infinity as null, n/a as null, and no probe: nulls there */
	CHECK(strstr(j, "{\"operation\": \"say \\\"hi\\\", then\\nleave\", \"samples\": 120, \"median_ns\": null, "
			"\"probe_wall_ms\": null, ") != NULL);
	CHECK(strstr(j, "{\"operation\": \"inf\\tcase\", \"samples\": null, \"median_ns\": null, ") != NULL);
	/* schema 2: the version, the run block with every option, checks tallied */
	CHECK(strstr(j, "\"schema\": 2,") != NULL);
	CHECK(strstr(j, "\"run\": {\n    \"timestamp\": \"") != NULL);
	CHECK(strstr(j, "\"options\": {\n      \"run\": [") != NULL);
	CHECK(strstr(j, "\"checks_summary\": {\"ok\": ") != NULL);
	CHECK(strstr(j, "\"cpus_online\": ") != NULL && strstr(j, "\"mitigations\": ") != NULL);
	CHECK(strstr(j, "changed after the add") == NULL);
	CHECK(strstr(j, "\\u0001 (control char)") != NULL);
	CHECK(strstr(j, "{\"name\": \"sum\", \"ok\": false, \"status\": \"fail\", \"detail\": \"got 1, want 2 ") != NULL);
	CHECK(strstr(j, "\"a note, with \\\"quotes\\\"\\nand a second line\"") != NULL);
	CHECK(strstr(j, "\"count\": 4, \"thinned\": false, \"note\": null, \"samples\": [310.5, 318.25, null, 1e+21]") != NULL);
	CHECK(strstr(j, "\"probe\": {\"wall_ms\": 1500.25, \"user_ms\": 375.0625, \"sys_ms\": 750.125, "
			"\"minflt\": 40003, \"majflt\": 0, \"vcsw\": 1, \"ivcsw\": 2, \"cpus\": [0, 1], "
			"\"migrations\": 2, \"instructions\": null, \"cycles\": null") != NULL);
	CHECK(strstr(j, "\"probe\": null") != NULL);	/* readcost has no total */
	/* kept to 17 digits where 10 would read back as another six-digit figure */
	CHECK(strstr(j, "\"median_ns\": 130.40449999996") != NULL && strstr(j, "\"median_ns\": 130.4045,") == NULL);
	/* the headline figure read from that row is written as the row's cell, to the last digit */
	CHECK(strstr(j, "{\"figure\": \"ns per 1-byte warm file read\", \"value\": 130.40449999996, ") != NULL);
	CHECK(strstr(j, " nan") == NULL && strstr(j, " -nan") == NULL && strstr(j, " inf") == NULL);
	free(j);

	/* an explicit selection: an idle, empty table is written when asked for */
	bool which[WTG_MAX_EXP] = { false };
	which[syscall_idx] = true;
	j = render(WTG_FMT_JSON, s, which);
	CHECK(j && json_valid(j));
	CHECK(j && count(j, "\"name\": \"syscall\"") == 1 && strstr(j, "\"state\": \"idle\"") &&
	      strstr(j, "\"rows\": []") && count(j, "\"name\": \"valley\"") == 0);
	free(j);
}

static void test_json_string(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	wtg_json_string(f, "a\"b\\c\x1f\x7f/\xc3\xa9");	/* é stays as it is */
	putc(' ', f);
	wtg_json_string(f, "bad \xff\xc3 end");		/* not UTF-8: replaced, still valid */
	putc(' ', f);
	wtg_json_string(f, NULL);
	fclose(f);
	CHECK_STR(buf, "\"a\\\"b\\\\c\\u001f\\u007f/\xc3\xa9\" \"bad \\ufffd\\ufffd end\" null");
	free(buf);
}

/* text with lead taken off the start of every line that starts with it (a new string). */
static char *strip_lead(const char *text, const char *lead)
{
	size_t ll = strlen(lead);
	char *out = malloc(strlen(text) + 1), *o = out;
	if (!out)
		return NULL;
	for (const char *p = text; *p;) {
		if (strncmp(p, lead, ll) == 0)
			p += ll;
		size_t n = strcspn(p, "\n");
		memcpy(o, p, n + (p[n] == '\n'));
		o += n + (p[n] == '\n');
		p += n + (p[n] == '\n');
	}
	*o = '\0';
	return out;
}

/* A real written for JSON and CSV: ten digits, seventeen where ten read back as a double that prints
 * otherwise (a 5 at their end, or a figure of a million or more); the same double, the same text. */
static void test_report_real(void)
{
	static const struct { double v; const char *want; } cases[] = {
		{ 130.40449999996, "130.40449999996" },	/* ten digits 130.4045: 130.405 at six */
		{ 130.4045, "130.4045" },		/* reads back as itself */
		{ 0.30000000000000004, "0.3" },		/* ten digits end in 3: every coarser place agrees */
		{ 23311.490478515625, "23311.49048" },
		{ 1500.25, "1500.25" },
		{ 1234567.123456789, "1234567.1234567889" },	/* a million or more */
		{ 1e21, "1e+21" },
		{ -2.21, "-2.21" },
	};
	char buf[64];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		wtg_report_real(buf, sizeof buf, cases[i].v);
		CHECK_STR(buf, cases[i].want);
	}
	wtg_report_real(buf, sizeof buf, NAN);
	CHECK_STR(buf, "");
}

static void test_csv(struct wtg_session *s)
{
	/* a label a CSV field must quote, and a host: the first two fields of every record */
	const struct wtg_options *was = s->opt;
	struct wtg_options labelled = *was;
	labelled.label = "base, \"1\"";
	s->opt = &labelled;
	snprintf(s->machine.hostname, sizeof s->machine.hostname, "box-1");
	char *c = render(WTG_FMT_CSV, s, NULL);
	s->opt = was;
	CHECK(c != NULL);
	if (!c)
		return;
	CHECK(strncmp(c, "run,host,experiment,kind,row,name,unit,value,status,text\n", 57) == 0);
	/* one rectangle: ten fields on every record (a quoted field may hold a line break), each
	 * record after the header starting with the run and the host */
	const char *lead = "\"base, \"\"1\"\"\",box-1,";
	int fields = 1, records = 0, led = 0;
	bool quoted = false, rect = true;
	for (const char *p = c; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == ',' && !quoted)
			fields++;
		else if (*p == '\n' && !quoted) {
			rect &= fields == 10;
			records++;
			fields = 1;
			led += strncmp(p + 1, lead, strlen(lead)) == 0;
		}
	}
	CHECK(rect && !quoted && records > 40);
	CHECK(led == records - 1);
	char *all = c;
	c = strip_lead(all, lead);
	free(all);
	CHECK(c != NULL);
	if (!c)
		return;
	/* the rest of each record: numbers in value, words in text, no row but on cells and samples */
	CHECK_STR(line_starting(c, "valley,cell,0,bufsize,"), "valley,cell,0,bufsize,B,16,,");
	CHECK_STR(line_starting(c, "valley,cell,0,gbps,"), "valley,cell,0,gbps,GB/s,5.36870912,,");
	CHECK_STR(line_starting(c, "valley,cell,0,probe_cpus,"), "valley,cell,0,probe_cpus,,,,0-1");
	CHECK_STR(line_starting(c, "valley,cell,0,probe_migrations,"), "valley,cell,0,probe_migrations,count,,,");
	CHECK_STR(line_starting(c, "valley,cell,1,cond_io,"), "valley,cell,1,cond_io,,,,direct");
	CHECK_STR(line_starting(c, "valley,check,,sum,"),
		  "valley,check,,sum,,,ok,every row's sum equals the known sum 8556150000");
	CHECK_STR(line_starting(c, "valley,note,,"), "valley,note,,,,,,64K and up: the buffer no longer fits the L1 cache");
	CHECK_STR(line_starting(c, "valley,state,"), "valley,state,,,,,done,");
	/* RFC 4180: quotes doubled, the field quoted, the newline kept inside it; NaN empty */
	CHECK(strstr(c, "\nreadcost,cell,0,operation,,,,\"say \"\"hi\"\", then\nleave\"\n") != NULL);
	CHECK(strstr(c, "\nreadcost,cell,1,samples,count,,,\n") != NULL);
	CHECK_STR(line_starting(c, "readcost,state,"), "readcost,state,,,,,failed,a check failed");
	CHECK(strstr(c, "\nreadcost,sample,3,") != NULL);
	CHECK(strstr(c, "syscall") == NULL);
	CHECK(strstr(c, "8,556") == NULL);	/* no thousands separators */
	free(c);
}

static void test_markdown(struct wtg_session *s)
{
	char *m = render(WTG_FMT_MARKDOWN, s, NULL);
	CHECK(m != NULL);
	if (!m)
		return;
	CHECK(strncmp(m, "# wtg " PACKAGE_VERSION ": where the time goes\n", 30) == 0);
	CHECK(strstr(m, "\n## valley: How big should the read buffer be?\n") != NULL);
	CHECK_STR(line_starting(m, "| bufsize"),
		  "| bufsize [B] | read\\_calls [count] | bytes [B] | ms [ms] | gbps [GB/s] | sum |");
	CHECK_STR(line_after(m, "| bufsize"), "| ---: | ---: | ---: | ---: | ---: | ---: |");
	CHECK(strstr(m, "\n| 16 | 4,194,304 | 67,108,864 | 12.500 |") != NULL);
	/* a cell stays in its cell: '|' escaped, a line break a space */
	CHECK(strstr(m, "| say \"hi\", then leave | 120 |") != NULL);
	CHECK(strstr(m, "\n**failed**: a check failed\n") != NULL);
	CHECK(strstr(m, "\n- **fail** sum: got 1, want 2") != NULL);
	CHECK(strstr(m, "\n> 64K and up: the buffer no longer fits the L1 cache\n") != NULL);
	CHECK(strstr(m, "\n- **checks**: ") != NULL);
	free(m);
}

static void test_formats(void)
{
	CHECK(wtg_format_from_path("r.json") == WTG_FMT_JSON);
	CHECK(wtg_format_from_path("dir.d/r.MD") == WTG_FMT_MARKDOWN);
	CHECK(wtg_format_from_path("a/b.csv") == WTG_FMT_CSV);
	CHECK(wtg_format_from_path("x.txt") == WTG_FMT_TEXT);
	CHECK(wtg_format_from_path("x.svg") == WTG_FMT_SVG && wtg_format_from_path("x.html") == WTG_FMT_HTML);
	CHECK(wtg_format_from_path("report") == -1);
	CHECK(wtg_format_from_path(".json") == -1);	/* a hidden file, no ending */
	CHECK(wtg_format_from_path("a.json/report") == -1);
	CHECK(wtg_format_from_path("r.xml") == -1);
	CHECK(wtg_format_parse("markdown") == WTG_FMT_MARKDOWN && wtg_format_parse("md") == -1);
	for (int i = 0; i < WTG_NFORMATS; i++)
		CHECK(wtg_format_parse(wtg_writers[i].name) == i);
}

/* The text report at 80 columns (no terminal): the valley table, wider, folded with bufsize before
 * each part; every line within 80 columns; prose wrapped there. */
static void test_text_folded(struct wtg_session *s)
{
	wtg_report_set_wide(false);
	char *t = render(WTG_FMT_TEXT, s, NULL);
	CHECK(t != NULL);
	if (!t)
		return;
	int longest = 0;
	for (const char *p = t; *p;) {
		int n = wtg_text_width_n(p, strcspn(p, "\n"));
		longest = n > longest ? n : longest;
		p += strcspn(p, "\n");
		p += *p ? 1 : 0;
	}
	CHECK(longest <= 80);
	CHECK_STR(line_starting(t, "  bufsize  read"), "  bufsize  read_calls       bytes        ms    gbps            sum");
	CHECK_STR(line_starting(t, "  bufsize  cond"), "  bufsize  conditions");
	CHECK_STR(line_after(t, "  bufsize  cond"), "      [B]");
	CHECK(count(t, "       16  no burners, normal, cached\n") == 1);
	CHECK(count(t, "   65,536  burners 2, background, direct\n") == 1);
	CHECK_STR(line_after(t, "  where"), "    faults 40,003 minor, 0 major; switches 1 voluntary, 2 involuntary; CPUs 0-1;");
	CHECK(strstr(t, " \n") == NULL);
	free(t);
}

/* With --wide: every table whole, prose at 100 columns. */
static void test_text(struct wtg_session *s)
{
	wtg_report_set_wide(true);
	char *t = render(WTG_FMT_TEXT, s, NULL);
	wtg_report_set_wide(false);
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(strncmp(t, "wtg " PACKAGE_VERSION ": where the time goes\n", 28) == 0);
	CHECK(count(t, "n/a (no hardware counters)") == 1);
	CHECK_STR(line_starting(t, "  known sum"), "  known sum     8,556,150,000");
	CHECK_STR(line_starting(t, "  O_DIRECT"),
		  "  O_DIRECT      yes (alignment: memory 512 B, offset 4096 B)");
	CHECK_STR(line_starting(t, "  path"),
		  "  path          /var/tmp/wtg-test.dat (given with --file, never written)");
	CHECK_STR(line_starting(t, "  size"), "  size          64M (67,108,864 B) on ext4");
	CHECK_STR(line_starting(t, "  page size"), "  page size     4096 B");
	CHECK(strstr(t, "\n== valley: How big should the read buffer be? ==\nruns: ") != NULL);
	/* names, then units in brackets; numbers right-aligned with separators; the conditions
	 * column appears because they changed between the rows */
	CHECK_STR(line_after(t, "runs: buffered"), "");
	CHECK_STR(line_starting(t, "  bufsize"),
		  "  bufsize  read_calls       bytes        ms    gbps            sum  conditions");
	CHECK_STR(line_after(t, "  bufsize"), "      [B]     [count]         [B]      [ms]  [GB/s]");
	CHECK_STR(line_starting(t, "       16"),
		  "       16   4,194,304  67,108,864    12.500    5.37  8,556,150,000  "
		  "no burners, normal, cached");
	CHECK_STR(line_starting(t, "   65,536"),
		  "   65,536       1,024  67,108,864  1234.500  0.0540  8,556,150,000  "
		  "burners 2, background, direct");	/* three significant figures, not 0.05 */
	CHECK_STR(line_starting(t, "  where"),
		  "  where the time went: wall 1,500.2 ms, user 375.1 ms, sys 750.1 ms");
	CHECK_STR(line_after(t, "  where"),
		  "    faults 40,003 minor, 0 major; switches 1 voluntary, 2 involuntary; CPUs 0-1; "
		  "2 migrations");
	CHECK(strstr(t, "\n  ok      sum: every row's sum equals the known sum 8556150000\n") != NULL);
	CHECK(strstr(t, "\n  note: 64K and up: the buffer no longer fits the L1 cache\n") != NULL);
	CHECK(strstr(t, "\n  FAILED  sum: got 1, want 2 \\x01 (control char)\n") != NULL);	/* seen, inert */
	CHECK(strstr(t, "\n  FAILED: a check failed\n") != NULL);
	CHECK_STR(line_starting(t, "  operation"), "  operation             samples  median_ns");
	CHECK_STR(line_after(t, "  operation"), "                        [count]       [ns]");
	CHECK_STR(line_starting(t, "  say"), "  say \"hi\", then leave      120        n/a");
	CHECK_STR(line_starting(t, "  inf"), "  inf case                  n/a        inf");
	CHECK_STR(line_starting(t, "  getpid"), "  getpid                    120      130.4");
	CHECK(strstr(t, "  note: a note, with \"quotes\"\n        and a second line\n") != NULL);
	CHECK(strstr(t, " \n") == NULL);	/* no trailing blanks anywhere */
	int longest = 0, wrapped = 0;
	for (const char *p = t; *p;) {
		int n = (int)strcspn(p, "\n");
		if (n > longest)
			longest = n;
		if (strncmp(p, "        ", 8) == 0 && strstr(p, "the") && n > 60)
			wrapped++;
		p += n + (p[n] ? 1 : 0);
	}
	CHECK(longest <= 100);
	CHECK(wrapped >= 2);	/* the long note went on over indented lines */
	free(t);
}

static bool dir_has_temp(const char *dir, const char *base)
{
	DIR *d = opendir(dir);
	if (!d)
		return true;
	bool found = false;
	struct dirent *e;
	size_t n = strlen(base);
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] == '.' && strncmp(e->d_name + 1, base, n) == 0)
			found = true;
	closedir(d);
	return found;
}

static void test_save(struct wtg_session *s)
{
	char dir[] = "/tmp/wtg-test-report.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[256], missing[256], err[512];

	snprintf(missing, sizeof missing, "%s/no/such/folder/out.json", dir);
	err[0] = '\0';
	CHECK(wtg_report_save(missing, WTG_FMT_JSON, s, NULL, err, sizeof err) == -1);
	char want[600];
	snprintf(want, sizeof want, "cannot write '%s': No such file or directory", missing);
	CHECK_STR(err, want);

	/* success: the file holds exactly what the writer writes, and no temp file is left */
	snprintf(path, sizeof path, "%s/out.json", dir);
	CHECK(wtg_report_save(path, WTG_FMT_JSON, s, NULL, err, sizeof err) == 0);
	char *expect = render(WTG_FMT_JSON, s, NULL);
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	if (f && expect) {
		char *got = calloc(1, strlen(expect) + 16);
		size_t n = fread(got, 1, strlen(expect) + 8, f);
		CHECK(n == strlen(expect));
		CHECK(memcmp(got, expect, strlen(expect)) == 0);
		free(got);
	}
	if (f)
		fclose(f);
	free(expect);
	CHECK(!dir_has_temp(dir, "out.json"));

	/* replacing an existing file; a target that is a folder fails and leaves no temp file */
	CHECK(wtg_report_save(path, WTG_FMT_CSV, s, NULL, err, sizeof err) == 0);
	f = fopen(path, "r");
	char head[64] = "";
	CHECK(f && fgets(head, sizeof head, f));
	CHECK_STR(head, "run,host,experiment,kind,row,name,unit,value,status,text\n");
	if (f)
		fclose(f);
	char sub[300];
	snprintf(sub, sizeof sub, "%s/sub", dir);
	CHECK(mkdir(sub, 0700) == 0);
	CHECK(wtg_report_save(sub, WTG_FMT_TEXT, s, NULL, err, sizeof err) == -1);
	snprintf(want, sizeof want, "cannot write '%s': Is a directory", sub);
	CHECK_STR(err, want);
	CHECK(!dir_has_temp(dir, "sub"));

	rmdir(sub);
	unlink(path);
	CHECK(rmdir(dir) == 0);	/* fails if anything was left behind */
}

/* A report from metadata made without a session (as a reader of a saved report makes it): every
 * writer takes it, the unknowns come out as unknown, and the tally is the one given. */
static void test_meta_without_session(struct wtg_session *s)
{
	static const struct wtg_machine machine;
	struct wtg_report_meta m;
	memset(&m, 0, sizeof m);
	m.machine = &machine;
	m.df_state = WTG_DF_NONE;
	m.duration_s = NAN;
	m.written_real_ns = 0;
	m.wanted[valley] = true;
	m.ntables = 1;
	m.tally = (struct wtg_report_tally){ .experiments = 1, .ok = 3, .warn = 2, .fail = 1 };
	const struct wtg_table *tables[WTG_MAX_EXP] = { NULL };
	tables[valley] = &s->tables[valley];
	for (int fmt = 0; fmt < WTG_NFORMATS; fmt++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		CHECK(f != NULL);
		if (!f)
			return;
		CHECK(wtg_report_write_meta(f, (enum wtg_format)fmt, &m, tables) == 0);
		fclose(f);
		CHECK(buf && strstr(buf, "valley") != NULL);
		CHECK(!buf || strstr(buf, "readcost") == NULL);
		if (fmt == WTG_FMT_JSON) {
			CHECK(json_valid(buf));
			CHECK(strstr(buf, "\"options\": null") != NULL);
			CHECK(strstr(buf, "\"topology\": null") != NULL);
			CHECK(strstr(buf, "\"timestamp\": \"1970-01-01T00:00:00Z\"") != NULL);
			CHECK(strstr(buf, "\"duration_s\": null") != NULL);
		}
		if (fmt == WTG_FMT_TEXT)
			CHECK(strstr(buf, "1 experiment, checks: 3 ok, 2 warn, 1 failed\n") != NULL);
		if (fmt == WTG_FMT_MARKDOWN)
			CHECK(strstr(buf, "seed") == NULL);
		free(buf);
	}
}

int main(void)
{
	test_report_real();
	valley = wtg_experiment_find("valley");
	readcost = wtg_experiment_find("readcost");
	syscall_idx = wtg_experiment_find("syscall");
	CHECK(valley >= 0 && readcost >= 0 && syscall_idx >= 0);
	if (valley < 0 || readcost < 0 || syscall_idx < 0)
		return unit_done("test_report");

	struct wtg_options opt;
	memset(&opt, 0, sizeof opt);
	opt.mode = WTG_MODE_RUN;
	opt.seed = 7;
	opt.quick = true;
	opt.file = "/var/tmp/wtg-test.dat";
	static struct wtg_session s;
	CHECK(wtg_session_init(&s, &opt, "wtg") == 0);
	/* a fixed machine block and a data file that is "ready" without existing */
	s.machine.hw_counters = false;
	s.machine.page_size = 4096;
	snprintf(s.df.path, sizeof s.df.path, "%s", opt.file);
	s.df.size = 64u << 20;
	s.df.sum = 8556150000LL;
	snprintf(s.df.fs, sizeof s.df.fs, "ext4");
	s.df.direct_ok = true;
	s.df.dio_mem_align = 512;
	s.df.dio_offset_align = 4096;
	s.df.owned = false;
	atomic_store(&s.df_state, WTG_DF_READY);

	fill_valley(&s.tables[valley]);
	fill_readcost(&s.tables[readcost]);
	/* a finished run: its timestamp and duration stay the same in every rendering */
	wtg_report_run_begin();
	wtg_report_run_end();

	test_json_checker();
	test_json_string();
	test_json(&s);
	test_csv(&s);
	test_text(&s);
	test_text_folded(&s);
	test_markdown(&s);
	test_formats();
	test_save(&s);
	test_meta_without_session(&s);

	wtg_session_shutdown(&s);
	for (int i = 0; i < wtg_nexperiments; i++)
		wtg_table_free(&s.tables[i]);
	close(s.wake_fd);
	return unit_done("test_report");
}
