#!/usr/bin/env python3
"""tail's p99 extra time divided, on a saved run (tests/fixtures/tail-parts.json, a full tail run):
the parts of each row add up to its extra time within 2%, the intervals are ordered, the columns
are in the text and CSV reports, and the verdict's words say the loaded row's parts by size. A copy of the
fixture with the parts set by hand checks the words exactly. The same for syscall's contended batches
(tests/fixtures/syscall-parts.json, a run under two burners): a division only where some batches waited
and some did not, and the verdict's words for the size with the most contended batches."""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import TOP_SRCDIR, check, experiment, finish, run  # noqa: E402

FIXTURE = os.path.join(TOP_SRCDIR, "tests", "fixtures", "tail-parts.json")
SYSCALL = os.path.join(TOP_SRCDIR, "tests", "fixtures", "syscall-parts.json")
PARTS = ["wait", "oncpu", "irq", "steal", "unexplained"]
WORDS = {"wait": "waiting for a CPU", "oncpu": "on a CPU", "irq": "in interrupts", "steal": "stolen",
         "unexplained": "unexplained"}


def load(path, fmt="json"):
    status, out, err = run("--load=" + path, "--format=" + fmt)
    check(status == 0, "--load %s --format=%s exits 0 (%s)" % (os.path.basename(path), fmt, err.strip()))
    return out


def words_of(row, which="p99"):
    """The parts of at least 0.5% by size, as the verdict says them."""
    parts = [(row["%s_%s_pct" % (which, p)], p) for p in PARTS if row["%s_%s_pct" % (which, p)] is not None]
    parts = [(v, p) for v, p in parts if abs(v) >= 0.5]
    parts.sort(key=lambda x: -abs(x[0]))
    return ", ".join("%.0f%% %s" % (v, WORDS[p]) for v, p in parts)


def hand_verdict(doc, name, pick, parts):
    """The verdict of a copy of doc whose rows pick() chooses have the parts set by hand."""
    for row in experiment(doc, name)["rows"]:
        if pick(row):
            row.update(parts)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "hand.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        hand = experiment(json.loads(load(path)), name)
        return hand["verdict"] if hand else None


def intervals_ordered(row, which, name):
    for p in PARTS:
        lo, hi = row["%s_%s_pct_ci_low" % (which, p)], row["%s_%s_pct_ci_high" % (which, p)]
        check((lo is None) == (hi is None) == (row["%s_%s_pct" % (which, p)] is None) and (lo is None or lo <= hi),
              "%s %s %s: its interval [%s, %s] is ordered, n/a with its part" % (name, which, p, lo, hi))


def adds_up(row, which, name):
    pct = [row["%s_%s_pct" % (which, p)] for p in PARTS]
    known = [v for v in pct if v is not None]
    check(row["%s_excess_ns" % which] > 0 and abs(sum(known) - 100) <= 2,
          "%s %s: the parts %s add up to the extra %.1f ns (%.2f%%)"
          % (name, which, pct, row["%s_excess_ns" % which], sum(known)))


def syscall():
    doc = json.loads(load(SYSCALL))
    e = experiment(doc, "syscall")
    check(e is not None, "the fixture holds a syscall run")
    if not e:
        return
    divided = [r for r in e["rows"] if r["contended_excess_ns"] is not None]
    check(len(divided) >= 1, "the fixture has sizes with a division (%d)" % len(divided))
    for row in e["rows"]:
        name = "batch %d" % row["batch"]
        if row["contended_excess_ns"] is None:
            check(all(row["contended_%s_pct" % p] is None for p in PARTS), "%s: no division, no parts" % name)
            continue
        check(0 < row["contended"] < row["batches"], "%s: divided where some batches waited (%d of %d)"
              % (name, row["contended"], row["batches"]))
        adds_up(row, "contended", name)
        intervals_ordered(row, "contended", name)
    if not divided:
        return
    most = max(divided, key=lambda r: (r["contended"], r["batch"]))
    check(most["contended"] >= 0.05 * most["batches"], "the fixture's most contended size has 5%% or more (%d of %d)"
          % (most["contended"], most["batches"]))
    m = re.search(r"; (\d+) batches of (\d+) waited for a CPU, and their extra ([0-9.]+) (ns|us|ms) is "
                  r"([^(;]*?)( \(|;|$)", e["verdict"] or "")
    check(m is not None, "the verdict divides the contended batches' extra time: %r" % e["verdict"])
    if m:
        check(int(m.group(1)) == most["contended"] and int(m.group(2)) == most["batch"],
              "the verdict names the size with the most contended batches (%d of %d)"
              % (most["contended"], most["batch"]))
        scale = {"ns": 1, "us": 1e3, "ms": 1e6}[m.group(4)]
        check(abs(float(m.group(3)) * scale - most["contended_excess_ns"]) <= 0.05 * most["contended_excess_ns"],
              "the verdict's extra %s %s is the row's %.1f ns" % (m.group(3), m.group(4), most["contended_excess_ns"]))
        check(m.group(5) == words_of(most, "contended"), "the verdict's parts %r are the row's by size %r"
              % (m.group(5), words_of(most, "contended")))
    csv = load(SYSCALL, "csv")
    check(",contended_wait_pct,%," in csv and ",contended_unexplained_pct_ci_high,%," in csv,
          "the syscall CSV has the parts")
    v = hand_verdict(doc, "syscall", lambda r: r["batch"] == most["batch"],
                     {"contended_excess_ns": 2300, "contended_wait_pct": 90.4, "contended_oncpu_pct": 6.2,
                      "contended_irq_pct": 2.6, "contended_steal_pct": None, "contended_unexplained_pct": 0.8})
    want = ("; %d batches of %d waited for a CPU, and their extra 2.3 us is 90%% waiting for a CPU, "
            "6%% on a CPU, 3%% in interrupts, 1%% unexplained" % (most["contended"], most["batch"]))
    check(v is not None and want in v, "syscall's parts set by hand: %r" % v)
    # a few contended batches (under 5% of the size's): their division stays in the columns
    v = hand_verdict(doc, "syscall", lambda r: True, {"contended": 9})
    check(v is not None and "and their extra" not in v, "9 of 200 contended: not in the verdict: %r" % v)


