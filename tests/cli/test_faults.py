#!/usr/bin/env python3
"""mmap, pagecache, zerofill, faultbase: invariants in --quick mode, never a timing.

Fault counts are checked against an independent observer: the faultbase "map and sum" control's
minor faults (wait4's rusage inside wtg) against the same child run by this script, counted by
`perf stat` (the kernel's software event) when perf works and by getrusage(RUSAGE_CHILDREN).
"""
import hashlib
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import (WTG, check, check_rounds, checks_made, close, datadir_is_empty, experiment, finish_clean,  # noqa: E402
                     ROUNDS_MIN, rows, run, run_json, shm_writable, skip_check, skip_checks, spec_columns_and_checks)

SPEC = {
    "mmap": ["case", "ms", "minflt", "majflt", "pages"],
    "pagecache": ["pass", "ms", "gbps", "minflt", "majflt"],
    "zerofill": ["pages", "ns_per_fault", "minflt"],
    "faultbase": ["case", "minflt", "majflt"],
}
QUICK_SIZE = 64 << 20
ZEROFILL_QUICK = 16 << 20
PAGECACHE_QUICK_SPAN = 16 << 20


def known_sum(doc, exp):
    """The data file's known sum: from the machine block, else from a sum check's detail."""
    df = (doc.get("machine") or {}).get("data_file") or {}
    if isinstance(df.get("known_sum"), int):
        return df["known_sum"]
    for c in exp["checks"]:
        m = re.search(r"known sum (-?\d+)", c["detail"] or "")
        if c["name"] == "sum" and m:
            return int(m.group(1))
    return None


def machine(doc):
    return doc.get("machine") or {}


def common(doc, name):
    """Present, SPEC columns first and in order, every check ok, at least one check."""
    e = experiment(doc, name)
    if not spec_columns_and_checks(e, name, SPEC[name]):
        return None
    if "state" in e:
        check(e["state"] == "done", "%s: state done, got %s" % (name, e.get("state")))
    return e


def test_mmap(doc, size, page):
    e = common(doc, "mmap")
    if not e:
        return
    r = rows(e)
    check([x["case"] for x in r] == ["not prefaulted", "populate (mmap call)", "prefaulted"],
          "mmap: the three cases in order")
    if len(r) != 3:
        return
    pages = (size + page - 1) // page
    want = known_sum(doc, e)
    lazy, pop, pre = r
    for x in r:
        check(x["pages"] == pages, "mmap %s: pages %s == ceil(size/page) %d" % (x["case"], x["pages"], pages))
        check(x["page_size"] == page, "mmap %s: page_size %s" % (x["case"], x["page_size"]))
        check(x["reps"] == 11 and x["samples"] == 11, "mmap %s: 11 repetitions in --quick too" % x["case"])
        check(x["ms_min"] <= x["ms"] <= x["ms_max"], "mmap %s: ms_min <= ms <= ms_max" % x["case"])
        check(close(x["faults_per_page"], x["minflt"] / pages),
              "mmap %s: faults_per_page = minflt/pages" % x["case"])
    for x in (lazy, pre):
        check(want is not None and x["sum"] == want,
              "mmap %s: sum %s == known %s" % (x["case"], x["sum"], want))
    check(pop["sum"] is None, "mmap populate: no sum (nothing summed)")
    # the file is warm: at least one fault, never more than one per page, (almost) no major faults;
    # a stray one or two can come from the shared machine (another process's eviction or reclaim
    # touching a page of ours between passes), a warm file never needs one per chunk
    check(1 <= lazy["minflt"] <= pages, "mmap not prefaulted: 1 <= minflt %s <= pages" % lazy["minflt"])
    check(lazy["majflt"] <= 2 and pre["majflt"] <= 2, "mmap: no major faults on the warm file to speak of")
    check(pop["minflt"] >= 1, "mmap populate: the mmap call counted the faults (%s)" % pop["minflt"])
    check(pre["minflt"] < lazy["minflt"], "mmap: prefaulted pass took fewer faults (%s < %s)"
          % (pre["minflt"], lazy["minflt"]))
    check(isinstance(lazy["ns_per_fault"], (int, float)),
          "mmap: ns_per_fault present on the not-prefaulted row")
    check(pre["ns_per_fault"] is None, "mmap: no ns_per_fault on the prefaulted row")
    check(close(pop["ns_per_fault"], pop["ms"] * 1e6 / pop["minflt"]),
          "mmap populate: ns_per_fault = ms/minflt")
    for x in (lazy, pre):
        check(close(x["gbps"], size / (x["ms"] * 1e6)), "mmap %s: gbps = bytes/ms" % x["case"])
        # a distribution: the interval holds the median, inside the range; the range is the times'
        check(x["gbps_min"] <= x["gbps_ci_low"] <= x["gbps"] <= x["gbps_ci_high"] <= x["gbps_max"],
              "mmap %s: gbps_min <= ci_low <= gbps <= ci_high <= gbps_max" % x["case"])
        check(close(x["gbps_max"], size / (x["ms_min"] * 1e6)) and close(x["gbps_min"], size / (x["ms_max"] * 1e6)),
              "mmap %s: the GB/s range is the time range turned over" % x["case"])
    check(all(pop[k] is None for k in ("gbps", "gbps_ci_low", "gbps_ci_high")),
          "mmap populate: no GB/s (it times the mmap call, not a sum)")
    series = {s["name"]: s for s in e.get("series", [])}
    check("not prefaulted" in series and len(series["not prefaulted"]["samples"]) == 11,
          "mmap: the repetitions' times kept as a series")


