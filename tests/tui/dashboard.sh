#!/bin/sh
# tests/tui/dashboard.sh: the dashboard as a person sees it, driven through a private tmux server at
# fixed sizes: header and tabs, tab keys, each built experiment's view, the condition keys (and
# that the next rows carry them), help, save, autoplay, resizing, and every way out (q, Ctrl-C,
# SIGTERM) restoring the terminal and removing the data file. Adapts to the experiments built so
# far (wtg --list). No timings: every wait polls the screen with a deadline.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

need tmux
need python3
[ -x "$WTG" ] || skip "$WTG is not built"

scratch
tmp=$lib_tmp
mkdir -p "$tmp/data" "$tmp/cwd" || exit 99

# start LOCALE COLS ROWS [OPTION]...: wtg --quick in a fresh window, from $tmp/cwd (where s saves).
# A shell around it writes wtg's exit status to $tmp/status (tmux may mark a pane dead before it
# learns the status); the shell ignores SIGINT so that Ctrl-C is wtg's alone to handle.
start() {
	loc=$1
	cols=$2
	rows=$3
	shift 3
	rm -f "$tmp/status"
	cmd="trap '' INT; ulimit -c 0; env LC_ALL=$loc LANG=$loc '$WTG' --quick --dir='$tmp/data' $*"
	tm_start "$cols" "$rows" "cd '$tmp/cwd' || exit; $cmd; echo \$? >'$tmp/status'"
}

exited() {
	[ -s "$tmp/status" ]
}

# wait_exit [SECONDS]: wait until wtg has exited.
wait_exit() {
	wait_for "${1:-10}" exited
}

status() {
	cat "$tmp/status" 2>/dev/null
}

datafiles() {
	ls -A "$tmp/data" | wc -l
}

has_datafile() {
	[ "$(datafiles)" -eq 1 ]
}

no_datafile() {
	[ "$(datafiles)" -eq 0 ]
}

# The experiments in tab order: "index name view built".
"$WTG" --list | awk '{ b = /not built yet/ ? 0 : 1; print NR - 1, $1, $2, b }' >"$tmp/list"
nexp=$(wc -l <"$tmp/list")
check "--list names 17 experiments" [ "$nexp" -eq 17 ]

name_of() {
	awk -v i="$1" '$1 == i { print $2 }' "$tmp/list"
}

# The text of tab i, as the tab bar shows it ("3 valley", "threads").
tab_text() {
	if [ "$1" -lt 10 ]; then echo "$((($1 + 1) % 10)) $(name_of "$1")"; else name_of "$1"; fi
}

# goto i: select tab i with the number keys, and Tab beyond the tenth.
goto() {
	if [ "$1" -lt 9 ]; then
		tm_keys "$(($1 + 1))"
	else
		tm_keys 0
		n=$(($1 - 9))
		while [ "$n" -gt 0 ]; do
			tm_keys Tab
			n=$((n - 1))
		done
	fi
	tm_wait "$(tab_text "$1")]" 5
}

# save: press s, wait for the notice, print the JSON path saved.
save() {
	rm -f "$tmp/cwd"/wtg-*.json "$tmp/cwd"/wtg-*.html "$tmp/cwd"/wtg-*.csv
	tm_keys s
	wait_for 10 saved_set || return 1
	ls "$tmp/cwd"/wtg-*.json 2>/dev/null | head -n 1
}

# The last file of a save set (CSV) is there and the status line says so.
saved_set() {
	ls "$tmp/cwd"/wtg-*.csv >/dev/null 2>&1 && tm_has "saved "
}

# run_here i: run tab i's experiment and wait until it ended. The dashboard is kept paused between
# runs (r runs anyway), so that no tab starts by itself when it is visited on the way.
run_here() {
	box_before=$(box_line)
	tm_keys r
	tm_wait "running $(name_of "$1")" 5 || return 1
	# the box's state changes first (or the run was too quick to see and says the same)
	wait_for 10 box_changed
	wait_for 600 tm_ended || return 1	# a sanitizer build runs kernels' 2 GiB buffer slowly
	tm_keys Space
	tm_wait "paused: nothing starts until space" 5
}

