/* optable.c: the option table, each option's reader with its exact message, and the help. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/conditions.h"
#include "wtg/experiment.h"
#include "wtg/fleet.h"
#include "wtg/options.h"
#include "wtg/paired.h"
#include "wtg/report.h"
#include "wtg/util.h"

#include "cli.h"

#define STR_(x) #x
#define STR(x) STR_(x)	/* a number macro as text, for the help */

void wtg_print_version(FILE *f)
{
	fprintf(f, "wtg %s\n"
		   "Copyright (C) 2026 the wtg authors.\n"
		   "License GPLv2: GNU GPL version 2 <https://www.gnu.org/licenses/old-licenses/gpl-2.0.html>.\n"
		   "This is free software: you are free to change and redistribute it.\n"
		   "There is NO WARRANTY, to the extent permitted by law.\n", PACKAGE_VERSION);
}

static int parse_int(const char *s, long lo, long hi, long *out);

/* --burn, --burn=N, --burn=KIND, --burn=N:KIND (KIND spin or stream). Returns 0, or 2 after the
 * usage line. */
static int parse_burn(struct wtg_options *o, const char *arg, int ncpu)
{
	o->burn = ncpu;
	o->burn_kind = WTG_BURN_SPIN;
	if (!arg)
		return 0;
	char num[32];
	const char *colon = strchr(arg, ':');
	const char *kind = colon ? colon + 1 : NULL;
	size_t nlen = colon ? (size_t)(colon - arg) : strlen(arg);
	if (!colon && wtg_burn_kind_parse(arg) >= 0) {
		kind = arg;
		nlen = 0;
	}
	if (kind) {
		int k = wtg_burn_kind_parse(kind);
		if (k < 0)
			return usage_error("--burn: unknown burner kind '%s' (spin or stream)", kind);
		o->burn_kind = k;
	}
	if (nlen > 0) {
		long v;
		if (nlen >= sizeof num)
			nlen = sizeof num - 1;
		memcpy(num, arg, nlen);
		num[nlen] = '\0';
		if (parse_int(num, 1, wtg_burner_max(), &v) < 0)
			return usage_error("--burn must be a whole number from 1 to %d (%d per online CPU), not '%s'",
					   wtg_burner_max(), WTG_BURN_PER_CPU, num);
		o->burn = (int)v;
	} else if (colon) {
		return usage_error("--burn: a count before ':%s' is missing", kind);
	}
	return 0;
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
	if (!s || !*s)
		return -1;
	errno = 0;
	char *end;
	long v = strtol(s, &end, 10);
	if (*end != '\0' || errno == ERANGE || v < lo || v > hi || s[0] == ' ' || s[0] == '+')
		return -1;
	*out = v;
	return 0;
}

static int parse_run_list(const char *list, struct wtg_options *o)
{
	if (!*list)
		return usage_error("--run needs experiment names, e.g. --run=syscall,valley or --run=all");
	char *copy = strdup(list);
	if (!copy)
		return usage_error("out of memory");
	int rc = 0;
	char *save = NULL;
	if (list[0] == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,")) {
		free(copy);
		return usage_error("empty experiment name in --run '%s'", list);
	}
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "all") == 0) {
			for (int i = 0; i < wtg_nexperiments; i++)
				o->selected[i] = true;
			continue;
		}
		int idx = wtg_experiment_find(tok);
		if (idx < 0) {
			rc = usage_error("unknown experiment '%s' in --run; 'wtg --list' names them", tok);
			break;
		}
		o->selected[idx] = true;
	}
	free(copy);
	return rc;
}

/* --order=LIST: the experiments a lecture shows, in its order, each once ("all" adds the rest in
 * registry order). */
static int parse_order(const char *list, struct wtg_options *o)
{
	if (!*list || list[0] == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,"))
		return usage_error("--order needs experiment names joined by commas, not '%s'", list);
	char *copy = strdup(list);
	if (!copy)
		return usage_error("out of memory");
	bool seen[WTG_MAX_EXP] = { false };
	int rc = 0;
	o->norder = 0;
	char *save = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "all") == 0) {
			for (int i = 0; i < wtg_nexperiments; i++)
				if (!seen[i]) {
					seen[i] = true;
					o->order[o->norder++] = i;
				}
			continue;
		}
		int idx = wtg_experiment_find(tok);
		if (idx < 0)
			rc = usage_error("unknown experiment '%s' in --order; 'wtg --list' names them", tok);
		else if (seen[idx])
			rc = usage_error("--order names '%s' twice", tok);
		else {
			seen[idx] = true;
			o->order[o->norder++] = idx;
		}
	}
	free(copy);
	return rc;
}