def main():
    doc = json.loads(load(FIXTURE))
    e = experiment(doc, "tail")
    check(e is not None, "the fixture holds a tail run")
    if not e:
        finish()
        return
    for row in e["rows"]:
        name = row["condition"]
        for which in ("p99", "p90"):
            adds_up(row, which, name)
        intervals_ordered(row, "p99", name)
        check((row["p99_irq_pct"] is None) or row["irq_read_ns"] > 0,
              "%s: interrupts divided only where /proc/interrupts was read (%s ns a read)" % (name, row["irq_read_ns"]))
    loaded = max(e["rows"], key=lambda r: r["burners"])
    m = re.search(r"; under burners the p99's extra ([0-9.]+) (ns|us|ms) is (.*)$", e["verdict"] or "")
    check(m is not None, "the verdict divides the loaded p99's extra time: %r" % e["verdict"])
    if m:
        scale = {"ns": 1, "us": 1e3, "ms": 1e6}[m.group(2)]
        check(abs(float(m.group(1)) * scale - loaded["p99_excess_ns"]) <= 0.05 * loaded["p99_excess_ns"],
              "the verdict's extra %s %s is the row's %.1f ns" % (m.group(1), m.group(2), loaded["p99_excess_ns"]))
        check(m.group(3) == words_of(loaded), "the verdict's parts %r are the row's by size %r"
              % (m.group(3), words_of(loaded)))
    text = load(FIXTURE, "text")
    check(all("p99_%s_pct" % p in text for p in PARTS) and "p90_excess_ns" in text,
          "the text report has the parts' columns")
    csv = load(FIXTURE, "csv")
    check(",cell,0,p99_wait_pct,%," in csv and ",cell,1,p90_unexplained_pct,%," in csv, "the CSV has the parts")
    # the SVG chart (and the HTML page) draw the division's bars under the histogram
    with tempfile.TemporaryDirectory() as d:
        svg = os.path.join(d, "tail.svg")
        status, out, err = run("--load=" + FIXTURE, "--format=svg", "-o", svg)
        text = open(svg).read() if status == 0 and os.path.exists(svg) else ""
        for which in ("p99", "p90"):
            check(re.search(r">%s \+[0-9.]+ [nu]s<" % which, text) is not None, "the chart has the %s's bar" % which)
            pct = loaded["%s_wait_pct" % which]
            check("waiting for a CPU: %.1f%% of %s&#39;s extra" % (pct, which) in text,
                  "its waiting segment's tooltip gives the row's %.1f%%" % pct)
        check(">wait %.0f%%<" % loaded["p99_wait_pct"] in text, "the p99's waiting segment is labelled in it")
    # the parts set by hand: the words exactly
    v = hand_verdict(doc, "tail", lambda r: r["burners"] == loaded["burners"],
                     {"p99_excess_ns": 1900, "p99_wait_pct": 84.2, "p99_oncpu_pct": 9.4, "p99_irq_pct": None,
                      "p99_steal_pct": 0.3, "p99_unexplained_pct": 6.1})
    check(v is not None and v.endswith(
        "; under burners the p99's extra 1.9 us is 84% waiting for a CPU, 9% on a CPU, 6% unexplained"),
        "parts set by hand: %r" % v)
    syscall()
    finish()


main()
