#!/bin/sh
# tests/tui/busy.sh: a row whose samples waited for a CPU (its contended column > 0) is marked busy.
# Drawn from a saved run, measuring nothing: the bytewise run of tests/fixtures/views.json, once as it
# is (no contended column: no mark, no legend) and once with the one-byte row's contended set to 3
# (the 64 KiB row's to 0): the bars view tags that row "busy" and says what the tag means; valley's
# last row likewise contended: the sweep says so before that row in words; pagecache's cold read
# likewise: its grid (a line per case at 100x30, a column per case at 200x50) names it busy.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
doc["experiments"] = [e for e in doc["experiments"] if e["name"] in ("bytewise", "valley", "pagecache")]
json.dump(doc, open(sys.argv[2], "w"))
for e in doc["experiments"]:
    e["columns"].append({"name": "contended", "unit": "count", "type": "int"})
    for i, r in enumerate(e["rows"]):
        if e["name"] == "pagecache":
            r["contended"] = 2 if (r["pass"], r["method"]) == ("cold", "read 1 MiB") else 0
        else:
            r["contended"] = 3 if r.get("variant") == "1B per read" or i == len(e["rows"]) - 1 else 0
json.dump(doc, open(sys.argv[3], "w"))' "$top_srcdir/tests/fixtures/views.json" "$tmp/quiet.json" "$tmp/busy.json" ||
	bail "cannot make the saved runs"

key=$(awk '$2 == "bytewise" { print substr("1234567890", $1 + 1, 1) }' "$tmp/list")
vkey=$(awk '$2 == "valley" { print substr("1234567890", $1 + 1, 1) }' "$tmp/list")
pkey=$(awk '$2 == "pagecache" { print substr("1234567890", $1 + 1, 1) }' "$tmp/list")

start C.UTF-8 100 30 --load="$tmp/quiet.json"
check "quiet: the dashboard opens on the saved run" tm_wait "quiet: "
tm_keys "$key"
check "quiet: the bytewise bars are drawn" tm_wait "1B per read"
check "quiet: no row is marked busy" tm_lacks "waited for a CPU"
tm_keys "$vkey"
check "quiet: the valley sweep is drawn" tm_wait "16M: "
check "quiet: ... its last row not marked busy" tm_lacks "waited for a CPU"
tm_keys "$pkey"
check "quiet: the pagecache grid is drawn" tm_wait "warm read 1 MiB"
check "quiet: ... no case marked busy" tm_lacks "waited for a CPU"
tm_keys q
wait_exit 10

start C.UTF-8 100 30 --load="$tmp/busy.json"
check "busy: the dashboard opens on the saved run" tm_wait "busy: "
tm_keys "$key"
check "busy: the bytewise bars are drawn" tm_wait "1B per read"
check "busy: the one-byte row's bar is tagged busy" tm_sees "1B per read.*[0-9] (ms|s) .* busy *│?$"
check "busy: the 64 KiB row's is not" tm_lacks_re "64K per read.* busy *│?$"
check "busy: a legend line says what the tag means" tm_shows "busy: samples waited for a CPU"
tm_keys "$vkey"
check "busy: the valley sweep is drawn" tm_wait "16M: "
check "busy: ... its last row in words is marked busy (the tag's short form where the row's words need the room)" \
	tm_sees "busy( \(waited for a CPU\) |: )16M: "
tm_keys "$pkey"
check "busy: the pagecache table is drawn (a line per case at 100 columns)" tm_wait "warm read 1 MiB"
check "busy: the cold read's line is tagged busy" tm_sees "cold read 1 MiB.* busy +[0-9]"
check "busy: the warm read's is not" tm_lacks_re "warm read 1 MiB.* busy "
check "busy: a line under the table says what the tag means" tm_shows "busy: samples waited for a CPU"
tm_keys q
wait_exit 10

# 200x50: the grid's cases are columns; a line under it names the busy one
start C.UTF-8 200 50 --load="$tmp/busy.json"
tm_wait "busy: " 10
tm_keys "$pkey"
check "200x50 busy: the pagecache grid is drawn, a column per case" tm_wait "resident before"
check "200x50 busy: a line names the cold read as busy, and only it" \
	tm_sees "busy: samples of cold read 1 MiB[^,]* waited for a CPU"
tm_keys q
wait_exit 10
check "q ends it with status 0" [ "$(cat "$tmp/status" 2>/dev/null)" = 0 ]
finish
