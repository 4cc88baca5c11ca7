#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-livesets-*: livesets (main.go here) on the installed Go
# (and go1.13.15 for the go113- folders), its goroutine profile fetched with curl from
# net/http/pprof on 127.0.0.1 at three moments 2 s apart:
#   go-livesets-sessions-healthy      debug=1: 150 sessions, each in its select
#   go-livesets-subscribers-healthy   debug=2: 50 subscribers, a /publish before each moment;
#                                     the first profile is the one /publish?dump=2 writes
#                                     right after sending (subscribers caught woken)
#   go-livesets-subscribers-debug1-healthy  the same, debug=1
#   go-livesets-subscribe-leak        debug=1: 200 /subscribe requests before each moment,
#                                     none ever removed
# The expected answers are in each folder's README, written from the program.
# Usage: bash testdata/gen/go-livesets/gen.sh [go113] (~30 s).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
verdicts=$(cd "$here/../../verdicts" && pwd)
tmp=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
prefix=go-livesets
gocmd=(go)
if [[ ${1:-} == go113 ]]; then
	prefix=go113-livesets
	gocmd=(env GOENV=off GOTOOLCHAIN=go1.13.15 go)
fi
mkdir -p "$tmp/src" && cp "$here/main.go" "$tmp/src/" && printf 'module livesets\n\ngo 1.13\n' >"$tmp/src/go.mod"
(cd "$tmp/src" && "${gocmd[@]}" build -o "$tmp/livesets" .)
version=$(cd "$tmp/src" && "${gocmd[@]}" version | awk '{print $3}')

# run SCENARIO FOLDER DEBUG BEFORE: start the program, and before each of three moments
# 2 s apart fetch BEFORE (a path, or "" for none), then the profile at ?debug=DEBUG.
run() {
	local scenario=$1 folder=$2 debug=$3 before=$4
	rm -f "$tmp/addr"
	"$tmp/livesets" -addr-file "$tmp/addr" "$scenario" &
	pid=$!
	for _ in $(seq 100); do [[ -s $tmp/addr ]] && break; sleep 0.1; done
	local addr
	addr=$(cat "$tmp/addr")
	sleep 1
	rm -rf "$tmp/out" && mkdir -p "$tmp/out"
	for m in 1 2 3; do
		if [[ -n $before ]]; then
			[[ $before == *"?dump"* && $m == 1 ]] || for _ in $(seq "${before%%:*}"); do curl -sf "http://$addr/${before#*:}" >/dev/null; done
		fi
		if [[ $before == *"?dump"* && $m == 1 ]]; then
			curl -sf "http://$addr/${before#*:}" -o "$tmp/out/$m.txt" # the profile the publish wrote
		else
			curl -sf "http://$addr/debug/pprof/goroutine?debug=$debug" -o "$tmp/out/$m.txt"
		fi
		[[ $m == 3 ]] || sleep 2
	done
	kill -KILL "$pid"; wait "$pid" 2>/dev/null || true; pid=
	mkdir -p "$verdicts/$folder"
	rm -f "$verdicts/$folder"/[123].txt
	mv "$tmp/out"/*.txt "$verdicts/$folder/"
	echo "wrote $folder ($version)" >&2
}
run sessions "$prefix-sessions-healthy" 1 ""
run subscribers "$prefix-subscribers-healthy" 2 "1:publish?dump=2"
run subscribers "$prefix-subscribers-debug1-healthy" 1 "1:publish"
run subscribe-leak "$prefix-subscribe-leak" 1 "200:subscribe"