def test_pagecache(doc, size, page, expect_evicted):
    e = common(doc, "pagecache")
    if not e:
        return
    r = check_rounds(e, "pagecache", "gbps", lambda x: "%s %s" % (x["pass"], x["method"]))
    check([x["pass"] for x in r] == ["cold", "warm"] * 2, "pagecache: cold, warm twice")
    check([x["method"] for x in r] == ["read 1 MiB"] * 2 + ["mmap"] * 2, "pagecache: methods")
    if len(r) != 4:
        return
    span = min(size, PAGECACHE_QUICK_SPAN)
    pages = (span + page - 1) // page	# the span's: residency counts the pages a sample reads
    want = known_sum(doc, e) if span == size else r[0]["sum"]
    for i, x in enumerate(r):
        tag = "pagecache %s %s" % (x["pass"], x["method"])
        check(x["pages"] == pages, "%s: pages, the span's %d" % (tag, pages))
        check(want is not None and x["sum"] == want, "%s: sum == known" % tag)
        check(x["bytes"] == span, "%s: bytes == min(size, 16 MiB)" % tag)
        check(close(x["ms"], span / (x["gbps"] * 1e6)), "%s: ms = bytes at the median GB/s" % tag)
        check(x["resident_after"] >= span // page, "%s: the span resident after the pass (%s)"
              % (tag, x["resident_after"]))
        if x["pass"] == "cold":
            if expect_evicted:
                what = "%s: at most 10%% resident after the eviction (%s)" % (tag, x["resident_before"])
                if x["resident_before"] * 10 <= pages:
                    check(True, what)
                else:  # the kernel kept the pages: the machine's doing, said as a skip (see the note check)
                    skip_check(what, "this machine's kernel kept %s of %d pages" % (x["resident_before"], pages))
            else:
                check(x["resident_before"] == pages, "%s on tmpfs: nothing evicted (%s)"
                      % (tag, x["resident_before"]))
            check(x["cold_warm_ratio"] is None, "%s: no ratio on the cold row" % tag)
        else:
            check(close(x["cold_warm_ratio"], r[i - 1]["ms"] / x["ms"]), "%s: ratio = cold/warm ms" % tag)
            # see mmap above: a stray major fault is the machine's, not a cold file's
            check(x["majflt"] <= 2, "%s: no major faults to speak of (%s)" % (tag, x["majflt"]))
    sums = [c for c in e["checks"] if c["name"] == "sum"]
    check(len(sums) == 4 and all("each of the %d samples" % ROUNDS_MIN in c["detail"] for c in sums),
          "pagecache: every sample's sum checked (%d rounds): %r" % (ROUNDS_MIN, [c["detail"] for c in sums][:1]))
    # buffered reads: the process takes no faults for the data (the buffer is touched beforehand)
    check(r[0]["majflt"] == 0 and r[1]["minflt"] == 0, "pagecache read passes: no data faults in the process")
    check(r[2]["minflt"] + r[2]["majflt"] >= 1, "pagecache mmap cold: the process took the faults")
    notes = " ".join(e["notes"])
    # the note states the most pages any cold sample's eviction left and calls that worked when it is
    # at most a tenth: checked against its own numbers. Whether the kernel dropped the pages every time
    # is the machine's (a loaded machine may keep some); on disk that is a SKIP, never a failure
    worked = re.search(r"eviction worked: at most (\d+) of the span.s (\d+) pages", notes)
    failed = re.search(r"eviction did NOT work here \(up to (\d+) of the span.s (\d+) pages", notes)
    check(bool(worked) != bool(failed), "pagecache: one eviction note, worked or not")
    m = worked or failed
    if m:
        left, total = int(m.group(1)), int(m.group(2))
        check(total == pages, "pagecache: the eviction note counts the span's %d pages (%d)" % (pages, total))
        check((left * 10 <= total) == bool(worked),
              "pagecache: 'worked' exactly when at most a tenth stayed (%d of %d)" % (left, total))
        for x in r:
            if x["pass"] == "cold":
                check(x["resident_before"] <= left, "pagecache %s: the latest cold sample's residency (%s) "
                      "within the note's most (%d)" % (x["method"], x["resident_before"], left))
    if expect_evicted:
        if worked or not m:
            check(bool(worked), "pagecache: note says eviction worked")
        else:
            skip_check("pagecache: note says eviction worked",
                       "one cold sample's eviction left %s of %s pages on this machine" % (m.group(1), m.group(2)))
    else:
        check(bool(failed), "pagecache: note says eviction did not work")
    check("cold/warm:" in notes, "pagecache: cold/warm ratio note")


