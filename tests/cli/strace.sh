#!/bin/sh
# strace.sh: strace sees the read() calls bytewise reports, and no read of a user's file.
#
# bytewise runs on a --file this script writes (70001 bytes: the 1-byte variant reads all of it
# once in its 15 timed samples, a piece each: 14 pages of 4 KiB and the last 12,657 bytes, after a
# warm-up sample of the first piece; the 64 KiB variant makes 2 calls per pass). wtg scans a --file with pread(), never read(), so on
# the data file strace must see exactly: 1-byte read_calls + 64 KiB read_calls + the other calls a
# note reports: the calibration (16 rounds of reads of 1, 64, 4096 and 65536 bytes: 1024 + 1024 +
# 17 + 1 calls on this file) and the 64 KiB variant's 15 passes beyond the one read_calls counts
# (a warm-up and 14 more timed ones, 2 calls each). strace -y names each read's file: every other
# read must be of the system's files (the dynamic loader, locale files, the machine block's /proc
# and /sys files) or of an anonymous inode (a perf counter, the main thread's wake-up eventfd). How
# many those are is not checked: the eventfd reads grow with how often the worker is woken, which
# depends on the machine's load.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

need strace
need python3
strace -f -o /dev/null true 2>/dev/null || skip "ptrace is not permitted here"

scratch
tmp=$lib_tmp
data=$tmp/data.bin
head -c 70001 /dev/urandom >"$data"
cp "$data" "$tmp/copy.bin"

# every read() of every thread, each with the path of its file descriptor
strace -f -y -s 0 -e trace=read -o "$tmp/all.txt" "$WTG" --run=bytewise --quick --format=json \
	--file="$data" >"$tmp/out.json" 2>"$tmp/err.txt"
status=$?
check "bytewise under strace exits 0 (got $status: $(cat "$tmp/err.txt"))" [ $status -eq 0 ]

real=$(cd "$tmp" && pwd -P)/data.bin
# the read() calls by file: "N PATH" lines ("read(3</path>, ..." or an "<unfinished ...>" start;
# a resumed call is not counted twice), by one awk taking the path between the first < and > (a sed
# with a back-reference, sort and uniq -c took 0.6 to 1 s of CPU over the 110,000 lines, this 0.03)
LC_ALL=C awk -F '[<>]' '/^[0-9]* *read\([0-9]*</ { n[$2]++ } END { for (p in n) print n[p], p }' \
	"$tmp/all.txt" >"$tmp/byfile.txt"
onfile=$(awk -v f="$real" '{ n = $1; $1 = ""; sub(/^ /, ""); if ($0 == f) s += n } END { print s + 0 }' \
	"$tmp/byfile.txt")
all=$(awk '{ s += $1 } END { print s + 0 }' "$tmp/byfile.txt")
# files that are neither the data file nor the system's nor an anonymous inode
awk -v f="$real" '{ n = $1; $1 = ""; sub(/^ /, ""); if ($0 != f) print n, $0 }' "$tmp/byfile.txt" |
	grep -v -E '^[0-9]+ (/proc/|/sys/|/etc/|/usr/|/lib|/dev/|anon_inode:|pipe:)' >"$tmp/user.txt"

# what bytewise reports, from its JSON: read_calls of both rows, and the calibration calls
reported=$(python3 - "$tmp/out.json" <<'EOF'
import json, re, sys
doc = json.load(open(sys.argv[1]))
e = [x for x in doc["experiments"] if x["name"] == "bytewise"][0]
rows = sum(r["read_calls"] for r in e["rows"])	# schema 2: rows keyed by column name
pat = re.compile(r"other read\(\) calls on the data file: (\d+), not in read_calls \(the calibration's (\d+)")
cal = [(int(m.group(1)), int(m.group(2))) for m in (pat.search(n) for n in e["notes"]) if m]
ok = all(c["ok"] for c in e["checks"])
print(rows, cal[0][0] if cal else -1, cal[0][1] if cal else -1, len(e["rows"]), "ok" if ok else "bad")
EOF
)
set -- $reported
rows=${1:--1}
cal=${2:--1}
calib=${3:--1}
nrows=${4:-0}
checks=${5:-bad}

check "bytewise reports two rows (got $nrows)" [ "$nrows" -eq 2 ]
check "every bytewise check is ok" [ "$checks" = ok ]
check "read_calls of the rows are 70001 + 2 (got $rows)" [ "$rows" -eq 70003 ]
check "the calibration's calls are 16 x (1024 + 1024 + 17 + 1) (got $calib)" [ "$calib" -eq 33056 ]
# beyond it: the 64 KiB variant's repeated passes (as many as a 5 ms sample needs: a count the
# machine's speed sets, so only its accounting is checked) and the one-byte variant's warm-up piece
check "the other calls hold the calibration's and at least each variant's warm-up (got $cal)" \
	[ "$cal" -ge $((33056 + 4096 + 2)) ]
check "strace saw read calls (got '$all')" [ "$all" -gt 0 ]
expect=$((rows + cal))
check "reads of the data file: strace $onfile = reported $rows + calibration $cal" [ "$onfile" -eq "$expect" ]
check "no read of any other file but the system's: $(cat "$tmp/user.txt")" [ ! -s "$tmp/user.txt" ]
diag "$all read calls in all, $onfile on the data file ($rows reported + $cal calibration);" \
	"the others by file:" "$(awk -v f="$real" '{ n = $1; $1 = ""; sub(/^ /, ""); if ($0 != f) print n, $0 }' \
	"$tmp/byfile.txt")"
check "the --file is left as it was" cmp -s "$data" "$tmp/copy.bin"

finish
