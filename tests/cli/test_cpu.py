"""CPU and memory experiments in --quick mode: kernels, wss, threads (roofline and tail on a hybrid
topology: test_roofline.py, so that make check runs the two halves side by side).

Invariants only: the SPEC's columns, row counts, sums equal to sums Python computes or to each other,
pass and byte formulas, seeded determinism. Never a timing."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from wtgtest import (WTG, check, check_rounds, close, datadir, datadir_is_empty, experiment, experiment_done, finish,  # noqa: E501
                     rows, run, run_json, series, q7, used_samples)


def pass_sum(r):
    """A kernels row's checked sum per pass over its buffer: sum / (samples x bytes / wss)."""
    passes = r["samples"] * r["bytes"] // r["wss"]
    return r["sum"] // passes if passes else None


def parse_size(text):
    """wtg's size text (16K, 512M, 1.5G) in bytes."""
    m = re.match(r"([0-9.]+)([BKMGT]?)$", text)
    return int(float(m.group(1)) * 1024 ** "BKMGT".index(m.group(2) or "B")) if m else None


def fmt_size(n):
    """wtg's size text for n bytes as a row label prints it (16K, 1M, 1.5G)."""
    for i, u in reversed(list(enumerate("BKMGT"))):
        if n >= 1024 ** i:
            v = n / 1024 ** i
            return ("%d%s" % (v, u)) if v == int(v) else ("%.1f%s" % (v, u))
    return "%dB" % n


VERDICT = re.compile(r"^(?P<word>a slow loop hides the memory hierarchy|the loops fall alike|every loop slows in \S+): "
                     r"(?P<flat>\w+) sums (?P<gsmall>[0-9.]+) GB/s in (?P<lsmall>\S+) and (?P<glarge>[0-9.]+) in "
                     r"(?P<llarge>\S+), (?:while )?(?P<steep>\w+) falls (?P<sratio>[0-9.]+)-fold"
                     r"( \([0-9]+ of [0-9]+ samples waited for a CPU\))?$")


def check_wss_verdict(e, by):
    """wss's verdict, a sentence: the series that falls least from its smallest size to its largest,
    a series that exists, with the rows' own figures and levels, and the one that falls most."""
    v = e.get("verdict") or ""
    m = VERDICT.match(v)
    if not check(m is not None, "wss: the verdict names a flat series: %r" % v):
        return

    def fall(k):
        ks = sorted(by.get(k, []), key=lambda r: r["wss"])
        return (ks[0], ks[-1], ks[0]["gbps"] / ks[-1]["gbps"]) if len(ks) >= 2 else None
    flat, steep = m.group("flat"), m.group("steep")
    check(flat in by and steep in by, "wss: the verdict's series %r and %r exist: %r" % (flat, steep, sorted(by)))
    if flat not in by or steep not in by:
        return
    small, large, ratio = fall(flat)
    check(abs(float(m.group("gsmall")) - small["gbps"]) <= 0.051 and
          abs(float(m.group("glarge")) - large["gbps"]) <= 0.051,
          "wss: the verdict's %s/%s GB/s are the %s rows' %.2f and %.2f"
          % (m.group("gsmall"), m.group("glarge"), flat, small["gbps"], large["gbps"]))
    check(m.group("lsmall") == small["level"] and m.group("llarge") == large["level"],
          "wss: the verdict's levels %s/%s are the rows' %s/%s"
          % (m.group("lsmall"), m.group("llarge"), small["level"], large["level"]))
    falls = {k: fall(k)[2] for k in by if fall(k)}
    check(min(falls, key=falls.get) == flat and max(falls, key=falls.get) == steep,
          "wss: %s falls least and %s most of %r" % (flat, steep, falls))
    check(abs(float(m.group("sratio")) - falls[steep]) <= 0.051,
          "wss: the verdict's %s-fold is %s's fall" % (m.group("sratio"), steep))
    check((not m.group("word").startswith("every loop")) == (ratio <= 1.25),
          "wss: the loops are called flat when the flattest falls at most x1.25: %r" % v)


TOP = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

SPEC = {
    "kernels": ["kernel", "wss", "gbps"],
    "wss": ["wss", "gbps"],
    "threads": ["threads", "ms", "gbps", "sum"],
}
IMPLS = ("avx512vnni", "avx512bw", "avxvnni", "avx2", "sse2", "portable")


