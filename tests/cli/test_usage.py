"""Bad input: every case exits 2 with exactly one 'wtg: ...' line naming the bad word, prints
nothing on stdout and creates no data file. Also --help, --version and --list."""
import json
import os
import re
import subprocess
import tempfile

from wtgtest import WTG, check, datadir, finish, run

HELP = " (see 'wtg --help')"
BURN_MAX = min(32 * max(os.sysconf("SC_NPROCESSORS_ONLN"), 1), 1024)  # burners per online CPU
d = datadir()
small = os.path.join(d, "small.bin")
with open(small, "wb") as f:
    f.write(b"x" * 1000)
plain = os.path.join(d, "plain.txt")
chart = os.path.join(d, "chart.svg")	# an existing file: svg of several experiments needs a folder
open(chart, "w").close()
with open(plain, "w") as f:
    f.write("not a folder\n")

CASES = [
    (["--bogus"], "unknown option '--bogus'"),
    (["--bogus=3"], "unknown option '--bogus'"),
    (["-x"], "unknown option '-x'"),
    (["--qui"], "option '--qui' is ambiguous; possibilities: '--quiet' '--quick'"),
    (["--run=clock", "--qu=1"], "option '--qu' is ambiguous; possibilities: '--quiet' '--quick'"),
    (["--run"], "option '--run' needs a value"),
    (["--run="], "--run needs experiment names, e.g. --run=syscall,valley or --run=all"),
    (["--run=nosuch"], "unknown experiment 'nosuch' in --run; 'wtg --list' names them"),
    (["--run=syscall,nosuch"], "unknown experiment 'nosuch' in --run; 'wtg --list' names them"),
    (["--run=syscall,,valley"], "empty experiment name in --run 'syscall,,valley'"),
    (["--run=syscall,"], "empty experiment name in --run 'syscall,'"),
    (["--run=syscall", "--format=xml"], "--format must be text, csv, json, markdown, svg or html, not 'xml'"),
    (["--run=syscall,clock", "--format=svg"],
     "svg draws one experiment per file: with several, -o names a folder"),
    (["--run=syscall,clock", "-o", chart],
     "--output '%s': svg with several experiments needs a folder" % chart),
    (["--run=syscall", "--replicate=0"], "--replicate must be a whole number of runs from 2 to 20, not '0'"),
    (["--run=syscall", "--replicate=x"], "--replicate must be a whole number of runs from 2 to 20, not 'x'"),
    (["--run=syscall", "--replicate=1"], "--replicate must be a whole number of runs from 2 to 20, not '1'"),
    (["--run=syscall", "--replicate=21"], "--replicate must be a whole number of runs from 2 to 20, not '21'"),
    (["--replicate=2"], "--replicate goes with --run"),
    (["--run=syscall", "--replicate=2", "--format=csv"], "--replicate prints text or json, not csv"),
    (["--run=syscall", "--replicate=2", "--load=x.json"],
     "--replicate compares its own runs, not --load or --baseline"),
    (["--run=syscall", "--replicate=2", "--dry-run"], "--dry-run plans one run, not --replicate"),
    (["--size=abc"], "--size: 'abc' is not a size (try 256M or 1G)"),
    (["--size=1.5M"], "--size: '1.5M' is not a size (try 256M or 1G)"),
    (["--size=-5M"], "--size: '-5M' is not a size (try 256M or 1G)"),
    (["--size=512K"], "--size: '512K' is below the smallest data file, 1M"),
    (["--size=1049000"], "--size: '1049000' is not a multiple of 4K"),
    (["--size=2T"], "--size: '2T' is above the largest data file, 1T"),
    (["--threads=0"], "--threads must be a whole number from 1 to 1024, not '0'"),
    (["--threads=many"], "--threads must be a whole number from 1 to 1024, not 'many'"),
    (["--threads=5000"], "--threads must be a whole number from 1 to 1024, not '5000'"),
    (["--burn=0"], "--burn must be a whole number from 1 to %d (32 per online CPU), not '0'" % BURN_MAX),
    (["--burn=two"], "--burn must be a whole number from 1 to %d (32 per online CPU), not 'two'" % BURN_MAX),
    (["--burn=%d" % (BURN_MAX + 1)],
     "--burn must be a whole number from 1 to %d (32 per online CPU), not '%d'" % (BURN_MAX, BURN_MAX + 1)),
    (["--burn=2:fire"], "--burn: unknown burner kind 'fire' (spin or stream)"),
    (["--order=clock,rain"], "unknown experiment 'rain' in --order; 'wtg --list' names them"),
    (["--order=clock,syscall,clock"], "--order names 'clock' twice"),
    (["--order=clock,,tail"], "--order needs experiment names joined by commas, not 'clock,,tail'"),
    (["--hold=0"], "--hold must be seconds from 0.5 to 600, not '0'"),
    (["--hold=5s"], "--hold must be seconds from 0.5 to 600, not '5s'"),
    (["--burn=:stream"], "--burn: a count before ':stream' is missing"),
    (["--seed=-1"], "--seed must be a whole number from 0 to 2^64-1, not '-1'"),
    (["--seed=18446744073709551616"],
     "--seed must be a whole number from 0 to 2^64-1, not '18446744073709551616'"),
    (["--time-limit=0"], "--time-limit must be whole seconds from 1 to 3600, not '0'"),
    (["--compare=syscall"], "--compare takes EXP:COND, e.g. syscall:burn, not 'syscall'"),
    (["--compare=clock:burn"],
     "--compare: 'clock' is not an experiment compare can pair "
     "(bytewise syscall valley zerofill wss readcost passes)"),
    (["--compare=syscall:rain"], "--compare: unknown condition 'rain' (burn background uncached cold)"),
    (["--file=/nonexistent/data.bin"], "--file '/nonexistent/data.bin': No such file or directory"),
    (["--file=" + d], "--file '%s' is not a regular file" % d),
    (["--file=" + small], "--file '%s' is too small: the experiments need at least 64K" % small),
    (["--file=" + plain, "--size=4M"], "--size is for the file wtg creates, not for --file"),
    (["--dir=/nonexistent/folder"], "--dir '/nonexistent/folder': No such file or directory"),
    (["--dir=" + plain], "--dir '%s' is not a folder" % plain),
    (["-o", "out.json"], "--output goes with --run"),
    (["--format=csv"], "--format goes with --run"),
    (["--run=syscall", "-o", "/nonexistent/out.json"],
     "--output '/nonexistent/out.json': folder '/nonexistent': No such file or directory"),
    (["--run=syscall", "-o", d], "--output '%s' is a folder (a report named after the host and time goes there with --format=json)" % d),
    (["stray"], "unexpected argument 'stray'"),
]

