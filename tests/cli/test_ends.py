#!/usr/bin/env python3
"""How runs end: a data file that shrinks under a mapping, a fault in a worker thread, a stopped
process, starvation under the background policy, and the exit status of a run whose experiments
ended early. Invariants only (exit status, exact messages, states, files left); the one wall-time
bound is loose (the limit times the experiments, plus a minute).

The shrinking file is made deterministic with the WTG_TEST_SHRINK=EXPERIMENT hook: the first time
that experiment is about to read a mapping of the data file wtg created, wtg truncates the file to
half its size (see wtg_test_shrink in src/experiments/common.c).
"""
import csv
import ctypes
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import (WTG, check, checks_made, datadir, datadir_is_empty, experiment, finish_clean, run,  # noqa: E402
                     skip_check)

SHRANK = "the data file shrank while mapped (a read past its new end raised SIGBUS)"
d = datadir()


def no_core():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def lines(err):
    return [ln for ln in err.splitlines() if ln]


# --- the data file shrinks under a mapping: that experiment fails, the others are reported -------
# (wtg runs experiments in its own order: syscall before mmap and mmap before threads, so one ends
# before the failed one, mmap reading the data file while it was whole; clock, the cheapest, runs
# after mmap and pagecache and reads no file)
for exp, others, extra, prefix in (
        ("mmap", ["syscall", "clock"], [], "wtg: mmap: "),
        ("threads", ["mmap"], ["--threads=2"], "wtg: threads: 1 thread: "),
        ("pagecache", ["clock"], [], "wtg: pagecache: ")):
    names = ",".join(others[:1] + [exp] + others[1:])
    args = ["--run=" + names, "--quick", "--format=json", "--size=8M", "--dir=" + d] + extra
    status, out, err = run(*args, env={"WTG_TEST_SHRINK": exp}, timeout=300)
    check(status == 1, "%s shrank: exit 1, got %d (%s)" % (exp, status, err.strip()))
    check(lines(err) == [prefix + SHRANK], "%s shrank: one line naming it, got %r" % (exp, err))
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    if check(doc is not None, "%s shrank: the report is whole JSON" % exp):
        e = experiment(doc, exp)
        check(e is not None and e["state"] == "failed" and SHRANK in (e["error"] or ""),
              "%s shrank: state failed with the cause, got %r" % (exp, e and (e["state"], e["error"])))
        for o in others:
            oe = experiment(doc, o)
            check(oe is not None and oe["state"] == "done" and len(oe["rows"]) > 0,
                  "%s shrank: %s still reported whole" % (exp, o))
    check(datadir_is_empty(), "%s shrank: the data file is removed" % exp)

# the same with -o: the file is written whole, then the run says why it failed (clock after mmap)
out_path = os.path.join(d, "..", os.path.basename(d) + "-shrank.csv")
status, out, err = run("--run=mmap,clock", "--quick", "--format=csv", "--size=8M", "--dir=" + d,
                       "-o", out_path, env={"WTG_TEST_SHRINK": "mmap"})
check(status == 1 and lines(err) == ["wtg: mmap: " + SHRANK], "-o, mmap shrank: exit 1, one line (%r)" % err)
if check(os.path.isfile(out_path), "-o, mmap shrank: the report is written"):
    with open(out_path, newline="") as f:
        recs = list(csv.DictReader(f))
    exps = {r["experiment"] for r in recs}
    states = {r["experiment"]: r["status"] for r in recs if r["kind"] == "state"}
    check(exps == {"mmap", "clock"} and states.get("mmap") == "failed" and states.get("clock") == "done",
          "-o, mmap shrank: both experiments in the report, mmap failed (%r)" % states)
    os.unlink(out_path)
check(datadir_is_empty(), "-o, mmap shrank: the data file is removed")


