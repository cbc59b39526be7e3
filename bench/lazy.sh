#!/bin/sh
# bench/lazy.sh: what a headless run of experiments that never read the data file costs, for this
# build and a peer build (e.g. one that makes the data file at start), trials alternating so that a
# noisy moment hits both; prints each one's median wall time and the ratio of the medians.
#
# usage: PEER=/path/to/other/src/wtg bench/lazy.sh [TRIALS] [LIST]   (default 7, clock,syscall)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
WTG=${WTG:-$top/src/wtg}
PEER=${PEER:?set PEER to another wtg binary to compare with}
trials=${1:-7}
list=${2:-clock,syscall}
dir=$(mktemp -d "${TMPDIR:-/var/tmp}/wtg-lazy-XXXXXX")
trap 'rm -rf "$dir"' EXIT

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# one BIN: ms for one --quick run of LIST
one() {
	t0=$(now_ms)
	"$1" --run="$list" --quick --format=csv --dir="$dir" >/dev/null 2>&1 || echo "bench/lazy.sh: $1 failed" >&2
	echo $(($(now_ms) - t0))
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

: >"$dir.a"
: >"$dir.b"
i=0
while [ "$i" -lt "$trials" ]; do
	if [ $((i % 2)) -eq 0 ]; then
		one "$WTG" >>"$dir.a"
		one "$PEER" >>"$dir.b"
	else
		one "$PEER" >>"$dir.b"
		one "$WTG" >>"$dir.a"
	fi
	i=$((i + 1))
done
a=$(median <"$dir.a")
b=$(median <"$dir.b")
rm -f "$dir.a" "$dir.b"
echo "run: --run=$list --quick, $trials trials each, alternating"
echo "this build: median $a ms   ($WTG)"
echo "peer:       median $b ms   ($PEER)"
awk -v a="$a" -v b="$b" 'BEGIN { printf "ratio this/peer: %.2f\n", a / b }'
