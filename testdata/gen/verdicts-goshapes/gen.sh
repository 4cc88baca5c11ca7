#!/usr/bin/env bash
# Regenerates the goshapes fixtures in testdata/verdicts/ from goshapes/main.go here (stdlib
# only), built by the installed Go (1.26) and, for the -go113 cases, by Go 1.13.15 (the
# toolchain GOTOOLCHAIN=go1.13.15 fetches into the module cache, run without modules:
# GOENV=off GO111MODULE=off), CGO_ENABLED=0. Each case runs the program with its -mode, and
# fetches with curl from its net/http/pprof on 127.0.0.1 the debug=2 dump (N.txt) and the
# debug=1 profile at three moments 3 s apart. The debug=2 dumps go to shapes-CASE/ (gzipped),
# the debug=1 ones to shapes-CASE-debug1/ (a folder is read whole as moments; healthy twins
# keep -healthy at the end of both names). Each README.md is written by hand from the
# source, before dumpdiff was run; this script does not touch them.
#
#   shapes-sleep-spawn[-go113]         a goroutine per request sleeping an hour
#   shapes-sleep-slow-healthy          400 slow requests in flight, 40 pollers
#   shapes-body-leak[-go113]           response bodies never closed
#   shapes-body-stream-healthy         600 bodies streamed at once, 200 idle keep-alive conns
#   shapes-wg-exited[-go113]           WaitGroup: two workers return before Done
#   shapes-wg-blocked[-go113]          WaitGroup: workers send to a channel read after Wait
#   shapes-wg-busy-healthy             WaitGroup: workers compute for a minute
#   shapes-subscribers-healthy[-go113] 50 subscribers, each in a select on its own channel
#
# Usage: bash testdata/gen/verdicts-goshapes/gen.sh [CASE...]   (default: all; ~15 s each, two at a time)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-goshapes.XXXXXX)
pids=()
trap 'for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
cases=("$@")
((${#cases[@]})) || cases=(shapes-sleep-spawn shapes-sleep-spawn-go113 shapes-sleep-slow-healthy
	shapes-body-leak shapes-body-leak-go113 shapes-body-stream-healthy
	shapes-wg-exited shapes-wg-exited-go113 shapes-wg-blocked shapes-wg-blocked-go113 shapes-wg-busy-healthy
	shapes-subscribers-healthy shapes-subscribers-healthy-go113)
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
cp "$here/goshapes/main.go" "$tmp/"
(cd "$tmp" && CGO_ENABLED=0 GOFLAGS= go build -o "$tmp/goshapes" main.go)
if [[ -x $g13/bin/go ]]; then
	(cd "$tmp" && CGO_ENABLED=0 GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/goshapes-go113" main.go)
fi
one() {
	local c=$1 bin=$tmp/goshapes mode=${1#shapes-} suffix=
	if [[ $mode == *-go113 ]]; then
		bin=$tmp/goshapes-go113 mode=${mode%-go113} suffix=-go113
		[[ -x $bin ]] || { echo "no Go 1.13.15 toolchain in the module cache" >&2; return 1; }
	fi
	local healthy=
	[[ $mode == *-healthy ]] && healthy=-healthy mode=${mode%-healthy}
	local w=$tmp/$c d2=$repo/testdata/verdicts/shapes-$mode$healthy$suffix d1=$repo/testdata/verdicts/shapes-$mode-debug1$healthy$suffix
	mkdir -p "$w"
	"$bin" -mode "$mode" -addr-file "$w/addr" 2>/dev/null &
	local pid=$!
	for _ in $(seq 300); do [[ -s $w/addr ]] && break; sleep 0.1; done
	local addr
	addr=$(cat "$w/addr")
	for m in 1 2 3; do
		curl -sf "http://$addr/debug/pprof/goroutine?debug=2" -o "$w/$m.txt"
		curl -sf "http://$addr/debug/pprof/goroutine?debug=1" -o "$w/$m-debug1.txt"
		[[ $m == 3 ]] || sleep 3
	done
	kill -KILL "$pid"
	mkdir -p "$d2" "$d1"
	for m in 1 2 3; do
		gzip -9n <"$w/$m.txt" >"$d2/$m.txt.gz"
		mv "$w/$m-debug1.txt" "$d1/$m.txt"
	done
	echo "$c: $(head -c 200 "$d1/1.txt" | head -1)" >&2
}
for c in "${cases[@]}"; do
	one "$c" &
	pids+=($!)
	if ((${#pids[@]} % 2 == 0)); then wait; fi
done
wait
