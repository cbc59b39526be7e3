#!/bin/sh
# tests/tui/lecture-whyhere.sh: where this machine's figures are far from the essay's, the tab says
# why in a line under the essay's ("why here: ..."), from what the run measured and the machine it
# was measured on; where they agree there is no such line. t shows the terms the tab uses and t or Esc
# closes them. At 80x24 and 60x20, from fixtures derived from tests/fixtures/views.json (a saved run
# on a bhyve virtual machine with page-table isolation), measuring nothing.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
python3 - "$top_srcdir/tests/fixtures/views.json" "$tmp" <<'PY' || bail "cannot derive the fixtures"
import copy, json, sys
d = json.load(open(sys.argv[1]))
out = sys.argv[2]
def exp(doc, name):
    return next(e for e in doc["experiments"] if e["name"] == name)
# differ: the saved run as it is (syscall 1,113 ns, pagecache's warm mmap 16x slower than its read,
# wss 440 to 38 GB/s)
json.dump(d, open(out + "/differ.json", "w"))
# agree: the essay's figures (89 ns flat, mmap keeping pace with read, a flat 17 GB/s)
a = copy.deepcopy(d)
for r in exp(a, "syscall")["rows"]:
    r["median_ns"] = 90.0
pc = exp(a, "pagecache")["rows"]
pc[3]["gbps"], pc[3]["ms"] = pc[1]["gbps"], pc[1]["ms"]
for r in exp(a, "wss")["rows"]:
    r["gbps"] = 17.0
json.dump(a, open(out + "/agree.json", "w"))
# contended: syscall near the essay's, its median rising at batch 10,000 where 37 batches waited
c = copy.deepcopy(a)
s = exp(c, "syscall")
s["columns"].append({"name": "contended", "unit": "count", "type": "int"})
for r in s["rows"]:
    r["contended"] = 37 if r["batch"] == 10000 else 0
    if r["batch"] == 10000:
        r["median_ns"], r["batches"] = 300.0, 200
json.dump(c, open(out + "/contended.json", "w"))
PY

# why_on SIZE FILE: open FILE's syscall, pagecache and wss at SIZE (COLSxROWS); the start screen goes
why_on() {
	start C.UTF-8 "${1%x*}" "${1#*x}" --load="$2" --order=syscall,pagecache,wss
	tm_wait "press a key to begin" 10 || bail "$1: no start screen"
	tm_keys x
	tm_wait "syscall · " 10 || bail "$1: syscall's tab did not open"
}

for size in 80x24 60x20; do
	why_on "$size" "$tmp/differ.json"
	check "$size syscall: why here names page-table isolation on the bhyve virtual machine" \
		wait_for 5 tm_flat_match "why here: 13x the essay's: page-table isolation on a bhyve virtual machine"
	check "$size syscall: ... under the essay's line" tm_flat_sees "essay: .* why here: "
	[ "$size" = 80x24 ] && tm_screen >"$tmp/syscall-$size.txt"
	# t: the tab's terms, closed by t or Esc
	tm_keys t
	check "$size t: the terms of syscall" tm_wait "terms: syscall" 5
	check "$size t: ... p99, one line" tm_sees "p99 +99% took less"
	check "$size t: ... page-table isolation" tm_has "PTI"
	check "$size t: ... the last of its terms too (contended)" tm_has "contended"
	tm_keys t
	check "$size t again closes them" tm_wait_gone "terms: syscall" 5
	tm_keys 2
	tm_wait "pagecache · " 5
	check "$size pagecache: why here gives each fault's cost from the saved run" \
		wait_for 5 tm_flat_match "why here: warm mmap 0.094 GB/s, read 1.5: each of 256 faults costs 656 us"
	[ "$size" = 80x24 ] && tm_screen >"$tmp/pagecache-$size.txt"
	tm_keys t
	check "$size t: the terms of pagecache" tm_wait "terms: pagecache" 5
	# every term of the tab, each with the start of its line (the counters view names some of them
	# too), from one read of the screen (read again only when a term is missing)
	tm_snap_clear
	for term in "page cache +file data" "cold / warm +the file's pages" "evict +posix_fadvise" \
		"readahead +the kernel reads" "mmap +a file mapped" "minor fault +a soft fault" \
		"major fault +a hard fault" "fault-around +one fault maps" "O_DIRECT +read from the device"; do
		check "$size t: ... $term" tm_snap_match "$term"
	done
	check "$size t: a line too long for the room wraps or ends in an ellipsis, never cut silently" \
		tm_flat_sees "posix_fadvise DONTNEED: drop a file's (clean pages from RAM|[^ ]* *…)"
	tm_keys Escape
	check "$size Esc closes them" tm_wait_gone "terms: pagecache" 5
	check "$size ... and the tab is back" tm_shows "pagecache · "
	tm_keys 3
	tm_wait "wss · " 5
	check "$size wss: why here says the sum is not core-bound, from its fastest and slowest sizes" \
		wait_for 5 tm_flat_match "why here: not core-bound: 440 GB/s at 32K \(L1\), 38 at 64M \(L3\)"
	[ "$size" = 80x24 ] && tm_screen >"$tmp/wss-$size.txt"
	tm_keys q
	wait_exit 10
	check_eq "$size exit status 0" "$(status)" 0

	why_on "$size" "$tmp/agree.json"
	check "$size syscall: the essay line, and no why here where the figures agree" \
		wait_for 5 tm_flat_match "essay: 89 ns a raw getpid"
	check "$size syscall: ... no why here" tm_lacks "why here"
	tm_keys 2
	tm_wait "pagecache · " 5
	check "$size pagecache: no why here where mmap keeps pace with read" wait_for 5 tm_flat_match "essay: cold"
	check "$size pagecache: ... no why here" tm_lacks "why here"
	tm_keys 3
	tm_wait "wss · " 5
	check "$size wss: no why here on a flat 17 GB/s" wait_for 5 tm_flat_match "essay: a flat 17"
	check "$size wss: ... no why here" tm_lacks "why here"
	tm_keys q
	wait_exit 10

	why_on "$size" "$tmp/contended.json"
	check "$size syscall: a median rising at batch 10,000 names its contended batches" \
		wait_for 5 tm_flat_match "why here: median x3.3 at batch 10,000: 37 of 200 batches waited for a CPU"
	tm_keys q
	wait_exit 10
done
for tab in syscall pagecache wss; do
	diag "$(cat "$tmp/$tab-80x24.txt" 2>/dev/null)"
done

check "nothing measured: no data file" no_datafile

finish
