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
#   testdata/verdicts/vthread-sched-tomcat-{cpu,healthy}/: TomcatLogin.java, Debian's Tomcat 10.1
#   embedded with its requests on virtual threads (useVirtualThreads), parallelism 2, under
#   testdata/gen/load's open-model load: GET /login (PBKDF2, 600,000 iterations: CPU-bound) at 20
#   a second, or GET /quote (a 20 ms sleep) at 100 a second; captured the same way, 2 s into
#   the load
#
# Usage: bash testdata/gen/java-vsched/gen.sh [quote|tomcat]   (~90 s; one source alone when named). Needs JDK25_HOME (default
# /usr/lib/jvm/temurin-25-jdk-amd64), jcmd on PATH and Go, and Debian's libtomcat10-java
# (installed when missing); without a JDK 25 it says so and exits 0.
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
only=${1:-}
for mode in cpu pinned healthy; do
	[ "$only" = tomcat ] && break
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

# The second source: Debian's Tomcat on virtual threads, under an open-model load.
[ "$only" = quote ] && exit 0
if ! dpkg -s libtomcat10-java >/dev/null 2>&1; then
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libtomcat10-java >/dev/null
fi
cp=$(ls /usr/share/java/tomcat10-{catalina,coyote,util,util-scan,juli,api,servlet-api,jaspic-api,annotations-api}.jar | tr '\n' ':')
"$JDK/bin/javac" -nowarn -d "$work/tomcat" -cp "$cp" "$here/src/com/example/vsched/TomcatLogin.java" 2>&1 | grep -v '^Note:' >&2 || true
(cd "$repo" && go build -o "$work/load" ./testdata/gen/load)
port=18557
for mode in cpu healthy; do
	mkfifo "$work/tomcat-$mode.in"
	"$JDK/bin/java" -Xmx256m -Djdk.virtualThreadScheduler.parallelism=2 -cp "$work/tomcat:$cp" \
		com.example.vsched.TomcatLogin "$port" <"$work/tomcat-$mode.in" >"$work/tomcat-$mode.out" 2>&1 &
	pid=$!
	pids+=("$pid")
	exec {fd}>"$work/tomcat-$mode.in"
	for _ in $(seq 100); do grep -q '^ready' "$work/tomcat-$mode.out" 2>/dev/null && break; sleep 0.1; done
	grep -q '^ready' "$work/tomcat-$mode.out" || { echo "tomcat $mode: not ready" >&2; exit 1; }
	for _ in 1 2 3; do # warm: the first login compiles PBKDF2's loop
		curl -s "http://127.0.0.1:$port/login" >/dev/null
		curl -s "http://127.0.0.1:$port/quote" >/dev/null
	done
	case $mode in
	cpu) "$work/load" -name login -url "http://127.0.0.1:$port/login" -rate 20 -duration 30s -max 600 -timeout 120s >&2 & ;;
	healthy) "$work/load" -name quote -url "http://127.0.0.1:$port/quote" -rate 100 -duration 30s -max 3000 -timeout 10s >&2 & ;;
	esac
	load=$!
	pids+=("$load")
	sleep 2
	out=$repo/testdata/verdicts/vthread-sched-tomcat-$mode
	mkdir -p "$out"
	find "$out" -mindepth 1 ! -name README.md -delete
	"$work/dumpdiff" capture --pid "$pid" --count 3 --every 2s --out "$work/tomcat-$mode-capture" >&2
	cp "$work/tomcat-$mode-capture"/* "$out/"
	kill "$load" 2>/dev/null || true
	exec {fd}>&-
	wait "$pid" || true
	echo "tomcat $mode: $(cat "$out"/*vthread-scheduler.txt | grep -o 'active = [0-9]*, .*submissions = [0-9]*' | tr '\n' ' ')" >&2
done
