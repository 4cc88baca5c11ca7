#!/usr/bin/env bash
# Regenerates the fixtures of hand-offs with nobody on the other side (issue 33, "waits by
# structure", "the producer side of a hand-off") from src/HandoffApp.java, run on the installed
# Java 17 (JDK classes only), dumped three times with `jstack -l PID`, 5 s apart, 3 s after the
# program printed "ready":
#
#   handoff-MODE-stuck/1..3.txt     com.example.orphans.HandoffApp MODE stuck
#   handoff-MODE-healthy/1..3.txt   com.example.orphans.HandoffApp MODE healthy
#
# MODE is one of latch barrier phaser exchanger syncput fullput transfer join terminate future
# condition kept latchpeer (HandoffApp's comment says each). Each README.md was written by hand from the source
# before dumpdiff ran on the dumps; this script only replaces the dumps. The JVM started here is
# killed on exit.
#
# Usage: bash testdata/gen/verdicts-orphans/gen.sh [CASE...]   (default: all; ~15 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../jstack3.sh"
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-orphans.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
bin=${JAVA_HOME:+$JAVA_HOME/bin/}
cases=("$@")
if ((${#cases[@]} == 0)); then
	for m in latch barrier phaser exchanger syncput fullput transfer join terminate future condition kept latchpeer; do
		cases+=("handoff-$m-stuck")
	done
	for m in latch barrier exchanger syncput fullput join terminate kept latchpeer; do
		cases+=("handoff-$m-healthy")
	done
fi
"${bin}javac" -nowarn -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	rest=${c#handoff-}
	mode=${rest%-*} how=${rest##*-}
	"${bin}java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" com.example.orphans.HandoffApp "$mode" "$how" >"$tmp/out.log" 2>&1 &
	pid=$!
	dump_started "$tmp/out.log" "$repo/testdata/verdicts/$c"
done
