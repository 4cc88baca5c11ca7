#!/usr/bin/env bash
# Regenerates the progress fixtures of testdata/verdicts/ (issue 33: "nothing healthy was flagged, and
# that must stay so" — threads in the same frames at every dump while the work moves on — and its
# mirror, a livelock that looks like progress) from src/, run on the installed Java 17 (JDK classes
# only), dumped three times with `jstack -l PID`, 5 s apart, 3 s after the program printed "ready":
#
#   progress-throttle-healthy/1..3.txt   ProgressApp throttle         (200 one-shot threads behind a Semaphore of 2)
#   progress-throttle-stuck/1..3.txt     ProgressApp throttle-stuck   (the two permit holders never release)
#   progress-batch-healthy/1..3.txt      ProgressApp batch            (a fixed pool of 10 through 300 tasks sleeping 0-4 s)
#   progress-recovered-healthy/1..3.txt  ProgressApp recovered        (a pool of 16 busy 10 s, idle at the third dump)
#   progress-livelock-stuck/1..3.txt     ProgressApp livelock         (two polite diners passing a spoon forever)
#   progress-livelock-healthy/1..3.txt   ProgressApp livelock-healthy (the same, politeness gives up: they eat)
#   progress-livelock-yield-stuck/1..3.txt ProgressApp livelock-yield (two tryLock workers backing off by Thread.yield forever)
#   progress-livelock-yield-healthy/1..3.txt ProgressApp livelock-yield-healthy (the same workers taking turns, a job each 20 ms)
#
# JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 runs them on Temurin 25 instead (the jdk25-* cases).
#
# Each README.md was written by hand from the source before dumpdiff ran on the dumps; this script
# only replaces the dumps. The JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-progress/gen.sh [CASE...]   (default: all; ~20 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../jstack3.sh"
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-progress.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
bin=${JAVA_HOME:+$JAVA_HOME/bin/}
declare -A MODE=([throttle-healthy]=throttle [throttle-stuck]=throttle-stuck [batch-healthy]=batch
	[recovered-healthy]=recovered [livelock-stuck]=livelock [livelock-healthy]=livelock-healthy [livelock-yield-stuck]=livelock-yield
	[livelock-yield-healthy]=livelock-yield-healthy)
cases=("$@")
((${#cases[@]})) || cases=(throttle-healthy throttle-stuck batch-healthy recovered-healthy livelock-stuck livelock-healthy livelock-yield-stuck livelock-yield-healthy)
"${bin}javac" -nowarn -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	base=${c#jdk25-}
	mode=${MODE[$base]:-}
	[[ -n $mode ]] || { echo "unknown case $c" >&2; exit 1; }
	"${bin}java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" com.example.progress.ProgressApp "$mode" >"$tmp/out.log" 2>&1 &
	pid=$!
	dir=progress-$base
	[[ $c == jdk25-* ]] && dir=jdk25-$dir
	dump_started "$tmp/out.log" "$repo/testdata/verdicts/$dir"
done
