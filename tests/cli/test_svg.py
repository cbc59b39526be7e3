"""Pictures: --format=svg writes one well-formed chart per experiment (xmllint) into the folder -o
names, or one to stdout; --format=html writes one self-contained page with a chart per experiment
and nothing fetched. The folder and the page draw a saved run (tests/fixtures/views.json, one
experiment per view), the chart on stdout a live run of clock. Every chart of the saved run, and
every overlay of a comparison's page (the saved run against a copy as if under 8 burners), keeps
its texts apart and its tick labels distinct. Without xmllint the well-formedness checks are
reported as skipped, the rest still run. (test_html.py renders the page in Chromium.)"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from wtgtest import burned, check, datadir, experiment, finish_clean, run, save_json, saved_run, skip_check

# one experiment per view, from the saved run
NAMES = ["bytewise", "syscall", "zerofill", "clock"]
SAVED = saved_run(NAMES)
out = tempfile.mkdtemp(prefix="wtg-pictures-", dir=datadir())


def check_xml(path, what):
    """The file is well-formed XML (xmllint says so), or a skipped check without xmllint."""
    if shutil.which("xmllint") is None:
        skip_check(what, "xmllint is not installed")
    else:
        check(subprocess.run(["xmllint", "--noout", path], capture_output=True).returncode == 0, what)


# ---- SVG: a folder of NAME.svg ----
charts = os.path.join(out, "charts")
status, _, err = run("--load=" + SAVED, "--format=svg", "-o", charts)
check(status == 0, "svg into a folder: exit 0, got %d: %s" % (status, err))
got = sorted(os.listdir(charts)) if os.path.isdir(charts) else []
check(got == sorted(n + ".svg" for n in NAMES), "one NAME.svg per experiment, got %s" % got)
for name in got:
    path = os.path.join(charts, name)
    check_xml(path, name + ": well-formed XML")
    text = open(path, encoding="utf-8").read()
    check('viewBox="0 0 1280 720"' in text, name + ": sized for a slide")
    check(text.count("<svg") == 1, name + ": one chart")
    check("<script" not in text, name + ": no script")

# ---- SVG: one experiment to stdout ----
status, svg, err = run("--run=clock", "--quick", "--format=svg", "--dir=" + datadir())
check(status == 0 and svg.startswith("<?xml"), "one svg to stdout: exit %d: %s" % (status, err))
one = os.path.join(out, "clock.svg")
with open(one, "w", encoding="utf-8") as f:
    f.write(svg)
check_xml(one, "stdout svg: well-formed XML")
check("median" in svg and "p99" in svg, "the histogram marks its median and p99")

# ---- HTML: one page ----
page = os.path.join(out, "report.html")
status, _, err = run("--load=" + SAVED, "--format=html", "-o", page)
check(status == 0, "html: exit 0, got %d: %s" % (status, err))
html = open(page, encoding="utf-8").read() if os.path.exists(page) else ""
check(html.startswith("<!DOCTYPE html>"), "html: a page")
check(html.count('class="chart"') == len(NAMES), "html: one chart per experiment")
check(not re.search(r"<script|<link|\ssrc=|url\((?!#)|@import", html), "html: nothing fetched, no script")
for n in NAMES:
    check('id="%s"' % n in html, "html: a section for " + n)


# ---- every chart of a saved run: tick labels differ along each axis, no two texts overlap ----
import xml.etree.ElementTree as ET

SVGNS = "{http://www.w3.org/2000/svg}"
FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "views.json")


def texts_of(path):
    """Every text element of a chart: (x, y, size, anchor, string, attributes)."""
    out = []
    for el in ET.parse(path).getroot().iter(SVGNS + "text"):
        s = "".join(el.itertext())
        out.append((float(el.get("x")), float(el.get("y")), float(el.get("font-size", "16")),
                    el.get("text-anchor", "start"), s, el.attrib))
    return out


def box(t):
    """A text's approximate box: the writer's width rule (0.56 em a character), the em's height."""
    x, y, size, anchor, s, _ = t
    w = len(s) * size * 0.56
    x0 = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
    return (x0, y - size * 0.8, x0 + w, y + size * 0.2)


def overlap(a, b, slack=1.0):
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def axes_of(texts):
    """Tick labels grouped by axis: x ticks share a y (centred, 20 px), y ticks share an x (right
    aligned, 20 px, no weight); groups of three or more."""
    groups = {}
    for t in texts:
        x, y, size, anchor, s, attrs = t
        if size != 20 or "fill" in attrs or "font-weight" in attrs:
            continue
        if anchor == "middle":
            groups.setdefault(("x", y), []).append(s)
        elif anchor == "end":
            groups.setdefault(("y", x), []).append(s)
    return {k: v for k, v in groups.items() if len(v) >= 3}


