#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-waits-*, go-asleep and go-errgroup-* from main.go here
# (stdlib only), run by two real toolchains side by side: the installed Go
# (1.26) and Go 1.13.15 (from the module proxy, run without modules: GOENV=off,
# GO111MODULE=off). Each long-running mode writes its own debug=2 dumps at 65,
# 70 and 75 s (the runtime prints a wait as minutes from one minute), the
# handlers modes at 330, 335 and 340 s (a request resting under its handler
# is stuck from 5 minutes: WorkRestMinutes), the transports modes at 130,
# 135 and 140 s (idle past net/http's default 90 s idle timeout); the
# asleep modes stop at once with Go's "all goroutines are asleep" report,
# kept as the runtime wrote it on stderr. Built with CGO_ENABLED=0: a
# program linked with cgo is never told asleep (the runtime cannot see
# into C threads). ~6 minutes (MODES="bodies cycles" ~80 s). The READMEs are
# written by hand, from the source.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -o "$tmp/go126" .)
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
[[ -x $g13/bin/go ]] || { echo "no Go 1.13.15 toolchain in the module cache" >&2; exit 1; }
mkdir -p "$tmp/src" && cp "$here/main.go" "$tmp/src/"
(cd "$tmp/src" && CGO_ENABLED=0 GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/go113" main.go)
(cd "$here/asleep" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -o "$tmp/asleep126" .)
(cd "$here/asleep" && CGO_ENABLED=0 GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/asleep113" main.go)
asleep=$repo/testdata/verdicts/go-asleep
mkdir -p "$asleep"
for v in 126 113; do
	for m in wg chan; do
		if timeout 10 "$tmp/asleep$v" -mode "$m" 2>"$asleep/go1.${v#1}-$m.txt"; then
			echo "asleep -mode $m did not stop" >&2
			exit 1
		fi
		grep -q 'all goroutines are asleep' "$asleep/go1.${v#1}-$m.txt" || { echo "go$v asleep -mode $m: no report" >&2; exit 1; }
	done
done
# golang.org/x/sync/errgroup's limit (its own module, Go 1.26 only: x/sync
# needs modules): dumps 2 s after start, 5 s apart (~12 s).
(cd "$here/errgroup" && GOFLAGS=-mod=mod GOSUMDB=off go build -o "$tmp/errgroup" .)
for m in stuck healthy; do
	mkdir -p "$repo/testdata/verdicts/go-errgroup-$m"
	"$tmp/errgroup" -mode "$m" -out "$repo/testdata/verdicts/go-errgroup-$m" &
done
pids=()
for v in 126 113; do
	suffix=""; [[ $v == 113 ]] && suffix="-go113"
	for mode in ${MODES:-handlers bodies transports cycles}; do
		for m in "$mode" "$mode-healthy"; do
			first=65s
			[[ $mode == handlers ]] && first=330s
			[[ $mode == transports ]] && first=130s # idle past net/http's 90 s idle timeout
			dir=$repo/testdata/verdicts/go-waits-$m$suffix
			mkdir -p "$dir"
			"$tmp/go$v" -mode "$m" -first "$first" -out "$dir" &
			pids+=($!)
		done
	done
done
for p in "${pids[@]}"; do wait "$p"; done
wait
for mode in ${MODES:-handlers bodies transports cycles}; do
	for d in "$repo"/testdata/verdicts/go-waits-$mode*; do
		echo "$(basename "$d"): $(grep -c '^goroutine ' "$d/1.txt") goroutines in 1.txt" >&2
		# The services' dumps (hundreds of goroutines) are kept gzipped.
		[[ $mode == cycles ]] || gzip -9nf "$d"/[123].txt
	done
done
