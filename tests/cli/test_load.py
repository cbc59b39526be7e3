"""Saved runs come back: --load converts and compares, --baseline gates (exit 3), and every bad file
gets one line and exit 2."""
import copy
import csv
import io
import json
import os
import re
import shutil
import subprocess
import tempfile

from wtgtest import (WTG, check, save_json, datadir, experiment, finish, rows, run, run_json, saved_run, series,
                     skip_checks)

tmp = tempfile.mkdtemp(prefix="wtg-load-")
CMP_CSV_HEADER = ["run", "host", "experiment", "figure", "unit", "better", "run_index", "value", "ratio", "ci_low",
                  "ci_high", "ci_method", "verdict", "difference", "diff_low", "diff_high", "drift_pct"]


def path(name):
    return os.path.join(tmp, name)


def save(doc, name):
    return save_json(tmp, doc, name)


def one_error_line(status, err, fname, what):
    lines = err.splitlines()
    check(status == 2, "%s: exit 2 (got %d)" % (what, status))
    check(len(lines) == 1, "%s: one line on stderr (got %r)" % (what, err))
    check(lines and lines[0].startswith("wtg: %s: " % fname), "%s: the line names the file: %r" % (what, err))
    return lines[0] if lines else ""


def same_number(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and abs(a - b) <= 1e-9 * max(abs(a), abs(b))
    return a == b


def valley_divided(src, factor, name):
    """A copy of the saved run src whose valley figures (GB/s with their CI, minimum and maximum) are
    divided by factor."""
    d = copy.deepcopy(src)
    for r in experiment(d, "valley")["rows"]:
        for k in ("gbps", "gbps_ci_low", "gbps_ci_high", "gbps_min", "gbps_max"):
            if isinstance(r.get(k), (int, float)):
                r[k] = r[k] / factor
    return save(d, name)


# --- a quiet run, saved with a label, written in four formats at once ----------------------------
# The one live run of this file: the conversions below compare against its reports, the comparisons
# and the gate start from its figures. --size=16M: nothing here is about the size. It is the live gate
# too (--run with --baseline, checked below): its baseline, valley as the saved run measured it
# (tests/fixtures/views.json) a thousand times slower.
with open(saved_run(["valley"])) as f:
    thousandth = valley_divided(json.load(f), 1000, "valley-thousandth.json")
outs = ["-o", path("quiet-run.json"), "-o", path("all.txt"), "-o", path("all.csv"), "-o", path("all.md")]
status, out, err = run("--run=syscall,valley,readcost", "--quick", "--size=16M", "--label=quiet",
                       "--progress=never", "--dir=" + datadir(), "-q", "--baseline=" + thousandth, *outs)
live_gate = (status, out)
check(status == 0 and os.path.exists(path("quiet-run.json")),
      "the quiet run exits 0 and writes its -o files (%d: %s)" % (status, err.strip()))
base = path("quiet-run.json")
doc = json.load(open(base))
check(doc["run"].get("label") == "quiet", "--label is written into the report's run block")

# --- round trip: the same experiments, columns and rows ----------------------------------------
status, out, err = run("--load=" + base, "--format=json")
check(status == 0, "--load --format=json exits 0 (%s)" % err.strip())
back = json.loads(out) if status == 0 else {"experiments": []}
check([e["name"] for e in back["experiments"]] == [e["name"] for e in doc["experiments"]],
      "round trip keeps the experiments")
for e in doc["experiments"]:
    b = experiment(back, e["name"])
    if not b:
        continue
    check(b["columns"] == e["columns"], "%s: round trip keeps the columns" % e["name"])
    ra, rb = rows(e), rows(b)
    check(len(ra) == len(rb), "%s: round trip keeps the row count" % e["name"])
    diffs = [(k, x[k], y.get(k)) for x, y in zip(ra, rb) for k in x if not same_number(x[k], y.get(k))]
    check(not diffs, "%s: every cell comes back (%r)" % (e["name"], diffs[:3]))
    check([c["status"] for c in b["checks"]] == [c["status"] for c in e["checks"]], "%s: checks come back" % e["name"])
    check(b["notes"] == e["notes"], "%s: notes come back" % e["name"])
    for s in e["series"]:
        check(series(b, s["name"]) == s["samples"], "%s: series %s comes back" % (e["name"], s["name"]))
check(back.get("machine", {}).get("cpu_model") == doc["machine"]["cpu_model"], "the machine block comes back")
for fmt in ("text", "csv", "markdown", "html"):
    status, out, err = run("--load=" + base, "--format=" + fmt)
    check(status == 0 and "syscall" in out, "--load converts to %s (%d: %s)" % (fmt, status, err.strip()))

# --- a conversion writes the saved run, not this invocation: the same document --------------------
# Reports are written by the same code from the same tables and metadata, so every field comes back,
# the run block (timestamp, duration, command line, options), the machine with its topology and data
# file, the conditions and the probes included. Fields that say when a document was written: none
# (a report dates itself by its run's start, which comes back).
INTENDED = set()


def differences(a, b, where=""):
    if isinstance(a, dict) and isinstance(b, dict):
        out = ["%s.%s only on one side" % (where, k) for k in set(a) ^ set(b)]
        for k in set(a) & set(b):
            out += differences(a[k], b[k], "%s.%s" % (where, k))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, "%s[%d]" % (where, i))]
    return [] if a == b and type(a) == type(b) else [where]


