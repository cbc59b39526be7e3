#!/bin/sh
# tests/tui/lecture-cold.sh: c visibly empties the cache for the measurement. On mmap, c then r
# measures the file cold (no warm-up pass reads it back, each pass starts evicted): the run is
# labelled "cold cache" beside the warm one ("quiet -> cold cache", not "quiet -> quiet"), its notes
# say so, and a save records it ("cold_cache": true) and brings the label back. valley too measures
# cold under c (every pass on an evicted file), its rerun paired against the warm run's conditions
# ("quiet vs cold cache, paired over 15 rounds: "), and the conditions panel shows the cold request
# pending until the run takes it. On passes, which times warm passes, c says the run will not be
# cold and why, the run is not labelled cold and its notes say why; on uncached, which reads around
# the page cache itself, c says so.
# Live runs on a 4 MiB data file (on a 16 MiB one a cold valley run read the disk for 10 s here), at
# 80x24 and 60x20.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
py=python3	# tests/lib.sh's: the interpreter itself, not a version manager's shim

# passes' rerun seen: running, or already over (a 4 MiB file's passes can end between two looks),
# which its box says ("run 2 · done in", on no screen before it)
passes_rerun() {
	tm_match "passes · .*(running|run 2 · done in)"
}

for size in 80x24 60x20; do
	start C.UTF-8 ${size%x*} ${size#*x} --size=4M --order=mmap,valley,passes,uncached
	tm_wait "press a key to begin" 10 || bail "$size: no start screen"
	tm_keys x
	check "$size: mmap runs warm first" run_ended mmap
	tm_keys c
	[ $size = 80x24 ] && check "$size: c on mmap says the next run measures it cold" \
		wait_for 5 tm_flat_match "evicted the data file: .* r measures it cold"
	tm_keys r
	# (a 4M mmap run lasts a tenth of a second: a look may never see it running; the label below
	# says it ran)
	check "$size: mmap rerun ends" run_ended mmap 2
	check "$size: the cold run is labelled so beside the warm one" \
		wait_for 5 tm_flat_match "quiet (→|->) cold cache, sequential: "
	check "$size: ... not 'quiet -> quiet'" tm_lacks_re "quiet (→|->) quiet[:,]"
	if [ $size = 80x24 ]; then
		json=$(save)
		check "$size: s saves" [ -n "$json" ]
		check "$size: the save records the cold run, and the warm one before it" "$py" -c '
import json, sys
e = [x for x in json.load(open(sys.argv[1]))["experiments"] if x["name"] == "mmap"][0]
assert e.get("cold_cache") is True, e.get("cold_cache")
assert [r["label"] for r in e["earlier_runs"]] == ["quiet"], e["earlier_runs"]
assert "cold_cache" not in e["earlier_runs"][0]' "$json"
		check "$size: its notes say no warm-up read the file back (the warm run had one)" "$py" -c '
import json, sys
e = [x for x in json.load(open(sys.argv[1]))["experiments"] if x["name"] == "mmap"][0]
assert any(n.startswith("cold cache (c): no warm-up") for n in e["notes"]), e["notes"]
assert any(n.startswith("warm-up: one unreported") for n in e["earlier_runs"][0]["notes"])' "$json"
	fi
	tm_keys 2
	tm_wait "valley · " 5
	check "$size: valley runs warm" run_ended valley
	tm_keys c
	if [ $size = 80x24 ]; then
		check "$size: c on valley says the next run measures it cold" \
			wait_for 5 tm_flat_match "evicted the data file: .* r measures it cold"
		check "$size: ... the conditions panel shows the cold request pending" \
			wait_for 3 tm_match "\[c\] (cached [0-9]+%, cold |[0-9]+% )?pending"
	fi
	tm_keys r
	check "$size: valley rerun ends" run_ended valley 2
	[ $size = 80x24 ] && check "$size: ... the run took the request: no longer pending" \
		wait_for 5 tm_lacks_re "\[c\] .*pending"
	check "$size: ... paired against the warm conditions before it, labelled cold" \
		wait_for 5 tm_flat_match "quiet vs cold cache, paired over 15 rounds: "
	tm_keys 3
	tm_wait "passes · " 5
	check "$size: passes runs" run_ended passes
	tm_keys c
	[ $size = 80x24 ] && check "$size: c on passes says its run will not be cold, and why, whole" \
		wait_for 5 tm_flat_match "evicted: [0-9,]+ (→|->) [0-9,]+ pages; not cold: it times warm passes, after a warm-up"
	tm_keys r
	check "$size: passes rerun" wait_for 10 passes_rerun
	check "$size: ... ends" run_ended passes 2
	check "$size: ... not labelled cold" wait_for 5 tm_flat_match "quiet (→|->) quiet, sequential: "
	check "$size: ... nowhere 'cold cache'" tm_lacks "cold cache"
	[ $size = 80x24 ] && check "$size: ... its legend tells the two quiet runs apart" \
		tm_flat_sees "quiet, before .*quiet, now"
	if [ $size = 80x24 ]; then
		json=$(save)	# (a save replaces the last: the mmap run in it is the cold one)
		check "$size: valley saved cold, its notes say how; passes not cold, its notes say why" "$py" -c '
import json, sys
e = {x["name"]: x for x in json.load(open(sys.argv[1]))["experiments"]}
assert e["valley"].get("cold_cache") is True and "cold_cache" not in e["valley"]["earlier_runs"][0]
assert any(n.startswith("cold cache (c): the data file was evicted") for n in e["valley"]["notes"])
assert "cold_cache" not in e["passes"]
assert any("this run is not cold: it times warm passes" in n for n in e["passes"]["notes"]), e["passes"]["notes"]' "$json"
		tm_keys 4
		tm_wait "uncached · " 5
		tm_keys c
		check "$size: c on uncached: it reads around the page cache itself" \
			tm_wait "uncached sets the page cache itself" 5
	fi
	tm_keys q
	wait_exit 10
	check_eq "$size: exit status 0" "$(status)" 0
	if [ $size = 80x24 ] && [ -n "$json" ]; then
		start C.UTF-8 80 24 --load="$json" --order=mmap
		tm_wait "press a key to begin" 10 && tm_keys x
		check "reopened: the saved run is labelled cold" \
			wait_for 10 tm_flat_match "quiet (→|->) saved: cold cache, sequential: "
		tm_keys q
		wait_exit 10
	fi
done
check "every data file was removed" no_datafile

finish
