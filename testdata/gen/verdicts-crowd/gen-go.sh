#!/usr/bin/env bash
# Regenerates the Go crowd fixtures in testdata/verdicts/ from gocrowd/main.go here (stdlib
# only), built by the installed Go (1.26) and, for the -go113 cases, by Go 1.13.15 (from the
# module proxy, run without modules: GOENV=off GO111MODULE=off), CGO_ENABLED=0. The program
# writes its own debug=2 goroutine dumps 1..3.txt at 3, 6 and 9 s after start, and a debug=1
# profile beside the first, moved to crowd-go-MODE-debug1[-healthy]/1.txt for leak-send,
# leak-recv, idle and pool (a folder is read whole as moments); no wait is a minute old, so no
# age is printed.
#
#   crowd-go-leak-send[-go113]   -mode leak-send  (3,000 senders nobody receives from)
#   crowd-go-leak-recv[-go113]   -mode leak-recv  (3,000 receivers nobody sends to, one per request)
#   crowd-go-idle-healthy        -mode idle       (5,000 idle keep-alive connections)
#   crowd-go-pool-healthy        -mode pool       (64 workers idle in chan receive)
#   crowd-go-abba[-go113]        -mode abba       (two package-level mutexes taken in opposite orders)
#   crowd-go-fields[-go113]      -mode fields     (a struct's two mutexes taken in opposite orders)
#   crowd-go-ordered-healthy     -mode ordered    (16 goroutines taking them in one order)
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
	crowd-go-abba crowd-go-fields crowd-go-ordered-healthy
	crowd-go-leak-send-go113 crowd-go-leak-recv-go113 crowd-go-abba-go113 crowd-go-fields-go113)
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
cp "$here/gocrowd/main.go" "$tmp/"
(cd "$tmp" && CGO_ENABLED=0 GOFLAGS= go build -o "$tmp/gocrowd" main.go)
if [[ -x $g13/bin/go ]]; then
	(cd "$tmp" && CGO_ENABLED=0 GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/gocrowd-go113" main.go)
fi
for c in "${cases[@]}"; do
	bin=$tmp/gocrowd
	mode=${c#crowd-go-}
	if [[ $mode == *-go113 ]]; then
		bin=$tmp/gocrowd-go113
		mode=${mode%-go113}
		[[ -x $bin ]] || { echo "no Go 1.13.15 toolchain in the module cache" >&2; exit 1; }
	fi
	mode=${mode%-healthy}
	d=$repo/testdata/verdicts/$c
	mkdir -p "$d"
	"$bin" -mode "$mode" -out "$d" &
done
wait
for c in "${cases[@]}"; do
	d=$repo/testdata/verdicts/$c
	case $c in
	crowd-go-leak-send | crowd-go-leak-recv | crowd-go-idle-healthy | crowd-go-pool-healthy)
		mode=${c#crowd-go-}
		base=crowd-go-${mode%-healthy}-debug1
		[[ $c == *-healthy ]] && base=$base-healthy
		mkdir -p "$repo/testdata/verdicts/$base"
		mv "$d/1-debug1.txt" "$repo/testdata/verdicts/$base/1.txt"
		;;
	*) rm -f "$d/1-debug1.txt" ;;
	esac
done
