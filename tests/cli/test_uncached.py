#!/usr/bin/env python3
"""uncached: invariants in --quick mode, never a timing.

On a disk-backed folder (ext4 under /var/tmp here) and on tmpfs (/dev/shm): the mechanism label
matches what the machine block says about O_DIRECT on that file, whichever way this kernel decides
(tmpfs accepts O_DIRECT since Linux 6.6). On a --file written here, every sequential pass's sum is
compared with a prefix sum computed in Python, and the seeded random reads are reproducible.
"""
import hashlib
import os
import platform
import re
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import (check, check_rounds, checks_made, close, experiment, finish_clean, rows, run_json,  # noqa: E402
                     series, shm_writable, skip_check)

SPEC = ["mode", "bufsize", "gbps", "median_us", "p99_us"]
BUFSIZES = [4096 << (4 * k) for k in range(4)]		# --quick: 4K .. 16M, x16 (x4 without it)
QUICK_SIZE = 64 << 20
QUICK_MAX_CALLS = 128
QUICK_CAP = 8 << 20
QUICK_RANDOM = 2000
CHUNK = 64 << 10


def expected_bytes(size, bufsize):
    """Whole 64 KiB chunks of the file; a sample stops after QUICK_MAX_CALLS calls and QUICK_CAP
    bytes (but reads at least one buffer)."""
    usable = b = size // CHUNK * CHUNK
    if -(-b // bufsize) > QUICK_MAX_CALLS:
        b = bufsize * QUICK_MAX_CALLS
    if b > QUICK_CAP:
        b = min(bufsize, usable) if QUICK_CAP < bufsize else QUICK_CAP // bufsize * bufsize
    return b // CHUNK * CHUNK


def size_label(n):
    """A buffer size as the series are named: 4096 -> "4K", 16777216 -> "16M"."""
    return "%dM" % (n >> 20) if n >= 1 << 20 and n % (1 << 20) == 0 else "%dK" % (n >> 10)


def check_uncached(doc, size, where, prefix_sum=None):
    """Every invariant of one run; returns the random row (or None)."""
    e = experiment(doc, "uncached")
    if not check(e is not None, "%s: uncached in the output" % where):
        return None
    names = [c["name"] for c in e["columns"]]
    check(names[:len(SPEC)] == SPEC, "%s: SPEC columns first, in order: %s" % (where, names))
    if "state" in e:
        check(e["state"] == "done", "%s: state done (%s)" % (where, e.get("state")))
    check(len(e["checks"]) >= len(BUFSIZES) + 2, "%s: a check per pass, quantiles and random sum" % where)
    for c in e["checks"]:
        check(c["ok"], "%s: check %s ok: %s" % (where, c["name"], c["detail"]))
    df = (doc.get("machine") or {}).get("data_file") or {}
    direct = df.get("direct_io")
    check(isinstance(direct, bool), "%s: machine block says whether O_DIRECT works" % where)
    mech = "direct" if direct else "evicting"
    r = check_rounds(e, where, "gbps", lambda x: "%s %d" % (x["mode"], x["bufsize"]))
    check([x["mode"] for x in r] == ["sequential"] * len(BUFSIZES) + ["random"],
          "%s: 7 sequential + 1 random" % where)
    check([x["bufsize"] for x in r] == BUFSIZES + [16384], "%s: buffer sizes 4K..16M x16, random 16K" % where)
    check("--quick: sequential buffers 4 KiB .. 16 MiB in x16 steps (x4 without it)" in e["notes"],
          "%s: a note says x16 steps" % where)
    if len(r) != len(BUFSIZES) + 1:
        return None
    align = max(4096, df.get("dio_mem_align") or 512, df.get("dio_offset_align") or 512)
    known = df.get("known_sum")
    for x in r:
        tag = "%s %s %d" % (where, x["mode"], x["bufsize"])
        check(x["mechanism"] == mech, "%s: mechanism %s matches direct_io=%s" % (tag, x["mechanism"], direct))
        check(close(x["gbps"], x["bytes"] / (x["ms"] * 1e6)), "%s: gbps = bytes/ms" % tag)
        check(x["bytes"] % align == 0, "%s: bytes aligned to %d" % (tag, align))
        q = [x["median_us"], x["p90_us"], x["p99_us"], x["max_us"]]
        check(all(v is not None for v in q) and q == sorted(q),
              "%s: median <= p90 <= p99 <= max %s" % (tag, q))
        check(x["median_us"] > 0 and x["mean_us"] <= x["max_us"], "%s: positive latencies, mean <= max" % tag)
    for x in r[:-1]:
        tag = "%s sequential %d" % (where, x["bufsize"])
        want = expected_bytes(size, x["bufsize"])
        check(x["bytes"] == want, "%s: bytes %s == %d" % (tag, x["bytes"], want))
        check(x["read_calls"] == -(-x["bytes"] // x["bufsize"]), "%s: read_calls = ceil(bytes/bufsize)" % tag)
        check(x["ci_low_us"] is None and x["ci_high_us"] is None, "%s: no CI on sequential rows" % tag)
        # a sample's figure is its bytes over the time inside its read calls (the sum between calls
        # left out); every sample makes the same calls, so the bytes over read_calls x the mean call
        # (the samples' mean) falls between the slowest and the fastest sample's figure: of all the
        # row's samples (its series), since gbps_min and gbps_max leave the contended ones out
        whole = x["bytes"] / (x["read_calls"] * x["mean_us"] * 1e3)
        v = series(e, "sequential %s" % size_label(x["bufsize"])) or [x["gbps_min"], x["gbps_max"]]
        check(min(v) * (1 - 1e-9) <= whole <= max(v) * (1 + 1e-9),
              "%s: bytes / (read_calls x mean call) %.4g GB/s within the samples' %.4g-%.4g" %
              (tag, whole, min(v), max(v)))
        if prefix_sum:
            check(x["sum"] == prefix_sum(x["bytes"]), "%s: sum == Python's prefix sum" % tag)
        elif x["bytes"] == size and known is not None:
            check(x["sum"] == known, "%s: sum == known sum" % tag)
    rnd = r[-1]
    check(rnd["read_calls"] == QUICK_RANDOM and rnd["bytes"] == QUICK_RANDOM * 16384,
          "%s random: %d reads of 16 KiB" % (where, QUICK_RANDOM))
    check(rnd["ci_low_us"] <= rnd["median_us"] <= rnd["ci_high_us"], "%s random: CI holds the median" % where)
    rand = [s for s in e.get("series", []) if s["name"] == "random 16 KiB reads"]
    check(len(rand) == 1 and rand[0]["unit"] == "us" and len(rand[0]["samples"]) == QUICK_RANDOM,
          "%s random: the samples kept as a series in us" % where)
    check(any(c["name"] == "sum" and "random" in c["detail"] and " = " in c["detail"] for c in e["checks"]),
          "%s random: the reads' sum checked against the page cache's" % where)
    check(any("without replacement within a round" in n and "aligned to the read size" in n for n in e["notes"]),
          "%s random: a note says how the offsets are drawn" % where)
    notes = " ".join(e["notes"])
    # a pass shorter than 5 ms is repeated in its sample (each pass cold, each sum checked): the note
    # gives every sequential row's passes, as many as its warm-up sample asked for
    want = ", ".join("%s x[1-9][0-9]*" % size_label(b) for b in BUFSIZES)
    check(re.search(r"a sample repeats its pass, each one starting cold, .* \(passes per sample: %s\); "
                    r"read_calls, bytes and sum are per pass" % want, notes) is not None,
          "%s: a note gives each sequential row's passes per sample" % where)
    check(("mechanism: O_DIRECT" in notes) if direct else ("mechanism: evicting" in notes),
          "%s: a note names the mechanism" % where)
    # direct passes read into consecutive slices of the buffer, nothing between the calls, and are
    # summed after their last read (the rows' sums above are those passes' sums)
    slices = "sequential reads into the buffer's slices: read k of a pass lands at byte k x bufsize"
    check((slices in notes) == direct, "%s: a note says the direct passes read into slices, summed after "
          "the pass, exactly when the reads are direct" % where)
    if direct and platform.machine() in ("x86_64", "aarch64"):
        check("the buffer is flushed from the CPU cache, untimed" in notes,
              "%s: a note says each direct read's buffer is flushed from the cache after its sum" % where)
    buf = [n for n in e["notes"] if n.startswith("read buffer: ")]
    if not direct:
        check(not buf, "%s: no buffer note when the reads copy through the page cache" % where)
    elif check(len(buf) == 1, "%s: one note says what backs the read buffer: %s" % (where, buf)):
        m = re.match(r"read buffer: on a 2 MiB boundary asked for transparent huge pages, "
                     r"(?P<amount>all 16M|none of its 16M|[\d.]+[KM] of its 16M) in huge pages, THP (?P<thp>\S+): "
                     r"(?P<why>.*)$", buf[0])
        if check(m, "%s: the buffer note's form: %s" % (where, buf[0])):
            try:
                thp = re.search(r"\[(\w+)\]", open("/sys/kernel/mm/transparent_hugepage/enabled").read()).group(1)
            except (OSError, AttributeError):
                thp = "unknown"
            check(m.group("thp") == thp, "%s: the note's THP setting %s is sysfs' %s" % (where, m.group("thp"), thp))
            if thp == "never":
                check(m.group("amount").startswith("none"), "%s: THP never: none of the buffer in huge pages" % where)
            check(("physically contiguous" in m.group("why")) == (m.group("amount") == "all 16M"),
                  "%s: 'one piece per read' exactly when all 16M are in huge pages (%s)" % (where, m.group("amount")))
    irq = [n for n in e["notes"] if n.startswith("device interrupts during the rounds")]
    fs = df.get("filesystem")
    if fs == "tmpfs":
        check(not irq, "%s: no interrupts note for a file in memory" % where)
    elif not os.access("/proc/interrupts", os.R_OK):
        skip_check("%s: a note says which CPU took the device interrupts" % where, "/proc/interrupts is not readable")
    else:
        m = irq and re.search(r"CPU (\d+) took ([\d,]+) of ([\d,]+) \((\d+)%\); the timed reads ran on CPUs? ([\d,-]+)", irq[0])
        if check(m, "%s: a note says which CPU took the device interrupts and where the reads ran: %s" % (where, irq)):
            took, of = int(m.group(2).replace(",", "")), int(m.group(3).replace(",", ""))
            check(int(m.group(1)) < (os.cpu_count() or 1) and 0 < took <= of,
                  "%s: CPU %s took %d of %d interrupts" % (where, m.group(1), took, of))
            place = [n for n in e["notes"] if "the reading thread" in n]
            check(len(place) == 1, "%s: a note says where the reading thread was kept: %s" % (where, place))
            kept = place and re.match(r"the reading thread was kept on CPU (\d+) for the rounds, which took (\d+) of the (\d+) device interrupts of 64 untimed reads", place[0])
            if kept:
                check(m.group(5) == kept.group(1),
                      "%s: kept on CPU %s, the timed reads ran on CPU %s" % (where, kept.group(1), m.group(5)))
                check(int(kept.group(2)) * 10 >= int(kept.group(3)) * 9,
                      "%s: that CPU took at least 90%% of the probe reads' interrupts (%s of %s)"
                      % (where, kept.group(2), kept.group(3)))
    return rnd


def run_dir(base, where, expect_fs=None):
    d = tempfile.mkdtemp(prefix="wtg-test-", dir=base)
    try:
        status, doc, err = run_json("uncached", "--dir=" + d)
        check(status == 0, "%s: exit status 0 (%s)" % (where, err.strip()))
        if check(doc is not None, "%s: JSON output" % where):
            fs = ((doc.get("machine") or {}).get("data_file") or {}).get("filesystem")
            if expect_fs:
                check(fs in (None, expect_fs), "%s: filesystem %s" % (where, fs))
            check_uncached(doc, QUICK_SIZE, where)
            if fs == "tmpfs":
                e = experiment(doc, "uncached")
                check(e is not None and any("tmpfs" in n for n in e["notes"]),
                      "%s: a note says tmpfs" % where)
        check(not os.listdir(d), "%s: the created data file is removed" % where)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    before = checks_made()
    run_dir(os.environ.get("TMPDIR") or "/var/tmp", "disk folder")
    if shm_writable():
        run_dir("/dev/shm", "tmpfs", "tmpfs")
    else:
        # the same invariants the disk folder's run checked, one skipped line each
        for k in range(checks_made() - before):
            skip_check("tmpfs: the disk folder's invariant %d on /dev/shm" % (k + 1), "/dev/shm is not writable here")

    # a --file written here: odd size (the passes cover whole 64 KiB chunks only), known prefixes
    tmp = tempfile.mkdtemp(prefix="wtg-test-file-", dir=os.environ.get("TMPDIR") or "/var/tmp")
    try:
        path = os.path.join(tmp, "data.bin")
        size = (12 << 20) + 4321
        data = hashlib.shake_256(b"wtg uncached").digest(size)
        with open(path, "wb") as f:
            f.write(data)
        cache = {}

        def prefix_sum(n):
            if n not in cache:
                cache[n] = sum(data[:n])
            return cache[n]

        sums = {}
        for seed in ("1", "1", "2"):
            status, doc, err = run_json("uncached", "--file=" + path, "--seed=" + seed)
            check(status == 0, "--file seed %s: exit status 0 (%s)" % (seed, err.strip()))
            if doc:
                rnd = check_uncached(doc, size, "--file seed " + seed, prefix_sum)
                if rnd:
                    sums.setdefault(seed, []).append(rnd["sum"])
        s1, s2 = sums.get("1", []), sums.get("2", [])
        check(len(s1) == 2 and s1[0] == s1[1],
              "random reads: the same seed reads the same offsets (sums %s)" % s1)
        check(len(s2) == 1 and s1 and s2[0] != s1[0], "random reads: another seed reads other offsets")
        check(open(path, "rb").read() == data, "--file is never written")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish_clean()


if __name__ == "__main__":
    main()
