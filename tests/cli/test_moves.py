#!/usr/bin/env python3
"""threads: where each worker ran, on a saved run (tests/fixtures/threads-moves.json, a --quick run):
every row's samples have a count of migrations and each worker's start and end CPU (the series
"LABEL migrations" and "LABEL cpus"), the CPUs among the row's cpus_seen, the row's migrations the
series' sum, the CSV carries them; with a row's GB/s set below the lower thread count's and its
workers moved, the verdict says so and the SVG chart writes the moves beside the bar. Never a timing."""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import TOP_SRCDIR, check, experiment, finish, run  # noqa: E402

FIXTURE = os.path.join(TOP_SRCDIR, "tests", "fixtures", "threads-moves.json")


def cpus_of(text):
    """ "0-2,5" -> {0, 1, 2, 5} """
    out = set()
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def label_of(row):
    return "%s %d thread%s" % (row["group"], row["threads"], "" if row["threads"] == 1 else "s")


def main():
    status, out, err = run("--load=" + FIXTURE, "--format=json")
    check(status == 0, "--load threads-moves.json exits 0 (%s)" % err.strip())
    doc = json.loads(out) if status == 0 else {"experiments": []}
    e = experiment(doc, "threads")
    check(e is not None, "the fixture holds a threads run")
    if not e:
        finish()
        return
    series = {s["name"]: s for s in e["series"]}
    for row in e["rows"]:
        label = label_of(row)
        mig, cpus = series.get(label + " migrations"), series.get(label + " cpus")
        check(mig is not None and mig["count"] == row["samples"],
              "%s: a migration count per sample (%s of %d)" % (label, mig and mig["count"], row["samples"]))
        check(cpus is not None and cpus["count"] == 2 * row["threads"] * row["samples"],
              "%s: each worker's start and end CPU per sample (%s values)" % (label, cpus and cpus["count"]))
        if not mig or not cpus:
            continue
        seen = cpus_of(row["cpus_seen"])
        check(set(int(c) for c in cpus["samples"]) <= seen,
              "%s: the CPUs %s are among cpus_seen %s" % (label, sorted(set(cpus["samples"])), row["cpus_seen"]))
        check(row["migrations"] == sum(v for v in mig["samples"] if v is not None),
              "%s: migrations %s is the samples' sum" % (label, row["migrations"]))
        moved = sum(1 for k in range(row["samples"])
                    if (mig["samples"][k] or 0) > 0 or any(cpus["samples"][k * 2 * row["threads"] + 2 * w]
                                                          != cpus["samples"][k * 2 * row["threads"] + 2 * w + 1]
                                                          for w in range(row["threads"])))
        check(row["moved_samples"] == moved, "%s: moved_samples %d counts the samples a worker moved in (%d)"
              % (label, row["moved_samples"], moved))
        check((row["moves"] == "") == (moved == 0 and row["core_type_changes"] == 0),
              "%s: the words beside its bar (%r) only when a worker moved" % (label, row["moves"]))
    status, csv, err = run("--load=" + FIXTURE, "--format=csv")
    check(status == 0 and ",migrations,count," in csv and " migrations,count," in csv and " cpus,cpu," in csv,
          "the CSV has the columns and the per-sample series")

    # a drop while the workers moved: the verdict and the chart say so
    rows = [r for r in e["rows"] if r["group"] == e["rows"][0]["group"]]
    one, two = min(rows, key=lambda r: r["threads"]), max(rows, key=lambda r: r["threads"])
    two.update({"gbps": one["gbps"] * 0.5, "gbps_ci_high": one["gbps"] * 0.6, "migrations": 12, "moved_samples": 5,
                "moves": "12 migrations in 5 samples"})
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "moved.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        status, out, err = run("--load=" + path, "--format=json")
        v = experiment(json.loads(out), "threads")["verdict"] if status == 0 else ""
        want = "; %s %d threads fell to %.1f GB/s from %.1f at %d, with 12 migrations in 5 samples" % (
            two["group"], two["threads"], two["gbps"], one["gbps"], one["threads"])
        check(want in v, "the verdict says the drop came with the moves: %r" % v)
        svg = os.path.join(d, "threads.svg")
        status, out, err = run("--load=" + path, "--format=svg", "-o", svg)
        text = open(svg).read() if status == 0 and os.path.exists(svg) else ""
        check(re.search(r">[^<]*  12 migrations in 5 samples<", text) is not None,
              "the chart writes the moves beside the bar")
    finish()


main()
