#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-held-expvar-{stuck,healthy} from main.go
# here (stdlib only: expvar, net/http/pprof), built with the installed Go
# and with Go 1.13.15 (the -go113 folders, GOENV=off GO111MODULE=off):
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
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
[[ -x $g13/bin/go ]] || { echo "no Go 1.13.15 toolchain in the module cache" >&2; exit 1; }
(cd "$here" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -o "$tmp/goheldexpvar" .)
cp "$here/main.go" "$tmp/"
(cd "$tmp" && CGO_ENABLED=0 GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/goheldexpvar113" main.go)
run() { # binary mode folder
	local bin=$1
	shift
	local dir=$v/$2
	mkdir -p "$dir"
	"$tmp/$bin" -mode "$1" >"$tmp/$bin-$1.addr" &
	local pid=$! t=0
	for n in 1 2 3; do
		local at=$((3 + (n - 1) * 5))
		sleep $((at - t))
		t=$at
		curl -sf "http://$(head -1 "$tmp/$bin-$1.addr")/debug/pprof/goroutine?debug=2" >"$dir/$n.txt" || { kill "$pid"; return 1; }
	done
	kill "$pid"
}
run goheldexpvar abba go-held-expvar-stuck &
run goheldexpvar healthy go-held-expvar-healthy &
run goheldexpvar113 abba go-held-expvar-stuck-go113 &
run goheldexpvar113 healthy go-held-expvar-healthy-go113 &
wait
