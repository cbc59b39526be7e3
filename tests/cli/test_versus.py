#!/usr/bin/env python3
"""--versus=COND: the option's errors (exact text); a paired A/A run of syscall and valley (JSON valid
against the schema, both arms' rows, the arm order per round, a paired entry for every headline
figure, each the median of the per-round ratios with the sign-test interval recomputed here); the
text, CSV and Markdown lines of a saved paired run; --dry-run's doubled plan; and an experiment that
cannot alternate saying why. Never a measured figure moving."""
import csv
import io
import json
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import check, experiment, finish_clean, run, run_json, save_json, series, skip_check  # noqa: E402

TOP_SRCDIR = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCHEMA = os.path.join(TOP_SRCDIR, "data", "wtg-report.schema.json")
CHOICES = "same, burn[=N][:spin|stream], background, uncached, cold"

# the option's errors: one line, exit 2
for arg, want in (("--versus=warm", "wtg: --versus: unknown condition 'warm' (%s) (see 'wtg --help')" % CHOICES),
                  ("--versus=burn:lava", "wtg: --versus: unknown condition 'burn:lava' (%s) (see 'wtg --help')"
                   % CHOICES),
                  ("--versus=", "wtg: --versus: unknown condition '' (%s) (see 'wtg --help')" % CHOICES)):
    status, out, err = run("--run=syscall", "--quick", arg)
    check(status == 2 and err == want + "\n" and out == "", "%s: exit 2 and %r (got %d, %r)" % (arg, want, status, err))
status, out, err = run("--run=syscall", "--quick", "--versus=burn=0")
check(status == 2 and err.startswith("wtg: --versus: burn's count must be a whole number from 1 to ")
      and err.endswith(", not '0' (see 'wtg --help')\n"), "--versus=burn=0: exit 2 and the count's range: %r" % err)
status, out, err = run("--versus=same")
check(status == 2 and err == "wtg: --versus goes with --run (see 'wtg --help')\n",
      "--versus without --run: exit 2 and why: %r" % err)
