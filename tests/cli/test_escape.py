"""Strings from outside reach no terminal raw, and saved strings stay whole.

A saved run's fields (hostname, kernel, clock source, governor, units, notes, checks, labels,
experiment names) with ESC, BEL, CR, LF, DEL and the C1 CSI in them come out escaped (\\e, \\x07,
\\r, \\n, \\x7f, \\xc2\\x9b) on stderr, in the text and Markdown reports and in the comparison;
--label refuses control characters (exit 2); --load then -o keeps a long label, note or check whole,
and a string too long for the reader is refused with that reason."""
import atexit
import copy
import json
import os
import re
import shutil
import subprocess
import tempfile

from wtgtest import WTG, check, save_json, finish, run_json

tmp = tempfile.mkdtemp(prefix="wtg-escape-")
atexit.register(shutil.rmtree, tmp, True)	# the hostile files go with the test

# what a terminal obeys: ESC, BEL, CR, DEL and the C1 CSI in UTF-8 (a lone 0x9b is not UTF-8, so JSON
# cannot carry it; --label gets it below)
RAW = [b"\x1b", b"\x07", b"\r", b"\x7f", b"\xc2\x9b", b"\x9b"]


def path(name):
    return os.path.join(tmp, name)


def save(doc, name):
    return save_json(tmp, doc, name)