# Every experiment's fields: the saved --run=all --quick the dashboard's view tests draw (measured
# once, kept in the tree), converted to JSON and that converted again must be the same document.
status, out, err = run("--load=" + saved_run(), "--format=json", "-o", path("all.json"))
check(status == 0 and os.path.exists(path("all.json")), "--load=views.json -o all.json (%d: %s)" % (status, err.strip()))
status, out, err = run("--load=" + path("all.json"), "--label=ignored-by-nothing", "-q", "-o", path("labelled.json"))
check(status == 0, "--load with --label converts (%d: %s)" % (status, err.strip()))
check(json.load(open(path("labelled.json")))["run"]["label"] == "ignored-by-nothing", "--label names a converted run")
status, out, err = run("--load=" + path("all.json"), "--format=json", "-o", path("again.json"))
check(status == 0, "--load=all.json -o again.json exits 0 (%d: %s)" % (status, err.strip()))
a, b = json.load(open(path("all.json"))), json.load(open(path("again.json")))
diff = sorted(d for d in differences(a, b) if d not in INTENDED)
check(not diff, "round trip: the same document but for %r (%d differences: %r)" % (sorted(INTENDED), len(diff), diff[:8]))
check(b["run"]["command_line"] == a["run"]["command_line"] and "--run=all" in " ".join(b["run"]["command_line"]),
      "the converted report keeps the saved command line, not the conversion's")
check(b["machine"]["topology"] == a["machine"]["topology"] and a["machine"]["topology"] is not None,
      "the saved topology comes back")
check(all("decimals" in c for e in a["experiments"] for c in e["columns"] if c["type"] == "real"),
      "every real column says its decimals")
for ext in ("txt", "csv", "md"):	# the live run's reports against its saved JSON's conversions
    status, out, err = run("--load=" + base, "-o", path("again." + ext), "-q")
    la, lb = open(path("all." + ext)).read().splitlines(), open(path("again." + ext)).read().splitlines()
    first = [(x, y) for x, y in zip(la, lb) if x != y][:1] or [(len(la), len(lb))]
    check(status == 0 and la == lb, "--load -o again.%s is the live run's all.%s line for line (%d: %s; %r)"
          % (ext, ext, status, err.strip(), first if la != lb else ""))
# a report from before columns carried decimals prints reals as the registry declares them (compare's
# columns are those of the experiment it pairs, chosen at run time: only a stored figure knows them)
declared = copy.deepcopy(a)
declared["experiments"] = [e for e in a["experiments"] if e["name"] != "compare"]
old = copy.deepcopy(declared)
for e in old["experiments"]:
    for c in e["columns"]:
        c.pop("decimals", None)
