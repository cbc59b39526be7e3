#!/bin/sh
# tests/tui/saved.sh: s saves the session: the JSON parses, the CSV has the same experiments in
# order.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

dash_ready
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

finish
