/* cli.c: the command line, with one exact message per kind of bad input. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wtg/conditions.h"
#include "wtg/datafile.h"
#include "wtg/experiment.h"
#include "wtg/options.h"
#include "wtg/report.h"
#include "wtg/util.h"

#define STR_(x) #x
#define STR(x) STR_(x)	/* a number macro as text, for the help */


#define usage_error wtg_usage_error

int wtg_usage_error(const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	wtg_error("%s (see 'wtg --help')", msg);
	return 2;
}

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
	bool seen[32] = { false };
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

/* The folder wtg would create its data file in: it exists, is a folder, can hold a data file and is
 * writable. Messages name where the folder came from (--dir, TMPDIR or the default). */
static int check_dir(const struct wtg_options *o)
{
	const char *hint = strcmp(o->dir_origin, "--dir") == 0 ? ""
			   : strcmp(o->dir_origin, "TMPDIR") == 0 ? "; fix TMPDIR or give --dir=DIR"
			   : "; give --dir=DIR";
	struct stat st;
	if (stat(o->dir, &st) < 0)
		return usage_error("%s '%s': %s%s", o->dir_origin, o->dir, strerror(errno), hint);
	if (!S_ISDIR(st.st_mode))
		return usage_error("%s '%s' is not a folder%s", o->dir_origin, o->dir, hint);
	const char *fs = wtg_datafile_pseudo_fs(o->dir);
	if (fs)
		return usage_error("%s '%s' is on %s, which cannot hold a data file%s", o->dir_origin, o->dir,
				   fs, hint);
	if (access(o->dir, W_OK | X_OK) < 0)
		return usage_error("%s '%s' is not writable: %s%s", o->dir_origin, o->dir, strerror(errno),
				   hint);
	return 0;
}

/* Whether any -o is standard output. */
static bool output_is_stdout(const struct wtg_options *o)
{
	for (int i = 0; i < o->noutputs; i++)
		if (wtg_report_is_stdout(o->outputs[i].path))
			return true;
	return false;
}

/* Output i: its format (ending, else --format) and a folder that exists now: finding out after a
 * long run would waste it. Which files it must not be (an input, another output) is checked once
 * the saved runs are read (paths.c). */
