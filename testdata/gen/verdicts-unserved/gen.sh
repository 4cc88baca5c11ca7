#!/usr/bin/env bash
# Regenerates the fixtures of waits nobody will serve (issue 33, "waits by structure", "a rest is
# proven by the loop it rests in") from src/UnservedApp.java, run on the installed Java 17 with
# Debian's Guava (apt-get install libguava-java: guava 31.1), dumped three times with
# `jstack -l PID`, 5 s apart, 3 s after the program printed "ready":
#
#   unserved-MODE-stuck/1..3.txt     com.example.unserved.UnservedApp MODE stuck
#   unserved-MODE-healthy/1..3.txt   com.example.unserved.UnservedApp MODE healthy
#
# MODE is latch, fjlatch or hook (UnservedApp's comment says each). hook's program prints
# "started" and is sent SIGTERM, as a service is told to stop; its dumps are of the JVM running
# its shutdown hooks. Each README.md was written by hand from the source before dumpdiff ran on
# the dumps; this script only replaces the dumps. The JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-unserved/gen.sh [CASE...]   (default: all; ~15 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../jstack3.sh"
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-unserved.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
bin=${JAVA_HOME:+$JAVA_HOME/bin/}
cp=/usr/share/java/guava.jar
[[ -f $cp ]] || { echo "missing $cp (apt-get install libguava-java)" >&2; exit 1; }
cases=("$@")
if ((${#cases[@]} == 0)); then
	for m in latch fjlatch hook; do
		cases+=("unserved-$m-stuck" "unserved-$m-healthy")
	done
fi
"${bin}javac" -nowarn -cp "$cp" -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	rest=${c#unserved-}
	mode=${rest%-*} how=${rest##*-}
	"${bin}java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes:$cp" com.example.unserved.UnservedApp "$mode" "$how" >"$tmp/out.log" 2>&1 &
	pid=$!
	if [[ $mode == hook ]]; then
		for _ in $(seq 1 200); do
			grep -q '^started$' "$tmp/out.log" && break
			sleep 0.1
		done
		sleep 1
		kill -TERM "$pid" # the service is told to stop: its hooks run
		sleep 0.5
		echo ready >>"$tmp/out.log"
	fi
	dump_started "$tmp/out.log" "$repo/testdata/verdicts/$c"
done
