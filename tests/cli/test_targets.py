"""What wtg writes onto, checked at the moment of writing: an output name replaced during the run by a
link to an input, or by another name of one, is refused at the write (exit 1, one line), the input left
as it was; regular files reached by any spelling go through a temp file and a rename; a FIFO nobody
reads is an error at once.

The test hook WTG_TEST_BEFORE_WRITE=PATH (wtg/testhooks.h) makes the headless program, done
measuring, create PATH and wait until it is removed: the test changes the names in between."""
import os
import resource
import select
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import WTG, check, datadir, finish, saved_run, shm_writable, skip_checks  # noqa: E402

tmp = tempfile.mkdtemp(prefix="wtg-targets-", dir=datadir())
BASE = os.path.join(tmp, "base.json")
shutil.copy(saved_run(["clock"]), BASE)
with open(BASE, "rb") as f:
    BASE_BYTES = f.read()
DATA = os.path.join(tmp, "data.bin")
with open(DATA, "wb") as f:
    f.write(os.urandom(1 << 17))
with open(DATA, "rb") as f:
    DATA_BYTES = f.read()


def race(args, swap):
    """Run wtg with args; once it has measured and before it writes, call swap(). Returns (status, out,
    err). Without the hook (a wtg that does not know it) the swap comes after the run."""
    hold = os.path.join(tmp, "hold")
    env = dict(os.environ, WTG_TEST_BEFORE_WRITE=hold)
    p = subprocess.Popen([WTG] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    while not os.path.exists(hold) and p.poll() is None:
        time.sleep(0.01)
    swap()
    if os.path.exists(hold):
        os.unlink(hold)
    out, err = p.communicate(timeout=300)
    return p.returncode, out, err


def inputs_untouched(what):
    with open(BASE, "rb") as f:
        check(f.read() == BASE_BYTES, "%s: the --baseline file is as it was" % what)
    with open(DATA, "rb") as f:
        check(f.read() == DATA_BYTES, "%s: the --file data file is as it was" % what)


def fresh(name):
    path = os.path.join(tmp, name)
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.unlink(path)
    return path


def symlink(target, path):
    """path becomes a symbolic link to target, whatever it was."""
    if os.path.lexists(path):
        os.unlink(path)
    os.symlink(target, path)


def hardlink(target, path):
    """path becomes another name of target, whatever it was."""
    if os.path.lexists(path):
        os.unlink(path)
    os.link(target, path)


RUN = ["--run=clock", "--quick", "--progress=never", "-q", "--time-limit=60", "--baseline=" + BASE,
       "--file=" + DATA]

# ---- 1. an output replaced by a symbolic link to an input while wtg measured ---------------------------
out = fresh("out.json")
status, _, err = race(RUN + ["-o", out], lambda: symlink(BASE, out))
check(status == 1, "-o replaced by a link to --baseline: exit 1, got %d" % status)
check(err == "wtg: cannot write '%s': it became a symbolic link after wtg started; left as it is\n" % out,
      "-o replaced by a link: one line naming it, got %r" % err)
check(os.path.islink(out), "the link is left as it is")
inputs_untouched("-o replaced by a link")

# ---- 2. an output replaced by another name of an input (a hard link) ------------------------------------
out = fresh("hard.json")
status, _, err = race(RUN + ["-o", out], lambda: hardlink(BASE, out))
check(status == 1, "-o replaced by a hard link to --baseline: exit 1, got %d" % status)
check(err == "wtg: cannot write '%s': it is now the --baseline file '%s', which wtg never writes; "
      "left as it is\n" % (out, BASE), "-o now the --baseline file: one line naming both, got %r" % err)
inputs_untouched("-o replaced by a hard link")

# ---- 3. a link that was there from the start, pointed at an input meanwhile ------------------------------
elsewhere = fresh("elsewhere.json")
out = fresh("link.json")
os.symlink(elsewhere, out)


status, _, err = race(RUN + ["-o", out], lambda: symlink(DATA, out))
check(status == 1, "a link retargeted at --file: exit 1, got %d" % status)
check(err == "wtg: cannot write '%s': it is now the --file data file '%s', which wtg never writes; "
      "left as it is\n" % (out, DATA), "a link now at --file: one line naming both, got %r" % err)
check(not os.path.exists(elsewhere), "nothing was written where the link pointed first")
inputs_untouched("a link retargeted")

# a link there from the start and left alone is written through, as before
out = fresh("kept.json")
target = fresh("target.json")
os.symlink(target, out)
status, _, err = race(RUN + ["-o", out], lambda: None)
# (exit 3 is the gate's verdict on the clock measured now against the --baseline run, which a machine
# whose state moved between the two runs may give: the write is what this checks)
check(status in (0, 3) and err == "", "a link kept: exit 0 (or the gate's 3), nothing on stderr, got %d %r"
      % (status, err))
check(os.path.islink(out) and os.path.getsize(target) > 0, "a link kept: its target written, the link kept")

# ---- 4. a chart of an SVG folder replaced by a link to an input -----------------------------------------
charts = fresh("charts")
os.mkdir(charts)
chart = os.path.join(charts, "clock.svg")
status, _, err = race(RUN + ["--format=svg", "-o", charts], lambda: symlink(BASE, chart))
check(status == 1, "an SVG folder's chart replaced by a link: exit 1, got %d" % status)
check(err == "wtg: cannot write '%s': it became a symbolic link after wtg started; left as it is\n" % chart,
      "an SVG chart replaced by a link: one line naming the chart, got %r" % err)
inputs_untouched("an SVG chart replaced by a link")
os.unlink(chart)
status, _, err = race(RUN + ["--format=svg", "-o", charts], lambda: hardlink(DATA, chart))
check(status == 1 and err == "wtg: cannot write '%s': it is now the --file data file '%s', which wtg never "
      "writes; left as it is\n" % (chart, DATA), "an SVG chart now a name of --file: exit 1, one line, got %d %r"
      % (status, err))
inputs_untouched("an SVG chart replaced by a hard link")

# ---- 5. a regular file is replaced by a rename whatever the spelling; a failed write leaves it whole ----
QUICK = ["--run=clock", "--quick", "--progress=never", "-q", "--time-limit=60", "--format=json"]


def fsize_limit():
    """A file size limit of 4K for wtg: the report cannot be written whole (EFBIG, not a signal)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


def spelled(what, path, spell):
    """-o spell() reaches the regular file path: written by a rename (a new inode, the old one
    untouched), and when the write fails the file keeps its old content. spell returns the name and
    the descriptors wtg inherits."""
    with open(path, "w") as f:
        f.write("earlier content\n")
    before = os.stat(path).st_ino
    keep = os.open(path, os.O_RDONLY)	# the old inode, to see that it was not written into
    shown, pass_fds = spell()
    p = subprocess.run([WTG] + QUICK + ["-o", shown], capture_output=True, text=True,
                       timeout=300, cwd=tmp, pass_fds=pass_fds)
    check(p.returncode == 0 and p.stderr == "", "%s: exit 0, nothing on stderr, got %d %r" %
          (what, p.returncode, p.stderr))
    with open(path) as f:
        check(f.read().startswith("{"), "%s: the file holds the JSON report" % what)
    check(os.stat(path).st_ino != before, "%s: replaced by a rename (a new inode), not written in place" % what)
    check(os.pread(keep, 100, 0) == b"earlier content\n", "%s: the old file was not written into" % what)
    os.close(keep)
    with open(path, "w") as f:
        f.write("earlier content\n")
    shown, pass_fds = spell()
    p = subprocess.run([WTG] + QUICK + ["-o", shown], capture_output=True, text=True,
                       timeout=300, cwd=tmp, pass_fds=pass_fds, preexec_fn=fsize_limit)
    check(p.returncode == 1 and p.stderr == "wtg: cannot write '%s': File too large\n" % shown,
          "%s, past a 4K file size limit: exit 1, one line, got %d %r" % (what, p.returncode, p.stderr))
    with open(path) as f:
        check(f.read() == "earlier content\n", "%s: a failed write leaves the file as it was" % what)


spelled("/proc/self/cwd/NAME", os.path.join(tmp, "cwd.json"), lambda: ("/proc/self/cwd/cwd.json", ()))
fdfile = os.path.join(tmp, "fd.json")
fds = []


def open_fd():
    """/dev/fd/N of a descriptor open on fdfile now (each run has its own: a rename replaces the file)."""
    fds.append(os.open(fdfile, os.O_RDONLY))
    return "/dev/fd/%d" % fds[-1], (fds[-1],)


spelled("/dev/fd/N open on a file", fdfile, open_fd)
for fd in fds:
    os.close(fd)
if shm_writable():
    shm = tempfile.mkdtemp(prefix="wtg-targets-", dir="/dev/shm")
    spelled("/dev/shm/NAME", os.path.join(shm, "r.json"), lambda: (os.path.join(shm, "r.json"), ()))
    shutil.rmtree(shm)
else:
    skip_checks(["/dev/shm/NAME"] * 6, "/dev/shm is not writable here")

# ---- 6. a FIFO: written in place when someone reads it, an error at once when nobody does ------------------
fifo = os.path.join(tmp, "fifo")
os.mkfifo(fifo)
try:
    p = subprocess.run([WTG] + QUICK + ["-o", fifo], capture_output=True, text=True, timeout=120)
    check(p.returncode == 1 and p.stderr == "wtg: cannot write '%s': no reader on this FIFO\n" % fifo,
          "a FIFO nobody reads: exit 1 at once, one line, got %d %r" % (p.returncode, p.stderr))
except subprocess.TimeoutExpired:
    check(False, "a FIFO nobody reads: wtg still waited for a reader after 120 s")
# the reader opens the FIFO before wtg runs (a descriptor of this test's), and reads until wtg has ended
rfd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
p = subprocess.Popen([WTG] + QUICK + ["-o", fifo], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
got = b""
while True:
    select.select([rfd], [], [], 0.1)
    try:
        chunk = os.read(rfd, 65536)
    except BlockingIOError:
        chunk = b""
    got += chunk
    if not chunk and p.poll() is not None:
        break
err = p.stderr.read()
p.wait()
os.close(rfd)
check(p.returncode == 0 and got.startswith(b"{") and got.rstrip().endswith(b"}"),
      "a FIFO with a reader: exit 0, the reader got the whole report, got %d %r" % (p.returncode, err))

# ---- 7. every way of writing to standard output says when the write failed -----------------------------
if os.path.exists("/dev/full"):
    SAVED = saved_run(["clock"])
    for args, line in [
            (["--help"], "writing to standard output"),
            (["--version"], "writing to standard output"),
            (["--list"], "writing to standard output"),
            (["--dry-run", "--run=clock"], "writing to standard output"),
            (["--dry-run", "--format=json"], "writing to standard output"),
            (QUICK, "writing the report"),
            (["--load=" + SAVED, "--format=csv"], "writing the report"),
            (["--load=" + SAVED, "--load=" + SAVED], "writing the comparison")]:
        with open("/dev/full", "w") as full:
            p = subprocess.run([WTG] + args, stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
        check(p.returncode == 1 and p.stderr == "wtg: %s: No space left on device\n" % line,
              "%s on a full standard output: exit 1, one line, got %d %r" % (" ".join(args), p.returncode, p.stderr))
else:
    skip_checks(["a full standard output"] * 8, "there is no /dev/full here")

finish()