# The top edge of the experiment's box, with its state on the right.
box_line() {
	tm_screen | sed -n 3p
}

box_changed() {
	[ "$(box_line)" != "$box_before" ] || box_line | grep -q "running"
}

# Ended: done or failed (a run stopped by r's restart is not the end).
tm_ended() {
	box_line | grep -qE "done in|failed"
}

# ---------------------------------------------------------------------------------------------
# 80x24, UTF-8
start C.UTF-8 80 24
check "80x24: header names wtg, the CPUs and the page size" tm_wait "CPUs · 4K pages"
check "80x24: the first tab is selected" tm_wait "1 bytewise]"
check "80x24: the tab bar lists the first tabs" tm_shows "2 syscall  3 valley"
check "80x24: the data file is created and shown with its known sum" tm_wait "data 64M in $tmp/data, sum" 60
check "80x24: one data file in --dir" has_datafile
check "80x24: the always-on panels" tm_shows "where the time went"
check "80x24: conditions with their keys" tm_shows "[b] burners off"
check "80x24: the status line lists the keys" tm_shows "? help  q quit"

tm_keys 3
check "key 3 selects valley" tm_wait "3 valley]" 5
check "valley's box shows its question" tm_wait "valley · How big should the read buffer be?" 5
tm_keys Tab
check "Tab moves to kernels" tm_wait "4 kernels]" 5
tm_keys BTab
check "Shift-Tab moves back" tm_wait "3 valley]" 5
tm_keys Right
check "Right moves on" tm_wait "4 kernels]" 5
tm_keys Left
check "Left moves back" tm_wait "3 valley]" 5
tm_keys 0
check "key 0 selects the tenth tab" tm_wait "0 threads]" 5
tm_keys Tab
check "Tab reaches the eleventh tab, keyed !" tm_wait "[! roofline]" 5
tm_keys 1

tm_keys '?'
check "? opens the help" tm_wait "help: keys and views" 5
check "the help lists the condition keys" tm_shows "evict the data file from the page cache now"
tm_keys x
check "any key closes the help" tm_wait_gone "help: keys and views" 5

# condition keys: the conditions panel changes at once
tm_keys b
check "b turns the burners on, spinning" tm_wait "[b] burners on" 5
check "the conditions panel names the spin kind" tm_shows "spin"
tm_keys b
check "b again makes them stream through memory" tm_wait "stream" 5
check "the notice says what each stream burner reads" tm_shows "burners streaming:"
tm_keys b
check "a third b turns them off" tm_wait "[b] burners off" 5
tm_keys p
check "p requests the background policy" tm_wait "[p] policy background" 5
tm_keys p
check "p again asks for the normal policy" tm_wait "[p] policy normal" 5
tm_keys u
check "u turns uncached I/O on and says how" tm_wait "[u] I/O uncached: " 5
tm_keys u
check "u again: cached" tm_wait "[u] I/O cached" 5
tm_keys c
check "c evicts the data file and says how many pages stay" tm_wait "evicted the data file: " 5

tm_keys Space
check "space pauses" tm_wait "paused: " 5
check "the progress line says paused" tm_wait "‖ paused" 5
tm_keys Space
check "space again resumes" tm_wait "resumed" 5

json=$(save)
check "s saves and shows the paths" [ -n "$json" ]
csv=${json%.json}.csv
check "the saved JSON parses" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["tool"] == "wtg" and "machine" in d' "$json"
check "the saved CSV has the saved experiments in order" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().splitlines()
import csv
names = []
for r in csv.DictReader(lines):
    if not names or names[-1] != r["experiment"]:
        names.append(r["experiment"])
assert names == [e["name"] for e in d["experiments"]], (names, d["experiments"])' "$json" "$csv"