def wtg(*args):
    """wtg's status, stdout and stderr as bytes (what reaches the terminal, undecoded)."""
    p = subprocess.run([WTG.encode()] + [a if isinstance(a, bytes) else a.encode() for a in args],
                       capture_output=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def inert(what, data):
    found = [r for r in RAW if r in data]
    check(not found, "%s: no raw control bytes (found %r)" % (what, found))


status, doc, err = run_json("syscall")
check(status == 0 and doc is not None, "a saved run to edit (%s)" % err.strip())
if doc is None:
    finish()

# --- a hostile file: every field a person reads --------------------------------------------------
evil = copy.deepcopy(doc)
m = evil["machine"]
m["hostname"] = "evil\x1b]0;pwned\x07\nline2"
m["kernel"] = "Linux\x1b[2J\r6.1"
m["clocksource"] = "tsc\x1b[31m"
m["governor"] = "perf\x07ormance"
m["cpu_model"] = "CPU\u009b2J model"
m["os"] = "OS\x7f name"
evil["run"]["label"] = "lab\x1b[1mel\u009b"
e = evil["experiments"][0]
e["notes"].append("note \x1b[2J and \u009b31m and \x07 bell")
e["checks"][0]["name"] = "chk\x1b[5m"
e["checks"][0]["detail"] = "detail\x1b]2;title\x07 \u009b0m"
unit_col = next(c for c in e["columns"] if c["unit"])
unit_col["unit"] = unit_col["unit"] + "\x1b[7m"
evil_path = save(evil, "evil.json")

for fmt in ("text", "markdown"):
    st, out, err = wtg("--load=" + evil_path, "--format=" + fmt)
    check(st == 0, "%s of a hostile file: exit 0 (%r)" % (fmt, err))
    inert("%s report" % fmt, out)
    inert("%s stderr" % fmt, err)
    check(b"\\e[2J" in out or b"\\e\\[2J" in out, "%s: the kernel's ESC shown as \\e" % fmt)
    check(b"\\xc2\\x9b" in out, "%s: the C1 CSI shown as \\xc2\\x9b" % fmt)
    check(b"\\x07" in out, "%s: BEL shown as \\x07" % fmt)

st, out, err = wtg("--load=" + evil_path, "--format=text")
check(b"  kernel        Linux\\e[2J\\r6.1\n" in out, "text: the kernel line, CR escaped, on one line")
check(b"[count\\e[7m]" in out or b"\\e[7m]" in out, "text: the unit escaped in the table's header")
check(b"chk\\e[5m: detail\\e]2;title\\x07 \\xc2\\x9b0m" in out, "text: the check's name and detail escaped")
st, out, err = wtg("--load=" + evil_path, "--format=markdown")
check(b"governor perf\\x07ormance" in out, "markdown: the governor escaped")
check(b"OS\\x7f name" in out, "markdown: DEL in the OS name escaped")

# --- the comparison and its warning on stderr --------------------------------------------------
other = copy.deepcopy(doc)
other["machine"]["hostname"] = "other\x1b[2J"
other["run"]["label"] = "b\x07\r"
other_path = save(other, "other.json")
for fmt in ("text", "markdown", ""):
    args = ["--load=" + evil_path, "--load=" + other_path] + (["--format=" + fmt] if fmt else [])
    st, out, err = wtg(*args)
    what = "comparison" + (" (%s)" % fmt if fmt else "")
    check(st == 0, "%s: exit 0 (%r)" % (what, err))
    inert(what, out)
    inert(what + " stderr", err)
    lines = err.splitlines()
    check(len(lines) == 1 and lines[0].startswith(b"wtg: warning: lab\\e[1mel\\xc2\\x9b and b\\x07\\r differ"),
          "%s: one warning line, the labels escaped: %r" % (what, err))
    check(b"hostname 'evil\\e]0;pwned\\x07\\nline2' vs 'other\\e[2J'" in err,
          "%s: the hostnames escaped, the line break too" % what)
st, out, err = wtg("--load=" + evil_path, "--load=" + other_path, "--format=text")
check(b"evil\\e]0;pwned\\x07\\nline2)\n" in out, "comparison: the hostname on its run's line, escaped")

# --- an experiment this wtg does not know, named with escapes ----------------------------------
unknown = copy.deepcopy(doc)
unknown["experiments"].append(dict(copy.deepcopy(doc["experiments"][0]), name="nosuch\x1b[2J\u009b"))
st, out, err = wtg("--load=" + save(unknown, "unknown.json"), "--format=csv")
check(st == 0, "an unknown experiment: exit 0")
inert("unknown experiment warning", err)
check(err.endswith(b"experiments this wtg does not know, left out: nosuch\\e[2J\\xc2\\x9b\n"),
      "the unknown experiment's name escaped in the warning: %r" % err)

# --- a refused field quoted in the error line -------------------------------------------------
bad = copy.deepcopy(doc)
bad["run"]["timestamp"] = "2026\x1b[2J\u009b\x07"
bad_path = save(bad, "badtime.json")
st, out, err = wtg("--load=" + bad_path)
check(st == 2 and err == ("wtg: %s: run.timestamp: '2026\\e[2J\\xc2\\x9b\\x07' is not a UTC time like "
                          "2026-11-30T19:26:36Z\n" % bad_path).encode(),
      "a bad timestamp: exit 2, its text escaped in the one line (got %d, %r)" % (st, err))

bad = copy.deepcopy(doc)
bad["experiments"][0]["columns"][1]["type"] = "\nt"
bad_path = save(bad, "badtype.json")
st, out, err = wtg("--load=" + bad_path)
check(st == 2 and err == ("wtg: %s: experiments[0].columns[1].type: '\\nt' is not na, int, real or text\n"
                          % bad_path).encode(),
      "a column type with a newline: exit 2, one line, the newline escaped (got %d, %r)" % (st, err))

# --- CSV and JSON keep the data exact ----------------------------------------------------------
st, out, err = wtg("--load=" + evil_path, "--format=json")
back = json.loads(out) if st == 0 else {}
check(back.get("machine", {}).get("hostname") == m["hostname"], "JSON keeps the hostname exact")
check(back.get("run", {}).get("label") == evil["run"]["label"], "JSON keeps the label exact")
st, out, err = wtg("--load=" + evil_path, "--format=csv")
check(b"note \x1b[2J and \xc2\x9b31m and \x07 bell" in out, "CSV keeps a note exact (the man page says so)")

# --- --label refuses control characters --------------------------------------------------------
MSG = b"wtg: --label: control characters and bytes that are not UTF-8 are not allowed (see 'wtg --help')\n"
for label in (b"a\x1b[2J", b"a\x07", b"a\tb", b"a\nb", b"a\rb", b"a\x7f", b"a\xc2\x9b", b"a\x9b", b"a\xff"):
    st, out, err = wtg(b"--label=" + label, "--load=" + path("evil.json"))
    check(st == 2 and err == MSG, "--label=%r: exit 2 and one exact line (got %d, %r)" % (label, st, err))
st, out, err = wtg("--label=caf\u00e9 \\ run", "--load=" + evil_path, "--format=json")
check(st == 0 and json.loads(out)["run"]["label"] == "caf\u00e9 \\ run",
      "--label keeps UTF-8 text and a backslash")

# --- long strings round-trip whole through --load and -o --------------------------------------
long = copy.deepcopy(doc)
long["run"]["label"] = "L" * 200
le = long["experiments"][0]
le["notes"].append("n" * 3000)
le["notes"].append("m" * 65536)
le["checks"][0]["detail"] = "d" * 5000
long_path = save(long, "long.json")
for conv in ("y.json", "y.txt"):
    st, out, err = wtg("--load=" + long_path, "-o", path(conv))
    check(st == 0, "--load then -o %s: exit 0 (%r)" % (conv, err))
with open(path("y.json")) as f:
    y = json.load(f)
check(y["run"]["label"] == "L" * 200, "a 200-byte label comes back whole (got %d bytes)" % len(y["run"]["label"]))
ye = y["experiments"][0]
check("n" * 3000 in ye["notes"], "a 3,000-byte note comes back whole (%r)" % [len(n) for n in ye["notes"]])
check("m" * 65536 in ye["notes"], "a 64 KiB note comes back whole")
check(ye["checks"][0]["detail"] == "d" * 5000, "a 5,000-byte check detail comes back whole")
with open(path("y.txt"), "rb") as f:
    txt = f.read()
# folded to 80 columns, a word longer than a line is broken, never cut short
check(b"d" * 5000 in re.sub(rb"\n +", b"", txt) and max(len(l) for l in txt.splitlines()) <= 80,
      "the text report holds the long check detail whole, on lines of at most 80 columns")

# --- too long for the reader: refused with that reason, never cut -----------------------------
cases = [
    ("a note over 64 KiB", lambda d: d["experiments"][0]["notes"].append("x" * 65537),
     ": experiments[0].notes[%d]: longer than 65536 bytes" % len(doc["experiments"][0]["notes"])),
    ("a hostname of 300 bytes", lambda d: d["machine"].__setitem__("hostname", "h" * 300),
     ": machine.hostname: longer than 255 bytes"),
    ("a check name of 300 bytes", lambda d: d["experiments"][0]["checks"][0].__setitem__("name", "c" * 300),
     ": experiments[0].checks[0].name: longer than 255 bytes"),
]
for what, edit, reason in cases:
    bad = copy.deepcopy(doc)
    edit(bad)
    p = save(bad, "bad.json")
    st, out, err = wtg("--load=" + p, "-o", path("z.json"))
    want = ("wtg: %s%s\n" % (p, reason)).encode()
    check(st == 2 and err == want, "%s: exit 2, '%s' (got %d, %r)" % (what, reason, st, err[:200]))
    check(not os.path.exists(path("z.json")), "%s: no output written" % what)

# an -o path with controls: the "wrote" line and a save error show it escaped
good = save(doc, "plain.json")
st, out, err = wtg("--load", good, "-o", path("w\x1b[2Jr\x07.csv").encode())
check(st == 0 and b"wrote " + path("w\\e[2Jr\\x07.csv").encode() + b" (csv, " in out,
      "the wrote line shows an -o path with ESC and BEL escaped (%r)" % out[-200:])
inert("the wrote line", out)
os.unlink(path("w\x1b[2Jr\x07.csv"))
st, out, err = wtg("--load", good, "-o", path("no\x1b[2Jdir/x.csv").encode())
check(st == 2 and b"no\\e[2Jdir" in err and len(err.splitlines()) == 1,
      "an -o folder with ESC that is missing: one line, escaped, exit 2 (%d, %r)" % (st, err))
inert("the missing-folder error", err)

finish()
