#!/bin/sh
# bench/uicpu.sh: the dashboard's own cost, this build beside a peer build (an older wtg), run
# alternately with the order flipped every round: the UI thread's CPU time over SECONDS of autoplay
# (--quick, from the first tab), in an 80x24 tmux window. It prints each side's median, the ratio of
# the medians (this / peer) and the range of the per-round ratios. The machine is shared: read the
# ratios, not the absolute numbers. Clock ticks (CLK_TCK) bound the resolution.
#
# usage: bench/uicpu.sh PEER_WTG [ROUNDS] [SECONDS]     (from the top of a built tree; 5 rounds, 20 s)
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
. "$top_srcdir/tests/lib.sh"

need tmux
peer=$1
rounds=${2:-5}
secs=${3:-20}
[ -x "$WTG" ] && [ -n "$peer" ] && [ -x "$peer" ] || {
	echo "usage: bench/uicpu.sh PEER_WTG [ROUNDS] [SECONDS] (build first)" >&2
	exit 2
}
scratch
tmp=$lib_tmp
mkdir -p "$tmp/data"
hz=$(getconf CLK_TCK)

# ticks PID TID: user + system CPU ticks of one thread.
ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/task/$2/stat" 2>/dev/null || echo 0
}

# one BINARY: sets ui to the ms of CPU the UI thread (the process's first thread) used over $secs s
# of autoplay, and proc to the ms the whole process used (no subshell: tmux's server count lives here).
one() {
	ui=n/a
	proc=n/a
	tm_start 80 24 "env LC_ALL=C.UTF-8 '$1' --quick --dir='$tmp/data'"
	tm_wait "? help" 30 || return
	pid=$(tm_children | head -n 1)
	[ -n "$pid" ] || pid=$(tm_var pane_pid)	# the shell execs a lone command
	tm_keys a
	a=$(ticks "$pid" "$pid")
	p0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	sleep "$secs"
	b=$(ticks "$pid" "$pid")
	p1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	tm_keys q
	tm_keys q
	tm_wait_dead 10 >/dev/null
	ui=$(((b - a) * 1000 / hz))
	proc=$(((p1 - p0) * 1000 / hz))
}

echo "UI thread CPU over $secs s of autoplay (--quick), $rounds rounds, $(nproc) CPUs"
: >"$tmp/this"
: >"$tmp/peer"
: >"$tmp/ratio"
i=0
while [ "$i" -lt "$rounds" ]; do
	if [ $((i % 2)) -eq 0 ]; then
		one "$WTG"
		xu=$ui xp=$proc
		one "$peer"
		yu=$ui yp=$proc
	else
		one "$peer"
		yu=$ui yp=$proc
		one "$WTG"
		xu=$ui xp=$proc
	fi
	echo "  round $((i + 1)): this $xu ms (process $xp ms), peer $yu ms (process $yp ms)"
	echo "$xu" >>"$tmp/this"
	echo "$yu" >>"$tmp/peer"
	[ "$yu" -gt 0 ] 2>/dev/null && awk -v a="$xu" -v b="$yu" 'BEGIN { printf "%.3f\n", a / b }' >>"$tmp/ratio"
	i=$((i + 1))
done
tm_stop
mt=$(median <"$tmp/this")
mp=$(median <"$tmp/peer")
echo "  median UI thread CPU: this $mt ms, peer $mp ms"
awk -v a="$mt" -v b="$mp" 'BEGIN { if (b > 0) printf "  ratio of the medians (this / peer): %.2f\n", a / b }'
sort -n "$tmp/ratio" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (NR) printf "  per-round ratios: %.2f .. %.2f\n", lo, hi }'