static int parse_compare(const char *arg, struct wtg_options *o)
{
	const char *colon = strchr(arg, ':');
	if (!colon || colon == arg || !colon[1])
		return usage_error("--compare takes EXP:COND, e.g. syscall:burn, not '%s'", arg);
	static char exp[32];
	size_t n = (size_t)(colon - arg);
	if (n >= sizeof exp)
		return usage_error("--compare: unknown experiment '%.*s'", (int)n, arg);
	memcpy(exp, arg, n);
	exp[n] = '\0';
	if (!wtg_compare_target(exp)) {
		char choices[512];
		wtg_compare_choices(choices, sizeof choices, " ");
		return usage_error("--compare: '%s' is not an experiment compare can pair (%s)", exp, choices);
	}
	if (!wtg_compare_condition(colon + 1)) {
		char conds[128];
		wtg_compare_conditions(conds, sizeof conds, " ");
		return usage_error("--compare: unknown condition '%s' (%s)", colon + 1, conds);
	}
	o->compare_exp = exp;
	o->compare_cond = colon + 1;
	return 0;
}

static int opt_run(struct parse_state *ps, const char *arg)
{
	ps->run_given = true;
	return parse_run_list(arg, ps->o);
}

static int opt_format(struct parse_state *ps, const char *arg)
{
	int fmt = wtg_format_parse(arg);
	if (fmt < 0)
		return usage_error("--format must be text, csv, json, markdown, svg or html, not '%s'", arg);
	ps->o->format = (enum wtg_format)fmt;
	ps->o->format_given = true;
	return 0;
}

static int opt_output(struct parse_state *ps, const char *arg)
{
	struct wtg_options *o = ps->o;
	if (!*arg)
		return usage_error("--output needs a file name");
	if (o->noutputs == WTG_MAX_OUTPUTS)
		return usage_error("at most %d outputs", WTG_MAX_OUTPUTS);
	o->outputs[o->noutputs++].path = arg;
	return 0;
}

static int opt_progress(struct parse_state *ps, const char *arg)
{
	static const char *const when[] = { [WTG_PROGRESS_AUTO] = "auto", [WTG_PROGRESS_ALWAYS] = "always",
					    [WTG_PROGRESS_NEVER] = "never" };
	for (size_t i = 0; i < WTG_ARRAY_LEN(when); i++)
		if (strcmp(arg, when[i]) == 0) {
			ps->o->progress = (enum wtg_progress)i;
			return 0;
		}
	return usage_error("--progress must be auto, always or never, not '%s'", arg);
}

static int opt_file(struct parse_state *ps, const char *arg)
{
	if (!*arg)
		return usage_error("--file needs a path");
	ps->o->file = arg;
	return 0;
}

static int opt_dir(struct parse_state *ps, const char *arg)
{
	if (!*arg)
		return usage_error("--dir needs a folder");
	ps->o->dir = arg;
	ps->o->dir_origin = "--dir";
	ps->dir_given = true;
	return 0;
}

static int opt_size(struct parse_state *ps, const char *arg)
{
	struct wtg_options *o = ps->o;
	if (wtg_parse_size(arg, &o->size) < 0)
		return usage_error("--size: '%s' is not a size (try 256M or 1G)", arg);
	if (o->size < (1u << 20))
		return usage_error("--size: '%s' is below the smallest data file, 1M", arg);
	if (o->size % 4096)
		return usage_error("--size: '%s' is not a multiple of 4K", arg);
	if (o->size > (1ull << 40))
		return usage_error("--size: '%s' is above the largest data file, 1T", arg);
	o->size_given = true;
	return 0;
}

static int opt_threads(struct parse_state *ps, const char *arg)
{
	long v;
	if (parse_int(arg, 1, 1024, &v) < 0)
		return usage_error("--threads must be a whole number from 1 to 1024, not '%s'", arg);
	ps->o->threads = (int)v;
	return 0;
}

