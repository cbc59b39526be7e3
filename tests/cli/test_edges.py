"""Edges of the process: closed standard streams, terminals the dashboard cannot use, control bytes
in error lines, data files left by killed runs, a data file made only when an experiment reads it,
messages that name TMPDIR or a pseudo filesystem, and tests that clean up after themselves.
No timings: a wait is a poll with a deadline, and a hang is a failure, not a pass."""
import fcntl
import json
import os
import pty
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time

from wtgtest import WTG, check, datadir, datadir_is_empty, finish, run, run_json

HELP = " (see 'wtg --help')"
TOP_SRCDIR = (os.environ.get("top_srcdir") or
              os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
d = datadir()


def one_line(err, what):
    """stderr is exactly one 'wtg: ' line with no control byte but its newline."""
    ok = err.startswith("wtg: ") and err.endswith("\n") and err.count("\n") == 1
    ok = ok and not any(ord(c) < 32 or ord(c) == 127 for c in err[:-1])
    return check(ok, "%s: one clean 'wtg:' line on stderr, got %r" % (what, err))


def sh(script, *args, timeout=120, env=None):
    """Run wtg through sh -c script with args ($0 is wtg); returns (status, stdout, stderr)."""
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(["sh", "-c", script, WTG] + list(args), capture_output=True, timeout=timeout, env=e)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


# ---- closed standard streams ------------------------------------------------------------------
status, out, err = sh('exec "$0" "$@" >&-', "--run=clock", "--quick", "--dir=" + d)
check(status == 0, "stdout closed: exit 0, got %d (%s)" % (status, err.strip()))
check(err == "", "stdout closed: nothing on stderr, got %r" % err)
report = os.path.join(d, "report.json")
status, out, err = sh('exec "$0" "$@" >&- 2>&-', "--run=clock,syscall", "--quick", "--format=json",
                      "--dir=" + d, "-o", report)
check(status == 0, "stdout and stderr closed, -o FILE: exit 0, got %d" % status)
try:
    with open(report) as f:
        names = [e["name"] for e in json.load(f)["experiments"]]
    check(names == ["syscall", "clock"], "stdout and stderr closed: the -o report is whole: %r" % names)
except (OSError, ValueError) as x:
    check(False, "stdout and stderr closed: the -o report: %s" % x)
if os.path.exists(report):
    os.unlink(report)
status, out, err = sh('exec "$0" "$@" <&-', "--dir=" + d)
check(status == 2, "stdin closed, dashboard: exit 2, got %d" % status)
check(err == "wtg: the dashboard needs a terminal; use --run=LIST for headless output" + HELP + "\n",
      "stdin closed, dashboard: %r" % err)
status, out, err = sh('exec "$0" "$@" 2>&-', "--bogus")
check(status == 2, "stderr closed, bad option: exit 2, got %d" % status)


# ---- terminals the dashboard cannot drive ---------------------------------------------------------
def dashboard_on_pty(term):
    """wtg's dashboard on a fresh pseudo terminal with TERM=term (None: unset). Returns (status,
    stderr); status None when it was still running after 20 s (it was killed)."""
    master, slave = pty.openpty()
    env = dict(os.environ)
    env.pop("TERM", None)
    if term is not None:
        env["TERM"] = term
    p = subprocess.Popen([WTG, "--quick", "--dir=" + d], stdin=slave, stdout=slave, stderr=subprocess.PIPE,
                         env=env)
    os.close(slave)
    try:
        _, e = p.communicate(timeout=20)
        status = p.returncode
    except subprocess.TimeoutExpired:
        p.kill()
        _, e = p.communicate()
        status = None
    os.close(master)
    return status, e.decode("utf-8", "replace")


for term, msg in (
        (None, "TERM is not set: the dashboard needs a terminal type; use --run=LIST for headless output"),
        ("", "TERM is not set: the dashboard needs a terminal type; use --run=LIST for headless output"),
        ("dumb", "the terminal TERM=dumb cannot move the cursor, which the dashboard needs; "
                 "use --run=LIST for headless output"),
        ("wtg-no-such-terminal", "unknown terminal type TERM=wtg-no-such-terminal (no terminfo entry); "
                                 "use --run=LIST for headless output")):
    status, err = dashboard_on_pty(term)
    check(status == 2, "TERM=%r: exit 2, got %r" % (term, status))
    check(err == "wtg: " + msg + HELP + "\n", "TERM=%r: stderr %r" % (term, err))
check(datadir_is_empty(), "a refused terminal creates no data file")

# ---- control bytes in error lines -----------------------------------------------------------------
for args, want in (
        (["--run=valley", "--dir=/nonexistent/a\nb\x1b[31mred"],
         "wtg: --dir '/nonexistent/a\\nb\\e[31mred': No such file or directory" + HELP + "\n"),
        (["--run=sys\x07call"], "wtg: unknown experiment 'sys\\x07call' in --run; 'wtg --list' names them"
         + HELP + "\n"),
        (["--file=/nonexistent/x\ty\\z", "--run=valley"],
         "wtg: --file '/nonexistent/x\\ty\\\\z': No such file or directory" + HELP + "\n")):
    status, out, err = run(*args)
    check(status == 2, "%r: exit 2, got %d" % (args, status))
    one_line(err, repr(args))
    check(err == want, "%r: stderr %r, expected %r" % (args, err, want))
# a runtime failure whose message carries the folder: still one line
odd = os.path.join(d, "odd\nfolder\x1b")
os.mkdir(odd)
status, out, err = run("--run=valley", "--quick", "--size=1T", "--dir=" + odd)
check(status == 1, "1T data file in a folder with control bytes: exit 1, got %d" % status)
one_line(err, "runtime failure with control bytes in the folder")
check("odd\\nfolder\\e" in err, "the folder is shown escaped: %r" % err)
os.rmdir(odd)


# ---- a data file made only when an experiment reads it ----------------------------------------------
status, doc, err = run_json("clock,syscall", "--dir=/proc")
check(status == 0, "clock,syscall with --dir=/proc: exit 0 (no data file needed), got %d: %s" % (status, err))
# (clock alone: the run above showed that two such experiments need none either)
status, out, err = run("--run=clock", "--quick", "--format=json", env={"TMPDIR": "/nonexistent"})
check(status == 0, "clock with a bad TMPDIR: exit 0, got %d: %s" % (status, err))
try:
    state = json.loads(out)["machine"]["data_file"]["state"]
except (ValueError, KeyError, TypeError):
    state = None
check(state == "none", "clock: the machine block says there is no data file, got %r" % state)
status, doc, err = run_json("clock", "--dir=" + d)
check(status == 0 and datadir_is_empty(), "clock: no data file is created in --dir (%d, %s)" % (status, err))

# the dashboard whose tabs (--order) read no data file needs no folder for one either
def dashboard_quits(args, env, want):
    """The dashboard on a pty (TERM=xterm): wait until it shows want, press q; returns (status, seen)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    p = subprocess.Popen([WTG] + args, stdin=slave, stdout=slave, stderr=subprocess.PIPE,
                         env=dict(os.environ, TERM="xterm", LC_ALL="C.UTF-8", **env))
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and want not in seen and p.poll() is None:
        r, _, _ = select.select([master], [], [], 0.1)
        if r:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
    if want in seen:
        os.write(master, b"q")
    try:
        p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    os.close(master)
    p.stderr.close()
    return p.returncode, want in seen


status, seen = dashboard_quits(["--quick", "--order=clock,syscall"], {"TMPDIR": "/nonexistent"},
                               b"no data file yet")
check(seen and status == 0, "dashboard --order=clock,syscall with a bad TMPDIR: runs, says no data file yet, "
      "q quits 0 (seen %r, status %r)" % (seen, status))

# ---- messages name the real cause -------------------------------------------------------------------
status, out, err = run("--run=valley", "--quick", env={"TMPDIR": "/nonexistent/tmp"})
check(status == 2 and err == "wtg: TMPDIR '/nonexistent/tmp': No such file or directory; fix TMPDIR or give "
      "--dir=DIR" + HELP + "\n", "bad TMPDIR names TMPDIR: %d %r" % (status, err))
for fs, folder in (("proc", "/proc"), ("sysfs", "/sys")):
    status, out, err = run("--run=valley", "--quick", "--dir=" + folder)
    want = "wtg: --dir '%s' is on %s, which cannot hold a data file%s\n" % (folder, fs, HELP)
    check(status == 2 and err == want,
          "--dir=%s: %d %r" % (folder, status, err))
    status, out, err = run("--run=valley", "--quick", env={"TMPDIR": folder})
    want = "wtg: TMPDIR '%s' is on %s, which cannot hold a data file" % (folder, fs)
    check(status == 2 and err.startswith(want),
          "TMPDIR=%s: %d %r" % (folder, status, err))
vf = os.statvfs(d)
if vf.f_blocks and vf.f_bavail * vf.f_frsize < (1 << 40):
    status, out, err = run("--run=valley", "--quick", "--size=1T", env={"TMPDIR": d})
    want = "wtg: data file: not enough space in TMPDIR '%s' for a 1T data file (" % d
    check(status == 1 and err.startswith(want),
          "no room in TMPDIR names TMPDIR: %d %r" % (status, err))
    status, out, err = run("--run=valley", "--quick", "--size=1T", "--dir=" + d)
    want = "wtg: data file: not enough space in --dir '%s' for a 1T data file (" % d
    check(status == 1 and err.startswith(want),
          "no room in --dir names --dir: %d %r" % (status, err))
check(datadir_is_empty(), "the failed runs left no data file")

# ---- data files of killed runs ------------------------------------------------------------------------
def touch(name, data=b"x" * 8192):
    path = os.path.join(d, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


stale = touch("wtg-Ab3xY9.dat")
live = touch("wtg-live01.dat")
others = [touch(n) for n in ("wtg-abc.dat", "wtg-abcdefg.dat", "wtg-Ab3xY9.dat.bak", "notes.dat",
                             "wtg-a_b-c.dat")]
os.symlink(others[3], os.path.join(d, "wtg-link01.dat"))
holder = open(live, "rb")
fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)	# a live wtg holds its file's lock
status, doc, err = run_json("valley", "--dir=" + d, "--size=4M")
check(status == 0, "valley beside stale files: exit 0, got %d: %s" % (status, err))
head, tail = "wtg: left alone in %s: " % d, " (named like wtg's data files, but not ones wtg made)\n"
names = err[len(head):-len(tail)].split(", ") if err.startswith(head) and err.endswith(tail) else []
check(sorted(names) == ["wtg-Ab3xY9.dat", "wtg-link01.dat"] and err.count("\n") == 1,
      "one line naming what was left alone though its name looked like wtg's, got %r" % err)
check(os.path.exists(stale), "a user's file named like a data file, without wtg's mark, is kept")
check(os.path.exists(live), "a data file whose lock is held is kept")
check(all(os.path.exists(p) for p in others), "files wtg did not name are kept")
check(os.path.islink(os.path.join(d, "wtg-link01.dat")), "a symbolic link is kept")
holder.close()
for p in [stale, live] + others + [os.path.join(d, "wtg-link01.dat")]:
    if os.path.lexists(p):
        os.unlink(p)
check(datadir_is_empty(), "wtg removed its own file")

# a real run killed with SIGKILL: its file stays, locked while it lived; the next run removes it
p = subprocess.Popen([WTG, "--run=valley,passes,readcost", "--quick", "--size=8M", "--dir=" + d],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
deadline = time.monotonic() + 60
left = []
while time.monotonic() < deadline and not left and p.poll() is None:
    left = [n for n in os.listdir(d) if n.startswith("wtg-")]
    time.sleep(0.005)
if check(len(left) == 1, "the running wtg made one data file: %r" % left):
    with open(os.path.join(d, left[0]), "rb") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            locked = False
        except BlockingIOError:
            locked = True
    check(locked, "a running wtg holds the lock on its data file")
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    check(os.listdir(d) == left, "SIGKILL leaves the data file behind")
    status, doc, err = run_json("clock", "--dir=" + d)
    check(os.listdir(d) == left, "a run that needs no data file does not sweep the folder")
    status, doc, err = run_json("mmap", "--dir=" + d, "--size=4M")
    check(status == 0, "the next run exits 0, got %d: %s" % (status, err))
    check(err.startswith("wtg: removed %s/%s (" % (d, left[0])) and
          err.endswith("), the data file of a wtg that is no longer running\n") and err.count("\n") == 1,
          "the next run says it removed it: %r" % err)
    check(datadir_is_empty(), "the next run removed the dead run's file and its own")
else:
    p.kill()
    p.wait()

# ---- a data file wtg made, given as --file to a running wtg: another wtg's sweep leaves it alone ------------
hold = os.path.join(tempfile.mkdtemp(prefix="wtg-test-hold-"), "hold")


def held(*args):
    """wtg with args, held by WTG_TEST_BEFORE_WRITE once it has measured (its data file still in use);
    returns the process, or None when it ended without reaching the hook."""
    p = subprocess.Popen([WTG] + list(args), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, WTG_TEST_BEFORE_WRITE=hold))
    while not os.path.exists(hold) and p.poll() is None:
        time.sleep(0.01)
    return p if p.poll() is None else None


p = held("--run=passes", "--quick", "--size=1M", "--progress=never", "--dir=" + d)
made = [n for n in os.listdir(d) if n.startswith("wtg-")]
if p:
    os.kill(p.pid, signal.SIGKILL)	# a killed run leaves its data file, marked as wtg's
    p.wait()
os.unlink(hold) if os.path.exists(hold) else None
if check(p is not None and len(made) == 1, "a held run has made one data file: %r" % made):
    given = os.path.join(d, "wtg-given1.dat")
    os.rename(os.path.join(d, made[0]), given)
    with open(given, "rb") as f:
        before = f.read()
    user = held("--run=passes", "--quick", "--progress=never", "--file=" + given)
    status, doc, err = run_json("passes", "--dir=" + d, "--size=1M")
    check(status == 0 and err == "", "a sweep beside a --file in use: exit 0, nothing said, got %d %r" %
          (status, err))
    check(os.path.exists(given), "a --file in use, though wtg made it once, is not removed by another wtg")
    if user:
        os.unlink(hold)
        user.wait(timeout=300)
    check(user is not None and user.returncode == 0, "the run using it as --file ends well")
    with open(given, "rb") as f:
        check(f.read() == before, "the --file is as it was")
    os.unlink(given)
shutil.rmtree(os.path.dirname(hold), ignore_errors=True)	# the hook's folder goes with it
check(datadir_is_empty(), "no data file is left")

# ---- tests clean up after themselves --------------------------------------------------------------------
probe = tempfile.mkdtemp(prefix="wtg-test-probe-")
script = ("import sys; sys.path.insert(0, %r)\nimport wtgtest\n"
          "open(wtgtest.datadir() + '/left', 'w').close()\n"
          "print(wtgtest.datadir())\nwtgtest.check(False, 'deliberate')\nwtgtest.finish('probe')\n"
          % os.path.dirname(os.path.abspath(__file__)))
q = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                   env=dict({k: v for k, v in os.environ.items() if k != "WTG_TAP_DRIVER"}, TMPDIR=probe))
made = q.stdout.splitlines()[0] if q.stdout else ""
check(q.returncode == 1 and made.startswith(probe),
      "a failing python test ran: %d %r" % (q.returncode, q.stdout))
check(os.listdir(probe) == [], "a failing python test removes its data folder: %r" % os.listdir(probe))
sock = os.path.join(probe, "tmux")
os.mkdir(sock)
if subprocess.run(["sh", "-c", "command -v tmux"], capture_output=True).returncode == 0:
    q = subprocess.run(["sh", "-c", '. "$top_srcdir/tests/lib.sh"; scratch; tm_start 80 24 "sleep 30"; '
                        'tm_socket; echo "$lib_tmp"; exit 1'],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, top_srcdir=TOP_SRCDIR, TMUX_TMPDIR=sock, TMPDIR=probe))
    lines = q.stdout.splitlines()
    check(q.returncode == 1 and len(lines) == 2 and lines[0].startswith(sock),
          "a failing shell test ran a tmux server: %r %r" % (q.stdout, q.stderr))
    check(not os.path.exists(lines[0]) if lines else False, "its tmux socket is removed at exit")
    check(not os.path.exists(lines[1]) if len(lines) > 1 else False, "its scratch folder is removed at exit")
    # without TMUX_TMPDIR the socket's folder is the scratch folder's, gone with it (not /tmp/tmux-UID)
    env = {k: v for k, v in os.environ.items() if k != "TMUX_TMPDIR"}
    q = subprocess.run(["sh", "-c", '. "$top_srcdir/tests/lib.sh"; scratch; tm_start 80 24 "sleep 30"; '
                        'tm_socket; echo "$lib_tmp"; exit 1'],
                       capture_output=True, text=True, timeout=60, env=dict(env, top_srcdir=TOP_SRCDIR, TMPDIR=probe))
    lines = q.stdout.splitlines()
    check(len(lines) == 2 and lines[0].startswith(lines[1] + "/tmux-") and os.listdir(probe) == ["tmux"],
          "without TMUX_TMPDIR the tmux socket lives in the scratch folder, and both go at exit: %r %r"
          % (q.stdout, os.listdir(probe)))
os.system("rm -rf '%s'" % probe)

finish("test_edges")
