#!/usr/bin/env bash
# Regenerates the Go crowd fixtures in testdata/verdicts/ from gocrowd/main.go here (stdlib
# only, built by the installed Go, CGO_ENABLED=0): the program writes its own debug=2 goroutine
# dumps 1..3.txt at 3, 6 and 9 s after start, and 1-debug1.txt (debug=1) beside the first; no
# wait is a minute old, so no age is printed.
#
#   crowd-go-leak-send     -mode leak-send  (3,000 senders nobody receives from)
#   crowd-go-leak-recv     -mode leak-recv  (3,000 receivers nobody sends to, one per request)
#   crowd-go-idle-healthy  -mode idle       (5,000 idle keep-alive connections)
#   crowd-go-pool-healthy  -mode pool       (64 workers idle in chan receive)
#   crowd-go-abba          -mode abba       (two package-level mutexes taken in opposite orders)
#   crowd-go-ordered-healthy -mode ordered  (16 goroutines taking them in one order)
#
# The README.md of each case is written by hand from the source, before dumpdiff was run.
#
# Usage: bash testdata/gen/verdicts-crowd/gen-go.sh [CASE...]   (default: all; ~10 s, in parallel)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-crowd-go.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cases=("$@")
((${#cases[@]})) || cases=(crowd-go-leak-send crowd-go-leak-recv crowd-go-idle-healthy crowd-go-pool-healthy
	crowd-go-abba crowd-go-ordered-healthy)
(cd "$here/gocrowd" && CGO_ENABLED=0 GOFLAGS= go build -o "$tmp/gocrowd" main.go)
for c in "${cases[@]}"; do
	mode=${c#crowd-go-}
	mode=${mode%-healthy}
	d=$repo/testdata/verdicts/$c
	mkdir -p "$d"
	"$tmp/gocrowd" -mode "$mode" -out "$d" &
done
wait
for c in "${cases[@]}"; do
	mode=${c#crowd-go-}
	base=crowd-go-${mode%-healthy}-debug1
	[[ $c == *-healthy ]] && base=$base-healthy
	d=$repo/testdata/verdicts/$c
	case $mode in
	abba | ordered-healthy) rm -f "$d/1-debug1.txt" ;;
	*) mkdir -p "$repo/testdata/verdicts/$base" && mv "$d/1-debug1.txt" "$repo/testdata/verdicts/$base/1.txt" ;;
	esac
done