static int opt_burn(struct parse_state *ps, const char *arg)
{
	return parse_burn(ps->o, arg, ps->ncpu);
}

static int opt_seed(struct parse_state *ps, const char *arg)
{
	char *end;
	errno = 0;
	unsigned long long s = strtoull(arg, &end, 10);
	if (!*arg || *end || errno == ERANGE || arg[0] == '-' || arg[0] == ' ' || arg[0] == '+')
		return usage_error("--seed must be a whole number from 0 to 2^64-1, not '%s'", arg);
	ps->o->seed = s;
	return 0;
}

static int opt_compare(struct parse_state *ps, const char *arg)
{
	return parse_compare(arg, ps->o);
}

static int opt_versus(struct parse_state *ps, const char *arg)
{
	char why[160];
	int rc = wtg_versus_parse(arg, ps->ncpu, &ps->o->versus, why, sizeof why);
	if (rc == -2)
		return usage_error("%s", why);
	if (rc < 0)
		return usage_error("--versus: unknown condition '%s' (%s)", arg, WTG_VERSUS_CHOICES);
	return 0;
}

static int opt_timelimit(struct parse_state *ps, const char *arg)
{
	long v;
	if (parse_int(arg, 1, 3600, &v) < 0)
		return usage_error("--time-limit must be whole seconds from 1 to 3600, not '%s'", arg);
	ps->o->time_limit_ms = v * 1000;
	return 0;
}

static int opt_order(struct parse_state *ps, const char *arg)
{
	return parse_order(arg, ps->o);
}

static int opt_hold(struct parse_state *ps, const char *arg)
{
	char *end;
	errno = 0;
	double h = strtod(arg, &end);
	if (end == arg || *end || errno == ERANGE || !(h >= 0.5 && h <= 600))
		return usage_error("--hold must be seconds from 0.5 to 600, not '%s'", arg);
	ps->o->hold_ms = (int)(h * 1000 + 0.5);
	return 0;
}

static int opt_nocolor(struct parse_state *ps, const char *arg)
{
	(void)arg;
	ps->o->color = false;
	return 0;
}

static int opt_child(struct parse_state *ps, const char *arg)
{
	ps->o->mode = WTG_MODE_CHILD;
	ps->o->child_mode = arg;
	return 0;
}

/* --load, --label, --baseline, --threshold. The files are read later (src/saved/). */
static int opt_load(struct parse_state *ps, const char *arg)
{
	struct wtg_options *o = ps->o;
	if (!*arg)
		return usage_error("--load needs a file");
	return wtg_loads_add(o, arg) < 0 ? usage_error("--load: out of memory") : 0;
}

static int opt_highlight(struct parse_state *ps, const char *arg)
{
	if (!*arg || strlen(arg) > 255 || !wtg_text_inert(arg))
		return usage_error("--highlight needs a host name or label of 1 to 255 printable bytes");
	ps->o->highlight = arg;
	return 0;
}

static int opt_record(struct parse_state *ps, const char *arg)
{
	if (!*arg)
		return usage_error("--record needs a file (FILE.cast)");
	ps->o->record = arg;
	return 0;
}

static int opt_replicate(struct parse_state *ps, const char *arg)
{
	long v;
	if (parse_int(arg, 2, WTG_MAX_REPLICATES, &v) < 0)
		return usage_error("--replicate must be a whole number of runs from 2 to %d, not '%s'",
				   WTG_MAX_REPLICATES, arg);
	ps->o->replicate = (int)v;
	return 0;
}

static int opt_gap(struct parse_state *ps, const char *arg)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v >= 0 && v <= 3600))
		return usage_error("--gap must be seconds from 0 to 3600, not '%s'", arg);
	ps->o->gap_s = v;
	return 0;
}

static int opt_label(struct parse_state *ps, const char *arg)
{
	if (!*arg || strlen(arg) > 64)
		return usage_error("--label needs a name of 1 to 64 bytes");
	if (!wtg_text_inert(arg))
		return usage_error("--label: control characters and bytes that are not UTF-8 are not allowed");
	ps->o->label = arg;
	return 0;
}

static int opt_baseline(struct parse_state *ps, const char *arg)
{
	if (!*arg)
		return usage_error("--baseline needs a file");
	ps->o->baseline = arg;
	return 0;
}

