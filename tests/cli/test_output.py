"""Outputs: JSON schema 2 validated against the shipped schema, the CSV as one table, Markdown,
several -o in one run with the text summary, the -o safety rules (never onto --file, never
renaming over /dev or /proc names, symlinks, owner and mode kept, write errors), the numeric
locale, a closed pipe, the progress line, --version and --help."""
import csv
import io
import json
import locale
import os
import re
import resource
import shutil
import stat
import subprocess
import sys
import tempfile

from wtgtest import WTG, check, datadir, experiment, finish_clean, run, shm_writable, skip_check, skip_checks

TOP_SRCDIR = os.environ.get("top_srcdir") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
SCHEMA = os.path.join(TOP_SRCDIR, "data", "wtg-report.schema.json")

d = datadir()
user_file = os.path.join(d, "data.bin")
with open(user_file, "wb") as f:
    f.write(os.urandom(1 << 20))
user_bytes = open(user_file, "rb").read()
FAST = ["--run=clock", "--quick", "--file=" + user_file]	# no data file to create: a fast run


def path(name):
    return os.path.join(d, name)


def cleanup(*names):
    for n in names:
        p = path(n)
        if os.path.islink(p) or os.path.isfile(p):
            os.unlink(p)


def leftovers():
    return sorted(n for n in os.listdir(d) if n != "data.bin")


# --- one run, four outputs, the summary on the terminal ------------------------------------------
# (its progress line, asked for, is checked below: stderr kept as bytes, its carriage returns as they are;
# no --time-limit: the options block shows the default)
p = subprocess.run([WTG, "--run=clock,syscall", "--quick", "--dir=" + d, "-o", path("r.json"), "-o", path("r.csv"),
                    "-o", path("r.md"), "-o", path("r.txt"), "--progress=always"], capture_output=True, timeout=300)
status, out, progress = p.returncode, p.stdout.decode(), p.stderr.decode(errors="replace")
err = progress.rsplit("\r\033[K", 1)[-1]	# what follows the erased line
check(status == 0, "four outputs: exit 0 (%s)" % err.strip())
check(leftovers() == ["r.csv", "r.json", "r.md", "r.txt"], "four outputs written: %r" % leftovers())
lines = out.splitlines()
check(any(l.split()[:2] == ["clock", "done"] for l in lines), "the summary lists clock: %r" % out)
check(sum(l.startswith("wrote ") for l in lines) == 4, "the summary names the four files")
check(bool(lines) and re.fullmatch(r"2 experiments, checks: \d+ ok, \d+ warn, \d+ failed, [\d.]+ s", lines[-1]),
      "the summary ends with the closing line: %r" % (lines[-1:] if lines else out))

# JSON: schema 2, valid against the shipped schema, the run and machine context
doc = json.load(open(path("r.json")))
try:
    import jsonschema
except ImportError:
    jsonschema = None


_validator = []


def check_schema(doc, what):
    """doc is valid against the shipped schema, or a skipped check without jsonschema. (As
    jsonschema.validate does: the schema checked against its metaschema, then doc against the schema;
    the schema once, one validator for every doc.)"""
    if jsonschema is None:
        skip_check(what, "the Python module jsonschema is not installed")
        return
    try:
        if not _validator:
            schema = json.load(open(SCHEMA))
            cls = jsonschema.validators.validator_for(schema)
            cls.check_schema(schema)
            _validator.append(cls(schema))
        _validator[0].validate(doc)
        check(True, what)
    except jsonschema.ValidationError as e:
        check(False, "%s: %s at %s" % (what, e.message, list(e.absolute_path)))


check_schema(doc, "the JSON validates against the schema")
check(doc["schema"] == 2, "schema 2")

