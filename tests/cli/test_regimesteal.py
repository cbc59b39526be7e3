#!/usr/bin/env python3
"""The two-regime words say what the machine's state did with the regimes, on a saved syscall run
(tests/fixtures/syscall-parts.json, whose batches of 1000 fall into two regimes, with the steal read
around each batch kept as the series "batch 1000 steal"): as saved, nothing moved (steal 0% in both);
with the steal of the slow regime's batches set to 4% the verdict cites it ("steal 0.0% vs 4.0% in the
slow one"), and so a frequency read around each batch ("batch 1000 mhz"); without them the run's
figures are cited (steal over the run, the frequency held). The regime checks of the saved run say the same. Never a timing."""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import TOP_SRCDIR, check, experiment, finish, run  # noqa: E402

FIXTURE = os.path.join(TOP_SRCDIR, "tests", "fixtures", "syscall-parts.json")


def verdict_of(doc):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "regime.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        status, out, err = run("--load=" + path, "--format=json")
        check(status == 0, "--load of the changed copy exits 0 (%s)" % err.strip())
        e = experiment(json.loads(out), "syscall") if status == 0 else None
        return e["verdict"] if e else ""


def series(e, name):
    return next((s for s in e["series"] if s["name"] == name), None)


def main():
    doc = json.load(open(FIXTURE))
    e = experiment(doc, "syscall")
    m = re.search(r"; ([0-9.]+) ns \((\d+)%\) and ([0-9.]+) ns \((\d+)%\): two regimes; (.*)$", e["verdict"] or "")
    check(m is not None, "the saved verdict names two regimes: %r" % e["verdict"])
    if not m:
        finish()
        return
    low, high = float(m.group(1)), float(m.group(3))
    check(m.group(5) == "nothing watched moved with them: steal 0.0% in both, frequency not readable",
          "as saved, nothing moved with them: %r" % m.group(5))
    regimes = [c["detail"] for c in e["checks"] if c["name"] == "regime" and c["status"] == "warn"]
    check(any(d.startswith("batch 1000: ") and d.endswith("; nothing watched moved with them: steal 0.0% in both, "
                                                          "frequency not readable") for d in regimes),
          "the regime check of batch 1000 says the same")
    check(all("nothing watched moved with them" in d for d in regimes), "so does every regime check")

    # the slow regime's batches stole 4% of their time: the verdict cites steal
    samples = series(e, "batch 1000")["samples"]
    steal = series(e, "batch 1000 steal")
    mid = (low + high) / 2
    steal["samples"] = [4.0 if v > mid else 0.0 for v in samples]
    v = verdict_of(doc)
    s = re.search(r"two regimes; steal ([0-9.]+)% vs ([0-9.]+)% in the slow one$", v)
    check(s is not None, "steal moving with the regimes is cited: %r" % v)
    if s:
        check(float(s.group(1)) < 0.5 and 3.5 <= float(s.group(2)) <= 4.0,
              "the fast regime had no steal, the slow one about 4%% (%s vs %s)" % (s.group(1), s.group(2)))
    # the other way round: the fast one stole, the slow one did not
    steal["samples"] = [4.0 if v <= mid else 0.0 for v in samples]
    v = verdict_of(doc)
    s = re.search(r"two regimes; steal ([0-9.]+)% vs ([0-9.]+)% in the slow one$", v)
    check(s is not None and float(s.group(1)) >= 3.5 and float(s.group(2)) < 0.5,
          "steal in the fast regime is cited as such: %r" % v)

    # the steal alike, the slow regime's CPU at a lower frequency (read around each batch where cpufreq
    # is readable: the series "batch 1000 mhz")
    steal["samples"] = [0.0 for v in samples]
    e["series"].append({"name": "batch 1000 mhz", "unit": "MHz", "count": len(samples), "thinned": False,
                        "note": None, "samples": [1800.0 if v > mid else 2400.0 for v in samples]})
    v = verdict_of(doc)
    s = re.search(r"two regimes; ([0-9]+) vs ([0-9]+) MHz in the slow one$", v)
    check(s is not None and int(s.group(1)) >= 2300 and int(s.group(2)) <= 1900,
          "a frequency moving with the regimes is cited: %r" % v)

    # no steal per batch: the run's steal and frequency
    e["series"] = [x for x in e["series"] if not x["name"].endswith(" steal") and not x["name"].endswith(" mhz")]
    e["steal_pct"], e["mhz_min"], e["mhz_max"] = 2.5, 2400, 2400
    v = verdict_of(doc)
    check(v.endswith("two regimes; nothing watched moved with them: steal 2.5% over the run (not read per sample), "
                     "frequency held at 2400 MHz"), "the run's figures when not read per batch: %r" % v)
    e["steal_pct"], e["mhz_min"], e["mhz_max"] = 0, 1200, 2400
    v = verdict_of(doc)
    check(v.endswith("two regimes; nothing watched moved with them: no steal over the run, frequency 1200-2400 MHz "
                     "over the run (not read per sample)"), "a frequency that moved over the run: %r" % v)
    finish()


main()