static int opt_threshold(struct parse_state *ps, const char *arg)
{
	struct wtg_options *o = ps->o;
	char *end;
	errno = 0;
	o->threshold_pct = strtod(arg, &end);
	if (end == arg || (*end && strcmp(end, "%")) || errno == ERANGE ||
	    !(o->threshold_pct > 0 && o->threshold_pct <= 1000))
		return usage_error("--threshold must be a percentage above 0 and up to 1000, not '%s'", arg);
	o->threshold_given = true;
	return 0;
}

#define G_MODE "Modes:"
#define G_OUT "Headless output:"
#define G_DATA "Data file:"
#define G_EXP "Experiments and conditions:"
#define G_DASH "Dashboard:"
#define G_SAVED "Saved runs:"

/* In a help text: where the registry's compare choices go (print_option fills them in). */
#define COMPARE_CHOICES "@EXPS@"

const struct opt_desc wtg_opts[] = {
	{ "run", 0, required_argument, "=LIST", G_MODE,
	  "run these experiments headless (names joined by commas, or all)", VALUE(opt_run) },
	{ "list", 0, no_argument, "", G_MODE,
	  "one line per experiment: name, view, typical duration\n"
	  "(default and --quick), question", MODE(WTG_MODE_LIST) },
	{ "dry-run", 0, no_argument, "", G_MODE,
	  "print what --run (or, alone, every experiment) would run on\n"
	  "this machine: rows, samples, estimated time; measures nothing", FLAG(dry_run) },
	{ "help", 'h', no_argument, "", G_MODE, "this help", MODE(WTG_MODE_HELP) },
	{ "version", 'V', no_argument, "", G_MODE, "version", MODE(WTG_MODE_VERSION) },
	{ "format", 0, required_argument, "=FMT", G_OUT,
	  "headless output: text (default), csv, json, markdown, svg (a\n"
	  "chart per experiment, for slides) or html (one offline page)", VALUE(opt_format) },
	{ "output", 'o', required_argument, "=FILE", G_OUT,
	  "write the report to FILE, whole or not at all; repeat for several,\n"
	  "the format from the ending (.txt .csv .json .md .svg .html),\n"
	  "else --format; '-' is standard output. The text summary still\n"
	  "prints unless an output is standard output or --quiet;\n"
	  "svg with several experiments: a folder of NAME.svg", VALUE(opt_output) },
	{ "quiet", 'q', no_argument, "", G_OUT, "no text summary beside -o files", FLAG(quiet) },
	{ "wide", 0, no_argument, "", G_OUT,
	  "text tables whole however wide; by default one wider\n"
	  "than the terminal (80 columns when not one) is folded:\n"
	  "the rows' key, as many columns as fit, again below", FLAG(wide) },
	{ "progress", 0, required_argument, "=WHEN", G_OUT,
	  "a progress line on stderr: auto (when it is a terminal, the\n"
	  "default), always or never", VALUE(opt_progress) },
	{ "file", 0, required_argument, "=PATH", G_DATA,
	  "use this existing file as the data file (never written)", VALUE(opt_file) },
	{ "dir", 0, required_argument, "=DIR", G_DATA,
	  "where wtg creates its data file (default $TMPDIR, else /var/tmp)", VALUE(opt_dir) },
	{ "size", 0, required_argument, "=SIZE", G_DATA,
	  "size of the data file wtg creates, K/M/G suffixes (default 256M,\n"
	  "64M with --quick)", VALUE(opt_size) },
	{ "quick", 0, no_argument, "", G_DATA,
	  "fewer bytes per sample, never fewer samples (--list gives the\n"
	  "typical duration of each experiment with and without it)", FLAG(quick) },
	{ "threads", 0, required_argument, "=N", G_EXP,
	  "largest thread count in thread sweeps (default: online CPUs;\n"
	  "rows above them are marked oversubscribed)", VALUE(opt_threads) },
	{ "burn", 0, optional_argument, "[=N][:KIND]", G_EXP,
	  "start with N burner threads on (default N = online CPUs, at most\n"
	  STR(WTG_BURN_PER_CPU) " per online CPU); KIND spin (integer arithmetic, the\n"
	  "default) or stream (each reads a buffer larger than the\n"
	  "last-level cache)", VALUE(opt_burn) },
	{ "background", 0, no_argument, "", G_EXP,
	  "start with the background policy (SCHED_IDLE) on", FLAG(background) },
	{ "uncached", 0, no_argument, "", G_EXP, "start with uncached I/O (O_DIRECT) on", FLAG(uncached) },
	{ "seed", 0, required_argument, "=N", G_EXP, "seed for every shuffle and bootstrap (default 1)",
	  VALUE(opt_seed) },
	{ "compare", 0, required_argument, "=EXP:COND", G_EXP,
	  "what the compare experiment pairs (default syscall:burn);\n"
	  "EXP: " COMPARE_CHOICES ";\n"
	  "COND: burn background uncached cold", VALUE(opt_compare) },
	{ "versus", 0, required_argument, "=COND", G_EXP,
	  "with --run: measure every row in two arms, A under the run's\n"
	  "conditions and B under COND, alternating in seeded order round\n"
	  "by round; each headline figure's paired ratio B/A with its 95%\n"
	  "interval. COND: same (an A/A control), burn[=N][:spin|stream],\n"
	  "background, uncached, cold", VALUE(opt_versus) },
	{ "time-limit", 0, required_argument, "=SEC", G_EXP,
	  "end an experiment whose measuring thread has waited for a CPU\n"
	  "for SEC seconds in all (default 10)", VALUE(opt_timelimit) },
	{ "order", 0, required_argument, "=LIST", G_DASH,
	  "the dashboard's tabs and autoplay in this order, e.g.\n"
	  "--order=bytewise,syscall,valley (for a lecture)", VALUE(opt_order) },
	{ "hold", 0, required_argument, "=SEC", G_DASH, "how long autoplay keeps a finished tab (default 4)",
	  VALUE(opt_hold) },
	{ "step", 0, no_argument, "", G_DASH, "each next (PageDown, Right) moves on and runs the tab afresh",
	  FLAG(step) },
	{ "record", 0, required_argument, "=FILE", G_DASH,
	  "write the dashboard's screen to FILE as an asciicast v2 recording\n"
	  "(asciinema plays it): its size, then each frame with its time", VALUE(opt_record) },
	{ "no-color", 0, no_argument, "", G_DASH, "monochrome (also when NO_COLOR is set)",
	  VALUE(opt_nocolor) },
	{ "ascii", 0, no_argument, "", G_DASH, "no Unicode glyphs (automatic when the locale is not UTF-8)",
	  FLAG(ascii) },
	{ "load", 0, required_argument, "=FILE", G_SAVED,
	  "a saved JSON report, or a folder: its *.json (repeat): one alone\n"
	  "is written again in --format or to -o files, nothing measured;\n"
	  "up to 8, or with --run: each headline figure per run and its\n"
	  "ratio to the first, with a CI; more than 8: the machines' summary", VALUE(opt_load) },
	{ "summary", 0, no_argument, "", G_SAVED,
	  "with --load: per headline figure the machines' median, quartiles,\n"
	  "min and max, overall and per group (virtual machine, page-table\n"
	  "isolation, clock source, page size, vendor, CPUs), the runs of one\n"
	  "host taken as one machine (the default past 8 runs)", FLAG(summary) },
	{ "highlight", 0, required_argument, "=HOST", G_SAVED,
	  "with the summary: where this host (or label) stands", VALUE(opt_highlight) },
	{ "replicate", 0, required_argument, "=N", G_SAVED,
	  "with --run: run the experiments N times, alternating in seeded\n"
	  "order; keep every run, and per headline figure each run's median\n"
	  "and CI, the spread between runs, how many of the other runs'\n"
	  "medians each CI holds, the runs pooled (I^2: how much of the\n"
	  "spread lies beyond their CIs) and, from 4 runs, where a next run\n"
	  "falls (text or json)", VALUE(opt_replicate) },
	{ "gap", 0, required_argument, "=SEC", G_SAVED,
	  "with --replicate: wait SEC seconds between the runs, so they see\n"
	  "the machine further apart in time (a baseline the gate can trust\n"
	  "spans the drift later runs meet)", VALUE(opt_gap) },
	{ "label", 0, required_argument, "=TEXT", G_SAVED, "the live run's name in its report and in comparisons",
	  VALUE(opt_label) },
	{ "baseline", 0, required_argument, "=FILE", G_SAVED,
	  "with --run or --load: compare each headline figure with this\n"
	  "saved run's (or, a --replicate document of 4 runs or more, with\n"
	  "where a next run of them falls); exit 3 when one is worse beyond\n"
	  "--threshold", VALUE(opt_baseline) },
	{ "threshold", 0, required_argument, "=PCT", G_SAVED,
	  "how much worse a figure may be, its CI beyond it too (default 10)", VALUE(opt_threshold) },
	{ "child", 0, required_argument, "=MODE", NULL, NULL, VALUE(opt_child) },
};
const size_t wtg_nopts = WTG_ARRAY_LEN(wtg_opts);
_Static_assert(WTG_ARRAY_LEN(wtg_opts) <= WTG_MAX_OPTS, "getopt's tables in cli.c hold WTG_MAX_OPTS");