# JSON headlines: every experiment of a saved run carries its headline figures and verdict line, valid
# against the schema, each figure the value the regression gate reads for that run
FIXTURE = os.path.join(TOP_SRCDIR, "tests", "fixtures", "views.json")
status, saved_out, err = run("--load", FIXTURE, "--format=json")
saved_doc = json.loads(saved_out) if status == 0 else {"experiments": []}
check(status == 0, "json from a saved run: exit 0 (%s)" % err.strip())
check_schema(saved_doc, "the saved run's JSON (headlines, verdict) validates against the schema")
status, gate_out, err = run("--load", FIXTURE, "--load", FIXTURE, "--format=json")
gate = {(g["experiment"], g["figure"]): g for g in json.loads(gate_out)["figures"] if g["run"] == 0} \
    if status == 0 else {}
check(len(gate) >= 10, "the gate reads the saved run's headline figures: %d" % len(gate))
heads = [(e["name"], h) for e in saved_doc["experiments"] for h in e.get("headlines", [])]
check({(n, h["figure"]) for n, h in heads} == set(gate), "the JSON's headlines are the gate's figures")
for n, h in heads:
    g = gate.get((n, h["figure"]), {})
    check(g.get("value") == h["value"] and g.get("unit") == h["unit"]
          and g.get("better") == ("higher" if h["higher_better"] else "lower"),
          "%s: headline %r = %r %s, as the gate reads it" % (n, h["figure"], h["value"], h["unit"]))
syscall = experiment(saved_doc, "syscall") or {}
check(syscall.get("verdict", "").startswith("one kernel crossing = "), "syscall's verdict line: %r"
      % syscall.get("verdict"))
# why here: the saved run's machine (bhyve, page-table isolation) and its 1,113 ns against the essay's 89
check(syscall.get("why_here") == "13x the essay's: page-table isolation on a bhyve virtual machine",
      "syscall's why_here names what the saved machine record says: %r" % syscall.get("why_here"))
check((experiment(saved_doc, "kernels") or {}).get("why_here", "missing") is None,
      "an experiment without declared reasons has why_here null")
check((experiment(saved_doc, "clock") or {}).get("why_here", "missing") is None,
      "clock's 20 ns pair is near the essay's 41: why_here null")
check((experiment(saved_doc, "mmap") or {}).get("why_here")
      == "814x the essay's a fault: one fault maps 260 pages, not one",
      "mmap's why_here counts the pages a fault maps: %r" % (experiment(saved_doc, "mmap") or {}).get("why_here"))
status, text_out, err = run("--load", FIXTURE, "--format=text")
check(status == 0 and "  why here: 13x the essay's: page-table isolation on a bhyve virtual machine\n" in text_out,
      "the text report writes the why-here line (%d: %s)" % (status, err.strip()))
sc = syscall.get("headlines", [])
check(len(sc) == 1 and sc[0]["ci_low"] <= sc[0]["value"] <= sc[0]["ci_high"],
      "syscall's headline holds its interval: %r" % sc)

