"""CPU and memory experiments in --quick mode: kernels, wss, threads, roofline.

Invariants only: the SPEC's columns, row counts, sums equal to sums Python computes or to each other,
pass and byte formulas, seeded determinism. Never a timing."""
import hashlib
import json
import os
import re
import shutil
import tempfile

from wtgtest import check, check_rounds, close, datadir, datadir_is_empty, experiment, finish, rows, run, run_json

SPEC = {
    "kernels": ["kernel", "wss", "gbps"],
    "wss": ["wss", "gbps"],
    "threads": ["threads", "ms", "gbps", "sum"],
    "roofline": ["loop", "policy", "ms", "ratio"],
}
IMPLS = ("avx512vnni", "avx512bw", "avxvnni", "avx2", "sse2", "portable")


def common(e, name):
    """Columns in the SPEC's order first, every check ok, state done."""
    if not check(e is not None, "%s is in the output" % name):
        return False
    cols = [c["name"] for c in e["columns"]]
    check(cols[:len(SPEC[name])] == SPEC[name], "%s columns start with the SPEC's: %r" % (name, cols))
    check(len(e["checks"]) > 0 and all(c["ok"] for c in e["checks"]),
          "%s: every check ok: %r" % (name, [c for c in e["checks"] if not c["ok"]]))
    check(e["state"] == "done", "%s state done, got %r (%r)" % (name, e["state"], e.get("error")))
    return True