s1, want, _ = run("--load=" + save(declared, "declared.json"), "--format=text")
status, out, err = run("--load=" + save(old, "nodecimals.json"), "--format=text")
check(s1 == 0 and status == 0 and out == want and len(old["experiments"]) >= 10,
      "without decimals, the registry's: the text report is the same (%d: %s)" % (status, err.strip()))
bad = copy.deepcopy(a)
bad["experiments"][0]["columns"][0]["decimals"] = 99
status, out, err = run("--load=" + save(bad, "baddec.json"), "--format=text")
line = one_error_line(status, err, path("baddec.json"), "decimals 99")
check("decimals" in line and "out of range" in line, "decimals out of range is named: %r" % line)

# --- nothing measures: no data file is opened for writing (strace) -----------------------------
if shutil.which("strace"):
    log = path("strace.log")
    p = subprocess.run(["strace", "-f", "-o", log, "-e", "trace=openat,open,creat", WTG, "--load=" + base,
                        "--format=csv"], capture_output=True, text=True, timeout=120)
    with open(log) as f:
        created = [l for l in f if "O_CREAT" in l or "O_WRONLY" in l or "O_RDWR" in l]
    check(p.returncode == 0, "--load under strace exits 0")
    check(not created, "--load creates and writes no file: %r" % created[:3])

# --- the demo fallback: nothing could be measured here, the saved run still converts -----------
env = {"TMPDIR": "/nonexistent/wtg-no-such-folder"}
status, out, err = run("--run=valley", "--quick", "--format=json", env=env)
check(status == 2, "a run with an unusable TMPDIR is refused (exit %d)" % status)
p = subprocess.run([WTG, "--load=" + base, "--format=json"], capture_output=True, text=True, cwd="/proc",
                   env=dict(os.environ, **env), timeout=120)
check(p.returncode == 0 and json.loads(p.stdout)["experiments"], "--load converts with TMPDIR unusable, in /proc")

# --- labels: the saved one, else the base name -------------------------------------------------
nolabel = copy.deepcopy(doc)
nolabel["run"].pop("label", None)
other = save(nolabel, "night-run.v2.json")
status, out, err = run("--load=" + base, "--load=" + other, "--format=json")
cmp = json.loads(out) if status == 0 else {"runs": [], "figures": []}
check(status == 0, "two --loads compare, exit 0 (%s)" % err.strip())
check([r["label"] for r in cmp["runs"]] == ["quiet", "night-run.v2"], "labels: %r" % [r["label"] for r in cmp["runs"]])

# --- the comparison: every headline figure per run, ratio 1 against itself ---------------------
figs = cmp["figures"]
check({f["experiment"] for f in figs} == {"syscall", "valley", "readcost"}, "a figure per experiment with one")
check(all(f["run"] in (0, 1) for f in figs) and len(figs) % 2 == 0, "each figure once per run")
second = [f for f in figs if f["run"] == 1]
check(all(f["ratio"] == 1 for f in second), "a run against its own copy: ratio 1")
# no change where the interval lies inside 1 +- 10%, inconclusive where a figure's own interval is wider;
# never faster or slower
check(all(f["verdict"] == ("no change" if 0.9 <= f["ci_low"] and f["ci_high"] <= 1.1 else "inconclusive")
          for f in second if f["ci_low"] is not None), "a run against its own copy: no change, or inconclusive "
      "where its interval reaches past 1 +- 10%%: %r" % [(f["figure"], f["ci_low"], f["ci_high"], f["verdict"])
                                                         for f in second])
boot = [f for f in second if f["experiment"] == "syscall"]
check(boot and boot[0]["ci_method"] == "bootstrap of replicas" and boot[0]["ci_low"] <= 1 <= boot[0]["ci_high"],
      "syscall's ratio has a two-level bootstrap CI around 1 (its series says its replicas): %r" % boot)
