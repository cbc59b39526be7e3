"""No file wtg reads is ever written: --file, every --load and --baseline against every -o (by any
spelling: ./x, dir/../x, a symlink, a hard link, a symlinked folder, /proc/self/fd/N, standard
output appended to the file), the charts of an SVG folder that link to an input, two spellings of
one new output, an SVG folder against a chart of another -o; the temp file removed when a signal
ends wtg while it writes; one line for a full standard output; -o name errors with --load as with
--run. Each attack: exit 2, one line naming both files, the input's bytes unchanged, nothing
written."""
import os
import shutil
import signal
import subprocess
import time

from wtgtest import WTG, check, datadir, finish, run

HELP = " (see 'wtg --help')\n"
d = datadir()
os.chdir(d)
data = os.path.join(d, "data.bin")
with open(data, "wb") as f:
    f.write(os.urandom(1 << 20))
FAST = ["--run=clock", "--quick", "--file=data.bin"]	# no data file to create: a fast run
TWO = ["--run=clock,passes", "--quick", "--file=data.bin"]

status, out, err = run(*TWO, "-q", "-o", "two.json")
check(status == 0, "a saved run of two experiments: exit 0 (%s)" % err.strip())
status, out, err = run(*FAST, "-q", "-o", "one.json")
check(status == 0, "a saved run of one experiment: exit 0 (%s)" % err.strip())
saved = {n: open(n, "rb").read() for n in ("data.bin", "two.json", "one.json")}
START = set(os.listdir("."))


def unchanged(what):
    same = all(open(n, "rb").read() == b for n, b in saved.items())
    new = sorted(set(os.listdir(".")) - START)
    check(same and not new, "%s: every input unchanged, nothing written: %s" % (what, new))


def refused(args, msg, what, **kw):
    kw.setdefault("stdout", subprocess.PIPE)
    p = subprocess.run([WTG] + args, stderr=subprocess.PIPE, text=True, timeout=300, **kw)
    check(p.returncode == 2 and p.stderr == "wtg: " + msg + HELP,
          "%s: exit 2 and one line, got %d %r" % (what, p.returncode, p.stderr))
    unchanged(what)


def restore():
    """The inputs as they were, so that each part stands alone after an attack not refused."""
    for n, b in saved.items():
        if os.path.islink(n) or not os.path.isfile(n) or open(n, "rb").read() != b:
            if os.path.isdir(n) and not os.path.islink(n):
                shutil.rmtree(n)
            elif os.path.lexists(n):
                os.unlink(n)
            with open(n, "wb") as f:
                f.write(b)


def fresh(folder):
    """An empty folder (whatever an attack that was not refused left in it)."""
    shutil.rmtree(folder, ignore_errors=True)
    os.mkdir(folder)


# --- 1. -o onto a --load or --baseline file, by any spelling ----------------------------------------
os.symlink("one.json", "link.json")
os.link("one.json", "hard.json")
os.mkdir("sub")
os.symlink(".", "here")
START |= {"link.json", "hard.json", "sub", "here"}
for spelling in ("one.json", "./one.json", os.path.join(d, "one.json"), "link.json", "hard.json",
                 "sub/../one.json", "here/one.json", "here/sub/../link.json"):
    refused(["--load=one.json", "-o", spelling],
            "--output '%s' is the --load file 'one.json', which wtg never writes" % spelling,
            "--load one.json -o %s" % spelling)
    refused(["--load=two.json", "--baseline=one.json", "-o", spelling],
            "--output '%s' is the --baseline file 'one.json', which wtg never writes" % spelling,
            "--load --baseline=one.json -o %s" % spelling)
for spelling in ("one.json", "here/link.json"):	# with --run: refused before measuring
    refused(FAST + ["--baseline=one.json", "-o", spelling],
            "--output '%s' is the --baseline file 'one.json', which wtg never writes" % spelling,
            "--run --baseline=one.json -o %s" % spelling)
