#!/bin/sh
# tests/tui/rehearsal.sh: the lecture rehearsed as a teacher gives it (issue #40's "Done when"),
# once at 80x24 and once at 120x35.
# At home, recorded (--record): --order=syscall,valley,tail,wss --quick; syscall runs from the cover;
# valley six times (four reruns with r, the sixth under burners: b, r, then b b puts them off); tail
# (burners on and off by its own design), b on tail, r reruns it; wss; s saves; the last screen is
# kept and q quits. In class: the saved JSON --load'ed with the same --order and --step, paged with
# PageDown and PageUp: nothing is measured and the saved runs come back.
#
# Checked, at each size (no measured figure asserted; every wait is for a state that lasts):
#   - the header names the CPU whole (no ellipsis, no trademark signs); no text on any tab is cut
#     with an ellipsis (verdict, essay line, row detail, comparison line), at home and in class;
#     every verdict reads as a sentence (whole, its parentheses closed, not opening on a fragment);
#   - the status line follows the worker: the screen that shows a run ended never says "running";
#   - valley's paired line (quiet vs burners) whole, wrapped if need be, the buffered figure (the
#     best buffer's) before the 16-byte one; the legend names the quiet and the burners runs, and in
#     class all six runs (#1 to #5 and the burners one); y labels evenly spaced on the log axis;
#   - tail draws both distributions, labelled (burners off, burners on (N)), on its first run, on
#     its rerun (the same form, on a log axis) and in class (on the axis the live tab drew);
#   - b on tail says "tail runs quiet and burners itself: b leaves them off", the conditions say
#     "burners: set by tail", and wss then runs with the burners off (screen and saved rows); tail's
#     rerun reads "quiet and burners -> quiet and burners", never "quiet -> quiet";
#   - wss marks L1, L2 (and L3 where the machine has one) on its x axis, live and in class, where
#     the live tab drew them; its three series (scalar, auto, simd) each visible in the plot;
#   - s's notice names the saved files whole, with no ellipsis;
#   - every run of the session is kept: the saved JSON and CSV carry valley's six runs (five
#     earlier labelled quiet, no burners in their rows; the sixth's rows with its burners), tail's
#     two (the earlier labelled "quiet and burners"), syscall's and wss's; the HTML names each
#     experiment once as a heading, heads valley's earlier runs with their labels, says each run's
#     own conditions (the sixth "burners N spin", the others "quiet"; tail's "quiet and burners");
#     no data file is left behind;
#   - the recording is asciicast v2 of the terminal's size and, its events written back into a
#     fresh window of that size, shows exactly the last screen the rehearsal saw;
#   - in class (--load --step): PageDown and PageUp page through the lecture's tabs, nothing is
#     measured (no data file, and the header says so).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

# ---- what a person reads on one screen (python3 on the screen's text, one word or line printed) ----
# look WHAT: "verdict" prints the verdict (the box's lines above "essay:") when it reads as a sentence
# (whole, no ellipsis, its parentheses closed, not opening with a fragment), else "cut: TEXT";
# "log-y" prints "even" when a chart's y labels on a log axis (powers of ten) stand the same number
# of rows a decade apart, else the labels and rows; "marks" prints the legend's marks and, for each,
# whether the plot shows it ("● in plot, ◆ missing"); "legend" the legend's text, joined
looks_py='
import math, re, sys
what = sys.argv[1]
lines = [l.rstrip() for l in sys.stdin.read().split("\n")]
box = [l.strip("│ ").strip() for l in lines if l.startswith("│")]
MARKS = "●◆■▲○◇□△▼▽"
def label_value(s):
    m = re.fullmatch(r"([0-9.]+)([kMG]?)", s)
    return float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}[m.group(2)] if m else None
ylab = [(i, l) for i, l in enumerate(lines) if re.match(r"^│ *[0-9.]+[kMG]?┤", l)]
first_plot = ylab[0][0] if ylab else len(lines)
legend = [l for l in lines[:first_plot] if any(c in l for c in MARKS) and "essay" not in l]
plot = [l for l in lines[first_plot:] if re.match(r"^│ *([0-9.]+[kMG]?┤| *│)", l)]
if what == "verdict":
    text = []
    for l in box:
        if "essay:" in l:
            break
        if l.strip(" █▀▄▌▐"):	# not the big figure drawn in blocks (at 120x35)
            text.append(l)
    v = " ".join(text)
    ok = v and "…" not in v and v.count("(") == v.count(")") and not re.match(r"^(of |\)|[a-z]+ busy too)", v)
    print(v if ok else "cut: " + v)
