#!/usr/bin/env bash
# Writes testdata/debuggers/delve-*: Delve's goroutine listings of a real
# Go process (blocked/main.go) and the runtime's own debug=2 dump of the
# same process a moment later, for the cross-check
# (parse/debuggers_fixture_test.go): Delve 1.27.2 on a Go 1.26 build,
# Delve 1.23.1 on a Go 1.23.4 build. The program's goroutines wait for
# ever, so nothing of theirs changes between the two: only the waits grow.
#
# Needs ptrace (root here) and network to the Go module proxy for the two
# Delve versions (go install). Takes about WAIT+20 seconds once built.
# Talks to 127.0.0.1 only; kills only the process it started.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$here/../../debuggers
work=${FIXTURE_WORK:-/tmp/dumpdiff-delve}
new=v1.27.2 old=v1.23.1
WAIT=${WAIT:-130} # seconds before the listings: waits of 1 and 2 minutes
mkdir -p "$work"
for v in $new $old; do
	[ -x "$work/$v/dlv" ] || GOBIN=$work/$v go install "github.com/go-delve/delve/cmd/dlv@$v"
done
# The program twice: built by Go 1.26 for Delve 1.27.2, and by Go 1.23.4
# for Delve 1.23.1 (which fails on a Go 1.26 process: "index out of
# range" reading its labels).
(cd "$here" && go build -o "$work/blocked-go1.26" ./blocked)
mkdir -p "$work/go1.23"
cp "$here/blocked/main.go" "$work/go1.23/"
printf 'module example.com/blocked\n\ngo 1.23\n' >"$work/go1.23/go.mod"
(cd "$work/go1.23" && GOTOOLCHAIN=go1.23.4 go build -o "$work/blocked-go1.23" .)

# cut_out FILE K COMMAND: the K-th command's output of a transcript,
# under the command as typed, without the colour codes: as a person
# copies it from a terminal.
cut_out() {
	awk -v k="$2" -v cmd="$3" '
		/^\(dlv\) / { n++; if (n == k) { print "(dlv) " cmd; sub(/^\(dlv\) /, "") } }
		n == k { print }
	' "$1" | sed 's/\x1b\[[0-9;]*m//g'
}

# pair GO DLV COMMANDS...: runs the program built by GO, waits WAIT
# seconds, attaches Delve DLV once with the commands on standard input
# (no terminal: --allow-non-terminal-interactive; "n" to the question
# whether to kill the process on quit), then takes the runtime's debug=2
# dump over pprof and stops the program. GOTRACEBACK=system: debug=2
# prints the runtime's goroutines and frames too, as Delve does. The
# transcript is kept as printed (the prompt before each command's output,
# bold function names); each command's output is cut out of it.
pair() {
	local go=$1 dlv=$2 name=delve-$2 pid addr k
	shift 2
	local log=$work/$go.out
	GOTRACEBACK=system "$work/blocked-$go" >"$log" 2>&1 &
	pid=$!
	for _ in $(seq 50); do
		grep -q '^pid ' "$log" && break
		sleep 0.1
	done
	addr=$(awk '/^pid /{print $4}' "$log")
	sleep "$WAIT"
	printf '%s\n' "$@" quit n | "$work/$dlv/dlv" attach "$pid" --allow-non-terminal-interactive >"$out/$name.transcript.txt" 2>&1
	curl -s "http://$addr/debug/pprof/goroutine?debug=2" >"$out/$name.debug2.txt"
	kill "$pid"
	k=0
	for c in "$@"; do
		k=$((k + 1))
		f=$(printf '%s' "$c" | sed 's/^goroutine [0-9]* //; s/ -/-/g; s/ /-/g')
		cut_out "$out/$name.transcript.txt" "$k" "$c" >"$out/$name.$f.txt"
	done
}
pair go1.26 $new "goroutines" "goroutines -t" "goroutines -l" "goroutines -g" "goroutines -group user" "goroutine 22 stack" &
pair go1.23 $old "goroutines" "goroutines -t" &
wait

# Counts made with grep, not by dumpdiff.
cd "$out"
for f in delve-*.goroutines*.txt; do
	printf '%s\t%s\n' "$f" "$(grep -c '^[ *	]*Goroutine [0-9]* - ' "$f")"
done
for f in delve-*.stack.txt; do
	printf '%s\t%s\n' "$f" 1
done
for f in delve-*.debug2.txt; do
	printf '%s\t%s\n' "$f" "$(grep -c '^goroutine [0-9]* ' "$f")"
done
