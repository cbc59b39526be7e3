"""The headless reports a reader takes in at a glance, from the saved run tests/fixtures/views.json
(nothing measured but one quick experiment): the text report fits 80 columns by default (on a pipe,
and on a terminal of 80 columns), a terminal's own width when wider, every table whole with --wide;
a folded table keeps every column and value; the CSV and Markdown carry the JSON's headlines and
verdicts (CSV kinds headline and verdict); the HTML names each experiment once as a heading;
roofline's chart marks its ridge and ticks each decade of both log axes."""
import csv
import fcntl
import io
import json
import math
import os
import re
import shutil
import struct
import subprocess
import termios
import xml.etree.ElementTree as ET

from wtgtest import WTG, check, datadir, experiment, finish, run, saved_run, skip_check

FIXTURE = saved_run()
with open(FIXTURE) as f:
    DOC = json.load(f)


def widest(text):
    lines = text.splitlines()
    return max((len(l) for l in lines), default=0), lines


def on_terminal(args, cols, env=None):
    """wtg's standard output on a pseudo-terminal of cols columns: (status, text)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, cols, 0, 0))
    e = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    e.update(env or {})
    p = subprocess.Popen([WTG] + args, stdout=slave, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=e)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:	# EIO: the other end closed
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    status = p.wait(timeout=120)
    return status, out.decode("utf-8", "replace").replace("\r\n", "\n")


def section(text, name):
    """The text report's part about experiment name: from its "== name:" line to the next."""
    m = re.search(r"^== %s: .*?(?=^== |\Z)" % re.escape(name), text, re.S | re.M)
    return m.group(0) if m else ""


# --- text at 80 columns -----------------------------------------------------------------------------
status, text, err = run("--load=" + FIXTURE)
w, lines = widest(text)
check(status == 0 and w <= 80, "--load of --run=all --quick, on a pipe: every line <= 80 columns (widest %d: %r)"
      % (w, [l for l in lines if len(l) > 80][:2]))
check(len([e for e in DOC["experiments"]]) == len(re.findall(r"^== \w+: ", text, re.M)),
      "every experiment has its section")
status, tty80 = on_terminal(["--load=" + FIXTURE], 80)
w80, _ = widest(tty80)
check(status == 0 and w80 <= 80 and tty80.strip() == text.strip(),
      "on a terminal of 80 columns: every line <= 80 (widest %d), the same report as on a pipe" % w80)
status, tty120 = on_terminal(["--load=" + FIXTURE], 120)
w120, _ = widest(tty120)
check(status == 0 and 80 < w120 <= 120, "on a terminal of 120 columns: its width is used (widest %d)" % w120)
status, tty_env = on_terminal(["--load=" + FIXTURE], 120, {"COLUMNS": "100"})
wenv, _ = widest(tty_env)
check(status == 0 and 80 < wenv <= 100, "COLUMNS=100 on a terminal: 100 columns (widest %d)" % wenv)

# a folded table keeps every column, its unit and every value: valley's, about 150 columns wide whole
valley = experiment(DOC, "valley")
names = [c["name"] for c in valley["columns"] if not c["name"].startswith(("probe_", "cond_"))]
part = section(text, "valley")
heads = [l.split() for l in part.splitlines() if l.strip().startswith("bufsize")]
check(len(heads) >= 2 and all(h[0] == "bufsize" for h in heads),
      "valley's table is folded into %d parts, each led by the key bufsize" % len(heads))
check(sorted(sum((h[1:] for h in heads), [])) == sorted(names[1:]),
      "every other column of valley in exactly one part: %r" % heads)
for h in heads:
    rows = [l.split() for l in part.splitlines()
            if re.match(r"^ +[0-9,]+ ", l) and len(l.split()) == len(h)]
    check(len(rows) >= len(valley["rows"]), "part %s..: a line per row (%d)" % (h[1], len(rows)))

# --wide: the full table on one line per row
status, wide, err = run("--load=" + FIXTURE, "--wide")
ww, _ = widest(wide)
whead = [l.split() for l in section(wide, "valley").splitlines() if l.strip().startswith("bufsize")]
check(status == 0 and ww > 120 and whead == [names],
      "--wide: valley's table whole, one header of every column (widest line %d)" % ww)