def narrow(doc):
    """The saved run with readcost's samples 1.10-1.20 us apart, passes' 3.20-3.30 ms (ticks 10 ns
    or 10 us apart, labels that need three digits), and an L3 cache just inside wss's widest set."""
    for e in doc["experiments"]:
        base = {"readcost": 1100.0, "passes": 3.2e6}.get(e["name"])
        for s in e.get("series") or [] if base else []:
            n = len(s["samples"])
            s["samples"] = [base + base / 11 * (i % n) / n for i in range(n)]
    widest = max(r["wss"] for r in experiment(doc, "wss")["rows"])
    for c in doc["machine"]["caches"]:
        if c["level"] == 3:
            c["size_bytes"] = int(widest * 0.95)
    doc["experiments"] = [e for e in doc["experiments"] if e["name"] in ("readcost", "passes", "wss")]
    return doc


saved = os.path.join(out, "saved")
os.makedirs(saved)
status, _, err = run("--load", FIXTURE, "--format=svg", "-o", saved + "/")
check(status == 0, "svg from a saved run: exit 0, got %d: %s" % (status, err))
with open(FIXTURE, encoding="utf-8") as f:
    save_json(out, narrow(json.load(f)), "narrow.json")
os.makedirs(os.path.join(saved, "narrow"))
status, _, err = run("--load", os.path.join(out, "narrow.json"), "--format=svg",
                     "-o", os.path.join(saved, "narrow") + "/")
check(status == 0, "svg from a narrowed saved run: exit 0, got %d: %s" % (status, err))


# the comparison's page of the saved run and its burned copy: every experiment's two runs overlaid,
# each overlay written out as a chart of its own to be read as the single charts are
with open(FIXTURE, encoding="utf-8") as f:
    quiet = json.load(f)
quiet["run"].pop("label", None)
status, cmp_html, err = run("--load", save_json(out, quiet, "quiet.json"), "--load",
                            save_json(out, burned(quiet), "burn8.json"), "--format=html")
check(status == 0, "html of a comparison: exit 0, got %d: %s" % (status, err))
os.makedirs(os.path.join(saved, "overlay"))
views = {e["name"]: e["view"] for e in quiet["experiments"]}
for chart in re.findall(r"<svg\b.*?</svg>", cmp_html, re.S):
    m = re.search(r'aria-label="the runs overlaid of (\w+)"', chart[:600])
    if m:
        with open(os.path.join(saved, "overlay", m.group(1) + ".svg"), "w", encoding="utf-8") as f:
            f.write(chart.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))
check(sorted(os.listdir(os.path.join(saved, "overlay"))) == sorted(n + ".svg" for n in views),
      "html of a comparison: an overlay of every experiment")
