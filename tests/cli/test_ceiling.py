#!/usr/bin/env python3
"""ceiling in --quick mode, its memory-sized buffer capped by WTG_TEST_MAX_BUFFER (64M unless the
environment says otherwise): the --dry-run plan and the run hold the same variants in the same order,
an L1-sized buffer's, an L2-sized buffer's (half of each cache the machine block lists) and the
memory-sized buffer's; every row is a distribution measured in rounds; each row's ratio is its median
over its buffer's reference's and its interval holds it; each reference's ratio is 1; every sum, the
loads and the chase are checked; the chase's ns per load is 64 B over its GB/s; the second-thread row
is there exactly when this process may run on two CPUs; bytes_per_cycle is GB/s over one clock on
every row and the load limit one figure; the verdict has a part per buffer, memory's first: in a cache the
arithmetic when loads alone run faster beyond noise, else the loads; in memory the row whose ratio
lies furthest from 1 (log scale) among those whose interval leaves 1 out, or none. Invariants only:
no measured figure's size or direction is asserted."""
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("WTG_TEST_MAX_BUFFER", "64M")
from wtgtest import (check, check_rounds, close, datadir, diag, experiment, finish_clean, rows, run, run_json,
                     save_json)

STREAMS = {"1 stream": 1, "2 streams": 2, "4 streams": 4, "8 streams": 8}
PEER = len(os.sched_getaffinity(0)) >= 2

# ---- the plan ----
status, out, err = run("--dry-run", "--run=ceiling", "--quick", "--format=json")
check(status == 0, "--dry-run --run=ceiling exits 0 (got %d: %s)" % (status, err.strip()))
try:
    plan = [p for p in json.loads(out)["plan"] if p["experiment"] == "ceiling"]
except (ValueError, KeyError):
    plan = []
check(len(plan) == 1, "the plan holds ceiling once")
planned = [r["variant"] for r in plan[0]["rows"]] if plan else []
diag("planned: %r" % planned)
# --quick: the streams at their ends only (1 and 8; 2 and 4 without --quick), and in the caches the
# reference and loads only, the rows the verdict reads there
CACHED = ["reference", "loads only"]
want = ["L1 " + v for v in CACHED] + ["L2 " + v for v in CACHED]
want += ["reference", "loads only", "4K pages", "1 stream", "8 streams", "prefetch"]
want += ["second thread"] if PEER else []
want += ["chase"]
check(planned == want, "the plan lists every variant (second thread: %s): %r" % (PEER, planned))
check(plan and plan[0]["samples"] >= 15, "the plan says 15 samples or more per row")
check(plan and [r["level"] for r in plan[0]["rows"]] == ["L1"] * 2 + ["L2"] * 2 + ["memory"] * (len(want) - 4),
      "the plan gives each row its buffer: L1, L2, memory")


def level_of(v):
    """The buffer a row's variant names, and the variant without it."""
    head, _, rest = v.partition(" ")
    return (head, rest) if head in ("L1", "L2") else ("memory", v)


# ---- the run ----
status, doc, err = run_json("ceiling")
check(status == 0, "ceiling exits 0 (got %d: %s)" % (status, err.strip()))
e = experiment(doc, "ceiling") if doc else None
if not check(e is not None, "ceiling is in the JSON"):
    finish_clean()
check(e["state"] == "done", "ceiling state done, got %r (%r)" % (e["state"], e.get("error")))
rs = check_rounds(e, "ceiling", "gbps", lambda r: r["variant"])
got = [r["variant"] for r in rs]
check(got == planned, "the run's rows are the plan's variants, in its order: %r" % got)
check("--quick: 1 and 8 streams only (2 and 4 streams without --quick); in the caches the reference and "
      "loads only, the rows their verdict reads (the streams and the prefetch there too without --quick)" in e["notes"],
      "a note says --quick measures 1 and 8 streams only, and in the caches the reference and loads only")
by = {r["variant"]: r for r in rs}
refs = {lv: by.get(("%s reference" % lv) if lv != "memory" else "reference") for lv in ("L1", "L2", "memory")}
ref = refs["memory"]
chase = by.get("chase")
check(ref is not None and chase is not None, "a reference row and a chase row")
fails = [c for c in e["checks"] if not c["ok"]]
check(not fails, "every check ok: %r" % fails)

