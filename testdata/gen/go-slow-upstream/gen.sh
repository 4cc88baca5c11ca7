#!/usr/bin/env bash
# Regenerates testdata/scenarios/go-slow-upstream-leak/: goroutine profiles of
# the slowupstream service (main.go) taken before, twice during, 5 s after
# (after) and 40 s after (after-2) a bounded load, each in the three encodings
# net/http/pprof serves:
#   NAME.txt         /debug/pprof/goroutine?debug=2
#   NAME-debug1.txt  /debug/pprof/goroutine?debug=1
#   NAME.pb.gz       /debug/pprof/goroutine?debug=0
# and COUNTS.tsv (count.sh), which counts what each moment holds with
# awk/grep and `go tool pprof -raw` only (independent of dumpdiff).
# Everything stays on 127.0.0.1. Takes ~75 s.
#
# Usage: testdata/gen/go-slow-upstream/gen.sh   (from anywhere)
# Env:   RATE (req/s, default 20), DURATION (default 15s), TIMEOUT (client, 2s)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../scenarios/go-slow-upstream-leak"
mkdir -p "$out"
out=$(cd "$out" && pwd)
rate=${RATE:-20} duration=${DURATION:-15s} timeout=${TIMEOUT:-2s}
tmp=$(mktemp -d)
server_pid=
cleanup() {
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

cd "$here"
go build -o "$tmp/slowupstream" .
"$tmp/slowupstream" serve -addr-file "$tmp/addr" 2>"$tmp/server.log" &
server_pid=$!
for _ in $(seq 100); do [ -s "$tmp/addr" ] && break; sleep 0.1; done
[ -s "$tmp/addr" ] || { echo "server did not start" >&2; cat "$tmp/server.log" >&2; exit 1; }
base="http://$(cat "$tmp/addr")"

# capture NAME: the three encodings, one right after the other.
capture() {
	curl -fsS "$base/debug/pprof/goroutine?debug=2" -o "$out/$1.txt"
	curl -fsS "$base/debug/pprof/goroutine?debug=1" -o "$out/$1-debug1.txt"
	curl -fsS "$base/debug/pprof/goroutine?debug=0" -o "$out/$1.pb.gz"
	echo "captured $1 at $(date -u +%T.%N | cut -c1-12)"
}

rm -f "$out"/*.txt "$out"/*.pb.gz
sleep 1
capture before
"$tmp/slowupstream" load -base "$base" -rate "$rate" -duration "$duration" -timeout "$timeout" \
	>"$tmp/load.out" &
load_pid=$!
sleep 5
capture during-1
sleep 5
capture during-2
wait "$load_pid"
cat "$tmp/load.out"
echo "load ended at $(date -u +%T)"
sleep 5
capture after
# The upstream answers 30 s after each call and the last call started at load
# t≈15 s, while the load client exits at t≈17 s (its 2 s timeout): 40 s after
# that, every upstream call has returned and only the leak is left.
sleep 35
capture after-2

"$here/count.sh" "$out"
column -t -s $'\t' "$out/COUNTS.tsv"
ls -l "$out"

# The fixture's point: at after both faults hold 150 goroutines, at after-2
# the items handlers are gone and the 150 leaked senders are not.
awk -F'\t' '$1=="after" && !($3==150 && $4==150) {bad=1; print "after: want 150 items handlers and 150 leaked senders, got " $3 " and " $4}
	$1=="after-2" && !($3==0 && $4==150) {bad=1; print "after-2: want 0 items handlers and 150 leaked senders, got " $3 " and " $4}
	END{exit bad}' "$out/COUNTS.tsv" >&2 || { echo "gen.sh: disturbed run, regenerate" >&2; exit 1; }
