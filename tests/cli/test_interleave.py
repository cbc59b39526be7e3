#!/usr/bin/env python3
"""An interleaved headless run: the experiments of one run pass one baton at the end of each replica,
so a row's replicas lie apart in time with the others measured between them. Asserted from the
report's own words and numbers (never a timing): which rows say they were interleaved, that their
replicas began in order, that a run of one experiment says nothing of the kind, and that every
median lies inside its (two-level) interval."""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import check, experiment, finish, rows, run_json  # noqa: E402

STARTS = re.compile(r"an interleaved run: the run's other experiments measured after ([1-4]) of the replicas[^;]*?"
                    r"began ((?:[0-9.]+, )*[0-9.]+ and [0-9.]+) s into the run")
NAMES = ["syscall", "valley", "readcost", "tail"]

status, doc, err = run_json(",".join(NAMES), "--size=16M")
check(status == 0 and doc is not None, "syscall,valley,readcost,tail --quick: exit 0 and JSON (%s)" % err.strip()[:200])
if doc:
    for name in NAMES:
        e = experiment(doc, name)
        check(e is not None and e.get("state") == "done", "%s: done" % name)
        if not e:
            continue
        # its own time: the others' turns are left out of its wall time, the wait for its first turn too
        wall = (e.get("probe") or {}).get("wall_ms")
        cpu = sum((e.get("probe") or {}).get(k) or 0 for k in ("user_ms", "sys_ms"))
        check(wall is not None and wall > 0, "%s: its wall time is its own turns' (%s ms, CPU %.0f ms)" % (name, wall, cpu))
        notes = " ".join(e["notes"])
        check("two-level bootstrap" in notes, "%s: a note says its interval is the two-level bootstrap" % name)
        # the last experiment to finish may find the others done: then its later replicas follow at once
        m = STARTS.findall(notes)
        check(len(m) >= 1, "%s: a note says after how many replicas others measured, and when each began: %r"
              % (name, [n for n in e["notes"] if "interleav" in n or "replica" in n]))
        for k, starts in m:
            t = [float(x) for x in re.split(r", | and ", starts)]
            check(len(t) == 5 and t == sorted(t), "%s: five replicas began in order (%s s)" % (name, starts))
        for r in rows(e):
            lo, hi = r.get("ci_low_ns", r.get("gbps_ci_low")), r.get("ci_high_ns", r.get("gbps_ci_high"))
            mid = r.get("median_ns", r.get("gbps"))
            if None not in (lo, hi, mid):
                check(lo <= mid <= hi, "%s: the interval [%s, %s] holds the median %s" % (name, lo, hi, mid))

# one experiment runs alone: no baton, no interleaving note, and the same two-level interval (readcost,
# the cheapest of the four)
status, doc, err = run_json("readcost", "--size=16M")
e = experiment(doc, "readcost") if doc else None
check(status == 0 and e is not None, "readcost alone: exit 0")
if e:
    notes = " ".join(e["notes"])
    check("an interleaved run" not in notes, "readcost alone: no interleaving note")
    check("two-level bootstrap" in notes, "readcost alone: the two-level interval all the same")

# threads keeps the data file mapped across its rounds; a mapped page is one posix_fadvise cannot
# evict, so while it held its mapping through the others' turns pagecache's cold passes were warm
# ("eviction did NOT work here"). It lets the pages go for each turn of the others now. (--threads=1:
# its one-thread rows hold the mapping as its other rows do.)
status, doc, err = run_json("pagecache,threads", "--size=16M", "--threads=1")
check(status == 0 and doc is not None, "pagecache,threads --quick --threads=1: exit 0 and JSON (%s)" % err.strip()[:200])
e = experiment(doc, "pagecache") if doc else None
if e:
    notes = " ".join(e["notes"])
    t = experiment(doc, "threads")
    check("an interleaved run" in notes, "pagecache,threads: pagecache says it was interleaved "
          "(threads: %s %s; pagecache's notes on replicas: %r)"
          % (t and t.get("state"), t and t.get("error"), [n[:160] for n in e["notes"] if "replica" in n]))
    check("eviction worked" in notes or "on tmpfs" in notes,
          "pagecache beside threads: its cold passes were cold (eviction worked): %r"
          % [n for n in e["notes"] if "evict" in n][-1:])
    cold = [r["resident_before"] for r in rows(e) if r.get("pass") == "cold"]
    check(cold and all(x == 0 for x in cold) or "on tmpfs" in notes,
          "pagecache beside threads: no page of the file resident before a cold pass: %r" % cold)

finish()
