#!/usr/bin/env bash
# Regenerates the crowd fixtures in testdata/verdicts/ (issue 33: problems one dump proves by
# the structure of its threads) from a small real Java 17 program (src/), each case dumped with
# the installed JDK's `jstack -l PID` three times, 5 s apart (the one-dump rules are judged on
# 1.txt alone too):
#
#   crowd-spawn/1..3.txt          CrowdApp spawn   (a thread per request, 700 in one read)
#   crowd-supply/1..3.txt         CrowdApp supply  (supplyAsync without an executor on 2 CPUs)
#   crowd-server-healthy/1..3.txt CrowdApp server  (thread per connection, 300 idle clients)
#   crowd-pooled-bounded/1..3.txt CrowdApp pooled  (the spawn load on a fixed pool of 16)
#
# supply needs a JVM that sees 2 CPUs or fewer (-XX:ActiveProcessorCount=2 is passed): the
# common pool's parallelism is then 1 and CompletableFuture runs each task on a new thread.
# Each program prints "ready" once its threads are in place; the first dump is taken 3 s later.
# The README.md of each case is written by hand from the source, before dumpdiff was run on the
# dumps; this script only replaces the dumps. Every JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-crowd/gen.sh [CASE...]   (default: all; ~20 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-crowd.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

cases=("$@")
((${#cases[@]})) || cases=(crowd-spawn crowd-supply crowd-server-healthy crowd-pooled-bounded)
javac -nowarn -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	mode=${c#crowd-}
	mode=${mode%-healthy}
	mode=${mode%-bounded}
	java -Xmx64m -Xss256k -XX:+UseSerialGC -XX:ActiveProcessorCount=2 -cp "$tmp/classes" com.example.crowd.CrowdApp "$mode" >"$tmp/out.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 200); do
		grep -q '^ready$' "$tmp/out.log" && break
		sleep 0.1
	done
	grep -q '^ready$' "$tmp/out.log" || { cat "$tmp/out.log" >&2; exit 1; }
	sleep 3
	mkdir -p "$repo/testdata/verdicts/$c"
	for i in 1 2 3; do
		jstack -l "$pid" >"$repo/testdata/verdicts/$c/$i.txt"
		[[ $i == 3 ]] || sleep 5
	done
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
done