r = doc["run"]
check(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", r["timestamp"]) is not None, "run timestamp: ISO 8601 UTC")
check(isinstance(r["duration_s"], (int, float)) and r["duration_s"] > 0, "run duration_s")
check(r["options"]["run"] == ["syscall", "clock"] and r["options"]["seed"] == 1
      and r["options"]["quick"] is True and r["options"]["time_limit_s"] == 10,
      "run options: every option, defaults included: %r" % r["options"])
check([o["format"] for o in r["options"]["output"]] == ["json", "csv", "markdown", "text"],
      "run options: the outputs and their formats")
check(r["conditions_at_start"]["burners"] == 0, "the conditions at start")
m = doc["machine"]
for key in ("hostname", "kernel", "os", "cpu_model", "cpus_online", "memory_bytes", "page_size", "caches", "thp",
            "clocksource", "governor", "boost", "smt", "mitigations", "virtualization", "compiler"):
    check(key in m, "machine." + key + " present (null when not exposed)")
check(m["cpus_online"] == os.cpu_count(), "machine.cpus_online is this machine's")
check(m["page_size"] == os.sysconf("SC_PAGE_SIZE"), "machine.page_size is this machine's")
check(m["memory_bytes"] == os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"), "machine.memory_bytes")
vdir = "/sys/devices/system/cpu/vulnerabilities"
if os.path.isdir(vdir):
    check(sorted(m["mitigations"]) == sorted(os.listdir(vdir)), "mitigations: one per vulnerabilities file")
check(m["compiler"]["cc"] is not None and m["compiler"]["flags"] is not None, "the compiler and its flags")
clock = [e for e in doc["experiments"] if e["name"] == "clock"][0]
cols = [c["name"] for c in clock["columns"]]
check(all(isinstance(x, dict) and list(x) == cols for x in clock["rows"]), "rows: objects keyed by column, in order")
check(all(c["status"] in ("ok", "warn", "fail") for c in clock["checks"]), "checks carry a status")
cs = clock["checks_summary"]
check(cs["ok"] + cs["warn"] + cs["fail"] == len(clock["checks"]), "checks_summary sums to the checks")
for sr in clock["series"]:
    check(len(sr["samples"]) <= 65536 and sr["count"] >= len(sr["samples"]), "series bounded")
    check(sr["thinned"] == (sr["count"] > len(sr["samples"])) and (sr["note"] is not None) == sr["thinned"],
          "a thinned series says so")

# CSV: one header, ten fields on every record, the same values as the JSON
CSV_HEADER = ["run", "host", "experiment", "kind", "row", "name", "unit", "value", "status", "text"]
text = open(path("r.csv"), newline="").read()


def dict_records(table):
    """The records after the header as dicts keyed by it, as csv.DictReader gives them (blank lines
    skipped, a short record's missing fields None, a long one's extra fields a list under None), without
    its per-record Python overhead: this CSV holds tens of thousands of records."""
    head = table[0] if table else []
    out = []
    for rec in table[1:]:
        if not rec:
            continue
        d = dict(zip(head, rec))
        if len(rec) != len(head):
            d.update({k: None for k in head[len(rec):]})
            if len(rec) > len(head):
                d[None] = rec[len(head):]
        out.append(d)
    return out


table = list(csv.reader(io.StringIO(text)))
widths = {len(rec) for rec in table}
check(widths == {10}, "csv: every record has ten fields: %r" % widths)
recs = dict_records(table)
check(list(recs[0]) == CSV_HEADER, "csv: the header")
check({(x["run"], x["host"]) for x in recs} == {(doc["run"]["timestamp"], doc["machine"]["hostname"])},
      "csv: every record starts with the run (its start without --label) and the host")
cells = {(x["row"], x["name"]): x for x in recs if x["experiment"] == "clock" and x["kind"] == "cell"}
row0 = clock["rows"][0]
check(all(c in [k[1] for k in cells] for c in cols), "csv: every column of clock")
check(cells[("0", "samples")]["value"] == str(row0["samples"]), "csv: a value equals the JSON's")
check(cells[("0", "median_ns")]["unit"] == "ns", "csv: units in their column")
check(cells[("0", "operation")]["value"] == "" and cells[("0", "operation")]["text"] == row0["operation"],
      "csv: a text cell's words in text, its value empty")
check(sum(x["kind"] == "check" and x["experiment"] == "clock" for x in recs) == len(clock["checks"]),
      "csv: one record per check")
check(all(x["row"] == "" and x["value"] == "" for x in recs if x["kind"] in ("check", "note", "state")),
      "csv: checks, notes and states name no row and no value")
check(all(re.fullmatch(r"\d+", x["row"]) for x in recs if x["kind"] in ("cell", "sample")),
      "csv: cells and samples name their row")
check([x["status"] for x in recs if x["kind"] == "check" and x["experiment"] == "clock"] ==
      [c["status"] for c in clock["checks"]], "csv: the checks' status")
check([x["text"] for x in recs if x["kind"] == "note" and x["experiment"] == "clock"] == clock["notes"],
      "csv: the notes in order, in text")
numeric = re.compile(r"-?\d+(\.\d*)?([eE][-+]?\d+)?")
check(all(x["value"] == "" or numeric.fullmatch(x["value"]) for x in recs), "csv: value holds numbers only")

# the same run as if saved on another machine under a label, read back and written as CSV: the two
# files concatenated (the second without its header) read as one table with numeric columns
other = json.loads(json.dumps(doc))
other["machine"]["hostname"] = "other-host"
other["run"]["label"] = "other, \"quoted\""
with open(path("other.json"), "w") as f:
    json.dump(other, f)
status, out2, err = run("--load=" + path("other.json"), "--format=csv")
check(status == 0 and out2.startswith(",".join(CSV_HEADER) + "\n"), "csv of a saved run (%s)" % err.strip())
both = text + out2.split("\n", 1)[1]
recs2 = dict_records(list(csv.reader(io.StringIO(both))))
check({(x["run"], x["host"]) for x in recs2} == {(doc["run"]["timestamp"], doc["machine"]["hostname"]),
                                                 ('other, "quoted"', "other-host")},
      "csv: two files concatenated keep their run and host apart")
try:
    import pandas
    from pandas.api.types import is_numeric_dtype
    df = pandas.read_csv(io.StringIO(both))
    check(list(df.columns) == CSV_HEADER, "pandas loads it")
    check(is_numeric_dtype(df["value"]) and is_numeric_dtype(df["row"]),
          "pandas: value and row are numeric as read (%s, %s)" % (df["value"].dtype, df["row"].dtype))
    rows = df["row"].dropna()
    check(bool((rows == rows.round()).all()), "pandas: rows are whole numbers")
    med = df[(df.kind == "cell") & (df.experiment == "clock") & (df.name == "median_ns") & (df.row == 0)]
    check(sorted(med.host) == sorted([doc["machine"]["hostname"], "other-host"]) and
          list(med.value) == [row0["median_ns"]] * 2, "pandas: one median per host, as the JSON's number")
    joined = pandas.concat([pandas.read_csv(path("r.csv")), pandas.read_csv(io.StringIO(out2))])
    check(is_numeric_dtype(joined["value"]) and joined.groupby("host").size().shape == (2,),
          "pandas.concat of the two files: numeric values, two hosts")
except ImportError:
    check(True, "pandas reads it # SKIP pandas is not installed")
cleanup("other.json")

# Markdown: the summary on top, per experiment a heading, a table with units, checks and notes
md = open(path("r.md")).read()
check(md.startswith("# wtg ") and "- **machine**: " in md and "- **run**: " in md, "markdown: machine and run on top")
check("\n## clock: How fine is the stopwatch?\n" in md, "markdown: a heading per experiment")
check("| operation | samples [count] | mean\\_ns [ns] |" in md, "markdown: units in the header")
check(re.search(r"\nChecks: \d+ ok, \d+ warn, \d+ failed\.\n", md) is not None, "markdown: the checks line")
check("\n> " in md, "markdown: the notes")
txt = open(path("r.txt")).read()
check(re.search(r"\n2 experiments, checks: \d+ ok, \d+ warn, \d+ failed, [\d.]+ s\n$", txt) is not None,
      "the text report ends with the summary line")
# the runs line says what ran: --quick's counts, in text, JSON and HTML (the saved run converted)
QUICK_RUNS = {"clock": "50000 back-to-back clock_gettime(CLOCK_MONOTONIC) pairs",
              "syscall": "in batches of 1..10000 calls, 100 batches each"}
for e in doc["experiments"]:
    check(QUICK_RUNS[e["name"]] in e["runs"], "json: %s's runs line has --quick's count: %r" % (e["name"], e["runs"]))
flat = " ".join(txt.split())
check("runs: " + QUICK_RUNS["clock"] in flat and QUICK_RUNS["syscall"] in flat and
      "200 batches" not in flat and "200000" not in flat, "text: the runs lines have --quick's counts")
status, html, err = run("--load=" + path("r.json"), "--format=html")
check(status == 0 and all(r in html for r in QUICK_RUNS.values()) and "200 batches" not in html,
      "html: the runs lines have --quick's counts (%d: %s)" % (status, err.strip()))
cleanup("r.json", "r.csv", "r.md", "r.txt")

# --quiet: the files and nothing on the terminal; -o -: the report on stdout, no summary
status, out, err = run(*FAST, "-q", "-o", path("q.json"))
check(status == 0 and out == "" and os.path.isfile(path("q.json")), "--quiet: nothing on stdout")
status, out, err = run(*FAST, "--format=csv", "-o", "-", "-o", path("q.md"))
check(status == 0 and out.startswith("run,host,experiment,kind,") and "wrote" not in out, "-o - is stdout, no summary mixed in")
cleanup("q.json", "q.md")

# --- usage errors, before measuring ---------------------------------------------------------------
def usage(args, msg, what):
    status, out, err = run(*args)
    check(status == 2 and err == "wtg: %s (see 'wtg --help')\n" % msg,
          "%s: exit 2 and one line, got %d %r" % (what, status, err))
    check(leftovers() == [], "%s: nothing written: %r" % (what, leftovers()))


usage(FAST + ["-o", path("a.json"), "-o", path("a.json")],
      "--output '%s' is given twice (as '%s')" % (path("a.json"), path("a.json")), "two outputs to one path")
usage(FAST + ["-o", path("a.xyz")], "--output '%s': unknown file ending (.txt .csv .json .md .svg .html), "
      "or give --format" % path("a.xyz"), "an unknown ending")
usage(FAST + ["--format=json", "-o", "-", "-o", "/dev/stdout"], "--output '/dev/stdout' is given twice (as '-')", "stdout twice")
status, out, err = run(*FAST, "--format=json", "-q", "-o", path("a.xyz"))
check(status == 0 and json.load(open(path("a.xyz")))["schema"] == 2, "an unknown ending with --format: written")
cleanup("a.xyz")

# -o onto the --file data file, by any spelling: refused, the file untouched
os.symlink(user_file, path("link.bin"))
os.link(user_file, path("hard.bin"))
here = os.getcwd()
os.chdir(d)
for spelling in ("data.bin", "./data.bin", user_file, path("link.bin"), path("hard.bin")):
    status, out, err = run("--run=clock", "--quick", "--file=" + user_file, "--format=json", "-o", spelling)
    check(status == 2 and err == "wtg: --output '%s' is the --file data file '%s', which wtg never writes "
          "(see 'wtg --help')\n" % (spelling, user_file), "-o %s onto --file: refused: %d %r" % (spelling, status, err))
fd = os.open(user_file, os.O_RDONLY)
p = subprocess.run([WTG, "--run=clock", "--quick", "--file=" + user_file, "--format=json", "-o",
                    "/proc/self/fd/%d" % fd], capture_output=True, text=True, pass_fds=(fd,))
os.close(fd)
check(p.returncode == 2 and "is the --file data file" in p.stderr, "-o /proc/self/fd/N onto --file: refused")
os.chdir(here)
check(open(user_file, "rb").read() == user_bytes, "the --file data file is unchanged")
cleanup("link.bin", "hard.bin")

# --- /dev and /proc names are written into, never renamed over -------------------------------------
for name in ("/dev/stdout", "/proc/self/fd/1", "/dev/fd/1"):
    with open(path("redir.json"), "w") as f:
        p = subprocess.run([WTG] + FAST + ["--format=json", "-o", name], stdout=f, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, "-o %s with stdout in a file: exit 0 (%s)" % (name, p.stderr.strip()))
    try:
        ok = json.load(open(path("redir.json")))["schema"] == 2
    except ValueError:
        ok = False
    check(ok, "-o %s: the redirected file holds the JSON alone" % name)
check(os.path.islink("/dev/stdout"), "/dev/stdout is still a link")
cleanup("redir.json")

# through a symlink: the target is replaced, the link stays; an existing file keeps owner and mode
with open(path("target.json"), "w") as f:
    f.write("old")
os.chmod(path("target.json"), 0o640)
if os.geteuid() == 0:
    os.chown(path("target.json"), 4321, 4321)
os.symlink("target.json", path("via.json"))
status, out, err = run(*FAST, "-q", "-o", path("via.json"))
check(status == 0 and os.path.islink(path("via.json")), "-o through a symlink: the link stays")
st = os.stat(path("target.json"))
check(json.load(open(path("target.json")))["schema"] == 2, "-o through a symlink: the target holds the report")
check(stat.S_IMODE(st.st_mode) == 0o640, "the replaced file keeps its mode: %o" % stat.S_IMODE(st.st_mode))
if os.geteuid() == 0:
    check(st.st_uid == 4321 and st.st_gid == 4321, "the replaced file keeps its owner")
else:
    skip_check("the replaced file keeps its owner", "only root can give the file another owner to keep")
cleanup("via.json", "target.json")

# a write error (a file size limit): one line, exit 1, no temp file, no output, not killed
def small_limit():
    resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))


