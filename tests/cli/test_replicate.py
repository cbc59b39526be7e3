"""Replication: --replicate=N keeps every run whole and judges each run's CI against the other runs'
medians; several --load files of one machine and one set of options show the same table. Structure
only for live runs (never a timing threshold), of clock: replication treats every experiment's headline
alike and clock's is the cheapest to measure; the verdicts come from saved fixtures (of syscall)."""
import copy
import datetime
import json
import os
import re
import signal
import subprocess
import time

from wtgtest import WTG, check, datadir, finish, run, run_json

TOP_SRCDIR = os.environ.get("top_srcdir") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
SCHEMA = os.path.join(TOP_SRCDIR, "data", "wtg-report.schema.json")
FIX_A = os.path.join(TOP_SRCDIR, "tests", "fixtures", "replicate-a.json")
FIX_B = os.path.join(TOP_SRCDIR, "tests", "fixtures", "replicate-b.json")
FIGURE = "ns per getpid, batches of 1000"
LIVE_FIGURE = "ns per clock_gettime pair (median)"
tmp = datadir()


def validate(doc, what):
    try:
        import jsonschema
    except ImportError:
        print("# python3-jsonschema missing: %s not validated" % what)
        return
    try:
        jsonschema.validate(doc, json.load(open(SCHEMA)))
        check(True, "")
    except jsonschema.ValidationError as e:
        check(False, "%s validates against the schema: %s at %s" % (what, e.message, list(e.absolute_path)))


def headline_row(doc, name, pick=lambda r: True):
    """The first row of experiment name that pick accepts."""
    e = next(x for x in doc["experiments"] if x["name"] == name)
    return next(r for r in e["rows"] if pick(r))


def syscall_row(doc, batch=1000):
    return headline_row(doc, "syscall", lambda r: r["batch"] == batch)


def clock_row(doc):
    return headline_row(doc, "clock")


T975 = {1: 12.7062047, 2: 4.30265273, 3: 3.18244631, 4: 2.77644511}
Z975 = 1.959963984540054


def expected_pooled(runs):
    """The runs (value, ci_low, ci_high) pooled as the man page says, worked here independently:
    DerSimonian-Laird's tau^2, Hartung-Knapp's interval; (value, lo, hi, i2_pct, tau)."""
    runs = [(v, (h - l) / (2 * Z975)) for v, l, h in runs if h > l]
    k = len(runs)
    w = [1 / se ** 2 for _, se in runs]
    fixed = sum(wi * v for wi, (v, _) in zip(w, runs)) / sum(w)
    q = sum(wi * (v - fixed) ** 2 for wi, (v, _) in zip(w, runs))
    tau2 = max(0.0, (q - (k - 1)) / (sum(w) - sum(x * x for x in w) / sum(w)))
    ws = [1 / (se ** 2 + tau2) for _, se in runs]
    pooled = sum(wi * v for wi, (v, _) in zip(ws, runs)) / sum(ws)
    spread = sum(wi * (v - pooled) ** 2 for wi, (v, _) in zip(ws, runs)) / (k - 1)
    half = T975[k - 1] * (max(1.0, spread) / sum(ws)) ** 0.5
    return pooled, pooled - half, pooled + half, (100 * (q - (k - 1)) / q if q > k - 1 else 0.0), tau2 ** 0.5


def expected_next(runs):
    """Where a next run should fall, from the runs (value, ci_low, ci_high) as the man page says: the
    pooled value +- t(k - 2) sqrt(tau^2 + the pooled value's variance + the runs' mean variance);
    None with fewer than four runs with a CI of some width."""
    runs = [r for r in runs if r[2] > r[1]]
    k = len(runs)
    if k < 4:
        return None
    pooled, lo, hi, _, tau = expected_pooled(runs)
    se_pooled = (hi - pooled) / T975[k - 1]
    mean_var = sum(((h - l) / (2 * Z975)) ** 2 for _, l, h in runs) / k
    half = T975[k - 2] * (tau ** 2 + se_pooled ** 2 + mean_var) ** 0.5
    return pooled - half, pooled + half