static int check_output(struct wtg_options *o, int i)
{
	struct wtg_output *out = &o->outputs[i];
	const char *p = out->path;
	struct stat st;
	bool exists = strcmp(p, "-") != 0 && stat(p, &st) == 0;
	int nsel = 0;
	for (int k = 0; k < wtg_nexperiments; k++)
		nsel += o->selected[k];
	int ending = wtg_format_from_path(p);
	bool svg = ending == WTG_FMT_SVG || (ending < 0 && o->format == WTG_FMT_SVG);
	if (exists && S_ISDIR(st.st_mode)) {
		if (!svg)
			return usage_error("--output '%s' is a folder", p);
		out->format = WTG_FMT_SVG;	/* a folder of NAME.svg */
		return access(p, W_OK | X_OK) < 0 ? usage_error("--output '%s': folder is not writable", p) : 0;
	}
	if (svg && nsel > 1 && exists)
		return usage_error("--output '%s': svg with several experiments needs a folder", p);
	/* standard output, a device or a pipe by a name without an ending takes --format, as '-' does */
	bool stream = wtg_report_is_stdout(p) || (exists && !S_ISREG(st.st_mode));
	int fmt = strcmp(p, "-") == 0 ? (int)o->format : wtg_format_from_path(p);
	if (fmt < 0 && !o->format_given && !stream)
		return usage_error("--output '%s': unknown file ending (.txt .csv .json .md .svg .html), or "
				   "give --format", p);
	out->format = fmt < 0 ? o->format : (enum wtg_format)fmt;
	if (!wtg_writers[out->format].begin)
		return usage_error("--output '%s': this wtg was built without the %s writer", p,
				   wtg_writers[out->format].name);
	if (strcmp(p, "-") == 0)
		return 0;
	if (exists) {
		if (!S_ISREG(st.st_mode) || strncmp(p, "/dev/", 5) == 0 || strncmp(p, "/proc/", 6) == 0)
			return access(p, W_OK) < 0 ? usage_error("--output '%s': %s", p, strerror(errno)) : 0;
	}
	char folder[4096];
	wtg_path_split(p, folder, sizeof folder);
	if (stat(folder, &st) < 0)
		return usage_error("--output '%s': folder '%s': %s", p, folder, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return usage_error("--output '%s': '%s' is not a folder", p, folder);
	if (access(folder, W_OK | X_OK) < 0)
		return usage_error("--output '%s': folder '%s' is not writable", p, folder);
	return 0;
}

/* What the command line is being read into: the options, and what the checks after the loop need. */
struct parse_state {
	struct wtg_options *o;
	int ncpu;
	bool run_given, dir_given;
	unsigned modes;			/* 1 << WTG_MODE_HELP, _VERSION, _LIST for each given */
};

/* How an option's value is read and checked: 0, or 2 after the usage line. */
struct opt_desc;
typedef int (*opt_parse_fn)(struct parse_state *ps, const char *arg);

/* One option: the table below drives getopt_long, --help, and through --help the completion. */
struct opt_desc {
	const char *name;		/* long name */
	int short_name;			/* 0: none */
	int has_arg;			/* no_argument, required_argument, optional_argument */
	const char *arg_help;		/* how the value is spelled in --help, after the name */
	const char *group;		/* heading in --help; NULL: hidden */
	const char *help;		/* lines after the first are indented to the help column */
	opt_parse_fn parse;		/* NULL: a switch, see flag */
	size_t flag;			/* with parse NULL: MODE(m) for a mode, else FLAG(field) of a bool */
};

#define MODE(m) (m)
#define FLAG(field) (offsetof(struct wtg_options, field) + 32)

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
	if (o->nloads == WTG_MAX_LOAD_FILES)
		return usage_error("--load: at most %d files", WTG_MAX_LOAD_FILES);
	o->loads[o->nloads++] = arg;
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

static const struct opt_desc opts[] = {
	{ "run", 0, required_argument, "=LIST", G_MODE,
	  "run these experiments headless (names joined by commas, or all)", opt_run },
	{ "list", 0, no_argument, "", G_MODE,
	  "one line per experiment: name, view, typical duration\n"
	  "(default and --quick), question", NULL, MODE(WTG_MODE_LIST) },
	{ "dry-run", 0, no_argument, "", G_MODE,
	  "print what --run (or, alone, every experiment) would run on\n"
	  "this machine: rows, samples, estimated time; measures nothing", NULL, FLAG(dry_run) },
	{ "help", 'h', no_argument, "", G_MODE, "this help", NULL, MODE(WTG_MODE_HELP) },
	{ "version", 'V', no_argument, "", G_MODE, "version", NULL, MODE(WTG_MODE_VERSION) },
	{ "format", 0, required_argument, "=FMT", G_OUT,
	  "headless output: text (default), csv, json, markdown, svg (a\n"
	  "chart per experiment, for slides) or html (one offline page)", opt_format },
	{ "output", 'o', required_argument, "=FILE", G_OUT,
	  "write the report to FILE, whole or not at all; repeat for several,\n"
	  "the format from the ending (.txt .csv .json .md .svg .html),\n"
	  "else --format; '-' is standard output. The text summary still\n"
	  "prints unless an output is standard output or --quiet;\n"
	  "svg with several experiments: a folder of NAME.svg", opt_output },
	{ "quiet", 'q', no_argument, "", G_OUT, "no text summary beside -o files", NULL, FLAG(quiet) },
	{ "progress", 0, required_argument, "=WHEN", G_OUT,
	  "a progress line on stderr: auto (when it is a terminal, the\n"
	  "default), always or never", opt_progress },
	{ "file", 0, required_argument, "=PATH", G_DATA,
	  "use this existing file as the data file (never written)", opt_file },
	{ "dir", 0, required_argument, "=DIR", G_DATA,
	  "where wtg creates its data file (default $TMPDIR, else /var/tmp)", opt_dir },
	{ "size", 0, required_argument, "=SIZE", G_DATA,
	  "size of the data file wtg creates, K/M/G suffixes (default 256M,\n"
	  "64M with --quick)", opt_size },
	{ "quick", 0, no_argument, "", G_DATA,
	  "fewer bytes per sample, never fewer samples (--list gives the\n"
	  "typical duration of each experiment with and without it)", NULL, FLAG(quick) },
	{ "threads", 0, required_argument, "=N", G_EXP,
	  "largest thread count in thread sweeps (default: online CPUs;\n"
	  "rows above them are marked oversubscribed)", opt_threads },
	{ "burn", 0, optional_argument, "[=N][:KIND]", G_EXP,
	  "start with N burner threads on (default N = online CPUs, at most\n"
	  STR(WTG_BURN_PER_CPU) " per online CPU); KIND spin (integer arithmetic, the\n"
	  "default) or stream (each reads a buffer larger than the\n"
	  "last-level cache)", opt_burn },
	{ "background", 0, no_argument, "", G_EXP,
	  "start with the background policy (SCHED_IDLE) on", NULL, FLAG(background) },
	{ "uncached", 0, no_argument, "", G_EXP, "start with uncached I/O (O_DIRECT) on", NULL, FLAG(uncached) },
	{ "seed", 0, required_argument, "=N", G_EXP, "seed for every shuffle and bootstrap (default 1)",
	  opt_seed },
	{ "compare", 0, required_argument, "=EXP:COND", G_EXP,
	  "what the compare experiment pairs (default syscall:burn);\n"
	  "EXP: " COMPARE_CHOICES ";\n"
	  "COND: burn background uncached cold", opt_compare },
	{ "versus", 0, required_argument, "=COND", G_EXP,
	  "with --run: measure every row in two arms, A under the run's\n"
	  "conditions and B under COND, alternating in seeded order round\n"
	  "by round; each headline figure's paired ratio B/A with its 95%\n"
	  "interval. COND: same (an A/A control), burn[=N][:spin|stream],\n"
	  "background, uncached, cold", opt_versus },
	{ "time-limit", 0, required_argument, "=SEC", G_EXP,
	  "end an experiment whose measuring thread has waited for a CPU\n"
	  "for SEC seconds in all (default 10)", opt_timelimit },
	{ "order", 0, required_argument, "=LIST", G_DASH,
	  "the dashboard's tabs and autoplay in this order, e.g.\n"
	  "--order=bytewise,syscall,valley (for a lecture)", opt_order },
	{ "hold", 0, required_argument, "=SEC", G_DASH, "how long autoplay keeps a finished tab (default 4)",
	  opt_hold },
	{ "step", 0, no_argument, "", G_DASH, "each next (PageDown, Right) moves on and runs the tab afresh",
	  NULL, FLAG(step) },
	{ "no-color", 0, no_argument, "", G_DASH, "monochrome (also when NO_COLOR is set)", opt_nocolor },
	{ "ascii", 0, no_argument, "", G_DASH, "no Unicode glyphs (automatic when the locale is not UTF-8)",
	  NULL, FLAG(ascii) },
	{ "load", 0, required_argument, "=FILE", G_SAVED,
	  "a saved JSON report (repeat, up to 8): one alone is written\n"
	  "again in --format or to -o files, nothing measured; with more,\n"
	  "or with --run: each headline figure per run and its ratio to\n"
	  "the first, with a CI", opt_load },
	{ "replicate", 0, required_argument, "=N", G_SAVED,
	  "with --run: run the experiments N times, alternating in seeded\n"
	  "order; keep every run, and per headline figure each run's median\n"
	  "and CI, the spread between runs, how many of the other runs'\n"
	  "medians each CI holds, the runs pooled (I^2: how much of the\n"
	  "spread lies beyond their CIs) and, from 4 runs, where a next run\n"
	  "falls (text or json)", opt_replicate },
	{ "gap", 0, required_argument, "=SEC", G_SAVED,
	  "with --replicate: wait SEC seconds between the runs, so they see\n"
	  "the machine further apart in time (a baseline the gate can trust\n"
	  "spans the drift later runs meet)", opt_gap },
	{ "label", 0, required_argument, "=TEXT", G_SAVED, "the live run's name in its report and in comparisons",
	  opt_label },
	{ "baseline", 0, required_argument, "=FILE", G_SAVED,
	  "with --run or --load: compare each headline figure with this\n"
	  "saved run's (or, a --replicate document of 4 runs or more, with\n"
	  "where a next run of them falls); exit 3 when one is worse beyond\n"
	  "--threshold", opt_baseline },
	{ "threshold", 0, required_argument, "=PCT", G_SAVED,
	  "how much worse a figure may be, its CI beyond it too (default 10)", opt_threshold },
	{ "child", 0, required_argument, "=MODE", NULL, NULL, opt_child },
};
#define NOPTS WTG_ARRAY_LEN(opts)

/* A switch: sets its mode or turns its bool on. */
static void set_switch(struct parse_state *ps, const struct opt_desc *d)
{
	if (d->flag < 32)
		ps->modes |= 1u << d->flag;
	else
		*(bool *)((char *)ps->o + d->flag - 32) = true;
}

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
	for (size_t i = 0; i < NOPTS; i++) {
		if (!opts[i].group)
			continue;
		if (!group || strcmp(group, opts[i].group) != 0) {
			group = opts[i].group;
			fprintf(f, "\n%s\n", group);
		}
		print_option(f, &opts[i]);
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
		"a autoplay, n notes and checks, v compare's next pair, s save JSON and CSV, ? help, q quit.\n"
		"\n"
		"Exit status: 0 success, 1 a runtime failure, 2 a usage error or a bad --load file,\n"
		"3 a figure worse than the --baseline beyond --threshold.\n"
		"\n"
		"Report bugs to: %s\n"
		"%s documentation: man wtg, and the README in the source tree\n", PACKAGE_BUGREPORT, PACKAGE_NAME);
}

