#!/bin/sh
# tests/tui/save.sh: the dashboard's save keys, driven through a private tmux server. s writes JSON,
# HTML and CSV into the current folder, never over an existing file (a -2 suffix instead, and a set
# half taken is not left behind), falls back to $XDG_DATA_HOME/wtg (or ~/.local/share/wtg) when the
# current folder cannot take them, and shows the absolute path shortened in its middle. w writes the
# screen as plain text. No timings: every wait polls with a deadline.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

need tmux
need python3
[ -x "$WTG" ] || skip "$WTG is not built"

scratch
tmp=$lib_tmp
mkdir -p "$tmp/data" "$tmp/cwd" "$tmp/gone" "$tmp/home" || exit 99

# start COLS ROWS DIR [ENV]...: the dashboard (--quick, paused) in DIR at COLS x ROWS.
start() {
	cols=$1
	rows=$2
	dir=$3
	shift 3
	rm -f "$tmp/status"
	cmd="ulimit -c 0; env $* LC_ALL=C.UTF-8 LANG=C.UTF-8 '$WTG' --quick --dir='$tmp/data'"
	tm_start "$cols" "$rows" "cd '$dir' || exit; $cmd; echo \$? >'$tmp/status'"
	tm_wait "data 64M in" 60
}

quit() {
	tm_keys q
	wait_for 10 [ -s "$tmp/status" ]
}

# The status line (the last line of the screen).
status_line() {
	tm_screen | tail -n 1
}

# count DIR GLOB: how many files match.
count() {
	ls "$1"/$2 2>/dev/null | wc -l
}

# saved_in DIR N: N complete save sets (the CSV is written last) are in DIR.
saved_in() {
	[ "$(count "$1" 'wtg-*.csv')" -eq "$2" ] && tm_has "saved "
}

# ---- s in a writable folder, 80 columns: the path loses its middle -----------------------------
start 80 24 "$tmp/cwd"
check "the dashboard starts" tm_has "? help  q quit"
tm_keys s
check "s writes a save set into the current folder" wait_for 10 saved_in "$tmp/cwd" 1
line=$(status_line)	# now: the notice stays a few seconds
json=$(ls "$tmp/cwd"/wtg-*.json 2>/dev/null | head -n 1)
base=$(basename "${json%.json}")
check "the set is JSON, HTML and CSV with one name" \
	[ -s "$tmp/cwd/$base.json" -a -s "$tmp/cwd/$base.html" -a -s "$tmp/cwd/$base.csv" ]
check "the name is wtg-DATE-TIME" python3 -c '
import re, sys
assert re.fullmatch(r"wtg-\d{8}-\d{6}", sys.argv[1]), sys.argv[1]' "$base"
check "the saved JSON parses" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["tool"] == "wtg" and "machine" in d' "$json"
check "the saved HTML is one page without script or fetched parts" python3 -c '
import sys
h = open(sys.argv[1]).read()
assert h.startswith("<!DOCTYPE html>") and h.rstrip().endswith("</html>")
assert "<script" not in h and "src=" not in h and "http://" not in h.replace("http://www.w3.org/2000/svg", "")' \
	"$tmp/cwd/$base.html"
check "the status line ends with the whole file name (never cut at the right)" \
	sh -c 'case "$1" in *"$2.json, .html and .csv"*) exit 0;; esac; exit 1' - "$line" "$base"
check "saved in the current folder: the notice names the files alone, whole (saved ./NAME.json, .html and .csv)" \
	sh -c 'case "$1" in *"saved ./$2.json, .html and .csv"*) case "$1" in *…*) exit 1;; esac; exit 0;; esac; exit 1' \
	- "$line" "$base"

# ---- two saves in the same second: nothing is replaced, a half-taken set is not left ---------
# Another dashboard's files for the next seconds: a CSV only, so the first attempt writes its JSON
# and HTML before it finds the name taken.
rm -f "$tmp/cwd"/wtg-*
t0=$(date +%s)
for i in 0 1 2 3 4 5 6 7 8 9; do
	b=wtg-$(date -d "@$((t0 + i))" +%Y%m%d-%H%M%S)
	echo "someone else's $b" >"$tmp/cwd/$b.csv"
done
tm_keys s
check "s beside taken names writes a set with a -2 suffix" wait_for 10 sh -c 'ls "$1"/wtg-*-2.csv >/dev/null 2>&1' - "$tmp/cwd"
wait_for 3 tm_has "-2.json"
line=$(status_line)
two=$(ls "$tmp/cwd"/wtg-*-2.json 2>/dev/null | head -n 1)
first=${two%-2.json}
check "the -2 set is whole" [ -s "$first-2.json" -a -s "$first-2.html" -a -s "$first-2.csv" ]
check "the file that was there is unchanged" \
	[ "$(cat "$first.csv")" = "someone else's $(basename "$first")" ]
check "the attempt on the taken name left nothing behind" [ ! -e "$first.json" -a ! -e "$first.html" ]
check_eq "ten other files and one set" "$(count "$tmp/cwd" 'wtg-*')" 13
check "the status line shows the -2 name" \
	sh -c 'case "$1" in *"$2-2.json, .html and .csv"*) exit 0;; esac; exit 1' - "$line" "$(basename "$first")"

# ---- w: the screen as text --------------------------------------------------------------------
tm_keys w
check "w writes the screen as text" wait_for 10 sh -c 'ls "$1"/wtg-screen-*.txt >/dev/null 2>&1' - "$tmp/cwd"
check "the status line says where the screen went" tm_shows "screen saved "
txt=$(ls "$tmp/cwd"/wtg-screen-*.txt 2>/dev/null | head -n 1)
check "the screen text has no escape codes and fits the screen" python3 -c '
import sys
s = open(sys.argv[1], encoding="utf-8").read()
assert "\x1b" not in s and "\r" not in s
lines = s.split("\n")[:-1]
assert len(lines) == 24, len(lines)
assert all(len(l) <= 80 and l == l.rstrip() for l in lines)
assert "where the time went" in s and "1 bytewise" in s and "? help  q quit" in s' "$txt"
quit
check "q quits after saving" [ "$(cat "$tmp/status")" = 0 ]

# ---- a current folder that cannot take files: $XDG_DATA_HOME/wtg, made when missing -----------
start 160 30 "$tmp/gone" "XDG_DATA_HOME='$tmp/xdg'"
rmdir "$tmp/gone"
tm_keys s
check "without a usable folder s saves into \$XDG_DATA_HOME/wtg" wait_for 10 saved_in "$tmp/xdg/wtg" 1
check "the status line shows the whole absolute path when it fits" tm_shows "saved $tmp/xdg/wtg/wtg-"
tm_resize 80 24
check "narrower, the path loses its middle, not its start or its file name" wait_for 3 sh -c '
	tmux -L "$1" capture-pane -p -t "$2" | tail -n 1 | grep -qE "saved /[^ ]*…/wtg-[0-9]{8}-[0-9]{6}\.json, \.html and \.csv"' \
	- "$TM_SOCK" "$TM_TARGET"
quit

# ---- and without XDG_DATA_HOME: ~/.local/share/wtg --------------------------------------------
mkdir -p "$tmp/gone"
start 160 30 "$tmp/gone" -u XDG_DATA_HOME "HOME='$tmp/home'"
rmdir "$tmp/gone"
tm_keys s
check "without XDG_DATA_HOME s saves into ~/.local/share/wtg" wait_for 10 saved_in "$tmp/home/.local/share/wtg" 1
quit
check "the data files are gone" [ -z "$(ls -A "$tmp/data")" ]

finish