cat >"$tmp/expect.py" <<'PY'
# expect.py JSON NAME VIEW: lines the dashboard must show for that experiment's rows
import json, math, sys
doc = json.load(open(sys.argv[1]))
e = [x for x in doc["experiments"] if x["name"] == sys.argv[2]][0]
view = sys.argv[3]
cols = [c["name"] for c in e["columns"]]
units = [c["unit"] for c in e["columns"]]
rows = [[r[n] for n in cols] for r in e["rows"]]	# schema 2: objects keyed by column
assert rows, "no rows"

def size(b):
    u, v = 0, float(b)
    while v >= 1024 and u < 4:
        v /= 1024
        u += 1
    if u == 0:
        return "%dB" % b
    return ("%d%s" if v == int(v) else "%.1f%s") % (v, "BKMGT"[u])

def text_label(r):
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
if view == "sweep":
    # the words under the chart start with the latest row's x
    xc = cols.index(xcol.get(e["name"], cols[0]))
    x = rows[-1][xc]
    if x is not None:
        if units[xc] == "B":
            print(size(x) + ": ")
        elif units[xc] in ("", "count"):
            print("%s %s: " % (cols[xc], format(x, ",")))
        else:
            print("%s %s %s: " % (cols[xc], num(x), units[xc]))
elif view == "bars":
    lab = text_label(rows[-1])
    if lab:
        print(lab)
    elif "threads" in cols:
        n = rows[-1][cols.index("threads")]
        print("%d thread%s " % (n, "" if n == 1 else "s"))
elif view == "histogram":
    series = [s for s in e["series"] if s["unit"] == e["series"][0]["unit"]][:3]
    for s in series:
        print("%s: n %d," % (s["name"], s.get("count", len(s["samples"]))))
elif view == "counters":
    lab = text_label(rows[-1])
    print(lab if lab else "rep %d" % rows[-1][cols.index("rep")])
PY

# each built experiment: run it from its tab, then its view shows what it measured
tm_keys Space
tm_wait "paused: nothing starts until space" 5
valley_done=0
while read -r i name view built; do
	[ "$built" = 1 ] || continue
	goto "$i"
	if ! run_here "$i"; then
		fail "$name: runs to the end from its tab"
		tm_dump "$name"
		continue
	fi
	check "$name: ended without failing" tm_lacks "failed ✗"
	# what the screen must show of the rows measured, worked out from the saved JSON
	json=$(save)
	python3 "$tmp/expect.py" "$json" "$name" "$view" >"$tmp/expect" || fail "$name: nothing to expect"
	while IFS= read -r want; do
		check "$name: the screen shows '$want'" tm_shows "$want"
	done <"$tmp/expect"
	case $view in
	sweep)
		check "$name: the sweep labels its log x axis" tm_shows "(log scale)"
		check "$name: the latest row in words under the chart" tm_shows ": " ;;
	bars)
		check "$name: the bars show their values with units" tm_match "[0-9] (ms|s|us|ns|GB/s)" ;;
	histogram)
		check "$name: median, p90 and p99 are marked" tm_shows "median"
		check "$name: the figures under the histogram" tm_shows "p99 " ;;
	counters)
		check "$name: the counters name their faults" tm_shows "faults" ;;
	esac
	if [ "$name" = valley ]; then
		valley_done=1
		check "valley: the x axis runs from 16B to 16M" tm_match "16B .* 16M"
		check "valley: the y axis says GB/s" tm_shows "GB/s  by read() buffer size"
		json=$(save)
		calls=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = [e for e in d["experiments"] if e["name"] == "valley"][0]
c = "read_calls"
n = v["rows"][-1][c]
print("{:,} read call{}".format(n, "" if n == 1 else "s"))' "$json")
		check "valley: the screen shows the last row's read calls ($calls)" tm_shows "$calls"
	fi
done <"$tmp/list"

# the next rows carry a condition switched on
if [ "$valley_done" = 1 ]; then
	goto 2
	tm_keys b
	tm_wait "[b] burners on" 5
	run_here 2
	json=$(save)
	check "valley rows measured after b carry the burners" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = [e for e in d["experiments"] if e["name"] == "valley"][0]