def close(a, b, rel=1e-4):
    return a is not None and abs(a - b) <= rel * max(abs(b), 1e-12)


def expected_holds(docs):
    """Per run: how many of the other runs' medians its CI holds, from the files themselves."""
    rows = [syscall_row(d) for d in docs]
    return [sum(1 for j, o in enumerate(rows) if j != i and r["ci_low_ns"] <= o["median_ns"] <= r["ci_high_ns"])
            for i, r in enumerate(rows)]


# --- --replicate=2, json: two whole runs, their order, the replication table ------------------------
status, doc, err = run_json("clock", "--replicate=2")
check(status == 0 and doc is not None, "--replicate=2 --format=json exits 0 with one JSON document (%s)" % err.strip())
doc = doc or {"runs": [], "order": [], "replication": {"figures": []}}
validate(doc, "the replicated document")
check(doc.get("tool") == "wtg" and doc.get("replicates") == 2, "the document says 2 replicates: %r"
      % {k: doc.get(k) for k in ("tool", "replicates")})
check(len(doc["runs"]) == 2, "two runs kept (got %d)" % len(doc["runs"]))
for i, r in enumerate(doc["runs"]):
    check(r.get("schema") == 2 and [e["name"] for e in r.get("experiments", [])] == ["clock"],
          "run %d is a whole report of clock" % (i + 1))
    check(r.get("experiments") and len(r["experiments"][0]["rows"]) > 0, "run %d has its rows" % (i + 1))
check(doc["order"] == ["clock", "clock"], "each run's order is listed: %r" % doc["order"])
rep = doc["replication"]
check(rep.get("runs") == 2, "the table covers the 2 runs")
figs = [f for f in rep["figures"] if f["experiment"] == "clock" and f["figure"] == LIVE_FIGURE]
check(len(figs) == 1, "the table has clock's headline figure")
for f in figs:
    check([r["label"] for r in f["runs"]] == ["run 1", "run 2"], "the runs are named run 1, run 2: %r"
          % [r["label"] for r in f["runs"]])
    check(all(r["others"] == 1 and r["holds"] in (0, 1) for r in f["runs"]),
          "each run's CI is judged against the one other median: %r" % f["runs"])
    check(all(r["ci_low"] <= r["value"] <= r["ci_high"] for r in f["runs"]), "each run's CI holds its own median")
    for r, run_doc in zip(f["runs"], doc["runs"]):
        check(r["value"] == clock_row(run_doc)["median_ns"], "the table's value is that run's median")
    check(f["min"] <= f["median"] <= f["max"], "min <= median <= max between the runs")
    holding = sum(2 * r["holds"] > r["others"] for r in f["runs"])
    check(f["holding_most"] == holding and f["with_ci"] == 2, "holding_most counts the runs holding most")
    check(f["status"] == ("ok" if holding == 2 else "warn"), "status follows the holds: %s" % f["status"])
    p = f["pooled"]
    widths = [r for r in f["runs"] if r["ci_low"] is not None and r["ci_high"] > r["ci_low"]]
    check(p["runs"] == len(widths), "the pooled figure counts the runs with a CI of some width: %r" % p)
    if p["runs"] == 2:
        check(p["ci_low"] <= p["value"] <= p["ci_high"] and f["min"] <= p["value"] <= f["max"]
              and 0 <= p["i2_pct"] <= 100 and p["tau"] >= 0 and p["q"] >= 0,
              "the pooled value lies between the runs and inside its interval; 0 <= I^2 <= 100: %r" % p)
    else:
        check(p["value"] is None and p["ci_low"] is None and p["i2_pct"] is None,
              "fewer than two runs with a CI of some width: nothing pooled: %r" % p)
    check(p["next_low"] is None and p["next_high"] is None and f["next_of"] == 0 and
          all(r["in_next"] is None for r in f["runs"]), "two runs: no next-run interval, no run judged by it")