elif what == "log-y":
    pts = [(i, label_value(re.match(r"^│ *([0-9.]+[kMG]?)┤", l).group(1))) for i, l in ylab]
    dec = [(i, math.log10(v)) for i, v in pts if v and v > 0 and abs(math.log10(v) - round(math.log10(v))) < 1e-9]
    if len(dec) < 2 or len(dec) != len(pts):
        print("no log axis: %r" % pts)
    else:
        steps = {(b[0] - a[0]) / (a[1] - b[1]) for a, b in zip(dec, dec[1:])}
        print("even" if len(steps) == 1 else "uneven: %r" % pts)
elif what == "marks":
    marks = [c for c in "".join(legend) if c in MARKS]
    print(", ".join("%s %s" % (c, "in plot" if any(c in p for p in plot) else "missing") for c in marks))
elif what == "legend":
    print(" ".join(l.strip("│ ") for l in legend))
'
look() {
	tm_screen | python3 -c "$looks_py" "$1"
}

# sentence WHAT: the verdict on the screen reads as a sentence
sentence() {
	lk_v=$(look verdict)
	case $lk_v in
	"cut: "*)
		fail "$1 ($lk_v)"
		tm_screen | sed -n '3,16s/^/# | /p' ;;
	*) pass "$1" ;;
	esac
}

# no_cut WHAT: no text on the screen is cut with an ellipsis
no_cut() {
	if tm_lacks "…"; then
		pass "$1"
	else
		fail "$1"
		tm_screen | grep "…" | sed 's/^/# cut: /'
	fi
}

# ended NAME [N]: as run_ended, keeping the screen that first showed the end in $end_screen
end_screen=
end_seen() {
	end_screen=$(tm_screen)
	screen_line_has "$end_screen" "$1 · " "${2:+run $2 · }done in"
}
ended() {
	wait_sparse 120 end_seen "$@"
}

# follows NAME: the screen that showed NAME's run ended does not say it is running (a look again
# when it does: tmux may have read a frame ncurses was still writing, its status line the last)
follows() {
	case $end_screen in
	*"running $1"*)
		case $(tm_screen) in
		*"running $1"*) fail "$sz: the status line follows the worker: '$1' ended, not 'running'" ;;
		*) pass "$sz: the status line follows the worker: '$1' ended, not 'running'" ;;
		esac ;;
	*) pass "$sz: the status line follows the worker: '$1' ended, not 'running'" ;;
	esac
}

# axis_lines: tail's histogram axis (the "log scale" line and the tick labels under it)
axis_lines() {
	tm_screen | awk '/log scale/ { print; getline; print }'
}

# marker_lines: the chart's lines carrying wss's cache-size markers
marker_lines() {
	tm_screen | grep -E '┊L[123] '
}

for size in "80 24" "120 35"; do
set -- $size
cols=$1
rows=$2
sz="${cols}x$rows"

# ---- at home ----
start C.UTF-8 "$cols" "$rows" --order=syscall,valley,tail,wss --record=rehearsal.cast
check "$sz home: the lecture's cover waits for a key" tm_wait "press a key to begin" 20
tm_keys x
check "$sz home: syscall runs first" ended syscall
follows syscall
hdr=$(printf '%s\n' "$end_screen" | head -n 1)
case $hdr in
*"…"* | *"(R)"* | *"(TM)"* | *®* | *™*) fail "$sz home: the header names the CPU whole, shortened by rule ($hdr)" ;;
*) pass "$sz home: the header names the CPU whole, shortened by rule" ;;
esac
no_cut "$sz home: syscall's text whole, no ellipsis"
sentence "$sz home: syscall's verdict reads as a sentence"
tm_keys PageDown
check "$sz home: valley runs when its tab comes" ended valley
follows valley
no_cut "$sz home: valley's text whole (verdict, essay, row detail), no ellipsis"
sentence "$sz home: valley's verdict reads as a sentence"
check_eq "$sz home: valley's y labels evenly spaced on its log axis" "$(look log-y)" even
for n in 2 3 4 5; do
	tm_keys r
	check "$sz home: valley's run $n" ended valley "$n"
done
follows valley
tm_keys b
check "$sz home: b on valley: burners on" tm_wait "burners on" 10
tm_keys r
check "$sz home: valley's run 6, under burners" ended valley 6
follows valley
check "$sz home: the paired line whole, the buffered figure (the best buffer's) first" \
	tm_flat_sees "quiet vs burners [0-9]+ (spin|stream), paired over 15 rounds: x[0-9.]+ \[[0-9.–-]+\] [a-z0-9 ()]*: GB/s, buffered [0-9]+ KiB reads; x[0-9.]+ \[[0-9.–-]+\] [a-z0-9 ()]*: GB/s, 16-byte reads"
