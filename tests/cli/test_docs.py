"""--help, the man page's OPTIONS section and the guide's Options list name exactly the same
options, each with the same kind of value (none, required, optional), and the completion reads
--help. Also: the parsers below are checked against small samples, so a change of layout that
hides every option fails instead of comparing two empty sets."""
import os
import re

from wtgtest import check, finish, run

SRCDIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# the README is short (quick start, the dashboard's screen, a class of machines); the options, the
# experiments' table and the design are in the guide installed beside it
GUIDE = os.path.join(SRCDIR, "doc", "guide.txt")

# one option as it is spelled at the start of a help line: "--burn[=N][:KIND]", "--run=LIST"
OPT = re.compile(r"--([a-z][a-z-]*)(\[=|=)?")


def kind(sep):
    return "optional" if sep == "[=" else "required" if sep == "=" else "none"


def from_help_lines(lines):
    """{name: kind} from lines that start (after their indent) with an option: '-o, --output=FILE'."""
    found = {}
    for line in lines:
        m = re.match(r"\s+(?:-[A-Za-z], )?--([a-z][a-z-]*)(\[=|=)?", line)
        if m:
            found[m.group(1)] = kind(m.group(2))
    return found


def help_options(text):
    return from_help_lines(text.splitlines())


def man_options(text):
    """The line after each .TP in the OPTIONS section, troff escapes and quotes removed."""
    sect = re.search(r"^\.SH OPTIONS\n(.*?)^\.SH ", text, re.S | re.M)
    lines = sect.group(1).splitlines() if sect else []
    found = {}
    for i, line in enumerate(lines[:-1]):
        if line != ".TP":
            continue
        tag = re.sub(r"\\f[RBIP]", "", lines[i + 1]).replace("\\-", "-").replace('"', "")
        tag = re.sub(r"^\.[A-Z]+\s*", "", tag).replace(" ", "")
        for m in OPT.finditer(tag):
            found[m.group(1)] = kind(m.group(2))
    return found


def readme_options(text):
    """The indented lines of the guide's 'Options' section (up to the next blank-line paragraph)."""
    sect = re.search(r"^Options\n-+\n\n(.*?)\n\n", text, re.S | re.M)
    return from_help_lines(sect.group(1).splitlines() if sect else [])


# the parsers themselves, on samples of each spelling
check(help_options("  -o, --output=FILE  x\n      --burn[=N][:KIND] y\n      --quick  z\n   text --no\n") ==
      {"output": "required", "burn": "optional", "quick": "none"}, "help parser")
check(man_options(".SH OPTIONS\n.TP\n.BI \\-o \" FILE\" \"\\fR, \\fP\\-\\-output=\" FILE\n.TP\n"
                  ".BR \\-\\-burn [=\\fIN\\fP][: \\fIKIND\\fP]\n.TP\n.B \\-\\-time\\-limit\n.SH X\n") ==
      {"output": "required", "burn": "optional", "time-limit": "none"}, "man parser")

status, out, err = run("--help")
check(status == 0, "--help exits 0")
helped = help_options(out)
with open(os.path.join(SRCDIR, "man", "wtg.1"), encoding="utf-8") as f:
    man = man_options(f.read())
with open(GUIDE, encoding="utf-8") as f:
    readme = readme_options(f.read())

for must in ("run", "list", "output", "burn", "help", "version", "no-color"):
    check(must in helped, "--help lists --%s" % must)
check("child" not in helped, "--help hides the internal --child")
for name, docs in (("the man page's OPTIONS", man), ("the guide's Options", readme)):
    for opt in sorted(set(helped) - set(docs)):
        check(False, "--%s is in --help but not in %s" % (opt, name))
    for opt in sorted(set(docs) - set(helped)):
        check(False, "--%s is in %s but not in --help" % (opt, name))
    for opt in sorted(set(docs) & set(helped)):
        check(docs[opt] == helped[opt], "--%s takes %s value in --help, %s in %s" %
              (opt, helped[opt], docs[opt], name))

# short options: each one --help gives works, and is the same option as its long name
for m in re.finditer(r"^\s+-([A-Za-z]), --([a-z-]+)", out, re.M):
    s, l = m.group(1), m.group(2)
    for name, text in (("man page", open(os.path.join(SRCDIR, "man", "wtg.1"), encoding="utf-8").read()),
                       ("guide", open(GUIDE, encoding="utf-8").read())):
        esc = "\\-" if name == "man page" else "-"
        check((esc + s) in text, "-%s (--%s) is in the %s" % (s, l, name))

# the experiments: the guide's table and the man page's EXPERIMENTS name exactly those --list names,
# in its order (a new experiment missing from either, or a name left behind, fails here)
status, out, err = run("--list")
listed = [l.split()[0] for l in out.splitlines() if l.strip()]
check(status == 0 and len(listed) >= 10, "--list names the experiments: %r" % listed)
with open(GUIDE, encoding="utf-8") as f:
    table = re.search(r"^The experiments\n-+\n(.*?)^[^\n]+\n-+\n", f.read(), re.S | re.M)
