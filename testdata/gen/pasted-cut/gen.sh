#!/bin/sh
# Writes the pastes of threads cut at their state lines (issue 33; the form
# of deephaven-core#4383): from committed real dumps, no runtime needed.
# Each named thread is copied from its state line to its last line, the
# header left out, every line indented four spaces, the whole fenced under
# a line of prose, as a person pastes threads into a ticket.
#
# Usage: testdata/gen/pasted-cut/gen.sh   (from anywhere; <1 s).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
v=$here/../../verdicts

# paste DUMP THREAD... prints the threads of DUMP, in the order given, so cut.
paste_cut() {
	dump=$1
	shift
	echo "The service hangs at startup; here is what jstack shows for the threads involved:"
	echo
	echo '```'
	for name in "$@"; do
		awk -v want="\"$name\"" 'index($0, want " ") == 1 { on = 1; next }
			on && /^[[:space:]]*$/ { exit }
			on { sub(/^\t/, "    "); print "    " $0 }' "$dump"
		echo
	done
	echo '```'
}

paste_cut "$v/class-init-stuck/1.txt" init-tax init-currency >"$v/class-init-cycle-paste-stuck/1.txt"
paste_cut "$v/jdk25-class-init-stuck/1.txt" init-tax init-currency >"$v/class-init-cycle-paste-stuck/2-jdk25.txt"
paste_cut "$v/class-init-healthy/1.txt" price-worker-1 price-worker-2 price-worker-3 price-worker-4 \
	>"$v/class-init-cycle-paste-healthy/1.txt"