no_cut "$sz home: valley's six runs: no text cut"
case $(look legend) in
*quiet*burners\ [0-9]*) pass "$sz home: the chart's legend names the quiet runs and the burners run" ;;
*) fail "$sz home: the chart's legend names the quiet runs and the burners run ($(look legend))" ;;
esac
tm_keys b b
check "$sz home: b b: burners off again" tm_wait "burners off" 10
tm_keys PageDown
check "$sz home: tail runs when its tab comes" ended tail
follows tail
check "$sz home: tail's burners-off distribution" wait_for 3 tm_match "│ ([^ ] )?burners off( [0-9.]+ [nuµm]?s)?  "
check "$sz home: ... and its burners-on one" wait_for 3 tm_match "│ ([^ ] )?burners on \([0-9]+\)( [0-9.]+ [nuµm]?s)? "
sentence "$sz home: tail's verdict reads as a sentence"
no_cut "$sz home: tail's text whole, no ellipsis"
tm_keys b
check "$sz home: b on tail leaves the burners alone and says so" \
	tm_wait "tail runs quiet and burners itself: b leaves them off" 5
check "$sz home: ... the conditions say tail sets them" tm_shows "[b] burners: set by tail"
tm_keys r
check "$sz home: tail's rerun" ended tail 2
follows tail
check "$sz home: tail's reruns labelled 'quiet and burners'" tm_flat_sees "quiet and burners (→|->) quiet and burners"
check "$sz home: ... never 'quiet -> quiet'" tm_lacks_re "quiet (→|->) quiet([^ ]| [^a])"
check "$sz home: the rerun keeps the histogram's form: both distributions, labelled" wait_for 3 tm_match "│ ([^ ] )?burners off( [0-9.]+ [nuµm]?s)?  "
check "$sz home: ... burners on too" wait_for 3 tm_match "│ ([^ ] )?burners on \([0-9]+\)( [0-9.]+ [nuµm]?s)? "
check "$sz home: ... on the same log axis" tm_shows "log scale"
no_cut "$sz home: tail's comparison line and essay line whole, no ellipsis"
tail_axis=$(axis_lines)
tm_keys PageDown
check "$sz home: wss runs when its tab comes" ended wss
follows wss
check "$sz home: wss ran with the burners off (b on tail changed nothing)" tm_shows "[b] burners off"
sentence "$sz home: wss's verdict reads as a sentence"
no_cut "$sz home: wss's text whole, no ellipsis"
check "$sz home: wss marks L1 on its x axis" tm_sees "┊L1 [0-9]+[KMG]"
check "$sz home: ... and L2" tm_sees "┊L2 [0-9]+[KMG]"
if [ -d /sys/devices/system/cpu/cpu0/cache/index3 ]; then
	check "$sz home: ... and L3" tm_sees "┊L3 [0-9]+[KMG]"
fi
marks=$(look marks)
case $marks in
*"●"*"◆"*"■"*) case $marks in
	*missing*) fail "$sz home: wss's every series visible ($marks)" ;;
	*) pass "$sz home: wss's every series visible: scalar, auto, simd ($marks)" ;;
	esac ;;
*) fail "$sz home: wss's every series visible ($marks)" ;;
esac
check_eq "$sz home: wss's y labels evenly spaced on its log axis" "$(look log-y)" even
wss_marks=$(marker_lines)
json=$(save)
check "$sz home: s saves JSON, HTML and CSV" [ -n "$json" ]
saved_name=$(basename "${json:-none}" .json)
check "$sz home: the notice names the saved files whole" tm_shows "$saved_name.json, .html and .csv"
check "$sz home: ... with no ellipsis" tm_lacks_re "saved .*…"
tm_still "$tmp/last"
tm_keys q
wait_exit 30
check_eq "$sz home: q ends it with status 0" "$(status)" 0
check "$sz home: no data file is left" no_datafile
[ -n "$json" ] && cp "$json" "$tmp/saved.json" || bail "nothing was saved"
cp "$tmp/cwd/$saved_name.csv" "$tmp/saved.csv"
cp "$tmp/cwd/$saved_name.html" "$tmp/saved.html"