refused(["--load=two.json", "--load=link.json", "-o", "./hard.json"],
        "--output './hard.json' is the --load file 'link.json', which wtg never writes",
        "a comparison onto the second --load file")
refused(["--load=two.json", "--baseline=here/one.json", "-o", "one.json"],
        "--output 'one.json' is the --baseline file 'here/one.json', which wtg never writes",
        "a comparison onto the --baseline file")
with open("one.json") as stdin:
    refused(["--load=/dev/stdin", "-o", "one.json"],
            "--output 'one.json' is the --load file '/dev/stdin', which wtg never writes",
            "--load=/dev/stdin from the file, -o onto it", stdin=stdin)
fd = os.open("one.json", os.O_RDONLY)
refused(["--load=one.json", "--format=json", "-o", "/proc/self/fd/%d" % fd],
        "--output '/proc/self/fd/%d' is the --load file 'one.json', which wtg never writes" % fd,
        "-o /proc/self/fd/N onto the --load file", pass_fds=(fd,))
os.close(fd)
for args, who in ((["--load=one.json", "--format=csv"], "--load file 'one.json'"),
                  (FAST + ["--baseline=link.json"], "--baseline file 'link.json'")):
    with open("hard.json", "a") as out:	# appended: the shell does not empty it first
        refused(args, "standard output is the %s, which wtg never writes" % who,
                "standard output appended to the %s" % who, stdout=out)
    with open("hard.json", "a") as out:
        refused(args + ["-o", "-"], "--output '-' is the %s, which wtg never writes" % who,
                "-o - appended to the %s" % who, stdout=out)
refused(FAST[:-1] + ["--file=here/data.bin", "-o", "sub/../data.bin", "--format=json"],
        "--output 'sub/../data.bin' is the --file data file 'here/data.bin', which wtg never writes",
        "-o onto the --file by other spellings of both")

# --- 2. the charts of an SVG folder: one that links to an input is refused ---------------------------
restore()
os.mkdir("out")
os.symlink("../data.bin", "out/clock.svg")
START |= {"out"}
refused(TWO + ["--format=svg", "-o", "out/"],
        "--output 'out/' (its chart 'out/clock.svg') is the --file data file 'data.bin', which wtg never writes",
        "an SVG folder whose chart links to the --file")
check(os.listdir("out") == ["clock.svg"], "no chart written: %r" % os.listdir("out"))
fresh("out")
os.symlink(os.path.join(d, "two.json"), "out/passes.svg")
refused(["--load=two.json", "--format=svg", "-o", "here/out"],
        "--output 'here/out' (its chart 'here/out/passes.svg') is the --load file 'two.json', which wtg never "
        "writes", "an SVG folder whose chart links to the --load file")
fresh("out")
with open("elsewhere.svg", "w") as f:
    f.write("old")
os.symlink("../elsewhere.svg", "out/clock.svg")
status, out, err = run("--load=two.json", "--format=svg", "-q", "-o", "out")
check(status == 0 and os.path.islink("out/clock.svg") and open("elsewhere.svg").read().startswith("<"),
      "a chart linking outside the folder to no input: written through (%d %r)" % (status, err))
os.unlink("elsewhere.svg")
fresh("out")

# --- 3. two spellings of one new output, an SVG folder against another -o's chart -------------------
restore()
os.symlink("y.json", "dangling.json")
START |= {"dangling.json"}
for first, second in (("y.json", "./y.json"), ("y.json", "here/y.json"), ("sub/../y.json", "y.json"),
                      ("y.json", "dangling.json"), (os.path.join(d, "y.json"), "here/sub/../y.json")):
    if os.path.lexists("y.json"):	# left by an attack not refused: each spelling stands alone
        os.unlink("y.json")
    refused(["--load=one.json", "-o", first, "-o", second],
            "--output '%s' is given twice (as '%s')" % (second, first), "-o %s -o %s, not there yet" % (first, second))
