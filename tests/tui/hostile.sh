#!/bin/sh
# tests/tui/hostile.sh: a saved run whose label, hostname and note carry terminal controls (an OSC
# that retitles the window, a CSI that clears it, BEL, the C1 CSI) is drawn with their escapes
# (\e, \x07, \xc2\x9b): the window keeps its title, the header and the note show the escapes.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

"$WTG" --run=valley --quick --dir="$tmp/data" -o "$tmp/plain.json" 2>/dev/null ||
	bail "cannot save a valley run"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["run"]["label"] = "evil\x1b]2;pwned\x07\x1b[2J"
d["machine"]["hostname"] = "host\x1b[31m\u009b1m"
d["experiments"][0]["notes"].append("a note \x1b[2J\x07 with controls")
json.dump(d, open(sys.argv[2], "w"))' "$tmp/plain.json" "$tmp/evil.json" || bail "cannot edit the saved run"

valley_key=$(awk '$2 == "valley" { print substr("1234567890", $1 + 1, 1) }' "$tmp/list")
start C.UTF-8 200 40 --load="$tmp/evil.json"
check "the header shows the label's escapes" tm_wait 'evil\e]2;pwned\x07\e[2J: '
check "... and the hostname's, the C1 CSI as \\xc2\\x9b" tm_shows 'host\e[31m\xc2\x9b1m'
check "the window keeps its title" [ "$(tm_var pane_title)" != pwned ]
tm_keys "$valley_key" n
check "n: the note shows its escapes" tm_wait 'a note \e[2J\x07 with controls'
tm_keys q
wait_exit 10
check "q ends it with status 0" [ "$(cat "$tmp/status" 2>/dev/null)" = 0 ]
finish
