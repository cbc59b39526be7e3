#!/bin/sh
# tests/tui/verdict-words.sh: the dashboard's before -> after line in the verdict's words, from saved
# fixtures (tests/fixtures/verdict-*.json; nothing measured): two saved runs are labelled sequential;
# x1.5 beyond the drift their replicas show reads slower, x1.15 beyond the intervals but inside that
# drift "the machine moved" (never slower), a rerun of one state "no change" or inconclusive where its
# interval reaches past 1 +- 10%; mmap's ns per fault, a difference, reads "within its noise: +N ns
# [a, b]" (never x-2.21); a run whose batches fall in two clusters names both in its verdict line. The
# headless comparison of the same files gives the same verdicts (tests/cli/test_verdict.py). Then a
# live syscall run and its rerun with nothing changed: never faster or slower, whatever was measured.
# All at 80x24 (one pair at 120x35 too), the ratio line whole: no "…" in it.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
fix="$top_srcdir/tests/fixtures"

# line_whole: the ratio line ("sequential:" and the line after it) holds no ellipsis
line_whole() {
	! tm_screen | sed -n '/sequential:/,+1p' | grep -q "…"
}

# pair NAME TAB REGEX WHAT: base against NAME at 80x24 (pair_size), tab TAB (1 syscall, 2 mmap): the
# line matches, whole (no ellipsis in it)
pair_size="80 24"
pair() {
	start C.UTF-8 $pair_size --load="$fix/verdict-base.json" --load="$fix/verdict-$1.json" --order=syscall,mmap
	tm_wait "press a key to begin" 10 || bail "$1: no start screen"
	tm_keys x "$2"
	if wait_for 10 tm_flat_match "base: quiet (→|->) $1: quiet, sequential: $3" && line_whole; then
		pass "$4"
	else
		fail "$4"
		diag "$(tm_screen)"
	fi
	tm_keys q
	wait_exit 10
}

pair slower 1 "x1\.50 \[CI 1\.[0-9]+.1\.[0-9]+\] slower: ns per getpid" \
	"x1.5 beyond the intervals and the replicas' drift: slower"
pair moved 1 "x1\.1[0-9] \[CI 1\.0[0-9].1\.[0-9]+\] the machine moved: ns per getpid" \
	"x1.15 beyond the intervals, inside the drift: the machine moved, not slower"
pair same 1 "x0\.99 \[CI 0\.9[0-9].1\.0[0-9]\] no change: ns per getpid" \
	"a rerun of one state, its interval inside 1 +- 10%: no change"
pair wide 1 "x1\.00 \[CI 0\.8[0-9].1\.2[0-9]\] inconclusive: ns per getpid" \
	"an interval past 1 +- 10% that holds 1: inconclusive"
pair same 2 "within its noise: [-+][0-9.]+ ns \[[-+][0-9.]+, [-+][0-9.]+\]: ns per file" \
	"mmap's difference within its noise, in ns, no ratio"
pair slower 2 "\+39[0-9] ns \[CI \+3[0-9]+, \+4[0-9]+\] slower: ns per file fault" \
	"mmap's difference 400 ns up: slower, as a difference"
pair_size="120 35"
pair moved 1 "x1\.1[0-9] \[CI 1\.0[0-9].1\.[0-9]+\] the machine moved: ns per getpid" \
	"120x35: x1.15 inside the drift: the machine moved, whole"

start C.UTF-8 80 24 --load="$fix/verdict-regime.json" --order=syscall,mmap
tm_wait "press a key to begin" 10 || bail "regime: no start screen"
tm_keys x
check "two clusters of batches: the verdict names both modes and their shares" \
	wait_for 10 tm_flat_match "one kernel crossing = [0-9]+ ns; 85\.2 ns \(60%\) and 103 ns \(40%\): two regimes"
tm_keys q
wait_exit 10
check "nothing measured: no data file" no_datafile

# live: syscall run, then run again with nothing changed (an A/A rerun, paired: both arms quiet):
# whatever the figures, the line says whether the interval holds 1 and never faster or slower
start C.UTF-8 80 24 --order=syscall
tm_wait "press a key to begin" 10 || bail "live: no start screen"
tm_keys x
wait_for 60 run_done syscall || bail "live: syscall did not finish"
tm_keys r
if wait_for 120 tm_flat_match "quiet vs quiet \(A/A\), paired over 15 rounds: x[0-9.]+ "; then
	pass "an A/A rerun: quiet vs quiet (A/A), paired"
	check "... never faster or slower" tm_lacks_re "paired over 15 rounds: x[0-9.]+ \[[0-9.]+.[0-9.]+\] (faster|slower)"
	check "... its verdict whole at 80x24" tm_flat_sees "\(A/A\), paired over 15 rounds: x[0-9.]+ \[[0-9.]+.[0-9.]+\] (holds 1|excludes 1 \(noise does so 1 in 20\)): ns per getpid"
	check "... no line cut with an ellipsis" tm_lacks "…"
else
	fail "an A/A rerun: quiet vs quiet (A/A), paired"
	diag "$(tm_screen)"
fi
tm_keys q
wait_exit 10

finish
