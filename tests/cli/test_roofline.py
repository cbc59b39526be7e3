"""roofline in --quick mode, and tail on a hybrid laptop's topology (a sysfs fixture): the part of the
CPU experiments' checks that runs beside test_cpu.py under make check.

Invariants only: rows per (buffer, intensity), each a distribution; gops = gbps x intensity; the
ridge notes and the bound column recomputed from the rows. Never a timing."""
import decimal
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from wtgtest import check, close, datadir_is_empty, experiment, experiment_done, finish, rows, run, run_json

TOP = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SPEC = ["buffer", "wss", "ops_per_byte", "gbps", "gbps_ci_low", "gbps_ci_high"]


def common(e, name):
    """roofline's columns in the SPEC's order first, every check ok, state done."""
    return experiment_done(e, name, SPEC)


# --- roofline -------------------------------------------------------------------------------------
# --quick measures every other intensity: 1/64, 1/16, 1/4, 1, 4, 16, 64 (the default all 13)
INTENSITIES = [2.0 ** e for e in range(-6, 7, 2)]


def printed_as(text, value):
    """text is value as printed with fewer digits: within half a unit of its last digit (0.102 for
    0.101662; a relative bound alone fails when the figure starts with 1)."""
    d = decimal.Decimal(text)
    return abs(float(d) - value) <= 0.5 * 10.0 ** d.as_tuple().exponent * (1 + 1e-9)


