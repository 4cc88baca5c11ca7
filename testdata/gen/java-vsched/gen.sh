#!/usr/bin/env bash
# Regenerates testdata/verdicts/vthread-sched-{cpu,pinned,healthy}/: QuoteService.java (a quote
# service whose requests each run on a virtual thread, 500 a second) run on a Temurin JDK 25
# with the virtual-thread scheduler's parallelism set to 4, each mode captured as a user would:
# `dumpdiff capture --pid PID --count 3 --every 2s` (a JSON thread dump and, beside it,
# `jcmd PID Thread.vthread_scheduler` at each moment). The expected verdicts are in each
# folder's README.md, written from the program before dumpdiff ran on it.
#
#   cpu      every request prices for 200 ms on a core: carriers all mounted, the queue grows
#   pinned   every request reads a table whose static initializer sleeps 120 s: the first
#            request sleeps pinned under <clinit>, the next three wait for the initialization
#            pinned too (JFR jdk.VirtualThreadPinned shows all four), the queue grows
#   healthy  every request waits 20 ms for a downstream reply (unmounted) and prices in
#            microseconds: carriers mostly free, nothing queued
#
# Usage: bash testdata/gen/java-vsched/gen.sh   (~30 s). Needs JDK25_HOME (default
# /usr/lib/jvm/temurin-25-jdk-amd64), jcmd on PATH and Go; without a JDK 25 it says so and
# exits 0.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
JDK=${JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
if [ ! -x "$JDK/bin/java" ] || ! command -v jcmd >/dev/null; then
	echo "no JDK 25 at $JDK or no jcmd: fixtures left as they are" >&2
	exit 0
fi
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
"$JDK/bin/javac" -d "$work/classes" "$here/src/com/example/vsched/QuoteService.java"
(cd "$repo" && go build -o "$work/dumpdiff" ./cmd/dumpdiff)
for mode in cpu pinned healthy; do
	mkfifo "$work/$mode.in"
	"$JDK/bin/java" -Xmx256m -Djdk.virtualThreadScheduler.parallelism=4 -cp "$work/classes" \
		com.example.vsched.QuoteService "$mode" <"$work/$mode.in" >"$work/$mode.out" &
	pid=$!
	pids+=("$pid")
	exec {fd}>"$work/$mode.in" # keeps its stdin open until the capture is done
	for _ in $(seq 100); do grep -q ready "$work/$mode.out" 2>/dev/null && break; sleep 0.1; done
	grep -q ready "$work/$mode.out" || { echo "$mode: not ready" >&2; exit 1; }
	sleep 1 # a second of arrivals before the first moment
	out=$repo/testdata/verdicts/vthread-sched-$mode
	mkdir -p "$out"
	find "$out" -mindepth 1 ! -name README.md -delete
	"$work/dumpdiff" capture --pid "$pid" --count 3 --every 2s --out "$work/$mode-capture" >&2
	cp "$work/$mode-capture"/* "$out/"
	exec {fd}>&- # stdin closes: the service exits
	wait "$pid" || true
	echo "$mode: $(cat "$out"/*vthread-scheduler.txt | grep -o 'active = [0-9]*, .*submissions = [0-9]*' | tr '\n' ' ')" >&2
done
