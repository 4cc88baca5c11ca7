#!/usr/bin/env bash
# Regenerates the hand-off fixtures of testdata/verdicts/ (issue 33, "the producer side of a
# hand-off is not a rest") from small programs (src/), run on the installed Java 17 with the
# Debian packages' jars (apt-get install libh2-java libderby-java liblogback-java
# libslf4j-java liblog4j2-java: H2 2.1.214, Derby 10.14.2, logback 1.2.11, SLF4J 1.7.32,
# Log4j 2.19.0), dumped three times
# with `jstack -l PID`, 5 s apart, 3 s after the program printed "ready":
#
#   handoff-stuck/1..3.txt    com.example.handoff.HandoffApp stuck
#   handoff-healthy/1..3.txt  com.example.handoff.HandoffApp healthy
#   logging-stuck/1..3.txt    com.example.handoff.LoggingApp stuck   (logback AsyncAppender)
#   logging-healthy/1..3.txt  com.example.handoff.LoggingApp healthy
#   log4j-stuck/1..3.txt      com.example.handoff.Log4jApp stuck     (Log4j 2 AsyncAppender)
#   log4j-healthy/1..3.txt    com.example.handoff.Log4jApp healthy
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
j=/usr/share/java
cp=$j/h2.jar:$j/derby.jar:$j/logback-classic.jar:$j/logback-core.jar:$j/slf4j-api.jar:$j/log4j-api.jar:$j/log4j-core.jar
for f in ${cp//:/ }; do
	[[ -f $f ]] || { echo "missing $f (apt-get install libh2-java libderby-java liblogback-java libslf4j-java liblog4j2-java)" >&2; exit 1; }
done
declare -A MAIN=([handoff]=HandoffApp [logging]=LoggingApp [log4j]=Log4jApp)
cases=("$@")
((${#cases[@]})) || cases=(handoff-stuck handoff-healthy logging-stuck logging-healthy log4j-stuck log4j-healthy)
javac -nowarn -cp "$cp" -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	main=${MAIN[${c%-*}]:-}
	[[ -n $main ]] || { echo "unknown case $c" >&2; exit 1; }
	java -Xmx128m -XX:+UseSerialGC -Dderby.stream.error.file="$tmp/derby.log" -cp "$tmp/classes:$cp" "com.example.handoff.$main" "${c##*-}" >"$tmp/out.log" 2>&1 &
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
	kill -KILL "$pid" # a stuck logger blocks the shutdown hooks a TERM runs
	wait "$pid" 2>/dev/null || true
	pid=
	echo "$c: $(grep -c '^"' "$dir/1.txt") threads a dump" >&2
done
