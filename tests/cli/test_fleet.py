#!/usr/bin/env python3
"""A class of machines: about 50 generated reports (tests/fixtures/mkfleet.py) loaded from a folder
with a broken one among them; the summary's medians and quartiles against Python's type-7 quantiles
and pandas over the long CSV (per group too); one host's runs grouped; --highlight's rank; -o FOLDER/
naming with a suffix when the name is taken; the class workflow of the README run as written."""
import csv
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wtgtest import WTG, check, close, diag, finish, q7, run, skip_check  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
SRCDIR = os.environ.get("srcdir") or TOP
MKFLEET = os.path.join(SRCDIR, "tests", "fixtures", "mkfleet.py")
README = os.path.join(SRCDIR, "README")
STATS = ("machines", "min", "q1", "median", "q3", "max")

tmp = tempfile.mkdtemp(prefix="wtg-fleet-")
cls = os.path.join(tmp, "class")
N, REPEAT = 48, 2
subprocess.run([sys.executable, MKFLEET, cls, str(N), "--repeat=%d" % REPEAT, "--seed=5"], check=True)
nfiles = N + REPEAT
with open(os.path.join(cls, "0000.json")) as f:
    text = f.read()
with open(os.path.join(cls, "zz-broken.json"), "w") as f:
    f.write(text[:len(text) // 2])	# truncated, as a copy cut short would be

# ---- the folder loads, the broken report named and left out ----
status, out, err = run("--load=" + cls, "--format=csv")
lines = err.splitlines()
check(status == 1, "a broken report among them: exit status 1 (got %d)" % status)
check(lines[:1] == ["wtg: --load=%s: %d reports" % (cls, nfiles + 1)], "the folder's reports counted (%r)" % lines[:1])
broken = [l for l in lines if "zz-broken.json" in l]
check(len(lines) == 2 and len(broken) == 1 and broken[0].startswith("wtg: %s/zz-broken.json: " % cls)
      and broken[0].endswith("; left out"), "the broken report named in one line, left out (%r)" % lines[1:])

table = list(csv.DictReader(io.StringIO(out)))
check(out.startswith("run,host,experiment,kind,row,name,unit,value,status,text\n"),
      "the CSV's header is a run's CSV header (the files concatenate)")
machine = [r for r in table if r["kind"] == "machine"]
summary = [r for r in table if r["kind"] == "summary"]
groups = [r for r in table if r["kind"] == "group"]
names = sorted({r["run"] for r in machine})
check(len(names) == N, "%d machines from %d reports (%d)" % (N, nfiles, len(names)))

# ---- the statistics against type-7 quantiles of the machine lines ----
figs = {}
for r in machine:
    figs.setdefault((r["experiment"], r["name"]), {})[r["run"]] = float(r["value"])
dims = {}
for r in groups:
    dims.setdefault(r["run"], {})[r["name"]] = r["text"]
stat = {}
for r in summary:
    stat[(r["experiment"], r["name"], r["text"], r["status"])] = float(r["value"])


def expected(vals):
    v = sorted(vals)
    return {"machines": len(v), "min": v[0], "q1": q7(v, 0.25), "median": q7(v, 0.5), "q3": q7(v, 0.75),
            "max": v[-1]}


bad = []
ngroups = 0
for (exp, name), byhost in figs.items():
    want = {"all": expected(byhost.values())}
    for dim in ("virtual machine", "page-table isolation", "clock source", "page size", "vendor", "CPUs"):
        values = {dims[h][dim] for h in byhost}
        for v in values if len(values) > 1 else ():
            want["%s: %s" % (dim, v)] = expected([x for h, x in byhost.items() if dims[h][dim] == v])
    for g, st in want.items():
        ngroups += g != "all"
        for k in STATS:
            if not close(stat.get((exp, name, g, k)), st[k]):
                bad.append("%s %s %s %s: %r vs %r" % (exp, name, g, k, stat.get((exp, name, g, k)), st[k]))
check(len(figs) >= 15 and ngroups > 5 * len(figs) and not bad,
      "%d figures x %d groups: count, min, quartiles, max are type 7 over the machine lines %s"
      % (len(figs), ngroups, bad[:3]))
extra = {(e, n, g) for (e, n, g, k) in stat} - {(e, n, "all") for (e, n) in figs}
check(all(g.split(": ")[0] in ("virtual machine", "page-table isolation", "clock source", "page size", "vendor",
                                "CPUs") for (e, n, g) in extra), "no group beyond the six dimensions")

try:
    import pandas as pd
except ImportError:
    pd = None
if pd is None:
    skip_check("pandas agrees with the summary's quartiles", "the Python module pandas is not installed")
else:
    d = pd.read_csv(io.StringIO(out))
    m = d[d.kind == "machine"]
    q = m.groupby(["experiment", "name"]).value.quantile([0.25, 0.5, 0.75]).unstack()
    s = d[(d.kind == "summary") & (d.text == "all")].pivot_table(index=["experiment", "name"], columns="status",
                                                                   values="value")
    diff = [(i, c) for i in q.index for c, k in ((0.25, "q1"), (0.5, "median"), (0.75, "q3"))
            if not close(q.loc[i, c], s.loc[i, k])]
    check(len(q) == len(figs) and not diff, "pandas' quartiles over the long CSV equal the summary's (%d figures, %r)"
          % (len(q), diff[:3]))
    g = m.merge(d[(d.kind == "group") & (d.name == "page-table isolation")][["run", "text"]].rename(
        columns={"text": "pti"}), on="run")
    pm = g.groupby(["experiment", "name", "pti"]).value.median()
    diff = [i for i in pm.index if not close(pm[i], stat.get((i[0], i[1], "page-table isolation: " + i[2], "median")))]
    check(len(pm) >= 2 * len(figs) - 2 and not diff, "pandas' medians per page-table isolation group equal the "
          "summary's (%r)" % diff[:3])

# ---- one host's runs grouped; the line in words; --highlight ----
status, out, err = run("--load=" + cls, "--format=json", "--highlight=host-0003")
doc = json.loads(out) if out.startswith("{") else {}
ms = {m["name"]: m for m in doc.get("machines", [])}
check(status == 1 and doc.get("reports") == nfiles and doc.get("runs") == nfiles and len(ms) == N
      and doc.get("left_out") == [os.path.join(cls, "zz-broken.json")],
      "json: %d reports, %d runs, %d machines, the broken one listed" % (nfiles, nfiles, N))
twice = sorted(n for n, m in ms.items() if m["runs"] == 2)
check(twice == ["host-%04d" % i for i in range(REPEAT)], "the hosts reported twice are one machine each, 2 runs (%r)"
      % twice)
with open(os.path.join(cls, "0000.json")) as f0, open(os.path.join(cls, "0001.json")) as f1:
    a, b = json.load(f0), json.load(f1)
sx = [e for e in a["experiments"] if e["name"] == "syscall"][0]
r1000 = lambda d: [r for r in [e for e in d["experiments"] if e["name"] == "syscall"][0]["rows"]
                   if r["batch"] == 1000][0]["median_ns"]
check(close(ms["host-0000"]["figures"]["syscall"], (r1000(a) + r1000(b)) / 2),
      "a machine's figure is the median of its runs' (%r of %r, %r)" % (ms["host-0000"]["figures"]["syscall"],
                                                                       r1000(a), r1000(b)))
fig = [f for f in doc.get("figures", []) if f["figure"] == "syscall"]
line = fig[0]["line"] if fig else ""
diag(line)
pti = [n for n, m in ms.items() if m["groups"]["page-table isolation"] == "PTI"]
vals = sorted((m["figures"]["syscall"], n) for n, m in ms.items())
mine = ms["host-0003"]["figures"]["syscall"]
rank = 1 + sum(1 for v, n in vals if v < mine)
slow = re.search(r"; the (\d+) slowest are (\w+ )?virtual machines with page-table isolation \(([\d,.]+)-([\d,.]+) ns\)",
                 line)
check(line.startswith("syscall: %d machines, median " % N) and slow and int(slow.group(1)) == len(pti)
      and {n for v, n in vals[-len(pti):]} == set(pti),
      "the line names the slowest as the %d virtual machines with page-table isolation (%r)" % (len(pti), line))
check(re.search(r"; this one: [\d,.]+ ns, %d(st|nd|rd|th) fastest$" % rank, line) is not None,
      "--highlight: this one's figure and rank, %d (%r)" % (rank, line[-40:]))
status, out, err = run("--load=" + cls, "--highlight=nobody")
check(status == 2 and "--highlight=nobody: no machine of that name or host among the %d loaded" % N in err,
      "--highlight of a machine not loaded: exit 2, named (%r)" % err.splitlines()[-1:])

# ---- text and markdown; none loaded; formats the summary does not write ----
status, out, err = run("--load=" + cls, "--format=markdown")
check(out.startswith("# wtg: %d machines\n" % N) and "\n## syscall: " in out and "| all | %d |" % N in out,
      "markdown: a heading per figure, a table with the groups")
only = os.path.join(tmp, "none")
os.mkdir(only)
shutil.copy(os.path.join(cls, "zz-broken.json"), only)
status, out, err = run("--load=" + only, "--summary")
check(status == 2 and err.splitlines()[-1:] == ["wtg: none of the 1 --load files loaded"] and out == "",
      "none loaded: exit 2, said (%r)" % err)
import xml.dom.minidom
status, out, err = run("--load=" + cls, "--format=svg", "--highlight=host-0003")
try:
    svg = xml.dom.minidom.parseString(out)
except Exception as ex:	# noqa: BLE001 - any parse error fails the check
    svg = None
    diag("svg: %s" % ex)
slides = svg.documentElement.getElementsByTagName("svg") if svg else []
texts = [t.firstChild.data for s in slides[:2] for t in s.getElementsByTagName("text") if t.firstChild]
check(status == 1 and len(slides) == len(figs) and svg.documentElement.getAttribute("height") == str(720 * len(figs)),
      "svg: one 1280x720 slide per figure, stacked (%d of %d)" % (len(slides), len(figs)))
check(slides and len(slides[1].getElementsByTagName("circle")) == sum(
          1 + sum(1 for dim in dims[h] if len({dims[x][dim] for x in dims}) > 1) for h in dims),
      "svg: a dot per machine on the strip of all and on each of its groups' strips")
check(any(t.startswith("syscall: %d machines, median" % N) for t in texts) and
      any(t == "syscall: ns per getpid, batches of 1000" for t in texts), "svg: the figure's title and line in words")
check(slides and sum(1 for p in slides[1].getElementsByTagName("path") if p.getAttribute("fill") == "#d62728") >= 2,
      "svg: the highlighted machine marked on its strips")
status, out, err = run("--load=" + cls, "--format=html", "--highlight=host-0003")
check(status == 1 and out.startswith("<!DOCTYPE html>") and out.count("<section>") == len(figs)
      and out.count("<svg viewBox") == len(figs) and "this one: host-0003" in out,
      "html: a section per figure with its slide, line and table")
os.mkdir(os.path.join(tmp, "empty"))
status, out, err = run("--load=" + os.path.join(tmp, "empty"))
check(status == 2 and "a folder without any .json report" in err, "an empty folder: usage error")

# ---- a hostile machine block: escaped on the terminal, exact in CSV and JSON ----
hostile = os.path.join(tmp, "hostile")
shutil.copytree(cls, hostile)
os.remove(os.path.join(hostile, "zz-broken.json"))
with open(os.path.join(hostile, "0005.json")) as f:
    d = json.load(f)
d["machine"]["hostname"] = "evil\x1b[2J\u009b"
d["machine"]["virtualization"] = "kvm\x07"
for e in d["experiments"]:	# its syscall the slowest, so the summary names it as the max
    for r in e["rows"] if e["name"] == "syscall" else ():
        for k in [k for k in r if k.endswith("_ns") and isinstance(r[k], (int, float))]:
            r[k] *= 1000
with open(os.path.join(hostile, "0005.json"), "w") as f:
    json.dump(d, f)
for fmt in ("text", "markdown"):
    status, out, err = run("--load=" + hostile, "--format=" + fmt)
    check(status == 0 and "evil\\e" in out and "kvm\\x07" in out
          and not re.search("[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f]", out),
          "%s: a machine's name and group from its file are escaped (%r)" % (fmt, err[-80:]))
status, out, err = run("--load=" + hostile, "--format=json")
doc = json.loads(out) if status == 0 else {}
check("evil\x1b[2J\u009b" in [m["name"] for m in doc.get("machines", [])] and
      any(g.get("value") == "kvm\x07" for f in doc.get("figures", []) for g in f["groups"]),
      "json: the name and the group kept exact")

# ---- usage ----
for args, msg in ((["--summary"], "--summary goes with --load"),
                  (["--load=" + cls, "--run=clock"], "the summary of %d --load runs stands alone" % (nfiles + 1)),
                  (["--load=" + cls, "--baseline=" + os.path.join(cls, "0000.json")], "stands alone"),
                  (["--load=" + os.path.join(cls, "0000.json"), "--highlight=x"], "--highlight goes with the summary")):
    status, out, err = run(*args)
    check(status == 2 and msg in err and err.count("\n") == 1, "%s: usage error (%r)" % (" ".join(args)[-60:], err))
status, out, err = run("--load=" + os.path.join(cls, "0000.json"), "--summary", "--format=json")
doc = json.loads(out) if status == 0 else {}
check(doc.get("reports") == 1 and len(doc.get("machines", [])) == 1, "--summary of one report: one machine")

# ---- -o FOLDER/: named after the label and the time, a suffix when taken, written whole ----
out_dir = os.path.join(tmp, "collect")
os.mkdir(out_dir)
now = time.time()
taken = []
for dt in range(0, 60):	# every name the run could take in the next minute is taken
    name = "bob-%s.json" % time.strftime("%Y%m%d-%H%M%S", time.gmtime(now + dt))
    with open(os.path.join(out_dir, name), "w") as f:
        f.write("taken\n")
    taken.append(name)
status, out, err = run("--run=clock", "--quick", "--label=bob", "--format=json", "-o", out_dir + "/", "-q")
new = sorted(set(os.listdir(out_dir)) - set(taken))
check(status == 0 and len(new) == 1 and re.fullmatch(r"bob-\d{8}-\d{6}-2\.json", new[0]) is not None
      and new[0].replace("-2.json", ".json") in taken, "-o FOLDER/: LABEL-TIME-2.json when LABEL-TIME.json exists (%r)"
      % new)
check(all(open(os.path.join(out_dir, t)).read() == "taken\n" for t in taken), "-o FOLDER/: the taken names untouched")
doc = json.load(open(os.path.join(out_dir, new[0]))) if new else {}
check(doc.get("run", {}).get("label") == "bob" and [e["name"] for e in doc.get("experiments", [])] == ["clock"],
      "-o FOLDER/: the report is the run's JSON, whole")
status, out, err = run("--run=clock", "--quick", "--format=json", "-o", out_dir, "-q")
host = re.sub(r"[^A-Za-z0-9._-]", "_", os.uname().nodename)[:64]
new2 = sorted(set(os.listdir(out_dir)) - set(taken) - set(new))
check(status == 0 and len(new2) == 1 and re.fullmatch(re.escape(host) + r"-\d{8}-\d{6}(-\d+)?\.json", new2[0]),
      "-o FOLDER without a slash, no label: HOST-TIME.json (%r)" % new2)
check(not [n for n in os.listdir(out_dir) if n.startswith(".")], "-o FOLDER/: no temp file left")

# a name taken while the run measures (another wtg, the same label, the same second): the next one
t0 = time.time()
p = subprocess.Popen([WTG, "--run=clock", "--quick", "--label=carol", "--format=json", "-o", out_dir + "/"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                     env=dict(os.environ, WTG_TEST_HOLD="clock:3"))
time.sleep(1)
taken2 = []
for dt in range(-2, int(time.time() - t0) + 2):
    name = "carol-%s.json" % time.strftime("%Y%m%d-%H%M%S", time.gmtime(t0 + dt))
    if not os.path.exists(os.path.join(out_dir, name)):
        with open(os.path.join(out_dir, name), "w") as f:
            f.write("taken\n")
        taken2.append(name)
o, e = p.communicate(timeout=300)
new3 = sorted(n for n in os.listdir(out_dir) if n.startswith("carol-") and n not in taken2)
check(p.returncode == 0 and len(new3) == 1 and new3[0].endswith("-2.json") and new3[0].replace("-2.json", ".json")
      in taken2 and "wrote %s/%s (json" % (out_dir, new3[0]) in o,
      "-o FOLDER/: a name taken while the run measured: the next suffix, and the summary names it (%r, %r)"
      % (new3, o.splitlines()[-2:]))
check(all(open(os.path.join(out_dir, t)).read() == "taken\n" for t in taken2), "-o FOLDER/: never over a file")

# ---- the README's class, as written ----
with open(README) as f:
    readme = f.read()
block = readme.split("The class, as tests/cli/test_fleet.py runs it (NAME: each student's):\n\n", 1)[1]
cmds = []
for ln in block.splitlines():
    if not ln.startswith("    "):
        break
    cmds.append(ln.strip())
recipe = block.split("and loads\ninto pandas or sqlite3:\n\n", 1)[1].split("\n\n", 1)[0]
diag("\n".join(cmds))
work = os.path.join(tmp, "teacher")
bindir = os.path.join(tmp, "bin")
os.mkdir(work)
os.mkdir(bindir)
os.symlink(WTG, os.path.join(bindir, "wtg"))
os.symlink(sys.executable, os.path.join(bindir, "python3"))
env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))


def shell(cmd):
    p = subprocess.run(["sh", "-c", cmd], cwd=work, env=env, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


students = [c for c in cmds if "--run=" in c]
check(len(cmds) == 4 and len(students) == 1 and "NAME" in students[0], "README: the class's commands (%r)" % cmds)
results = []
for c in cmds:
    if c in students:
        for who in ("alice", "bob"):
            results.append(shell(c.replace("NAME", who)))
    else:
        results.append(shell(c.replace("NAME", "alice")))
files = sorted(os.listdir(os.path.join(work, "class")))
check(len(files) == 2 and files[0].startswith("alice-") and files[1].startswith("bob-"),
      "README: two students, two reports in the one folder (%r)" % files)
st, summ, err = results[3]
check(st == 0 and summ.startswith("wtg: 2 machines, 2 runs from 2 reports; this one: alice\n")
      and re.search(r"^  syscall: 2 machines, median .*; this one: [\d,.]+ ns, [12](st|nd) fastest$", summ, re.M),
      "README: the load of the folder summarizes the two machines, alice placed (%r)" % summ[:80])
ccsv = os.path.join(work, "class.csv")
rows = list(csv.DictReader(open(ccsv))) if os.path.exists(ccsv) else []
check(results[4][0] == 0 and {r["run"] for r in rows if r["kind"] == "machine"} == {"alice", "bob"},
      "README: the class's long CSV holds both machines")
rl = recipe.splitlines()
at = [i for i, l in enumerate(rl) if l.strip().startswith("sqlite3")][:1] or [len(rl)]
py, sq = "\n".join(l[4:] for l in rl[:at[0]]), "\n".join(l[4:] for l in rl[at[0]:])
if pd is None:
    skip_check("README: the pandas recipe runs as written", "the Python module pandas is not installed")
else:
    st, o, e = shell(py)
    check(st == 0 and re.search(r"^syscall +ns per getpid", o, re.M) and re.search(r"^clock ", o, re.M),
          "README: the pandas recipe runs as written (%r)" % (o + e)[:300])
if shutil.which("sqlite3") is None:
    skip_check("README: the sqlite3 recipe runs as written", "sqlite3 is not installed")
else:
    st, o, e = shell(sq)
    check(st == 0 and re.search(r"^syscall\|2\|", o, re.M) and re.search(r"^clock\|2\|", o, re.M),
          "README: the sqlite3 recipe counts both machines per figure (%r)" % (o + e)[:200])

shutil.rmtree(tmp)
finish()
