#!/bin/sh
# Writes testdata/formats/go-test-timeout*.txt: go test's own output when
# a test runs past -timeout (a real panic and goroutine dump, Go's
# testing package). Each test hangs for ever; -timeout 2s ends it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/../../formats
cd "$here"
go test -timeout 2s ./one >"$out/go-test-timeout.txt" 2>&1 || true
go test -v -timeout 2s ./parallel >"$out/go-test-timeout-v.txt" 2>&1 || true
for f in go-test-timeout.txt go-test-timeout-v.txt; do
	printf '%s\t%s\n' "$f" "$(grep -c '^goroutine [0-9]* \[' "$out/$f")"
done