# the series say which replicas their samples fall into: five, adding up to the samples, every one
# kept in the round trip; without them the same two runs compare through the one-level bootstrap,
# whose interval sees no spread between replicas and is no wider
sc = experiment(doc, "syscall")
reps = [x for x in sc["series"] if x["name"] == "batch 1000"]
check(len(reps) == 1 and len(reps[0].get("replicas", [])) == 5 and sum(reps[0]["replicas"]) == reps[0]["count"]
      and all(k >= 1 for k in reps[0]["replicas"]), "syscall's series gives its replicas: %r"
      % (reps[0].get("replicas") if reps else None))
back_sc = experiment(back, "syscall")
check(back_sc is not None and [x.get("replicas") for x in back_sc["series"]] == [x.get("replicas") for x in sc["series"]],
      "the replicas come back from --load")
flat = copy.deepcopy(doc)
for e in flat["experiments"]:
    for x in e["series"]:
        x.pop("replicas", None)
status, out, err = run("--load=" + save(flat, "flat-a.json"), "--load=" + save(copy.deepcopy(flat), "flat-b.json"),
                       "--format=json")
one = [f for f in json.loads(out)["figures"] if f["experiment"] == "syscall" and f["run"] == 1] if status == 0 else []
check(one and one[0]["ci_method"] == "bootstrap" and boot and
      one[0]["ci_high"] - one[0]["ci_low"] <= boot[0]["ci_high"] - boot[0]["ci_low"] + 1e-12,
      "without the replicas: the one-level bootstrap, no wider: %r vs %r" % (one, boot))
# a series whose replicas do not add up to its samples is refused, naming the field
bad = copy.deepcopy(doc)
x = [y for y in experiment(bad, "syscall")["series"] if y["name"] == "batch 1000"][0]
x["replicas"] = [1, 1]
status, out, err = run("--load=" + save(bad, "bad-replicas.json"), "--format=json")
check(status == 2 and "replicas" in err and "the replicas hold 2 samples" in err and err.count("\n") == 1,
      "replicas that do not add up: exit 2, one line naming them (%d: %r)" % (status, err))
for fmt in ("text", "csv", "markdown"):
    status, out, err = run("--load=" + base, "--load=" + other, "--format=" + fmt)
    check(status == 0 and "syscall" in out and "night-run.v2" in out, "the comparison prints as %s" % fmt)

status, out, err = run("--load=" + base, "--load=" + other, "-o", path("cmp.csv"), "-o", path("cmp.json"))
check(status == 0 and out == "", "a comparison goes into -o files (%d: %s)" % (status, err.strip()))
check(open(path("cmp.csv")).readline() == ",".join(CMP_CSV_HEADER) + "\n", "the -o .csv holds the comparison's header")
check(json.load(open(path("cmp.json")))["figures"] == figs, "the -o .json holds the same figures")
check(sorted(os.listdir(tmp)) == sorted(os.listdir(tmp)) and not [f for f in os.listdir(tmp) if ".json." in f or ".csv." in f],
      "no temporary file is left beside the outputs")
status, out, err = run("--load=" + base, "--load=" + other, "--format=svg")
nfig = len({(f["experiment"], f["figure"]) for f in figs})
check(status == 0 and out.startswith("<?xml") and out.count("<svg") == nfig + 1
      and out.count("ratio to the first run") == nfig,
      "svg comparison: a ratio chart per headline figure (%d), stacked (%d: %s)" % (nfig, status, err.strip()))
status, out, err = run("--load=" + base, "--load=" + other, "-o", path("cmp.html"))
page = open(path("cmp.html"), encoding="utf-8").read() if status == 0 else ""
check(page.startswith("<!DOCTYPE html>") and page.count('aria-label="ratio chart of') == nfig
      and "<script" not in page, "html comparison: a page with a chart per headline figure (%d: %s)"
      % (status, err.strip()))
