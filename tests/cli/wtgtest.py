"""Shared helpers for wtg's Python tests: run wtg, parse its JSON, count checks.

Each test file calls check(...) for every assertion and finish() at the end, which prints
"N passed, N failed" and exits 1 when anything failed.
"""
import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

TOP_BUILDDIR = os.environ.get("top_builddir") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
WTG = os.path.join(TOP_BUILDDIR, "src", "wtg")

_passed = 0
_failed = 0


def check(cond, what):
    """Record one assertion; print it when it fails."""
    global _passed, _failed
    if cond:
        _passed += 1
    else:
        _failed += 1
        print("FAILED: " + what, file=sys.stderr)
    return cond


def finish(name=None):
    name = name or os.path.basename(sys.argv[0])
    print("%s: %d passed, %d failed" % (name, _passed, _failed))
    sys.exit(1 if _failed else 0)


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


def datadir():
    """A private folder for the data files of this test run, removed at exit on every path (tests
    check that wtg removes its own file with datadir_is_empty() before that)."""
    global _tmpdir
    if _tmpdir is None:
        base = os.environ.get("TMPDIR") or "/var/tmp"
        _tmpdir = tempfile.mkdtemp(prefix="wtg-test-", dir=base)
    return _tmpdir


def skip(reason):
    """Skip the whole test file (automake's exit status 77), saying why."""
    print("SKIP: " + reason)
    sys.exit(77)


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


def run(*args, timeout=300, env=None):
    """Run wtg with args; returns (exit status, stdout, stderr)."""
    e = dict(os.environ)
    if env:
        e.update(env)
    p = subprocess.run([WTG] + list(args), capture_output=True, text=True, timeout=timeout, env=e)
    return p.returncode, p.stdout, p.stderr


def run_json(names, *extra, timeout=300):
    """Run experiments headless in --quick mode with a private --dir; returns (status, doc, stderr).
    doc is None when the output is not JSON."""
    args = ["--run=" + names, "--quick", "--format=json"]
    if not any(a.startswith("--file") or a.startswith("--dir") for a in extra):
        args.append("--dir=" + datadir())
    args += list(extra)
    status, out, err = run(*args, timeout=timeout)
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    return status, doc, err


def experiment(doc, name):
    for e in doc["experiments"]:
        if e["name"] == name:
            return e
    return None


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

ROUNDS_MIN = 11


def check_rounds(exp, name, x, label=None):
    """Every row of exp is a distribution of figure x: columns x, x_ci_low, x_ci_high, x_min, x_max
    and samples; samples >= 11; min <= ci_low <= x <= ci_high <= max; every "drift" check ok or
    warn, never fail; a "ci" check per row. label(row) names a row in messages."""
    cols = [c["name"] for c in exp["columns"]]
    want = [x, x + "_ci_low", x + "_ci_high", x + "_min", x + "_max", "samples"]
    check(all(w in cols for w in want), "%s: rounds columns %r in %r" % (name, want, cols))
    rs = rows(exp)
    for r in rs:
        what = "%s %s" % (name, label(r) if label else "")
        check(r.get("samples", 0) >= ROUNDS_MIN, "%s: %r samples, at least %d" % (what, r.get("samples"),
                                                                                ROUNDS_MIN))
        check(r[x + "_min"] <= r[x + "_ci_low"] <= r[x] <= r[x + "_ci_high"] <= r[x + "_max"],
              "%s: min <= ci_low <= %s <= ci_high <= max: %r" % (what, x, [r[w] for w in want[:5]]))
    ci = [c for c in exp["checks"] if c["name"] == "ci"]
    check(len(ci) == len(rs), "%s: a ci check per row (%d for %d rows)" % (name, len(ci), len(rs)))
    drift = [c for c in exp["checks"] if c["name"] == "drift"]
    check(len(drift) == len(rs) and all(c.get("status") in ("ok", "warn") for c in drift),
          "%s: a drift check per row, ok or warn: %r" % (name, [c.get("status") for c in drift]))
    return rs