def check_roofline(e, tag, l1=None):
    """Rows per (buffer, intensity), each a distribution; gops = gbps x intensity; the ridge notes
    and the bound column agree with the roofs recomputed from the rows."""
    if not common(e, "roofline"):
        return
    rs = rows(e)
    check([(r["buffer"], r["ops_per_byte"]) for r in rs] ==
          [(b, i) for b in ("cache", "memory") for i in INTENSITIES],
          tag + "rows: cache then memory, 1/64, 1/16 .. 64 ops per byte")
    check(any(n.startswith("--quick measures every other intensity (1/64, 1/16, 1/4, 1, 4, 16, 64 ops per byte")
              and ", 7 per buffer;" in n for n in e["notes"]), tag + "a note names the --quick grid")
    for r in rs:
        name = "%s%s %g: " % (tag, r["buffer"], r["ops_per_byte"])
        check(r["samples"] >= 15, name + "at least 15 samples")
        check(r["gbps_min"] <= r["gbps_ci_low"] <= r["gbps"] <= r["gbps_ci_high"] <= r["gbps_max"],
              name + "min <= ci_low <= median <= ci_high <= max")
        check(close(r["gops"], r["gbps"] * r["ops_per_byte"], 1e-9), name + "gops = gbps x ops per byte")
        check(close(r["gops_ci_low"], r["gbps_ci_low"] * r["ops_per_byte"], 1e-9)
              and close(r["gops_ci_high"], r["gbps_ci_high"] * r["ops_per_byte"], 1e-9), name + "gops interval")
        check(r["ops"] == r["bytes"] * r["ops_per_byte"] and r["bytes"] % 64 == 0, name + "ops = bytes x intensity")
        check(close(r["ms"], r["bytes"] / (r["gbps"] * 1e6), 1e-6), name + "ms = bytes / gbps")
    by = {b: [r for r in rs if r["buffer"] == b] for b in ("cache", "memory")}
    cache, mem = by["cache"], by["memory"]
    if cache and mem:
        check(cache[0]["wss"] < mem[0]["wss"], tag + "the cache buffer is the smaller")
        if l1:
            check(cache[0]["wss"] == l1 // 2 // 64 * 64, tag + "the cache buffer is half the L1d")
    for b, rr in by.items():
        if not rr:
            continue
        bw = max(r["gbps"] for r in rr)
        ops = max(r["gops"] for r in rr)
        ridge = ops / bw
        for r in rr:
            check(r["bound"] == ("bytes" if r["ops_per_byte"] < ridge else "math"),
                  tag + "%s %g: bound %s against the ridge %g" % (b, r["ops_per_byte"], r["bound"], ridge))
        m = [re.match(r"%s \([^)]*\): the time switches from bytes to math at about ([0-9.e+-]+) ops per byte"
                      % b, n) for n in e["notes"]]
        m = [x for x in m if x]
        check(len(m) == 1 and (close(float(m[0].group(1)), ridge, 2e-3) or printed_as(m[0].group(1), ridge)),
              tag + "%s: the ridge note says %s, the rows give %g" % (b, m[0].group(1) if m else None, ridge))
    res = [c for c in e["checks"] if c["name"] == "results"]
    windows = sum(w["windows"] for w in e.get("warmup", []))
    nvar = 2 * len(INTENSITIES)
    check(len(res) == 1 and res[0]["detail"].startswith("%d samples" % (nvar * 17 + 3 * windows)),
          tag + "every sample (15 rounds and two warm-ups x %d, 3 x %d warm-up windows) compared with the "
          "reference: %r" % (nvar, windows, res))
    # a sample grows from its warm-ups to span 1.5 x 5 ms at their rate (more lines, the same ops per
    # byte): how long it lasts depends on the machine's speed and load, so it is recorded, not asserted
    short = [(r["buffer"], r["ops_per_byte"], r["sample_ms"]) for r in rs
             if not (isinstance(r["sample_ms"], (int, float)) and r["sample_ms"] > 0)]
    check(not short, tag + "every row records its sample's span: %s" % short)


status, doc, err = run_json("roofline")
check(status == 0, "roofline exit 0 (got %d: %s)" % (status, err.strip()))
if check(doc is not None, "roofline JSON parses"):
    l1 = [c["size_bytes"] for c in doc["machine"].get("caches", []) if c.get("level") == 1 and c.get("type") != "Instruction"]
    e = experiment(doc, "roofline")
    check_roofline(e, "", l1[0] if l1 else None)
    check(e is not None and "policy" not in [c["name"] for c in e["columns"]],
          "roofline: no policy column of its own (the background policy is a condition, cond_policy)")
    check(e is not None and all(r["cond_policy"] == "normal" for r in rows(e)),
          "roofline: every row carries the run's policy, normal")
    types = doc["machine"]["topology"]["core_types"]
    if e and len(types) == 1:
        check(all(r["core_type"] == types[0]["type"] for r in rows(e)),
              "roofline: every row's core_type is the one type %r" % types[0]["type"])
        check(any(x.startswith("one core type on this machine") for x in e["notes"]), "roofline: a note says one core type")

# --- tail on a hybrid laptop's topology (fixture): CPUs 0-7 are P-cores -----------------------------
fdir = tempfile.mkdtemp(prefix="wtg-cpu-")
fx = os.path.join(fdir, "hybrid")
subprocess.run([sys.executable, os.path.join(TOP, "tests", "fixtures", "mksysfs.py"), "hybrid", fx], check=True)
status, out, err = run("--run=tail", "--quick", "--format=json", env={"WTG_SYSFS_ROOT": fx})
try:
    doc = json.loads(out)
except ValueError:
    doc = None
if check(status == 0 and doc is not None, "tail on the hybrid fixture exits 0 (%s)" % err.strip()):
    e = experiment(doc, "tail")
    ncpu = os.cpu_count() or 1
    # this machine's CPUs are the fixture's first ones: P-cores up to 8, then E-cores
    want = "performance" if ncpu <= 8 else None
    ct = [r["core_type"] for r in rows(e)]
    check(len(ct) == 2 and (want is None or ct == [want, want]), "tail: each condition's core types: %r" % ct)
    rs = rows(e)
    if check(len(rs) == 2, "tail: two rows"):
        off, on = rs
        check(off["p99_ratio"] == 1 and off["p99_ratio_ci_low"] is None, "tail: the quiet row's ratio is 1, no interval")
        check(on["p99_ratio_ci_low"] is not None and 0 < on["p99_ratio_ci_low"] <= on["p99_ratio_ci_high"],
              "tail: the p99 ratio has a bootstrap interval: %r" % [on["p99_ratio_ci_low"], on["p99_ratio_ci_high"]])
        check(close(on["p99_ratio"], on["p99_ns"] / off["p99_ns"], 1e-6), "tail: p99_ratio = p99 on / p99 off")
        for r in rs:
            check(r["others_runnable"] is None or r["others_runnable"] >= 0, "tail: others_runnable >= 0")
            check(r["runq_wait_pct"] is None or 0 <= r["runq_wait_pct"] <= 100, "tail: runq_wait_pct a share")
        quiet = [c for c in e["checks"] if c["name"] == "quiet"]
        busy = (off["runq_wait_pct"] or 0) > 1 or (off["others_runnable"] or 0) >= 1
        check(len(quiet) == 1 and quiet[0]["status"] == ("warn" if busy else "ok"),
              "tail: the quiet check follows the quiet blocks' wait and runnable tasks: %r" % quiet)
    check(any(x.startswith("core types: P = performance (CPUs 0-7), E = efficiency (CPUs 8-15); core_type is "
                           "the share") for x in e["notes"]), "tail: a note names the core types: %r" % e["notes"])
shutil.rmtree(fdir)
check(datadir_is_empty(), "roofline: the data file is removed")

finish()
