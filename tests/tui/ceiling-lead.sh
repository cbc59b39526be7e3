#!/bin/sh
# tests/tui/ceiling-lead.sh: a verdict longer than 256 bytes over the view, whole where the screen
# holds it. ceiling's verdict has a part per buffer (L1; L2; memory: over 300 characters); the
# dashboard read it into 256 bytes and cut its memory part mid-word at 200x50 ("more misses i"), no
# ellipsis; at 80x24 the parts that did not fit were dropped from the end, the memory part with them,
# so the verdict now gives it first. Its essay line took the words after the verdict's first ": " for
# this machine's figure and showed "here: the". A saved quick run of ceiling
# (tests/fixtures/ceiling-levels.json).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
fix="$top_srcdir/tests/fixtures/ceiling-levels.json"
# the memory part of the fixture's verdict, as an extended regular expression
mem=$(python3 -c '
import json, re, sys
v = json.load(open(sys.argv[1]))["experiments"][0]["verdict"]
part = v[v.index("memory: "):]
part = re.sub(r" \([0-9]+ of [0-9]+ samples waited for a CPU\)$", "", part)
print(re.sub(r"([.\[\]()*+?{}|^$\\])", r"\\\1", part))' "$fix") || bail "cannot read $fix"

for size in 200x50 120x35 80x24; do
	start C.UTF-8 "${size%x*}" "${size#*x}" --load="$fix" --order=ceiling
	tm_wait "press a key to begin" 10 || bail "$size: no start screen"
	tm_keys x
	check "$size: the saved ceiling run opens" tm_wait "What caps one core?" 10
	if [ "$size" = 200x50 ]; then
		check "$size: the verdict's memory part whole, to its last word" tm_flat_sees "$mem"
	fi
	check "$size: the verdict's memory part first, the question's answer (a narrow screen keeps it)" \
		tm_flat_sees "ceiling · What caps one core\? .* memory: "
	check "$size: the essay line gives no word of the verdict for a figure" tm_lacks "here: the"
	check "$size: ... nor a part of one ('here: 8' of '8 streams')" tm_lacks_re "here: [0-9]+ *│"
	check "$size: ... and the essay's own words" tm_shows "essay: one worker capped"
	tm_keys q
	check "$size: q quits" wait_exit 10
done
finish