p = subprocess.run([WTG] + FAST + ["-q", "-o", path("big.json")], capture_output=True, text=True,
                   preexec_fn=small_limit)
check(p.returncode == 1 and p.stderr == "wtg: cannot write '%s': File too large\n" % path("big.json"),
      "a file size limit: exit 1 and one line, got %d %r" % (p.returncode, p.stderr))
check(leftovers() == [], "a file size limit: no temp file, no output: %r" % leftovers())

# --- a closed pipe ends quietly; the data file is still removed -------------------------------------
p = subprocess.Popen("'%s' --run=clock --quick --format=json --dir='%s' | head -c 10 >/dev/null" % (WTG, d),
                     shell=True, stderr=subprocess.PIPE, text=True)
_, err = p.communicate(timeout=300)
check(err == "", "a closed pipe: no error line: %r" % err)
check(leftovers() == [], "a closed pipe: the data file is removed: %r" % leftovers())

# --- the progress line: on a terminal or when asked, never in a pipe ---------------------------------
# (the four-output run's, which asked for it: syscall first, then clock)
check("\r\033[K[1/2] syscall: step " in progress and "\r\033[K[2/2] clock: " in progress
      and progress.endswith("\r\033[K"), "--progress=always: a self-erasing line: %r" % progress[-80:])
