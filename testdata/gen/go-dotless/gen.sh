#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-dotless-* from the module here (module
# example/app: no dot in its path's first element; stdlib only), built by
# the installed Go (1.26) and by Go 1.13.15 (the module proxy's toolchain,
# GOENV=off GO111MODULE=on, no dependency), CGO_ENABLED=0, run alone on
# 127.0.0.1:
#   - go-dotless-wg: Go 1.26, -stuck, its own debug=2 dumps 2 s and 5 s after start;
#   - go-dotless-wg-go113: Go 1.13, -stuck, SIGQUIT (GOTRACEBACK=all) 2 s after start;
#   - go-dotless-wg-healthy: Go 1.26, buffered results (batches run), debug=2 dumps;
#   - go-dotless-wg-twopools[-go113]: as go-dotless-wg[-go113] with -client=false
#     (the second caller a goroutine main.scheduler starts, no HTTP client).
# The READMEs are written by hand, from the source, before dumpdiff runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
v=$repo/testdata/verdicts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
[[ -x $g13/bin/go ]] || { echo "no Go 1.13.15 toolchain in the module cache" >&2; exit 1; }
cp -r "$here/go.mod" "$here/main.go" "$here/internal" "$tmp/"
(cd "$tmp" && CGO_ENABLED=0 GOFLAGS= GOWORK=off go build -o "$tmp/p-126" .)
(cd "$tmp" && CGO_ENABLED=0 GOENV=off GO111MODULE=on GOFLAGS= GOPROXY=off "$g13/bin/go" build -o "$tmp/p-113" .)
mkdir -p "$v/go-dotless-wg" "$v/go-dotless-wg-go113" "$v/go-dotless-wg-healthy"
"$tmp/p-126" -stuck -out "$v/go-dotless-wg/"
GOTRACEBACK=all "$tmp/p-113" -stuck 2>"$v/go-dotless-wg-go113/sigquit.txt" &
pid=$!
sleep 2
kill -QUIT $pid
wait $pid || true
"$tmp/p-126" -out "$v/go-dotless-wg-healthy/"
mkdir -p "$v/go-dotless-wg-twopools" "$v/go-dotless-wg-twopools-go113"
"$tmp/p-126" -stuck -client=false -out "$v/go-dotless-wg-twopools/"
GOTRACEBACK=all "$tmp/p-113" -stuck -client=false 2>"$v/go-dotless-wg-twopools-go113/sigquit.txt" &
pid=$!
sleep 2
kill -QUIT $pid
wait $pid || true
