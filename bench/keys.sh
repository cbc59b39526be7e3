#!/bin/sh
# bench/keys.sh: how quickly the dashboard answers, measured from outside through tmux the way a
# person sees it:
#   1. key to screen: the time from sending a key to the screen showing its effect, while an
#      experiment runs (tab switch, help, burners), several trials each, median and max;
#   2. q to exit: the time from q to the process being gone while an experiment runs;
#   3. the UI thread's CPU time during a full autoplay cycle, as a share of the rest of wtg's.
# The SPEC asks for at most 100 ms (keys) and 500 ms (a running experiment stops). Times include
# tmux's own round trip (send-keys, capture-pane), printed first as the floor of what can be seen.
#
# usage: bench/keys.sh [TRIALS]      (from the top of a built tree; default 15 trials)
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
. "$top_srcdir/tests/lib.sh"

need tmux
[ -x "$WTG" ] || { echo "bench/keys.sh: build first ($WTG is missing)" >&2; exit 1; }
trials=${1:-15}
scratch
tmp=$lib_tmp
mkdir -p "$tmp/data"

# A long experiment to run while keys are pressed: bytewise's one-byte pass outside --quick.
if "$WTG" --list | grep -q '^bytewise .*not built'; then
	echo "bench/keys.sh: bytewise is not built" >&2
	exit 1
fi

# start OPTIONS: wtg in a fresh 80x24 window; its exit status lands in $tmp/status.
start() {
	rm -f "$tmp/status"
	tm_start 80 24 "trap '' INT; env LC_ALL=C.UTF-8 '$WTG' --dir='$tmp/data' $*; echo \$? >'$tmp/status'"
	tm_wait "data " 60 && wait_for 60 tm_lacks "data: writing"
}

# bytewise runs: its tab and the progress line carry the play mark
running() {
	tm_has "▶ bytewise"
}

# keep_running: make sure bytewise (tab 1) is running, starting it again if it ended.
keep_running() {
	running && return 0
	tm_keys 1
	tm_wait "1 bytewise]" 5
	tm_keys r
	wait_for 10 running
}

# measure_gone KEY TEXT: ms until TEXT has gone.
measure_gone() {
	t0=$(now_ms)
	tm_keys "$1"
	while tm_has "$2" && [ $(($(now_ms) - t0)) -lt 5000 ]; do :; done
	echo $(($(now_ms) - t0))
}

report() {
	printf '  %-34s median %4s ms   max %4s ms   (%d trials)\n' "$1" "$(median <"$2")" \
		"$(maximum <"$2")" "$(wc -l <"$2")"
}

echo "wtg $("$WTG" --version | cut -d' ' -f2), $(nproc) CPUs, $(uname -r)"
start --size=64M
: >"$tmp/floor"
i=0
while [ $i -lt "$trials" ]; do
	t0=$(now_ms)
	tm_keys ""
	tm_has "q quit"
	echo $(($(now_ms) - t0)) >>"$tmp/floor"
	i=$((i + 1))
done
echo "tmux round trip (an empty send-keys and one capture-pane):"
report "floor" "$tmp/floor"

echo "key to screen while bytewise runs (80x24):"
: >"$tmp/tabs"
: >"$tmp/help"
: >"$tmp/burn"
i=0
while [ $i -lt "$trials" ]; do
	keep_running || { echo "bytewise would not run" >&2; exit 1; }
	measure 3 "3 valley]" >>"$tmp/tabs"
	keep_running
	measure 2 "2 syscall]" >>"$tmp/tabs"
	keep_running
	measure '?' "help: keys and views" >>"$tmp/help"
	measure_gone x "help: keys and views" >>"$tmp/help"
	keep_running
	measure b "[b] burners on" >>"$tmp/burn"
	measure b "[b] burners off" >>"$tmp/burn"
	i=$((i + 1))
done
report "tab switch (3, 2)" "$tmp/tabs"
report "help open and close (?, any key)" "$tmp/help"
report "burners on and off (b)" "$tmp/burn"
tm_keys q
wait_for 10 test -s "$tmp/status"

echo "q to exit while bytewise runs (process gone, data file removed):"
: >"$tmp/quit"
n=$((trials / 3 > 3 ? trials / 3 : 3))
i=0
while [ $i -lt $n ]; do
	start --size=64M
	keep_running
	sleep 0.5
	pid=$(tm_children | tr -d ' ')
	t0=$(now_ms)
	tm_keys q
	while [ -d "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; do :; done
	echo $(($(now_ms) - t0)) >>"$tmp/quit"
	wait_for 10 test -s "$tmp/status"
	i=$((i + 1))
done
report "q while running" "$tmp/quit"
left=$(ls -A "$tmp/data" | wc -l)
echo "  data files left behind: $left"

echo "CPU time during a full autoplay cycle (--quick, every built experiment):"
start --quick
pid=$(tm_children | tr -d ' ')
t0=$(now_ms)
tm_keys a
if ! tm_wait "autoplay: every experiment has run" 600; then
	echo "  autoplay did not finish within 10 minutes" >&2
	exit 1
fi
wall=$(($(now_ms) - t0))
hz=$(getconf CLK_TCK)
ui_ns=$(cut -d' ' -f1 "/proc/$pid/task/$pid/schedstat")
total_ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
awk -v ui="$ui_ns" -v tt="$total_ticks" -v hz="$hz" -v wall="$wall" 'BEGIN {
	total = tt / hz * 1000; u = ui / 1e6; rest = total - u
	printf "  autoplay wall time %.1f s; UI thread %.0f ms CPU; the rest of wtg %.0f ms CPU\n",
		wall / 1000, u, rest
	printf "  UI thread CPU as a share of the rest: %.2f%%\n", (rest > 0 ? 100 * u / rest : 0)
}'
tm_keys q
wait_for 10 test -s "$tmp/status"