# each state of the line: the experiment, its step, the time taken and the time left estimated (from
# the --dry-run estimate, then from the share of steps done), as hyperfine and fio show them
DUR = r"(< 1 s|\d+ s|\d+ min \d\d s)"
states = [x for x in progress.split("\r\033[K") if x]
shape = re.compile(r"\[(1/2\] syscall|2/2\] clock): (starting|step \d+ of \d+)[^;]*; %s elapsed, left (~%s|< 1 s)"
                   % (DUR, DUR))
check(states and all(shape.fullmatch(x) for x in states),
      "--progress=always: every line says the time elapsed and the time left: %r" %
      [x for x in states if not shape.fullmatch(x)][:2])
status, out, err = run(*FAST, "--format=json")
check(status == 0 and err == "", "no progress line into a pipe: %r" % err)

# --- the decimal separator under a comma locale ------------------------------------------------------
# de_DE.UTF-8 made from de_DE's numbers and POSIX's other categories (a whole de_DE, its character
# classes compiled for UTF-8, took 2.4 s of CPU; the numbers are what this checks)
loc = tempfile.mkdtemp(dir=d)
with open(os.path.join(loc, "source"), "w") as f:
    for cat in ("LC_CTYPE", "LC_COLLATE", "LC_TIME", "LC_MONETARY", "LC_MESSAGES", "LC_PAPER", "LC_NAME",
                "LC_ADDRESS", "LC_TELEPHONE", "LC_MEASUREMENT", "LC_IDENTIFICATION", "LC_NUMERIC"):
        f.write('%s\ncopy "%s"\nEND %s\n' % (cat, "de_DE" if cat == "LC_NUMERIC" else "POSIX", cat))
