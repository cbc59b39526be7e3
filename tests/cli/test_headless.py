"""Headless runs end to end: formats, -o, --file, seeds, signals, runtime failures."""
import csv
import hashlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time

from wtgtest import (WTG, check, datadir, datadir_is_empty, experiment, finish, rows, run, run_json, shm_writable,
                     skip_checks)

SPEC_COLUMNS = {
    "bytewise": ["variant", "bytes", "read_calls", "ms", "user_ms", "sys_ms", "ns_per_byte", "sum"],
    "syscall": ["batch", "batches", "median_ns", "p99_ns"],
    "valley": ["bufsize", "read_calls", "bytes", "ms", "gbps", "sum"],
}
d = datadir()

# --- JSON: the SPEC's shape, columns first and in order, every check ok -------------------------
# (the same run writes the text and CSV reports checked below: -o - keeps the JSON on stdout)
reports = tempfile.mkdtemp(prefix="wtg-test-reports-")
txt_path, csv_path = os.path.join(reports, "r.txt"), os.path.join(reports, "r.csv")
status, doc, err = run_json("bytewise,syscall,valley", "-o", "-", "-o", txt_path, "-o", csv_path)
check(status == 0, "json run exits 0 (got %d: %s)" % (status, err.strip()))
check(doc is not None, "json output parses")
if doc:
    for key in ("tool", "version", "machine", "conditions", "experiments"):
        check(key in doc, "json has %s" % key)
    check(doc["tool"] == "wtg", "tool is wtg")
    m = doc["machine"]
    for key in ("cpu_model", "cpus", "page_size", "kernel", "clocksource", "hypervisor", "thp",
                "hw_counters", "data_file"):
        check(key in m, "machine has %s" % key)
    df = m["data_file"]
    check(df["size"] == 64 << 20, "quick data file is 64 MiB, got %r" % df["size"])
    check(isinstance(df["known_sum"], int) and df["known_sum"] > 0, "known sum recorded")
    check(df["owned"] is True, "the data file was created by wtg")
    names = [e["name"] for e in doc["experiments"]]
    check(names == ["bytewise", "syscall", "valley"], "experiments in registry order: %r" % names)
    for e in doc["experiments"]:
        cols = [c["name"] for c in e["columns"]]
        want = SPEC_COLUMNS[e["name"]]
        check(cols[:len(want)] == want, "%s columns start with the SPEC's: %r" % (e["name"], cols))
        check(all("unit" in c for c in e["columns"]), "%s: every column has a unit" % e["name"])
        check(len(e["rows"]) > 0, "%s has rows" % e["name"])
        check(all(len(r) == len(cols) for r in e["rows"]), "%s: rows as wide as the columns" % e["name"])
        check(len(e["checks"]) > 0 and all(c["ok"] for c in e["checks"]),
              "%s: every check ok: %r" % (e["name"], [c for c in e["checks"] if not c["ok"]]))
        check(e["state"] == "done", "%s state done, got %r" % (e["name"], e["state"]))
    v = experiment(doc, "valley")
    if v:
        for r in rows(v):
            check(r["read_calls"] == -(-r["bytes"] // r["bufsize"]),
                  "valley read_calls = ceil(bytes/bufsize) at %d" % r["bufsize"])
        # a sample reads a prefix of the file (at most 16 MiB with --quick): equal spans, equal sums
        by_bytes = {}
        for r in rows(v):
            by_bytes.setdefault(r["bytes"], set()).add(r["sum"])
        check(len(by_bytes) > 0 and all(len(s) == 1 for s in by_bytes.values()),
              "valley rows that read the same prefix have the same sum: %r" % by_bytes)
        full = [r for r in rows(v) if r["bytes"] == df["size"]]
        check(all(r["sum"] == df["known_sum"] for r in full), "valley full-file rows sum to the known sum")
    b = experiment(doc, "bytewise")
    if b:
        br = rows(b)
        check(len(br) == 2 and br[0]["sum"] == br[1]["sum"], "bytewise: both variants give the same sum")
        one = [r for r in br if r["variant"] == "1B per read"]
        check(len(one) == 1 and one[0]["read_calls"] == one[0]["bytes"], "bytewise: one read per byte")
check(datadir_is_empty(), "the data file is removed after a run")

# --- text and csv, written by the JSON run above ------------------------------------------------
def report(p):
    try:
        with open(p) as f:
            return f.read()
    except OSError:
        return ""


out = report(txt_path)
check(status == 0 and out != "", "text report written, the run exits 0")
check("== syscall: What does one kernel crossing cost? ==" in out, "text has the experiment heading")
check("median_ns" in out and "[ns]" in out, "text has column names and units")
# without --format and -o the text report is what stdout gets (clock: the quickest experiment)
st, out, err = run("--run=clock", "--quick", "--dir=" + d)
check(st == 0 and "== clock: How fine is the stopwatch? ==" in out and "median_ns" in out and "[ns]" in out,
      "no --format, no -o: the text report on stdout (%d: %s)" % (st, err.strip()))
out = report(csv_path)
shutil.rmtree(reports)
recs = list(csv.DictReader(out.splitlines(True)))
check(status == 0 and out != "", "csv report written, the run exits 0")
check({r["experiment"] for r in recs} == {"bytewise", "syscall", "valley"}, "csv names every experiment")
first = [r["name"] for r in recs if r["experiment"] == "syscall" and r["kind"] == "cell" and r["row"] == "0"]
check(first[:4] == ["batch", "batches", "median_ns", "p99_ns"], "csv: syscall's columns in order: %r" % first[:4])

# --- -o: whole file, the report not on stdout (--quiet: nothing at all) ---------------------------
out_path = os.path.join(d, "out.json")
# (clock, the quickest experiment: these check where the report goes, not what it holds)
status, out, err = run("--run=clock", "--quick", "--format=json", "-q", "-o", out_path, "--dir=" + d)
check(status == 0 and out == "", "-o -q run exits 0 and prints nothing")
try:
    with open(out_path) as f:
        json.load(f)
    check(True, "-o file parses")
except (OSError, ValueError) as e:
    check(False, "-o file parses: %s" % e)
check(sorted(os.listdir(d)) == ["out.json"], "only the output file is left: %r" % os.listdir(d))
os.unlink(out_path)

# --- --file: never written, never deleted, its sum computed by reading it ------------------------
user_file = os.path.join(d, "mine.bin")
with open(user_file, "wb") as f:
    f.write(os.urandom(3 << 20))
before = os.stat(user_file)
with open(user_file, "rb") as f:
    data = f.read()
digest = hashlib.sha256(data).hexdigest()
# (mmap, the quickest experiment that reads the data file: these check what happens to the file)
status, doc, err = run_json("mmap", "--file=" + user_file)
check(status == 0, "--file run exits 0 (%s)" % err.strip())
after = os.stat(user_file)
with open(user_file, "rb") as f:
    check(hashlib.sha256(f.read()).hexdigest() == digest, "--file content unchanged")
check(after.st_mtime_ns == before.st_mtime_ns and after.st_size == before.st_size, "--file not written")
if doc:
    dfj = doc["machine"]["data_file"]
    check(dfj["known_sum"] == sum(data), "--file known sum equals the bytes' sum")
    check(dfj["owned"] is False and dfj["path"] == user_file, "--file is not owned")
check(sorted(os.listdir(d)) == ["mine.bin"], "nothing but the user's file: %r" % os.listdir(d))
os.unlink(user_file)

# --- the seed decides the data file ---------------------------------------------------------------
def known_sum(seed):
    # mmap reads the data file, and is the quickest that does (0.1 s here; valley 6 s)
    st, doc, _ = run_json("mmap", "--size=1M", "--seed=%d" % seed)
    return doc["machine"]["data_file"]["known_sum"] if doc else None

s7, s7b, s8 = known_sum(7), known_sum(7), known_sum(8)
check(s7 is not None and s7 == s7b, "same seed, same data file sum")
check(s7 != s8, "another seed, another data file")

# --- signals: the run stops, the data file goes, no output file appears -------------------------
def signalled_run(sig):
    """Start a long headless run, send sig once its data file exists; returns (status, stderr)."""
    out_path = os.path.join(d, "sig.json")
    p = subprocess.Popen([WTG, "--run=valley,readcost", "--size=1G", "--dir=" + d, "--format=json",
                          "-o", out_path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while time.time() < deadline and not any(n.endswith(".dat") for n in os.listdir(d)):
        time.sleep(0.02)
    time.sleep(0.1)   # mid-creation of the 1 GiB file: the data file is there to remove
    p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
    return p.returncode, err


for sig, code in ((signal.SIGTERM, 143), (signal.SIGINT, 130), (signal.SIGHUP, 129)):
    status, err = signalled_run(sig)
    check(status == code, "%s: exit %d, expected %d" % (sig.name, status, code))
    check(err.startswith("wtg: stopped by signal %d" % sig.value), "%s: message %r" % (sig.name, err))
    check(os.listdir(d) == [], "%s: data file removed and no output written: %r" % (sig.name, os.listdir(d)))

# --- -o into a FIFO writes into it (never replaces it); a long name still gets a temp file -------
import stat
import threading
fifo = os.path.join(d, "pipe")
os.mkfifo(fifo)
got = []
reader = threading.Thread(target=lambda: got.append(open(fifo).read()))
reader.start()
status, out, err = run("--run=clock", "--quick", "--format=csv", "-o", fifo, "--dir=" + d)
reader.join(timeout=60)
check(status == 0, "-o FIFO: exit 0 (%s)" % err.strip())
check(bool(got) and got[0].startswith("run,host,experiment,kind,") and ",clock,cell," in got[0],
      "-o FIFO: the reader got the report")
check(stat.S_ISFIFO(os.stat(fifo).st_mode), "-o FIFO: still a FIFO afterwards")
os.unlink(fifo)
long_name = os.path.join(d, "r" * 245 + ".json")
status, out, err = run("--run=clock", "--quick", "--format=json", "-o", long_name, "--dir=" + d)
check(status == 0 and os.path.isfile(long_name), "-o with a 250-byte name: written (%s)" % err.strip())
if os.path.exists(long_name):
    os.unlink(long_name)
check(os.listdir(d) == [], "-o FIFO and long name: nothing else left: %r" % os.listdir(d))

# --- SIGQUIT and the other fatal signals end wtg as they say, but the data file still goes -------
for sig in (signal.SIGQUIT, signal.SIGUSR1, signal.SIGALRM):
    status, err = signalled_run(sig)
    check(status == -sig, "%s: dies of the signal, got %r" % (sig.name, status))
    check(os.listdir(d) == [], "%s: data file removed: %r" % (sig.name, os.listdir(d)))

# --- a runtime failure is exit 1 with one line naming the cause -----------------------------------
if shm_writable():
    status, out, err = run("--run=valley", "--dir=/dev/shm", "--size=1T")
    check(status == 1, "no room for the data file: exit 1, got %d" % status)
    check(err.startswith("wtg: data file: not enough space in --dir '/dev/shm'") and err.count("\n") == 1,
          "no room: one clear line, got %r" % err)
else:
    skip_checks(["no room for the data file: exit 1", "no room: one clear line"], "/dev/shm is not writable here")

os.rmdir(d)
finish("test_headless")
