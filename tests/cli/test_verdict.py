"""The verdict words of a comparison, from saved fixtures (tests/fixtures/verdict-*.json, made by
tests/fixtures/mkverdict.py): two runs taken one after the other are labelled sequential; faster or
slower only where the interval lies beyond the drift their replicas show, "differ by more than their
intervals: the machine's state moved between the runs" inside it, and said so when no drift was
measured; no change only inside 1 +- the threshold, else inconclusive [a-b]; mmap's ns per fault (a
difference) compared as after - before, never a ratio; the gate's exit 3 as before; two regimes in the
verdict line. Nothing is measured."""
import copy
import csv
import io
import json
import os

from wtgtest import check, datadir, finish, run

TOP_SRCDIR = os.environ.get("top_srcdir") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
tmp = datadir()


def fix(name):
    return os.path.join(TOP_SRCDIR, "tests", "fixtures", "verdict-%s.json" % name)


def compare(*args):
    status, out, err = run(*args)
    doc = json.loads(out) if out.startswith("{") else {"figures": []}
    return status, doc, err


def figure(doc, exp, run=1):
    got = [f for f in doc["figures"] if f["experiment"] == exp and f["run"] == run]
    return got[0] if got else {}


MOVED = "differ by more than their intervals: the machine's state moved between the runs"
NODRIFT = "differ by more than their intervals (no run-to-run drift measured)"

# ---- the rule on each pair of fixtures -------------------------------------------------------------
cases = {
    # name: syscall's verdict, whether the interval holds 1
    "same": ("no change", True),
    "moved": (MOVED, False),
    "slower": ("slower", False),
    "wide": ("inconclusive", True),
}
for name, (want, holds) in cases.items():
    status, doc, err = compare("--load=" + fix("base"), "--load=" + fix(name), "--format=json")
    f = figure(doc, "syscall")
    check(status == 0 and doc.get("sequential") is True and doc.get("no_change_pct") == 10,
          "%s: a sequential comparison, no change inside 1 +- 10%% (exit %d: %s)" % (name, status, err.strip()))
    check(f.get("verdict") == want, "%s: syscall reads '%s': %r" % (name, want, f))
    lo, hi = f.get("ci_low"), f.get("ci_high")
    check(lo is not None and (lo <= 1 <= hi) == holds, "%s: its interval [%s, %s] %s 1" % (name, lo, hi,
                                                                                        "holds" if holds else "excludes"))
    drift = f.get("drift_pct")
    check(drift is not None and drift > 0, "%s: the drift the replicas show is given: %r" % (name, drift))
    if want == "slower":
        check(lo > 1 + drift / 100, "slower: the interval lies beyond the drift (%.3f > 1 + %.1f%%)" % (lo, drift))
    if want == MOVED:
        check(lo > 1 and lo <= 1 + drift / 100 and hi > 1.1,
              "moved: beyond the intervals, inside the drift (%.3f, %.3f; drift %.1f%%)" % (lo, hi, drift))
    if want == "inconclusive":
        check(lo < 0.9 or hi > 1.1, "inconclusive: the interval reaches past 1 +- 10%%: [%.3f, %.3f]" % (lo, hi))
        check(f.get("words") == "inconclusive [%.2f-%.2f]" % (lo, hi), "inconclusive gives its interval: %r"
              % f.get("words"))
    if want == "no change":
        check(0.9 <= lo and hi <= 1.1, "no change: the interval lies inside 1 +- 10%%: [%.3f, %.3f]" % (lo, hi))

# ---- no drift measured: the same runs without their replicas ---------------------------------------
def strip(src, name):
    d = json.load(open(src))
    for e in d["experiments"]:
        for s in e["series"]:
            s.pop("replicas", None)
    p = os.path.join(tmp, name)
    json.dump(d, open(p, "w"))
    return p


