#!/usr/bin/env python3
"""Hostile sysfs trees (WTG_SYSFS_ROOT): a FIFO, a symlink to one, a folder or a device where wtg
reads a file never hangs --dry-run; absurd cache sizes are left out with a note and the plan stays
sane; a --run on such a tree, or one whose measuring thread never looks at cancel (WTG_TEST_DEAF),
ends after SIGTERM and SIGINT; the machine block's CPUs and memory are the tree's, as its topology is. Every wtg here runs under a timeout: a hang is a failed check."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import WTG, check, datadir, datadir_is_empty, diag, finish_clean, parse_cpus, shm_writable

SRC = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
MKSYSFS = os.path.join(SRC, "tests", "fixtures", "mksysfs.py")
KIB, MIB, GIB, TIB = 1 << 10, 1 << 20, 1 << 30, 1 << 40
LIMIT_S = 30    # a --dry-run takes well under a second; past this it hangs
CPU = "/sys/devices/system/cpu"
NODE = "/sys/devices/system/node"

sys.path.insert(0, os.path.join(SRC, "tests", "fixtures"))
sys.dont_write_bytecode = True    # nothing written into the source tree
import mksysfs  # noqa: E402

# in memory where it can be (thousands of small files: ext4 took 0.7 s of CPU for server192's tree, tmpfs 0.1)
fixtures = tempfile.mkdtemp(prefix="wtg-test-sysfs-", dir="/dev/shm" if shm_writable() else None)
trees = {}


def tree(machine):
    """The tree of machine, written once (a big one takes seconds on a busy machine)."""
    if machine not in trees:
        trees[machine] = os.path.join(fixtures, machine)
        mksysfs.MACHINES[machine]().write(trees[machine])
    return trees[machine]


class Altered:
    """with Altered(root, rel1, rel2 ...): the files at those paths are put back as they were after
    the block (or removed, when there was none), whatever it put there (a FIFO, a folder, a symlink,
    other text)."""

    def __init__(self, root, *rels):
        self.paths = [os.path.join(root, r.lstrip("/")) for r in rels]

    def __enter__(self):
        self.saved = []
        for path in self.paths:
            data = None    # no such file: none after the block either
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    data = f.read()
            self.saved.append(data)
        return self

    def __exit__(self, *exc):
        for path, data in zip(self.paths, self.saved):
            if os.path.isdir(path) and not os.path.islink(path):
                os.rmdir(path)
            elif os.path.lexists(path):
                os.unlink(path)
            if data is not None:
                with open(path, "wb") as f:
                    f.write(data)
        return False


def dry(root, *args):
    """--dry-run on the tree; (status, stdout, stderr), status None when it did not end in time."""
    env = dict(os.environ, WTG_SYSFS_ROOT=root)
    try:
        p = subprocess.run([WTG, "--dry-run"] + list(args), capture_output=True, text=True,
                           timeout=LIMIT_S, env=env)
    except subprocess.TimeoutExpired:
        return None, "", "still running after %d s" % LIMIT_S
    return p.returncode, p.stdout, p.stderr


def dry_json(root, *args):
    status, out, err = dry(root, "--run=threads,wss", "--format=json", *args)
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    return status, doc, err


def wss_sizes(doc):
    for p in doc["plan"]:
        if p["experiment"] == "wss":
            # the hand SIMD series, at every size (the scalar and vectorized ones at six of them)
            return [r["wss"] for r in p["rows"] if r.get("kernel", "simd") == "simd"]
    return []


def sane_plan(doc):
    """Every cache 1K..1T, the wss sizes rising in x2 steps (the last the cap) from 1K to 4 TiB."""
    caches = doc["machine"]["caches"]
    sizes = wss_sizes(doc)
    return (all(KIB <= c["size_bytes"] <= TIB for c in caches) and 2 <= len(sizes) <= 40 and
            all(a < b for a, b in zip(sizes, sizes[1:])) and sizes[0] >= KIB and sizes[-1] <= 4 * TIB and
            0 < doc["estimated_s"] < 1e6)


def signalled(args, sig, **env):
    """Start a headless wtg with args (JSON, a private --dir) and env, send sig after a second;
    (running when signalled, ended within 10 s of it, exit status, stderr). A wtg that does not end
    is killed."""
    p = subprocess.Popen([WTG, "--format=json", "--dir=" + datadir()] + args, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=dict(os.environ, **env))
    time.sleep(1.0)
    running = p.poll() is None
    p.send_signal(sig)
    start = time.monotonic()
    try:
        p.wait(timeout=10)
        ended = True
    except subprocess.TimeoutExpired:
        ended = False
        p.kill()
        p.wait()
    diag("%s: running when signalled: %s; ended %.2f s after %s" %
         (" ".join(args), running, time.monotonic() - start, signal.Signals(sig).name))
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    return running, ended, p.returncode, err


# 7. a FIFO wherever wtg reads a file: the open must not wait for a writer
PLACES = [
    ("server192", CPU + "/online"),
    ("server192", CPU + "/cpu0/cache/index0/size"),
    ("server192", CPU + "/cpu0/cache/index3/size"),
    ("server192", CPU + "/cpu0/cache/index2/level"),
    ("server192", CPU + "/cpu0/cache/index1/shared_cpu_list"),
    ("server192", CPU + "/cpu0/cache/index0/coherency_line_size"),
    ("server192", CPU + "/cpu5/topology/core_cpus_list"),
    ("server192", CPU + "/cpu0/topology/physical_package_id"),
    ("server192", CPU + "/cpu7/cpufreq/cpuinfo_max_freq"),
    ("server192", NODE + "/online"),
    ("server192", NODE + "/node1/distance"),
    ("server192", NODE + "/node0/meminfo"),
    ("server192", NODE + "/node1/cpulist"),
    ("phone", CPU + "/cpu3/cpu_capacity"),
    ("hybrid", "/sys/devices/cpu_atom/cpus"),
    ("vm2", CPU + "/cpu0/cpufreq/scaling_governor"),
    ("vm2", CPU + "/cpufreq/boost"),
    ("vm2", CPU + "/smt/control"),
    ("vm2", CPU + "/vulnerabilities/spectre_v2"),
    ("vm2", "/sys/hypervisor/type"),
    ("vm2", "/etc/os-release"),
]
try:
    for machine, rel in PLACES:
        root = tree(machine)
        with Altered(root, rel):
            mksysfs.fifo(root, rel)
            status, doc, err = dry_json(root)
        check(status == 0 and doc is not None and doc["plan"],
              "%s with a FIFO at %s: --dry-run ends with its plan (%s)" % (machine, rel, err.strip() or status))

    # other spellings: a symlink to a FIFO, a folder, a device that never ends, at once
    root = tree("server192")
    mksysfs.fifo(root, "/elsewhere/pipe")
    l1d, l3 = CPU + "/cpu0/cache/index0/size", CPU + "/cpu0/cache/index3/size"
    with Altered(root, CPU + "/online", NODE + "/node0/distance", l3, l1d):
        for rel, target in ((CPU + "/online", os.path.join(root, "elsewhere/pipe")),
                            (NODE + "/node0/distance", "/dev/zero"), (l3, "/dev/urandom")):
            path = os.path.join(root, rel.lstrip("/"))
            os.unlink(path)
            os.symlink(target, path)
        os.unlink(os.path.join(root, l1d.lstrip("/")))
        os.mkdir(os.path.join(root, l1d.lstrip("/")))
        status, doc, err = dry_json(root)
    check(status == 0 and doc is not None,
          "symlinks to a FIFO and to devices, a folder for a file: --dry-run ends (%s)" % (err.strip() or status))
    if doc:
        levels = sorted(c["level"] for c in doc["machine"]["caches"] if c["type"] != "Instruction")
        check(levels == [2], "the caches read from a device or a folder are left out, L2 kept: %r" % levels)

    # 8. absurd cache sizes: left out with a note, the plan sane
    for index, text in ((3, "-1K"), (3, "99999999999G"), (3, "18446744073709551615"), (3, "2048G"),
                        (3, "0"), (0, "-1K"), (0, "1"), (0, "99999999999999999999999K"), (2, "5KK"),
                        (3, "1e9"), (3, " 48K")):
        root = tree("server192")
        with Altered(root, CPU + "/cpu0/cache/index%d/size" % index):
            mksysfs.cache_size(root, index, text)
            status, doc, err = dry_json(root)
        ok = status == 0 and doc is not None
        check(ok, "cache index%d size %r: --dry-run ends with its plan (%s)" % (index, text, err.strip() or status))
        if not ok:
            continue
        m = doc["machine"]
        note = m.get("caches_note") or ""
        check(sane_plan(doc), "size %r: caches 1K..1T and sane wss sizes: %r" % (text, wss_sizes(doc)[-3:]))
        level = 1 if index == 0 else index
        kept = [c for c in m["caches"] if c["level"] == level and c["type"] != "Instruction"]
        check(not kept and ("index%d" % index) in note and ('"%s"' % text) in note,
              "size %r: that cache is left out, and the note says so: %r" % (text, note))
    # a level or line size that is no small number: that cache is left out, not wrapped to another
    root = tree("server192")
    with Altered(root, CPU + "/cpu0/cache/index3/level", CPU + "/cpu0/cache/index2/coherency_line_size"):
        with open(os.path.join(root, (CPU + "/cpu0/cache/index3/level").lstrip("/")), "w") as f:
            f.write("4294967299\n")
        with open(os.path.join(root, (CPU + "/cpu0/cache/index2/coherency_line_size").lstrip("/")), "w") as f:
            f.write("-64\n")
        status, doc, err = dry_json(root)
    caches = doc["machine"]["caches"] if status == 0 and doc else None
    check(caches is not None and sorted(c["level"] for c in caches) == [1, 1, 2] and
          [c["line_bytes"] for c in caches if c["level"] == 2] == [None],
          "level 4294967299 leaves L3 out (not level 3), line size -64 is unknown: %r" %
          [(c["level"], c["line_bytes"]) for c in caches or []])

    with Altered(root, l3, l1d):
        mksysfs.cache_size(root, 3, "99999999999G")
        mksysfs.cache_size(root, 0, "-1K")
        status, out, err = dry(root, "--run=wss")
    check(status == 0 and 'note: cache index0 size "-1K" is not between 1K and 1T: left out (and 1 more)' in out,
          "text --dry-run: the note line: %r" % [ln for ln in out.splitlines() if "note" in ln])
    with Altered(root, l3):
        mksysfs.cache_size(root, 3, "\x1b[2J9G")
        status, out, err = dry(root, "--run=wss")
    check(status == 0 and "\x1b" not in out and '"\\e[2J9G"' in out,
          "a size with an escape sequence reaches the plan escaped: %r" %
          [ln for ln in out.splitlines() if "note" in ln])

    # a --run on an absurd tree: SIGTERM and SIGINT end it (before, the sizing loop spun at 100% CPU
    # and the quit waited for it forever: only SIGKILL ended wtg)
    root = os.path.join(fixtures, "absurd")
    check(mksysfs.main([MKSYSFS, "hybrid", root, "--size=3:-1K", "--size=0:99999999999G"]) == 0,
          "the absurd tree is written")
    for sig in (signal.SIGTERM, signal.SIGINT):
        name = signal.Signals(sig).name
        running, ended, status, err = signalled(["--run=wss,kernels,threads", "--time-limit=60"], sig,
                                                WTG_SYSFS_ROOT=root, WTG_TEST_MAX_BUFFER="64M")
        check(ended and (not running or status == 128 + sig),
              "--run on a tree with absurd caches ends after %s (status %s): %r" % (name, status, err[-200:]))
        check(datadir_is_empty(), "and its data file is gone (%s)" % name)

    # a measuring thread that never looks at cancel (WTG_TEST_DEAF): a quit still ends wtg
    for sig in (signal.SIGTERM, signal.SIGINT):
        name = signal.Signals(sig).name
        running, ended, status, err = signalled(["--run=syscall"], sig, WTG_TEST_DEAF="syscall")
        check(ended and status == 128 + sig and
              err.endswith("wtg: stopped by signal %d (%s)\n" % (sig, signal.strsignal(sig))),
              "a measuring thread deaf to cancel: %s still ends wtg (status %s): %r" % (name, status, err[-120:]))
        check(datadir_is_empty(), "and its data file is gone (deaf, %s)" % name)

    # 11. the machine block and the topology from one source: the tree
    for machine in ("vm2", "server192", "epyc4", "hybrid", "phone"):
        root = tree(machine)
        status, doc, err = dry_json(root)
        if not check(status == 0 and doc is not None, "%s: --dry-run ends with JSON" % machine):
            continue
        with open(os.path.join(root, (CPU + "/online").lstrip("/"))) as f:
            online = len(parse_cpus(f.read()))
        m = doc["machine"]
        in_nodes = sum(len(parse_cpus(n["cpus"])) for n in m["topology"]["numa_nodes"])
        check(m["cpus_online"] == m["cpus"] == online == in_nodes,
              "%s: cpus_online %s is the tree's %d CPUs, as its topology's nodes hold %d" %
              (machine, m["cpus_online"], online, in_nodes))
        memory = sum(n.get("memory_bytes") or 0 for n in m["topology"]["numa_nodes"])
        check(not memory or m["memory_bytes"] == memory,
              "%s: memory_bytes %s is what the tree's nodes hold (%d)" % (machine, m["memory_bytes"], memory))
finally:
    shutil.rmtree(fixtures, ignore_errors=True)

finish_clean()
