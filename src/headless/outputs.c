/* outputs.c: the headless program's reports: every -o written whole or not at all, the summary or
 * the report on standard output, the comparison with saved runs, --replicate's runs. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "wtg/experiment.h"
#include "wtg/fleet.h"
#include "wtg/replicate.h"
#include "wtg/util.h"

#include "headless_int.h"
/* Size of what a save wrote, for the summary ("12.3K"), "" when it cannot be told. */
static void written_size(const char *path, char *buf, size_t len)
{
	struct stat st;
	buf[0] = '\0';
	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
		wtg_fmt_size(buf, len, (uint64_t)st.st_size);
}

/* The text summary beside -o files: one line per experiment, what was written, the closing line. */
static void print_summary(struct wtg_session *s, const struct wtg_hl_source *sv, const struct wtg_options *o,
			  const bool *written)
{
	for (int i = 0; i < wtg_nexperiments; i++) {
		if (!o->selected[i])
			continue;
		/* a saved run's tables are this thread's alone; a session's, its worker's too */
		const struct wtg_table *t = sv ? sv->tables[i] : &s->tables[i];
		int ok, warn, fail;
		if (!sv)
			pthread_mutex_lock(&s->tables[i].lock);
		wtg_table_count_checks(t, &ok, &warn, &fail);
		printf("  %-10s %-9s %4d row%s  checks %d ok, %d warn, %d failed\n", wtg_experiments[i]->name,
		       wtg_report_state_name(t->state), t->nrows, t->nrows == 1 ? " " : "s", ok, warn, fail);
		if (!sv)
			pthread_mutex_unlock(&s->tables[i].lock);
	}
	for (int i = 0; i < o->noutputs; i++) {
		if (!written[i])
			continue;
		char size[32];
		written_size(o->outputs[i].path, size, sizeof size);
		fputs("wrote ", stdout);
		wtg_escape_put(stdout, o->outputs[i].path);
		printf(" (%s%s%s)\n", wtg_writers[o->outputs[i].format].name, size[0] ? ", " : "", size);
	}
	if (sv)
		wtg_report_summary_line(stdout, sv->m);
	else
		wtg_report_summary(stdout, s, o->selected);
}

int wtg_hl_write_outputs(struct wtg_session *s, const struct wtg_hl_source *sv, const struct wtg_options *o,
			 int status, bool comparing)
{
	bool written[WTG_MAX_OUTPUTS] = { false }, stdout_failed = false;
	wtg_report_set_wide(o->wide);
	for (int i = 0; i < o->noutputs; i++) {
		char err[512];
		const char *path = o->outputs[i].path;
		enum wtg_format fmt = o->outputs[i].format;
		if ((sv ? wtg_report_save_meta(path, fmt, sv->m, sv->tables, err, sizeof err) :
		     o->outputs[i].collect ? wtg_collect_save(path, fmt, s, o->selected, err, sizeof err) :
			  wtg_report_save(path, fmt, s, o->selected, err, sizeof err)) == 0) {
			written[i] = true;
			continue;
		}
		if (errno == EPIPE)
			return 128 + SIGPIPE;
		wtg_error("%s", err);
		stdout_failed |= wtg_report_is_stdout(path);
		status = 1;
	}
	errno = 0;
	int rc = 0;
	if (o->noutputs == 0 && !comparing)
		rc = sv ? wtg_report_write_meta(stdout, o->format, sv->m, sv->tables) :
			  wtg_report_write(stdout, o->format, s, o->selected);
	else if (o->noutputs && !o->quiet && !wtg_options_stdout_output(o) && !comparing)
		print_summary(s, sv, o, written);
	if (!stdout_failed && (rc < 0 || fflush(stdout) != 0 || ferror(stdout))) {
		if (errno == EPIPE)
			return 128 + SIGPIPE;
		fprintf(stderr, "wtg: writing the report: %s\n", strerror(errno ? errno : EIO));
		status = 1;
	}
	return status;
}

void wtg_hl_gate_run(struct wtg_gate_run *r, const struct wtg_run_meta *m, struct wtg_table *tables,
		     const bool *present)
{
	memset(r, 0, sizeof *r);
	r->meta = m;
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++)
		r->tables[i] = present[i] ? &tables[i] : NULL;
}

/* What writes a comparison or the replicated runs into a file: returns >= 0 (regressions, figures
 * that warned), or -1 on a write error. */
typedef int (*whole_fn)(FILE *f, enum wtg_format fmt, const void *arg);