# the ratios: each reference's is 1 with no interval; the chase's is none; the others hold theirs
for lv, rf in refs.items():
    check(rf is not None and rf["ratio"] == 1 and rf["ratio_ci_low"] is None and rf["ratio_ci_high"] is None,
          "%s: the reference's ratio is 1, without an interval: %r"
          % (lv, rf and [rf[k] for k in ("ratio", "ratio_ci_low", "ratio_ci_high")]))
for r in rs:
    lv, base = level_of(r["variant"])
    check(r["level"] == lv, "%s: level %r" % (r["variant"], r["level"]))
    if base in ("reference", "chase"):
        continue
    lo, x, hi = r["ratio_ci_low"], r["ratio"], r["ratio_ci_high"]
    check(None not in (lo, x, hi) and lo <= x <= hi,
          "%s: ratio_ci_low <= ratio <= ratio_ci_high: %r" % (r["variant"], [lo, x, hi]))
    rf = refs[lv]
    check(rf and close(x, r["gbps"] / rf["gbps"], 1e-6),
          "%s: ratio = its gbps / its buffer's reference's: %r / %r" % (r["variant"], r["gbps"], rf and rf["gbps"]))

# the buffers: half of L1d and of L2 as the machine block lists them, in 4 KiB pieces; then memory
caches = {c["level"]: c["size_bytes"] for c in doc["machine"]["caches"] if c["type"] != "Instruction"}
wss = {lv: {r["wss"] for r in rs if r["level"] == lv} for lv in ("L1", "L2", "memory")}
check(all(len(w) == 1 for w in wss.values()), "one buffer size per level: %r" % wss)
l1, l2, mem = (min(wss[lv]) for lv in ("L1", "L2", "memory"))
if 1 in caches:
    check(l1 == max(4096, caches[1] // 2 // 4096 * 4096), "L1 rows: half of the %d-byte L1d: %d" % (caches[1], l1))
if 2 in caches:
    check(l2 == max(2 * l1, caches[2] // 2 // 4096 * 4096), "L2 rows: half of the %d-byte L2: %d" % (caches[2], l2))
check(l1 < l2 < mem, "the buffers grow: %d < %d < %d" % (l1, l2, mem))

# the load limit: one figure (or none without a clock); bytes per cycle are GB/s over one clock
limits = {r["load_limit_gbps"] for r in rs}
check(len(limits) == 1, "one load limit on every row: %r" % limits)
clocks = [r["gbps"] / r["bytes_per_cycle"] for r in rs if r["bytes_per_cycle"]]
check((None in limits) == (not clocks), "bytes_per_cycle exactly where there is a load limit")
check(all(close(c, clocks[0], 1e-6) for c in clocks), "bytes_per_cycle = gbps / one clock on every row")

# what each row is
for r in rs:
    v = level_of(r["variant"])[1]
    check(r["pages"] == ("4K" if v == "4K pages" else "2M"), "%s: pages %r" % (v, r["pages"]))
    check(r["huge_pct"] is None or 0 <= r["huge_pct"] <= 100, "%s: huge_pct %r in 0..100" % (v, r["huge_pct"]))
    check(r["streams"] == STREAMS.get(v, 1), "%s: streams %r" % (v, r["streams"]))
    check(r["prefetch"] == (2048 if v == "prefetch" else 0), "%s: prefetch %r B" % (v, r["prefetch"]))
    check(r["threads"] == (2 if v == "second thread" else 1), "%s: threads %r" % (v, r["threads"]))
    check((r["peer_gbps"] is not None and r["peer_gbps"] > 0) == (v == "second thread"),
          "%s: peer_gbps %r only on the second thread's row" % (v, r["peer_gbps"]))
    summed = v not in ("loads only", "chase")
    check((r["sum"] is not None) == summed, "%s: a checked sum %r exactly where it sums" % (v, r["sum"]))
small = by.get("4K pages")
check(small is not None and small["huge_pct"] in (0, None),
      "4K pages: MADV_NOHUGEPAGE leaves no huge page in the copy: %r" % (small and small["huge_pct"]))
if chase:
    check(close(chase["ns_per_load"], 64 / chase["gbps"], 1e-6) and chase["ratio"] is None,
          "chase: ns_per_load = 64 B / its GB/s, no ratio: %r" % [chase["ns_per_load"], chase["gbps"], chase["ratio"]])
    check(chase["bytes"] % 64 == 0, "chase: bytes are 64 per load: %r" % chase["bytes"])
    lo, hi = chase["ns_per_load_ci_low"], chase["ns_per_load_ci_high"]
    check(lo is not None and hi is not None and close(lo, 64 / chase["gbps_ci_high"], 1e-6)
          and close(hi, 64 / chase["gbps_ci_low"], 1e-6) and lo <= chase["ns_per_load"] <= hi,
          "chase: the latency's interval is 64 B over the GB/s interval, around it: %r" % [lo, hi])
    head = [h for h in e["headlines"] if h["figure"] == "load-to-use latency"]
    check(len(head) == 1 and head[0]["ci_low"] == lo and head[0]["ci_high"] == hi,
          "the latency headline carries the interval: %r" % head)
check(all(r["ns_per_load"] is None and r["ns_per_load_ci_low"] is None for r in rs if r["variant"] != "chase"),
      "ns_per_load and its interval only on the chase")

# the checks every row has: a sum per summing row, the loads' and the chase's, the second thread's
names = [c["name"] for c in e["checks"]]
sums = [c for c in e["checks"] if c["name"] == "sum"]
summing = [r for r in rs if r["sum"] is not None]
check(len(sums) == len(summing) + (1 if PEER else 0),
      "a sum check per summing row (%d) and the second thread's: %d" % (len(summing), len(sums)))
check(names.count("loads") == 3 and names.count("chase") == 1, "a loads check per buffer and one chase check")
for r in summing:
    check(any(c["detail"].startswith(r["variant"] + ":") for c in sums), "%s: its sum check" % r["variant"])
notes = " ".join(e["notes"])
if PEER:
    check("pinned to CPU" in notes, "the notes say where the second thread ran")
else:
    check("no second-thread row" in notes, "the notes say why there is no second-thread row")
check(re.search(r"lines in flight", notes) is not None, "a note gives the memory-level parallelism")
check(re.search(r"load limit: (not given: the clock cannot be measured|\d+-byte loads \([^)]+\) x \d+ per cycle x "
                r"[0-9.]+ GHz = \d+ GB/s)", notes) is not None, "a note gives the load limit or why there is none")


# ---- the verdict ----
def expected_memory(rows_):
    """The memory part: the row furthest from 1 (log scale) among those whose interval leaves 1 out."""
    best, judged = None, 0
    for r in rows_:
        if r["level"] != "memory" or r["variant"] in ("reference", "chase") or r["ratio"] is None:
            continue
        judged += 1
        if r["ratio_ci_low"] <= 1 <= r["ratio_ci_high"]:
            continue
        if best is None or abs(math.log(r["ratio"])) > abs(math.log(best["ratio"])):
            best = r
    if best is None:
        return "none moved one core's ceiling beyond noise: each of the %d ratios' 95%% intervals holds 1" % judged
    return "%s: x%.2f [%.2f-%.2f]: " % (best["variant"], best["ratio"], best["ratio_ci_low"], best["ratio_ci_high"])


def expected_cache(rows_, lv):
    """A cache's part: the arithmetic when loads alone run faster beyond noise, else the loads."""
    lr = [r for r in rows_ if r["variant"] == lv + " loads only"][0]
    rf = [r for r in rows_ if r["variant"] == lv + " reference"][0]
    x, lo, hi = lr["ratio"], lr["ratio_ci_low"], lr["ratio_ci_high"]
    if lo > 1:
        return "the arithmetic: loads alone x%.2f [%.2f-%.2f] faster" % (x, lo, hi)
    at = (", the sum at %.2f of the %.0f GB/s load limit" % (rf["gbps"] / rf["load_limit_gbps"], rf["load_limit_gbps"])
          if rf["load_limit_gbps"] else ", the load limit unknown (no clock measured)")
    return "the loads: loads alone no faster (x%.2f [%.2f-%.2f])%s" % (x, lo, hi, at)


verdict = e.get("verdict") or ""
diag("verdict: %s" % verdict)
head = "memory: %s" % expected_memory(rs)
caches = "; L1: %s; L2: %s" % (expected_cache(rs, "L1"), expected_cache(rs, "L2"))
check(verdict.startswith(head) and caches in verdict,
      "the verdict has a part per buffer, memory's first (one core's cap: the question), %r ... %r: %r" %
      (head, caches, verdict))
ref_busy = ref["contended"] if ref else 0
note = " (%d of %d samples waited for a CPU)" % (ref_busy, ref["samples"]) if ref_busy else ""
check(not note or (verdict.count(note) == 1 and note + "; L1: " in verdict),
      "a busy reference's note follows the memory part, once: %r in %r" % (note, verdict))


# ---- the verdict on saved rows whose ratios are set, so both branches are checked whatever this
# machine measured: wtg reads the rows back and words the verdict afresh ----
def verdict_of(ratios):
    """wtg's verdict for this run with the given {variant: (ratio, lo, hi)} written into its rows."""
    saved = json.loads(json.dumps(doc))
    ex = experiment(saved, "ceiling")
    saved["experiments"] = [ex]
    names = [c["name"] for c in ex["columns"]]
    for r in ex["rows"]:
        d = r if isinstance(r, dict) else None
        v = d["variant"] if d else r[names.index("variant")]
        if v in ratios:
            for k, x in zip(("ratio", "ratio_ci_low", "ratio_ci_high"), ratios[v]):
                if d:
                    d[k] = x
                else:
                    r[names.index(k)] = x
    path = save_json(datadir(), saved, "ceiling-verdict.json")
    st, out_, err_ = run("--load=" + path, "--format=json")
    os.remove(path)
    try:
        return st, experiment(json.loads(out_), "ceiling").get("verdict")
    except (ValueError, AttributeError):
        return st, err_


others = [r["variant"] for r in rs if level_of(r["variant"])[1] not in ("reference", "chase")]
quiet = {v: (1.0, 0.9, 1.1) for v in others}


def memory_said(said):
    return (said or "").partition("memory: ")[2] if (said or "").startswith("memory: ") else ""


st, said = verdict_of(dict(quiet, **{"8 streams": (1.3, 0.95, 1.7), "4K pages": (0.8, 0.7, 0.9),
                                     "loads only": (1.1, 1.05, 1.2)}))
check(st == 0 and memory_said(said).startswith("4K pages: x0.80 [0.70-0.90]: translation is part of one core's cap"),
      "saved rows: the memory part names 4K pages, not the larger ratio whose interval holds 1: %r" % said)
st, said = verdict_of(dict(quiet, **{"8 streams": (1.25, 1.2, 1.3)}))
check(st == 0 and memory_said(said).startswith("8 streams: x1.25 [1.20-1.30]: the load machinery"),
      "saved rows: a rise of 8 streams points at the load machinery: %r" % said)
st, said = verdict_of(quiet)
check(st == 0 and memory_said(said).startswith("none moved one core's ceiling beyond noise"),
      "saved rows: every interval holding 1 is none: %r" % said)
# in the caches: loads alone faster beyond noise is the arithmetic, else the loads (with the limit)
st, said = verdict_of(dict(quiet, **{"L1 loads only": (1.7, 1.6, 1.8), "L2 loads only": (1.02, 0.95, 1.1)}))
check(st == 0 and said and "; L1: the arithmetic: loads alone x1.70 [1.60-1.80] faster; "
      "L2: the loads: loads alone no faster (x1.02 [0.95-1.10])" in said,
      "saved rows: loads alone faster in L1 is the arithmetic, within noise in L2 the loads: %r" % said)
lim = refs["L2"] and refs["L2"]["load_limit_gbps"]
if lim:
    tail = "; L2: the loads: loads alone no faster (x1.02 [0.95-1.10]), the sum at %.2f of the %.0f GB/s load limit" % (
        refs["L2"]["gbps"] / lim, lim)
    check(tail in said, "saved rows: the loads' part gives the sum's share of the load limit %r: %r" % (tail, said))
# a table saved before ceiling had levels: one memory-sized buffer, its verdict without a prefix
old = json.loads(json.dumps(doc))
ex = experiment(old, "ceiling")
old["experiments"] = [ex]
cols = [c["name"] for c in ex["columns"]]
keep = [i for i, c in enumerate(cols) if c not in ("level", "wss", "bytes_per_cycle", "load_limit_gbps")]
ex["columns"] = [ex["columns"][i] for i in keep]
lvl = cols.index("level")
ex["rows"] = [[r[i] for i in keep] if isinstance(r, list) else {k: v for k, v in r.items() if k in [cols[i] for i in keep]}
              for r in ex["rows"] if (r[lvl] if isinstance(r, list) else r["level"]) == "memory"]
path = save_json(datadir(), old, "ceiling-old.json")
st, out_, err_ = run("--load=" + path, "--format=json")
os.remove(path)
try:
    said = experiment(json.loads(out_), "ceiling").get("verdict") or ""
except (ValueError, AttributeError):
    said = err_
check(st == 0 and said.startswith(expected_memory([dict(r, level="memory") for r in rs if r["level"] == "memory"])),
      "a saved table without levels: the memory verdict alone, no prefix: %r" % said)
finish_clean()
