#!/usr/bin/env bash
# Regenerates the Go second-source fixtures of testdata/verdicts/ (issue 33: a second,
# independent real source per rule) from gohttpleak/main.go here: the standard library's HTTP
# client (net/http.Transport) against a keep-alive server on 127.0.0.1, built by the installed
# Go (1.26), CGO_ENABLED=0; and gologrotate/main.go: the standard library's log.Logger writing
# into a rotating writer. The program writes its own debug=2 goroutine dumps 1..3.txt at 3, 6
# and 9 s after start.
#
#   src2-go-httpleak          -mode leak     (resp.Body never read nor closed: 2,000 connections)
#   src2-go-httpidle-healthy  -mode healthy  (body read and closed: ~2,000 idle pooled connections)
#   src2-go-logrotate          gologrotate -mode abba     (SetOutput under the rotator's mutex)
#   src2-go-logrotate-healthy  gologrotate -mode ordered  (SetOutput after releasing it)
#
# The README.md of each case was written by hand from the source before dumpdiff ran.
#
# Usage: bash testdata/gen/sources-real/gen-go.sh   (~10 s)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-sources-real-go.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
for p in gohttpleak gologrotate; do
	mkdir -p "$tmp/$p" && cp "$here/$p/main.go" "$tmp/$p/"
	(cd "$tmp/$p" && CGO_ENABLED=0 GOFLAGS= go build -o "$tmp/$p.bin" main.go)
done
for c in gohttpleak:src2-go-httpleak:leak gohttpleak:src2-go-httpidle-healthy:healthy \
	gologrotate:src2-go-logrotate:abba gologrotate:src2-go-logrotate-healthy:ordered; do
	IFS=: read -r p name mode <<<"$c"
	d=$repo/testdata/verdicts/$name
	mkdir -p "$d"
	"$tmp/$p.bin" -mode "$mode" -out "$d" >/dev/null &
done
wait
