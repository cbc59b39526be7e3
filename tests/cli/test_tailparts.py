#!/usr/bin/env python3
"""tail's p99 extra time divided, on a saved run (tests/fixtures/tail-parts.json, a full tail run):
the parts of each row add up to its extra time within 2%, the intervals are ordered, the columns
are in the text and CSV reports, and the verdict's words say the loaded row's parts by size. A copy of the
fixture with the parts set by hand checks the words exactly. Never a timing."""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import TOP_SRCDIR, check, experiment, finish, run  # noqa: E402

FIXTURE = os.path.join(TOP_SRCDIR, "tests", "fixtures", "tail-parts.json")
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
            pct = [row["%s_%s_pct" % (which, p)] for p in PARTS]
            known = [v for v in pct if v is not None]
            check(row["%s_excess_ns" % which] > 0 and abs(sum(known) - 100) <= 2,
                  "%s %s: the parts %s add up to the extra %.1f ns (%.2f%%)"
                  % (name, which, pct, row["%s_excess_ns" % which], sum(known)))
        for p in PARTS:
            lo, hi = row["p99_%s_pct_ci_low" % p], row["p99_%s_pct_ci_high" % p]
            check((lo is None) == (hi is None) == (row["p99_%s_pct" % p] is None) and (lo is None or lo <= hi),
                  "%s p99 %s: its interval [%s, %s] is ordered, n/a with its part" % (name, p, lo, hi))
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
    # the parts set by hand: the words exactly
    for row in e["rows"]:
        if row is loaded or row["burners"] == loaded["burners"]:
            row.update({"p99_excess_ns": 1900, "p99_wait_pct": 84.2, "p99_oncpu_pct": 9.4, "p99_irq_pct": None,
                        "p99_steal_pct": 0.3, "p99_unexplained_pct": 6.1})
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "hand.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        hand = experiment(json.loads(load(path)), "tail")
        check(hand is not None and hand["verdict"].endswith(
            "; under burners the p99's extra 1.9 us is 84% waiting for a CPU, 9% on a CPU, 6% unexplained"),
            "parts set by hand: %r" % (hand and hand["verdict"]))
    finish()


main()
