#!/bin/sh
# bench/startup.sh: start to first frame, measured from outside through tmux as a person sees it:
# the time from starting the program in an 80x24 pane to its first screen being readable, for wtg
# and, in the same run, for htop (a peer dashboard) and a bare shell line (tmux's own floor).
# Trials alternate between the three so that a noisy moment hits all of them; medians and the
# ratio wtg/htop are printed.
#
# usage: bench/startup.sh [TRIALS]       (from the top of a built tree; default 9)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
WTG=${WTG:-$top/src/wtg}
trials=${1:-9}
command -v tmux >/dev/null || { echo "bench/startup.sh: needs tmux" >&2; exit 1; }
sock="wtg-startup-$$"
data=$(mktemp -d "${TMPDIR:-/var/tmp}/wtg-startup-XXXXXX")
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$data"' EXIT

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# first_frame NAME COMMAND TEXT: ms from starting COMMAND until the pane shows TEXT
first_frame() {
	tmux -L "$sock" kill-server 2>/dev/null
	t0=$(now_ms)
	tmux -L "$sock" -f /dev/null new-session -d -x 80 -y 24 -e LANG=C.UTF-8 "$2"
	while :; do
		if tmux -L "$sock" capture-pane -p 2>/dev/null | grep -q -- "$3"; then
			echo $(($(now_ms) - t0))
			break
		fi
		if [ $(($(now_ms) - t0)) -gt 20000 ]; then
			echo "timeout"
			break
		fi
	done
	tmux -L "$sock" kill-server 2>/dev/null
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: >"$data/wtg" ; : >"$data/htop" ; : >"$data/floor"
i=0
while [ "$i" -lt "$trials" ]; do
	first_frame floor "printf 'ready\n'; sleep 30" "ready" >>"$data/floor"
	first_frame wtg "'$WTG' --dir='$data'" "where the time went" >>"$data/wtg"
	if command -v htop >/dev/null; then
		first_frame htop "htop" "Load average" >>"$data/htop"
	fi
	i=$((i + 1))
done
w=$(grep -v timeout "$data/wtg" | median)
f=$(grep -v timeout "$data/floor" | median)
printf 'start to first frame, median of %d trials (80x24, through tmux)\n' "$trials"
printf '  shell line (floor)  %6s ms\n' "$f"
printf '  wtg                 %6s ms\n' "$w"
if [ -s "$data/htop" ]; then
	h=$(grep -v timeout "$data/htop" | median)
	printf '  htop                %6s ms\n' "$h"
	awk -v w="$w" -v h="$h" 'BEGIN { if (h > 0) printf "  ratio wtg / htop    %6.2f\n", w / h }'
fi
