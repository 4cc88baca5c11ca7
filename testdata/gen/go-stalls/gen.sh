#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-stalls-* from main.go, ftype/, ini/ and
# stoptest/ here (stdlib only), run by two real toolchains: the installed Go
# (1.26) and Go 1.13.15 (from the module proxy, run in GOPATH mode:
# GOENV=off, GO111MODULE=off). PARTS picks what to run (all by default):
#   self     — the modes that write their own debug=2 dumps 3, 8 and 13 s
#              after they started (~15 s a toolchain);
#   stoptest — a stopper's shutdown hang under go test: SIGQUIT 2 s in, and
#              the -test.timeout panic (~10 s);
#   outside  — the service driven by curl and dumped from its pprof handler
#              (debug=2 at 65, 70 and 75 s: the runtime prints a wait's
#              minutes from one; debug=1 at 75 s) and by SIGQUIT at 76 s
#              (~80 s, all modes at once).
# The READMEs are written by hand, from the source.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=$repo/testdata/verdicts
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
parts=" ${PARTS:-self stoptest outside} "
(cd "$here" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -o "$tmp/go126" .)
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
[[ -x $g13/bin/go ]] || { echo "no Go 1.13.15 toolchain in the module cache" >&2; exit 1; }
# Module paths with a dot, as real ones have: a path without one reads as
# the standard library's.
src=$tmp/gopath/src/example.com
mkdir -p "$src/stalls/ftype" "$src/stalls/ini" "$src/stoptest"
cp "$here/main.go" "$src/stalls/"
cp "$here/ftype/ftype.go" "$src/stalls/ftype/"
cp "$here/ini/ini.go" "$src/stalls/ini/"
cp "$here/stoptest/stop_test.go" "$src/stoptest/"
gopath() { (cd "$src/$1" && shift && CGO_ENABLED=0 GOPATH="$tmp/gopath" GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" "$@"); }
gopath stalls build -o "$tmp/go113" .

if [[ $parts == *" self "* ]]; then
	for v in 126 113; do
		suffix=""; [[ $v == 113 ]] && suffix="-go113"
		for mode in wg-batch wg-drain wg-stopper wg-healthy http-stuck http-healthy spin-stuck spin-healthy; do
			mkdir -p "$out/go-stalls-$mode$suffix"
			"$tmp/go$v" -mode "$mode" -out "$out/go-stalls-$mode$suffix" &
			pids+=($!)
		done
		# one toolchain at a time: the spinning modes take a core each
		for p in "${pids[@]}"; do wait "$p"; done
		pids=()
	done
fi

if [[ $parts == *" stoptest "* ]]; then
	(cd "$here/stoptest" && CGO_ENABLED=0 GOFLAGS=-mod=mod go test -c -o "$tmp/stop126" .)
	gopath stoptest test -c -o "$tmp/stop113" .
	for v in 126 113; do
		suffix=""; [[ $v == 113 ]] && suffix="-go113"
		for t in Deadlock Healthy; do
			name=stuck; [[ $t == Healthy ]] && name=healthy
			dir=$out/go-stalls-stoptest-$name$suffix
			mkdir -p "$dir"
			GOTRACEBACK=all "$tmp/stop$v" -test.run "TestStop$t" -test.timeout 1h 2>"$dir/1.txt" >/dev/null &
			p=$!
			sleep 2
			kill -QUIT "$p"
			wait "$p" 2>/dev/null || true
		done
		mkdir -p "$out/go-stalls-stoptest-timeout-stuck$suffix"
		"$tmp/stop$v" -test.run TestStopDeadlock -test.timeout 3s >"$out/go-stalls-stoptest-timeout-stuck$suffix/1.txt" 2>&1 || true
	done
fi

# drive MODE BASE: the clients of an outside mode (curl, a new connection
# each), until killed.
drive() {
	case $1 in
	proxy-stuck) curl -s -m 600 "$2/price" >/dev/null ;;
	proxy-healthy) while :; do curl -s -m 10 "$2/price" >/dev/null; done ;;
	ini-stuck) printf 'name = shop\r\nport = 8080\r' | curl -s -m 600 --data-binary @- "$2/config" >/dev/null ;;
	ini-healthy) while :; do curl -s -m 10 --data-binary @"$tmp/good.ini" "$2/config" >/dev/null; done ;;
	esac
}
if [[ $parts == *" outside "* ]]; then
	for i in $(seq 20000); do echo "key$i = value $i"; done >"$tmp/good.ini"
	for v in 126 113; do
		suffix=""; [[ $v == 113 ]] && suffix="-go113"
		for mode in proxy-stuck proxy-healthy ini-stuck ini-healthy; do
			# go-stalls-proxy-stuck (debug=2 ×3), go-stalls-proxy-debug1-stuck,
			# go-stalls-proxy-sigquit-stuck: one input each.
			dir=$out/go-stalls-$mode$suffix
			d1=$out/go-stalls-${mode%-*}-debug1-${mode#*-}$suffix
			sq=$out/go-stalls-${mode%-*}-sigquit-${mode#*-}$suffix
			mkdir -p "$dir" "$d1" "$sq"
			(
				GOTRACEBACK=all "$tmp/go$v" -mode "$mode" -addr-file "$tmp/$mode$v.addr" 2>"$sq/1.txt" &
				srv=$!
				while [[ ! -s $tmp/$mode$v.addr ]]; do sleep 0.1; done
				read -r base pprof <"$tmp/$mode$v.addr"
				cl=()
				for c in 1 2 3; do drive "$mode" "$base" & cl+=($!); done
				sleep 65
				for n in 1 2 3; do
					curl -s "$pprof/debug/pprof/goroutine?debug=2" >"$dir/$n.txt"
					[[ $n == 3 ]] || sleep 5
				done
				curl -s "$pprof/debug/pprof/goroutine?debug=1" >"$d1/1.txt"
				sleep 1
				kill -QUIT "$srv"
				wait "$srv" 2>/dev/null || true
				for c in "${cl[@]}"; do kill "$c" 2>/dev/null || true; done
				wait 2>/dev/null || true
			) &
			pids+=($!)
		done
	done
	for p in "${pids[@]}"; do wait "$p"; done
	pids=()
fi
for d in "$out"/go-stalls-*; do
	for f in "$d"/*.txt; do echo "$(basename "$d")/$(basename "$f"): $(grep -c '^goroutine ' "$f") goroutines" >&2; done
done