nexp = len({f["experiment"] for f in figs})
check(page.count('class="overlay-chart"') == nexp, "html comparison: each experiment's runs overlaid on one chart: "
      "%d for %d experiments" % (page.count('class="overlay-chart"'), nexp))

# the comparison's CSV from two machines, one file after the other (the second without its header):
# every line starts with the run's label and its host, and the numbers read as numbers
away = copy.deepcopy(doc)
away["machine"]["hostname"] = "away-host"
away["run"]["label"] = "away, \"quoted\""
status, cmp1, err = run("--load=" + base, "--load=" + other, "--format=csv")
status2, cmp2, err2 = run("--load=" + base, "--load=" + save(away, "away.json"), "--format=csv")
check(status == 0 and status2 == 0, "two comparisons as csv (%s%s)" % (err.strip(), err2.strip()))
both = cmp1 + cmp2.split("\n", 1)[-1]
recs = list(csv.DictReader(io.StringIO(both)))
check(recs and list(recs[0]) == CMP_CSV_HEADER, "comparison csv: run and host lead the header: %r"
      % (list(recs[0]) if recs else both[:200]))
host = doc["machine"]["hostname"]
check({(x["run"], x["host"]) for x in recs} == {("quiet", host), ("night-run.v2", host),
                                                ('away, "quoted"', "away-host")},
      "comparison csv: every line names its run and host: %r" % sorted({(x["run"], x["host"]) for x in recs}))
number = re.compile(r"-?\d+(\.\d*)?([eE][-+]?\d+)?")
check(all(x[k] == "" or number.fullmatch(x[k]) for x in recs for k in ("value", "ratio", "ci_low", "ci_high")),
      "comparison csv: value, ratio and the CI hold numbers or nothing")
check(all(re.fullmatch(r"\d+", x["run_index"]) for x in recs) and
      {x["run_index"] for x in recs if x["run"] == "quiet"} == {"0"}, "comparison csv: run_index, 0 for the first run")
try:
    import pandas
    from pandas.api.types import is_numeric_dtype
    df = pandas.concat([pandas.read_csv(io.StringIO(cmp1)), pandas.read_csv(io.StringIO(cmp2))])
    check(list(df.columns[:2]) == ["run", "host"], "pandas: run and host first: %r" % list(df.columns))
    check(all(is_numeric_dtype(df[c]) for c in ("run_index", "value", "ratio", "ci_low", "ci_high")),
          "pandas: the numeric columns are numbers as read: %r" % dict(df.dtypes.astype(str)))
    check(df.groupby("host").size().shape == (2,), "pandas: the two hosts told apart")
except ImportError:
    skip_checks(["pandas: run and host first", "pandas: the numeric columns are numbers as read",
                 "pandas: the two hosts told apart"], "pandas is not installed")

status, out, err = run("--load=" + base, "--load=" + other, "--format=svg", "-o", tmp + "/")
check(status == 2 and "a comparison is written into one file, not a folder" in err,
      "svg comparison into a folder: usage error: %s" % err.strip())

# --- the gate --------------------------------------------------------------------------------
status, out, err = run("--baseline=" + base, "--load=" + base)
check(status == 0, "a file against itself passes the gate (exit %d: %s)" % (status, err.strip()))
check("gate: 0 figures" in out, "the gate says none regressed")

def scaled(src, factor, name):
    """A copy whose syscall figures (row values and raw samples) are multiplied by factor."""
    d = copy.deepcopy(src)
    e = experiment(d, "syscall")
    for r in e["rows"]:
        for k in ("median_ns", "p99_ns", "mean_ns", "min_ns", "ci_low_ns", "ci_high_ns"):
            if isinstance(r.get(k), (int, float)):
                r[k] = r[k] * factor
    for s in e["series"]:
        s["samples"] = [x * factor if x is not None else None for x in s["samples"]]
    return save(d, name)

