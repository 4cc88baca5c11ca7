#!/bin/sh
# Writes testdata/formats/goleak-v*.txt: go test's output when goleak
# (go.uber.org/goleak, from the module proxy) fails a test that leaves
# goroutines behind, with three goleak versions: 1.1.12 and 1.2.1 print
# each goroutine's header after goleak's record of it; 1.3.0 (2023, the
# current one) prints the record alone as the header.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/../../formats
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/leaky/leak_test.go" "$tmp/"
cd "$tmp"
printf 'module example.com/leaky\n\ngo 1.26\n' >go.mod
for v in 1.1.12 1.2.1 1.3.0; do
	GOFLAGS=-mod=mod go get "go.uber.org/goleak@v$v" >/dev/null 2>&1
	GOFLAGS=-mod=mod go test . >"$out/goleak-v$v.txt" 2>&1 || true
	# The records goleak printed, counted without the parser.
	printf 'goleak-v%s.txt\t%s\n' "$v" "$(grep -c 'Goroutine [0-9]* in state ' "$out/goleak-v$v.txt")"
done
