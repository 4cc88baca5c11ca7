#!/usr/bin/env bash
# Regenerates the holder fixtures of testdata/verdicts/ (issue 33, "the holder is the story")
# from small programs (src/), run on the installed Java 17 with the Debian packages' jars
# (apt-get install liblog4j1.2-java libnetty-java: log4j 1.2.17, Netty 4.1), dumped three times
# with `jstack -l PID`, 5 s apart, 3 s after the program printed "ready":
#
#   log4j1-stuck/1..3.txt     com.example.holders.Log4j1App stuck    (log4j 1.2 AsyncAppender)
#   log4j1-healthy/1..3.txt   com.example.holders.Log4j1App healthy
#   log4j1-cycle-stuck/1..3.txt   com.example.holders.Log4j1CycleApp stuck (the dispatcher logs)
#   log4j1-cycle-healthy/1..3.txt com.example.holders.Log4j1CycleApp healthy
#   rwlock-stuck/1..3.txt     com.example.holders.RwLockApp stuck    (ReentrantReadWriteLock)
#   rwlock-healthy/1..3.txt   com.example.holders.RwLockApp healthy
#   main-holder-stuck/1..3.txt   com.example.holders.MainHolderApp stuck  (Netty event loop)
#   main-holder-healthy/1..3.txt com.example.holders.MainHolderApp healthy
#   queue-busy-stuck/1..3.txt    com.example.holders.QueueApp stuck  (JDK queues, a latch)
#   queue-busy-healthy/1..3.txt  com.example.holders.QueueApp healthy
#   queue-busy-rising/1..3.txt   com.example.holders.QueueApp rising  (stalls after dump 1)
#   liblock-stuck/1..3.txt, freeze.txt   com.example.holders.LibLockApp stuck (a library's own RW lock;
#                                        freeze.txt: the program's own dump in IntelliJ's ThreadDumper shape)
#   liblock-healthy/1..3.txt, freeze.txt com.example.holders.LibLockApp healthy
#   orphan-stuck/1..3.txt     com.example.holders.OrphanApp stuck  (a latch and a queue whose other side died)
#   orphan-healthy/1..3.txt   com.example.holders.OrphanApp healthy
#
# JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 runs them on Temurin 25 instead (the jdk25-*
# cases: `JAVA_HOME=... bash gen.sh jdk25-log4j1-stuck`).
#
# Each README.md was written by hand from the source before dumpdiff ran on the dumps; this
# script only replaces the dumps. The JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-holders/gen.sh [CASE...]   (default: all; ~20 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../jstack3.sh"
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-holders.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
bin=${JAVA_HOME:+$JAVA_HOME/bin/}
j=/usr/share/java
cp=$j/log4j-1.2.jar:$j/netty-common.jar:$j/netty-transport.jar:$j/netty-buffer.jar:$j/netty-resolver.jar
for f in ${cp//:/ }; do
	[[ -f $f ]] || { echo "missing $f (apt-get install liblog4j1.2-java libnetty-java)" >&2; exit 1; }
done
declare -A MAIN=([log4j1]=Log4j1App [log4j1-cycle]=Log4j1CycleApp [rwlock]=RwLockApp [main-holder]=MainHolderApp [queue-busy]=QueueApp [liblock]=LibLockApp [orphan]=OrphanApp)
cases=("$@")
((${#cases[@]})) || cases=(log4j1-stuck log4j1-healthy log4j1-cycle-stuck log4j1-cycle-healthy rwlock-stuck rwlock-healthy main-holder-stuck main-holder-healthy queue-busy-stuck queue-busy-healthy queue-busy-rising)
"${bin}javac" -nowarn -cp "$cp" -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	base=${c#jdk25-}
	main=${MAIN[${base%-*}]:-}
	[[ -n $main ]] || { echo "unknown case $c" >&2; exit 1; }
	dir=$repo/testdata/verdicts/$c
	extra=()
	[[ $main == LibLockApp ]] && mkdir -p "$dir" && extra=("$dir/freeze.txt")
	"${bin}java" -Xmx128m -XX:+UseSerialGC -cp "$tmp/classes:$cp" "com.example.holders.$main" "${c##*-}" "${extra[@]}" >"$tmp/out.log" 2>&1 &
	pid=$!
	dump_started "$tmp/out.log" "$dir"
done