readme_exps = re.findall(r"^    ([a-z]+)\s+~\d+ s / ~\d+ s ", table.group(1) if table else "", re.M)
with open(os.path.join(SRCDIR, "man", "wtg.1"), encoding="utf-8") as f:
    sect = re.search(r"^\.SH EXPERIMENTS\n(.*?)^\.SH ", f.read(), re.S | re.M)
man_exps = re.findall(r"^\.TP\n\.B ([a-z]+)$", sect.group(1) if sect else "", re.M)
for name, docs in (("the guide's experiment table", readme_exps), ("the man page's EXPERIMENTS", man_exps)):
    for exp in listed:
        check(exp in docs, "%s is in --list but not in %s" % (exp, name))
    for exp in docs:
        check(exp in listed, "%s is in %s but not in --list" % (exp, name))
    check(docs == listed, "%s names --list's experiments in its order: %r" % (name, docs))

# the guide's Design section is true where a program can tell: every file or folder it names exists,
# each function it places in a file ("dash_run_event in src/tui/state.c") is defined there, each
# function it names ("wtg_session_stall()") is defined in src/, and it counts and names the writers
# --help's --format offers
with open(GUIDE, encoding="utf-8") as f:
    design = re.search(r"^Design\n-+\n(.*?)^Licence", f.read(), re.S | re.M)
design = " ".join(design.group(1).split()) if design else ""
check(len(design) > 1000, "the guide has its Design section")
named = sorted(set(p.rstrip(".,;:)") for p in re.findall(r"\b(?:src|include|tests)/[\w./-]*", design)))
check(len(named) >= 10, "the Design section names its files: %r" % named)
for p in named:
    # a test program (tests/unit/test_registry) is built, not distributed: its source stands for it
    # in a build outside the source tree (make distcheck)
    check(os.path.exists(os.path.join(SRCDIR, p)) or os.path.exists(os.path.join(SRCDIR, p + ".c")),
          "the Design section's %s exists" % p)


def defines(path, name):
    with open(path, encoding="utf-8") as f:
        return re.search(r"^[a-z][^;\n]*\b%s\(" % re.escape(name), f.read(), re.M) is not None


for name, path in re.findall(r"\b(\w+_\w+) in (src/[\w/]+\.c)", design):
    check(os.path.exists(os.path.join(SRCDIR, path)) and defines(os.path.join(SRCDIR, path), name),
          "the Design section's %s is defined in %s" % (name, path))
sources = [os.path.join(dp, fn) for dp, _, fns in os.walk(os.path.join(SRCDIR, "src")) for fn in fns
           if fn.endswith(".c")]
for name in sorted(set(re.findall(r"\b(wtg_\w+)\(\)", design))):
    check(any(defines(src, name) for src in sources), "the Design section's %s() is defined in src/" % name)
status, out, err = run("--help")
fmt = re.search(r"--format=FMT\s+headless output: (.*?)\n\s+-", out, re.S)
formats = re.findall(r"\b(text|csv|json|markdown|svg|html)\b", fmt.group(1)) if fmt else []
words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
writers = re.search(r"the (\w+) writers \(a table in src/report/report\.c: ([^)]*)\)", design)
check(len(formats) >= 4 and writers is not None and writers.group(1) == words[len(formats)],
      "the Design section counts the %d writers --format offers: %r" % (len(formats), writers and writers.group(1)))
for f in formats:
    check(writers is not None and f in writers.group(2).lower(), "the Design section names the %s writer" % f)

# the README stays a quick start: under 150 lines, with the two commands, the dashboard's screen at
# 80x24 and the pointers to the man page and the guide
with open(os.path.join(SRCDIR, "README"), encoding="utf-8") as f:
    short = f.read()
check(short.count("\n") < 150, "the README is under 150 lines (%d)" % short.count("\n"))
check("    ./bootstrap && src/wtg\n    make check\n" in short, "the README's quick start is the two commands")
pic = re.search(r"then 3\):\n\n(.*?)\n\n", short, re.S)
screen = [l[7:] for l in pic.group(1).split("\n")] if pic else []
check(len(screen) == 24 and max(len(l) for l in screen) == 80 and any("valley" in l for l in screen),
      "the README draws the dashboard at 80x24 (%d lines, %d wide)" % (len(screen), max(map(len, screen or [""]))))
check("man wtg" in short and "doc/guide.txt" in short, "the README points to the man page and the guide")

# the bash completion offers what --help lists (it parses --help, so it cannot drift)
with open(os.path.join(SRCDIR, "completion", "wtg"), encoding="utf-8") as f:
    check("_parse_help" in f.read(), "the completion reads its options from --help")
finish()
