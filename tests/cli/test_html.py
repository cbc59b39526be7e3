"""The HTML page in a browser: headless Chromium renders wtg --format=html (of a saved run,
tests/fixtures/views.json: the page is what is tested, not a measurement) with one chart per
experiment, no console errors and a screenshot that is not blank (its distinct colours counted from
the PNG, read with zlib). Skips without chromium (bootstrap installs Debian's as root)."""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

from wtgtest import check, datadir, finish, finish_clean, run, saved_run, skip_checks

# without chromium nothing here can run: each assertion is reported as skipped, so the summary
# counts them (the page itself is checked without a browser by test_svg.py)
if shutil.which("chromium") is None:
    skip_checks(["html: exit 0", "chromium renders the page", "no console errors", "the screenshot is not blank",
                 "the rendered page has one chart per experiment", "the private data folder is empty at the end"],
                "chromium is not installed")
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
rc, _, log = chromium("--enable-logging=stderr", "--v=0", "--window-size=1280,2000",
                      "--screenshot=" + shot, url)
check(rc == 0 and os.path.exists(shot), "chromium renders the page: %d" % rc)
console = [l for l in log.splitlines() if "CONSOLE" in l or "Uncaught" in l]
check(not console, "no console errors: %s" % console[:3])
n = png_colours(shot) if os.path.exists(shot) else 0
check(n >= 8, "the screenshot is not blank: %d colours" % n)
rc, dom, _ = chromium("--dump-dom", url)
check(rc == 0 and dom.count('class="chart"') == len(NAMES),
      "the rendered page has one chart per experiment: %d" % dom.count('class="chart"'))
shutil.rmtree(out, ignore_errors=True)
finish_clean()