/* The column the help text starts in, and its indent on continuation lines. */
#define HELP_COL 24

/* One option's help: "  -o, --output=FILE     text", continuation lines indented to HELP_COL. */
static void print_option(FILE *f, const struct opt_desc *d)
{
	char left[64];
	if (d->short_name)
		snprintf(left, sizeof left, "  -%c, --%s%s", d->short_name, d->name, d->arg_help);
	else
		snprintf(left, sizeof left, "      --%s%s", d->name, d->arg_help);
	int n = (int)strlen(left);
	fprintf(f, "%s%*s", left, n < HELP_COL ? HELP_COL - n : 2, "");
	for (const char *p = d->help; *p;) {
		size_t len = strcspn(p, "\n");
		const char *mark = strstr(p, COMPARE_CHOICES);
		if (mark && mark < p + len) {	/* the registry's list of what compare may pair */
			char choices[256];
			wtg_compare_choices(choices, sizeof choices, " ");
			fprintf(f, "%.*s%s%.*s\n", (int)(mark - p), p, choices,
				(int)(p + len - mark - strlen(COMPARE_CHOICES)), mark + strlen(COMPARE_CHOICES));
		} else {
			fprintf(f, "%.*s\n", (int)len, p);
		}
		p += len;
		if (*p == '\n') {
			p++;
			fprintf(f, "%*s", HELP_COL, "");
		}
	}
}

