#!/usr/bin/env bash
# Regenerates the cycle verdict fixtures in testdata/verdicts/ (issue 33, "cycles of every kind"
# and "the holder first") from small real Java programs (src/), each dumped with the JDK's
# `jstack -l PID` three times, 5 s apart:
#
#   class-init-stuck/1..3.txt        com.example.cycles.ClassInitApp stuck     (Java 17)
#   class-init-healthy/1..3.txt      com.example.cycles.ClassInitApp healthy   (Java 17)
#   jdk25-class-init-stuck/1..3.txt  com.example.cycles.ClassInitApp stuck     (Temurin 25)
#   jdk25-class-init-healthy/1..3.txt com.example.cycles.ClassInitApp healthy  (Temurin 25)
#   pool-self-wait-stuck/1..3.txt    com.example.cycles.PoolSelfWaitApp stuck
#   pool-self-wait-healthy/1..3.txt  com.example.cycles.PoolSelfWaitApp healthy
#   classloader-lock-stuck/1..3.txt  com.example.cycles.ClassLoaderApp stuck
#   classloader-lock-healthy/1..3.txt com.example.cycles.ClassLoaderApp healthy
#   lock-moved-stuck/1..3.txt        com.example.cycles.LockMoveApp stuck
#   lock-moved-healthy/1..3.txt      com.example.cycles.LockMoveApp healthy
#   single-waiter-stuck/1..3.txt     com.example.cycles.SingleWaiterApp stuck
#   single-waiter-healthy/1..3.txt   com.example.cycles.SingleWaiterApp healthy
#   holder-chain-stuck/1..3.txt      com.example.cycles.HolderChainApp stuck
#   holder-chain-healthy/1..3.txt    com.example.cycles.HolderChainApp healthy
#   jdk25-classloader-lock-stuck/1..3.txt  com.example.cycles.ClassLoaderApp stuck    (Temurin 25)
#   jdk25-pool-self-wait-stuck/1..3.txt    com.example.cycles.PoolSelfWaitApp stuck   (Temurin 25)
#
# Each program prints "ready" once its threads are started; the first dump is taken 3 s later.
# The plugin classes (plugin/) are compiled apart, off the class path, and served by the
# class-loader program's "repository". The README.md of each case is written by hand from the
# source, before dumpdiff was run on the dumps; this script only replaces the dumps. Every JVM
# started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-cycles/gen.sh [CASE...]   (default: all; ~20 s a case)
# JDK25 names the Temurin 25 home (default /usr/lib/jvm/temurin-25-jdk-amd64).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
jdk25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-cycles.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

declare -A MAIN=(
	[class-init-stuck]="ClassInitApp stuck" [class-init-healthy]="ClassInitApp healthy"
	[jdk25-class-init-stuck]="ClassInitApp stuck" [jdk25-class-init-healthy]="ClassInitApp healthy"
	[pool-self-wait-stuck]="PoolSelfWaitApp stuck" [pool-self-wait-healthy]="PoolSelfWaitApp healthy"
	[classloader-lock-stuck]="ClassLoaderApp stuck" [classloader-lock-healthy]="ClassLoaderApp healthy"
	[lock-moved-stuck]="LockMoveApp stuck" [lock-moved-healthy]="LockMoveApp healthy"
	[single-waiter-stuck]="SingleWaiterApp stuck" [single-waiter-healthy]="SingleWaiterApp healthy"
	[holder-chain-stuck]="HolderChainApp stuck" [holder-chain-healthy]="HolderChainApp healthy"
	[jdk25-classloader-lock-stuck]="ClassLoaderApp stuck" [jdk25-pool-self-wait-stuck]="PoolSelfWaitApp stuck"
)
cases=("$@")
((${#cases[@]})) || cases=(class-init-stuck class-init-healthy jdk25-class-init-stuck jdk25-class-init-healthy
	pool-self-wait-stuck pool-self-wait-healthy classloader-lock-stuck classloader-lock-healthy
	lock-moved-stuck lock-moved-healthy single-waiter-stuck single-waiter-healthy holder-chain-stuck holder-chain-healthy
	jdk25-classloader-lock-stuck jdk25-pool-self-wait-stuck)

# Compiled for Java 17, run on 17 or 25.
javac -nowarn --release 17 -d "$tmp/classes" $(find "$here/src" -name '*.java')
javac -nowarn --release 17 -d "$tmp/plugins" "$here"/plugin/plugin/*.java
for c in "${cases[@]}"; do
	[[ -n ${MAIN[$c]:-} ]] || { echo "unknown case $c" >&2; exit 1; }
	read -r cls mode <<<"${MAIN[$c]}"
	java=java jstack=jstack
	if [[ $c == jdk25-* ]]; then
		java=$jdk25/bin/java jstack=$jdk25/bin/jstack
	fi
	"$java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" "com.example.cycles.$cls" "$mode" "$tmp/plugins" >"$tmp/out.log" 2>&1 &
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
		"$jstack" -l "$pid" >"$dir/$i.txt"
		[[ $i == 3 ]] || sleep 5
	done
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	echo "$c: $(grep -c '^"' "$dir/1.txt") threads a dump" >&2
done