for args, msg in CASES:
    full = args if any(a.startswith(("--dir", "--file")) for a in args) else ["--dir=" + d] + args
    status, out, err = run(*full)
    what = " ".join(args)
    check(status == 2, "%s: exit status %d, expected 2" % (what, status))
    check(err == "wtg: " + msg + HELP + "\n", "%s: stderr %r, expected %r" % (what, err, "wtg: " + msg + HELP))
    check(out == "", "%s: stdout should be empty, got %r" % (what, out[:80]))

# Unambiguous prefixes of long options are taken as getopt_long takes them: --quic is --quick (the
# plan's 50000 samples for clock), --dry-r --dry-run, --form=json --format=json, --ru=clock --run=clock.
status, out, err = run("--ru=clock", "--quic", "--dry-r", "--form=json")
plan = json.loads(out) if status == 0 and out.startswith("{") else {}
check(status == 0 and [p["experiment"] for p in plan.get("plan", [])] == ["clock"] and
      plan["plan"][0]["samples"] == 50000, "prefixes --ru= --quic --dry-r --form= are taken (%d: %s)" % (status, err.strip()))

# The dashboard without a terminal is a usage error too, not a hang.
p = subprocess.run([WTG, "--dir=" + d], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                   timeout=30)
check(p.returncode == 2, "dashboard without a terminal exits 2, got %d" % p.returncode)
check(p.stderr == "wtg: the dashboard needs a terminal; use --run=LIST for headless output" + HELP + "\n",
      "dashboard without a terminal: %r" % p.stderr)