# --- a fault in the worker or a measuring thread runs the fatal path ----------------------------
def start_long(*extra):
    p = subprocess.Popen([WTG, "--run=valley,readcost", "--size=1G", "--dir=" + d, "--format=json"]
                         + list(extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=no_core)
    deadline = time.time() + 60
    while time.time() < deadline and not any(n.endswith(".dat") for n in os.listdir(d)):
        time.sleep(0.02)
    return p


def finish_proc(p, timeout=60):
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    return p.returncode, out, err


libc = ctypes.CDLL(None, use_errno=True)
for sig in (signal.SIGBUS, signal.SIGSEGV):
    p = start_long()
    # the worker is started before the data file is made: poll for it (10 s at most)
    deadline = time.time() + 10
    while True:
        tids = sorted(int(t) for t in os.listdir("/proc/%d/task" % p.pid) if int(t) != p.pid)
        if tids or time.time() >= deadline or p.poll() is not None:
            break
        time.sleep(0.02)
    check(len(tids) > 0, "%s: wtg runs threads besides the main one" % sig.name)
    for tid in tids[:1]:  # the worker: the first thread started
        libc.tgkill(p.pid, tid, int(sig))
    status, out, err = finish_proc(p)
    check(status == -sig, "%s in the worker: dies of it, got %r" % (sig.name, status))
    check(("wtg: killed by signal %d (" % sig) in err, "%s in the worker: a wtg: line, got %r" % (sig.name, err))
    check(datadir_is_empty(), "%s in the worker: the data file is removed: %r" % (sig.name, os.listdir(d)))


# --- a stop longer than --time-limit ends no row -----------------------------------------------
# (a limit of 5 s, not 1: on a loaded machine a thread may really wait for a CPU most of the time; threads
# runs 2 threads, not 4: 4 crew threads beside valley and another test's burners on 2 CPUs once waited 5 s)
# The two runs go side by side, each in its own folder, each stopped 0.7 s after its data file is
# whole and continued 8 s later: the stops overlap instead of adding up. A 64 MiB file: each run still
# measures for seconds after it is whole (the check says the stop found it running).
def data_file_written(folder, size):
    return any(n.endswith(".dat") and os.path.getsize(os.path.join(folder, n)) >= size for n in os.listdir(folder))


STOP_MB = 64
stops = []
for names, quick in (("valley,passes", ["--quick"]), ("threads", [])):
    sub = os.path.join(d, names.replace(",", "-"))
    os.mkdir(sub)
    p = subprocess.Popen([WTG, "--run=" + names, "--size=%dM" % STOP_MB, "--dir=" + sub, "--format=json",
                          "--time-limit=5", "--threads=2"] + quick, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    stops.append({"names": names, "dir": sub, "p": p, "state": "writing", "at": None})
# writing -> (its data file whole) running -> (0.7 s later) stopped -> (8 s later) continued
deadline = time.monotonic() + 60 + 8.7
while any(s["state"] != "continued" for s in stops) and time.monotonic() < deadline:
    t = time.monotonic()
    for s in stops:
        if s["state"] == "writing" and data_file_written(s["dir"], STOP_MB << 20):
            s["state"], s["at"] = "running", t + 0.7
        elif s["state"] == "running" and t >= s["at"]:
            s["running"] = s["p"].poll() is None
            s["p"].send_signal(signal.SIGSTOP)
            s["state"], s["at"] = "stopped", t + 8
        elif s["state"] == "stopped" and t >= s["at"]:
            s["p"].send_signal(signal.SIGCONT)
            s["state"] = "continued"
    time.sleep(0.02)
for s in stops:
    names, p = s["names"], s["p"]
    if s["state"] == "stopped":
        p.send_signal(signal.SIGCONT)
    check(s["state"] == "continued" and s.get("running"),
          "%s: stopped for 8 s once its data file was written, while it ran" % names)
    status, out, err = finish_proc(p, timeout=300)
    check(status == 0, "%s stopped 8 s with --time-limit=5: exit 0, got %d (%s)" % (names, status, err.strip()))
    check("starv" not in out and "starv" not in err, "%s stopped: no starved note" % names)
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    if check(doc is not None, "%s stopped: JSON parses" % names):
        for e in doc["experiments"]:
            check(e["state"] == "done", "%s stopped: %s done, got %r" % (names, e["name"], e["state"]))
    check(not os.listdir(s["dir"]), "%s stopped: the data file is removed" % names)
    os.rmdir(s["dir"])


# --- starved under the background policy: each experiment ends near the limit, exit 1 -----------
# (a limit of 1 s: the burners spin on every CPU until the starved experiments end)
LIMIT = 1


def starved_run(wrapper, what):
    names = ["readcost", "bytewise"]
    t0 = time.monotonic()
    try:
        p = subprocess.run(wrapper + [WTG, "--run=" + ",".join(names), "--burn", "--background",
                                      "--time-limit=%d" % LIMIT, "--size=16M", "--dir=" + d, "--format=json"],
                           capture_output=True, text=True, timeout=240)
        status, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        status, out, err = None, "", "timed out"
    took = time.monotonic() - t0
    check(status == 1, "%s: exit 1, got %r (%s)" % (what, status, err.strip()))
    check(took < LIMIT * len(names) + 60, "%s: ended within the limit per experiment plus a minute (%.0f s)"
          % (what, took))
    errs = lines(err)
    # after a failed rescue the burners are off, but a SCHED_IDLE thread on a busy machine may
    # still starve: "(background policy, other programs held the CPUs)"
    said = (": ended after %d s starved: the measuring thread was runnable but waited for a CPU (background policy"
            % LIMIT)
    starved = [ln for ln in errs if said in ln]
    check(len(starved) >= 1 and starved == errs, "%s: every line names a starved experiment, got %r" % (what, errs))
    check(all(any(ln.startswith("wtg: %s: " % n) for n in names) for ln in starved), "%s: lines name the experiment" % what)
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    if check(doc is not None, "%s: the report is whole JSON" % what):
        states = {e["name"]: e["state"] for e in doc["experiments"]}
        check(sorted(states) == sorted(names), "%s: both experiments reported, got %r" % (what, states))
        check(sum(1 for s in states.values() if s == "cancelled") == len(starved),
              "%s: a cancelled state per line, got %r" % (what, states))
    check(datadir_is_empty(), "%s: the data file is removed" % what)


before = checks_made()
starved_run([], "--burn --background --time-limit=%d" % LIMIT)
# without the privilege to leave SCHED_IDLE the rescue turns the burners off instead (root drops
# the privilege with setpriv; a user without it ran that case just above)
if shutil.which("setpriv") and os.geteuid() == 0 and resource.getrlimit(resource.RLIMIT_NICE)[1] < 20:
    starved_run(["setpriv", "--bounding-set=-sys_nice", "--inh-caps=-sys_nice"],
                "unprivileged --burn --background --time-limit=%d" % LIMIT)
else:
    why = ("setpriv is not installed" if not shutil.which("setpriv") else
           "not root: the run above was the unprivileged one" if os.geteuid() != 0 else
           "RLIMIT_NICE lets this user leave SCHED_IDLE without the privilege")
    for k in range(checks_made() - before):
        skip_check("unprivileged --burn --background --time-limit=%d: the starved run's check %d" % (LIMIT, k + 1), why)

finish_clean()
