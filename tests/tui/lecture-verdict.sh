#!/bin/sh
# tests/tui/lecture-verdict.sh: the verdict line large under the title on every tab of a lecture,
# the essay's line beside it, the notes and checks folded behind n (which says how many), block
# digits at 120x35 and the compact layout at 60x20 (no panels). The verdicts of every tab are drawn
# from a saved run (tests/fixtures/views.json, opened with --load as a lecture): they say what the
# rows hold, and measuring all 17 experiments at three sizes only waited for them. syscall's verdict
# at 120x35 and 60x20 comes from a live run. (lecture.sh checks that --step runs each tab afresh.)
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
fixture=$top_srcdir/tests/fixtures/views.json

# essay_whole ERE: the essay's line (one or two) matches ERE, and no line of the screen holding
# "essay:" or "here:" is cut with an ellipsis
essay_whole() {
	tm_flat_match "$1" && ! tm_screen | grep -E "essay:|here:" | grep -q "…"
}

# every tab, in the default order
order=bytewise,syscall,valley,kernels,mmap,pagecache,zerofill,faultbase,wss,threads,roofline,uncached,readcost,clock,tail,passes,compare
# the verdict each tab should show (an extended regular expression)
verdict_of() {
	case $1 in
	bytewise) echo "one byte per read\(\) = [0-9]+ ns a byte" ;;
	syscall) echo "one kernel crossing = [0-9]+ ns" ;;
	valley) echo "best buffer [0-9]+[KM]?(-[0-9]+[KM]?)?: [0-9.]+ GB/s" ;;
	kernels) echo "in cache SIMD sums [0-9]+x the byte loop \([0-9]+ vs [0-9.]+ GB/s\)" ;;
	mmap) echo "(faults != pages: one fault maps [0-9]+ pages|faults per page mapped)" ;;
	pagecache) echo "cold [0-9.]+ GB/s, warm [0-9.]+ GB/s: RAM [0-9.]+x disk" ;;
	zerofill) echo "a zero-fill fault = [0-9,]+ ns = [0-9]+ getpids" ;;
	faultbase) echo "a bare (start and )?exit = [0-9]+ faults" ;;
	wss) echo "one core sums [0-9.]+ to [0-9.]+ GB/s" ;;
	threads) echo "best [0-9]+ threads? = [0-9.]+ GB/s, 1 thread = [0-9.]+ GB/s \([0-9.]+x\)" ;;
	roofline) echo "(cache|memory): bytes-bound below [0-9.e+-]+ ops a byte \([0-9]+ GB/s\), math-bound above" ;;
	uncached) echo "sequential tops at [0-9.]+ GB/s \([0-9]+[KM]? reads\)" ;;
	readcost) echo "a 1-byte file read = [0-9.]+ getpids \([0-9]+ ns\)" ;;
	clock) echo "a clock pair = [0-9]+ ns, [0-9,]+ zero pairs" ;;
	tail) echo "p99 with burners = x[0-9.]+ the quiet one" ;;
	passes) echo "a warm pass = [0-9.]+ ms" ;;
	compare) echo "syscall: burners off vs on: (no detectable change|(slower|faster) by)" ;;
	esac
}

