#!/usr/bin/env bash
# Regenerates the pool-holder fixtures of testdata/verdicts/ (issue 33, "the holder first":
# the holders of an exhausted pool are the story; a pool waiting on its own queued work is a
# deadlock) from small programs run here:
#
#   pool2-holders-{stuck,healthy}        com.example.poolholders.ReportService (commons-pool2 2.11.1)
#   hikari-holders-{stuck,healthy}       com.example.poolholders.OrderController (HikariCP 2.7.9)
#   custom-pool-holders-{stuck,healthy}  com.example.poolholders.QuoteHandler (the program's own pool)
#   starve-pool-{stuck,healthy}          com.example.poolholders.Aggregator (three dumps)
#   starve-pool-onedump-{stuck,healthy}  com.example.poolholders.Aggregator (one dump)
#   go-chansem-{stuck,healthy}[-go113]   chansem/ (Go 1.26, or Go 1.13.15 from the module cache)
#
# Java 17 with the Debian jars (apt-get install libcommons-pool2-java libhikaricp-java
# libslf4j-java); each JVM is dumped with `jstack -l PID` three times (once for -onedump), 5 s
# apart, 3 s after it printed "ready". The upstream the programs call over TCP is chansem's
# own server (-mode serve-stuck: never replies; serve-healthy: replies in 20 ms), on
# 127.0.0.1 at a port the kernel picks. The Go client writes its own debug=2 dumps
# (pprof.Lookup("goroutine").WriteTo), 2 s after it starts, 5 s apart.
#
# Each README.md was written by hand from the source before dumpdiff ran on the dumps; this
# script only replaces the dumps. Every process started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-poolholders/gen.sh [CASE...]   (default: all; ~20 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-poolholders.XXXXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

declare -A MAIN=(
	[pool2-holders-stuck]="ReportService stuck" [pool2-holders-healthy]="ReportService healthy"
	[hikari-holders-stuck]="OrderController stuck" [hikari-holders-healthy]="OrderController healthy"
	[custom-pool-holders-stuck]="QuoteHandler stuck" [custom-pool-holders-healthy]="QuoteHandler healthy"
	[starve-pool-stuck]="Aggregator stuck" [starve-pool-healthy]="Aggregator healthy"
	[starve-pool-onedump-stuck]="Aggregator stuck" [starve-pool-onedump-healthy]="Aggregator healthy"
)
cases=("$@")
((${#cases[@]})) || cases=(pool2-holders-stuck pool2-holders-healthy hikari-holders-stuck hikari-holders-healthy
	custom-pool-holders-stuck custom-pool-holders-healthy starve-pool-stuck starve-pool-healthy
	starve-pool-onedump-stuck starve-pool-onedump-healthy
	go-chansem-stuck go-chansem-healthy go-chansem-stuck-go113 go-chansem-healthy-go113)

(cd "$here/chansem" && GOFLAGS=-mod=mod go build -o "$tmp/chansem" .)

# upstream MODE: starts chansem's server, sets $addr.
upstream() {
	"$tmp/chansem" -mode "serve-$1" >"$tmp/addr" &
	pids+=($!)
	for _ in $(seq 1 50); do [[ -s $tmp/addr ]] && break; sleep 0.1; done
	addr=$(head -1 "$tmp/addr")
	[[ -n $addr ]] || { echo "upstream did not start" >&2; exit 1; }
}

stop() { kill "${pids[@]}" 2>/dev/null || true; wait "${pids[@]}" 2>/dev/null || true; pids=(); }

cp="$tmp/classes:/usr/share/java/commons-pool2.jar:/usr/share/java/HikariCP.jar:/usr/share/java/slf4j-api.jar:/usr/share/java/slf4j-nop.jar"
compiled=
for c in "${cases[@]}"; do
	dir=$repo/testdata/verdicts/$c
	mkdir -p "$dir"
	mode=stuck; [[ $c == *healthy* ]] && mode=healthy
	upstream "$mode"
	case $c in
	go-chansem-*)
		bin=$tmp/chansem
		if [[ $c == *-go113 ]]; then
			GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
			g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
			[[ -x $g13/bin/go ]] || { echo "no Go 1.13.15 toolchain in the module cache" >&2; exit 1; }
			(cd "$here/chansem" && GOENV=off GOROOT=$g13 GOFLAGS= GO111MODULE=on "$g13/bin/go" build -o "$tmp/chansem113" .)
			bin=$tmp/chansem113
		fi
		"$bin" -mode "client-$mode" -addr "$addr" -out "$dir"
		echo "$c: $(grep -c '^goroutine ' "$dir/1.txt") goroutines a dump" >&2
		;;
	*)
		[[ -n ${MAIN[$c]:-} ]] || { echo "unknown case $c" >&2; exit 1; }
		[[ -n $compiled ]] || { javac -nowarn -cp "$cp" -d "$tmp/classes" $(find "$here/src" -name '*.java') 2>/dev/null; compiled=1; }
		read -r cls m <<<"${MAIN[$c]}"
		java -Xmx64m -XX:+UseSerialGC -cp "$cp" "com.example.poolholders.$cls" "$m" "$addr" >"$tmp/out.log" 2>&1 &
		pid=$!
		pids+=($pid)
		for _ in $(seq 1 100); do grep -q '^ready$' "$tmp/out.log" && break; sleep 0.1; done
		grep -q '^ready$' "$tmp/out.log" || { cat "$tmp/out.log" >&2; exit 1; }
		sleep 3
		n=3; [[ $c == *onedump* ]] && n=1
		for i in $(seq 1 $n); do
			jstack -l "$pid" >"$dir/$i.txt"
			[[ $i == "$n" ]] || sleep 5
		done
		echo "$c: $(grep -c '^"' "$dir/1.txt") threads a dump" >&2
		;;
	esac
	stop
done
