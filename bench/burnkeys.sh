#!/bin/sh
# bench/burnkeys.sh: how the dashboard answers with many burner threads on, measured from outside
# through tmux the way a person sees it: the time from start to the first frame, and from a key
# (tab switches 3 and 2, the screen showing the new tab; 5 s at most) to the screen, for each burner count given.
# The SPEC asks for 100 ms per key; --burn's cap is the largest count where that holds. The tmux
# round trip (an empty send-keys and a capture) is printed first: it is part of every figure.
#
# usage: bench/burnkeys.sh [TRIALS] [N[:KIND]]...   (from the top of a built tree; default 10 trials
#        and the counts 0, 2 and the cap, wtg_burner_max(): 32 per online CPU; 0 runs without --burn;
#        KIND spin or stream, spin when left out)
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
. "$top_srcdir/tests/lib.sh"

need tmux
[ -x "$WTG" ] || { echo "bench/burnkeys.sh: build first ($WTG is missing)" >&2; exit 1; }
trials=${1:-10}
[ $# -gt 0 ] && shift
ncpu=$(getconf _NPROCESSORS_ONLN)
counts=$*
[ -n "$counts" ] || counts="0 2 $((32 * ncpu))"
scratch
tmp=$lib_tmp
mkdir -p "$tmp/data"

echo "wtg $("$WTG" --version | head -n 1 | cut -d' ' -f2), $ncpu CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
for n in $counts; do
	rm -f "$tmp/status"
	burn="--burn=$n"
	[ "$n" = 0 ] && burn=
	t0=$(now_ms)
	tm_start 80 24 "env LC_ALL=C.UTF-8 '$WTG' --dir='$tmp/data' --size=64M $burn; echo \$? >'$tmp/status'"
	while ! tm_has "q quit" && [ $(($(now_ms) - t0)) -lt 60000 ]; do :; done
	first=$(($(now_ms) - t0))
	if tm_has "usage\|wtg:"; then
		echo "  --burn=$n: refused: $(tm_screen | grep -m1 'wtg:')"
		tm_stop
		continue
	fi
	: >"$tmp/keys"
	: >"$tmp/floor"
	i=0
	while [ $i -lt "$trials" ]; do
		t1=$(now_ms)
		tm_keys ""
		tm_has "q quit"
		echo $(($(now_ms) - t1)) >>"$tmp/floor"
		measure 3 "3 valley]" >>"$tmp/keys"
		measure 2 "2 syscall]" >>"$tmp/keys"
		i=$((i + 1))
	done
	printf '  --burn=%-5s first frame %5d ms   key median %5s ms  max %5s ms   (tmux floor median %s ms; %d keys)\n' \
		"$n" "$first" "$(median <"$tmp/keys")" "$(maximum <"$tmp/keys")" \
		"$(median <"$tmp/floor")" "$(wc -l <"$tmp/keys")"
	tm_keys q
	wait_for 20 test -s "$tmp/status"
	tm_stop
done