check(rep["status"] == ("warn" if any(f["status"] == "warn" for f in rep["figures"]) else "ok"),
      "the document's replication status is warn exactly when a figure warns")

# --- --replicate=2, text: both runs' reports, then the table and the check --------------------------
status, out, err = run("--run=clock", "--quick", "--replicate=2", "--dir=" + tmp, "--label=q")
check(status == 0, "--replicate=2 as text exits 0 (%s)" % err.strip())
check("=== run 1 of 2" in out and "=== run 2 of 2" in out, "both runs' reports are printed")
check(out.count("== clock: ") == 2, "each run's report holds clock")
check("replication: 2 runs, each run's 95% CI against the other runs' medians" in out, "the table's heading")
check(re.search(r"^  q 1 +[\d.]+ +\[[\d.]+, [\d.]+\] +[01] of 1$", out, re.M) is not None
      and re.search(r"^  q 2 +[\d.]+ ", out, re.M) is not None,
      "each run's line, named by --label and its number: median, CI, holds: %r" % out[-800:])
check(re.search(r"^(ok|warn) +replication: ", out, re.M) is not None, "the replication check line")
check(re.search(r"between runs: [\d.]+ to [\d.]+, a spread of [\d.]+% of their median", out) is not None,
      "the spread between the runs")

# --- -o: the document into a file, the table on standard output --------------------------------------
dest = os.path.join(tmp, "rep.json")
status, out, err = run("--run=clock", "--quick", "--replicate=2", "--dir=" + tmp, "-o", dest)
check(status == 0 and os.path.exists(dest), "--replicate with -o writes the file (%s)" % err.strip())
if os.path.exists(dest):
    d2 = json.load(open(dest))
    check(len(d2["runs"]) == 2 and "replication" in d2, "the file holds the runs and the table")
check("replication: 2 runs" in out, "the table on standard output beside -o")

# --- --gap: the runs further apart in time; a usage error alone; a signal ends the wait ---------------
status, doc_g, err = run_json("clock", "--replicate=2", "--gap=1.5")
stamps = [datetime.datetime.strptime(r["run"]["timestamp"], "%Y-%m-%dT%H:%M:%SZ") for r in (doc_g or {}).get("runs", [])]
check(status == 0 and len(stamps) == 2 and (stamps[1] - stamps[0]).total_seconds() >= 1,
      "--gap=1.5: the second run began at least a second after the first (%s)" % [str(s) for s in stamps])
for args, want in ((["--run=clock", "--gap=1"], "wtg: --gap goes with --replicate (see 'wtg --help')\n"),
                   (["--run=clock", "--replicate=2", "--gap=-1"],
                    "wtg: --gap must be seconds from 0 to 3600, not '-1' (see 'wtg --help')\n"),
                   (["--run=clock", "--replicate=2", "--gap=nan"],
                    "wtg: --gap must be seconds from 0 to 3600, not 'nan' (see 'wtg --help')\n")):
    status, out, err = run(*args)
    check(status == 2 and err == want and out == "", "%s: one line, exit 2: %r" % (" ".join(args), err))