/* A whole_fn as a report another writer makes (wtg_report_save_with), keeping what it returned. */
struct whole {
	whole_fn write;
	enum wtg_format fmt;
	const void *arg;
	int ret;
};

static int write_whole(FILE *f, void *arg)
{
	struct whole *w = arg;
	w->ret = w->write(f, w->fmt, w->arg);
	return w->ret < 0 ? -1 : 0;
}

/* path written by write, whole or not at all, as a report is saved. Returns what write returned, or
 * -1. */
static int save_whole(const char *path, enum wtg_format fmt, whole_fn write, const void *arg)
{
	struct whole w = { write, fmt, arg, 0 };
	char err[512];
	if (wtg_report_save_with(path, write_whole, &w, err, sizeof err) < 0) {
		wtg_error("%s", err);
		return -1;
	}
	return w.ret;
}

struct comparison {
	const struct wtg_gate_run *runs;
	int n;
	int nbase;		/* the baseline's runs (1 without a baseline) */
	double thr;
	uint64_t seed;
	bool replication;	/* one machine, one set of options: the replication table too */
};

static int write_comparison(FILE *f, enum wtg_format fmt, const void *arg)
{
	const struct comparison *c = arg;
	return wtg_gate_report_base(f, fmt, c->runs, c->n, c->nbase, c->thr, c->seed,
				    c->replication ? wtg_replication_report : NULL);
}

int wtg_hl_compare_out(const struct wtg_options *o, int nbase, const struct wtg_gate_run *runs, int n)
{
	int differ = wtg_gate_warn_differences(stderr, runs, n);
	struct comparison c = { runs, n, o->baseline && nbase > 1 ? nbase : 1,
				o->baseline ? o->threshold_pct : 0, o->seed,
				o->mode == WTG_MODE_LOAD && !o->baseline && differ == 0 };
	int reg = 0;
	if (o->mode == WTG_MODE_LOAD && o->noutputs) {
		for (int i = 0; i < o->noutputs; i++)
			if ((reg = save_whole(o->outputs[i].path, o->outputs[i].format, write_comparison, &c)) < 0)
				return 1;
	} else {
		reg = write_comparison(stdout, o->format, &c);
	}
	if (reg < 0 || fflush(stdout) != 0) {
		wtg_error("writing the comparison: %s", strerror(errno ? errno : EIO));
		return 1;
	}
	return o->baseline && reg > 0 ? WTG_EXIT_REGRESSION : 0;
}

struct replicas_out {
	const struct wtg_replicas *rp;
	uint64_t seed;
};

static int write_replicas(FILE *f, enum wtg_format fmt, const void *arg)
{
	const struct replicas_out *x = arg;
	return wtg_replicas_write(f, fmt, x->rp, x->seed);
}

int wtg_hl_replicas_out(struct wtg_replicas *rp, const struct wtg_options *o)
{
	const struct replicas_out x = { rp, o->seed };
	for (int i = 0; i < o->noutputs; i++)
		if (save_whole(o->outputs[i].path, o->outputs[i].format, write_replicas, &x) < 0)
			return 1;
	int rc = 0;
	if (o->noutputs == 0)
		rc = write_replicas(stdout, o->format, &x);
	else if (!o->quiet && !wtg_options_stdout_output(o)) {
		struct wtg_gate_run runs[WTG_MAX_REPLICATES];
		for (int r = 0; r < rp->n; r++) {
			memset(&runs[r], 0, sizeof runs[r]);
			wtg_hl_gate_run(&runs[r], &rp->l[r].meta, rp->l[r].tables, rp->l[r].present);
		}
		rc = wtg_replication_report(stdout, WTG_FMT_TEXT, runs, rp->n, o->seed);
	}
	if (rc < 0 || fflush(stdout) != 0) {
		if (errno == EPIPE)
			return 128 + SIGPIPE;
		wtg_error("writing the runs: %s", strerror(errno ? errno : EIO));
		return 1;
	}
	return 0;
}

void wtg_headless_list(FILE *f)
{
	for (int i = 0; i < wtg_nexperiments; i++) {
		const struct wtg_experiment *e = wtg_experiments[i];
		char took[32] = "";
		int full = wtg_experiment_typical_s(e, false), quick = wtg_experiment_typical_s(e, true);
		if (full > 0)
			snprintf(took, sizeof took, "~%d s (quick ~%d s)", full, quick);
		fprintf(f, "%-10s %-10s %-20s %s\n", e->name, wtg_view_name(e->view), took, e->question);
	}
}
