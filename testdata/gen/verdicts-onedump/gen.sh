#!/usr/bin/env bash
# Regenerates the one-dump verdict fixtures in testdata/verdicts/ (issue 33: what one dump and
# few threads can say) from small real Java 17 programs (src/), each dumped with the installed
# JDK's `jstack -l PID` three times, 5 s apart (a case that is judged on one dump uses 1.txt;
# the others show the same wait persisting):
#
#   onedump-read-alone/1..3.txt        com.example.onedump.OneDumpApp read-alone
#   onedump-read-pool-stuck/1..3.txt   OneDumpApp read-pool-stuck, and excerpt.txt: the threads
#                                      of 1.txt in IngestClient.pull, cut as people paste them
#   onedump-read-pool-healthy/1..3.txt OneDumpApp read-pool-healthy, and excerpt.txt likewise
#   onedump-pool-{c3p0,dbcp2,tomcat}/1..3.txt          OneDumpApp pool-KIND
#   onedump-pool-healthy-{c3p0,dbcp2,tomcat}/1..3.txt  OneDumpApp pool-healthy-KIND
#
# Jars from Debian 12 packages (apt-get install libc3p0-java libcommons-dbcp2-java
# libcommons-pool2-java libtomcat10-java): c3p0 0.9.1.2, commons-dbcp2 2.9.0, commons-pool2
# 2.11.1, tomcat10-jdbc 10.1.60. Each program prints "ready" once its threads are in place; the
# first dump is taken 3 s later. The README.md of each case is written by hand from the source,
# before dumpdiff was run on the dumps; this script only replaces the dumps. Every JVM started
# here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-onedump/gen.sh [CASE...]   (default: all; ~15 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-onedump.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

jars=/usr/share/java
cp=$jars/c3p0.jar:$jars/commons-dbcp2.jar:$jars/commons-pool2.jar:$jars/commons-logging.jar:$jars/tomcat10-jdbc.jar:$jars/tomcat10-juli.jar
cases=("$@")
((${#cases[@]})) || cases=(onedump-read-alone onedump-read-pool-stuck onedump-read-pool-healthy
	onedump-pool-c3p0 onedump-pool-dbcp2 onedump-pool-tomcat
	onedump-pool-healthy-c3p0 onedump-pool-healthy-dbcp2 onedump-pool-healthy-tomcat)

# excerpt FILE FRAME: the thread entries of FILE whose stack holds FRAME, each from its quoted
# header line to the next one (its "Locked ownable synchronizers" too), as a person pastes the
# threads they looked at.
excerpt() {
	awk -v frame="$2" '
		function flush() { if (inblock && block ~ frame) printf "%s", block; inblock = 0 }
		/^"/ { flush(); block = $0 "\n"; inblock = 1; next }
		/^JNI global refs/ { flush(); next }
		inblock { block = block $0 "\n" }
		END { flush() }
	' "$1"
}

javac -nowarn -d "$tmp/classes" -cp "$cp" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	mode=${c#onedump-}
	java -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes:$cp" com.example.onedump.OneDumpApp "$mode" >"$tmp/out.log" 2>&1 &
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
		jstack -l "$pid" >"$dir/$i.txt"
		[[ $i == 3 ]] || sleep 5
	done
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	case $c in
	onedump-read-pool-*) excerpt "$dir/1.txt" 'IngestClient\.pull' >"$dir/excerpt.txt" ;;
	esac
	echo "$c: $(grep -c '^"' "$dir/1.txt") threads a dump" >&2
done