made = subprocess.run(["localedef", "-i", os.path.join(loc, "source"), "-f", "UTF-8",
                       os.path.join(loc, "de_DE.UTF-8")],
                      capture_output=True).returncode in (0, 1) and os.path.isdir(os.path.join(loc, "de_DE.UTF-8"))
env = {"LOCPATH": loc, "LC_ALL": "de_DE.UTF-8"}


def comma_locale():
    """The locale made above gives ',' as the decimal point (asked in this process: glibc reads LOCPATH
    when the locale is set), this process's locale put back after."""
    before = locale.setlocale(locale.LC_ALL)
    os.environ["LOCPATH"] = loc
    try:
        locale.setlocale(locale.LC_ALL, "de_DE.UTF-8")
        return locale.localeconv()["decimal_point"] == ","
    except locale.Error:
        return False
    finally:
        locale.setlocale(locale.LC_ALL, before)
        del os.environ["LOCPATH"]


comma = made and comma_locale()
if comma:
    status, out, err = run(*FAST, "--format=json", env=env)
    doc = json.loads(out)
    clock = [e for e in doc["experiments"] if e["name"] == "clock"][0]
    texts = " ".join(clock["notes"] + [c["detail"] or "" for c in clock["checks"]])
    check(re.search(r"\d,\d{1,2}(?!\d)", texts) is None and re.search(r"\d\.\d", texts) is not None,
          "under de_DE the notes use '.' like the numbers: %r" % texts[:300])
    status, out, err = run(*FAST, "--format=text", env=env)
    check(re.search(r"\d,\d{1,2}(?!\d)", out) is None, "under de_DE the text report uses '.'")