# every run of the session kept in the saved JSON, CSV and HTML, each with its label and conditions
said=$(python3 -c '
import csv, json, re, sys
d = json.load(open(sys.argv[1]))
exps = {e["name"]: e for e in d["experiments"]}
out = []
for name in ("syscall", "valley", "tail", "wss"):
    e = exps.get(name)
    out.append("%s:%s:%d" % (name, e["state"] if e else "missing", len(e["rows"]) if e else 0))
v = exps.get("valley", {})
er = v.get("earlier_runs", [])
out.append("valley runs %d" % (1 + len(er)))
out.append("dropped %d" % v.get("earlier_runs_dropped", 0))
out.append("earlier " + ",".join("%s/%s" % (r["label"], r["state"]) for r in er))
out.append("earlier burners %d" % sum(x.get("cond_burners", 0) for r in er for x in r["rows"]))
out.append("sixth burners %d" % max([x.get("cond_burners", 0) for x in v.get("rows", [])] or [0]))
out.append("tail earlier " + ",".join(r["label"] for r in exps.get("tail", {}).get("earlier_runs", [])))
out.append("wss burners %d" % max([x.get("cond_burners", 0) for x in exps.get("wss", {}).get("rows", [])] or [0]))
# the CSV: a run column per run ("TIME, earlier K of N: LABEL"), the conditions in cond_ cells
runs, burn = {}, {}
for r in csv.DictReader(open(sys.argv[2])):
    m = re.search(r", earlier ([0-9]+) of ([0-9]+): (.*)$", r["run"])
    key = "%s %s" % (r["experiment"], "%s/%s %s" % m.groups() if m else "current")
    runs.setdefault(r["experiment"], set()).add(key)
    if r["name"] == "cond_burners" and r["value"] not in ("", "0"):
        burn[key] = 1
out.append("csv valley " + "; ".join(sorted(runs.get("valley", ()))))
out.append("csv valley burners " + "; ".join(sorted(k for k in burn if k.startswith("valley"))))
out.append("csv tail " + "; ".join(sorted(runs.get("tail", ()))))
# the HTML: each experiment a heading once; each run "measured under LABEL" in its own part
h = open(sys.argv[3]).read()
heads = re.findall(r"<h2>([a-z0-9_]+): ", h)
out.append("html headings " + ",".join(sorted(set(heads))) + (" twice" if len(heads) != len(set(heads)) else ""))
parts = re.split(r"(?=<h2>)", h)
for name in ("valley", "tail"):
    p = "".join(x for x in parts if x.startswith("<h2>%s: " % name))
    out.append("html %s under %s" % (name, "; ".join(re.findall(r"measured under ([^<;]*)", p))))
    out.append("html %s earlier %s" % (name, ", ".join(re.findall(r"<h3>([0-9]+\. [^<]*)</h3>", p))))
print("\n".join(out))' "$tmp/saved.json" "$tmp/saved.csv" "$tmp/saved.html")
diag "$said"
said_line() {
	printf '%s\n' "$said" | grep "^$1" | head -n 1
}
for name in syscall valley tail wss; do
	case $said in
	*"$name:done:"[1-9]*) pass "$sz save: $name's run is kept, done, with its rows" ;;
	*) fail "$sz save: $name's run is kept, done, with its rows" ;;
	esac
done
check_eq "$sz save: valley's six runs are all kept (five earlier, the current)" "$(said_line 'valley runs')" "valley runs 6"
check_eq "$sz save: none dropped" "$(said_line dropped)" "dropped 0"
check_eq "$sz save: the five earlier runs are labelled quiet, each done" \
	"$(said_line 'earlier [a-z]*/')" "earlier quiet/done,quiet/done,quiet/done,quiet/done,quiet/done"
check_eq "$sz save: ... and measured without burners" "$(said_line 'earlier burners')" "earlier burners 0"
case $(said_line 'sixth burners') in
"sixth burners 0" | "") fail "$sz save: the sixth run's rows carry its burners" ;;
*) pass "$sz save: the sixth run's rows carry its burners" ;;
esac
check_eq "$sz save: tail's earlier run is labelled 'quiet and burners'" "$(said_line 'tail earlier')" \
	"tail earlier quiet and burners"
check_eq "$sz save: wss ran with no burners (b on tail left them off)" "$(said_line 'wss burners')" "wss burners 0"
check_eq "$sz save: the CSV carries valley's six runs, the earlier ones with their labels" \
	"$(said_line 'csv valley [^b]')" \
	"csv valley valley 1/5 quiet; valley 2/5 quiet; valley 3/5 quiet; valley 4/5 quiet; valley 5/5 quiet; valley current"
check_eq "$sz save: ... and the burners of the sixth alone" "$(said_line 'csv valley burners')" \
	"csv valley burners valley current"
check_eq "$sz save: the CSV carries tail's two runs" "$(said_line 'csv tail')" \
	"csv tail tail 1/1 quiet and burners; tail current"
check_eq "$sz save: the HTML names each experiment once as a heading" "$(said_line 'html headings')" \
	"html headings syscall,tail,valley,wss"
