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
# The forms of older Go versions (go-test-timeout-go1.NN.txt): Go 1.13,
# 1.16 and 1.18 print no "running tests:" (the tests are the ones under
# testing.tRunner); Go 1.20 prints it at the line's start, each test one
# tab in. Toolchains from the module proxy (GOTOOLCHAIN); the module is
# copied with "go 1.13" in its go.mod, which they can build.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$here/one" "$here/go.mod" "$tmp/" && sed -i 's/^go 1\.[0-9]*/go 1.13/' "$tmp/go.mod"
for v in 1.13.15 1.16.15 1.18.10 1.20.14; do
	(cd "$tmp" && GOENV=off GOTOOLCHAIN=go$v GO111MODULE=on GOFLAGS= go test -timeout 2s ./one >"$out/go-test-timeout-go${v%.*}.txt" 2>&1) || true
done
