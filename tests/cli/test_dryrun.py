#!/usr/bin/env python3
"""--dry-run: the plans of threads and wss on each fixture machine (WTG_SYSFS_ROOT), the text and
JSON layouts, the estimate's sum, the usage errors, and that nothing is measured or created."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import (WTG, check, datadir, datadir_is_empty, diag, experiment, finish_clean, parse_cpus, rows,
                     run, run_json, shm_writable)

SRC = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(SRC, "tests", "fixtures"))
sys.dont_write_bytecode = True    # nothing written into the source tree
import mksysfs  # noqa: E402
MACHINES = ["vm2", "server192", "epyc4", "hybrid", "phone"]
MIB = 1 << 20


def dry(*args, env=None):
    """Run --dry-run with args; returns (status, doc or None, stderr)."""
    status, out, err = run("--dry-run", *args, env=env)
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    return status, doc, err


def plan_of(doc, name):
    for p in doc["plan"]:
        if p["experiment"] == name:
            return p
    return None


def llc_of(machine):
    """The last-level data or unified cache the fixture declares, else the 32 MiB wtg assumes."""
    sizes = [(c["level"], c["size_bytes"]) for c in machine["caches"] if c["type"] != "Instruction"]
    return max(sizes)[1] if sizes else 32 * MIB


def check_threads(name, doc, p, declared):
    topo = doc["machine"]["topology"]
    ncpu = sum(len(parse_cpus(n["cpus"])) for n in topo["numa_nodes"])
    r = p["rows"]
    check(r and all(set(x) <= declared for x in r),
          "%s threads: every planned column is a declared column of threads: %r" % (name, r and sorted(r[0])))
    counts = sorted({x["threads"] for x in r})
    places = {x["placement"] for x in r}
    check(counts and counts[0] == 1 and counts[-1] == ncpu and len(counts) <= 14,
          "%s threads: counts from 1 to the %d CPUs, at most 14: %r" % (name, ncpu, counts))
    check(len(places) >= 2, "%s threads: two placements or more: %r" % (name, places))
    nodes = topo["numa_nodes"]
    if len(nodes) > 1:
        per_node = len(parse_cpus(nodes[0]["cpus"]))
        check(per_node in counts, "%s threads: the per-node count %d is planned" % (name, per_node))
        check(any(x["memory"] == "remote" for x in r), "%s threads: remote-memory rows with %d nodes" %
              (name, len(nodes)))
    ok = all(len(parse_cpus(x["cpus"])) == min(x["threads"], ncpu) for x in r)
    check(ok, "%s threads: each row's cpus name as many CPUs as it has threads" % name)
    check(p["samples"] >= 11, "%s threads: %d samples per row" % (name, p["samples"]))


def check_wss(name, doc, p):
    m = doc["machine"]
    simd = [x for x in p["rows"] if x.get("kernel") == "simd"]
    check(p["rows"][-len(simd):] == simd if simd else False, "%s wss: the hand SIMD rows come last" % name)
    sizes = [x["wss"] for x in simd]
    for k in ("scalar", "auto"):
        ks = [x["wss"] for x in p["rows"] if x.get("kernel") == k]
        check(len(ks) >= min(6, len(sizes)) and ks == sorted(set(ks)) and set(ks) <= set(sizes) and
              ks[:1] == sizes[:1] and ks[-1:] == sizes[-1:],
              "%s wss: %s at 6 or more of the SIMD sizes, from the first to the last: %r" % (name, k, ks))
    check(len(p["rows"]) == len(simd) + sum(1 for x in p["rows"] if x.get("kernel") in ("scalar", "auto")),
          "%s wss: every planned row names its kernel" % name)
    w = p.get("warmup_windows") or {}
    check(p.get("warmup") == 1 and w.get("window") == 3 and w.get("stable") == 5 and w.get("tolerance_pct") == 1
          and w.get("max") == 8, "%s wss: the plan states the warm-up and its rule: %r %r" % (name, p.get("warmup"), w))
    llc = llc_of(m)
    ram = sum(n["memory_bytes"] for n in m["topology"]["numa_nodes"])
    doubling = all(b == 2 * a for a, b in zip(sizes[:-2], sizes[1:-1]))
    check(sizes and doubling and sizes[-1] > sizes[-2],
          "%s wss: sizes in x2 steps: %r" % (name, sizes))
    check(sizes[-1] >= 4 * llc or sizes[-1] == ram // 4 // 65536 * 65536,
          "%s wss: up to 4x the %d-byte LLC (or a quarter of RAM): %d" % (name, llc, sizes[-1]))
    check(sizes[-1] <= ram // 4, "%s wss: never past a quarter of the fixture's RAM" % name)
    check(all(x["level"] in ("L1", "L2", "L3", "L4", "DRAM") for x in p["rows"]) and
          simd[0]["level"] == "L1" and simd[-1]["level"] == "DRAM",
          "%s wss: levels from L1 to DRAM: %r" % (name, [x["level"] for x in simd]))


# the plan is what the run does: on this machine, every measured row a --quick run makes is a planned
# row (the plan's columns taken from it), and every planned row is made; rows a run derives from the
# measured ones (faultbase's differences, compare's summary) are not planned
CROSS = "clock,syscall,zerofill,faultbase,pagecache,threads"
# (4M: pagecache and threads go by the data file's size, and the plan must follow it too; at 4M rather than
# 16M they took 1.6 s of CPU, not 2.7)
status, real, err = run_json(CROSS, "--size=4M")
status_p, plan, err_p = dry("--run=" + CROSS, "--quick", "--size=4M", "--format=json")
check(status == 0 and real and status_p == 0 and plan, "a --quick run and its plan: %s %s" % (err, err_p))
for name in CROSS.split(","):
    # faultbase's faults by mapping ("mapping" set) come from its traced runs, detail of no planned row
    made = [r for r in (rows(experiment(real, name)) if real else []) if r.get("mapping") is None]
    planned = plan_of(plan, name)["rows"] if plan else []
    keys = list(planned[0]) if planned else []
    made = [{k: r.get(k) for k in keys} for r in made]
    derived = [r for r in made if r not in planned]
    check(planned and all(r in made for r in planned) and len(derived) <= 2 and
          all(None in r.values() or " - " in str(r.get("case")) for r in derived),
          "%s: the %d planned rows are the run's measured rows (%d made)" % (name, len(planned), len(made)))
declared = {c["name"] for c in experiment(real, "threads")["columns"]} if real else set()

# the fixture trees in memory where it can be (thousands of small files: ext4 took 0.7 s of CPU for
# server192's, tmpfs 0.1), written in this process
fixtures = tempfile.mkdtemp(prefix="wtg-test-dryrun-", dir="/dev/shm" if shm_writable() else None)
try:
    for name in MACHINES:
        root = os.path.join(fixtures, name)
        mksysfs.MACHINES[name]().write(root)
        env = {"WTG_SYSFS_ROOT": root}
        status, doc, err = dry("--run=threads,wss", "--format=json", env=env)
        check(status == 0 and doc is not None and err == "", "%s: --dry-run exits 0 with JSON: %s" % (name, err))
        if not doc:
            continue
        check([p["experiment"] for p in doc["plan"]] == ["wss", "threads"],
              "%s: the plan holds the two selected experiments" % name)
        topo = doc["machine"].get("topology")
        check(topo and topo["numa_nodes"] and topo["summary"], "%s: the machine block has the topology" % name)
        check_threads(name, doc, plan_of(doc, "threads"), declared)
        check_wss(name, doc, plan_of(doc, "wss"))
        total = sum(p["estimated_s"] for p in doc["plan"])
        check(all(p["estimated_s"] > 0 for p in doc["plan"]) and abs(doc["estimated_s"] - total) < 0.2,
              "%s: estimated_s %.1f is the plans' sum %.1f" % (name, doc["estimated_s"], total))
        for p in doc["plan"]:
            diag("%s %s: %d rows, %.1f s" % (name, p["experiment"], len(p["rows"]), p["estimated_s"]))

    server = os.path.join(fixtures, "server192")
    env = {"WTG_SYSFS_ROOT": server}
    status, doc, err = dry("--run=threads", "--format=json", "--threads=300", env=env)
    r = plan_of(doc, "threads")["rows"] if doc else []
    check(status == 0 and max(x["threads"] for x in r) == 300 and
          all(x["oversubscribed"] == (x["threads"] > 192) for x in r),
          "--threads=300 on the server: 300 planned, rows past 192 marked oversubscribed")
    env2 = dict(env, WTG_TEST_MAX_BUFFER="64M")
    status, doc, err = dry("--run=wss", "--format=json", env=env2)
    sizes = [x["wss"] for x in plan_of(doc, "wss")["rows"]] if doc else []
    check(status == 0 and sizes and sizes[-1] == 64 * MIB, "a capped buffer ends the wss sizes: %r" % sizes[-3:])
    status, quick, err = dry("--run=threads,wss", "--format=json", "--quick", env=env)
    status, full, err = dry("--run=threads,wss", "--format=json", env=env)
    simd = lambda d: [x["wss"] for x in plan_of(d, "wss")["rows"] if x["kernel"] == "simd"] if d else []
    # --quick: every other size of the default's x2 steps (x4 steps) up to the same last one
    check(quick and full and plan_of(quick, "wss")["rows"][0]["bytes"] < plan_of(full, "wss")["rows"][0]["bytes"]
          and simd(quick) == simd(full)[:-1][::2] + simd(full)[-1:],
          "--quick: fewer bytes per sample, the sizes in x4 steps: %r of %r" % (simd(quick), simd(full)))
    wq = (plan_of(quick, "wss").get("warmup_windows") or {}) if quick else {}
    check(wq.get("max") == 5 and wq.get("stable") == 5,
          "--quick: the warm-up runs the rule's five windows at most: %r" % wq)

    # text: a table per experiment with its column names, the total at the end
    status, out, err = run("--dry-run", "--run=threads,wss", env=env)
    lines = out.splitlines()
    check(status == 0 and lines[-1].startswith("total: 2 experiments, estimated "),
          "text: the total at the end: %r" % lines[-1:])
    check(any(ln.split()[:3] == ["threads", "placement", "memory"] for ln in lines) and
          any(ln.split()[:3] == ["wss", "kernel", "level"] for ln in lines), "text: each table has its column names")
    check(sum(1 for ln in lines if ln.split()[:2] == ["192", "spread"]) == 2,
          "text: the server's 192-thread spread rows (local and interleaved)")
finally:
    shutil.rmtree(fixtures, ignore_errors=True)

# alone: every experiment, and no data file made in --dir
folder = datadir()
status, doc, err = dry("--format=json", "--dir=" + folder)
status_l, out_l, _ = run("--list")
check(status == 0 and doc and len(doc["plan"]) == len(out_l.splitlines()),
      "--dry-run alone plans every experiment --list names: %s" % err)
check(datadir_is_empty(), "--dry-run makes no file in --dir")

# usage errors: one line, exit 2
for args, want in ((["--format=csv"], "wtg: --dry-run prints text or json, not csv"),
                   (["-o", os.path.join(folder, "plan.json")], "wtg: --dry-run prints on standard output, "
                    "not to --output files"),
                   (["--load=x.json"], "wtg: --dry-run plans a live run, not --load or --baseline")):
    status, out, err = run("--dry-run", *args)
    check(status == 2 and err == want + " (see 'wtg --help')\n" and out == "", "--dry-run %s: %r" % (" ".join(args), err))

# nothing created: strace sees no file opened for creation
if shutil.which("strace") and subprocess.run(["strace", "-f", "-o", "/dev/null", "true"],
                                             capture_output=True).returncode == 0:
    fd, log = tempfile.mkstemp(prefix="wtg-test-dryrun-strace-")
    os.close(fd)
    p = subprocess.run(["strace", "-f", "-o", log, "-e", "trace=open,openat,creat,mkdir,memfd_create",
                        WTG, "--dry-run",
                        "--dir=" + folder], capture_output=True, text=True)
    with open(log) as f:
        created = [ln for ln in f if "O_CREAT" in ln or "creat(" in ln or "mkdir(" in ln or "memfd" in ln]
    os.unlink(log)
    check(p.returncode == 0 and not created, "strace: --dry-run creates no file: %r" % created[:3])
else:
    diag("strace cannot trace here: the no-file check rests on --dir staying empty")

finish_clean()
