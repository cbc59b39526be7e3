"""Pictures: --format=svg writes one well-formed chart per experiment (xmllint) into the folder -o
names, or one to stdout; --format=html writes one self-contained page with a chart per experiment
and nothing fetched. The folder and the page draw a saved run (tests/fixtures/views.json, one
experiment per view), the chart on stdout a live run of clock. Without xmllint the well-formedness checks are reported as
skipped, the rest still run. (test_html.py renders the page in Chromium.)"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from wtgtest import check, datadir, finish_clean, run, saved_run, skip_check

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


shutil.rmtree(out, ignore_errors=True)
finish_clean()