dest_gap = os.path.join(tmp, "gap.json")
p = subprocess.Popen([WTG, "--run=clock", "--quick", "--replicate=2", "--gap=600", "--progress=always", "--dir=" + tmp,
                      "-o", dest_gap], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
os.set_blocking(p.stderr.fileno(), False)
seen, t0 = b"", time.monotonic()
while b"--gap: the next run in 600 s" not in seen and time.monotonic() - t0 < 120 and p.poll() is None:
    time.sleep(0.05)
    seen += p.stderr.read() or b""
waiting = b"--gap: the next run in 600 s" in seen
p.send_signal(signal.SIGINT)
try:
    p.wait(timeout=10)
except subprocess.TimeoutExpired:
    p.kill()
    p.wait()
seen += p.stderr.read() or b""
check(waiting and p.returncode == 130 and b"wtg: stopped by signal 2 (Interrupt)" in seen and not os.path.exists(dest_gap),
      "a SIGINT during the gap ends the run at once, exit 130, nothing written: %s %r" % (p.returncode, seen[-200:]))

# --- the document comes back: --load of it is its runs, side by side, and the same table -------------
if os.path.exists(dest):
    saved_rep = json.load(open(dest))["replication"]
    status, out, err = run("--load=" + dest, "--format=json")
    back = json.loads(out) if status == 0 and out.startswith("{") else {}
    check(status == 0 and "replication" in back, "--load of a --replicate document: exit 0, a comparison with "
          "its replication table (%s)" % err.strip())
    if "replication" in back:
        strip = lambda figs: [{k: f[k] for k in ("experiment", "figure", "min", "max", "median", "pooled",
                                                   "with_ci", "holding_most", "status")} for f in figs]
        check(strip(back["replication"]["figures"]) == strip(saved_rep["figures"]) and
              [[r["value"], r["ci_low"], r["ci_high"], r["holds"]] for f in back["replication"]["figures"]
               for r in f["runs"]] ==
              [[r["value"], r["ci_low"], r["ci_high"], r["holds"]] for f in saved_rep["figures"] for r in f["runs"]],
              "the table read back is the table written: the same runs, values, CIs, holds and pooled figures")
    status, out, err = run("--load=" + dest)
    check(status == 0 and re.search(r"^  run 1 +[\d.]+ ", out, re.M) and re.search(r"^  run 2 +[\d.]+ ", out, re.M),
          "as text: its runs by their saved labels (%s)" % err.strip())
    dest_q = os.path.join(tmp, "rep-q.json")
    status, out, err = run("--run=clock", "--quick", "--replicate=2", "--dir=" + tmp, "--label=q", "-q", "-o", dest_q)
    status, out, err = run("--load=" + dest_q)
    check(status == 0 and re.search(r"^  q 1 +[\d.]+ ", out, re.M) and re.search(r"^  q 2 +[\d.]+ ", out, re.M),
          "saved under --label=q: its runs come back as q 1 and q 2, as the live table named them")
    status, out, err = run("--load=" + dest, "--load=" + dest)
    check(status == 0 and "replication: 4 runs" in out, "two such documents: their four runs together")
    status, out, err = run("--baseline=" + dest, "--load=" + dest)
    check(status == 2 and err == "wtg: --baseline=%s: a --replicate document of 2 runs; a baseline of several runs "
          "needs 4 or more to say where a next run falls\n" % dest, "a --replicate document of two runs as the "
          "baseline: one line, exit 2: %r" % err)
    bad = json.load(open(dest))
    bad["replicates"] = 3
    pb = os.path.join(tmp, "bad-count.json")
    json.dump(bad, open(pb, "w"))
    status, out, err = run("--load=" + pb)
    check(status == 2 and err == "wtg: %s: a --replicate document whose replicates (3) is not the number of its "
          "runs (2)\n" % pb, "replicates against the runs it holds: one line, exit 2: %r" % err)
    bad["replicates"] = 2
    bad["runs"][1] = {"schema": 2}
    json.dump(bad, open(pb, "w"))
    status, out, err = run("--load=" + pb)
    check(status == 2 and err.startswith("wtg: %s, run 2: " % pb) and err.count("\n") == 1,
          "a broken run inside: one line naming the file and the run, exit 2: %r" % err)
    bad["runs"][1] = [1, 2]
    json.dump(bad, open(pb, "w"))
    status, out, err = run("--load=" + pb)
    check(status == 2 and err == "wtg: %s: runs[1]: not a report\n" % pb, "a run that is not an object: %r" % err)

# --- two saved runs of one machine and one set of options: the same table --------------------------
a, b = json.load(open(FIX_A)), json.load(open(FIX_B))
want = expected_holds([a, b])
status, out, err = run("--load=" + FIX_A, "--load=" + FIX_B)
check(status == 0 and err == "", "--load a --load b exits 0 without a warning (%s)" % err.strip())
check("replication: 2 runs" in out, "two loads of one machine show the replication table")
for label, w in zip(("a", "b"), want):
    check(re.search(r"^  %s +[\d.]+ +\[[\d.]+, [\d.]+\] +%d of 1$" % (label, w), out, re.M) is not None,
          "run %s's CI holds %d of the other median, as the files say" % (label, w))
status, out, err = run("--load=" + FIX_A, "--load=" + FIX_B, "--format=json")
cmp_doc = json.loads(out) if status == 0 else {}
check("replication" in cmp_doc, "the json comparison has a replication member")
if "replication" in cmp_doc:
    f = cmp_doc["replication"]["figures"][0]
    check([r["holds"] for r in f["runs"]] == want, "json holds match the files: %r" % f["runs"])
    check(f["status"] == ("ok" if all(w == 1 for w in want) else "warn"), "the figure's status")
    p, want_p = f["pooled"], expected_pooled([(r["value"], r["ci_low"], r["ci_high"]) for r in f["runs"]])
    check(p["runs"] == 2 and all(close(x, y) for x, y in zip((p["value"], p["ci_low"], p["ci_high"]), want_p[:3]))
          and abs(p["i2_pct"] - want_p[3]) < 1e-6 and close(p["tau"] + 1, want_p[4] + 1),
          "the pooled figure, interval, I^2 and tau are the meta-analysis worked from the files: %r against %r"
          % (p, want_p))
    if any(w == 0 for w in want):
        check(re.search(r"^warn +replication: syscall, %s: " % FIGURE, run("--load=" + FIX_A, "--load=" + FIX_B)[1],
                        re.M) is not None, "the warning names the figure")

# a copy of a moved far outside a's CI: warn, naming the figure; moved inside: ok
far = copy.deepcopy(a)
far["run"]["label"] = "far"
syscall_row(far)["median_ns"] = syscall_row(a)["ci_high_ns"] * 3
syscall_row(far)["ci_low_ns"] = syscall_row(far)["median_ns"] * 0.99
syscall_row(far)["ci_high_ns"] = syscall_row(far)["median_ns"] * 1.01
pf = os.path.join(tmp, "far.json")
json.dump(far, open(pf, "w"))
status, out, err = run("--load=" + FIX_A, "--load=" + pf)
check(re.search(r"^warn +replication: syscall, %s: 0 of 2 runs' CIs hold most" % FIGURE, out, re.M) is not None,
      "a run far outside the other's CI warns, naming the figure: %r" % out[-600:])
near = copy.deepcopy(a)
near["run"]["label"] = "near"
pn = os.path.join(tmp, "near.json")
json.dump(near, open(pn, "w"))
status, out, err = run("--load=" + FIX_A, "--load=" + pn)
check(re.search(r"^ok +replication: every run's CI holds most of the other runs' medians$", out, re.M) is not None,
      "identical runs: the replication check is ok")

# three runs: the pooled line and I^2, worked from the files; runs that agree within their CIs say
# so, runs far apart beyond them say the machine changed between them
def pooled_line(out):
    m = re.search(r"^  across the (\d+) runs: ([\d.e+-]+) \[([\d.e+-]+), ([\d.e+-]+)\] \(random effects\); "
                  r"I\^2 (\d+)%: (.*)$", out, re.M)
    return m and (int(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(4)), int(m.group(5)),
                  m.group(6))


def shifted(doc, label, factor):
    d = copy.deepcopy(doc)
    d["run"]["label"] = label
    row = syscall_row(d)
    for key in ("median_ns", "ci_low_ns", "ci_high_ns"):
        row[key] *= factor
    return d


for name, factors, far_apart in (("apart", (1.0, 1.2, 1.4), True), ("together", (1.0, 1.0005, 0.9995), False)):
    paths = []
    for i, fac in enumerate(factors):
        paths.append(os.path.join(tmp, "%s-%d.json" % (name, i)))
        json.dump(shifted(a, "%s%d" % (name, i), fac), open(paths[-1], "w"))
    status, out, err = run(*["--load=" + p for p in paths])
    rows = [syscall_row(shifted(a, "", fac)) for fac in factors]
    want_p = expected_pooled([(r["median_ns"], r["ci_low_ns"], r["ci_high_ns"]) for r in rows])
    got = pooled_line(out)
    check(got is not None and got[0] == 3, "%s: the pooled line names the 3 runs: %r" % (name, out[-900:]))
    if got:
        check(all(abs(x - y) <= 5e-4 * abs(y) for x, y in zip(got[1:4], want_p[:3])) and got[4] == round(want_p[3]),
              "%s: the pooled figure, its interval and I^2 as worked from the files: %r against %r"
              % (name, got[:5], want_p[:4]))
        check(got[2] <= got[1] <= got[3], "%s: the pooled interval holds the pooled figure" % name)
        if far_apart:
            check(got[4] >= 50 and got[5].startswith("most of the spread between the runs lies beyond their CIs"),
                  "%s: I^2 %d%% says the machine changed between the runs: %r" % (name, got[4], got[5]))
            check(re.search(r"^warn +replication: syscall, %s: 0 of 3 runs' CIs hold most of the other runs' medians "
                            r"\(the runs differ by more than their CIs allow: a change between runs, I\^2 \d+%%; "
                            r"across the runs [\d.]+ \[[\d.]+, [\d.]+\]\)$" % FIGURE, out, re.M) is not None,
                  "%s: the warning names the figure, I^2 and the pooled interval" % name)
        else:
            check(got[4] == 0 and got[5] == "the runs' CIs account for the spread between them",
                  "%s: I^2 0%%: the runs' CIs account for their spread: %r" % (name, got[4:]))
    check(re.search(r"^  a next run: four runs or more say where it should fall \(three leave Student's t one "
                    r"degree of freedom, 12.7\)$", out, re.M) is not None and
          re.search(r"^  each run as the next one:", out, re.M) is None,
          "%s: three runs: no next-run interval (t would have one degree of freedom), none judged" % name)

# five runs, one far from the other four: each run against the interval the other four give a next run,
# worked from the files (the far one falls outside the others', the others inside theirs)
factors = (1.0, 1.004, 0.997, 1.002, 1.6)
paths = []
for i, fac in enumerate(factors):
    paths.append(os.path.join(tmp, "five-%d.json" % i))
    json.dump(shifted(a, "five%d" % i, fac), open(paths[-1], "w"))
rows = [syscall_row(shifted(a, "", fac)) for fac in factors]
runs5 = [(r["median_ns"], r["ci_low_ns"], r["ci_high_ns"]) for r in rows]
want_in = []
for i, r in enumerate(runs5):
    lo_hi = expected_next(runs5[:i] + runs5[i + 1:])
    want_in.append(lo_hi[0] <= r[0] <= lo_hi[1])
status, out, err = run(*["--load=" + p for p in paths])
m = re.search(r"^  a next run: \[([\d.e+-]+), ([\d.e+-]+)\] \(95% prediction: the spread between these runs, the "
              r"pooled figure's error and a run's own\)$", out, re.M)
want_n = expected_next(runs5)
pl = pooled_line(out)
check(m is not None and all(abs(float(x) - y) <= 5e-4 * abs(y) for x, y in zip(m.groups(), want_n)),
      "five runs: the next run's interval as worked from the files: %r against %r" % (m and m.groups(), want_n))
check(m is not None and pl is not None and float(m.group(1)) < pl[2] and pl[3] < float(m.group(2)),
      "five runs: a next run's interval is wider than the pooled figure's")
check(re.search(r"^warn +replication: syscall, %s: \d of 5 runs' CIs hold most of the other runs' medians \(.*; across "
                r"the runs [\d.]+ \[[\d.]+, [\d.]+\]; a next run \[[\d.]+, [\d.]+\]\)$" % FIGURE, out, re.M) is not None,
      "five runs: the warning names where a next run falls too")
check(re.search(r"^  each run as the next one: %d of 5 medians inside the interval the other runs give it$"
                % sum(want_in), out, re.M) is not None,
      "five runs: each against the other four's next-run interval, %d of 5 inside: %r" % (sum(want_in), out[-900:]))
check(not want_in[4] and all(want_in[:4]), "the far run falls outside the others' interval, the others inside: %r"
      % want_in)
check(re.search(r"^each run's CI held \d+ of 20 other runs' medians \(\d+%%\); each run's median lay inside the "
                r"interval the other runs gave a next run %d of 5 times \(%d%%\)$" % (sum(want_in),
                round(100 * sum(want_in) / 5)), out, re.M) is not None,
      "the summary line counts the CIs' holds and the next-run intervals' %r" % out[-400:])
status, out, err = run(*["--load=" + p for p in paths] + ["--format=json"])
f = json.loads(out)["replication"]["figures"][0] if status == 0 else {}
check([r.get("in_next") for r in f.get("runs", [])] == want_in and f.get("next_held") == sum(want_in)
      and f.get("next_of") == 5, "json: in_next per run, next_held and next_of: %r" % {k: f.get(k) for k in
                                                                                     ("next_held", "next_of")})
want_n = expected_next(runs5)
p = f.get("pooled", {})
check(p.get("next_low") is not None and close(p["next_low"], want_n[0]) and close(p["next_high"], want_n[1]),
      "json: the pooled next_low and next_high: %r against %r" % (p, want_n))

# a baseline of several runs (a --replicate document of five): the gate pools them and asks whether
# the run now falls where a next run of theirs should, worked from the files
base_f = (1.0, 1.03, 0.98, 1.01, 0.97)
base_runs = [shifted(a, None, fac) for fac in base_f]
for d in base_runs:
    d["run"]["label"] = None
pbase = os.path.join(tmp, "base5.json")
json.dump({"tool": "wtg", "replicates": 5, "runs": base_runs, "order": ["syscall"] * 5}, open(pbase, "w"))
brows = [(r["median_ns"], r["ci_low_ns"], r["ci_high_ns"]) for r in (syscall_row(d) for d in base_runs)]
pooled = expected_pooled(brows)[0]
nlo, nhi = expected_next(brows)
# (1.15: worse than the pooled figure by more than 10%, not beyond the interval's top made 10% worse;
# 1.02: inside the next-run interval of +-8%, so its change (the ratio over that interval) reaches
# past 1 +- 10%: inconclusive; 1.00: the change lies inside the band, no change)
for name, fac, want, want_status in (("same", 1.0, "no change", 0), ("inside", 1.02, "inconclusive", 0),
                                     ("outside", 1.09, "slower", 0),
                                     ("past10", 1.15, "slower", 0), ("regressed", 1.5, "slower (regression)", 3),
                                     ("faster", 0.6, "faster", 0)):
    pn = os.path.join(tmp, "now-%s.json" % name)
    json.dump(shifted(a, name, fac), open(pn, "w"))
    status, out, err = run("--baseline=" + pbase, "--load=" + pn, "--threshold=10", "--format=json")
    doc = json.loads(out) if out.startswith("{") else {}
    figs = [f for f in doc.get("figures", []) if f["experiment"] == "syscall" and f["figure"] == FIGURE]
    now = figs[-1] if figs else {}
    v = syscall_row(shifted(a, "", fac))["median_ns"]
    check(want != "slower" or v / pooled < nhi / pooled * 1.1, "%s: the case lies where it should (%.3f)" % (name, v / pooled))
    check(status == want_status and doc.get("baseline_runs") == 5 and len(figs) == 6,
          "%s: a baseline of 5 runs and the run now, exit %d: %s %r" % (name, want_status, status, err.strip()))
    check(now.get("verdict") == want and now.get("ci_method") == "next run" and close(now.get("ratio"), v / pooled)
          and close(now.get("ci_low"), nlo / pooled) and close(now.get("ci_high"), nhi / pooled)
          and close(now.get("baseline_pooled"), pooled),
          "%s (%.2fx): %s, its ratio to the pooled baseline and the baseline's next-run interval as ratios, "
          "worked from the files: %r" % (name, fac, want, {k: now.get(k) for k in ("verdict", "ratio", "ci_low",
                                                                                    "ci_high", "ci_method")}))
    check(all(f["verdict"] is None and close(f["ratio"], r[0] / pooled) for f, r in zip(figs[:5], brows)),
          "%s: the baseline's runs: their ratios to the pooled value, no verdict" % name)
status, out, err = run("--baseline=" + pbase, "--load=" + os.path.join(tmp, "now-regressed.json"), "--threshold=10")
check(status == 3 and re.search(r"^  the baseline's 5 runs pooled: [\d.]+, a next run \[[\d.]+, [\d.]+\]; the ratios are to "
                                r"it$", out, re.M) is not None and
      "gate: 1 figure worse than the baseline by more than 10% (beyond where a next run of the baseline falls, too): "
      "exit 3" in out, "as text: the pooled baseline, its next-run interval, and the gate's line: %r" % out[-700:])
status, out, err = run("--baseline=" + pbase, "--load=" + os.path.join(tmp, "now-regressed.json"), "--format=svg")
check(status == 3 and "ratio to the baseline pooled (whiskers: where a next run of it falls)" in out and
      out.count("a baseline run") >= 5 and out.count("a baseline run") % 5 == 0 and "(the first run)" not in out,
      "the chart: ratios to the pooled baseline, each of its five runs named as such in every chart")
json.dump({"tool": "wtg", "replicates": 3, "runs": base_runs[:3]}, open(pbase, "w"))
status, out, err = run("--baseline=" + pbase, "--load=" + os.path.join(tmp, "now-inside.json"))
check(status == 2 and err == "wtg: --baseline=%s: a --replicate document of 3 runs; a baseline of several runs needs "
      "4 or more to say where a next run falls\n" % pbase, "a baseline of three runs: one line, exit 2: %r" % err)

# other options: a comparison, not a replication
other = copy.deepcopy(a)
other["quick"] = False
if other["run"].get("options"):
    other["run"]["options"]["quick"] = False
po = os.path.join(tmp, "other.json")
json.dump(other, open(po, "w"))
status, out, err = run("--load=" + FIX_A, "--load=" + po)
check(status == 0 and "replication:" not in out, "runs of other options get no replication table")
check("differ" in err, "and the warning says they differ: %r" % err)

# --replicate accepts exactly the formats it writes, -o's endings included, refused before measuring
for name, fmt in [("r.html", "html"), ("r.md", "markdown"), ("r.csv", "csv"), ("r.svg", "svg")]:
    path = os.path.join(tmp, name)
    status, out, err = run("--run=clock", "--quick", "--replicate=2", "-o", path)
    check(status == 2 and err == "wtg: --output '%s': --replicate writes text or json, not %s (see 'wtg --help')\n"
          % (path, fmt) and not os.path.exists(path), "--replicate -o %s: exit 2, one line, nothing written: %d %r"
          % (name, status, err))

# a --replicate document of another program (its top-level "tool"), whatever its runs say, is refused
foreign = json.load(open(pbase))
foreign["tool"] = "other"
foreign["replicates"] = len(foreign["runs"])
pf = os.path.join(tmp, "for\x1b[31meign.json")
json.dump(foreign, open(pf, "w"))
for opt in ["--load=", "--baseline="]:
    extra = ["--load=" + FIX_A] if opt == "--baseline=" else ["--format=json"]
    status, out, err = run(opt + pf, *extra)
    check(status == 2 and err == "wtg: %s: not a wtg report (no \"tool\": \"wtg\")\n" % pf.replace("\x1b", "\\e"),
          "%s a --replicate document whose tool is not wtg: exit 2, one line naming the file, escaped: %d %r"
          % (opt, status, err))

finish()
