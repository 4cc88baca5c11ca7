#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-lock-chan-* and go-chan-cycle-* from
# main.go here (stdlib only), built with the installed Go: each mode runs
# as a service with net/http/pprof on 127.0.0.1 (an ephemeral port it
# prints), and curl takes its goroutine profile at 2, 7 and 12 s, debug=2
# (1.txt 2.txt 3.txt) and, for the ledger, debug=1 too (the -debug1
# folders). ~13 s, the modes side by side. The READMEs are written by
# hand, from the source, before dumpdiff ran on the dumps.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
v=$repo/testdata/verdicts
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
(cd "$here" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -o "$tmp/golockchan" .)
run() { # mode folder [debug1-folder]
	local mode=$1 dir=$v/$2 d1=${3:+$v/$3}
	mkdir -p "$dir" ${d1:+"$d1"}
	"$tmp/golockchan" -mode "$mode" >"$tmp/$mode.addr" &
	local pid=$!
	pids+=("$pid")
	local t=0
	for n in 1 2 3; do
		local at=$((2 + (n - 1) * 5))
		sleep $((at - t))
		t=$at
		local addr
		addr=$(head -1 "$tmp/$mode.addr")
		curl -sf "http://$addr/debug/pprof/goroutine?debug=2" >"$dir/$n.txt"
		[[ -n $d1 ]] && curl -sf "http://$addr/debug/pprof/goroutine?debug=1" >"$d1/$n.txt"
	done
	kill "$pid"
}
run lockchan go-lock-chan-stuck go-lock-chan-stuck-debug1 &
run lockchan-healthy go-lock-chan-healthy go-lock-chan-healthy-debug1 &
run chancycle go-chan-cycle-stuck &
run chancycle-healthy go-chan-cycle-healthy &
wait
