#!/usr/bin/env bash
# Regenerates the Scala map fixtures in testdata/verdicts/ (issue 33: known hot-loop shapes in one
# dump) from a real program (src/ScalaMapRace.java) that writes a scala.collection.mutable.HashMap
# (Scala 2.11, Debian's scala-library: apt-get install scala-library) from several Java 17 threads:
#
#   scalamap-loop-stuck/1..3.txt    ScalaMapRace race 4: four "session-N" threads share one map
#                                   until they loop for ever in its HashTable (the program prints
#                                   "looping NAME" for each that made no progress for 3 s while
#                                   RUNNABLE, and "ready" at the first)
#   scalamap-busy-healthy/1..6.txt  ScalaMapRace healthy 4: the same operations, each thread on a
#                                   map of its own: a busy service caught in the map's lookups,
#                                   puts and resizes
#
# Dumps are `jstack -l PID`: three 5 s apart for the loop (the first 5 s after "ready"), six 2 s
# apart for the control (the first 5 s after "ready"). The README.md of each case is written by
# hand from the source before dumpdiff was run on the dumps; this script only replaces the dumps.
# Every JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-scalamap/gen.sh [CASE...]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-scalamap.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
SCALA=${SCALA:-/usr/share/java/scala-library.jar}
[[ -f $SCALA ]] || { echo "no $SCALA: apt-get install scala-library" >&2; exit 1; }
cases=("$@")
((${#cases[@]})) || cases=(scalamap-loop-stuck scalamap-busy-healthy)
"$JDK17/bin/javac" -nowarn -cp "$SCALA" -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	case $c in
	scalamap-loop-stuck) mode=race n=3 step=5 ;;
	scalamap-busy-healthy) mode=healthy n=6 step=2 ;;
	*) echo "unknown case $c" >&2; exit 2 ;;
	esac
	"$JDK17/bin/java" -Xmx128m -cp "$tmp/classes:$SCALA" com.example.scalamap.ScalaMapRace "$mode" 4 >"$tmp/out.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 3000); do
		grep -q '^ready$' "$tmp/out.log" && break
		sleep 0.1
	done
	grep -q '^ready$' "$tmp/out.log" || { cat "$tmp/out.log" >&2; exit 1; }
	sleep 5
	dir=$repo/testdata/verdicts/$c
	mkdir -p "$dir"
	for i in $(seq 1 "$n"); do
		"$JDK17/bin/jstack" -l "$pid" >"$dir/$i.txt"
		((i == n)) || sleep "$step"
	done
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	echo "$c: $(tr '\n' ' ' <"$tmp/out.log"); load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done
