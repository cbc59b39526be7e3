"""tests/tui/expect.py JSON LIST OUT: the lines the dashboard must show for each experiment's rows,
worked out from a saved JSON report (tests/tui/views.sh looks for each on the screen). LIST has a
line "index name view built" per experiment (views.sh makes it from wtg --list); OUT/NAME gets the
lines of each experiment in the report, and for valley OUT/valley.calls the last row's read calls
as the screen writes them. One run for every experiment: a Python start is not free on a loaded
machine."""
import json, math, os, sys

def size(b):
    u, v = 0, float(b)
    while v >= 1024 and u < 4:
        v /= 1024
        u += 1
    if u == 0:
        return "%dB" % b
    return ("%d%s" if v == int(v) else "%.1f%s") % (v, "BKMGT"[u])

def text_label(r, cols, units):
    for i, c in enumerate(cols):
        own = not c.startswith("cond_") and not c.startswith("probe_")
        if units[i] == "" and isinstance(r[i], str) and own:
            return r[i]
    return None

def num(v):
    """A value with a unit as the dashboard writes it (tui_fmt_num)."""
    a = abs(v)
    if a >= 99.95 or a == 0:
        return "%.0f" % v
    if a >= 9.995:
        return "%.1f" % v
    if a >= 0.9995:
        return "%.2f" % v
    return "%.*f" % (min(9, 2 - math.floor(math.log10(a))), v)

xcol = {"valley": "bufsize", "syscall": "batch", "wss": "wss", "uncached": "bufsize",
        "roofline": "ops_per_byte"}


def expect(e, view, out):
    """Print to out the lines for experiment e drawn in view."""
    cols = [c["name"] for c in e["columns"]]
    units = [c["unit"] for c in e["columns"]]
    rows = [[r[n] for n in cols] for r in e["rows"]]	# schema 2: objects keyed by column
    assert rows, "no rows"
    if view == "sweep":
        # the words under the chart start with the latest row's x
        xc = cols.index(xcol.get(e["name"], cols[0]))
        x = rows[-1][xc]
        if x is not None:
            if units[xc] == "B":
                print(size(x) + ": ", file=out)
            elif units[xc] in ("", "count"):
                print("%s %s: " % (cols[xc], format(x, ",")), file=out)
            else:
                print("%s %s %s: " % (cols[xc], num(x), units[xc]), file=out)
    elif view == "bars":
        lab = text_label(rows[-1], cols, units)
        if lab:
            print(lab, file=out)
        elif "threads" in cols:
            n = rows[-1][cols.index("threads")]
            print("%d thread%s " % (n, "" if n == 1 else "s"), file=out)
    elif view == "histogram":
        series = [s for s in e["series"] if s["unit"] == e["series"][0]["unit"]][:3]
        for s in series:
            print("%s: n %d," % (s["name"], s.get("count", len(s["samples"]))), file=out)
    elif view == "counters":
        lab = text_label(rows[-1], cols, units)
        print(lab if lab else "rep %d" % rows[-1][cols.index("rep")], file=out)


doc = json.load(open(sys.argv[1]))
views = dict(line.split()[1:3] for line in open(sys.argv[2]) if line.strip())
for e in doc["experiments"]:
    if not e["rows"]:
        continue    # a tab cancelled before its first row (the first tab, paused at once): nothing drawn
    with open(os.path.join(sys.argv[3], e["name"]), "w") as out:
        expect(e, views[e["name"]], out)
    if e["name"] == "valley":
        n = e["rows"][-1]["read_calls"]
        with open(os.path.join(sys.argv[3], "valley.calls"), "w") as out:
            print("{:,} read call{}".format(n, "" if n == 1 else "s"), file=out)
