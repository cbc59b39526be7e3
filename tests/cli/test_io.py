"""Invariants of the buffered-I/O experiments: bytewise, valley, passes (--quick, headless JSON).

Sums are checked against sums Python computes over a --file this test writes; the run with wtg's
own data file checks that the rows agree with each other and that the file is removed. No timing is
asserted, only formulas that hold whatever the machine's speed."""
import math
import os
import re
import resource
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import (check, check_rounds, check_warmup, datadir, datadir_is_empty, experiment, finish, q7, rows,  # noqa: E402
                     run_json, series, spec_columns_and_checks)

MiB = 1 << 20
SPEC = {
    "bytewise": ["variant", "bytes", "read_calls", "ms", "user_ms", "sys_ms", "ns_per_byte", "sum"],
    "valley": ["bufsize", "read_calls", "bytes", "ms", "gbps", "sum"],
    "passes": ["operation", "samples", "mean_ns", "median_ns", "p90_ns", "p99_ns", "max_ns",
               "ci_low_ns", "ci_high_ns"],
}
VALLEY_SIZES = [16 << (4 * i) for i in range(6)]  # --quick: 16 B .. 16 MiB in x16 steps (x4 without)


def close(a, b, rel=1e-6):
    return math.isclose(a, b, rel_tol=rel, abs_tol=1e-9)


def ceil_div(a, b):
    return (a + b - 1) // b


def load(names, *extra):
    status, doc, err = run_json(names, *extra)
    check(status == 0, "%s %s: exit status %d, stderr %r" % (names, extra, status, err))
    check(doc is not None, "%s %s: output is JSON" % (names, extra))
    return doc


# A sample is sized from its warm-up to span 1.5 x 5 ms at the warm-up's rate; a warm-up slower than
# the timed samples (a busy machine) leaves a little less. Below half of 5 ms the repetition did not
# happen (one 64 KiB-read pass of 512 KiB, a 16 MiB pass of valley: about 0.1 .. 2 ms).


def common(exp, name):
    """SPEC columns first and in order; every check ok; rows present."""
    return spec_columns_and_checks(exp, name, SPEC[name])