def test_zerofill(doc, page):
    e = common(doc, "zerofill")
    if not e:
        return
    r = rows(e)
    check(len(r) == 5, "zerofill: 5 repetitions as rows")
    pages = ZEROFILL_QUICK // page
    for i, x in enumerate(r):
        check(x["rep"] == i + 1, "zerofill: rep numbers")
        check(x["pages"] == pages, "zerofill: pages %s == %d" % (x["pages"], pages))
        check(x["minflt"] >= x["pages"], "zerofill: minflt %s >= pages %s" % (x["minflt"], x["pages"]))
        check(x["majflt"] == 0, "zerofill: no major faults for anonymous memory")
        check(close(x["ns_per_fault"], x["ms"] * 1e6 / x["pages"]), "zerofill: ns_per_fault = ms/pages")
        check(close(x["faults_per_page"], x["minflt"] / x["pages"]),
              "zerofill: faults_per_page = minflt/pages")
        check(x["bytes"] == ZEROFILL_QUICK and x["page_size"] == page, "zerofill: bytes and page size")
    check(any("MADV_NOHUGEPAGE" in n for n in e["notes"]), "zerofill: the note names MADV_NOHUGEPAGE")
    # the essay's yardstick: one getpid measured before the faults, the same on every row
    gp = [x["getpid_ns"] for x in r]
    check(all(g > 0 for g in gp) and len(set(gp)) == 1, "zerofill: one getpid_ns > 0 on every row: %s" % gp)
    for x in r:
        check(close(x["getpids_per_fault"], x["ns_per_fault"] / x["getpid_ns"]),
              "zerofill: getpids_per_fault = ns_per_fault / getpid_ns (%s)" % x["getpids_per_fault"])
    check(any(n.startswith("yardstick: a raw getpid costs") and "getpids" in n for n in e["notes"]),
          "zerofill: a note says what a fault costs in getpids")


def test_faultbase(doc, size, page, want=None):
    e = common(doc, "faultbase")
    if not e:
        return None
    r = [x for x in rows(e) if x.get("mapping") is None]  # the traced faults by mapping: test_faulttrace.py
    cases = ["exit only", "map, never touch", "map and sum", "map - exit", "sum - map"]
    check([x["case"] for x in r] == cases,
          "faultbase: the three controls and two differences")
    if len(r) != 5:
        return None
    ex, mp, sm, d1, d2 = r
    pages = (size + page - 1) // page
    for x in (ex, mp, sm):
        check(x["runs"] == 3, "faultbase %s: 3 runs in --quick" % x["case"])
        check(x["minflt_min"] <= x["minflt"] <= x["minflt_max"],
              "faultbase %s: min <= median <= max" % x["case"])
        check(x["minflt"] > 0, "faultbase %s: a process always takes minor faults" % x["case"])
    check(ex["pages"] == 0 and mp["pages"] == pages and sm["pages"] == pages, "faultbase: pages column")
    check(d1["minflt"] == mp["minflt"] - ex["minflt"] and d1["majflt"] == mp["majflt"] - ex["majflt"],
          "faultbase: map - exit is the difference")
    check(d2["minflt"] == sm["minflt"] - mp["minflt"] and d2["majflt"] == sm["majflt"] - mp["majflt"],
          "faultbase: sum - map is the difference")
    check(close(d2["faults_per_page"], d2["minflt"] / pages), "faultbase: sum - map faults_per_page")
    check(d2["minflt"] >= 1, "faultbase: summing the file adds faults (%s)" % d2["minflt"])
    want = want if want is not None else known_sum(doc, e)
    sums = [c for c in e["checks"] if c["name"] == "sum"]
    check(len(sums) == 1 and want is not None and ("= known sum %d" % want) in sums[0]["detail"],
          "faultbase: the children's printed sum equals the known sum %s" % want)
    return sm