# None of the above left a data file behind.
left = sorted(set(os.listdir(d)) - {"small.bin", "plain.txt", "chart.svg"})
check(left == [], "bad input created files: %r" % left)

# --help, --version, --list
status, out, err = run("--help")
check(status == 0 and out.startswith("Usage: wtg [OPTION]...") and err == "", "--help")
for opt in ("--run=LIST", "--format=FMT", "--output=FILE", "--file=PATH", "--dir=DIR", "--size=SIZE",
            "--quick", "--threads=N", "--burn[=N][:KIND]", "--background", "--uncached", "--seed=N",
            "--compare=EXP:COND", "--order=LIST", "--hold=SEC", "--step", "--no-color", "--ascii"):
    check(opt in out, "--help mentions %s" % opt)
status, out, err = run("--version")
first = out.splitlines()[0] if out else ""
check(status == 0 and first.startswith("wtg ") and len(first.split()) == 2 and "Copyright" in out
      and "License" in out, "--version: %r" % out)

# the registry as its source declares it: the names in WTG_EXPERIMENT_LIST's order, and each one's view
# from its own file's descriptor (src/experiments/NAME.c), so a new experiment needs no edit here
EXPS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "experiments")
with open(os.path.join(EXPS, "experiments.c"), encoding="utf-8") as f:
    registry = re.search(r"#define WTG_EXPERIMENT_LIST\(X\)(.*?)\n\n", f.read(), re.S)
NAMES = re.findall(r"\bX\((\w+)\)", registry.group(1)) if registry else []
check(len(NAMES) >= 10, "the registry's source names its experiments: %r" % NAMES)
VIEWS = {}
for name in NAMES:
    with open(os.path.join(EXPS, name + ".c"), encoding="utf-8") as f:
        view = re.search(r"\.view = WTG_VIEW_([A-Z]+)", f.read())
    VIEWS[name] = view.group(1).lower() if view else None
status, out, err = run("--list")
lines = out.splitlines()
check(status == 0 and len(lines) == len(NAMES), "--list prints %d lines, got %d" % (len(NAMES), len(lines)))
check([l.split()[0] for l in lines] == NAMES, "--list order: %r" % [l.split()[0] for l in lines])
check(all(l.split()[1] == VIEWS[l.split()[0]] for l in lines), "--list views")
check(all(l.rstrip().endswith("?") for l in lines),
      "--list: every line ends with its question")
# the typical duration, default and --quick, after the view; the guide's table says the same
took = [re.match(r"\S+\s+\S+\s+~(\d+) s \(quick ~(\d+) s\)\s+\S", l) for l in lines]
check(all(took), "--list: every line has '~N s (quick ~M s)': %r" % [l for l, t in zip(lines, took) if not t])
if all(took):
    full = [int(t.group(1)) for t in took]
    quick = [int(t.group(2)) for t in took]
    check(all(0 < q <= f for q, f in zip(quick, full)), "--list: 0 < quick <= default for each experiment")
    readme = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "doc", "guide.txt")).read()
    for name, f, q in zip(NAMES, full, quick):
        check(re.search(r"\n    %s\s+~%d s / ~%d s\s" % (name, f, q), readme) is not None,
              "the guide's experiment table gives %s ~%d s / ~%d s" % (name, f, q))

os.unlink(small)
os.unlink(plain)
os.unlink(chart)
os.rmdir(d)
finish("test_usage")
