#!/usr/bin/env bash
# Regenerates the pool-borrow fixtures in testdata/verdicts/ (issue 33: a pool's borrow above a
# wait, told by its structure) from a small real Java 17 program (src/), dumped with the installed
# JDK's `jstack -l PID` three times, 5 s apart:
#
#   borrow-tomcat-dbcp-{stuck,healthy}   Tomcat 10.1's repackaged DBCP2 and pool2 (tomcat10-dbcp)
#   borrow-dbcp1-{stuck,healthy}         commons-dbcp 1.4 on commons-pool 1.6
#   borrow-shaded-pool2-{stuck,healthy}  Tomcat's repackaged pool2 lending plain objects
#
# Jars from Debian 12 packages (apt-get install libtomcat10-java libcommons-dbcp-java
# libcommons-pool-java). The program prints "ready" once its threads are in place; the first
# dump is taken 3 s later. The README.md of each case is written by hand from the source, before
# dumpdiff was run on the dumps; this script only replaces the dumps. Every JVM started here is
# killed on exit; the upstream it calls is its own, on 127.0.0.1.
#
# Usage: bash testdata/gen/verdicts-borrow/gen.sh [CASE...]   (default: all; ~15 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../jstack3.sh"
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-borrow.XXXXXX)
pid= up=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	[[ -n $up ]] && kill "$up" 2>/dev/null && wait "$up" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

jars=/usr/share/java
cp=$jars/commons-dbcp.jar:$jars/commons-pool.jar:$jars/tomcat10-dbcp.jar:$jars/tomcat10-juli.jar
cases=("$@")
((${#cases[@]})) || cases=(borrow-tomcat-dbcp-stuck borrow-tomcat-dbcp-healthy borrow-dbcp1-stuck borrow-dbcp1-healthy
	borrow-shaded-pool2-stuck borrow-shaded-pool2-healthy)

javac -nowarn -d "$tmp/classes" -cp "$cp" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	mode=${c#borrow-}
	# The upstream, a process of its own: silent for a stuck case, 100 ms for a healthy one.
	delay=-1
	[[ $mode == *-healthy ]] && delay=100
	java -Xmx32m -XX:+UseSerialGC -cp "$tmp/classes:$cp" com.example.borrow.BorrowApp upstream "$delay" >"$tmp/up.log" 2>&1 &
	up=$!
	for _ in $(seq 1 100); do
		grep -q '^port ' "$tmp/up.log" && break
		sleep 0.1
	done
	port=$(sed -n 's/^port //p' "$tmp/up.log")
	[[ -n $port ]] || { cat "$tmp/up.log" >&2; exit 1; }
	java -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes:$cp" com.example.borrow.BorrowApp "$mode" "$port" >"$tmp/out.log" 2>&1 &
	pid=$!
	wait_ready "$tmp/out.log"
	dir=$repo/testdata/verdicts/$c
	jstack3 "$pid" "$dir"
	kill "$pid" "$up"
	wait "$pid" "$up" 2>/dev/null || true
	pid= up=
	echo "$c: $(grep -c '^"' "$dir/1.txt") threads a dump, $(grep -c 'report-worker' "$dir/1.txt") report workers" >&2
done
