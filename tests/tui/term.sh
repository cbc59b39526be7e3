#!/bin/sh
# tests/tui/term.sh: terminals the dashboard cannot drive: a usage error (exit 2) with one line that
# points to --run, and no data file.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

# terminals the dashboard cannot drive: a usage error (exit 2) with one line that points to --run
for term in wtg-no-such-terminal dumb; do
	rm -f "$tmp/status"
	cmd="env TERM=$term LC_ALL=C.UTF-8 '$WTG' --quick --dir='$tmp/data'"
	tm_start 200 24 "$cmd; echo \$? >'$tmp/status'; sleep 30"	# wide: the message on one line
	check "TERM=$term: wtg exits" wait_exit 10
	check_eq "TERM=$term: exit status 2" "$(status)" 2
	check "TERM=$term: one clear message" tm_sees "^wtg: .*TERM=$term.*; use --run=LIST for headless output"
done
check "the refused terminals made no data file" no_datafile

finish