/* Every visible option under its group heading, in table order. */
static void print_options(FILE *f)
{
	const char *group = NULL;
	for (size_t i = 0; i < wtg_nopts; i++) {
		if (!wtg_opts[i].group)
			continue;
		if (!group || strcmp(group, wtg_opts[i].group) != 0) {
			group = wtg_opts[i].group;
			fprintf(f, "\n%s\n", group);
		}
		print_option(f, &wtg_opts[i]);
	}
}

void wtg_print_help(FILE *f)
{
	fputs("Usage: wtg [OPTION]...              the live dashboard (needs a terminal)\n"
	      "       wtg --run=LIST [OPTION]...   headless: run the experiments in LIST\n"
	      "       wtg --load=FILE... [OPTION]...  saved runs: convert one, compare several\n"
	      "       wtg --list                   one line per experiment\n"
	      "       wtg --help | --version\n"
	      "\n"
	      "Where does a slow program's time go? wtg runs the experiments of the essay on this\n"
	      "machine (syscalls, read() buffers, page faults, page cache, caches, threads, uncached\n"
	      "I/O, clocks, latency tails) and shows where every millisecond went.\n", f);
	print_options(f);
	fprintf(f,
		"\n"
		"Keys on the dashboard: 1-9 0 and Tab/arrows pick an experiment, r or Enter reruns,\n"
		"space pauses, b burners, p background policy, u uncached I/O, c evict the file now,\n"
		"a autoplay, n notes and checks, v compare's next pair, m saved runs as machines and\n"
		"back, s save JSON and CSV, ? help, q quit.\n"
		"\n"
		"Exit status: 0 success, 1 a runtime failure, 2 a usage error or a bad --load file,\n"
		"3 a figure worse than the --baseline beyond --threshold.\n"
		"\n"
		"Report bugs to: %s\n"
		"%s documentation: man wtg; the README and guide.txt in its doc folder\n", PACKAGE_BUGREPORT,
		PACKAGE_NAME);
}
