#!/usr/bin/env bash
# Regenerates the spinning-edge fixtures of testdata/verdicts/ (issue 33, "spinning by
# evidence, not by edges") from small real Java programs (src/), each run on Java 17 (jvm-*)
# and on Temurin 25 (jdk25-*), and dumped three times with that JDK's `jstack -l PID` on a
# fixed 5 s schedule: the dumps are started at T, T+5 s and T+10 s (T is 3 s after the
# program printed "ready"), as a capture schedule does, whatever each jstack took. The first
# attach to a JVM is the slow one (it starts the attach listener), so the three dumps' own
# times span a little under 10 s: the edge this set is about.
#
#   jvm-spin-sleep0, jdk25-spin-sleep0       com.example.edges.SleepZeroApp
#   jvm-spin-deep, jdk25-spin-deep           com.example.edges.DeepSpinApp
#   jvm-spin-selectnow, jdk25-spin-selectnow com.example.edges.SelectNowApp
#   jvm-spin-resubmit, jdk25-spin-resubmit   com.example.edges.ResubmitApp
#   jvm-rest-edges, jdk25-rest-edges         com.example.edges.RestingApp (healthy control)
#   jvm-spin-maps                            com.example.edges.SpinMapsApp
#   jvm-maps-healthy                         com.example.edges.HealthyMapsApp (healthy control)
#
# Each README.md was written by hand from the source before dumpdiff ran on the dumps; this
# script only replaces the dumps (and prints the spans and the load it saw). Every JVM started
# here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-spin-edges/gen.sh [CASE...]   (default: all; ~16 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-spin-edges.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
JDK25=${JDK25:-$(ls -d /usr/lib/jvm/temurin-25-jdk* 2>/dev/null | head -1)}
declare -A MAIN=([spin-sleep0]=SleepZeroApp [spin-deep]=DeepSpinApp [spin-selectnow]=SelectNowApp
	[spin-resubmit]=ResubmitApp [rest-edges]=RestingApp [spin-maps]=SpinMapsApp [maps-healthy]=HealthyMapsApp)
cases=("$@")
((${#cases[@]})) || {
	for k in spin-sleep0 spin-deep spin-selectnow spin-resubmit rest-edges; do cases+=("jvm-$k" "jdk25-$k"); done
	cases+=(jvm-spin-maps jvm-maps-healthy)
}

"$JDK17/bin/javac" -nowarn --release 17 -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	case $c in
	jvm-*) jdk=$JDK17 main=${MAIN[${c#jvm-}]:-} ;;
	jdk25-*) jdk=$JDK25 main=${MAIN[${c#jdk25-}]:-} ;;
	*) main= ;;
	esac
	[[ -n $main ]] || { echo "unknown case $c" >&2; exit 1; }
	"$jdk/bin/java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" "com.example.edges.$main" >"$tmp/out.log" 2>&1 &
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
		slot=$((t0 + (i - 1) * 5000))
		((slot > now)) && sleep "$(printf '%d.%03d' $(((slot - now) / 1000)) $(((slot - now) % 1000)))"
		"$jdk/bin/jstack" -l "$pid" >"$dir/$i.txt"
	done
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	echo "$c: $(grep -c '^"' "$dir/1.txt") threads a dump; load $(cut -d' ' -f1-3 /proc/loadavg); $("$jdk/bin/java" -version 2>&1 | sed -n 2p)" >&2
done