def check_bytewise(exp, prefix, size, tag):
    if not common(exp, "bytewise"):
        return None
    rs = rows(exp)
    check(len(rs) == 2, tag + "bytewise: two rows")
    cols = [c["name"] for c in exp["columns"]]
    check("predicted_ms" in cols and "predicted_ratio" in cols, tag + "bytewise: prediction columns")
    want_bytes = min(MiB // 2, size)  # --quick: a 512 KiB slice
    bufs = {"1B per read": 1, "64K per read": 65536}
    check(sorted(r["variant"] for r in rs) == sorted(bufs), tag + "bytewise: variants %s" %
          [r["variant"] for r in rs])
    notes = exp["notes"]
    model = None
    for n in notes:
        m = re.match(r"predicted_ms = ([0-9.]+) ns x read_calls \+ ([0-9.]+) ns x bytes", n)
        if m:
            model = (float(m.group(1)), float(m.group(2)))
    na = any(n.startswith("predicted_ms: n/a") for n in notes)
    check((model is not None) != na, tag + "bytewise: a model note, or the n/a note")
    for c in ("ms_ci_low", "ms_ci_high", "ms_min", "ms_max", "samples"):
        check(c in cols, tag + "bytewise: column " + c)
    for r in rs:
        b = bufs.get(r["variant"], 1)
        v = r["variant"]
        check(r["bytes"] == want_bytes, tag + "%s: bytes %d == %d" % (v, r["bytes"], want_bytes))
        check(r["read_calls"] == ceil_div(r["bytes"], b),
              tag + "%s: read_calls %d == ceil(%d/%d)" % (v, r["read_calls"], r["bytes"], b))
        if prefix is not None:
            check(r["sum"] == prefix(r["bytes"]),
                  tag + "%s: sum %d == %d" % (v, r["sum"], prefix(r["bytes"])))
        check(r["ms"] > 0 and r["user_ms"] >= 0 and r["sys_ms"] >= 0, tag + v + ": times non-negative")
        check(close(r["ns_per_byte"], r["ms"] * 1e6 / r["bytes"], 1e-4), tag + v + ": ns_per_byte = ms/bytes")
        check(r["ms_min"] <= r["ms"] <= r["ms_max"], tag + v + ": min <= ms <= max")
        # both variants as rounds: the one-byte row from pieces of the slice, the 64 KiB one from
        # passes repeated to span at least 5 ms (or the most passes a sample makes)
        check(r["samples"] >= 11, tag + v + ": at least 11 samples, got %s" % r["samples"])
        check(r["ms_min"] <= r["ms_ci_low"] <= r["ms"] <= r["ms_ci_high"] <= r["ms_max"],
              tag + v + ": min <= ci_low <= median <= ci_high <= max")
        # how long a sample lasts follows the warm-up's rate on this machine: recorded, not asserted
        check(isinstance(r["sample_ms"], (int, float)) and r["sample_ms"] > 0,
              tag + v + ": the sample's span is recorded: %s ms" % r["sample_ms"])
        direct = b > 1 and any(n.startswith("O_DIRECT: the 64 KiB variant") for n in notes)
        if model and not direct:
            # t = a x calls + b x bytes; the note prints a to 0.1 ns and b to 0.0001 ns
            want = (model[0] * r["read_calls"] + model[1] * r["bytes"]) / 1e6
            err = abs(r["predicted_ms"] - want)
            check(err <= (r["read_calls"] * 0.051 + r["bytes"] * 0.000051) / 1e6 + 1e-9,
                  tag + v + ": predicted_ms = a x read_calls + b x bytes")
            check(close(r["predicted_ratio"], r["ms"] / r["predicted_ms"], 1e-4),
                  tag + v + ": ratio = ms/predicted")
        else:
            check(r["predicted_ms"] is None and r["predicted_ratio"] is None,
                  tag + v + ": n/a without a model or with O_DIRECT")
    check(len({r["sum"] for r in rs}) == 1, tag + "bytewise: same sum both ways")
    # calibration: 16 rounds of a batch per read size (1 B, 64 B, 4 KiB, 64 KiB), each batch about
    # 1 MiB in 32 .. 1024 calls, cut to what the file holds
    cal = 0
    for sz in (1, 64, 4096, 65536):
        c = max(32, min(1024, MiB // sz))
        if c * sz > size:
            c = size // sz
        cal += c
    m = [re.search(r"other read\(\) calls on the data file: (\d+)", n) for n in notes]
    m = [x for x in m if x]
    # ... the one-byte warm-up's (the first of 15 pieces, whole 4 KiB pages) and the 64 KiB
    # variant's warm-up pass and every timed pass beyond the one in read_calls (strace.sh counts the
    # same calls with strace)
    big = [r for r in rs if r["variant"] == "64K per read"]
    passes = [int(x) for n in notes for x in re.findall(r"a sample making (\d+) pass", n)]
    # ... and the 64 KiB variant's warm-up windows: 3 samples each, as many passes as a timed one
    log = check_warmup(exp, tag + "bytewise")
    windows = [w["windows"] for w in log if w.get("row") == "64K per read"]
    check(len(log) == 1 and len(windows) == 1, tag + "bytewise: the 64 KiB variant's warm-up is logged, the "
          "one-byte variant takes none: %r" % [w.get("row") for w in log])
    warm = 3 * windows[0] if windows else 0
    more = (big[0]["read_calls"] * (big[0]["samples"] + warm) * passes[0]) if big and passes else 0
    # ... and its second sizing sample's passes (the first made the one pass read_calls counts)
    sizing = [int(x) for n in notes for x in re.findall(r"the sizing samples made 1 and (\d+)\)", n)]
    check(len(sizing) == 1 and (not passes or 1 <= sizing[0] <= passes[0]),
          tag + "bytewise: the note gives the sizing samples' passes: %r" % sizing)
    if big and sizing:
        more += big[0]["read_calls"] * sizing[0]
    piece = want_bytes // 15 // 4096 * 4096 or want_bytes
    more += piece
    # an interleaved run warms up again after each replica the others measured after: the one-byte
    # variant's first piece and a sample (all its passes) of the 64 KiB one, each time
    again = [re.search(r"other experiments measured after (\d) of the one-byte variant's replicas and (\d) of", n)
             for n in notes]
    again = [a for a in again if a]
    if again and big and passes:
        more += int(again[0].group(1)) * piece + int(again[0].group(2)) * big[0]["read_calls"] * passes[0]
    check(m and int(m[0].group(1)) == 16 * cal + more, tag + "bytewise: other read() calls: %s, want %d + %d"
          % (m[0].group(1) if m else None, 16 * cal, more))
    order = [n for n in notes if "seeded random order" in n]
    check(len(order) == 1, tag + "bytewise: order note")
    first = re.search(r"seeded random order \((.*) first\)", order[0]) if order else None
    return first.group(1) if first else None


def check_valley(exp, prefix, size, tag, max_calls=1 << 12, cap=16 * MiB):
    """--quick: a sample reads min(file, bufsize x max_calls, cap) bytes (cap rounded down to whole
    buffers, at least one)."""
    if not common(exp, "valley"):
        return
    rs = check_rounds(exp, "valley", "gbps", lambda r: str(r["bufsize"]))
    direct = any("O_DIRECT in force" in n for n in exp["notes"])
    sizes = [r["bufsize"] for r in rs]
    if direct:
        check(sizes == [s for s in VALLEY_SIZES if s >= sizes[0]] and sizes[0] >= 512,
              tag + "valley: O_DIRECT skips only the sizes below the alignment: %s" % sizes)
    else:
        check(sizes == VALLEY_SIZES, tag + "valley: sizes 16 B .. 16 MiB x16, got %s" % sizes)
    check(any(n.startswith("buffer sizes 16 B .. 16 MiB in x16 steps (--quick") for n in exp["notes"]),
          tag + "valley: a note says x16 steps")
    check(any("warm-up (fixed before measuring)" in n for n in exp["notes"]), tag + "valley: warm-up note")
    # a sample repeats a short pass, as many times as the warm-up's rate says 5 ms takes (a count the
    # machine's speed and load set: the span is recorded, not asserted)
    short = [(r["bufsize"], r["sample_ms"]) for r in rs if not (isinstance(r["sample_ms"], (int, float)) and r["sample_ms"] > 0)]
    check(not short, tag + "valley: every row records its sample's span: %s" % short)
    # O_DIRECT cannot read an unaligned tail: the rows then stop at the last whole 64 KiB chunk
    span = size if not direct or size % 4096 == 0 else size - size % 65536
    sums = set()
    for r in rs:
        b = r["bufsize"]
        want = min(span, b * max_calls, max(b, cap // b * b))
        check(r["bytes"] == want, tag + "valley %d: bytes %d == min(file, bufsize x %d, %d) = %d" %
              (b, r["bytes"], max_calls, cap, want))
        check(r["read_calls"] == ceil_div(r["bytes"], b),
              tag + "valley %d: read_calls %d == ceil(%d/%d)" % (b, r["read_calls"], r["bytes"], b))
        check(r["read_calls"] <= max_calls, tag + "valley %d: at most %d calls" % (b, max_calls))
        check(r["ms"] > 0 and close(r["gbps"], r["bytes"] / (r["ms"] * 1e6), 1e-4),
              tag + "valley %d: gbps" % b)
        if prefix is not None:
            check(r["sum"] == prefix(r["bytes"]),
                  tag + "valley %d: sum %d == %d" % (b, r["sum"], prefix(r["bytes"])))
        if r["bytes"] == span:
            sums.add(r["sum"])
    check(len(sums) <= 1, tag + "valley: every whole-file row has the same sum")


def check_passes(exp, total_sum, tag):
    if not common(exp, "passes"):
        return None
    rs = rows(exp)
    if not check(len(rs) == 1, tag + "passes: one row"):
        return None
    r = rs[0]
    check(r["operation"] == "pass", tag + "passes: label 'pass'")
    check(r["samples"] == 30, tag + "passes: 30 samples")
    check(r["min_ns"] <= r["median_ns"] <= r["p90_ns"] <= r["p99_ns"] <= r["max_ns"],
          tag + "passes: min <= median <= p90 <= p99 <= max")
    check(r["min_ns"] <= r["mean_ns"] <= r["max_ns"], tag + "passes: mean within range")
    check(r["ci_low_ns"] <= r["median_ns"] <= r["ci_high_ns"], tag + "passes: CI holds the median")
    check(isinstance(r["minflt_total"], int) and r["minflt_total"] >= 0, tag + "passes: minflt_total")
    check(isinstance(r["majflt_total"], int) and r["majflt_total"] >= 0, tag + "passes: majflt_total")
    check(close(r["median_ms"], r["median_ns"] / 1e6, 1e-4), tag + "passes: median_ms = median_ns / 1e6")
    # GB/s as a distribution: the pass time's interval and range turned over (bytes per ns)
    b = r["gbps"] * r["median_ns"]
    for col, ns in (("gbps_ci_low", "ci_high_ns"), ("gbps_ci_high", "ci_low_ns"), ("gbps_min", "max_ns"),
                    ("gbps_max", "min_ns")):
        check(close(r[col], b / r[ns], 1e-6), tag + "passes: %s = bytes / %s" % (col, ns))
    check(r["gbps_min"] <= r["gbps_ci_low"] <= r["gbps"] <= r["gbps_ci_high"] <= r["gbps_max"],
          tag + "passes: gbps_min <= ci_low <= gbps <= ci_high <= gbps_max")
    # the raw passes, in time order, give back every figure of the row
    v = series(exp, "pass")
    if check(v is not None and len(v) == 30, tag + "passes: the 30 passes kept as a series"):
        for col, want in (("min_ns", min(v)), ("max_ns", max(v)), ("median_ns", q7(v, 0.5)),
                          ("p90_ns", q7(v, 0.9)), ("p99_ns", q7(v, 0.99)), ("mean_ns", sum(v) / 30)):
            check(close(r[col], want, 1e-6), tag + "passes: %s %s from the series %s" % (col, r[col], want))
        first, second = q7(v[:15], 0.5), q7(v[15:], 0.5)
        check(close(r["drift_pct"], 100 * (second - first) / first, 1e-4),
              tag + "passes: drift from the halves")
    fmin, fmaj = series(exp, "pass minflt"), series(exp, "pass majflt")
    if check(fmin is not None and fmaj is not None, tag + "passes: fault series"):
        check(len(fmin) == 30 and sum(fmin) == r["minflt_total"],
              tag + "passes: minflt_total = sum of passes")
        check(len(fmaj) == 30 and sum(fmaj) == r["majflt_total"],
              tag + "passes: majflt_total = sum of passes")
    # the warm-up's windows of 3 passes, kept with the rule's outcome (which one happened is not assumed)
    log = check_warmup(exp, tag + "passes")
    warm = log[0] if len(log) == 1 else {}
    check(warm.get("row") == "pass" and warm.get("unit") == "ns" and warm.get("max_windows") == 10 and
          warm.get("window", "").startswith("3 passes over"),
          tag + "passes: one warm-up log, windows of 3 passes, at most 10: %r" % warm)
    check(r.get("warmup_windows") == warm.get("windows"), tag + "passes: warmup_windows is the log's count")
    ran = 30 + 3 * warm.get("windows", 0)
    sumcheck = [c for c in exp["checks"] if c["name"] == "sum"]
    check(len(sumcheck) == 1 and sumcheck[0]["detail"].startswith("%d of %d passes" % (ran, ran)),
          tag + "passes: every pass (warm-up included: %d) summed to the known sum: %r" % (ran, sumcheck))
    if total_sum is not None and sumcheck:
        check(("known sum %d" % total_sum) in sumcheck[0]["detail"],
              tag + "passes: the known sum is the file's")
    rule = "warm-up (a rule fixed before measuring): windows of 3 unreported passes until the medians of 5 " \
           "consecutive windows lie within 1% of each other"
    said = [n for n in exp["notes"] if n.startswith(rule)]
    check(len(said) == 1 and ("the rule was met" if warm.get("outcome") == "met" else "the maximum was reached")
          in said[0] and ("after %d window" % warm.get("windows", -1)) in said[0],
          tag + "passes: a note states the rule and its outcome: %r" % said)
    if abs(abs(r["drift_pct"]) - 5) > 0.01:  # the printed value may be rounded
        drift = abs(r["drift_pct"]) > 5
        check(drift == any(n.startswith("drift:") for n in exp["notes"]),
              tag + "passes: drift note iff |drift| > 5%")
    return r


def main():
    # a --file with an odd size, so the last read of each buffer size is short
    fdir = tempfile.mkdtemp(prefix="wtg-io-file-")
    path = os.path.join(fdir, "data.bin")
    size = 3 * MiB + 12345
    data = os.urandom(size)
    with open(path, "wb") as f:
        f.write(data)
    before = os.stat(path)

    def prefix(n):
        return sum(data[:n])

    try:
        ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        doc = load("bytewise,valley,passes", "--file=" + path)
        ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if doc:
            o1 = check_bytewise(experiment(doc, "bytewise"), prefix, size, "file: ")
            check_valley(experiment(doc, "valley"), prefix, size, "file: ")
            r = check_passes(experiment(doc, "passes"), prefix(size), "file: ")
            if r:
                # the whole process saw at least the faults its 30 passes recorded
                check(ru1.ru_minflt - ru0.ru_minflt >= r["minflt_total"],
                      "passes: minflt within the process's")
                check(ru1.ru_majflt - ru0.ru_majflt >= r["majflt_total"],
                      "passes: majflt within the process's")
        after = os.stat(path)
        check((after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns),
              "--file is never written")
        with open(path, "rb") as f:
            check(f.read() == data, "--file content unchanged")

        # uncached: O_DIRECT (or eviction) on a file of the same kind, a third the size (a 4 KiB O_DIRECT
        # read costs tens of microseconds here: valley's small buffers read the whole file each sample);
        # valley skips what O_DIRECT cannot do
        usize = 1 * MiB + 12345
        upath = os.path.join(fdir, "small.bin")
        with open(upath, "wb") as f:
            f.write(data[:usize])
        doc = load("bytewise,valley", "--file=" + upath, "--uncached")
        if doc:
            check_valley(experiment(doc, "valley"), prefix, usize, "uncached: ")
            bw = experiment(doc, "bytewise")
            check_bytewise(bw, prefix, usize, "uncached: ")
            if any(n.startswith("O_DIRECT: the 64 KiB variant") for n in bw["notes"]):
                # calibrated through the page cache: the model cannot say what O_DIRECT costs
                big = [r for r in rows(bw) if r["variant"] == "64K per read"]
                check(big and big[0]["predicted_ms"] is None, "uncached: the O_DIRECT row's prediction is n/a")

        # wtg's own data file: rows agree with each other; the file is removed afterwards (16 MiB:
        # valley's largest buffer still reads the whole file in one call, passes reads a quarter of
        # the --quick default 30 times)
        doc = load("bytewise,valley,passes", "--size=16M")
        if doc:
            qsize = 16 * MiB
            known = doc.get("machine", {}).get("data_file", {}).get("known_sum")
            check(isinstance(known, int), "own: the machine block has the data file's known sum")
            o2 = check_bytewise(experiment(doc, "bytewise"), None, qsize, "own: ")
            check_valley(experiment(doc, "valley"), None, qsize, "own: ")
            check_passes(experiment(doc, "passes"), known, "own: ")
            v = rows(experiment(doc, "valley"))
            check(all(r["sum"] == known for r in v if r["bytes"] == qsize),
                  "own: valley's whole-file sums are known")
            check(o1 is not None and o1 == o2, "bytewise: the same seed gives the same order")
        check(datadir_is_empty(), "the data file wtg created is removed (--dir is empty)")
    finally:
        shutil.rmtree(fdir, ignore_errors=True)
        shutil.rmtree(datadir(), ignore_errors=True)
    finish("test_io.py")


main()