/* The word getopt stopped at, for messages about it. */
static const char *bad_word(int argc, char **argv)
{
	int i = optind - 1;
	if (i < 1 || i >= argc)
		i = argc - 1;
	return argv[i];
}

/* getopt_long's view of the table: struct option[] (val is the table index + 256, or the short
 * letter) and the short-option string. */
static void getopt_tables(struct option *lo, char *shorts, size_t len)
{
	size_t k = 0;
	shorts[k++] = ':';
	for (size_t i = 0; i < NOPTS; i++) {
		lo[i] = (struct option){ opts[i].name, opts[i].has_arg, NULL,
					 opts[i].short_name ? opts[i].short_name : (int)i + 256 };
		if (opts[i].short_name && k + 3 < len) {
			shorts[k++] = (char)opts[i].short_name;
			if (opts[i].has_arg == required_argument)
				shorts[k++] = ':';
		}
	}
	lo[NOPTS] = (struct option){ NULL, 0, NULL, 0 };
	shorts[k] = '\0';
}

/* The table entry getopt_long's return value c names, or NULL. */
static const struct opt_desc *opt_for(int c)
{
	if (c >= 256 && (size_t)(c - 256) < NOPTS)
		return &opts[c - 256];
	for (size_t i = 0; c > 0 && c < 256 && i < NOPTS; i++)
		if (opts[i].short_name == c)
			return &opts[i];
	return NULL;
}

