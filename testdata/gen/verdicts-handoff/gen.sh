#!/usr/bin/env bash
# Regenerates the hand-off fixtures of testdata/verdicts/ (issue 33, "the producer side of a
# hand-off is not a rest") from com.example.handoff.HandoffApp (src/), run on the installed
# Java 17 with the Debian packages' H2 2.1.214 (libh2-java) and Derby 10.14.2 (libderby-java)
# jars (apt-get install libh2-java libderby-java), dumped three times with `jstack -l PID`,
# 5 s apart, 3 s after it printed "ready":
#
#   handoff-stuck/1..3.txt    HandoffApp stuck
#   handoff-healthy/1..3.txt  HandoffApp healthy
#
# Each README.md was written by hand from the source before dumpdiff ran on the dumps; this
# script only replaces the dumps. The JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-handoff/gen.sh [CASE...]   (default: both; ~20 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-handoff.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
cp=/usr/share/java/h2.jar:/usr/share/java/derby.jar
for j in ${cp//:/ }; do [[ -f $j ]] || { echo "missing $j (apt-get install libh2-java libderby-java)" >&2; exit 1; }; done
cases=("$@")
((${#cases[@]})) || cases=(handoff-stuck handoff-healthy)
javac -nowarn -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	java -Xmx128m -XX:+UseSerialGC -cp "$tmp/classes:$cp" com.example.handoff.HandoffApp "${c#handoff-}" >"$tmp/out.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 200); do
		grep -q '^ready$' "$tmp/out.log" && break
		sleep 0.1
	done
	grep -q '^ready$' "$tmp/out.log" || { cat "$tmp/out.log" >&2; exit 1; }
	sleep 3
	dir=$repo/testdata/verdicts/$c
	mkdir -p "$dir"
	for i in 1 2 3; do
		jstack -l "$pid" >"$dir/$i.txt"
		[[ $i == 3 ]] || sleep 5
	done
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	echo "$c: $(grep -c '^"' "$dir/1.txt") threads a dump" >&2
done
