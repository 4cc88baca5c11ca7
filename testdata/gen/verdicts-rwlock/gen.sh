#!/usr/bin/env bash
# Regenerates the fixtures of JDK read-write locks whose read holders no JVM prints (issue 33,
# "cycles of every kind", "the holder first") in testdata/verdicts/, from one small real Java
# program (src/com/example/rwlock/RwLockApp.java), each scene dumped with the JDK's
# `jstack -l PID` three times, 5 s apart:
#
#   rwlock-upgrade-stuck         RwLockApp upgrade   (Java 17)
#   rwlock-leaked-stuck          RwLockApp leaked    (Java 17)
#   rwlock-readers-healthy       RwLockApp healthy   (Java 17)
#   jdk25-rwlock-upgrade-stuck   RwLockApp upgrade   (Temurin 25)
#   jdk25-rwlock-readers-healthy RwLockApp healthy   (Temurin 25)
#
# The program prints "ready" once its threads are started; the first dump is taken 3 s later.
# Each case's README.md is written by hand from the source, before dumpdiff ran on the dumps;
# this script only replaces the dumps. Every JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-rwlock/gen.sh [CASE...]   (default: all; ~15 s a case)
# JDK25 names the Temurin 25 home (default /usr/lib/jvm/temurin-25-jdk-amd64).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
jdk25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-rwlock.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

declare -A SCENE=([rwlock-upgrade-stuck]=upgrade [rwlock-leaked-stuck]=leaked [rwlock-readers-healthy]=healthy)
cases=("$@")
if ((${#cases[@]} == 0)); then
	cases=(rwlock-upgrade-stuck rwlock-leaked-stuck rwlock-readers-healthy jdk25-rwlock-upgrade-stuck jdk25-rwlock-readers-healthy)
fi

javac -nowarn --release 17 -d "$tmp/classes" "$here"/src/com/example/rwlock/*.java
for c in "${cases[@]}"; do
	scene=${SCENE[${c#jdk25-}]:-}
	[[ -n $scene ]] || { echo "unknown case $c" >&2; exit 1; }
	java=java jstack=jstack
	if [[ $c == jdk25-* ]]; then
		java=$jdk25/bin/java jstack=$jdk25/bin/jstack
	fi
	"$java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" com.example.rwlock.RwLockApp "$scene" >"$tmp/out.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 100); do
		grep -q '^ready$' "$tmp/out.log" && break
		sleep 0.1
	done
	grep -q '^ready$' "$tmp/out.log" || { cat "$tmp/out.log" >&2; exit 1; }
	sleep 3
	out=$repo/testdata/verdicts/$c
	mkdir -p "$out"
	for i in 1 2 3; do
		"$jstack" -l "$pid" >"$out/jstack-$i.txt"
		[[ $i == 3 ]] || sleep 5
	done
	kill "$pid" && wait "$pid" 2>/dev/null || true
	pid=
done
