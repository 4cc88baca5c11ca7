#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-lock-chan-* and go-chan-cycle-* from
# main.go here (stdlib only), built with the installed Go and with Go
# 1.13.15 (the -go113 folders; from the module proxy, run without modules:
# GOENV=off GO111MODULE=off): each mode runs
# as a service with net/http/pprof on 127.0.0.1 (an ephemeral port it
# prints), and curl takes its goroutine profile at 2, 7 and 12 s, debug=2
# (1.txt 2.txt 3.txt) and, for the ledger, debug=1 too (the -debug1
# folders). ~26 s, the modes side by side. The READMEs are written by
# hand, from the source, before dumpdiff ran on the dumps.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
v=$repo/testdata/verdicts
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
[[ -x $g13/bin/go ]] || { echo "no Go 1.13.15 toolchain in the module cache" >&2; exit 1; }
(cd "$here" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -o "$tmp/golockchan" .)
cp "$here/main.go" "$tmp/"
(cd "$tmp" && CGO_ENABLED=0 GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/golockchan113" main.go)
run() { # binary mode folder [debug1-folder]
	local bin=$1
	shift
	local mode=$1 dir=$v/$2 d1=${3:+$v/$3}
	mkdir -p "$dir" ${d1:+"$d1"}
	"$tmp/$bin" -mode "$mode" >"$tmp/$bin-$mode.addr" &
	local pid=$!
	pids+=("$pid")
	local t=0
	for n in 1 2 3; do
		local at=$((2 + (n - 1) * 5))
		sleep $((at - t))
		t=$at
		local addr
		addr=$(head -1 "$tmp/$bin-$mode.addr")
		curl -sf "http://$addr/debug/pprof/goroutine?debug=2" >"$dir/$n.txt"
		[[ -n $d1 ]] && curl -sf "http://$addr/debug/pprof/goroutine?debug=1" >"$d1/$n.txt"
	done
	kill "$pid"
}
run golockchan lockchan go-lock-chan-stuck go-lock-chan-stuck-debug1 &
run golockchan lockchan-healthy go-lock-chan-healthy go-lock-chan-healthy-debug1 &
run golockchan chancycle go-chan-cycle-stuck &
run golockchan pkgchan go-lock-chan-pkg-stuck go-lock-chan-pkg-stuck-debug1 &
run golockchan pkgchan-healthy go-lock-chan-pkg-healthy &
run golockchan chancycle-healthy go-chan-cycle-healthy &
wait
run golockchan113 lockchan go-lock-chan-stuck-go113 go-lock-chan-stuck-go113-debug1 &
run golockchan113 lockchan-healthy go-lock-chan-healthy-go113 go-lock-chan-healthy-go113-debug1 &
run golockchan113 chancycle go-chan-cycle-stuck-go113 &
run golockchan113 pkgchan go-lock-chan-pkg-stuck-go113 &
run golockchan113 pkgchan-healthy go-lock-chan-pkg-healthy-go113 &
run golockchan113 chancycle-healthy go-chan-cycle-healthy-go113 &
wait