for name in (sorted(os.listdir(saved)) + ["narrow/" + n for n in sorted(os.listdir(os.path.join(saved, "narrow")))]
             + ["overlay/" + n for n in sorted(os.listdir(os.path.join(saved, "overlay")))]):
    if not name.endswith(".svg"):
        continue
    texts = texts_of(os.path.join(saved, name))
    dup = []
    for key, labels in axes_of(texts).items():
        seen = set()
        dup += ["%s axis: %s" % (key[0], s) for s in labels if s in seen or seen.add(s)]
    # (a counters table's columns are not axes: the overlay of faultbase has a column per case and run)
    if not (name.startswith("overlay/") and views.get(name[8:-4]) == "counters"):
        check(not dup, name + ": tick labels differ along each axis %s" % dup)
    clash = []
    boxes = [(box(t), t[4]) for t in texts if t[4].strip()]
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            if overlap(boxes[i][0], boxes[j][0]):
                clash.append("%r on %r" % (boxes[i][1][:30], boxes[j][1][:30]))
    check(not clash, name + ": no two texts overlap %s" % clash[:4])
    if name in ("readcost.svg", "tail.svg"):
        root = ET.parse(os.path.join(saved, name)).getroot()
        tops = [float(v) for el in root.iter(SVGNS + "path") if el.get("fill-opacity")
                for v in re.findall(r"[ML][\d.]+ ([\d.]+)", el.get("d", ""))]
        marks = [t for t in texts if t[2] == 18 and re.match(r"(median|p90|p99) ", t[4])]
        check(marks and tops and all(box(t)[3] <= min(tops) for t in marks),
              name + ": the quantiles' labels sit above the histograms, not on them")
    if name == "syscall.svg":
        bands = [el for el in ET.parse(os.path.join(saved, name)).getroot().iter(SVGNS + "path")
                 if el.get("fill-opacity") == "0.18"]
        check(len(bands) == 1, "syscall: the median's 95%% interval is drawn as a band: %d" % len(bands))
    if name == "compare.svg":
        words = [t[4] for t in texts]
        check(any(w.startswith("syscall: burners off vs on") for w in words),
              "compare: the chart names the figure and the condition (its verdict line): %s" % words[2:3])
        check(any("on minus off" in w and "left of 0: lower when on" in w for w in words),
              "compare: the chart says what a bar is and which way is lower")
    if name == "uncached.svg":
        check(any(re.fullmatch(r"random: [\d.]+ GB/s, at 16K only", t[4]) for t in texts),
              "uncached: the lone random point is labelled as one measurement")
    check(not any("\u2026" in t[4] for t in texts), name + ": no text cut with an ellipsis")
    want_bars = {"zerofill.svg": ["rep %d" % i for i in range(1, 6)],
                 "mmap.svg": ["not prefaulted", "populate (mmap call)", "prefaulted"],
                 "pagecache.svg": ["cold read 1 MiB", "warm read 1 MiB", "cold mmap", "warm mmap"]}.get(name)
    if want_bars:
        labels = [t[4] for t in texts if t[5].get("font-weight") == "bold" and t[3] == "end"]
        check(labels == want_bars and any("every counter in the table" in t[4] for t in texts),
              name + ": a chart of the headline, a bar per row, not the counter table: %s" % labels)
    if name == "valley.svg":
        check(any(t[4] == "ms per GB" for t in texts), "valley: the y axis says ms per GB, not ms")
    for t in texts:
        b = box(t)
        check(b[0] >= 0 and b[2] <= 1280, name + ": text inside the slide: %r" % t[4][:40]) if not (
            b[0] >= 0 and b[2] <= 1280) else None


# ---- the page of a saved run: tables scroll in their own box, numbers keep three figures ----
page_saved = os.path.join(out, "saved.html")
status, _, err = run("--load", FIXTURE, "--format=html", "-o", page_saved)
check(status == 0, "html from a saved run: exit 0, got %d: %s" % (status, err))
html = open(page_saved, encoding="utf-8").read() if status == 0 else ""
tables = html.count('<table class="rows">')
for n in ("zerofill", "mmap", "pagecache"):
    sec = html[html.find('id="%s"' % n):]
    check(0 <= sec.find('class="chart"') < sec.find('<table class="rows">'),
          "html: %s's chart, then its full table" % n)
check(tables >= 10 and len(re.findall(r'<div class="scroll[^"]*"><table class="rows">', html)) == tables
      and ".scroll{max-width:100%;overflow-x:auto}" in html,
      "html: every table (a part of a folded one too) scrolls inside its own box when it must (%d tables)" % tables)


def row_cells(page, name, first):
    """The cells of experiment name's table row whose first cell reads first (of each part of a
    folded table, after its key)."""
    sec = page[page.find('id="%s"' % name):]
    sec = sec[:sec.find("</section>")]
    return [c for m in re.finditer(r"<tr><td>%s</td>(.*?)</tr>" % re.escape(first), sec)
            for c in re.findall(r"<td[^>]*>([^<]*)</td>", m.group(1))]


cells = row_cells(html, "bytewise", "64K per read")
check(len(cells) > 10 and (cells[2], cells[9], cells[10]) == ("0.0708", "0.0590", "0.0770"),
      "html: bytewise's 64K row keeps three figures (ms, CI): %s" % cells[:12])
valley_16 = re.search(r'id="valley".*?<tr><td class="num">16</td>(.*?)</tr>', html, re.S)
vcells = re.findall(r"<td[^>]*>([^<]*)</td>", valley_16.group(1)) if valley_16 else []
check(vcells and not any(c in ("0.00", "0.01") for c in vcells),
      "html: valley's 16 B row keeps three figures, no 0.00/0.01 GB/s: %s" % vcells)
status, md, err = run("--load", FIXTURE, "--load", FIXTURE, "--format=markdown")
long_numbers = [x for x in re.findall(r"\d+\.\d+", md) if len(x.replace(".", "").lstrip("0")) > 3]
check(status == 0 and "| 0.00124 |" in md and not long_numbers,
      "comparison markdown: three significant figures (%s)" % long_numbers[:4])


shutil.rmtree(out, ignore_errors=True)
finish_clean()
