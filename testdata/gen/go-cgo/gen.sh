#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-cgo-* from main.go here (stdlib and cgo, gcc), built by the
# installed Go (1.26) with CGO_ENABLED=1 and, for -go113, by Go 1.13.15 (GOTOOLCHAIN=go1.13.15,
# run without modules). Each case runs the program with its -mode and fetches, with curl from
# its net/http/pprof on 127.0.0.1, the debug=1 profile and the debug=2 dump at three moments
# 2 s apart: debug=1 to go-cgo-MODE-debug1[-go113]/N.txt, debug=2 to go-cgo-MODE[-go113]/N.txt.
# The READMEs are written by hand from the source before dumpdiff runs; not touched here.
#
#   go-cgo-block          999 goroutines each in a C call that does not return
#   go-cgo-busy-healthy   4 workers calling a 1 ms C function in a loop
#
# Usage: bash testdata/gen/go-cgo/gen.sh [CASE...]   (default: all; ~10 s each)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-cgo.XXXXXX)
pid=
trap '[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
cases=("$@")
((${#cases[@]})) || cases=(go-cgo-block go-cgo-busy-healthy go-cgo-block-go113)
cp "$here/main.go" "$tmp/"
(cd "$tmp" && CGO_ENABLED=1 GOFLAGS= go build -o "$tmp/cgocalls" main.go)
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
if [[ -x $g13/bin/go ]]; then
	(cd "$tmp" && CGO_ENABLED=1 GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/cgocalls-go113" main.go)
fi
for c in "${cases[@]}"; do
	bin=$tmp/cgocalls mode=${c#go-cgo-} suffix= healthy=
	if [[ $mode == *-go113 ]]; then bin=$tmp/cgocalls-go113 mode=${mode%-go113} suffix=-go113; fi
	if [[ $mode == *-healthy ]]; then healthy=-healthy mode=${mode%-healthy}; fi
	d1=$repo/testdata/verdicts/go-cgo-$mode-debug1$healthy$suffix d2=$repo/testdata/verdicts/go-cgo-$mode$healthy$suffix
	rm -f "$tmp/addr"
	"$bin" -mode "$mode" -addr-file "$tmp/addr" 2>/dev/null &
	pid=$!
	for _ in $(seq 300); do [[ -s $tmp/addr ]] && break; sleep 0.1; done
	addr=$(cat "$tmp/addr")
	mkdir -p "$d1" "$d2"
	for m in 1 2 3; do
		curl -sf "http://$addr/debug/pprof/goroutine?debug=1" -o "$d1/$m.txt"
		curl -sf "http://$addr/debug/pprof/goroutine?debug=2" -o "$d2/$m.txt"
		[[ $m == 3 ]] || sleep 2
	done
	gzip -f "$d2"/*.txt
	kill -KILL "$pid"; wait "$pid" 2>/dev/null || true; pid=
done