c = "cond_burners"
assert v["rows"] and all(r[c] > 0 for r in v["rows"]), v["rows"]' "$json"
	tm_keys b b
	tm_wait "[b] burners off" 5
	tm_keys u
	tm_wait "[u] I/O uncached: " 5
	box_before=$(box_line)
	tm_keys Enter
	tm_wait "running valley" 5
	wait_for 10 box_changed
	wait_for 120 tm_ended
	tm_keys Space
	tm_wait "paused: nothing starts until space" 5
	json=$(save)
	check "valley rows measured after u carry the uncached I/O mode (Enter reruns)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = [e for e in d["experiments"] if e["name"] == "valley"][0]
c = "cond_io"
assert v["rows"] and all(r[c] in ("direct", "evicting") for r in v["rows"]), v["rows"]' "$json"
	tm_keys u
	tm_wait "[u] I/O cached" 5
fi

tm_keys Space
tm_wait "resumed" 5

# autoplay moves on to the next built experiment by itself
first=$(awk '$4 == 1 { print $1; exit }' "$tmp/list")
second=$(awk '$4 == 1 { n++ } $4 == 1 && n == 2 { print $1; exit }' "$tmp/list")
if [ -n "$second" ]; then
	goto "$first"
	tm_keys a
	check "a starts autoplay" tm_wait "autoplay: every experiment in turn" 5
	check "autoplay moves to the next experiment by itself" tm_wait "$(tab_text "$second")]" 150
	tm_keys x
	check "any key stops autoplay" tm_wait "autoplay stopped" 5
else
	tm_keys a
	check "a says what autoplay can do with what is built" tm_wait "autoplay" 5
fi

# resizing
tm_resize 70 20
check "below 80x24 the screen says so" tm_wait "terminal too small: need 80x24, have 70x20" 5
tm_resize 80 24
check "back at 80x24 the dashboard returns" tm_wait "where the time went" 5
tm_resize 100 30
check "at 100x30 too" tm_wait "where the time went" 5
tm_resize 60 12
check "small again" tm_wait "terminal too small: need 80x24, have 60x12" 5
tm_keys q
check "q quits from the too-small screen" wait_exit 10
check_eq "q: exit status 0" "$(status)" 0
check_eq "q: the terminal is back on its normal screen" "$(tm_var alternate_on)" 0
check "q: the data file is gone" no_datafile

# ---------------------------------------------------------------------------------------------
# signals
start C.UTF-8 80 24
tm_wait "data 64M in" 60
check "SIGTERM: the data file exists first" has_datafile
kill -TERM "$(tm_children)"
check "SIGTERM: wtg exits" wait_exit 10
check_eq "SIGTERM: exit status 143" "$(status)" 143
check_eq "SIGTERM: the terminal is restored" "$(tm_var alternate_on)" 0
check "SIGTERM: the data file is gone" no_datafile

start C.UTF-8 80 24
tm_wait "data 64M in" 60
tm_keys C-c
check "Ctrl-C: wtg exits" wait_exit 10
check_eq "Ctrl-C: exit status 130" "$(status)" 130
check_eq "Ctrl-C: the terminal is restored" "$(tm_var alternate_on)" 0
check "Ctrl-C: the data file is gone" no_datafile

start C.UTF-8 80 24
tm_wait "data 64M in" 60
kill -SEGV "$(tm_children)"
check "a crash: wtg dies of its signal" wait_exit 10
check_eq "a crash: exit status 139" "$(status)" 139
check "a crash: the terminal is restored" [ "$(tm_var alternate_on)" = 0 ]
check "a crash: the data file is gone" no_datafile

# the worker starved: background policy under burners, a full-size valley with tiny reads
rm -f "$tmp/status"
cmd="env LC_ALL=C.UTF-8 '$WTG' --size=64M --dir='$tmp/data'"
tm_start 80 24 "cd '$tmp/cwd' || exit; $cmd; echo \$? >'$tmp/status'"
tm_wait "data 64M in" 60
tm_keys 3
tm_wait "3 valley]" 5
tm_keys b p r
check "background policy under burners: the screen says the worker is starved" \
	tm_wait "worker starved: no progress for " 60
