"""Invariants of the latency experiments: syscall, readcost, clock (--quick, headless JSON).

Only structure and formulas are asserted: row counts, sample counts, ordered quantiles, intervals
holding their medians, derived columns recomputed from the others, notes that must appear exactly
when their condition holds. No timing is asserted."""
import math
import os
import re
import shutil
import time
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import (check, datadir, datadir_is_empty, experiment, finish, q7, rows,  # noqa: E402
                     run_json, series, spec_columns_and_checks, used_samples)

DIST = ["operation", "samples", "mean_ns", "median_ns", "p90_ns", "p99_ns", "max_ns",
        "ci_low_ns", "ci_high_ns"]
SPEC = {
    "syscall": ["batch", "batches", "median_ns", "p99_ns"],
    "readcost": DIST,
    "clock": DIST,
}
READCOST_OPS = ["getpid", "1-byte /dev/zero read", "1-byte file read"]


def close(a, b, rel=1e-4):
    return math.isclose(a, b, rel_tol=rel, abs_tol=1e-6)


def from_series(name, r, v, cols):
    """Recompute the row's figures from its raw samples (time order kept)."""
    n = len(v)
    want = {"min_ns": min(v), "max_ns": max(v), "median_ns": q7(v, 0.5), "p90_ns": q7(v, 0.9),
            "p99_ns": q7(v, 0.99), "mean_ns": sum(v) / n}
    for c in cols:
        check(close(r[c], want[c], 1e-6),
              "%s: %s %s recomputed from the series: %s" % (name, c, r[c], want[c]))
    if "drift_pct" in r and n >= 2:
        first, second = q7(v[:n // 2], 0.5), q7(v[n // 2:], 0.5)
        if first:
            check(close(r["drift_pct"], 100 * (second - first) / first, 1e-4),
                  name + ": drift from the halves")


def common(exp, name):
    if not spec_columns_and_checks(exp, name, SPEC[name]):
        return False
    units = {c["name"]: c["unit"] for c in exp["columns"]}
    for c, u in units.items():
        if c.endswith("_ns"):
            check(u == "ns", "%s: %s in ns" % (name, c))
    return True


def check_distribution(name, r):
    check(r["min_ns"] <= r["median_ns"] <= r["p90_ns"] <= r["p99_ns"] <= r["max_ns"],
          "%s %s: min <= median <= p90 <= p99 <= max" % (name, r["operation"]))
    check(r["min_ns"] <= r["mean_ns"] <= r["max_ns"], "%s %s: mean within range" % (name, r["operation"]))
    check(r["ci_low_ns"] <= r["median_ns"] <= r["ci_high_ns"],
          "%s %s: CI [%s, %s] holds the median %s" % (name, r["operation"], r["ci_low_ns"], r["ci_high_ns"],
                                                       r["median_ns"]))


def drift_notes(exp, label):
    return [n for n in exp["notes"] if n.startswith("drift: " + label)]


def check_syscall(exp):
    if not common(exp, "syscall"):
        return
    rs = rows(exp)
    check([r["batch"] for r in rs] == [1, 10, 100, 1000, 10000], "syscall: batch sizes 1 .. 10000")
    check(all(r["batches"] == 100 for r in rs), "syscall: 100 batches per size in --quick")
    clocks = {r["clock_ns"] for r in rs}
    check(len(clocks) == 1 and min(clocks) >= 0, "syscall: one measured clock pair cost")
    for r in rs:
        b = r["batch"]
        check(r["min_ns"] <= r["median_ns"] <= r["p99_ns"], "syscall %d: min <= median <= p99" % b)
        check(r["min_ns"] <= r["mean_ns"], "syscall %d: min <= mean" % b)
        check(r["ci_low_ns"] <= r["median_ns"] <= r["ci_high_ns"], "syscall %d: CI holds the median" % b)
        check(r["median_ns"] > 0, "syscall %d: a call takes time" % b)
        check(close(r["clock_share_pct"], 100.0 * r["clock_ns"] / b / r["median_ns"]),
              "syscall %d: clock_share_pct = clock_ns / batch / median" % b)
        v = series(exp, "batch %d" % b)
        flags = series(exp, "batch %d contended" % b)
        if check(v is not None and len(v) == r["batches"], "syscall %d: the batches kept as a series" % b):
            check(flags is not None and len(flags) == len(v) and sum(flags) == r["contended"],
                  "syscall %d: every batch flagged contended or not, %s contended" % (b, r["contended"]))
            from_series("syscall %d" % b, r, used_samples(exp, "batch %d" % b),
                        ["min_ns", "median_ns", "p99_ns", "mean_ns"])
    v = series(exp, "clock pair")
    if check(v is not None and len(v) == 100, "syscall: the clock pairs kept as a series") and rs:
        check(close(rs[0]["clock_ns"], q7(v, 0.5), 1e-6), "syscall: clock_ns is the clock pairs' median")
    check(any(n.startswith("batch=1 includes the stopwatch") for n in exp["notes"]), "syscall: clock note")
    read = [re.search(r"less the CPU clock's own read, (\d+) ns here", n) for n in exp["notes"]]
    read = [int(m.group(1)) for m in read if m]
    if check(len(read) == 1, "syscall: the note names the CPU clock read taken out of the on-CPU time"):
        for r in rs:
            b = r["batch"]
            if r["median_ns"] * b < 20 * read[0]:
                check(r["cpu_share"] is None and r["oncpu_ns"] is None,
                      "syscall %d: a batch of %.0f ns under 20 CPU clock reads of %d ns has no on-CPU share"
                      % (b, r["median_ns"] * b, read[0]))
            elif r["cpu_share"] is not None:
                # the read's cost is out of the CPU time: no batch ran longer on a CPU than it took
                check(0 < r["cpu_share"] <= 1.1 and r["oncpu_ns"] <= 1.1 * r["median_ns"],
                      "syscall %d: on a CPU at most the batch's time (share %s, %s of %s ns a call)"
                      % (b, r["cpu_share"], r["oncpu_ns"], r["median_ns"]))
    check(any("seeded random order" in n for n in exp["notes"]), "syscall: interleaving note")


def check_readcost(exp):
    if not common(exp, "readcost"):
        return
    rs = rows(exp)
    check([r["operation"] for r in rs] == READCOST_OPS, "readcost: the three operations, got %s" %
          [r["operation"] for r in rs])
    for r in rs:
        check(r["samples"] == 40, "readcost %s: 40 samples in --quick" % r["operation"])
        check(r["calls_per_sample"] == 5000, "readcost %s: 5000 calls per sample" % r["operation"])
        check_distribution("readcost", r)
        v = series(exp, r["operation"])
        if check(v is not None and len(v) == 40, "readcost %s: samples kept as a series" % r["operation"]):
            from_series("readcost " + r["operation"], r, v,
                        ["min_ns", "median_ns", "p90_ns", "p99_ns", "max_ns", "mean_ns"])
        has = len(drift_notes(exp, r["operation"] + "'s")) == 1
        if abs(abs(r["drift_pct"]) - 5) > 0.01:  # the printed value may be rounded
            check(has == (abs(r["drift_pct"]) > 5), "readcost %s: drift note iff |drift| %.2f%% > 5%%" %
                  (r["operation"], r["drift_pct"]))
    med = [n for n in exp["notes"] if n.startswith("medians: ")]
    if check(len(med) == 1, "readcost: the ordering note"):
        m = re.match(r"medians: getpid ([0-9.]+) ns, /dev/zero ([0-9.]+) ns, file ([0-9.]+) ns", med[0])
        check(m is not None, "readcost: ordering note format")
        if m and len(rs) == 3:
            for i, r in enumerate(rs):
                check(abs(float(m.group(i + 1)) - r["median_ns"]) <= 0.051,
                      "readcost: note repeats the medians")
            word = "exceeds" if rs[2]["median_ns"] >= rs[0]["median_ns"] else "is below"
            check(("the file read %s the bare crossing" % word) in med[0], "readcost: ordering stated right")
    sumcheck = [c for c in exp["checks"] if c["name"] == "sum"]
    # a warm-up round, and one more after each replica the run's other experiments measured after
    again = [int(x) for n in exp["notes"] for x in re.findall(r"other experiments measured after (\d) of", n)]
    batches = 41 + (again[0] if again else 0)
    check(len(sumcheck) == 1 and sumcheck[0]["detail"].startswith("file reads: %d batches of 5000 bytes" % batches),
          "readcost: every file batch (warm-up rounds included) checked: %d" % batches)
    check(any(c["name"] == "zero" for c in exp["checks"]), "readcost: /dev/zero check")


def check_clock(exp, n):
    if not common(exp, "clock"):
        return
    rs = rows(exp)
    if not check(len(rs) == 1, "clock: one row"):
        return
    r = rs[0]
    check(r["operation"] == "clock_gettime pair", "clock: label")
    check(r["samples"] == n, "clock: %d pairs in --quick" % n)
    check_distribution("clock", r)
    check(0 <= r["zero_pairs"] <= n, "clock: zero_pairs within the samples")
    check(close(r["zero_pct"], 100.0 * r["zero_pairs"] / n), "clock: zero_pct = zero_pairs / samples")
    check(r["min_ns"] >= 0, "clock: a monotonic clock never goes back")
    check(r["zero_pairs"] == 0 or r["min_ns"] == 0, "clock: zero pairs make the minimum 0")
    check(r["zero_pairs"] <= n // 2 or r["median_ns"] == 0, "clock: most pairs zero make the median 0")
    v = series(exp, "clock_gettime pair")
    if check(v is not None and len(v) == n, "clock: every pair kept as a series"):
        check(sum(1 for x in v if x == 0) == r["zero_pairs"], "clock: zero_pairs counted from the series")
        check(min(v) >= 0, "clock: no pair went backwards")
        from_series("clock", r, v, ["min_ns", "median_ns", "p90_ns", "p99_ns", "max_ns", "mean_ns"])
    check(r["resolution_ns"] is None or r["resolution_ns"] >= 1, "clock: resolution from clock_getres")
    check(any(("%d pairs, %d of them zero" % (n, r["zero_pairs"])) in x for x in exp["notes"]),
          "clock: the zero-pair note repeats the count")
    check(any(x.startswith("bootstrap CI of the median over all %d pairs" % n) for x in exp["notes"]),
          "clock: the bootstrap method is stated")


def quiet_agrees(exp, label):
    """syscall's "quiet" check, its others_runnable column and its verdict tell one story: the check
    warns exactly when the run's average beyond its own burners reaches 1, and the verdict then says
    the machine was busy. Returns the check (None when missing)."""
    rs = rows(exp)
    q = [c for c in exp["checks"] if c["name"] == "quiet"]
    if not check(len(q) == 1, "%s: one quiet check" % label):
        return None
    if not check(all(r["others_runnable"] is not None and r["others_runnable"] >= 0 for r in rs),
                 "%s: every row counts the other runnable tasks" % label):
        return q[0]
    # the check's average is the rows' average weighted by their reads; the rows read alike
    m = re.search(r"([0-9.]+) other tasks runnable", q[0]["detail"])
    check(m is not None and min(r["others_runnable"] for r in rs) - 0.01 <= float(m.group(1))
          <= max(r["others_runnable"] for r in rs) + 0.01,
          "%s: the quiet check's average lies among the rows' (%s)" % (label, q[0]["detail"][:60]))
    busy = q[0]["status"] == "warn"
    check(busy == ("on a busy machine" in exp["verdict"]),
          "%s: the verdict says busy exactly when the quiet check warns: %r" % (label, exp["verdict"]))
    return q[0]


def spinners(n):
    """n processes that never sleep: each is always runnable, so procs_running counts them all. They
    spin under SCHED_IDLE, so the tests that run beside this one (make check -j) lose no CPU to them."""
    code = "import os\nos.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))\nwhile True: pass"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(n)]


def check_busy():
    """Among three spinning processes the row cannot give a quiet machine's figure, and says so; beside
    the run's own burners, they are the condition and only what is runnable beyond them counts."""
    procs = spinners(3)
    try:
        time.sleep(0.3)
        status, doc, err = run_json("syscall")
        if check(status == 0 and doc is not None, "syscall among 3 spinners: exit 0, JSON (%r)" % err):
            exp = experiment(doc, "syscall")
            q = quiet_agrees(exp, "syscall among 3 spinners")
            if q is not None:
                check(q["status"] == "warn" and q["detail"].startswith("the machine was busy: ")
                      and all(r["others_runnable"] >= 2.5 for r in rows(exp)),
                      "syscall among 3 spinners: every row counts them and the quiet check warns: %s"
                      % q["detail"])
                check("on a busy machine, " in exp["verdict"], "syscall among 3 spinners: the verdict "
                      "says the machine was busy: %r" % exp["verdict"])
        status, doc, err = run_json("syscall", "--burn=2")
        if check(status == 0 and doc is not None, "syscall --burn=2 among 3 spinners: exit 0, JSON"):
            exp = experiment(doc, "syscall")
            q = quiet_agrees(exp, "syscall --burn=2 among 3 spinners")
            if q is not None:
                check(q["status"] == "warn" and "beyond this run's own 2 burners" in q["detail"],
                      "syscall --burn=2 among 3 spinners: busy beyond its own burners: %s" % q["detail"])
    finally:
        for p in procs:
            p.kill()
            p.wait()


def main():
    try:
        status, doc, err = run_json("syscall,readcost,clock")
        check(status == 0, "exit status %d, stderr %r" % (status, err))
        if check(doc is not None, "output is JSON"):
            check_syscall(experiment(doc, "syscall"))
            quiet_agrees(experiment(doc, "syscall"), "syscall")
            check_readcost(experiment(doc, "readcost"))
            check_clock(experiment(doc, "clock"), 50000)
        check(datadir_is_empty(), "the data file wtg created is removed (--dir is empty)")
        check_busy()
        # the clock experiment needs no data file; a --seed changes nothing structural
        status, doc, err = run_json("clock", "--seed=7")
        check(status == 0, "clock --seed=7: exit status %d, stderr %r" % (status, err))
        if check(doc is not None, "clock --seed=7: JSON"):
            check_clock(experiment(doc, "clock"), 50000)
    finally:
        shutil.rmtree(datadir(), ignore_errors=True)
    finish("test_latency.py")


main()
