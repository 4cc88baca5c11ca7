#!/usr/bin/env bash
# Regenerates the CPU-evidence spinning fixtures of testdata/verdicts/ (issue 33, "spinning by
# evidence, not by edges": a short schedule) from small real Java programs (src/), run on
# Java 17 (jvm-*, dumped with `jstack -l PID`) and on Temurin 25 (jdk25-*, dumped with
# `jcmd PID Thread.print -l`), three times on a fixed schedule of STEP seconds (3 s for jvm-*,
# 2 s for jdk25-*): the dumps are started at T, T+STEP and T+2·STEP (T is 3 s after the
# program printed "ready"), whatever each dump took. The spans (6 s and 4 s) are under the
# old rule's minimum span (SpinMinWall, 7 s): the evidence is the CPU burned in the same frames.
#
#   jvm-spin-flag-3s, jdk25-spin-flag-jcmd                 com.example.spincpu.FlagGateApp
#   jvm-spin-restlook-3s, jdk25-spin-restlook-jcmd         com.example.spincpu.RestLookApp
#   jvm-busy-short-healthy, jdk25-busy-short-healthy       com.example.spincpu.BusyHealthyApp (control)
#
# Each README.md was written by hand from the source before dumpdiff ran on the dumps; this
# script only replaces the dumps (and prints the load it saw). Every JVM started here is
# killed on exit.
#
# Usage: bash testdata/gen/verdicts-spin-cpu/gen.sh [CASE...]   (default: all; ~12 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-spin-cpu.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
JDK25=${JDK25:-$(ls -d /usr/lib/jvm/temurin-25-jdk* 2>/dev/null | head -1)}
declare -A MAIN=([spin-flag]=FlagGateApp [spin-restlook]=RestLookApp [busy-short-healthy]=BusyHealthyApp)
cases=("$@")
((${#cases[@]})) || cases=(jvm-spin-flag-3s jdk25-spin-flag-jcmd jvm-spin-restlook-3s jdk25-spin-restlook-jcmd
	jvm-busy-short-healthy jdk25-busy-short-healthy)

"$JDK17/bin/javac" -nowarn --release 17 -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	k=${c#*-}
	k=${k%-3s}
	k=${k%-jcmd}
	main=${MAIN[$k]:-}
	case $c in
	jvm-*) jdk=$JDK17 step=3000 ;;
	jdk25-*) jdk=$JDK25 step=2000 ;;
	*) main= ;;
	esac
	[[ -n $main ]] || { echo "unknown case $c" >&2; exit 1; }
	"$jdk/bin/java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" "com.example.spincpu.$main" >"$tmp/out.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 100); do
		grep -q '^ready$' "$tmp/out.log" && break
		sleep 0.1
	done
	grep -q '^ready$' "$tmp/out.log" || { cat "$tmp/out.log" >&2; exit 1; }
	dir=$repo/testdata/verdicts/$c
	mkdir -p "$dir"
	t0=$(($(date +%s%N) / 1000000 + 3000))
	for i in 1 2 3; do
		now=$(($(date +%s%N) / 1000000))
		slot=$((t0 + (i - 1) * step))
		((slot > now)) && sleep "$(printf '%d.%03d' $(((slot - now) / 1000)) $(((slot - now) % 1000)))"
		case $c in
		jvm-*) "$jdk/bin/jstack" -l "$pid" >"$dir/$i.txt" ;;
		jdk25-*) "$jdk/bin/jcmd" "$pid" Thread.print -l >"$dir/$i.txt" ;;
		esac
	done
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	echo "$c: $(grep -c '^"' "$dir/1.txt") threads a dump; load $(cut -d' ' -f1-3 /proc/loadavg); $("$jdk/bin/java" -version 2>&1 | sed -n 2p)" >&2
done
