"""The HTML page in a browser: headless Chromium renders wtg --format=html (of a saved run,
tests/fixtures/views.json: the page is what is tested, not a measurement) with one chart per
experiment, no console errors and a screenshot that is not blank (its distinct colours counted from
the PNG, read with zlib). Skips those without chromium (bootstrap installs Debian's as root).
A comparison's page (two saved runs made from the fixture, the second as if measured under 8
burners: --load'ed together) is checked without a browser too: every inline SVG is well-formed XML,
the ratio charts stay, and each experiment both runs hold has one chart with both runs overlaid on
one scale, each run its own colour with a legend entry naming its label and conditions."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

from wtgtest import burned, check, datadir, experiment, finish, finish_clean, run, save_json, saved_run, skip_checks

# --- a comparison's page, read as XML -------------------------------------------------------------
OVERLAID = ["valley", "threads", "readcost"]	# a sweep, bars, a histogram
cmpdir = tempfile.mkdtemp(prefix="wtg-compare-", dir=datadir())
quiet = json.load(open(saved_run(OVERLAID)))
quiet["run"].pop("label", None)
status, cmp_html, err = run("--load=" + save_json(cmpdir, quiet, "quiet.json"),
                        "--load=" + save_json(cmpdir, burned(quiet), "burn8.json"), "--format=html")
check(status == 0, "comparison html: exit 0 (%d: %s)" % (status, err.strip()))
svgs = re.findall(r"<svg\b.*?</svg>", cmp_html, re.S)
broken = []
for text in svgs:
    try:
        ET.fromstring(text)
    except ET.ParseError as e:
        broken.append("%s: %s" % (text[:80], e))
check(svgs and not broken, "comparison html: every inline SVG parses as XML (%d): %r" % (len(svgs), broken[:2]))
check(cmp_html.count('aria-label="ratio chart of') >= len(OVERLAID), "comparison html: the ratio charts stay")
overlays = {}
for text in svgs:
    m = re.search(r'aria-label="the runs overlaid of (\w+)"', text[:600])
    if m:
        overlays.setdefault(m.group(1), []).append(ET.fromstring(text))
check(sorted(overlays) == sorted(OVERLAID) and all(len(v) == 1 for v in overlays.values()),
      "comparison html: one overlay per experiment both runs hold: %r" % sorted(overlays))
LEGEND = ["quiet: quiet", "burn8: burners 8 spin"]


def texts(svg):
    return ["".join(t.itertext()) for t in svg.iter("text")]


def legend_named(name, svg):
    check(all(l in texts(svg) for l in LEGEND), "%s overlay: the legend names each run and its conditions: %r"
          % (name, [t for t in texts(svg) if ": " in t][:4]))


valley = overlays.get("valley", [ET.Element("svg")])[0]
lines = list(valley.iter("polyline"))
colours = [l.get("stroke") for l in lines]
check(len(lines) == 2 and len(set(colours)) == 2, "valley overlay: a line per run, each its own colour: %r" % colours)
legend_named("valley", valley)
check(set(colours) <= {l.get("stroke") for l in valley.iter("line")}, "valley overlay: the legend's lines in the "
      "runs' colours")
pts = [[tuple(float(c) for c in xy.split(",")) for xy in l.get("points").split()] for l in lines]
nrows = len(experiment(quiet, "valley")["rows"])
check(len(pts) == 2 and all(len(p) == nrows for p in pts), "valley overlay: every row of each run is a point")
if len(pts) == 2 and len(pts[0]) == len(pts[1]):
    check([x for x, _ in pts[0]] == [x for x, _ in pts[1]], "valley overlay: one x scale (each buffer size at one x)")
    # y grows downwards in SVG: twice the ms per GB is higher on the chart, at every size
    check(all(b[1] < a[1] for a, b in zip(pts[0], pts[1])), "valley overlay: one y scale, burn8's twice the ms per "
          "GB drawn above quiet's at every size")
readcost = overlays.get("readcost", [ET.Element("svg")])[0]
areas = [p.get("fill") for p in readcost.iter("path") if p.get("fill-opacity")]
check(len(areas) == 2 and areas == colours, "readcost overlay: a distribution per run, in the runs' colours: %r"
      % areas)
legend_named("readcost", readcost)
check(sum(t.startswith(l + ": n ") for t in texts(readcost) for l in LEGEND) == 2,
      "readcost overlay: each run's line of figures")
threads = overlays.get("threads", [ET.Element("svg")])[0]
bars = [r.get("fill") for r in threads.iter("rect") if r.get("fill") in colours and r.get("stroke") == r.get("fill")]
n = len(experiment(quiet, "threads")["rows"])
check(len(colours) == 2 and bars.count(colours[0]) == n and bars.count(colours[1]) == n,
      "threads overlay: a bar per row of each run, in the run's colour: %d, %d of %d"
      % (bars.count(colours[0]) if colours else 0, bars.count(colours[-1]) if colours else 0, n))
legend_named("threads", threads)

# without chromium nothing here can run: each assertion is reported as skipped, so the summary
# counts them (the page itself is checked without a browser by test_svg.py)
if shutil.which("chromium") is None:
    skip_checks(["html: exit 0", "chromium renders the page", "no console errors", "the screenshot is not blank",
                 "the rendered page has one chart per experiment", "chromium renders the comparison's page",
                 "the comparison's page draws an overlay per experiment",
                 "the private data folder is empty at the end"], "chromium is not installed")
    finish()

# one experiment per view
NAMES = ["bytewise", "syscall", "zerofill", "clock"]
out = tempfile.mkdtemp(prefix="wtg-pictures-", dir=datadir())
page = os.path.join(out, "report.html")
status, _, err = run("--load=" + saved_run(NAMES), "--format=html", "-o", page)
check(status == 0, "html: exit 0, got %d: %s" % (status, err))


def png_colours(path):
    """Distinct colours in a PNG (8-bit RGB or RGBA, non-interlaced, as Chromium writes them)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return 0
    pos, idat, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                return 0
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    colours = set()
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 4 == 0:
            for x in range(0, stride, bpp * 2):
                colours.add(bytes(line[x:x + 3]))
        prev = line
    return len(colours)


