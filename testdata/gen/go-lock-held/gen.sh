#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-lock-held-stuck and go-lock-held-healthy
# from a real Go program (main.go here; stdlib only) built with the
# installed Go: it writes its own debug=2 goroutine dumps at 65, 70 and
# 75 s (the runtime prints a wait as minutes from one minute). ~80 s, both
# modes side by side. The READMEs are written by hand, from the source.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here" && GOFLAGS=-mod=mod go build -o "$tmp/golockheld" .)
pids=()
for mode in stuck healthy; do
	dir=$repo/testdata/verdicts/go-lock-held-$mode
	mkdir -p "$dir"
	"$tmp/golockheld" -mode "$mode" -out "$dir" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
for mode in stuck healthy; do
	echo "go-lock-held-$mode: $(grep -c '^goroutine ' "$repo/testdata/verdicts/go-lock-held-$mode/1.txt") goroutines in 1.txt" >&2
done
