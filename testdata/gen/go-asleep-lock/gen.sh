#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-asleep-lock[-go113]/stderr.txt: main.go
# here run by the installed Go (1.26) and by Go 1.13.15 (module proxy
# toolchain, GOENV=off GO111MODULE=off); the runtime's own "all goroutines
# are asleep" report (exit status 2). The READMEs are written by hand.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
v=$(cd "$here/../../verdicts" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
cp "$here/main.go" "$tmp/"
(cd "$tmp" && CGO_ENABLED=0 GOFLAGS= go build -o p-126 main.go && CGO_ENABLED=0 GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o p-113 main.go) || exit 1
mkdir -p "$v/go-asleep-lock" "$v/go-asleep-lock-go113"
"$tmp/p-126" 2>"$v/go-asleep-lock/stderr.txt"
"$tmp/p-113" 2>"$v/go-asleep-lock-go113/stderr.txt"
exit 0
