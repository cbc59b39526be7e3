#!/usr/bin/env python3
"""The machine while each experiment ran, in every report: steal_pct and mhz_min/mhz_max per
experiment in JSON, a line in text, Markdown and HTML, CSV lines of kind machine; read back by
--load. A fake tree (WTG_SYSFS_ROOT: proc/stat and cpufreq's scaling_cur_freq) fixes what is read:
the frequencies are those of the CPUs the run measured on, and a /proc/stat that does not move gives
n/a (null), never 0. Never a timing."""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import check, experiment, finish, run  # noqa: E402

MHZ = {0: 2400.0, 1: 3000.0}


def fake_tree(root):
    os.makedirs(os.path.join(root, "proc"))
    lines = ["cpu  %d 0 100 1000 0 0 0 40 0 0" % (100 * len(MHZ))]
    for c in MHZ:
        lines.append("cpu%d 100 0 50 500 0 0 0 20 0 0" % c)
        d = os.path.join(root, "sys", "devices", "system", "cpu", "cpu%d" % c, "cpufreq")
        os.makedirs(d)
        with open(os.path.join(d, "scaling_cur_freq"), "w") as f:
            f.write("%d\n" % (MHZ[c] * 1000))
    with open(os.path.join(root, "proc", "stat"), "w") as f:
        f.write("\n".join(lines) + "\nintr 1 0\nctxt 5\n")


def main():
    status, out, err = run("--run=syscall", "--quick", "--format=json")
    doc = json.loads(out) if status == 0 else None
    e = experiment(doc, "syscall") if doc else None
    check(e is not None, "a live syscall run (%s)" % err.strip())
    if e:
        s = e.get("steal_pct", "missing")
        check(s is None or (isinstance(s, (int, float)) and 0 <= s <= 100),
              "live: steal_pct is a percentage or null: %r" % s)
        lo, hi = e.get("mhz_min", "missing"), e.get("mhz_max", "missing")
        check((lo is None and hi is None) or (0 < lo <= hi), "live: mhz_min <= mhz_max or both null: %r %r" % (lo, hi))
    with tempfile.TemporaryDirectory() as root:
        fake_tree(root)
        env = {"WTG_SYSFS_ROOT": root}
        status, out, err = run("--run=syscall", "--quick", "--format=json", env=env)
        doc = json.loads(out) if status == 0 else None
        e = experiment(doc, "syscall") if doc else None
        check(e is not None, "a syscall run on the fake tree (%s)" % err.strip())
        if not e:
            finish()
            return
        cpus = [c for c in e["probe"]["cpus"] if c in MHZ]
        want = (min(MHZ[c] for c in cpus), max(MHZ[c] for c in cpus)) if cpus else (None, None)
        check((e["mhz_min"], e["mhz_max"]) == want,
              "the fake cpufreq of CPUs %s: %s-%s MHz (got %s-%s)" % (e["probe"]["cpus"], want[0], want[1],
                                                                    e["mhz_min"], e["mhz_max"]))
        check(e["steal_pct"] is None, "a /proc/stat that did not move: steal n/a, not 0 (%r)" % e["steal_pct"])
        path = os.path.join(root, "run.json")
        with open(path, "w") as f:
            f.write(out)
        status, back, err = run("--load=" + path, "--format=json")
        b = experiment(json.loads(back), "syscall") if status == 0 else None
        check(b is not None and (b["steal_pct"], b["mhz_min"], b["mhz_max"]) == (None, want[0], want[1]),
              "--load reads them back")
        status, text, err = run("--load=" + path, "--format=text")
        freq = ("%.0f MHz" % want[0]) if want[0] == want[1] else ("%.0f-%.0f MHz" % want)
        check(re.search(r"machine while it ran: steal n/a on CPUs? [0-9,-]+; frequency %s" % freq, text) is not None,
              "text: the machine line (%s)" % [l for l in text.splitlines() if "machine while" in l])
        status, md, err = run("--load=" + path, "--format=markdown")
        check("Machine while it ran: steal n/a on CPU" in md, "markdown: the machine line")
        status, html, err = run("--load=" + path, "--format=html")
        check("machine while it ran: steal n/a on CPU" in html, "html: the machine line")
        status, csv, err = run("--load=" + path, "--format=csv")
        rows = [l.split(",") for l in csv.splitlines() if ",syscall,machine," in l]
        got = {r[5]: (r[6], r[7]) for r in rows}
        check(got == {"steal_pct": ("%", ""), "mhz_min": ("MHz", "%g" % want[0]), "mhz_max": ("MHz", "%g" % want[1])},
              "csv: lines of kind machine, empty where n/a: %s" % got)
    finish()


main()
