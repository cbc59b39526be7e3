#!/bin/sh
# strace.sh: strace sees the read() calls bytewise reports, and only a few more.
#
# bytewise runs on a --file this script writes (70001 bytes: the 1-byte variant reads all of it,
# the 64 KiB variant makes 2 calls per pass). wtg scans a --file with pread(), never read(), so on
# the data file strace must see exactly: 1-byte read_calls + 64 KiB read_calls + the other calls a
# note reports: the calibration (16 rounds of reads of 1, 64, 4096 and 65536 bytes: 1024 + 1024 +
# 17 + 1 calls on this file) and the 64 KiB variant's 11 passes beyond the one read_calls counts
# (a warm-up and 10 more timed ones, 2 calls each). strace -c counts every read() of the
# process; the difference is the dynamic loader, locale files, the machine block's /proc and /sys
# files, one perf counter read per probe and the main thread draining its wake-up eventfd (two
# reads per wake-up). About 45 on the machine this was written on; SLACK allows 200.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
SLACK=200

need strace
need python3
strace -f -o /dev/null true 2>/dev/null || skip "ptrace is not permitted here"

scratch
tmp=$lib_tmp
data=$tmp/data.bin
head -c 70001 /dev/urandom >"$data"
cp "$data" "$tmp/copy.bin"

# run 1: every read() of every thread
strace -f -c -e trace=read -o "$tmp/all.txt" "$WTG" --run=bytewise --quick --format=json --file="$data" \
	>"$tmp/out.json" 2>"$tmp/err.txt"
status=$?
check "bytewise under strace exits 0 (got $status: $(cat "$tmp/err.txt"))" [ $status -eq 0 ]

# run 2: only the read() calls on the data file
strace -f -c -e trace=read -P "$data" -o "$tmp/file.txt" "$WTG" --run=bytewise --quick --format=json \
	--file="$data" >"$tmp/out2.json" 2>>"$tmp/err.txt"
check "second run exits 0" [ $? -eq 0 ]

# the "calls" column (the 4th: % time, seconds, usecs/call, calls) of strace -c's read line
calls() {
	awk '$NF == "read" { print $4 }' "$1"
}
all=$(calls "$tmp/all.txt")
onfile=$(calls "$tmp/file.txt")

# what bytewise reports, from its JSON: read_calls of both rows, and the calibration calls
reported=$(python3 - "$tmp/out.json" <<'EOF'
import json, re, sys
doc = json.load(open(sys.argv[1]))
e = [x for x in doc["experiments"] if x["name"] == "bytewise"][0]
rows = sum(r["read_calls"] for r in e["rows"])	# schema 2: rows keyed by column name
pat = re.compile(r"other read\(\) calls on the data file: (\d+)")
cal = [int(m.group(1)) for m in (pat.search(n) for n in e["notes"]) if m]
ok = all(c["ok"] for c in e["checks"])
print(rows, cal[0] if cal else -1, len(e["rows"]), "ok" if ok else "bad")
EOF
)
set -- $reported
rows=${1:--1}
cal=${2:--1}
nrows=${3:-0}
checks=${4:-bad}

check "bytewise reports two rows (got $nrows)" [ "$nrows" -eq 2 ]
check "every bytewise check is ok" [ "$checks" = ok ]
check "read_calls of the rows are 70001 + 2 (got $rows)" [ "$rows" -eq 70003 ]
check "the other calls are 16 x (1024 + 1024 + 17 + 1) + 11 x 2 (got $cal)" [ "$cal" -eq 33078 ]
check "strace -c counted read calls (got '$all')" [ -n "$all" ]
check "strace -P counted read calls on the data file (got '$onfile')" [ -n "$onfile" ]
if [ -n "$all" ] && [ -n "$onfile" ]; then
	expect=$((rows + cal))
	check "reads of the data file: strace $onfile = reported $rows + calibration $cal" \
		[ "$onfile" -eq "$expect" ]
	check "strace sees at least the reported reads ($all >= $expect)" [ "$all" -ge "$expect" ]
	other=$((all - expect))
	check "other reads: $other <= $SLACK" [ "$other" -le "$SLACK" ]
	diag "$all read calls in all, $onfile on the data file" \
		"($rows reported + $cal calibration), $other other"
fi
check "the --file is left as it was" cmp -s "$data" "$tmp/copy.bin"

finish
