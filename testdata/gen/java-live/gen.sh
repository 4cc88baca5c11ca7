#!/usr/bin/env bash
# Regenerates testdata/jvm/jdk25-lock-owners/{one,two,platform}/ from Virtual.java and
# PlatformLock.java run on a Temurin
# JDK 25: the moment as `dumpdiff capture --pid` takes it on JDK 21+, a JSON dump
# (jcmd PID Thread.dump_to_file -format=json) and, beside it, `jcmd PID Thread.print -l`
# (the JSON names no owner of a java.util.concurrent lock).
#
#   one  java Virtual 5 8 1   8 virtual threads park on one ReentrantLock held by the
#                             platform thread capture-test-lock-holder
#   two  java Virtual 5 12 2  6 on each of two ReentrantLocks, held by
#                             capture-test-lock-holder-0 and -1: the text's addresses cannot
#                             be matched to the JSON's identity hashes (one class, two locks)
#   platform  java PlatformLock  8 platform threads park on a ReentrantLock held by main,
#                             while "acceptor" waits in ServerSocket.accept, holding the
#                             socket's own ReentrantLock (two held of one class: joined
#                             through the waiters, which the text prints too)
#
#   testdata/jvm/jdk25-vthread-ramp/{1-before,2-during}.json: VirtualRamp.java, one virtual
#   thread per task, 10 tasks, then 2,000 (a load arriving): load, not an explosion
#
# Usage: bash testdata/gen/java-live/gen.sh   (~15 s). Needs JDK25_HOME (default
# /usr/lib/jvm/temurin-25-jdk-amd64) and jcmd on PATH; without them it says so and exits 0.
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
"$JDK/bin/javac" -d "$work" "$here/Virtual.java" "$here/PlatformLock.java"
take() { # case class args...
	local case=$1 class=$2
	shift 2
	mkfifo "$work/$case.in"
	"$JDK/bin/java" -Xmx128m -cp "$work" "$class" "$@" <"$work/$case.in" >"$work/$case.out" &
	local pid=$!
	pids+=("$pid")
	exec {fd}>"$work/$case.in" # keeps its stdin open until the end
	for _ in $(seq 100); do grep -q ready "$work/$case.out" 2>/dev/null && break; sleep 0.1; done
	grep -q ready "$work/$case.out" || { echo "$case: not ready" >&2; exit 1; }
	local out=$repo/testdata/jvm/jdk25-lock-owners/$case
	mkdir -p "$out"
	rm -f "/tmp/dumpdiff-gen-$pid.json"
	jcmd "$pid" Thread.dump_to_file -format=json "/tmp/dumpdiff-gen-$pid.json" >/dev/null
	mv "/tmp/dumpdiff-gen-$pid.json" "$out/dump.json"
	jcmd "$pid" Thread.print -l >"$out/locks.txt"
	echo "$case: $(grep -c '"tid"' "$out/dump.json") threads in the JSON, $(grep -c '^"' "$out/locks.txt") in the text" >&2
}
take one Virtual 5 8 1
take two Virtual 5 12 2
take platform PlatformLock

# The ramp: one JVM, a JSON dump after "before", then the load, a JSON dump after "during".
"$JDK/bin/javac" -d "$work" "$here/VirtualRamp.java"
mkfifo "$work/ramp.in"
"$JDK/bin/java" -Xmx128m -cp "$work" VirtualRamp <"$work/ramp.in" >"$work/ramp.out" &
pid=$!
pids+=("$pid")
exec {ramp}>"$work/ramp.in"
wait_for() { for _ in $(seq 100); do grep -q "$1" "$work/ramp.out" 2>/dev/null && return; sleep 0.1; done; echo "ramp: no $1" >&2; exit 1; }
out=$repo/testdata/jvm/jdk25-vthread-ramp
mkdir -p "$out"
wait_for before
jcmd "$pid" Thread.dump_to_file -format=json "/tmp/dumpdiff-gen-$pid-1.json" >/dev/null
mv "/tmp/dumpdiff-gen-$pid-1.json" "$out/1-before.json"
echo >&$ramp
wait_for during
jcmd "$pid" Thread.dump_to_file -format=json "/tmp/dumpdiff-gen-$pid-2.json" >/dev/null
mv "/tmp/dumpdiff-gen-$pid-2.json" "$out/2-during.json"
echo "ramp: $(grep -c '"virtual": true' "$out/1-before.json") then $(grep -c '"virtual": true' "$out/2-during.json") virtual threads" >&2
