#!/bin/sh
# bench/record.sh: what --record costs the dashboard. The saved runs of tests/fixtures/views.json
# (--load: nothing measures, so the process's CPU time is the dashboard's own) in a COLSxROWS tmux
# window; KEYS presses of Tab, one at a time, each waited for on the screen (a new tab: a frame
# that redraws most of the screen), then q; the process's user + system CPU time (GNU time), with and without --record=FILE.cast,
# alternating with the order flipped every round. It prints each side's median, the ratio of the
# medians (record / plain), the range of the per-round ratios and the recording's size. The
# machine is shared: read the ratios, not the absolute numbers; clock ticks bound the resolution.
#
# usage: bench/record.sh [ROUNDS] [KEYS] [COLS] [ROWS]     (from the top of a built tree; 5, 200, 200, 50)
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
. "$top_srcdir/tests/lib.sh"

need tmux
[ -x /usr/bin/time ] || skip "GNU time (/usr/bin/time) is not installed"
rounds=${1:-5}
keys=${2:-200}
cols=${3:-200}
rows=${4:-50}
[ -x "$WTG" ] || { echo "usage: bench/record.sh [ROUNDS] [KEYS] [COLS] [ROWS] (build first)" >&2; exit 2; }
scratch
tmp=$lib_tmp
views=$top_srcdir/tests/fixtures/views.json
"$WTG" --list | awk '{ print NR - 1, $1, $2 }' >"$tmp/list"
ntabs=$(wc -l <"$tmp/list")

# one [OPTION]: sets cpu to the ms of CPU the whole session used
one() {
	rm -f "$tmp/cpu" "$tmp/talk.cast"
	tm_start "$cols" "$rows" "cd '$tmp' && env LC_ALL=C.UTF-8 /usr/bin/time -f '%U %S' -o '$tmp/cpu' '$WTG' --load='$views' $1"
	tm_wait "saved: r runs it live" 30 || { cpu=n/a; return; }
	n=0
	while [ "$n" -lt "$keys" ]; do
		n=$((n + 1))
		tm_keys Tab
		tm_wait " $(name_of $((n % ntabs)))]" 10 || { cpu=n/a; return; }
	done
	tm_keys q
	wait_for 60 test -s "$tmp/cpu" || { cpu=n/a; return; }
	cpu=$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$tmp/cpu")
	size=no
	[ -f "$tmp/talk.cast" ] && size=$(wc -c <"$tmp/talk.cast")
}

plain=
rec=
ratios=
r=0
while [ "$r" -lt "$rounds" ]; do
	if [ $((r % 2)) -eq 0 ]; then
		one ""
		p=$cpu
		one "--record=talk.cast"
		c=$cpu
	else
		one "--record=talk.cast"
		c=$cpu
		s=$size
		one ""
		p=$cpu
		size=$s
	fi
	echo "round $((r + 1)): plain $p ms, recorded $c ms (recording $size bytes)"
	plain="$plain$p
"
	rec="$rec$c
"
	[ "$p" != n/a ] && [ "$c" != n/a ] && [ "$p" -gt 0 ] &&
		ratios="$ratios$(awk -v a="$c" -v b="$p" 'BEGIN { printf "%.3f", a / b }')
"
	r=$((r + 1))
done
mp=$(printf '%s' "$plain" | median)
mr=$(printf '%s' "$rec" | median)
echo "median CPU over $keys tab switches at ${cols}x$rows: plain $mp ms, recorded $mr ms"
echo "ratio of the medians (recorded / plain): $(awk -v a="$mr" -v b="$mp" 'BEGIN { printf "%.3f", a / b }')"
echo "per-round ratios: $(printf '%s' "$ratios" | sort -n | head -n 1) .. $(printf '%s' "$ratios" | sort -n | tail -n 1)"