def file_sum(path):
    total = 0
    with open(path, "rb") as f:
        while True:
            b = f.read(1 << 20)
            if not b:
                return total
            total += sum(b)


def fingerprint(path):
    st = os.stat(path)
    with open(path, "rb") as f:
        return st.st_mtime_ns, st.st_size, hashlib.sha256(f.read()).digest()


def median(v):
    v = sorted(v)
    return v[len(v) // 2]


def observe_rusage(mode, path, n=3):
    """Minor/major faults of `wtg --child=MODE path` as this process's RUSAGE_CHILDREN sees them."""
    mi, ma = [], []
    for _ in range(n):
        a = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([WTG, "--child=" + mode, path], stdout=subprocess.DEVNULL, check=True)
        b = resource.getrusage(resource.RUSAGE_CHILDREN)
        mi.append(b.ru_minflt - a.ru_minflt)
        ma.append(b.ru_majflt - a.ru_majflt)
    return median(mi), median(ma)


def observe_perf(mode, path, n=3):
    """The same through perf's software events, or None when perf is missing or not allowed."""
    if not shutil.which("perf"):
        return None
    mi, ma = [], []
    for _ in range(n):
        p = subprocess.run(["perf", "stat", "-x,", "-e", "minor-faults,major-faults",
                            WTG, "--child=" + mode, path], capture_output=True, text=True)
        got = {}
        for line in p.stderr.splitlines():
            f = line.split(",")
            if len(f) >= 3 and f[2] in ("minor-faults", "major-faults") and f[0].isdigit():
                got[f[2]] = int(f[0])
        if p.returncode != 0 or len(got) != 2:
            return None
        mi.append(got["minor-faults"])
        ma.append(got["major-faults"])
    return median(mi), median(ma)


# Two runs of the same child never take exactly the same faults: address-space randomization moves
# the stack, heap and libraries across page-table and page boundaries (run to run a few faults
# here), rusage also counts the faults between fork and exec and the ones execve() takes copying the
# arguments into the new image, which perf (counting from exec, and only faults taken from user
# mode) does not. So "the same" means within max(16 faults, 10%), far tighter than any mistake
# such as counting the parent, a whole process tree or another control would produce.
def same_faults(a, b):
    return abs(a - b) <= max(16, 0.10 * max(a, b))


def test_children(path, want):
    status, out, err = run("--child=sum", path)
    check(status == 0 and out == "%d\n" % want,
          "--child=sum prints the file's sum (%r, want %d)" % (out, want))
    for mode in ("exit", "map"):
        status, out, err = run("--child=" + mode, path)
        check(status == 0 and out == "" and err == "", "--child=%s: exit 0, silent (%d, %r, %r)"
              % (mode, status, out, err))
    status, out, err = run("--child=bogus", path)
    check(status == 2 and err.startswith("wtg: ") and err.count("\n") == 1,
          "--child=bogus: usage error, one line")
    status, out, err = run("--child=sum", path + ".missing")
    check(status == 1 and err.startswith("wtg: ") and err.count("\n") == 1,
          "--child=sum on a missing file: exit 1")


def test_headline_intervals(doc):
    """Every headline of the four holds its interval: ci_low <= value <= ci_high, all of them numbers
    (mmap's ns per fault and faultbase's count from their repetitions, zerofill's from its series)."""
    for e in doc["experiments"]:
        for h in e["headlines"]:
            v, lo, hi = h["value"], h["ci_low"], h["ci_high"]
            check(None not in (v, lo, hi) and lo <= v <= hi,
                  "%s: headline '%s' %r lies in its interval [%r, %r]" % (e["name"], h["figure"], v, lo, hi))
    fb = [e for e in doc["experiments"] if e["name"] == "faultbase"]
    check(fb and [h["figure"] for h in fb[0]["headlines"]] == ["minor faults of a bare start and exit"],
          "faultbase's headline is the bare start and exit's count")


def main():
    # 1. the four experiments on a data file wtg creates (and must remove)
    status, doc, err = run_json("mmap,pagecache,zerofill,faultbase")
    pagecache_checks = 0
    check(status == 0, "exit status 0 (stderr: %s)" % err.strip())
    check(doc is not None, "JSON output")
    if doc:
        m = machine(doc)
        page = m.get("page_size") or os.sysconf("SC_PAGE_SIZE")
        fs = (m.get("data_file") or {}).get("filesystem")
        test_mmap(doc, QUICK_SIZE, page)
        before = checks_made()
        test_pagecache(doc, QUICK_SIZE, page, fs not in ("tmpfs", "ramfs"))
        pagecache_checks = checks_made() - before
        test_zerofill(doc, page)
        test_faultbase(doc, QUICK_SIZE, page)
        test_headline_intervals(doc)
    check(datadir_is_empty(), "the created data file is removed after the run")

    # 2. pagecache on tmpfs: eviction cannot work there; a clear note, not a failure
    if not shm_writable():
        # pagecache's invariants as the disk run above checked them, one skipped line each
        skip_checks(["pagecache on tmpfs: exit status 0", "/dev/shm is tmpfs"] +
                    ["pagecache on tmpfs: the disk run's invariant %d" % (k + 1) for k in range(pagecache_checks)] +
                    ["pagecache on tmpfs: the data file is removed"], "/dev/shm is not writable here")
    else:
        shm = tempfile.mkdtemp(prefix="wtg-test-", dir="/dev/shm")
        try:
            status, doc, err = run_json("pagecache", "--dir=" + shm)
            check(status == 0, "pagecache on tmpfs: exit status 0 (%s)" % err.strip())
            if doc:
                check(machine(doc).get("data_file", {}).get("filesystem") in (None, "tmpfs"),
                      "/dev/shm is tmpfs")
                page = machine(doc).get("page_size") or os.sysconf("SC_PAGE_SIZE")
                test_pagecache(doc, QUICK_SIZE, page, False)
            check(not os.listdir(shm), "pagecache on tmpfs: the data file is removed")
        finally:
            shutil.rmtree(shm, ignore_errors=True)

    # 3. a --file this script wrote: the sums are known here, the file is never touched, and the
    # faults of the controls agree with independent observers. On tmpfs (no large folios unless
    # shmem THP is on) summing 32 MiB takes hundreds of faults, so a count that missed the data part
    # would stand out against the startup's ~100.
    base = "/dev/shm" if shm_writable() else (os.environ.get("TMPDIR") or "/var/tmp")
    tmp = tempfile.mkdtemp(prefix="wtg-test-file-", dir=base)
    try:
        path = os.path.join(tmp, "data.bin")
        size = (32 << 20) + 12345
        with open(path, "wb") as f:
            f.write(hashlib.shake_256(b"wtg faults").digest(size))
        want = file_sum(path)
        before = fingerprint(path)
        test_children(path, want)
        status, doc, err = run_json("mmap,faultbase", "--file=" + path)
        check(status == 0, "--file run: exit status 0 (%s)" % err.strip())
        if doc:
            page = machine(doc).get("page_size") or os.sysconf("SC_PAGE_SIZE")
            e = experiment(doc, "mmap")
            if e:
                check(all(x["sum"] == want for x in rows(e) if x["sum"] is not None),
                      "mmap --file: sums equal this script's sum %d" % want)
            test_faultbase(doc, size, page, want)
            e = experiment(doc, "faultbase")
            controls = {x["case"]: x for x in rows(e)} if e else {}
            for mode, case in (("exit", "exit only"), ("sum", "map and sum")):
                x = controls.get(case)
                if not check(x is not None, "faultbase: %s row" % case):
                    continue
                mi, ma = observe_rusage(mode, path)
                check(same_faults(x["minflt"], mi), "faultbase %s control: %s minor faults, getrusage"
                      "(RUSAGE_CHILDREN) of the same child saw %d" % (mode, x["minflt"], mi))
                check(abs(x["majflt"] - ma) <= 2, "faultbase %s: major faults %s vs getrusage %d"
                      % (mode, x["majflt"], ma))
                p = observe_perf(mode, path)
                if p is None:
                    print("note: perf stat not usable here; getrusage was the observer")
                    continue
                check(same_faults(x["minflt"], p[0]),
                      "faultbase %s control: %s minor faults, perf stat saw %d" % (mode, x["minflt"], p[0]))
                check(abs(x["majflt"] - p[1]) <= 2, "faultbase %s: major faults %s vs perf %d"
                      % (mode, x["majflt"], p[1]))
        after = fingerprint(path)
        check(before == after, "--file is never written")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish_clean()


if __name__ == "__main__":
    main()