status, out, err = run("--run=syscall", "--quick", "--versus=cold\x1b[31m")
check(status == 2 and "\x1b" not in err, "--versus: the condition is escaped in the error: %r" % err)


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def sign_ranks(n):
    """The sign test's k at 95%: the largest k with P(Binomial(n, 1/2) <= k - 1) <= 2.5%."""
    from math import comb
    k, cdf = 0, 0.0
    for i in range(n // 2 + 1):
        cdf += comb(n, i) / 2 ** n
        if cdf > 0.025 * (1 + 1e-12):
            break
        k = i + 1
    return k


def headline_row(exp, h):
    """The 1-based index of the arm-A row a headline names (its key column)."""
    key = {"syscall": ("batch", 1000), "valley": ("bufsize", None)}[exp["name"]]
    for i, r in enumerate(exp["rows"]):
        if r.get("arm") != "A":
            continue
        if exp["name"] == "syscall" and r["batch"] == 1000:
            return i + 1
        if exp["name"] == "valley" and (("16-byte" in h and r["bufsize"] == 16) or
                                        ("64 KiB" in h and r["bufsize"] == 65536)):
            return i + 1
    return None


status, doc, err = run_json("syscall,valley", "--versus=same")
check(status == 0 and doc is not None, "a paired A/A run of syscall and valley: exit 0 (%s)" % err.strip()[-200:])
if doc:
    try:
        import jsonschema
        try:
            jsonschema.validate(doc, json.load(open(SCHEMA)))
            check(True, "the paired run's JSON validates against the schema")
        except jsonschema.ValidationError as e:
            check(False, "the paired run's JSON validates: %s at %s" % (e.message, list(e.absolute_path)))
    except ImportError:
        skip_check("the paired run's JSON validates against the schema", "the Python module jsonschema is not installed")
    for name, nheadlines in (("syscall", 1), ("valley", 2)):
        e = experiment(doc, name)
        check(e is not None and e["state"] == "done", "%s ran to the end" % name)
        if not e:
            continue
        arms = [r.get("arm") for r in e["rows"]]
        na, nb = arms.count("A"), arms.count("B")
        check(na > 0 and na == nb and arms == ["A"] * na + ["B"] * nb,
              "%s: as many arm B rows as arm A rows, A's first: %r" % (name, arms))
        check("arm" in [c["name"] for c in e["columns"]], "%s: the column arm is declared" % name)
        order = series(e, "arm order")
        check(order is not None and len(order) >= 15 and set(order) <= {0, 1},
              "%s: the arm order of every round is kept (0 A first, 1 B first): %r" % (name, order))
        pe = e.get("paired", [])
        check(len(pe) == nheadlines and [p["figure"] for p in pe] == [h["figure"] for h in e["headlines"]],
              "%s: a paired entry for each of its %d headline figures: %r" % (name, nheadlines, pe))
        for p in pe:
            row = headline_row(e, p["figure"])
            a = series(e, "row %s arm A" % row)
            b = series(e, "row %s arm B" % row)
            ok = a is not None and b is not None and len(a) == len(b) == p["rounds"] == len(order)
            check(ok, "%s %s: the per-round figures of both arms, one per round" % (name, p["figure"]))
            if not ok:
                continue
            ratios = sorted(y / x for x, y in zip(a, b))
            k = sign_ranks(len(ratios))
            check(p["kind"] == "ratio" and p["difference"] is None and
                  abs(p["ratio"] - median(ratios)) <= 1e-9 * abs(p["ratio"]),
                  "%s %s: the paired ratio %r is the median of the per-round ratios B/A" % (name, p["figure"],
                                                                                         p["ratio"]))
            check(abs(p["ci_low"] - ratios[k - 1]) <= 1e-9 * p["ci_low"] and
                  abs(p["ci_high"] - ratios[-k]) <= 1e-9 * p["ci_high"],
                  "%s %s: the interval is order statistics %d and %d of the %d ratios" % (name, p["figure"], k,
                                                                                          len(ratios) + 1 - k,
                                                                                          len(ratios)))
            check(p["coverage_pct"] >= 95 and p["ci_low"] <= p["ratio"] <= p["ci_high"],
                  "%s %s: coverage at least 95%% and the ratio inside its interval" % (name, p["figure"]))
            hv = [h["value"] for h in e["headlines"] if h["figure"] == p["figure"]]
            col = "median_ns" if name == "syscall" else "gbps"
            brow = [r for r in e["rows"] if r.get("arm") == "B" and
                    all(r[k] == e["rows"][row - 1][k] for k in ("batch", "bufsize") if k in r)]
            check(hv and p["a"] == hv[0] and len(brow) == 1 and p["b"] == brow[0][col],
                  "%s %s: a is the headline figure (arm A's row), b arm B's row's: %r %r" % (name, p["figure"],
                                                                                          p["a"], p["b"]))
            inside = p["ci_low"] <= 1 <= p["ci_high"]
            check(inside or p["verdict"] in ("faster", "slower", "slower (regression)"),
                  "%s %s: an interval excluding 1 is called faster or slower: %r" % (name, p["figure"], p["verdict"]))
            check(not inside or p["verdict"] not in ("faster", "slower", "slower (regression)"),
                  "%s %s: an interval holding 1 is never called faster or slower: %r" % (name, p["figure"],
                                                                                         p["verdict"]))
        if name == "syscall":
            # arm B measures as long as arm A each round: as many batches of every size, or fewer,
            # its rows saying how many, the series and the note agreeing with them
            rows_a = [r for r in e["rows"] if r["arm"] == "A"]
            rows_b = [r for r in e["rows"] if r["arm"] == "B"]
            nb = {r["batches"] for r in rows_b}
            check(len(nb) == 1 and 0 < min(nb) <= min(r["batches"] for r in rows_a),
                  "syscall: arm B's sizes keep one count of batches, at most arm A's: %r" % sorted(nb))
            m = min(nb) if nb else -1
            lens = [len(series(e, "B: batch %d" % r["batch"]) or []) for r in rows_b]
            check(lens == [m] * len(rows_b), "syscall: arm B's series hold its %d batches a size: %r" % (m, lens))
            note = [n for n in e["notes"] if n.startswith("paired: each round arm B measured until its time so far reached arm A")]
            got = re.search(r"B ran (\d+) of its (\d+) shuffled slots; its rows keep the first (\d+) batches",
                            note[0]) if note else None
            check(got is not None and int(got.group(3)) == m and int(got.group(2)) == 6 * rows_a[0]["batches"] and
                  6 * m <= int(got.group(1)) <= int(got.group(2)),
                  "syscall: the note says how far arm B ran and the batches it keeps: %r" % note)
        if name == "valley":
            # each arm sized by its own warm-up: arm B's pass reads whole buffers and whole pages, never
            # more than arm A's; its sums and calls are checked as arm A's
            check(any(n.startswith("each arm's samples are sized by its own warm-up: after arm A's, arm B took 2 "
                                   "unreported samples of every row") for n in e["notes"]),
                  "valley: the note says each arm's samples are sized by its own warm-up")
            rows_a = [r for r in e["rows"] if r["arm"] == "A"]
            rows_b = [r for r in e["rows"] if r["arm"] == "B"]
            check(len(rows_a) == len(rows_b) and all(
                b["bufsize"] == a["bufsize"] and 0 < b["bytes"] <= a["bytes"] and
                b["bytes"] % max(b["bufsize"], 4096) == 0 and b["read_calls"] == -(-b["bytes"] // b["bufsize"])
                for a, b in zip(rows_a, rows_b)),
                "valley: arm B's bytes a pass are whole buffers and pages, at most arm A's: %r" %
                [(r["bufsize"], r["bytes"], r["read_calls"]) for r in rows_b])
            named = {c["name"] + " " + c.get("detail", "")[:14]: c["status"] for c in e["checks"]}
            check(all(named.get("sum B: bufsize %s" % s) == "ok" and named.get("read_calls B: bufsize %s" % s) == "ok"
                      for s in ("16B", "64K")),
                  "valley: arm B's sums and read calls are checked: %r" % [k for k in named if "B:" in k])
        h = e["headlines"][0]
        first_a = [r for r in e["rows"] if r.get("arm") == "A"]
        check(h["value"] is not None and any(h["value"] in (r.get("median_ns"), r.get("gbps")) for r in first_a),
              "%s: the headline figure is read from arm A's rows" % name)

    # the writers from the saved paired run: the same entries in text, CSV and Markdown
    folder = tempfile.mkdtemp(prefix="wtg-versus.")
    saved = save_json(folder, doc, "paired.json")
    status, text, err = run("--load=" + saved)
    lines = [ln for ln in text.splitlines() if ln.startswith("  paired: ")]
    flat = " ".join(text.split())
    check(status == 0 and len(lines) == 3 and all(" B / A: x" in ln for ln in lines) and
          flat.count(" rounds (A ") == 3,
          "text: a 'paired:' line per headline figure, B over A with its rounds: %r" % lines)
    status, out, err = run("--load=" + saved, "--format=csv")
    recs = [r for r in csv.DictReader(io.StringIO(out)) if r["kind"] == "paired"]
    want = [(e["name"], p["figure"]) for e in doc["experiments"] for p in e["paired"]]
    check(status == 0 and [(r["experiment"], r["name"]) for r in recs] == want and
          all(r["unit"] == "ratio" and " rounds" in r["text"] for r in recs),
          "csv: a row of kind paired per headline figure: %r" % recs)
    status, out, err = run("--load=" + saved, "--format=markdown")
    check(status == 0 and out.count("Paired, arm B against arm A: ") == 3,
          "markdown: a paired line per headline figure")
    for f in os.listdir(folder):
        os.remove(os.path.join(folder, f))
    os.rmdir(folder)

# an experiment that cannot alternate runs unpaired and says why, in the JSON and the text
status, doc, err = run_json("passes", "--versus=same")
e = experiment(doc, "passes") if doc else None
check(e is not None and e.get("unpaired") == "passes answers with the spread of 30 consecutive passes in time "
      "order, which alternating arms would break" and "paired" not in e and all("arm" not in r for r in e["rows"]),
      "passes under --versus=same: unpaired, with the reason: %r" % (e and e.get("unpaired")))
status, out, err = run("--dry-run", "--run=bytewise,mmap,zerofill", "--quick", "--versus=burn=1")
for why in ("bytewise measures its two ways one after the other, each its own rounds run after a calibration, so "
            "no round holds both arms",
            "mmap measures repetitions, each mapping the file twice and keeping the difference, not rounds of both "
            "arms",
            "zerofill takes 5 repetitions, too few to pair: a sign-test interval at 95% needs 6 rounds or more"):
    # the text wraps at 80 columns (continuation lines indented by 4): read with its lines joined
    check(status == 0 and "  not paired: " + why in re.sub(r"\n    +", " ", out),
          "dry-run: the precise reason %r" % why[:40])

# clock alternates: its pairs in 15 rounds of slices per arm, a row per arm, the per-round medians paired
status, doc, err = run_json("clock", "--versus=same")
e = experiment(doc, "clock") if doc else None
if e:
    order = series(e, "arm order")
    a, b = series(e, "row 1 arm A"), series(e, "row 1 arm B")
    pe = e.get("paired", [])
    check(e["state"] == "done" and e.get("unpaired") is None and [r.get("arm") for r in e["rows"]] == ["A", "B"] and
          e["rows"][0]["samples"] == e["rows"][1]["samples"],
          "clock under --versus=same: a row per arm, as many pairs each: %r" % [r.get("arm") for r in e["rows"]])
    check(order is not None and len(order) == 15 and a is not None and b is not None and len(a) == len(b) == 15 and
          len(pe) == 1 and pe[0]["rounds"] == 15 and
          (pe[0]["kind"] == "difference" or abs(pe[0]["ratio"] - median([y / x for x, y in zip(a, b)])) <= 1e-9),
          "clock: 15 rounds, the paired figure the median of the per-round ratios: %r" % pe)
else:
    check(False, "clock under --versus=same ran: %s" % err.strip()[-200:])

# --dry-run: the plan doubled for an experiment that alternates; tail sets burners itself
status, out, err = run("--dry-run", "--run=syscall,valley,tail", "--quick", "--format=json")
plain = json.loads(out) if status == 0 else None
status, out, err = run("--dry-run", "--run=syscall,valley,tail", "--quick", "--format=json", "--versus=burn=2")
paired_plan = json.loads(out) if status == 0 else None
check(plain is not None and paired_plan is not None, "--dry-run with and without --versus: exit 0")
if plain and paired_plan:
    by = {p["experiment"]: p for p in plain["plan"]}
    for p in paired_plan["plan"]:
        q = by[p["experiment"]]
        if p["experiment"] == "tail":
            check(p["arms"] == 1 and p["unpaired"] == "tail sets burners itself" and
                  abs(p["estimated_s"] - q["estimated_s"]) < 0.051,
                  "dry-run: tail is not paired under burn and says why; its time unchanged: %r" % p)
        else:
            check(p["arms"] == 2 and p["unpaired"] is None and p["estimated_s"] >= 2 * q["estimated_s"] - 0.11,
                  "dry-run: %s runs in 2 arms, its estimate at least doubled (%.1f vs %.1f)" %
                  (p["experiment"], p["estimated_s"], q["estimated_s"]))
        check(p["rows"] == q["rows"], "dry-run: %s plans the same rows in each arm" % p["experiment"])
        if p["experiment"] != "tail":
            check(p.get("arm_b_timed") is (p["experiment"] == "syscall"),
                  "dry-run: %s's arm B %s" % (p["experiment"], "measures as long as arm A (arm_b_timed)"
                                              if p["experiment"] == "syscall" else "takes arm A's samples"))
status, out, err = run("--dry-run", "--run=syscall", "--quick", "--versus=burn")
check(status == 0 and "alternating round by round: 100 samples a row in arm A, arm B measuring as long as A each "
      "round (as many samples, or fewer where B is slower)" in re.sub(r"\n    ", " ", out),
      "dry-run text: syscall's arm B measures as long as arm A: %r" % out[-400:])
status, out, err = run("--dry-run", "--run=valley", "--quick", "--versus=uncached")
# the paragraph wrapped at 80 columns: read with its lines joined
check(status == 0 and "\n  paired: every row in 2 arms, A under the run's conditions and B under uncached I/O" in
      re.sub(r"\n    ", " ", out) and max(len(l) for l in out.splitlines()) <= 80,
      "dry-run text: valley's rows in two arms, B uncached, within 80 columns: %r" % out[-300:])
status, out, err = run("--dry-run", "--run=syscall", "--quick", "--versus=cold")
check(status == 0 and "  not paired: syscall reads no file" in out, "dry-run text: syscall cannot be cold: %r" % out[-200:])

# a file shorter than the largest buffer: arm B's own sizing reads the whole file there, as arm A does
folder = tempfile.mkdtemp(prefix="wtg-versus-small.")
status, doc, err = run_json("valley", "--versus=same", "--size=4M", "--dir=" + folder)
e = experiment(doc, "valley") if doc else None
big = [r for r in e["rows"] if r["bufsize"] == 16 << 20] if e else []
check(status == 0 and e is not None and e["state"] == "done" and len(big) == 2 and
      all(r["bytes"] == 4 << 20 and r["read_calls"] == 1 for r in big),
      "valley paired on a 4 MiB file: both arms' 16 MiB rows read the whole file in one call (%d, %s)" %
      (status, err.strip()[-160:]))
for f in os.listdir(folder):
    os.remove(os.path.join(folder, f))
os.rmdir(folder)

# readcost and threads read the data file but never under uncached I/O: unpaired, with the reason
why = "readcost does not read under uncached I/O: it times 1-byte reads of the warm page cache (a 1-byte read " \
      "cannot use O_DIRECT)"
status, out, err = run("--dry-run", "--run=readcost,threads,valley", "--quick", "--versus=uncached", "--format=json")
plan = {p["experiment"]: p for p in json.loads(out)["plan"]} if status == 0 else {}
check(plan.get("readcost", {}).get("arms") == 1 and plan["readcost"].get("unpaired") == why,
      "dry-run: readcost is not paired under uncached and says why: %r" % plan.get("readcost"))
check(plan.get("threads", {}).get("unpaired") == "threads does not read under uncached I/O: it sums a mapping of "
      "the file, prefaulted first", "dry-run: threads is not paired under uncached: %r" % plan.get("threads"))
check(plan.get("valley", {}).get("arms") == 2, "dry-run: valley still pairs under uncached: %r" % plan.get("valley"))
status, doc, err = run_json("readcost", "--versus=uncached")
e = experiment(doc, "readcost") if doc else None
check(e is not None and e["state"] == "done" and e.get("unpaired") == why and "paired" not in e and
      all("arm" not in r for r in e["rows"]),
      "readcost under --versus=uncached: run unpaired, JSON unpaired gives the reason: %r" % (e and e.get("unpaired")))

finish_clean()
