#!/usr/bin/env python3
"""faultbase's trace: every fault of each control charged to a mapping, or one line saying why not.

Live --quick runs: with perf_event_open allowed, the faults by mapping of each control add up to the
counters' own counts (within 1%, nothing lost), the summed data file is named as a mapping, and the
differences between controls are the differences of their mappings. With the open made to fail
(WTG_TEST_NO_PERF), the experiment still runs and says in one note why there is no trace. Never a
timing, never a figure that moves."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import check, experiment, finish_clean, run_json, skip_checks  # noqa: E402

CONTROLS = ["exit only", "map, never touch", "map and sum"]
DIFFS = {"map - exit": ("map, never touch", "exit only"), "sum - map": ("map and sum", "map, never touch")}


def traced(e):
    return [r for r in e["rows"] if r.get("mapping") is not None]


def by_mapping(e, case):
    return {r["mapping"]: (r["minflt"], r["majflt"]) for r in traced(e) if r["case"] == case + ", traced"}


def check_trace(e):
    notes = [n for n in e["notes"] if n.startswith("no fault trace")]
    if notes:
        skip_checks(["trace: faults by mapping add up", "trace: the data file is a mapping"],
                    "this machine does not allow the trace: " + notes[0])
        return
    checks = {c["detail"].split(":")[0]: c for c in e["checks"] if c["name"] == "trace"}
    for case, mode in zip(CONTROLS, ["exit", "map", "sum"]):
        maps = by_mapping(e, case)
        check(len(maps) >= 3, "trace %s: faults in %d mappings (loader, libc, wtg at least)" % (case, len(maps)))
        mi, ma = sum(v[0] for v in maps.values()), sum(v[1] for v in maps.values())
        c = checks.get(mode)
        m = re.search(r"(\d+) minor \+ (\d+) major faults sampled in (\d+) mappings, the counters (\d+) \+ (\d+); "
                      r"(\d+) lost", c["detail"] if c else "")
        check(m is not None and c["status"] == "ok", "trace %s: its check is ok (%s)" % (case, c and c["detail"]))
        if not m:
            continue
        s_min, s_maj, nmaps, c_min, c_maj, lost = map(int, m.groups())
        check((mi, ma) == (s_min, s_maj) and nmaps == len(maps),
              "trace %s: the table's %d + %d faults are the %d + %d sampled" % (case, mi, ma, s_min, s_maj))
        check(abs((mi + ma) - (c_min + c_maj)) * 100 <= c_min + c_maj and lost == 0,
              "trace %s: the mappings' %d faults add up to the counters' %d within 1%%" % (case, mi + ma, c_min + c_maj))
        check(any(k.startswith("ld-linux") or k.startswith("ld-") for k in maps) and "libc.so.6" in maps,
              "trace %s: the dynamic loader and libc are named" % case)
    summed = by_mapping(e, "map and sum")
    check(summed.get("data file", (0, 0))[0] >= 1, "trace: the summed data file's faults are named 'data file' (%s)"
          % (summed.get("data file"),))
    check("data file" not in by_mapping(e, "exit only"), "trace: the exit-only control never faults on the data file")
    for diff, (a, b) in DIFFS.items():
        ma, mb, md = by_mapping(e, a), by_mapping(e, b), by_mapping(e, diff)
        want = {k: (ma.get(k, (0, 0))[0] - mb.get(k, (0, 0))[0], ma.get(k, (0, 0))[1] - mb.get(k, (0, 0))[1])
                for k in set(ma) | set(mb)}
        want = {k: v for k, v in want.items() if v != (0, 0)}
        check(md == want, "trace %s: the difference by mapping of %s and %s" % (diff, a, b))
    check(re.search(r"(no major fault in the traced controls|\d+ major faults? traced: .*"
                    r"(not the mapped file|in the mapped file))$", e["verdict"] or "") is not None,
          "trace: the verdict says where the major faults were: %r" % e["verdict"])


def main():
    status, doc, err = run_json("faultbase", "--size=4M")
    e = experiment(doc, "faultbase") if doc else None
    check(status == 0 and e is not None and e["state"] == "done", "a live faultbase run ends done (%s)" % err.strip())
    if e:
        check_trace(e)
    for value, why in (("1", r"^no fault trace: perf_event_open is not allowed for this user( \(kernel\."
                             r"perf_event_paranoid is -?\d+\))?; 2 or less allows one's own processes$"),
                       ("ENOSYS", r"^no fault trace: this kernel has no perf events \(.+\)$")):
        status, doc, err = run_json("faultbase", "--size=4M", env={"WTG_TEST_NO_PERF": value})
        e = experiment(doc, "faultbase") if doc else None
        check(status == 0 and e is not None and e["state"] == "done",
              "WTG_TEST_NO_PERF=%s: faultbase still runs and ends done" % value)
        if not e:
            continue
        notes = [n for n in e["notes"] if n.startswith("no fault trace")]
        check(len(notes) == 1 and re.match(why, notes[0]) and "\n" not in notes[0],
              "WTG_TEST_NO_PERF=%s: one note says why: %r" % (value, notes))
        check(not traced(e) and not [c for c in e["checks"] if c["name"] == "trace"],
              "WTG_TEST_NO_PERF=%s: no mapping rows, no trace checks" % value)
        check(len([r for r in e["rows"] if r["case"] in CONTROLS]) == 3,
              "WTG_TEST_NO_PERF=%s: the three controls' rows are there" % value)
        check(e["verdict"].startswith("a bare exit = ") and "major fault" not in e["verdict"],
              "WTG_TEST_NO_PERF=%s: the verdict claims no trace: %r" % (value, e["verdict"]))
    finish_clean()


main()