else:
    skip_checks(["under de_DE the notes use '.' like the numbers", "under de_DE the text report uses '.'"],
                "no comma locale could be made (localedef de_DE.UTF-8)")
shutil.rmtree(loc)

# --- --version and --help -------------------------------------------------------------------------------
status, out, err = run("--version")
check(status == 0 and out.startswith("wtg ") and "Copyright" in out and "License" in out, "--version: licence lines")
status, out, err = run("--help")
tail = out.rstrip("\n").splitlines()[-2:]
check(status == 0 and tail[0].startswith("Report bugs to: ") and "documentation: man wtg" in tail[1],
      "--help ends with where to report bugs and where the documentation is: %r" % tail)
for word in ("--quiet", "--progress=WHEN", "markdown"):
    check(word in out, "--help names " + word)

# machine.topology, read under WTG_SYSFS_ROOT from a fixture tree: a two-socket 192-CPU SMT2 server
fixture = tempfile.mkdtemp(prefix="wtg-test-sysfs-", dir="/dev/shm" if shm_writable() else None)	# tmpfs: cheaper
try:
    src = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(__file__), "..", "..")
    sys.path.insert(0, os.path.join(src, "tests", "fixtures"))
    sys.dont_write_bytecode = True	# nothing written into the source tree
    import mksysfs
    mksysfs.MACHINES["server192"]().write(fixture)
    status, out, err = run("--run=clock", "--quick", "--format=json", env={"WTG_SYSFS_ROOT": fixture})
    topo = json.loads(out)["machine"].get("topology") if status == 0 else None
    check(topo is not None and (topo["packages"], topo["cores"], topo["smt"]) == (2, 96, 2),
          "machine.topology of the fixture server: 2 packages, 96 cores, SMT2: %r" % topo)
    nodes = topo["numa_nodes"] if topo else []
    check([(n["node"], n["cpus"], n["distances"]) for n in nodes] ==
          [(0, "0-47,96-143", [10, 21]), (1, "48-95,144-191", [21, 10])],
          "machine.topology: two nodes with their CPU ranges and distances: %r" % nodes)
    check(topo is not None and topo["summary"] == "2 packages, 96 cores, SMT2, 2 NUMA nodes",
          "machine.topology: the one-line summary: %r" % (topo and topo["summary"]))
finally:
    shutil.rmtree(fixture, ignore_errors=True)

os.unlink(user_file)
finish_clean()
