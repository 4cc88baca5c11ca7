#!/usr/bin/env bash
# Regenerates the "holder first" fixtures of testdata/verdicts/ (issue 33: "the holder is the
# story", "cycles of every kind") from small programs (src/), run on the installed Java 17:
#
#   juc-cycle-*      com.example.holderfirst.JucCycleApp   (ReentrantLock/RW lock cycle of three)
#   owner-wait-*     com.example.holderfirst.OwnerWaitApp  (a monitor whose holder waits on a DB)
#   permit-*         com.example.holderfirst.PermitApp     (a Semaphore's permits held in slow I/O)
#   backoff-*        com.example.holderfirst.BackoffApp    (tryLock + 1 ms sleep/park back-off)
#
# owner-wait and permit talk to com.example.holderfirst.LocalDb, a database stand-in run as a
# process of its own on 127.0.0.1 (never answering for -stuck, answering in 5 ms for -healthy).
#
# Each case (CASE = NAME-stuck or NAME-healthy) is dumped three ways at once:
#   testdata/verdicts/CASE/1..3.txt               `jstack -l PID`, 3 s after "ready", 5 s apart
#   testdata/verdicts/CASE-json/1..3.json         the program's own ThreadMXBean dump in
#                                                 Spring Boot Actuator's JSON shape (SelfDumper)
#   testdata/verdicts/CASE-threadinfo/1..3.txt    the same dump as ThreadInfo.toString() text
# and juc-cycle-stuck also as testdata/verdicts/juc-cycle-cut-stuck/1..3.txt: each jstack dump
# cut before its "Found one Java-level deadlock" section (a dump whose tail was lost).
#
# Each README.md was written by hand from the source before dumpdiff ran on the dumps; this
# script only replaces the dumps. The JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-holderfirst/gen.sh [CASE...]   (default: all; ~20 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../jstack3.sh"
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-holderfirst.XXXXXX)
pid=
dbpid=
cleanup() {
	[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	[[ -n $dbpid ]] && kill -KILL "$dbpid" 2>/dev/null && wait "$dbpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
bin=${JAVA_HOME:+$JAVA_HOME/bin/}
declare -A MAIN=([juc-cycle]=JucCycleApp [owner-wait]=OwnerWaitApp [permit]=PermitApp [backoff]=BackoffApp)
cases=("$@")
((${#cases[@]})) || cases=(juc-cycle-stuck juc-cycle-healthy owner-wait-stuck owner-wait-healthy permit-stuck permit-healthy backoff-stuck backoff-healthy)
"${bin}javac" -nowarn -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	main=${MAIN[${c%-*}]:-}
	[[ -n $main ]] || { echo "unknown case $c" >&2; exit 1; }
	dir=$repo/testdata/verdicts/$c
	self=$tmp/self-$c
	port=0
	if [[ $main == OwnerWaitApp || $main == PermitApp ]]; then
		# The database stand-in, a process of its own: never answers (stuck) or in 5 ms.
		reply=5
		[[ $c == *-stuck ]] && reply=-1
		"${bin}java" -Xmx32m -cp "$tmp/classes" com.example.holderfirst.LocalDb "$reply" >"$tmp/db.log" 2>&1 &
		dbpid=$!
		for _ in $(seq 1 100); do grep -q '^port ' "$tmp/db.log" && break; sleep 0.1; done
		port=$(awk '/^port /{print $2}' "$tmp/db.log")
	fi
	"${bin}java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" "com.example.holderfirst.$main" "${c##*-}" "$self" "$port" >"$tmp/out.log" 2>&1 &
	pid=$!
	dump_started "$tmp/out.log" "$dir"
	if [[ -n $dbpid ]]; then
		kill -KILL "$dbpid"
		wait "$dbpid" 2>/dev/null || true
		dbpid=
	fi
	mkdir -p "$dir-json" "$dir-threadinfo"
	for i in 1 2 3; do
		cp "$self/$i.json" "$dir-json/$i.json"
		cp "$self/$i.threadinfo.txt" "$dir-threadinfo/$i.txt"
	done
	if [[ $c == juc-cycle-stuck ]]; then
		mkdir -p "$repo/testdata/verdicts/juc-cycle-cut-stuck"
		for i in 1 2 3; do
			sed '/^Found one Java-level deadlock/,$d' "$dir/$i.txt" >"$repo/testdata/verdicts/juc-cycle-cut-stuck/$i.txt"
		done
	fi
done