/* The message for a word getopt did not know. */
static int unknown_option(int argc, char **argv)
{
	const char *w = bad_word(argc, argv);
	if (optopt && optopt < 256 && w[0] == '-' && w[1] != '-')
		return usage_error("unknown option '-%c'", optopt);
	/* long option: strip any '=value' */
	char word[64], poss[1024] = "";
	wtg_strlcpy(word, w, sizeof word);
	word[strcspn(word, "=")] = '\0';
	/* getopt_long takes any prefix of one long option; a prefix of several it refuses */
	size_t len = strlen(word), at = 0;
	int n = 0;
	for (size_t i = 0; len > 2 && word[1] == '-' && i < NOPTS && at < sizeof poss; i++) {
		if (strncmp(opts[i].name, word + 2, len - 2) != 0)
			continue;
		n++;
		at += (size_t)snprintf(poss + at, sizeof poss - at, " '--%s'", opts[i].name);
	}
	if (n > 1)
		return usage_error("option '%s' is ambiguous; possibilities:%s", word, poss);
	return usage_error("unknown option '%s'", word);
}

/* What holds before the command line is read: the defaults, NO_COLOR and TMPDIR. */
static void set_defaults(struct wtg_options *o, int argc, char **argv)
{
	memset(o, 0, sizeof *o);
	o->argc = argc;
	o->argv = (const char *const *)argv;
	o->mode = WTG_MODE_DASHBOARD;
	o->format = WTG_FMT_TEXT;
	o->seed = 1;
	o->color = true;
	o->compare_exp = wtg_compare_default();
	o->compare_cond = "burn";
	o->time_limit_ms = 10000;
	o->hold_ms = 4000;
	o->threshold_pct = 10;
	for (int i = 0; i < wtg_nexperiments && i < 32; i++)
		o->order[o->norder++] = i;
	o->threads = 0; /* 0: the online CPUs, read where the sweep runs */
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		o->color = false;
	const char *tmp = getenv("TMPDIR");
	o->dir = (tmp && *tmp) ? tmp : "/var/tmp";
	o->dir_origin = (tmp && *tmp) ? "TMPDIR" : "the default folder";
}