# verdicts COLSxROWS: step through the lecture of the saved run, a verdict on each tab
verdicts() {
	start C.UTF-8 ${1%x*} ${1#*x} --order=$order --load="$fixture"
	# every tab in the default order: no start screen with --load (lecture-start.sh checks it)
	wait_for 10 tm_match "press a key to begin|bytewise · " || bail "$1: the saved lecture did not open"
	tm_has "press a key to begin" && tm_keys x
	first=1
	for name in $(echo "$order" | tr , ' '); do
		[ "$first" = 1 ] || tm_keys NPage
		first=0
		check "$1 $name: the tab is shown" tm_wait "$name · " 5
		check "$1 $name: its verdict line" wait_for 10 tm_flat_match "$(verdict_of "$name")"
		# the essay's side gives way on a narrow screen, this machine's figure stays whole; from
		# 80x24 both are whole, on a second line where one does not hold them
		case $name@$1 in
		valley@80x24) check "$1 valley: the essay's figures and this machine's, whole" \
			essay_whole "essay: a valley: 16-byte reads 312 ns a call, its floor 108 ms a GB \(1 MiB reads\) here: [0-9.]+ GB/s, [0-9]+ ms a GB" ;;
		zerofill@80x24) check "$1 zerofill: the essay's figure and the fault in ns and getpids, whole" \
			essay_whole "essay: .* here: [0-9,]+ ns = [0-9]+ getpids" ;;
		valley@*) check "$1 valley: the essay line ends with this machine's figures" \
			tm_match "essay: .* here: [0-9.]+ GB/s, [0-9]+ ms a GB +│$" ;;
		zerofill@*) check "$1 zerofill: the essay line ends with the fault in ns and getpids" \
			tm_match "essay: .* here: [0-9,]+ ns = [0-9]+ getpids +│$" ;;
		tail@*)
			check "$1 tail: a strip for burners off, labelled (not overlaid)" \
				tm_sees "^│ burners off +[█▇▆▅▄▃▂▁]"
			check "$1 tail: ... and one for burners on" tm_sees "^│ burners on \([0-9]+\) +[█▇▆▅▄▃▂▁]" ;;
		esac
	done
}

for size in 60x20 120x35; do
	verdicts $size
	tm_keys q
	wait_exit 10
	check_eq "$size: exit status 0" "$(status)" 0
done
verdicts 80x24

# the essay beside this machine, where the essay gave a figure
tm_keys 2
check "syscall: the essay's figure beside this machine's" wait_for 5 tm_flat_match "essay: 89 ns a raw getpid .* here: [0-9]+ ns"
tm_keys '$'
check "clock: the essay's zero pairs" tm_wait "essay: 88,096 of 200,000 pairs read 0 ns" 5
check "clock: what this machine shows (or why it cannot)" wait_for 5 tm_match "here: ([0-9]+ ns|none: a finer clock)"
tm_keys 3
check "valley: the essay's 16-byte reads and floor" tm_wait "essay: a valley: 16-byte reads 312 ns a call" 5

# passes: its 30 passes in order beside the histogram
tm_keys '^'
check "passes: the passes in the order they ran" wait_for 5 tm_match "in order: .{30} 1"

tm_keys 3
# notes and checks fold into one line that counts them; n opens and folds them
check "valley: the notes are folded into one counting line" wait_for 5 tm_match "\[n\] [0-9]+ notes?, [0-9]+ checks?.*n shows them"
tm_keys n
check "n shows them (the line says n folds them)" wait_for 5 tm_match "\[n\] .*n folds them"
tm_keys n
check "n again folds them" wait_for 5 tm_match "\[n\] .*n shows them"
tm_keys '?'
check "the help lists n" tm_wait "notes and checks: show / fold" 5
tm_keys x
tm_keys q
wait_exit 10
check_eq "80x24: exit status 0" "$(status)" 0
check "the saved lecture measured nothing: no data file" no_datafile

# 120x35: the verdict's figure in block digits (drawn from the saved run: nothing to measure)
start C.UTF-8 120 35 --order=syscall --load="$fixture"
wait_for 10 tm_match "press a key to begin|syscall · " && tm_has "press a key to begin" && tm_keys x
check "120x35: the verdict" wait_for 10 tm_match "one kernel crossing = [0-9]+ ns"
check "120x35: its figure in block digits" tm_sees "███"
tm_keys q
wait_exit 10

# 60x20, live: the compact layout, no panels, the verdict still there
start C.UTF-8 60 20 --order=syscall
tm_wait "press a key to begin" 10 && tm_keys x
check "60x20: the dashboard draws (no 'too small')" wait_for 30 tm_match "one kernel crossing = [0-9]+ ns"
check "60x20: the panels give way" tm_lacks "where the time went"
check "60x20: not refused" tm_lacks "terminal too small"
tm_resize 59 20
check "59x20: too small now, and says so" tm_wait "terminal too small: need 60x20" 5
tm_resize 80 24
check "80x24 again: the panels come back" tm_wait "where the time went" 5
tm_keys q
wait_exit 10
check "every data file was removed" no_datafile

finish
