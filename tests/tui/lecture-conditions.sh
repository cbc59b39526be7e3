#!/bin/sh
# tests/tui/lecture-conditions.sh: honest condition keys. A key pressed while a row runs says
# "pending: from the next batch" and the conditions panel marks it pending; on a tab whose
# experiment sets the condition itself (tail: burners; pagecache: the page cache) the key says so.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

# bytewise's first row (one byte per read()) takes seconds: long enough to see b pending
start C.UTF-8 80 24 --order=bytewise,tail,pagecache
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys x
check "bytewise runs" wait_for 20 tm_match "bytewise · .*running"
tm_keys b
check "b while a row runs: pending from the next batch" tm_wait "pending: from the next batch of bytewise" 5
check "... the panel marks the burners pending" wait_for 3 tm_match "\[b\] burners [0-9]+ (spin|stream), pending"
check "... until the next row lands (or the run ends)" wait_for 60 tm_lacks_re "\[b\] .*pending"
tm_keys b b
tm_keys 2
check "tail: the panel says tail sets the burners" tm_wait "burners: set by tail" 5
tm_keys b
check "b on tail: tail sets burners itself" tm_wait "tail sets burners itself" 5
tm_keys 3
check "pagecache runs" wait_for 60 tm_match "pagecache · .*(running|done in)"
wait_for 60 tm_has "done in"
tm_keys c
check "c on pagecache: pagecache evicts itself" tm_wait "pagecache sets the page cache itself" 5
tm_keys q
wait_exit 10
check_eq "exit status 0" "$(status)" 0
check "every data file was removed" no_datafile

finish
