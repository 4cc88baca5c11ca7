#!/usr/bin/env bash
# Regenerates the two-sided waits' fixtures of testdata/verdicts/ (issue 33, "the holder first:
# two-sided waits tied") from src/TwoSidedApp.java, run on the installed Java 17 (JDK classes
# only), dumped three times with `jstack -l PID`, 5 s apart, 3 s after the program printed "ready":
#
#   twosided-stuck/1..3.txt     com.example.twosided.TwoSidedApp stuck    (a nested monitor
#                               lock-out, the same with ReentrantLock and Condition, a lost wake-up)
#   twosided-healthy/1..3.txt   com.example.twosided.TwoSidedApp healthy
#   nested-queue-stuck/1..3.txt   com.example.twosided.NestedQueueApp stuck  (a producer holding its
#                                 queue while it waits on a "not full" signal: eugenp/tutorials#14031)
#   nested-queue-healthy/1..3.txt com.example.twosided.NestedQueueApp healthy
#
# JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 runs them on Temurin 25 instead (the jdk25-*
# cases: `JAVA_HOME=... bash gen.sh jdk25-twosided-stuck`).
#
# Each README.md was written by hand from the source before dumpdiff ran on the dumps; this
# script only replaces the dumps. The JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-twosided/gen.sh [CASE...]   (default: all; ~20 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../jstack3.sh"
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-twosided.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
bin=${JAVA_HOME:+$JAVA_HOME/bin/}
declare -A MAIN=([twosided]=TwoSidedApp [nested-queue]=NestedQueueApp)
cases=("$@")
((${#cases[@]})) || cases=(twosided-stuck twosided-healthy nested-queue-stuck nested-queue-healthy)
"${bin}javac" -nowarn -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	base=${c#jdk25-}
	main=${MAIN[${base%-*}]:-}
	[[ -n $main ]] || { echo "unknown case $c" >&2; exit 1; }
	"${bin}java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" "com.example.twosided.$main" "${c##*-}" >"$tmp/out.log" 2>&1 &
	pid=$!
	dir=$repo/testdata/verdicts/$c
	dump_started "$tmp/out.log" "$dir"
done
