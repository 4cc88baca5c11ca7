#!/usr/bin/env bash
# Regenerates the fixtures of cycles and holders no JVM prints as a deadlock (issue 33, "cycles of
# every kind", "the holder first") in testdata/verdicts/, from one small real Java program
# (src/com/example/jcycles/JCyclesApp.java), each scene dumped with the JDK's `jstack -l PID`
# three times, 5 s apart:
#
#   holder-wait-nosignal-{stuck,healthy}   JCyclesApp holderwait   (Java 17)
#   holder-park-nolatch-{stuck,healthy}    JCyclesApp holderpark   (Java 17)
#   rw-future-cf-{stuck,healthy}           JCyclesApp rwfuture     (Java 17)
#   pool-self-wait-busy-{stuck,healthy}    JCyclesApp selfpool     (Java 17)
#   backoff-ring-{stuck,healthy}           JCyclesApp backoff      (Java 17)
#   jdk25-holder-wait-nosignal-stuck, jdk25-rw-future-cf-stuck, jdk25-pool-self-wait-busy-stuck,
#   jdk25-backoff-ring-stuck               the same, Temurin 25
#
# The program prints "ready" once its threads are started; the first dump is taken 3 s later.
# Each case's README.md is written by hand from the source, before dumpdiff ran on the dumps;
# this script only replaces the dumps. Every JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-jcycles/gen.sh [CASE...]   (default: all; ~15 s a case)
# JDK25 names the Temurin 25 home (default /usr/lib/jvm/temurin-25-jdk-amd64).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
jdk25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-jcycles.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

declare -A SCENE=([holder-wait-nosignal]=holderwait [holder-park-nolatch]=holderpark
	[rw-future-cf]=rwfuture [pool-self-wait-busy]=selfpool [backoff-ring]=backoff)
cases=("$@")
if ((${#cases[@]} == 0)); then
	for s in holder-wait-nosignal holder-park-nolatch rw-future-cf pool-self-wait-busy backoff-ring; do
		cases+=("$s-stuck" "$s-healthy")
	done
	cases+=(jdk25-holder-wait-nosignal-stuck jdk25-rw-future-cf-stuck jdk25-pool-self-wait-busy-stuck jdk25-backoff-ring-stuck)
fi

javac -nowarn --release 17 -d "$tmp/classes" "$here"/src/com/example/jcycles/*.java
for c in "${cases[@]}"; do
	base=${c#jdk25-}
	mode=${base##*-}
	scene=${SCENE[${base%-*}]:-}
	[[ -n $scene ]] || { echo "unknown case $c" >&2; exit 1; }
	java=java jstack=jstack
	if [[ $c == jdk25-* ]]; then
		java=$jdk25/bin/java jstack=$jdk25/bin/jstack
	fi
	"$java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" com.example.jcycles.JCyclesApp "$scene" "$mode" >"$tmp/out.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 100); do
		grep -q '^ready$' "$tmp/out.log" && break
		sleep 0.1
	done
	grep -q '^ready$' "$tmp/out.log" || { cat "$tmp/out.log" >&2; exit 1; }
	sleep 3
	dir=$repo/testdata/verdicts/$c
	mkdir -p "$dir"
	for i in 1 2 3; do
		"$jstack" -l "$pid" >"$dir/$i.txt"
		[[ $i == 3 ]] || sleep 5
	done
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	echo "$c: $(grep -c '^"' "$dir/1.txt") threads a dump" >&2
done
