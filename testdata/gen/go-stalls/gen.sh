#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-stalls-* from main.go and ftype/ here
# (stdlib only), run by two real toolchains: the installed Go (1.26) and Go
# 1.13.15 (from the module proxy, run in GOPATH mode: GOENV=off,
# GO111MODULE=off). Each mode writes its own debug=2 dumps 3, 8 and 13 s
# after it started (~15 s, all modes at once). The READMEs are written by
# hand, from the source.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -o "$tmp/go126" .)
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
[[ -x $g13/bin/go ]] || { echo "no Go 1.13.15 toolchain in the module cache" >&2; exit 1; }
mkdir -p "$tmp/gopath/src/stalls/ftype"
cp "$here/main.go" "$tmp/gopath/src/stalls/"
cp "$here/ftype/ftype.go" "$tmp/gopath/src/stalls/ftype/"
(cd "$tmp/gopath/src/stalls" && CGO_ENABLED=0 GOPATH="$tmp/gopath" GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/go113" .)
pids=()
for v in 126 113; do
	suffix=""; [[ $v == 113 ]] && suffix="-go113"
	for mode in ${MODES:-wg-batch wg-drain wg-stopper wg-healthy http-stuck http-healthy spin-stuck spin-healthy}; do
		dir=$repo/testdata/verdicts/go-stalls-$mode$suffix
		mkdir -p "$dir"
		"$tmp/go$v" -mode "$mode" -out "$dir" &
		pids+=($!)
	done
	# one toolchain at a time: the spinning modes take a core each
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	pids=()
done
for d in "$repo"/testdata/verdicts/go-stalls-*; do
	echo "$(basename "$d"): $(grep -c '^goroutine ' "$d/1.txt") goroutines in 1.txt" >&2
done