def chromium(*args):
    prof = tempfile.mkdtemp(prefix="wtg-chromium-", dir=out)
    cmd = [shutil.which("chromium"), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--user-data-dir=" + prof] + list(args)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -1, "", "chromium timed out"


url = "file://" + page
shot = os.path.join(out, "page.png")
# one chromium a page: the screenshot and the DOM after the scripts ran come from the same load
rc, dom, log = chromium("--enable-logging=stderr", "--v=0", "--window-size=1280,2000",
                        "--screenshot=" + shot, "--dump-dom", url)
check(rc == 0 and os.path.exists(shot), "chromium renders the page: %d" % rc)
console = [l for l in log.splitlines() if "CONSOLE" in l or "Uncaught" in l]
check(not console, "no console errors: %s" % console[:3])
n = png_colours(shot) if os.path.exists(shot) else 0
check(n >= 8, "the screenshot is not blank: %d colours" % n)
check(rc == 0 and dom.count('class="chart"') == len(NAMES),
      "the rendered page has one chart per experiment: %d" % dom.count('class="chart"'))
cmp_page = os.path.join(cmpdir, "compare.html")
with open(cmp_page, "w", encoding="utf-8") as f:
    f.write(cmp_html)
shot = os.path.join(out, "compare.png")
rc, dom, log = chromium("--window-size=1280,2000", "--screenshot=" + shot, "--dump-dom", "file://" + cmp_page)
check(rc == 0 and png_colours(shot) >= 8 if os.path.exists(shot) else False,
      "chromium renders the comparison's page, not blank: %d" % rc)
check(rc == 0 and dom.count('class="overlay-chart"') == len(OVERLAID),
      "the comparison's page draws an overlay per experiment: %d (%d, %d bytes)"
      % (dom.count('class="overlay-chart"'), rc, len(dom)))
shutil.rmtree(out, ignore_errors=True)
shutil.rmtree(cmpdir, ignore_errors=True)
finish_clean()