a, b = strip(fix("base"), "a.json"), strip(fix("slower"), "b.json")
status, doc, err = compare("--load=" + a, "--load=" + b, "--format=json")
f = figure(doc, "syscall")
check(f.get("verdict") == NODRIFT and f.get("drift_pct") is None and f.get("ci_low", 0) > 1.1,
      "no replicas: x1.5 beyond the intervals, no drift measured: not called slower: %r" % f)
status, out, err = run("--load=" + a, "--load=" + b)
check(not any(l.rstrip().endswith("slower") for l in out.splitlines()) and NODRIFT in out,
      "text: says no drift was measured, never slower")

# ---- the gate: exit 3 as before, whatever the drift ---------------------------------------------------
status, doc, err = compare("--baseline=" + a, "--load=" + b, "--format=json")
check(status == 3 and figure(doc, "syscall").get("verdict") == "slower (regression)",
      "the gate: x1.5 with its interval beyond 10%%: a regression, exit 3 (got %d)" % status)
status, doc, err = compare("--baseline=" + fix("base"), "--load=" + fix("moved"), "--format=json")
check(status == 0 and figure(doc, "syscall").get("verdict") == MOVED,
      "the gate: x1.15 with its interval reaching below 1.1: no regression, exit 0 (got %d)" % status)

# ---- a difference: mmap's ns per fault ----------------------------------------------------------------
status, doc, err = compare("--load=" + fix("base"), "--load=" + fix("same"), "--format=json")
m = figure(doc, "mmap")
check(m.get("ratio") is None and m.get("difference") is not None and m.get("diff_low") <= 0 <= m.get("diff_high"),
      "mmap: a difference with its interval, no ratio: %r" % m)
check(m.get("verdict") == "within its noise" and m.get("words", "").startswith("within its noise: "),
      "mmap: within its noise: %r" % m.get("words"))
check(abs(m["difference"] - (m["value"] - figure(doc, "mmap", 0)["value"])) < 1e-6 * max(1, abs(m["difference"])),
      "mmap: the difference is after - before")
status, doc, err = compare("--load=" + fix("base"), "--load=" + fix("slower"), "--format=json")
m = figure(doc, "mmap")
check(m.get("verdict") == "slower" and m.get("diff_low") > 0, "mmap: 400 ns up, beyond its noise and drift: %r" % m)
status, out, err = run("--load=" + fix("base"), "--load=" + fix("same"))
check("a difference: each run minus the first, never a ratio" in out and "within its noise: " in out,
      "text: mmap's heading and words say it is a difference")
status, out, err = run("--load=" + fix("base"), "--load=" + fix("same"), "--format=csv")
rows = list(csv.DictReader(io.StringIO(out)))
mm = [r for r in rows if r["experiment"] == "mmap" and r["run_index"] == "1"]
check(mm and mm[0]["ratio"] == "" and mm[0]["difference"] != "" and mm[0]["verdict"].startswith("within its noise"),
      "csv: mmap's difference, no ratio: %r" % mm)
check(status == 0 and all(r["verdict"] != "faster" and r["verdict"] != "slower" for r in rows),
      "csv: a rerun of the same machine state is neither faster nor slower")

# ---- two regimes: the verdict line gives both modes -----------------------------------------------------
status, out, err = run("--load=" + fix("regime"), "--format=json")
doc = json.loads(out) if status == 0 else {"experiments": []}
v = [e.get("verdict") for e in doc["experiments"] if e["name"] == "syscall"]
check(v and v[0].endswith("; 85.2 ns (60%) and 103 ns (40%): two regimes; nothing watched moved with them: "
                          "steal not readable, frequency not readable"),
      "the verdict names both modes and their shares, not the median alone, and what moved with them: %r" % v)
status, out, err = run("--load=" + fix("base"), "--format=json")
doc = json.loads(out) if status == 0 else {"experiments": []}
v = [e.get("verdict") for e in doc["experiments"] if e["name"] == "syscall"]
check(v and "two regimes" not in v[0], "one state: the verdict as ever: %r" % v)

finish()
