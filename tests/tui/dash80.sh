#!/bin/sh
# tests/tui/dash80.sh: the dashboard's text whole at 80x24 and 120x35, from a saved paired run
# (tests/fixtures/paired-burn.json: valley and syscall measured quiet vs 1 spinning burner, 15
# rounds; nothing measured here): the paired line names the arms and the rounds, every figure's
# ratio, interval and verdict word is on screen, valley's 64 KiB figure (the big verdict's "best
# buffer") before its 16-byte one, and no line of the screen is cut with an ellipsis. Then live, at
# 80x24: b on tail (which runs quiet and burners itself) leaves the burners off and says so, the
# next tab finds them off, and tail's rerun is labelled "quiet and burners", never "quiet -> quiet";
# the header names the CPU whole or not at all (no ellipsis, no trademark signs) at both sizes.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
fix="$top_srcdir/tests/fixtures/paired-burn.json"
part='x[0-9]+\.[0-9]{2} \[[0-9]+\.[0-9]{2}.[0-9]+\.[0-9]{2}\] (slower|faster|no change|inconclusive)'

# header_whole: the header line names the CPUs and the pages (or the steal that took their room), with no
# ellipsis and no trademark signs
header_whole() {
	hdr=$(tm_screen | head -n 1)
	case $hdr in *…* | *"(R)"* | *"(TM)"* | *"(tm)"*) return 1 ;; *" CPUs"*" pages"* | *" CPUs"*"steal "*) return 0 ;; esac
	return 1
}

# no_cut: no line of the screen ends in (or holds) an ellipsis
no_cut() {
	! tm_screen | grep -q "…"
}

for size in 80x24 120x35; do
	start C.UTF-8 "${size%x*}" "${size#*x}" --load="$fix" --order=valley,syscall
	tm_wait "press a key to begin" 10 || bail "$size: no start screen"
	tm_keys x
	check "$size valley: the paired line names the arms and the rounds" \
		wait_for 10 tm_match "quiet vs burners 1 spin, paired over 15 rounds:"
	check "$size valley: the 64 KiB figure (the verdict's best buffer) first, then the 16-byte one, each whole" \
		tm_flat_sees "paired over 15 rounds: $part[a-z ()]*: GB/s, buffered 64 KiB reads; $part[a-z ()]*: GB/s, 16-byte reads"
	check "$size valley: each figure's ratio, interval and verdict on one line" \
		tm_sees "^│ ?$part.*: GB/s, 16-byte reads"
	check "$size valley: the verdict whole, with its conditions" tm_flat_sees "best buffer [0-9KM-]+: [0-9.]+ GB/s.*burners 1 spin"
	if check "$size valley: nothing cut with an ellipsis" no_cut; then :; else tm_dump "$size valley"; fi
	tm_keys 2
	check "$size syscall: its paired line, whole" \
		wait_for 10 tm_flat_match "quiet vs burners 1 spin, paired over 15 rounds: $part[a-z ()]*: ns per getpid, batches of 1000"
	if check "$size syscall: nothing cut with an ellipsis" no_cut; then :; else tm_dump "$size syscall"; fi
	tm_keys q
	wait_exit 10
done
check "nothing measured: no data file" no_datafile

# live: b on tail changes nothing, here or on the next tab
start C.UTF-8 80 24 --order=tail,syscall
tm_wait "press a key to begin" 10 || bail "live: no start screen"
tm_keys x
check "tail's first run ends" run_ended tail
# the header: the CPU by its short name or not at all, never cut, never its trademarks
check "80x24: the header's CPU words whole (no ellipsis, no (R) or (TM))" header_whole
tm_resize 120 35
check "120x35: the header's CPU words whole" wait_for 5 header_whole
tm_resize 80 24
tm_keys b
check "b on tail: the status line says tail runs both and the burners stay off" \
	tm_wait "tail runs quiet and burners itself: b leaves them off" 5
tm_keys 2
check "... the next tab finds the burners off" tm_wait "[b] burners off" 5
tm_keys 1
tm_keys r
check "tail's rerun ends" run_ended tail 2
check "the rerun line names what tail's runs had: quiet and burners" \
	wait_for 10 tm_match "quiet and burners (→|->) quiet and burners, sequential:"
check "... never quiet -> quiet" tm_lacks_re "quiet (→|->) quiet,"
check "... and says sequential, never faster or slower" tm_lacks_re "sequential:.*(faster|slower)"
tm_keys q
wait_exit 10
check_eq "exit status 0" "$(status)" 0

finish