# --- kernels and wss ------------------------------------------------------------------------------
status, doc, err = run_json("kernels,wss")
check(status == 0, "kernels,wss exit 0 (got %d: %s)" % (status, err.strip()))
kern_sums = {}
if check(doc is not None, "kernels,wss JSON parses"):
    caches = doc["machine"]["caches"]
    data = [c for c in caches if c["type"] != "Instruction"]
    check(len(data) > 0 and doc["machine"]["caches_source"] in ("sysfs", "sysconf"),
          "machine.caches lists this machine's caches: %r" % caches)
    levels = {c["level"]: c["size"] for c in data}
    l1d = levels.get(1, 32 << 10)
    llc = levels[max(levels)] if levels else 32 << 20
    ram_quarter = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 4
    mem = min(4 * llc, ram_quarter // 65536 * 65536)

    def level_of(size):
        for lv in sorted(levels):
            if size <= levels[lv]:
                return "L%d" % lv
        return "DRAM"

    e = experiment(doc, "kernels")
    if common(e, "kernels"):
        rs = check_rounds(e, "kernels", "gbps", lambda r: "%s %d" % (r["kernel"], r["wss"]))
        check(len(rs) == 8, "kernels: 4 kernels x 2 buffers = 8 rows, got %d" % len(rs))
        small = sorted({r["wss"] for r in rs})
        check(len(small) == 2 and small[0] == l1d // 2 // 4096 * 4096,
              "kernels: the cache buffer is half of L1d (%d): %r" % (l1d, small))
        check(len(small) == 2 and small[1] >= mem, "kernels: the memory buffer %r is >= 4x LLC (or RAM/4) %d"
              % (small, mem))
        for r in rs:
            check(r["level"] == level_of(r["wss"]), "kernels: %d B is labelled %r" % (r["wss"], r["level"]))
            check(close(r["gbps"], r["bytes"] / (r["ms"] * 1e6), 1e-5), "kernels: gbps = bytes / median ms")
            if r["wss"] == small[0]:
                check(r["bytes"] % r["wss"] == 0 and r["bytes"] >= 8 << 20,
                      "kernels: a cache sample is whole passes of at least 8 MiB: %d" % r["bytes"])
            else:
                check(r["bytes"] <= r["wss"] // 4, "kernels: a memory sample is a window of the buffer")
            if r["kernel"] == "scalar":
                check(r["impl"] == "scalar", "kernels: the scalar row says %r" % r["impl"])
            elif r["kernel"] in ("auto", "native"):
                check(r["impl"].startswith("x86-64") or r["impl"] == "the target's baseline",
                      "kernels: the %s row names the ISA it was compiled for: %r" % (r["kernel"], r["impl"]))
            else:
                check(r["impl"] in IMPLS, "kernels: the simd row names the implementation: %r" % r["impl"])
        # whole passes over the same buffer: the three kernels' checked sums agree
        sums = {r["sum"] for r in rs if r["wss"] == small[0]}
        check(len(sums) == 1, "kernels: the four kernels give the same sum over the cache buffer: %r" % sums)
        kern_sums = {r["kernel"]: r["sum"] for r in rs if r["wss"] == small[0]}
        checks = [c for c in e["checks"] if c["name"] == "sum"]
        check(len(checks) == 8 and all("each of the 11 samples" in c["detail"] for c in checks),
              "kernels: a sum check per row, over every sample: %r" % checks)
        notes = " ".join(e.get("notes", []))
        check(re.search(r"auto: (gcc|clang) [0-9]", notes) is not None,
              "kernels: a note names the compiler and its version for the auto row: %r" % notes)
        check("native: " in notes, "kernels: a note says how the native row was compiled")
    e = experiment(doc, "wss")
    if common(e, "wss"):
        rs = check_rounds(e, "wss", "gbps", lambda r: str(r["wss"]))
        sizes = [r["wss"] for r in rs]
        check(sizes[0] <= l1d // 2 < 2 * sizes[0], "wss: starts below L1d (%d): %r" % (l1d, sizes))
        check(all(b == 2 * a for a, b in zip(sizes, sizes[1:-1])), "wss: x2 steps: %r" % sizes)
        check(sizes[-1] >= mem and sizes[-2] < mem, "wss: ends at the first size >= 4x LLC (or RAM/4) %d: %r"
              % (mem, sizes))
        got = [r["level"] for r in rs]
        check(got == [level_of(s) for s in sizes], "wss: each size labelled with its level: %r" % got)
        order = ["L%d" % lv for lv in sorted(levels)] + ["DRAM"]
        check([order.index(g) for g in got] == sorted(order.index(g) for g in got) and got[-1] == "DRAM",
              "wss: levels in order, ending in DRAM: %r" % got)
        for r in rs:
            check(close(r["gbps"], r["bytes"] / (r["ms"] * 1e6), 1e-5), "wss: gbps = bytes / ms at %d" % r["wss"])
            check(close(r["passes"], r["bytes"] / r["wss"], 1e-9), "wss: passes = bytes / wss at %d" % r["wss"])
            if r["wss"] <= r["bytes"]:
                check(r["bytes"] % r["wss"] == 0, "wss: whole passes at %d" % r["wss"])
            check(0 < r["sum"] <= 255 * r["bytes"] * r["samples"], "wss: the sum fits what was read")
        checks = [c for c in e["checks"] if c["name"] == "sum"]
        check(len(checks) == len(rs), "wss: a sum check per row")
check(datadir_is_empty(), "kernels,wss: the data file is removed")

# WTG_SIMD caps the hand SIMD level: sse2 exists on every x86-64, portable everywhere
status, out, err = run("--run=kernels", "--quick", "--format=json", "--dir=" + datadir(),
                       env={"WTG_SIMD": "portable"})
check(status == 0, "kernels with WTG_SIMD=portable exit 0 (got %d: %s)" % (status, err.strip()))
try:
    doc = json.loads(out)
except ValueError:
    doc = None
if check(doc is not None, "kernels with WTG_SIMD=portable: JSON parses"):
    impls = {r["impl"] for r in rows(experiment(doc, "kernels")) if r["kernel"] == "simd"}
    check(impls == {"portable"}, "kernels: WTG_SIMD=portable runs the portable loop: %r" % impls)

# seeded buffers: the same seed gives the same bytes (sums), another seed other bytes
status, doc2, err = run_json("kernels", "--seed=1")
status3, doc3, err3 = run_json("kernels", "--seed=2")
if check(status == 0 and status3 == 0 and doc2 and doc3, "kernels with --seed=1 and --seed=2 exit 0"):
    small = min(r["wss"] for r in rows(experiment(doc2, "kernels")))
    s1 = {r["kernel"]: r["sum"] for r in rows(experiment(doc2, "kernels")) if r["wss"] == small}
    s2 = {r["kernel"]: r["sum"] for r in rows(experiment(doc3, "kernels")) if r["wss"] == small}
    check(kern_sums and s1 == kern_sums, "kernels: the same seed gives the same buffers: %r %r" % (s1, kern_sums))
    check(s1 != s2, "kernels: another seed gives other buffers")

# --- threads over a --file of odd size: Python computes the known sum ----------------------------
fdir = tempfile.mkdtemp(prefix="wtg-cpu-")
path = os.path.join(fdir, "odd.bin")
size = (3 << 20) + 12345
data = bytes((i * 7919 + (i >> 9) * 31) & 0xff for i in range(size))
with open(path, "wb") as f:
    f.write(data)
known = sum(data)
digest = hashlib.sha256(data).hexdigest()
status, doc, err = run_json("threads", "--file=" + path, "--threads=7")
check(status == 0, "threads exit 0 (got %d: %s)" % (status, err.strip()))
if check(doc is not None, "threads JSON parses"):
    e = experiment(doc, "threads")
    if common(e, "threads"):
        rs = rows(e)
        check([r["threads"] for r in rs] == list(range(1, 8)), "threads: one row per N = 1 .. 7, above the CPUs")
        for r in rs:
            check(r["sum"] == known, "threads: N=%d total %r equals the file's sum %d" % (r["threads"], r["sum"], known))
            check(r["bytes"] == r["reps"] * size, "threads: bytes = reps x file size at N=%d" % r["threads"])
            check(r["bytes"] >= 500000000 and (r["reps"] - 1) * size < 500000000,
                  "threads: reps = ceil(0.5 GB / size) at N=%d" % r["threads"])
            check(close(r["gbps"], r["bytes"] / (r["ms"] * 1e6), 1e-5), "threads: gbps = bytes / ms")
            check(close(r["ideal_gbps"], rs[0]["gbps"] * r["threads"], 1e-6), "threads: ideal = N x 1-thread gbps")
            check(close(r["speedup"], r["gbps"] / rs[0]["gbps"], 1e-6), "threads: speedup = gbps / 1-thread gbps")
        check(doc["machine"]["data_file"]["known_sum"] == known, "threads: the machine block has the file's sum")
        sums = [c for c in e["checks"] if c["name"] == "sum"]
        check(len(sums) == 7, "threads: a sum check per row, got %d" % len(sums))
with open(path, "rb") as f:
    check(hashlib.sha256(f.read()).hexdigest() == digest, "threads: the --file is untouched")
shutil.rmtree(fdir)

# --- roofline -------------------------------------------------------------------------------------
status, doc, err = run_json("roofline")
check(status == 0, "roofline exit 0 (got %d: %s)" % (status, err.strip()))
if check(doc is not None, "roofline JSON parses"):
    e = experiment(doc, "roofline")
    if common(e, "roofline"):
        rs = rows(e)
        check(sorted((r["loop"], r["policy"]) for r in rs) ==
              sorted((l, p) for l in ("arith", "sum") for p in ("normal", "background")),
              "roofline: both loops under both policies")
        for r in rs:
            want = "SCHED_IDLE" if r["policy"] == "background" else "SCHED_OTHER"
            check(r["granted"] == want, "roofline: %s/%s granted %r" % (r["loop"], r["policy"], r["granted"]))
            check(r["status"] in ("ok", "starved"), "roofline: status ok or starved")
            if r["status"] == "starved":
                # on a busy machine a SCHED_IDLE thread may not run: then the row says so
                check(r["ms"] is None and r["ratio"] is None, "roofline: a starved row has no timing")
                check(any(n.startswith("%s, %s: starved" % (r["loop"], r["policy"])) for n in e["notes"]),
                      "roofline: a starved row has its note")
            else:
                rate = r["gops"] if r["loop"] == "arith" else r["gbps"]
                check(rate is not None and rate > 0, "roofline: an ok row has its rate")
        for loop in ("arith", "sum"):
            by = {r["policy"]: r for r in rs if r["loop"] == loop}
            check(sorted(r["order"] for r in by.values()) == [1, 2], "roofline: %s ran once per policy" % loop)
            n, b = by.get("normal"), by.get("background")
            if n and n["status"] == "ok":
                check(n["ratio"] == 1.0, "roofline: the normal %s row is the reference (ratio 1)" % loop)
                if b and b["status"] == "ok":
                    check(close(b["ratio"], b["ms"] / n["ms"], 1e-6), "roofline: %s ratio = background / normal" % loop)
        sums = [c for c in e["checks"] if c["name"] == "sum"]
        check(len(sums) == sum(1 for r in rs if r["loop"] == "sum" and r["status"] == "ok"),
              "roofline: a sum check per finished sum row")
check(datadir_is_empty(), "roofline: the data file is removed")

finish()
