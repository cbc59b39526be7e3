#!/bin/sh
# bench/tabs.sh: how long each tab takes under the dashboard, against what --list estimates.
# For each experiment a fresh dashboard (100x30 tmux window, --order=EXP) runs it with r; the screen is
# read every 0.2 s: "first" is when the panel first shows a figure (a row drawn, or a "so far:" figure
# under "measuring:"), "done" the dashboard's own "done in N s". The goal (issue #23,
# item 13): first figure within 3 s, done within 20 s by default, --list within 30% of done.
#
# usage: bench/tabs.sh [--quick] [EXP,...]   (from the top of a built tree; every experiment by default)
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
. "$top_srcdir/tests/lib.sh"

need tmux
quick=
case ${1:-} in --quick) quick=--quick; shift ;; esac
exe=$WTG
names=${1:-$("$exe" --list | awk '{ print $1 }' | tr '\n' ',')}
scratch
tmp=$lib_tmp
mkdir -p "$tmp/data" || exit 1

# estimate EXP: the seconds --list gives for EXP (default or --quick)
estimate() {
	"$exe" --list | awk -v e="$1" -v q="$quick" '$1 == e {
		s = q == "" ? $3 : $6; gsub(/[^0-9.]/, "", s); print s }'
}

printf '%-10s %8s %8s %8s %7s  %s\n' experiment first_s done_s list_s list/done verdict
IFS=,
for e in $names; do
	[ -n "$e" ] || continue
	tm_start 100 30 "env LC_ALL=C.UTF-8 '$exe' --order=$e $quick --dir='$tmp/data' --time-limit=120"
	tm_wait "press a key to begin" 10 || { echo "tabs: the dashboard did not start" >&2; exit 1; }
	t0=$(date +%s.%N)
	tm_keys r
	first=
	done_s=
	while :; do
		now=$(date +%s.%N)
		scr=$(tm_screen)
		body=$(printf '%s\n' "$scr" | sed -n '4,22p')
		if [ -z "$first" ] && printf '%s\n' "$scr" | sed -n 3p | grep -q -E "running|done in" &&
			{ printf '%s' "$body" | grep -q "so far: " ||
				! printf '%s' "$body" | grep -q -E "measuring|starting"; }; then
			first=$(echo "$now - $t0" | bc)
		fi
		done_s=$(printf '%s\n' "$scr" | sed -n 's/.*done in \([0-9.]*\) \(ms\|s\|min\) .*/\1 \2/p' | head -n 1 |
			awk '{ print $2 == "ms" ? $1 / 1000 : $2 == "min" ? $1 * 60 : $1 }')
		[ -n "$done_s" ] && break
		printf '%s' "$scr" | grep -q -E "stopped|failed" && { done_s=fail; break; }
		[ "$(echo "$now - $t0 > 300" | bc)" = 1 ] && { done_s=timeout; break; }
		sleep 0.2
	done
	tm_keys q
	tm_wait_dead 10 >/dev/null 2>&1
	tm_stop
	est=$(estimate "$e")
	ratio=$(echo "scale=2; $est / ${done_s:-1}" | bc 2>/dev/null)
	ok=ok
	[ "$(echo "${first:-99} > 3" | bc)" = 1 ] && ok="first>3s"
	[ "$done_s" = fail ] || [ "$done_s" = timeout ] && ok=$done_s
	[ "$quick" ] || { [ "$(echo "${done_s:-99} > 20" | bc 2>/dev/null)" = 1 ] && ok="$ok done>20s"; }
	[ "$(echo "$ratio < 0.7 || $ratio > 1.3" | bc 2>/dev/null)" = 1 ] && ok="$ok list off"
	printf '%-10s %8.2f %8s %8s %7s  %s\n' "$e" "${first:-99}" "$done_s" "$est" "$ratio" "$ok"
done