def common(e, name):
    """Columns in the SPEC's order first, every check ok, state done."""
    return experiment_done(e, name, SPEC[name])


# --- kernels and wss ------------------------------------------------------------------------------
status, doc, err = run_json("kernels,wss")
check(status == 0, "kernels,wss exit 0 (got %d: %s)" % (status, err.strip()))
kern_sums = {}
if check(doc is not None, "kernels,wss JSON parses"):
    caches = doc["machine"]["caches"]
    data = [c for c in caches if c["type"] != "Instruction"]
    check(len(data) > 0 and doc["machine"]["caches_source"] in ("sysfs", "sysconf"),
          "machine.caches lists this machine's caches: %r" % caches)
    levels = {c["level"]: c["size_bytes"] for c in data}
    l1d = levels.get(1, 32 << 10)
    llc = levels[max(levels)] if levels else 32 << 20
    ram_quarter = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 4
    # --quick caps the span at 512 MiB or RAM/16, never below the first power of two past the LLC
    past = 1 << 20
    while past <= llc:
        past *= 2
    mem = min(4 * llc, max(min(512 << 20, ram_quarter // 4), past), ram_quarter // 65536 * 65536)

    def level_of(size):
        for lv in sorted(levels):
            if size <= levels[lv]:
                return "L%d" % lv
        return "DRAM"

    def huge_note(notes, who, size):
        # the memory-sized buffer's huge pages as smaps counts them, beside the THP setting
        m = re.search(r"(all (\S+) in huge pages|(\S+) of its (\S+) in huge pages|none of its (\S+) in huge "
                      r"pages|its huge pages unknown), THP (\w+)", notes)
        if not check(m, "%s: a note says how much of the memory-sized buffer is in huge pages: %r"
                     % (who, m.group(0) if m else notes)):
            return
        try:
            thp = re.search(r"\[(\w+)\]", open("/sys/kernel/mm/transparent_hugepage/enabled").read()).group(1)
        except (OSError, AttributeError):
            thp = "unknown"
        check(m.group(6) == thp, "%s: the note's THP setting %s is sysfs' %s" % (who, m.group(6), thp))
        named = m.group(2) or m.group(4) or m.group(5)
        if size and named:
            check(parse_size(named) == size, "%s: the note's buffer %s is the %d-byte buffer" % (who, named, size))
        if thp == "never":
            check(m.group(5) is not None, "%s: THP never: none of the buffer in huge pages" % who)

    e = experiment(doc, "kernels")
    if common(e, "kernels"):
        rs = check_rounds(e, "kernels", "gbps", lambda r: "%s %d" % (r["kernel"], r["wss"]))
        # --quick: the four kernels over the cache buffer, scalar and simd over the memory-sized one
        check(len(rs) == 6, "kernels: 4 kernels + 2 = 6 rows, got %d" % len(rs))
        check([r["kernel"] for r in rs] == ["scalar", "auto", "native", "simd", "scalar", "simd"],
              "kernels: the memory-sized buffer's rows are scalar and simd: %r" % [r["kernel"] for r in rs])
        check("--quick: the memory-sized buffer is summed by the scalar and the simd loops only" in
              " ".join(e.get("notes", [])), "kernels: a note says which loops sum the memory-sized buffer")
        small = sorted({r["wss"] for r in rs})
        check(len(small) == 2 and small[0] == l1d // 2 // 4096 * 4096,
              "kernels: the cache buffer is half of L1d (%d): %r" % (l1d, small))
        check(len(small) == 2 and small[1] >= mem, "kernels: the memory buffer %r is >= 4x LLC (quick's cap, RAM/4) %d"
              % (small, mem))
        for r in rs:
            check(r["level"] == level_of(r["wss"]), "kernels: %d B is labelled %r" % (r["wss"], r["level"]))
            check(close(r["gbps"], r["bytes"] / (r["ms"] * 1e6), 1e-5), "kernels: gbps = bytes / median ms")
            if r["wss"] == small[0]:
                check(r["bytes"] % r["wss"] == 0 and r["bytes"] >= 8 << 20,
                      "kernels: a cache sample is whole passes of at least 8 MiB: %d" % r["bytes"])
            else:
                m = [re.search(r"or a window of at least (\d+) MB of the memory-sized one", n) for n in e["notes"]]
                m = [int(x.group(1)) for x in m if x]
                check(len(m) == 1 and r["bytes"] >= m[0] * 1000000 and r["bytes"] % 4096 == 0,
                      "kernels: a memory sample is a window of whole chunks, at least the note's %s MB: %d B"
                      % (m[0] if m else "?", r["bytes"]))
            if r["kernel"] == "scalar":
                check(r["impl"] == "scalar", "kernels: the scalar row says %r" % r["impl"])
            elif r["kernel"] in ("auto", "native"):
                check(r["impl"].startswith("x86-64") or r["impl"] == "the target's baseline",
                      "kernels: the %s row names the ISA it was compiled for: %r" % (r["kernel"], r["impl"]))
            else:
                check(r["impl"] in IMPLS, "kernels: the simd row names the implementation: %r" % r["impl"])
        # whole passes over the same buffer (as many per sample as a 5 ms sample needs): the four
        # kernels' checked sums agree per pass
        sums = {pass_sum(r) for r in rs if r["wss"] == small[0]}
        check(len(sums) == 1, "kernels: the four kernels give the same sum per pass over the cache buffer: %r" % sums)
        kern_sums = {r["kernel"]: pass_sum(r) for r in rs if r["wss"] == small[0]}
        checks = [c for c in e["checks"] if c["name"] == "sum"]
        check(len(checks) == 6 and all("each of the 15 samples" in c["detail"] for c in checks),
              "kernels: a sum check per row, over every sample: %r" % checks)
        notes = " ".join(e.get("notes", []))
        check(re.search(r"auto: (gcc|clang) [0-9]", notes) is not None,
              "kernels: a note names the compiler and its version for the auto row: %r" % notes)
        check("native: " in notes, "kernels: a note says how the native row was compiled")
        huge_note(notes, "kernels", small[1] if len(small) == 2 else None)
    # kernels, interleaved with wss, does not warm up again after wss's turns, and says why
    inter = [n for n in experiment(doc, "kernels")["notes"] if n.startswith("an interleaved run:")]
    check(len(inter) == 1 and "each time followed by its next round at once (no warm-up again: a cache-sized "
          "sample makes many passes over its buffer" in inter[0], "kernels: no warm-up again after wss's turns: %r"
          % inter)
    e = experiment(doc, "wss")
    if common(e, "wss"):
        rs = check_rounds(e, "wss", "gbps", lambda r: "%s %d" % (r.get("kernel"), r["wss"]))
        by = {}
        for r in rs:
            by.setdefault(r.get("kernel"), []).append(r)
        check(sorted(by) == ["auto", "scalar", "simd"], "wss: kernel is scalar, auto or simd: %r" % sorted(by))
        simd = by.get("simd", [])
        check(rs[-len(simd):] == simd if simd else False,
              "wss: the hand SIMD rows come last (the headline's row is its largest span)")
        sizes = [r["wss"] for r in simd]
        check(sizes[0] <= l1d // 2 < 2 * sizes[0], "wss: starts below L1d (%d): %r" % (l1d, sizes))
        # --quick: x4 steps (the default x2), the last size the memory-sized span
        check(all(b == 4 * a for a, b in zip(sizes, sizes[1:-1])), "wss: x4 steps: %r" % sizes)
        check(any(n.startswith("sizes %s .. %s in x4 steps" % (fmt_size(sizes[0]), fmt_size(sizes[-1])))
                  for n in e["notes"]) if sizes else False, "wss: a note says x4 steps")
        check(sizes[-1] >= mem and sizes[-2] < mem, "wss: ends at the first size >= 4x LLC (quick's cap, RAM/4) %d: %r"
              % (mem, sizes))
        got = [r["level"] for r in simd]
        check(got == [level_of(s) for s in sizes], "wss: each size labelled with its level: %r" % got)
        order = ["L%d" % lv for lv in sorted(levels)] + ["DRAM"]
        check([order.index(g) for g in got] == sorted(order.index(g) for g in got) and got[-1] == "DRAM",
              "wss: levels in order, ending in DRAM: %r" % got)
        # the slow loops (--quick): three of the SIMD sizes, ascending, from below L1d to past the LLC
        for k in ("scalar", "auto"):
            ks = [r["wss"] for r in by.get(k, [])]
            check(len(ks) == min(3, len(sizes)) and ks == sorted(set(ks)) and set(ks) <= set(sizes),
                  "wss: %s at 3 of the SIMD sizes, ascending: %r" % (k, ks))
            check(ks[:1] == sizes[:1] and ks[-1:] == sizes[-1:] and ks[-1] > llc if ks else False,
                  "wss: %s spans from below L1d to past the %d-byte LLC: %r" % (k, llc, ks))
            check(all(r["level"] == level_of(r["wss"]) for r in by.get(k, [])), "wss: %s rows labelled with levels" % k)
        # a line per kernel: every row's samples are a series named after it
        for r in rs:
            name = "%s %s" % (r["kernel"], fmt_size(r["wss"]))
            sr = series(e, name)
            check(sr is not None and len(sr) == r["samples"], "wss: the series %r holds the row's %d samples"
                  % (name, r["samples"]))
        for r in rs:
            check(close(r["gbps"], r["bytes"] / (r["ms"] * 1e6), 1e-5), "wss: gbps = bytes / ms at %s %d"
                  % (r["kernel"], r["wss"]))
            check(close(r["passes"], r["bytes"] / r["wss"], 1e-9), "wss: passes = bytes / wss at %d" % r["wss"])
            if r["wss"] <= r["bytes"]:
                check(r["bytes"] % r["wss"] == 0, "wss: whole passes at %d" % r["wss"])
            check(0 < r["sum"] <= 255 * r["bytes"] * r["samples"], "wss: the sum fits what was read")
        checks = [c for c in e["checks"] if c["name"] == "sum"]
        check(len(checks) == len(rs), "wss: a sum check per row")
        check_wss_verdict(e, by)
        # run beside kernels: interleaved, and no warm-up again after kernels' turns
        inter = [n for n in e["notes"] if n.startswith("an interleaved run:")]
        check(all("each time followed by its next round at once (no warm-up again" in n for n in inter),
              "wss: no warm-up again after the others' turns: %r" % inter)
        huge_note(" ".join(e.get("notes", [])), "wss", sizes[-1] if sizes else None)
check(datadir_is_empty(), "kernels,wss: the data file is removed")

# The runs below check which loop runs and which bytes the seed gives, not the memory-sized span:
# WTG_TEST_MAX_BUFFER caps their buffer (its first bytes, the smallest rows' sums, stay the seed's)
SMALL_BUFFER = {"WTG_TEST_MAX_BUFFER": "64M"}

# WTG_SIMD caps the hand SIMD level: sse2 exists on every x86-64, portable everywhere. The same run is
# the --seed=1 run below (the seed kernels,wss ran with by default): a loop's level changes no sum.
status, doc2, err = run_json("kernels", "--seed=1", env=dict(SMALL_BUFFER, WTG_SIMD="portable"))
check(status == 0, "kernels with WTG_SIMD=portable exit 0 (got %d: %s)" % (status, err.strip()))
if check(doc2 is not None, "kernels with WTG_SIMD=portable: JSON parses"):
    impls = {r["impl"] for r in rows(experiment(doc2, "kernels")) if r["kernel"] == "simd"}
    check(impls == {"portable"}, "kernels: WTG_SIMD=portable runs the portable loop: %r" % impls)

# seeded buffers: the same seed gives the same bytes (sums), another seed other bytes
status3, doc3, err3 = run_json("kernels", "--seed=2", env=SMALL_BUFFER)
if check(status == 0 and status3 == 0 and doc2 and doc3, "kernels with --seed=1 and --seed=2 exit 0"):
    small = min(r["wss"] for r in rows(experiment(doc2, "kernels")))
    s1 = {r["kernel"]: pass_sum(r) for r in rows(experiment(doc2, "kernels")) if r["wss"] == small}
    s2 = {r["kernel"]: pass_sum(r) for r in rows(experiment(doc3, "kernels")) if r["wss"] == small}
    check(kern_sums and s1 == kern_sums, "kernels: the same seed gives the same buffers: %r %r" % (s1, kern_sums))
    check(s1 != s2, "kernels: another seed gives other buffers")

# --- threads over a --file of odd size: Python computes the known sum ----------------------------
fdir = tempfile.mkdtemp(prefix="wtg-cpu-")
path = os.path.join(fdir, "odd.bin")
size = (3 << 20) + 12345
# byte i is (i * 7919 + (i >> 9) * 31) & 0xff: as 512 x 7919 is a multiple of 256, the 512-byte block k
# is block 0 with 31 k added to every byte (made a block at a time: a byte at a time costs 0.4 s of CPU)
block0 = bytes((j * 7919) & 0xff for j in range(512))
add = [bytes((x + c) & 0xff for x in range(256)) for c in range(256)]
data = b"".join(block0.translate(add[(k * 31) & 0xff]) for k in range(-(-size // 512)))[:size]
with open(path, "wb") as f:
    f.write(data)
known = sum(data)
digest = hashlib.sha256(data).hexdigest()
def plan_counts(maxn, ncpu):
    """The thread counts on a one-package, one-node machine: 1, 2, 4 ... below maxn, maxn, and the
    online CPUs when maxn goes beyond them."""
    c = {1, maxn}
    n = 2
    while n < maxn:
        c.add(n)
        n *= 2
    if ncpu < maxn:
        c.add(ncpu)
    return sorted(c)


def cpu_list(text):
    """"0-3,8" -> {0, 1, 2, 3, 8}."""
    out = set()
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def label(r):
    n = r["threads"]
    return "%s %d thread%s" % (r["group"], n, "" if n == 1 else "s")


def check_threads(e, doc, maxn, tag):
    """Rows per placement over the planned counts, each a distribution; ideal per placement; the
    CPUs each row was pinned to, its nodes and its core type."""
    ncpu = doc["machine"]["cpus"]
    topo = doc["machine"]["topology"]
    rs = rows(e)
    want = plan_counts(maxn, ncpu)
    one_node = len(topo["numa_nodes"]) == 1
    if one_node:
        check([(r["placement"], r["threads"]) for r in rs] == [(p, n) for p in ("compact", "spread") for n in want],
              tag + "a row per placement and count %r: %r" % (want, [(r["placement"], r["threads"]) for r in rs]))
        check(all(r["memory"] == "local" and r["group"] == r["placement"] for r in rs),
              tag + "one node: every row reads local memory")
        check(any("one NUMA node: all memory is local" in x for x in e["notes"]), tag + "a note says one node")
    allowed = os.sched_getaffinity(0)
    types = topo["core_types"]
    for r in rs:
        n = r["threads"]
        name = tag + "%s: " % label(r)
        check(r["samples"] >= 15, name + "a distribution of >= 15 samples")
        check(r["gbps_min"] <= r["gbps_ci_low"] <= r["gbps"] <= r["gbps_ci_high"] <= r["gbps_max"],
              name + "min <= ci_low <= median <= ci_high <= max")
        check(close(r["gbps"], r["bytes"] / (r["ms"] * 1e6), 1e-5), name + "gbps = bytes / ms")
        check(r["oversubscribed"] == (1 if n > ncpu else 0), name + "oversubscribed on %d CPUs" % ncpu)
        cpus = cpu_list(r["cpus"])
        check(len(cpus) == min(n, ncpu), name + "pinned to %d distinct CPUs: %r" % (min(n, ncpu), r["cpus"]))
        check(r["pinned"] == (1 if cpus <= allowed else 0), name + "pinned = %r where this process may run on %r"
              % (r["pinned"], sorted(allowed)))
        if r["pinned"]:
            check(cpu_list(r["cpus_seen"]) <= cpus, name + "ran on its CPUs: %r in %r" % (r["cpus_seen"], r["cpus"]))
        if one_node:
            check(r["nodes"] == str(topo["numa_nodes"][0]["node"]) and r["memory_nodes"] == r["nodes"],
                  name + "one node: nodes %r, memory_nodes %r" % (r["nodes"], r["memory_nodes"]))
        if len(types) == 1:
            check(r["core_type"] == types[0]["type"], name + "core_type %r on one type" % r["core_type"])
        one = [x for x in rs if x["threads"] == 1 and x["group"] == r["group"]]
        if one:
            # the ideal: min(N, CPUs), times the parts' gain where the follow-up measured it
            f = follow_ups(e).get(label(r))
            gain = r["parts_ratio"] if f else 1
            check((r["parts_ratio"] is None) == (f is None) and (f is None or abs(r["parts_ratio"] - f["ratio"]) < 0.006),
                  name + "parts_ratio is the follow-up's (%r; note %r)" % (r["parts_ratio"], f))
            check(close(r["ideal_speedup"], min(n, ncpu) * gain, 1e-9),
                  name + "ideal_speedup = min(N, CPUs) x the parts' gain: %r" % r["ideal_speedup"])
            check(close(r["ideal_gbps"], one[0]["gbps"] * r["ideal_speedup"], 1e-6),
                  name + "ideal_gbps = its placement's 1-thread median x ideal_speedup")
            if f:
                check(abs(r["ideal_speedup_ci_low"] - min(n, ncpu) * f["lo"]) < 0.006 * n
                      and abs(r["ideal_speedup_ci_high"] - min(n, ncpu) * f["hi"]) < 0.006 * n
                      and r["ideal_speedup_ci_low"] <= r["ideal_speedup"] <= r["ideal_speedup_ci_high"],
                      name + "the ideal's interval is min(N, CPUs) x the parts' ratio's: [%r, %r]"
                      % (r["ideal_speedup_ci_low"], r["ideal_speedup_ci_high"]))
            else:
                check(r["ideal_speedup_ci_low"] is None and r["ideal_speedup_ci_high"] is None,
                      name + "without a follow-up the ideal is exact: no interval")
            check(close(r["speedup"], r["gbps"] / one[0]["gbps"], 1e-6), name + "speedup = gbps / 1-thread gbps")
            if r["threads"] == 1:
                check(r["speedup_ci_low"] is None and r["speedup_ci_high"] is None,
                      name + "the one-thread row's own speedup has no interval")
            else:
                check(r["speedup_ci_low"] is not None and 0 < r["speedup_ci_low"] <= r["speedup_ci_high"],
                      name + "speedup has a bootstrap interval: [%r, %r]" % (r["speedup_ci_low"], r["speedup_ci_high"]))
        if check(len(series(e, label(r)) or []) == r["samples"], name + "its samples as a series"):
            v = sorted(used_samples(e, label(r), keep_all=n > ncpu))
            check(close(q7(v, 0.5), r["gbps"], 1e-9) and v[0] == r["gbps_min"] and v[-1] == r["gbps_max"],
                  name + "median, min and max are the series' (the uncontended samples when 11 remain)")
    if len(types) == 1:
        check(any(x.startswith("one core type on this machine") for x in e["notes"]), tag + "a note says one core type")
    # 15 rounds and two sizing warm-ups per row, the warm-up windows of 3 samples of one row, and 15
    # pairs of samples in each speedup's follow-up
    windows = sum(w["windows"] for w in e.get("warmup", []))
    follow = follow_ups(e)
    total = 17 * len(rs) + 3 * windows + 30 * len(follow)
    check(any("checked against the known sum in all %d samples" % total in x for x in e["notes"]),
          tag + "the sum was checked on every sample (15 rounds and two warm-ups x %d rows, 3 x %d windows, "
          "30 x %d follow-ups): %r" % (len(rs), windows, len(follow), e["notes"]))
    check(len([c for c in e["checks"] if c["name"] == "ci"]) == len(rs), tag + "a ci check per row")
    multi = [r for r in rs if r["threads"] > 1]
    sp = [c for c in e["checks"] if c["name"] == "speedup"]
    check(len(sp) == len(multi) and all(c["status"] in ("ok", "warn") for c in sp),
          tag + "a speedup check per row of more than one thread: %r" % sp)
    for c in sp:	# the check's verdict follows the row's own interval, its ideal and the follow-up
        r = next(x for x in multi if c["detail"].startswith(label(x) + ": "))
        ideal = min(r["threads"], ncpu)
        above = r["speedup_ci_low"] > ideal
        f = follow.get(label(r))
        check(not above or f is not None, tag + "%s: a speedup above its ideal gets the follow-up" % label(r))
        if above and f:
            # the note gives the ratio to 2 decimals: within that rounding of the edge either verdict stands
            edge = abs(r["speedup_ci_low"] - ideal * f["hi"]) <= ideal * 0.005
            explained = r["speedup_ci_low"] <= ideal * f["hi"]
            # an ok check is a row whose speedup interval reaches its ideal's (the row shows no interval
            # wholly above its ideal)
            # (the JSON's reals carry 10 significant digits: a tie at the edge may round either way)
            check(c["status"] != "ok" or r["speedup_ci_low"] <= r["ideal_speedup_ci_high"] * (1 + 1e-8),
                  tag + "%s: an explained speedup [%.2f, %.2f] reaches its ideal's interval [%.2f, %.2f]"
                  % (label(r), r["speedup_ci_low"], r["speedup_ci_high"], r["ideal_speedup_ci_low"],
                     r["ideal_speedup_ci_high"]))
            check((edge or (c["status"] == "ok") == explained) and ("%.2fx [%.2f, %.2f]" % (f["ratio"], f["lo"], f["hi"]))
                  in c["detail"], tag + "speedup check %s: above the ideal %d, the parts ran %.2fx [%.2f, %.2f]: %r"
                  % (c["status"], ideal, f["ratio"], f["lo"], f["hi"], c["detail"]))
        else:
            check((c["status"] == "warn") == above, tag + "speedup check %s for %r" % (c["status"], c["detail"]))
    return rs


FOLLOW = re.compile(r"^(.+): its speedup's follow-up: one thread \(pinned as (.+)\) summed the (\d+) parts of .* "
                    r"the parts ([\d.]+) GB/s, the whole ([\d.]+), a ratio of ([\d.]+) \[([\d.]+), ([\d.]+)\]$")


def follow_ups(e):
    """The rows whose speedup got the follow-up, from the notes: label -> its figures."""
    out = {}
    for x in e["notes"]:
        m = FOLLOW.match(x)
        if m:
            out[m.group(1)] = {"base": m.group(2), "parts": int(m.group(3)), "parts_gbps": float(m.group(4)),
                               "whole_gbps": float(m.group(5)), "ratio": float(m.group(6)), "lo": float(m.group(7)),
                               "hi": float(m.group(8))}
    return out


status, doc, err = run_json("threads", "--file=" + path, "--threads=5")
check(status == 0, "threads exit 0 (got %d: %s)" % (status, err.strip()))
if check(doc is not None, "threads JSON parses"):
    e = experiment(doc, "threads")
    if common(e, "threads"):
        rs = check_threads(e, doc, 5, "threads --threads=5: ")
        for r in rs:
            n = r["threads"]
            check(r["sum"] == known, "threads: N=%d total %r equals the file's sum %d" % (n, r["sum"], known))
            check(r["bytes"] == r["reps"] * size, "threads: bytes = reps x file size at N=%d" % n)
            check(r["bytes"] >= 128000000 and r["reps"] >= -(-128000000 // size),
                  "threads: reps >= ceil(128 MB / size) per sample in --quick at N=%d (more to span 5 ms)" % n)
        check(doc["machine"]["data_file"]["known_sum"] == known, "threads: the machine block has the file's sum")
        sums = [c for c in e["checks"] if c["name"] == "sum"]
        check(len(sums) == len(rs) and all(("= known sum %d" % known) in c["detail"] for c in sums),
              "threads: a sum check per row against the file's sum: %r" % sums)

# --- threads by default: 1, 2, 4 .. the online CPUs, none oversubscribed; and the follow-up on every
# row (WTG_TEST_PARTS): one thread over the parts in turn, against the whole span ---------------------
status, doc, err = run_json("threads", "--file=" + path, env={"WTG_TEST_PARTS": "1"})
if check(status == 0 and doc is not None, "threads default, every follow-up, exits 0 (%s)" % err.strip()):
    e = experiment(doc, "threads")
    rs = check_threads(e, doc, doc["machine"]["cpus"], "threads default: ")
    check(all(r["oversubscribed"] == 0 for r in rs), "threads: none oversubscribed by default")
    follow = follow_ups(e)
    multi = [r for r in rs if r["threads"] > 1]
    check(sorted(follow) == sorted(label(r) for r in multi), "a follow-up per row of more than one thread: %r"
          % sorted(follow))
    for r in multi:
        f = follow.get(label(r))
        if not f:
            continue
        name = "threads follow-up, %s: " % label(r)
        check(f["parts"] == r["threads"] and f["base"] == "%s 1 thread" % r["group"],
              name + "one thread pinned as its group's one-thread row, over its %d parts" % r["threads"])
        parts = series(e, label(r) + ": one thread, the parts in turn") or []
        whole = series(e, label(r) + ": one thread, the whole span") or []
        check(len(parts) == 15 and len(whole) == 15 and min(parts + whole) > 0,
              name + "15 samples of each as series: %d and %d" % (len(parts), len(whole)))
        if len(parts) == 15 and len(whole) == 15:
            mp, mw = q7(sorted(parts), 0.5), q7(sorted(whole), 0.5)
            check(abs(mp - f["parts_gbps"]) < 0.006 and abs(mw - f["whole_gbps"]) < 0.006,
                  name + "the note's medians are the series': %r" % f)
            check(abs(f["ratio"] - mp / mw) < 0.006 and f["lo"] <= f["ratio"] <= f["hi"],
                  name + "ratio = parts / whole, inside its interval: %r" % f)
    check(all(c["status"] == "ok" for c in e["checks"] if c["name"] in ("sum", "repeats")),
          "threads follow-ups: every sum check and the repeats check ok (each follow-up total was the known sum)")

# --- threads where the process may run on one CPU: the others are not taken, a note says so --------
ncpu = os.cpu_count() or 1
if ncpu >= 2 and shutil.which("taskset"):
    p = subprocess.run(["taskset", "-c", "0", WTG, "--run=threads", "--quick", "--format=json", "--file=" + path],
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, "threads under taskset -c 0 exits 0 (%s)" % p.stderr.strip())
    try:
        e = experiment(json.loads(p.stdout), "threads")
    except ValueError:
        e = None
    if check(e is not None, "threads under taskset -c 0: JSON parses"):
        rs = rows(e)
        check(all(r["pinned"] == (1 if r["cpus"] == "0" else 0) for r in rs),
              "threads under taskset -c 0: only the rows on CPU 0 alone are pinned: %r" % [(r["cpus"], r["pinned"]) for r in rs])
        check(all(r["cpus_seen"] == "0" for r in rs), "threads under taskset -c 0: every thread ran on CPU 0")
        check(any(x.startswith("pinning failed for ") and "outside the process's CPU affinity" in x and
                  "may run on CPUs 0)" in x for x in e["notes"]),
              "threads under taskset -c 0: a note says pinning failed and why: %r" % e["notes"])

# --- threads on a two-node server's topology (fixture): remote and interleaved rows ----------------
fx = os.path.join(fdir, "server192")
subprocess.run([sys.executable, os.path.join(TOP, "tests", "fixtures", "mksysfs.py"), "server192", fx], check=True)
status, out, err = run("--run=threads", "--quick", "--format=json", "--threads=4", "--file=" + path,
                       env={"WTG_SYSFS_ROOT": fx})
try:
    doc = json.loads(out)
except ValueError:
    doc = None
if check(status == 0 and doc is not None, "threads on the server192 fixture exits 0 (%s)" % err.strip()):
    rs = rows(experiment(doc, "threads"))
    e = experiment(doc, "threads")
    got = [(r["group"], r["threads"]) for r in rs]
    want = [("compact", n) for n in (1, 2, 4)] + [("compact remote", n) for n in (1, 2, 4)] + \
        [("spread", n) for n in (1, 2, 4)] + [("spread interleaved", 4)]
    check(got == want, "server192: compact, compact remote, spread, spread interleaved rows: %r" % got)
    by = {(r["group"], r["threads"]): r for r in rs}
    if got == want:
        check(by[("compact", 4)]["cpus"] == "0-1,96-97" and by[("compact", 4)]["nodes"] == "0",
              "server192: compact 4 fills two cores' siblings on node 0: %r" % by[("compact", 4)]["cpus"])
        check(by[("spread", 4)]["cpus"] == "0-1,48-49" and by[("spread", 4)]["nodes"] == "0-1",
              "server192: spread 4 takes the nodes in turn: %r" % by[("spread", 4)]["cpus"])
        check(by[("compact remote", 2)]["memory"] == "remote" and by[("compact remote", 2)]["memory_nodes"] == "1",
              "server192: remote rows read node 1's memory")
        check(by[("spread interleaved", 4)]["memory_nodes"] == "0-1", "server192: interleaved over both nodes")
        check(by[("compact", 4)]["ideal_gbps"] is not None and by[("spread interleaved", 4)]["ideal_gbps"] is None,
              "server192: an ideal from the group's one-thread row, none without one")
        check(all(r["sum"] == known for r in rs), "server192: every row's total is the file's sum")
    check(any(x.startswith("pinning failed for ") for x in e["notes"]) or ncpu >= 192,
          "server192: a note says the fixture's CPUs could not all be pinned")
    check(any(x.startswith("2 NUMA nodes: the threads read an anonymous copy") for x in e["notes"]),
          "server192: a note says how the memory was bound: %r" % e["notes"])
with open(path, "rb") as f:
    check(hashlib.sha256(f.read()).hexdigest() == digest, "threads: the --file is untouched")
shutil.rmtree(fdir)

check(datadir_is_empty(), "threads: the data file is removed")

finish()
