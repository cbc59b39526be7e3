"""Shared helpers for wtg's Python tests: run wtg, parse its JSON, report checks in TAP.

Each test file calls check(cond, what) for every assertion, which prints one TAP line ("ok N - what"
or "not ok N - what"), and finish() at the end, which prints the plan "1..N". diag() writes "# "
lines for a person reading the log. skip() skips the rest of the file ("1..0 # SKIP why" when
nothing was checked yet); skip_check() reports one assertion that cannot run here as skipped, so
that the summary counts it.

Exit status: 0 when every check passed; when one failed, 1 when run by hand and 0 under make check
(WTG_TAP_DRIVER set), where the "not ok" lines are the failures and a non-zero status means the
script broke (an exception, a signal).
"""
import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TOP_BUILDDIR = os.environ.get("top_builddir") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
# WTG_TEST_WTG: the program to run instead, e.g. a cross build's wrapper that runs src/wtg under
# qemu-user (tests/cross/arm64.sh)
WTG = os.environ.get("WTG_TEST_WTG") or os.path.join(TOP_BUILDDIR, "src", "wtg")

_passed = 0
_failed = 0
_skipped = 0	# of _passed: assertions reported as skipped


def _line(text):
    """One line of TAP on stdout, at once (a test may run for minutes between lines)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _one_line(text):
    """A description on one line: TAP is line by line."""
    return " ".join(str(text).split())


def diag(text):
    """Diagnostic lines ("# ...") for the log."""
    for ln in str(text).splitlines() or [""]:
        _line("# " + ln)


def check(cond, what):
    """Record one assertion as a TAP line; returns cond."""
    global _passed, _failed
    if cond:
        _passed += 1
    else:
        _failed += 1
    _line("%s %d - %s" % ("ok" if cond else "not ok", _passed + _failed, _one_line(what)))
    return cond


def skip_check(what, reason):
    """One assertion that cannot run here, said as such: "ok N - what # SKIP reason" (automake's TAP
    driver counts it as a skip, so the summary shows what did not run)."""
    global _passed, _skipped
    _passed += 1
    _skipped += 1
    _line("ok %d - %s # SKIP %s" % (_passed + _failed, _one_line(what), _one_line(reason)))


def skip_checks(whats, reason):
    """skip_check for each of the descriptions."""
    for w in whats:
        skip_check(w, reason)


def checks_made():
    """How many assertions were reported so far (to say how many a skipped block would make)."""
    return _passed + _failed


def shm_writable():
    """/dev/shm exists and this user may make files in it (a chroot or container may lack it)."""
    return os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK | os.X_OK)


def _exit_status():
    if not _failed:
        return 0
    return 0 if os.environ.get("WTG_TAP_DRIVER") else 1


def finish(name=None):
    """The plan and a summary comment; exits (see the top of this file for the status)."""
    name = name or os.path.basename(sys.argv[0])
    _line("1..%d" % (_passed + _failed))
    diag("%s: %d passed, %d failed" % (name, _passed - _skipped, _failed) +
         (", %d skipped" % _skipped if _skipped else ""))
    sys.exit(_exit_status())


_tmpdir = None


def _remove_datadir():
    """At exit, also after a failure or an exception: the private folder goes, whatever is in it."""
    if _tmpdir is not None:
        shutil.rmtree(_tmpdir, ignore_errors=True)


def _terminated(sig, frame):
    """SIGTERM or SIGHUP (make's timeout, a closed terminal): exit through atexit, not around it."""
    sys.exit(128 + sig)


atexit.register(_remove_datadir)
signal.signal(signal.SIGTERM, _terminated)
signal.signal(signal.SIGHUP, _terminated)


TOP_SRCDIR = os.environ.get("top_srcdir") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# A saved --run=all --quick of every experiment (tests/fixtures/trim.py tells how to refresh it):
# tests of what a saved run becomes (formats, conversions, verdicts) draw from it, measuring nothing.
FIXTURE = os.path.join(TOP_SRCDIR, "tests", "fixtures", "views.json")
_fixture_dir = None


def saved_run(names=None):
    """The path of the saved run FIXTURE, or of a copy that keeps only the experiments names (a list,
    in the fixture's order); copies go into a folder removed at exit."""
    global _fixture_dir
    if names is None:
        return FIXTURE
    with open(FIXTURE) as f:
        doc = json.load(f)
    doc["experiments"] = [e for e in doc["experiments"] if e["name"] in names]
    if _fixture_dir is None:
        _fixture_dir = tempfile.mkdtemp(prefix="wtg-fixture-")
        atexit.register(shutil.rmtree, _fixture_dir, True)
    return save_json(_fixture_dir, doc, "saved-%s.json" % "-".join(names))


def datadir():
    """A private folder for the data files of this test run, removed at exit on every path (tests
    check that wtg removes its own file with datadir_is_empty() before that)."""
    global _tmpdir
    if _tmpdir is None:
        base = os.environ.get("TMPDIR") or "/var/tmp"
        _tmpdir = tempfile.mkdtemp(prefix="wtg-test-", dir=base)
    return _tmpdir


def skip(reason):
    """Skip the rest of the test file, saying why: "1..0 # SKIP why" before any check, else one
    skipped result after the checks made, then the plan."""
    reason = _one_line(reason)
    if _passed + _failed == 0:
        _line("1..0 # SKIP " + reason)
        sys.exit(0)
    _line("ok %d - the rest # SKIP %s" % (_passed + _failed + 1, reason))
    _line("1..%d" % (_passed + _failed + 1))
    sys.exit(_exit_status())


def need_tool(name):
    """Skip unless the command name is on PATH."""
    if shutil.which(name) is None:
        skip("%s is not installed" % name)


def need_module(name):
    """Skip unless the Python module can be imported; returns the module."""
    import importlib
    try:
        return importlib.import_module(name)
    except ImportError:
        skip("the Python module %s is not installed" % name)


# The --time-limit a headless run gets unless it sets one: on a loaded machine (make check -j2
# beside other builds) wtg's default 10 s starvation watchdog ends experiments that are only slow.
PATIENT_S = 60


def run(*args, timeout=300, env=None, time_limit=PATIENT_S):
    """Run wtg with args; returns (exit status, stdout, stderr). A --run=LIST without a --time-limit
    gets --time-limit=time_limit; None keeps wtg's default (tests of the default or the watchdog)."""
    e = dict(os.environ)
    if env:
        e.update(env)
    args = list(args)
    if (time_limit is not None and any(a.startswith("--run=") for a in args)
            and not any(a.startswith("--time-limit") for a in args)):
        args.append("--time-limit=%d" % time_limit)
    t0 = time.monotonic()
    p = subprocess.run([WTG] + args, capture_output=True, text=True, timeout=timeout, env=e)
    if os.environ.get("WTG_TEST_TIMES"):  # which runs a test's time goes to: seconds, then the options
        with open(os.environ["WTG_TEST_TIMES"], "a") as f:
            f.write("%.2f %s %s\n" % (time.monotonic() - t0, os.path.basename(sys.argv[0]), " ".join(args)))
    return p.returncode, p.stdout, p.stderr


def run_json(names, *extra, timeout=300, env=None):
    """Run experiments headless in --quick mode with a private --dir (env: variables added to its
    environment); returns (status, doc, stderr). doc is None when the output is not JSON."""
    args = ["--run=" + names, "--quick", "--format=json"]
    if not any(a.startswith("--file") or a.startswith("--dir") for a in extra):
        args.append("--dir=" + datadir())
    args += list(extra)
    status, out, err = run(*args, timeout=timeout, env=env)
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    return status, doc, err


def parse_cpus(text):
    """A CPU list as the kernel writes it, "0-3,8" -> {0, 1, 2, 3, 8}."""
    out = set()
    for part in text.strip().split(","):
        if "-" in part:
            a, b = part.split("-")
            out.update(range(int(a), int(b) + 1))
        elif part:
            out.add(int(part))
    return out


def experiment(doc, name):
    for e in doc["experiments"]:
        if e["name"] == name:
            return e
    return None


def save_json(folder, doc, name):
    """doc written as folder/name; returns the path."""
    p = os.path.join(folder, name)
    with open(p, "w") as f:
        json.dump(doc, f)
    return p


def burned(doc):
    """A copy of the saved run doc as if measured under 8 burners, by construction (nothing is
    measured): GB/s halved, times (ms, ms_per_gb, *_ns) and time samples doubled, the conditions
    block and every row saying 8 burners; without a label, so --load names it by its file."""
    doc = json.loads(json.dumps(doc))
    doc["run"].pop("label", None)
    doc["conditions"]["burners"] = 8
    for e in doc["experiments"]:
        for r in e["rows"]:
            r["cond_burners"] = 8
            for k, v in r.items():
                if not isinstance(v, (int, float)) or isinstance(v, bool):
                    continue
                if k.startswith("gbps"):
                    r[k] = v / 2
                elif k in ("ms", "ms_per_gb") or k.endswith("_ns"):
                    r[k] = v * 2
        for sr in e.get("series") or []:
            if sr["unit"] != "count":
                sr["samples"] = [x * 2 if x is not None else None for x in sr["samples"]]
    return doc


def rows(exp):
    """Rows as dicts keyed by column name (schema 2 writes them so; schema 1 wrote arrays in
    column order)."""
    names = [c["name"] for c in exp["columns"]]
    return [dict(r) if isinstance(r, dict) else dict(zip(names, r)) for r in exp["rows"]]


def datadir_is_empty():
    return not os.listdir(datadir())


def finish_clean():
    """End a test that used datadir(): the folder must be empty (wtg removed its file); remove it
    and finish()."""
    check(datadir_is_empty(), "the private data folder is empty at the end")
    finish()


def experiment_done(exp, name, spec):
    """The experiment is in the output, its first columns are spec in order, every check is ok and
    its state is done. Returns whether it was there."""
    if not check(exp is not None, "%s is in the output" % name):
        return False
    cols = [c["name"] for c in exp["columns"]]
    check(cols[:len(spec)] == spec, "%s columns start with the SPEC's: %r" % (name, cols))
    check(len(exp["checks"]) > 0 and all(c["ok"] for c in exp["checks"]),
          "%s: every check ok: %r" % (name, [c for c in exp["checks"] if not c["ok"]]))
    check(exp["state"] == "done", "%s state done, got %r (%r)" % (name, exp["state"], exp.get("error")))
    return True


def spec_columns_and_checks(exp, name, spec):
    """The experiment is in the output, its first columns are spec in order, it has checks and every
    check is ok. Returns whether it was there."""
    if not check(exp is not None, name + ": in the output"):
        return False
    cols = [c["name"] for c in exp["columns"]]
    check(cols[:len(spec)] == spec, "%s: SPEC columns in order, got %s" % (name, cols))
    check(len(exp["checks"]) > 0, name + ": has checks")
    for c in exp["checks"]:
        check(c["ok"], "%s: check %s failed: %s" % (name, c["name"], c["detail"]))
    return True


# ---- figures ----

def close(a, b, rel=1e-6):
    """a and b both present and equal within rel of the larger."""
    return a is not None and b is not None and abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def q7(v, q):
    """Hyndman-Fan type 7 quantile, as the SPEC defines it."""
    s = sorted(v)
    pos = q * (len(s) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def series(exp, name):
    """The samples of the experiment's series called name, or None."""
    for sr in exp.get("series", []):
        if sr["name"] == name:
            return sr["samples"]
    return None


# ---- rows measured in rounds ----

ROUNDS_MIN = 15          # 5 replicas x 3 rounds
CONTENDED_KEEP = 11      # uncontended samples a figure needs to leave the contended ones out


def used_samples(exp, name, keep_all=False):
    """The samples of series name a row's figure uses: the ones its series "name contended" does not
    flag when at least 11 remain (and contention is not the row's condition, keep_all), else all."""
    v = series(exp, name)
    flags = series(exp, name + " contended")
    if v is None or flags is None or len(flags) != len(v) or keep_all:
        return v
    quiet = [x for x, f in zip(v, flags) if not f]
    return quiet if len(quiet) >= CONTENDED_KEEP else v


WARMUP_STABLE = 5         # consecutive windows the warm-up's rule looks at
WARMUP_TOLERANCE = 0.01  # their largest / smallest median - 1, at most


def check_warmup(exp, name, column=True):
    """The run's warm-up log (JSON "warmup"): every window's median kept, one per window run; a rule
    met after at least five windows whose last five medians lie within 1%; a maximum reached with
    exactly max_windows windows whose last five do not. Which of the two happened is never assumed.
    column: every row's warmup_windows is the count of a logged warm-up (0 for a row without one).
    Returns the log."""
    log = exp.get("warmup")
    if not check(isinstance(log, list) and len(log) > 0, "%s: the JSON keeps its warm-up windows: %r" % (name, log)):
        return []
    for w in log:
        what = "%s warm-up of %s" % (name, w.get("row"))
        meds = w.get("medians") or []
        check(w.get("windows") == len(meds) >= 1 and all(isinstance(m, (int, float)) for m in meds),
              "%s: a median per window (%r windows, %d medians)" % (what, w.get("windows"), len(meds)))
        check(w.get("stable_windows") == WARMUP_STABLE and w.get("tolerance_pct") == 100 * WARMUP_TOLERANCE
              and isinstance(w.get("window"), str) and w["window"],
              "%s: the rule is stated (%r windows within %r%%, a window is %r)"
              % (what, w.get("stable_windows"), w.get("tolerance_pct"), w.get("window")))
        last = meds[-WARMUP_STABLE:]
        within = (len(last) == WARMUP_STABLE and min(last) > 0 and
                  max(last) / min(last) - 1 <= WARMUP_TOLERANCE + 1e-9)
        if w.get("outcome") == "met":
            check(len(meds) >= WARMUP_STABLE and within and len(meds) <= w.get("max_windows", 0),
                  "%s: met after %d windows, the last five within 1%%: %r" % (what, len(meds), last))
        else:
            check(w.get("outcome") == "max" and len(meds) == w.get("max_windows") and not within,
                  "%s: %r after %d of %r windows, the last five not within 1%%: %r"
                  % (what, w.get("outcome"), len(meds), w.get("max_windows"), last))
    if column:
        counts = {w["windows"] for w in log if "windows" in w} | {0}
        got = [r.get("warmup_windows") for r in rows(exp)]
        check(len(got) > 0 and all(g in counts for g in got),
              "%s: every row's warmup_windows is a logged warm-up's count %r: %r" % (name, sorted(counts), got))
    return log


def check_rounds(exp, name, x, label=None):
    """Every row of exp is a distribution of figure x: columns x, x_ci_low, x_ci_high, x_min, x_max,
    samples, replicas, x_replica_spread_pct, contended, cpu_share and sample_ms; samples >= 15; min <= ci_low <= x <= ci_high <= max; every "drift" check ok or
    warn, never fail; a "ci" check per row; the warm-up log (check_warmup). label(row) names a row in messages."""
    cols = [c["name"] for c in exp["columns"]]
    want = [x, x + "_ci_low", x + "_ci_high", x + "_min", x + "_max", "samples", "replicas",
            x + "_replica_spread_pct", "contended", "cpu_share", "sample_ms"]
    check(all(w in cols for w in want), "%s: rounds columns %r in %r" % (name, want, cols))
    rs = rows(exp)
    for r in rs:
        what = "%s %s" % (name, label(r) if label else "")
        check(r.get("samples", 0) >= ROUNDS_MIN, "%s: %r samples, at least %d" % (what, r.get("samples"),
                                                                                ROUNDS_MIN))
        check(r[x + "_min"] <= r[x + "_ci_low"] <= r[x] <= r[x + "_ci_high"] <= r[x + "_max"],
              "%s: min <= ci_low <= %s <= ci_high <= max: %r" % (what, x, [r[w] for w in want[:5]]))
        check(r.get("replicas") in (1, 2, 3, 4, 5) and 0 <= r.get("contended", -1) <= r.get("samples", 0) and
              r.get(x + "_replica_spread_pct", -1) >= 0 and r.get("sample_ms", 0) > 0,
              "%s: replicas, contended, spread and sample_ms hold together: %r" % (what, [r.get(w) for w in want[5:]]))
    ci = [c for c in exp["checks"] if c["name"] == "ci"]
    check(len(ci) == len(rs), "%s: a ci check per row (%d for %d rows)" % (name, len(ci), len(rs)))
    drift = [c for c in exp["checks"] if c["name"] == "drift"]
    check(len(drift) == len(rs) and all(c.get("status") in ("ok", "warn") for c in drift),
          "%s: a drift check per row, ok or warn: %r" % (name, [c.get("status") for c in drift]))
    check_warmup(exp, name)
    return rs
