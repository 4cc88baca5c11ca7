#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-lock-value-{stuck,healthy}{,-go113} from
# main.go here (stdlib only), built by the installed Go (1.26) and by Go
# 1.13.15 (GOENV=off, no modules). Each run writes its own debug=2 dumps at
# 65, 70 and 75 s. ~80 s, all four side by side. READMEs written by hand
# first, from the source.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src" && cp "$here/main.go" "$tmp/src/"
(cd "$tmp/src" && GOFLAGS= GO111MODULE=off go build -o "$tmp/lv126" main.go)
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 | head -1)
(cd "$tmp/src" && GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/lv113" main.go)
pids=()
for v in 126 113; do
	suffix=""; [[ $v == 113 ]] && suffix="-go113"
	for m in stuck healthy; do
		dir=$repo/testdata/verdicts/go-lock-value-$m$suffix
		mkdir -p "$dir"
		"$tmp/lv$v" -mode "$m" -out "$dir" ${AT:+-at "$AT"} &
		pids+=($!)
	done
done
for p in "${pids[@]}"; do wait "$p"; done