tm_keys 5
check "starved: the keys still work" tm_wait "5 mmap]" 5
tm_keys q
check "starved: q still quits" wait_exit 10
check_eq "starved: exit status 0" "$(status)" 0
check "starved: the data file is gone" no_datafile

start C.UTF-8 80 24
tm_wait "data 64M in" 60
tm_stop
check "the terminal closing (SIGHUP): the data file is gone" wait_for 10 no_datafile

# a data file that cannot be made (no room for 1T) is said in the header when it is needed
if [ "$(df -Pk "$tmp/data" | awk 'NR == 2 { print $4 }')" -lt $((1 << 30)) ]; then
	start C.UTF-8 80 24 --size=1T
	check "a data file that cannot be made is said in the header" tm_wait "data file failed: " 30
	tm_keys q
	wait_exit 10
fi

# the data file is made when the first experiment that reads it is about to run, not before: the
# key 2 waits in the terminal before wtg starts, so the first tab to run is syscall
rm -f "$tmp/status" "$tmp/go"
cmd="while [ ! -e '$tmp/go' ]; do sleep 0.05; done; env LC_ALL=C.UTF-8 '$WTG' --quick --dir='$tmp/data'"
tm_start 80 24 "cd '$tmp/cwd' || exit; $cmd; echo \$? >'$tmp/status'"
tm_keys 2
touch "$tmp/go"
check "a key typed before the start selects syscall" tm_wait "2 syscall]" 10
check "syscall runs to the end" wait_for 60 tm_ended
check "the header says there is no data file yet" tm_shows "no data file yet"
check "syscall made no data file" no_datafile
tm_keys 1
check "bytewise, which reads the file, makes it" tm_wait "data 64M in $tmp/data, sum" 60
check "then the data file is there" has_datafile
tm_keys q
check "q quits" wait_exit 10
check "the data file is gone" no_datafile

# terminals the dashboard cannot drive: a usage error (exit 2) with one line that points to --run
for term in wtg-no-such-terminal dumb; do
	rm -f "$tmp/status"
	cmd="env TERM=$term LC_ALL=C.UTF-8 '$WTG' --quick --dir='$tmp/data'"
	tm_start 200 24 "$cmd; echo \$? >'$tmp/status'; sleep 30"	# wide: the message on one line
	check "TERM=$term: wtg exits" wait_exit 10
	check_eq "TERM=$term: exit status 2" "$(status)" 2
	check "TERM=$term: one clear message" tm_match "^wtg: .*TERM=$term.*; use --run=LIST for headless output"
done
check "the refused terminals made no data file" no_datafile

# ---------------------------------------------------------------------------------------------
# sizes and glyphs
start C.UTF-8 200 50
check "200x50: the long title" tm_wait "wtg · where the time goes"
check "200x50: every tab fits" tm_shows "compare"
check "200x50: the full panel title" tm_shows "faults · switches · CPUs"
check "200x50: UTF-8 frames" tm_shows "┌─"
tm_keys q
wait_exit 10

start C.UTF-8 80 24 --ascii
check "--ascii 80x24: ASCII frames" tm_wait "+- bytewise - Why did adding up bytes take 21 s?"
check "--ascii 80x24: no line-drawing characters" tm_lacks "─"
check "--ascii 80x24: the tabs" tm_shows "1 bytewise]"
tm_keys q
wait_exit 10

start C.UTF-8 200 50 --ascii
check "--ascii 200x50: ASCII frames" tm_wait "+- where the time went"
check "--ascii 200x50: no line-drawing characters" tm_lacks "│"
tm_keys q
wait_exit 10

start C 80 24
check "a C locale picks ASCII by itself" tm_wait "+- where the time went"
check "a C locale: no line-drawing characters" tm_lacks "─"
tm_keys q
check "a C locale: q quits" wait_exit 10

check "no data file is left behind" no_datafile
finish
