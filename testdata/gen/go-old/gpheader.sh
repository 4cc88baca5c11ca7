#!/usr/bin/env bash
# Regenerates testdata/go/go1.{23.4,22.10,13.15}-gotraceback-system-sigquit.txt:
# gpheader/main.go's SIGQUIT traceback under GOTRACEBACK=system, as three
# older runtimes print it. Go 1.23.4 and 1.22.10 put "gp=0x... m=... [mp=...]"
# between a goroutine's id and its state; Go 1.13.15 does not. The toolchains come from the Go module proxy
# (GOTOOLCHAIN=goX downloads them into the module cache on first use) and
# are run without modules and without the machine's go env.
# Usage: bash testdata/gen/go-old/gpheader.sh (~20 s the first time).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(cd "$here/../../go" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in 1.23.4 1.22.10 1.13.15; do
	GOENV=off GOTOOLCHAIN=go$v go version >/dev/null 2>&1 || true # fetches the toolchain
	g=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go$v.linux-amd64 2>/dev/null | head -1)
	[[ -x $g/bin/go ]] || { echo "no Go $v toolchain in the module cache" >&2; exit 1; }
	(cd "$here/gpheader" && GOENV=off GO111MODULE=off GOFLAGS= GOTOOLCHAIN=local "$g/bin/go" build -o "$tmp/gpheader-$v" main.go)
	rc=0
	GOTRACEBACK=system "$tmp/gpheader-$v" 2>"$tmp/raw" || rc=$?
	[[ $rc == 2 ]] || { echo "gpheader (Go $v) exited $rc, want 2 (SIGQUIT)" >&2; cat "$tmp/raw" >&2; exit 1; }
	grep -v '^gpheader: ' "$tmp/raw" >"$out/go$v-gotraceback-system-sigquit.txt"
done