fast = scaled(doc, 0.5, "fast.json")
status, out, err = run("--baseline=" + fast, "--load=" + base, "--format=json")
check(status == 3, "twice as slow as the baseline: exit 3 (got %d: %s)" % (status, err.strip()))
g = json.loads(out) if out else {"figures": [], "regressions": 0}
check(g["regressions"] >= 1, "the regression is counted")
check(any(f["experiment"] == "syscall" and f["verdict"] == "slower (regression)" for f in g["figures"]),
      "syscall's verdict is a regression")
status, out, err = run("--baseline=" + fast, "--load=" + base, "--threshold=150")
check(status == 0, "within a 150%% threshold: exit 0 (got %d)" % status)
status, out, err = run("--baseline=" + base, "--load=" + fast, "--format=csv")
check(status == 0 and "faster" in out, "twice as fast: faster, exit 0 (got %d)" % status)

# an experiment on one side only is listed, not an error
only = copy.deepcopy(doc)
only["experiments"] = [e for e in only["experiments"] if e["name"] == "syscall"]
only["machine"]["cpu_model"] = "Another CPU 9000"
only_path = save(only, "only-syscall.json")
status, out, err = run("--baseline=" + only_path, "--load=" + base)
check(status == 0, "an experiment missing on one side is not an error (exit %d)" % status)
check("missing" in out, "the missing experiment is listed")
check("warning" in err and "Another CPU 9000" in err, "another machine is named in a warning: %r" % err)

# --- valley's figures four times lower than the baseline's regress ------------------------------
# By construction, not measured: copies of the quiet run whose valley figures (GB/s with their CI,
# minimum and maximum) are divided by a factor. (A burner run against the quiet one slowed valley in
# most runs but not all: no test waits for a measured time to move.)
slow = valley_divided(doc, 4, "valley-quarter.json")
status, out, err = run("--baseline=" + base, "--load=" + slow, "--format=json")
check(status == 3, "valley at a quarter of the baseline's GB/s: exit 3 (got %d: %s)" % (status, err.strip()))
g = json.loads(out) if out else {"figures": []}
check(any(f["experiment"] == "valley" and f["verdict"] == "slower (regression)" for f in g["figures"]),
      "valley's verdict is a regression")
# the live gate (--run with --baseline: the quiet run above): against a baseline a thousand times
# slower than the saved run no figure regresses, however loaded the machine, and the run exits 0
status, out = live_gate
check(status == 0 and "gate: 0 figures" in out and "\nvalley: " in out,
      "--run=syscall,valley,readcost against a valley 1000x slower: exit 0 (got %d: %s)" % (status, out[-300:]))