# a table one of whose columns will not fit beside its key: a block per row, "name [unit]: value"
long_doc = json.loads(json.dumps(DOC))
long_doc["experiments"] = [e for e in long_doc["experiments"] if e["name"] == "bytewise"]
LONG = "a variant whose name runs on " + "and on " * 14 + "end"
long_doc["experiments"][0]["rows"][0]["variant"] = LONG
path = os.path.join(datadir(), "long-variant.json")
with open(path, "w") as f:
    json.dump(long_doc, f)
status, out, err = run("--load=" + path)
wl, lines = widest(out)
check(status == 0 and wl <= 80, "a 130-column cell: every line <= 80 still (widest %d)" % wl)
check(re.search(r"^    bytes \[B\]: +1,048,576$", out, re.M) and re.sub(r"\s+", "", LONG) in re.sub(r"\s+", "", out),
      "its rows as blocks: 'bytes [B]: 1,048,576', the long name whole")

# a live quick run of one experiment, on a pipe
status, live, err = run("--run=syscall", "--quick", "--dir=" + datadir())
wlive, lines = widest(live)
check(status == 0 and 0 < wlive <= 80 and "batch" in live,
      "--run=syscall --quick: every line <= 80 columns (widest %d)" % wlive)

# --- CSV and Markdown carry the JSON's headlines and verdicts ------------------------------------
status, jout, err = run("--load=" + FIXTURE, "--format=json")
jdoc = json.loads(jout)
status, cout, err = run("--load=" + FIXTURE, "--format=csv")
recs = list(csv.DictReader(io.StringIO(cout)))
check(status == 0 and recs and all(len(r) == 10 for r in recs), "csv: ten fields on every record")


def num(s):
    return float(s) if s != "" else None


def same(a, b):
    return (a is None and b is None) or (a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9))


bad_h, bad_v, nh = [], [], 0
for e in jdoc["experiments"]:
    hs = [r for r in recs if r["experiment"] == e["name"] and r["kind"] == "headline"]
    want = [(h["figure"], h["unit"], h["value"], h["ci_low"], h["ci_high"], h["higher_better"]) for h in e["headlines"]]
    got = []
    for r in hs:
        m = re.fullmatch(r"95% interval \[(.*), (.*)\]", r["text"])
        got.append((r["name"], r["unit"], num(r["value"]), float(m.group(1)) if m else None,
                    float(m.group(2)) if m else None, r["status"] == "higher better"))
    nh += len(want)
    if len(got) != len(want) or [int(r["row"]) for r in hs] != list(range(len(hs))) or not all(
            g[:2] == w[:2] and g[5] == w[5] and all(same(x, y) for x, y in zip(g[2:5], w[2:5])) for g, w in zip(got, want)):
        bad_h.append((e["name"], got, want))
    vs = [r["text"] for r in recs if r["experiment"] == e["name"] and r["kind"] == "verdict"]
    if vs != ([e["verdict"]] if e["verdict"] else []):
        bad_v.append((e["name"], vs, e["verdict"]))
check(nh >= len(jdoc["experiments"]) and not bad_h,
      "csv: a headline record per JSON headline, figure, unit, value and interval equal (%d): %r" % (nh, bad_h[:1]))
check(not bad_v, "csv: one verdict record per experiment, the JSON's verdict: %r" % bad_v[:1])
check(cout.splitlines()[0] == "run,host,experiment,kind,row,name,unit,value,status,text",
      "csv: the same header, so files concatenate")
labelled = json.loads(json.dumps(DOC))
labelled["run"]["label"] = "a label of 100 bytes " + "x" * 79
path = os.path.join(datadir(), "labelled.json")
with open(path, "w") as f:
    json.dump(labelled, f)
status, lout, err = run("--load=" + path, "--format=csv")
lrecs = list(csv.DictReader(io.StringIO(lout)))
check(status == 0 and lrecs and {r["run"] for r in lrecs} == {labelled["run"]["label"]},
      "csv: a 100-byte label is every record's run, whole")
status, md, err = run("--load=" + FIXTURE, "--format=markdown")
missing = [e["name"] for e in jdoc["experiments"] if e["verdict"] and
           ("**Verdict:** " + re.sub(r"([|\\`*_<>\[\]#])", r"\\\1", e["verdict"])) not in md]