case $(said_line 'html valley under') in
"html valley under burners "[0-9]*"; quiet; quiet; quiet; quiet; quiet") pass "$sz save: the HTML names each valley run's own conditions: the sixth burners, the five earlier quiet" ;;
*) fail "$sz save: the HTML names each valley run's own conditions ($(said_line 'html valley under'))" ;;
esac
check_eq "$sz save: ... and heads the earlier runs with their labels" "$(said_line 'html valley earlier')" \
	"html valley earlier 1. quiet, 2. quiet, 3. quiet, 4. quiet, 5. quiet"
check_eq "$sz save: the HTML says tail's two runs had quiet and burners" "$(said_line 'html tail under')" \
	"html tail under quiet and burners; quiet and burners"
check_eq "$sz save: ... its earlier run headed so" "$(said_line 'html tail earlier')" "html tail earlier 1. quiet and burners"

# the recording, played back into a fresh window of the same size: the last screen the rehearsal saw
said=$(python3 "$top_srcdir/tests/tui/castplay.py" check "$tmp/cwd/rehearsal.cast")
diag "$said"
case $said in
"ok $sz "*) pass "$sz record: asciicast v2 of the $sz terminal, events in time ($said)" ;;
*) fail "$sz record: asciicast v2 of the $sz terminal ($said)" ;;
esac
replay_is "$tmp/cwd/rehearsal.cast" "$cols" "$rows" "$tmp/last" "$sz record: replayed, the recording shows the rehearsal's last screen"

# ---- in class: the saved runs, paged with --step ----
start C.UTF-8 "$cols" "$rows" --load="'$tmp/saved.json'" --order=syscall,valley,tail,wss --step
check "$sz class: the cover names the lecture's tabs" tm_wait "the lecture: syscall valley tail wss" 20
tm_keys x
check "$sz class: syscall's saved run" tm_wait "[1 syscall]"
tm_keys PageDown
check "$sz class: PageDown: valley" tm_wait "[2 valley]"
# a run each ("● quiet, #1   ◆ quiet, #2 ..."), or where that does not fit the line, the runs that
# share their conditions as one entry, each run's mark first ("●◆■▲○ quiet, #1/#2/#3/#4/#5")
check "$sz class: valley's saved runs come back under their labels" tm_sees "● quiet, #1|●◆■▲○ quiet, #1/#2/#3/#4/#5"
check "$sz class: ... with the paired line of its sixth run, whole" \
	tm_flat_sees "quiet vs burners [0-9]+ (spin|stream), paired over 15 rounds: x[0-9.]+ \[[0-9.–-]+\] [a-z0-9 ()]*: GB/s, buffered [0-9]+ KiB reads; x[0-9.]+ \[[0-9.–-]+\] [a-z0-9 ()]*: GB/s, 16-byte reads"
legend=$(look legend)
case $legend in
*"quiet, #1"*"quiet, #5"*burners* | *"●◆■▲○ quiet, #1/#2/#3/#4/#5   ◇ "*burners*)
	pass "$sz class: the legend names valley's six runs (five quiet, the burners one)" ;;
*) fail "$sz class: the legend names valley's six runs ($legend)" ;;
esac
no_cut "$sz class: valley's text whole, no ellipsis"
check_eq "$sz class: valley's y labels evenly spaced on its log axis" "$(look log-y)" even
tm_keys PageDown
check "$sz class: PageDown: tail" tm_wait "[3 tail]"
check "$sz class: tail's burners-off distribution" wait_for 3 tm_match "│ ([^ ] )?burners off( [0-9.]+ [nuµm]?s)?  "
check "$sz class: ... and its burners-on one" wait_for 3 tm_match "│ ([^ ] )?burners on \([0-9]+\)( [0-9.]+ [nuµm]?s)? "
check_eq "$sz class: ... on the axis the live tab drew" "$(axis_lines)" "$tail_axis"
no_cut "$sz class: tail's text whole, no ellipsis"
tm_keys PageDown
check "$sz class: PageDown: wss" tm_wait "[4 wss]"
check "$sz class: wss keeps its cache-size markers" tm_sees "┊L1 [0-9]+[KMG]"
check_eq "$sz class: ... where the live tab drew them" "$(marker_lines)" "$wss_marks"
tm_keys PageUp
check "$sz class: PageUp: back to tail" tm_wait "[3 tail]"
check "$sz class: nothing measured: no data file" no_datafile
check "$sz class: ... and the header says so" tm_shows "no data file yet"
tm_keys q
wait_exit 10
check_eq "$sz class: q ends it with status 0" "$(status)" 0
done
finish
