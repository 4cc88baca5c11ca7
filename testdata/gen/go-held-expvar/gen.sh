#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-held-expvar-{stuck,healthy} from main.go
# here (stdlib only: expvar, net/http/pprof), built with the installed Go:
# each mode runs as a service on 127.0.0.1 (an ephemeral port it prints)
# and curl takes its debug=2 goroutine profile at 3, 8 and 13 s. ~14 s,
# both modes side by side. The READMEs are written by hand, from the
# source (and expvar's), before dumpdiff ran on the dumps.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
v=$repo/testdata/verdicts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -o "$tmp/goheldexpvar" .)
run() { # mode folder
	local dir=$v/$2
	mkdir -p "$dir"
	"$tmp/goheldexpvar" -mode "$1" >"$tmp/$1.addr" &
	local pid=$! t=0
	for n in 1 2 3; do
		local at=$((3 + (n - 1) * 5))
		sleep $((at - t))
		t=$at
		curl -sf "http://$(head -1 "$tmp/$1.addr")/debug/pprof/goroutine?debug=2" >"$dir/$n.txt" || { kill "$pid"; return 1; }
	done
	kill "$pid"
}
run abba go-held-expvar-stuck &
run healthy go-held-expvar-healthy &
wait