check(status == 0 and not missing, "markdown: each experiment's verdict, escaped: missing %r" % missing)
figs = [h["figure"] for e in jdoc["experiments"] for h in e["headlines"]]
check(all(("- " + re.sub(r"([|\\`*_<>\[\]#])", r"\\\1", f) + ": ") in md for f in figs),
      "markdown: each headline figure on its own line (%d)" % len(figs))

# --- the HTML: each heading once, its tables within the page -----------------------------------
status, page, err = run("--load=" + FIXTURE, "--format=html")
twice = []
for e in jdoc["experiments"]:
    title = "%s: %s" % (e["name"], e["title"])
    esc = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;")
    # seen on the page: the chart's <title> is its name for a screen reader, not shown
    shown = (page.count(">" + esc + "<") - page.count("<title>" + esc + "</title>")
             + page.count(">" + esc.split(": ", 1)[1] + "<"))
    if page.count("<h2>" + esc + "</h2>") != 1 or shown != 1:
        twice.append((e["name"], shown))
check(status == 0 and not twice, "html: each experiment's name and question shown once, as its heading: %r" % twice[:3])
parts = re.findall(r'<section class="exp" id="valley">.*?</section>', page, re.S)
tables = re.findall(r"<table class=\"rows\">.*?</table>", parts[0] if parts else "", re.S)
check(len(tables) >= 2 and all("<th>bufsize<" in t for t in tables),
      "html: valley's table folded into %d parts, each led by bufsize" % len(tables))


def chromium(*args):
    prof = os.path.join(datadir(), "chromium-profile")
    cmd = [shutil.which("chromium"), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--user-data-dir=" + prof] + list(args)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        return -1, ""


WIDTHS = "html at 1000 pixels: the page no wider than the window, no table scrolling sideways"
if shutil.which("chromium") is None:
    skip_check(WIDTHS, "chromium is not installed")
else:
    # the test's own copy of the page reports its widths into its title, read back from the DOM
    probe = ('<script>document.title = "widths " + document.documentElement.scrollWidth + " " + window.innerWidth'
             ' + " " + [...document.querySelectorAll(".scroll")].filter(d => d.scrollWidth > d.clientWidth + 1)'
             '.map(d => d.closest("section").id).join(",") + ";";</script></body>')
    html_path = os.path.join(datadir(), "widths.html")
    with open(html_path, "w", encoding="utf-8") as f:
        f.write(page.replace("</body>", probe))
    rc, dom = chromium("--window-size=1000,2000", "--dump-dom", "file://" + html_path)
    m = re.search(r"<title>widths (\d+) (\d+) ([\w,]*);</title>", dom)
    check(rc == 0 and m and int(m.group(1)) <= int(m.group(2)) and m.group(3) == "",
          "%s: %r" % (WIDTHS, m.groups() if m else dom[:200]))

# --- roofline's chart: its ridges marked and labelled, every decade ticked on both axes ----------
status, svg, err = run("--load=" + saved_run(["roofline"]), "--format=svg")
root = ET.fromstring(svg)
NS = "{http://www.w3.org/2000/svg}"
texts = [("".join(t.itertext()), t) for t in root.iter(NS + "text")]
roof = experiment(DOC, "roofline")
for buf in ("cache", "memory"):
    rs = [r for r in roof["rows"] if r["buffer"] == buf]
    ridge = max(r["gops"] for r in rs) / max(r["gbps"] for r in rs)
    lab = [t for t, _ in texts if t.startswith("ridge %s: " % buf)]
    got = float(lab[0].split(": ")[1].split()[0]) if lab else float("nan")
    check(len(lab) == 1 and lab[0].endswith(" ops/B") and math.isclose(got, ridge, rel_tol=0.01),
          "roofline svg: the %s ridge labelled at best Gop/s / best GB/s = %.3g ops/B: %r" % (buf, ridge, lab))
marks = [p for p in root.iter(NS + "path") if p.get("class") == "ridge"]
check(len(marks) == 2, "roofline svg: a mark at each ridge (%d)" % len(marks))
labels = {t for t, _ in texts}
check({"0.1", "1", "10"} <= labels, "roofline svg: x ticks at each decade of 1/64 .. 64 ops per byte")
ys = sorted(float(t) for t, el in texts if el.get("text-anchor") == "end" and re.fullmatch(r"[0-9.]+", t))
check(len(ys) >= 2 and all(math.isclose(b / a, 10) for a, b in zip(ys, ys[1:])),
      "roofline svg: a log y axis labelled at every power of ten: %r" % ys)

finish()