refused(FAST + ["-o", "y.json", "-o", "./y.json"], "--output './y.json' is given twice (as 'y.json')",
        "--run -o y.json -o ./y.json, not there yet")
refused(["--load=two.json", "--format=svg", "-o", "out", "-o", "out/passes.svg"],
        "--output 'out/passes.svg' is given twice (as 'out/passes.svg')",
        "an SVG folder and a chart of another SVG folder in it")
refused(["--load=two.json", "--format=svg", "-o", "new", "-o", "./new"],
        "--output './new' is given twice (as 'new')", "a new SVG folder twice")
refused(["--load=two.json", "--format=svg", "-o", "out", "-o", "here/out/"],
        "--output 'here/out/' (its chart 'here/out/clock.svg') is given twice (as 'out/clock.svg')",
        "an SVG folder twice")


# --- 4. a signal while a report is written: the temp file removed ------------------------------------
restore()
def killed_while_writing(args, what):
    """Run wtg under strace with its first fsync (the report's temp file) held 3 s; TERM it then."""
    if shutil.which("strace") is None or subprocess.run(["strace", "-f", "-o", "/dev/null", "true"],
                                                        capture_output=True).returncode != 0:
        check(True, "%s # SKIP strace is missing or ptrace is not permitted" % what)
        return
    if os.path.exists("pid"):
        os.unlink("pid")
    p = subprocess.Popen(["strace", "-f", "-o", "/dev/null", "-e", "trace=fsync", "-e",
                          "inject=fsync:delay_enter=3000000:when=1", "sh", "-c",
                          'echo $$ >pid.new && mv pid.new pid && exec "$0" "$@"', WTG] + args,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen = False
    for _ in range(30000):	# a loaded machine: up to 300 s for the run before the write
        temps = [n for n in os.listdir(".") if n.startswith(".a.csv.")]
        if temps and os.path.exists("pid"):
            seen = True
            break
        if p.poll() is not None:
            break
        time.sleep(0.01)
    if seen:
        os.kill(int(open("pid").read()), signal.SIGTERM)
    _, err = p.communicate(timeout=300)
    os.unlink("pid")
    left = sorted(n for n in os.listdir(".") if n.startswith(".a.csv.") or n == "a.csv")
    check(seen and left == [] and err.endswith("wtg: killed by signal 15 (terminated)\n"),
          "%s: SIGTERM while the temp file is written leaves nothing: %r %r" % (what, left, err[-200:]))
    unchanged(what)


killed_while_writing(["--load=two.json", "-o", "a.csv"], "--load -o a.csv")
killed_while_writing(FAST + ["-o", "a.csv"], "--run -o a.csv")

# --- 9. a full standard output: one line, the true cause, exit 1 ------------------------------------
restore()
if os.path.exists("/dev/full"):
    for args in (["--load=one.json", "-o", "-"], ["--load=one.json", "--format=csv", "-q", "-o", "-"],
                 FAST + ["--format=json", "-o", "-"]):
        with open("/dev/full", "w") as full:
            p = subprocess.run([WTG] + args, stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
        check(p.returncode == 1 and p.stderr == "wtg: cannot write 'standard output': No space left on device\n",
              "%s >/dev/full: exit 1 and one line, got %d %r" % (" ".join(args), p.returncode, p.stderr))
else:
    check(True, "a full standard output # SKIP no /dev/full")

# --- 10. -o name errors are usage errors with --load as with --run -----------------------------------
restore()
open("ex.svg", "w").close()
START |= {"ex.svg"}
refused(["--load=two.json", "-o", "ex.svg"], "--output 'ex.svg': svg with several experiments needs a folder",
        "--load of two experiments -o an existing ex.svg")
long_name = "a" * 300 + ".json"
refused(["--load=one.json", "-o", long_name], "--output '%s': File name too long" % long_name,
        "--load -o a name too long")
refused(FAST + ["-o", long_name], "--output '%s': File name too long" % long_name, "--run -o a name too long")

finish()