/* Read every option through the table. Returns 0, or 2 after the usage line. */
static int parse_words(int argc, char **argv, struct parse_state *ps)
{
	struct option lo[NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	getopt_tables(lo, shorts, sizeof shorts);
	opterr = 0;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		if (c == ':')
			return usage_error("option '%s' needs a value", bad_word(argc, argv));
		const struct opt_desc *d = opt_for(c);
		if (!d)
			return unknown_option(argc, argv);
		if (!d->parse)
			set_switch(ps, d);
		else if (d->parse(ps, optarg))
			return 2;
	}
	return 0;
}

/* The data file: --file exists, is regular, large enough and readable; else the folder wtg would
 * create one in, when a run needs it. */
static int check_datafile(const struct wtg_options *o)
{
	struct stat st;
	if (!o->file)
		return wtg_options_need_datafile(o) ? check_dir(o) : 0;
	if (stat(o->file, &st) < 0)
		return usage_error("--file '%s': %s", o->file, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return usage_error("--file '%s' is not a regular file", o->file);
	if (st.st_size < 65536)
		return usage_error("--file '%s' is too small: the experiments need at least 64K", o->file);
	if (access(o->file, R_OK) < 0)
		return usage_error("--file '%s': %s", o->file, strerror(errno));
	return 0;
}

/* --dry-run: the plans of the --run experiments (all of them without --run), as text or JSON on
 * standard output; nothing is measured, so no folder is checked (a --file must still be one). */
static int check_dry_run(struct wtg_options *o, const struct parse_state *ps)
{
	if (o->nloads || o->baseline)
		return usage_error("--dry-run plans a live run, not --load or --baseline");
	if (o->replicate)
		return usage_error("--dry-run plans one run, not --replicate");
	if (o->noutputs)
		return usage_error("--dry-run prints on standard output, not to --output files");
	if (o->format != WTG_FMT_TEXT && o->format != WTG_FMT_JSON)
		return usage_error("--dry-run prints text or json, not %s", wtg_writers[o->format].name);
	if (o->file && o->size_given)
		return usage_error("--size is for the file wtg creates, not for --file");
	if (!o->size_given)
		o->size = o->quick ? WTG_QUICK_SIZE : WTG_DEFAULT_SIZE;
	for (int i = 0; i < wtg_nexperiments && !ps->run_given; i++)
		o->selected[i] = true;
	o->mode = WTG_MODE_DRYRUN;
	return o->file ? check_datafile(o) : 0;
}

/* --replicate: a live run of its own, printed as text or json. */
static int check_replicate(const struct wtg_options *o, const struct parse_state *ps)
{
	if (!ps->run_given)
		return usage_error("--replicate goes with --run");
	if (o->nloads || o->baseline)
		return usage_error("--replicate compares its own runs, not --load or --baseline");
	if (o->format != WTG_FMT_TEXT && o->format != WTG_FMT_JSON)
		return usage_error("--replicate prints text or json, not %s", wtg_writers[o->format].name);
	for (int i = 0; i < o->noutputs; i++)
		if (o->outputs[i].format != WTG_FMT_TEXT && o->outputs[i].format != WTG_FMT_JSON)
			return usage_error("--output '%s': --replicate writes text or json", o->outputs[i].path);
	return 0;
}

/* The checks across options and against the file system, once the mode is known. */
static int check_options(struct wtg_options *o, const struct parse_state *ps)
{
	if (o->dry_run)
		return check_dry_run(o, ps);
	if (!ps->run_given && o->nloads) {
		o->mode = WTG_MODE_LOAD;	/* nothing measures: saved runs converted or compared */
	} else if (!ps->run_given) {
		if (o->baseline)
			return usage_error("--baseline goes with --run or --load");
		if (o->noutputs)
			return usage_error("--output goes with --run");
		if (o->format_given)
			return usage_error("--format goes with --run");
	}
	if (o->baseline && o->mode != WTG_MODE_RUN && o->mode != WTG_MODE_LOAD)
		return usage_error("--baseline goes with --run or --load");
	if (o->threshold_given && !o->baseline)
		return usage_error("--threshold goes with --baseline");
	if (o->versus.cond != WTG_VS_NONE && !ps->run_given)
		return usage_error("--versus goes with --run");
	if (o->replicate && check_replicate(o, ps))
		return 2;
	if (o->gap_s > 0 && !o->replicate)
		return usage_error("--gap goes with --replicate");
	if (o->file && o->size_given)
		return usage_error("--size is for the file wtg creates, not for --file");
	if (o->file && ps->dir_given)
		return usage_error("--dir is for the file wtg creates, not for --file");
	if (!o->size_given)
		o->size = o->quick ? WTG_QUICK_SIZE : WTG_DEFAULT_SIZE;
	if (check_datafile(o))
		return 2;
	for (int i = 0; i < o->noutputs; i++)
		if (check_output(o, i))
			return 2;
	for (int i = 0; i < o->noutputs && o->mode == WTG_MODE_LOAD && (o->baseline || o->nloads > 1); i++) {
		size_t len = strlen(o->outputs[i].path);
		if (len && o->outputs[i].path[len - 1] == '/')
			return usage_error("--output '%s': a comparison is written into one file, not a folder",
					   o->outputs[i].path);
	}
	if (!wtg_writers[o->format].begin)
		return usage_error("--format=%s: this wtg was built without the %s writer", wtg_writers[o->format].name,
				   wtg_writers[o->format].name);
	int nsel = 0;
	for (int i = 0; i < wtg_nexperiments; i++)
		nsel += o->selected[i];
	if (o->format == WTG_FMT_SVG && nsel > 1 && (o->noutputs == 0 || output_is_stdout(o)))
		return usage_error("svg draws one experiment per file: with several, -o names a folder");
	return 0;
}

int wtg_parse_options(int argc, char **argv, struct wtg_options *o)
{
	set_defaults(o, argc, argv);
	struct parse_state ps = { .o = o, .ncpu = wtg_online_cpus() };
	if (parse_words(argc, argv, &ps))
		return 2;
	if (o->mode == WTG_MODE_CHILD) {
		if (optind != argc - 1)
			return usage_error("--child needs one file");
		o->child_path = argv[optind];
		return 0;
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	static const enum wtg_mode first[] = { WTG_MODE_HELP, WTG_MODE_VERSION, WTG_MODE_LIST };
	for (size_t i = 0; i < WTG_ARRAY_LEN(first); i++)
		if (ps.modes & (1u << first[i])) {
			o->mode = first[i];
			return 0;
		}
	if (ps.run_given)
		o->mode = WTG_MODE_RUN;
	return check_options(o, &ps);
}