# --- bad files: one line, exit 2 -------------------------------------------------------------
good = open(base).read()
bad = {
    "truncated.json": good[: len(good) // 2],
    "empty.json": "",
    "noise.json": None,
    "array.json": "[1, 2, 3]",
    "future.json": good.replace('"schema": 2', '"schema": 3', 1),
    "older.json": good.replace('"schema": 2', '"schema": 1', 1),
    "wrongtype.json": json.dumps(dict(doc, experiments="none")),
    "badcell.json": None,
    "dupkey.json": good.replace('"tool": "wtg"', '"tool": "wtg", "tool": "wtg"', 1),
}
cell = copy.deepcopy(doc)
cell["experiments"][0]["rows"][0][cell["experiments"][0]["columns"][0]["name"]] = [1]
bad["badcell.json"] = json.dumps(cell)
for name, text in bad.items():
    p = path(name)
    if text is None:
        with open(p, "wb") as f:
            f.write(os.urandom(50 << 20))
    else:
        with open(p, "w") as f:
            f.write(text)
    status, out, err = run("--load=" + p, "--format=json", timeout=120)
    line = one_error_line(status, err, p, name)
    check(out == "", "%s: nothing on standard output" % name)
    if name == "truncated.json":
        check(" line " in line and " column " in line, "truncated: line and column named: %r" % line)
    if name in ("future.json", "older.json"):
        check("schema 3" in line or "schema 1" in line, "%s: the version is named: %r" % (name, line))
    if name == "badcell.json":
        check("experiments[0].rows[0]" in line, "badcell: the place is named: %r" % line)
    os.unlink(p)

# --- the rows stream straight into tables: as strict as the whole-tree parse, with the same words ---
TYPE_WORDS = {"int": "should be an integer or null", "real": "should be a number or null",
              "text": "should be a string or null"}


def exp_index(d, name):
    return [e["name"] for e in d["experiments"]].index(name)


def load_text(text, name, binary=False):
    p = path(name)
    with open(p, "wb" if binary else "w") as f:
        f.write(text)
    return p, run("--load=" + p, "--format=json", timeout=120)


def load_doc(d, name, **kw):
    return load_text(json.dumps(d, **kw), name)


sx = exp_index(doc, "syscall")
scols = [c for c in doc["experiments"][sx]["columns"]]
c0, c1 = scols[0], scols[1]
check(len(doc["experiments"][sx]["rows"]) >= 4, "syscall has rows enough for the row cases")


def expect(name, d, want, **kw):
    p, (status, out, err) = load_doc(d, name, **kw)
    line = one_error_line(status, err, p, name)
    check(line == "wtg: %s: %s" % (p, want), "%s: %r (got %r)" % (name, want, line))


d = copy.deepcopy(doc)
del d["experiments"][sx]["rows"][3][c1["name"]]
expect("rowmissing.json", d, "experiments[%d].rows[3].%s: missing" % (sx, c1["name"]))
d = copy.deepcopy(doc)
d["experiments"][sx]["rows"][2] = 5
expect("rownotobject.json", d, "experiments[%d].rows[2]: should be an object" % sx)
d = copy.deepcopy(doc)
d["experiments"][sx]["rows"][1] = [1, 2]
expect("rowarray.json", d, "experiments[%d].rows[1]: should be an object" % sx)
# two bad cells, the later column first in the row: the first column is named, as the walk names it
d = copy.deepcopy(doc)
r1 = d["experiments"][sx]["rows"][1]
bad_row = {c1["name"]: {"x": 1}}
bad_row.update({k: v for k, v in r1.items() if k not in (c0["name"], c1["name"])})
bad_row[c0["name"]] = "text" if c0["type"] != "text" else 7
d["experiments"][sx]["rows"][1] = bad_row
expect("rowcolorder.json", d, "experiments[%d].rows[1].%s: %s" % (sx, c0["name"], TYPE_WORDS[c0["type"]]))

# timestamps out of the form's range: a year past 2261 (ns since the epoch leave int64_t), a
# negative hour or second; each one line, never a wrapped time in a report
for name, stamp in (("year9999.json", "9999-12-31T23:59:59Z"), ("year2262.json", "2262-06-01T00:00:00Z"),
                    ("hourneg.json", "2026-11-30T-1:00:00Z"), ("secneg.json", "2026-11-30T10:00:-5Z")):
    d = copy.deepcopy(doc)
    d["run"]["timestamp"] = stamp
    expect(name, d, "run.timestamp: '%s' is not a UTC time like 2026-11-30T19:26:36Z" % stamp)
d = copy.deepcopy(doc)
d["run"]["timestamp"] = "2261-12-31T23:59:59Z"
p, (status, out, err) = load_doc(d, "year2261.json")
check(status == 0 and json.loads(out)["run"]["timestamp"] == "2261-12-31T23:59:59Z",
      "the last year that fits loads and comes back unchanged (%d, %r)" % (status, err))

# what the JSON parser refuses inside rows keeps its line and column
good_rows = json.dumps(doc)
key0 = '"%s": ' % c0["name"]
at = good_rows.index(key0, good_rows.index('"rows": [', good_rows.index('"name": "syscall"')))
for name, text, words in (
        ("rowdupkey.json", good_rows[:at] + key0 + "1, " + good_rows[at:], "duplicate object key"),
        ("rowbigint.json", good_rows[:at] + '"zz": 123456789012345678901234567890, ' + good_rows[at:],
         "too big integer"),
        ("rowbigreal.json", good_rows[:at] + '"zz": 1e999, ' + good_rows[at:], "real number overflow"),
        ("rowtruncated.json", good_rows[:at + 3], "")):
    p, (status, out, err) = load_text(text, name)
    line = one_error_line(status, err, p, name)
    check(" line " in line and " column " in line and words in line,
          "%s: line, column and %r: %r" % (name, words or "the parse's words", line))
p, (status, out, err) = load_text(good_rows[:at].encode() + b'"zz": "\xff\xfe", ' + good_rows[at:].encode(),
                                  "rowbadutf8.json", binary=True)
line = one_error_line(status, err, p, "rowbadutf8.json")
check(" line " in line and " column " in line, "invalid UTF-8 in a row: line and column: %r" % line)


def same_rows(d, name, what):
    p, (status, out, err) = load_doc(d, name, ensure_ascii=False)
    got = json.loads(out) if status == 0 else {"experiments": []}
    want = [(e["name"], rows(e)) for e in d["experiments"]]
    have = [(e["name"], rows(e)) for e in got["experiments"]]
    same = len(want) == len(have) and all(
        a[0] == b[0] and len(a[1]) == len(b[1]) and
        all(same_number(x[k], y.get(k)) for x, y in zip(a[1], b[1]) for k in x if k != "zz")
        for a, b in zip(want, have))
    check(status == 0 and same, "%s: loads with the same rows (%s)" % (what, err.strip()))
    return got


# fields wtg does not read are ignored in rows too (nested ones included); text with escapes and
# with characters past ASCII comes back as it was; rows before their columns load all the same
d = copy.deepcopy(doc)
d["experiments"][sx]["rows"][0]["zz"] = {"nested": [1, {"a": None}], "more": "x"}
same_rows(d, "rowextra.json", "an unknown field in a row")
rx = exp_index(doc, "readcost")
for text, what in (("caf\u00e9 \u2014 \"q\"\\", "a text cell with characters past ASCII"),):
    d = copy.deepcopy(doc)
    d["experiments"][rx]["rows"][0]["operation"] = text
    got = same_rows(d, "rowtext.json", what)
    ops = [r["operation"] for r in rows(experiment(got, "readcost"))] if got["experiments"] else []
    check(ops[:1] == [text], "%s comes back (%r)" % (what, ops[:1]))
    p, (status, out, err) = load_doc(d, "rowescaped.json")	# \u escapes: the same text
    ops = [r["operation"] for r in rows(experiment(json.loads(out), "readcost"))] if status == 0 else []
    check(ops[:1] == [text], "%s written with \\u escapes comes back (%r)" % (what, ops[:1]))
d = copy.deepcopy(doc)
for e in d["experiments"]:
    cols = e.pop("columns")
    rws = e.pop("rows")
    e["rows"] = rws
    e["columns"] = cols
same_rows(d, "rowsfirst.json", "rows before their columns")
one_error_line(*run("--load=" + path("no-such.json"))[::2], path("no-such.json"), "a missing file")
one_error_line(*run("--load=" + tmp)[::2], tmp, "a folder")
status, out, err = run(*["--load=" + base] * 9)
check(status == 2 and err.startswith("wtg: --load: at most 8"), "nine --loads: usage error (%r)" % err)
status, out, err = run("--threshold=5", "--load=" + base)
check(status == 2 and "--threshold goes with --baseline" in err, "--threshold alone: usage error")
status, out, err = run("--baseline=" + base)
check(status == 2 and "--baseline goes with --run or --load" in err, "--baseline alone: usage error")
status, out, err = run("--baseline=" + base, "--load=" + base, "--threshold=0")
check(status == 2 and err.startswith("wtg: --threshold must be"), "--threshold=0: usage error")

shutil.rmtree(tmp)
finish()
