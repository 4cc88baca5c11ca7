#!/usr/bin/env bash
# Regenerates the peers' fixtures of testdata/verdicts/ (issue 33, "a latch or barrier waits for
# peers") from src/PeersApp.java, run on the installed Java 17 (JDK classes only), dumped three
# times with `jstack -l PID`, 5 s apart, 3 s after the program printed "ready":
#
#   peers-stuck/1..3.txt     com.example.peers.PeersApp stuck    (a latch, a barrier, a phaser, an
#                            exchanger, each missing the party that would open it)
#   peers-healthy/1..3.txt   com.example.peers.PeersApp healthy  (the same, every party coming)
#
# JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 runs them on Temurin 25 instead (the jdk25-*
# cases: `JAVA_HOME=... bash gen.sh jdk25-peers-stuck`).
#
# Each README.md was written by hand from the source before dumpdiff ran on the dumps; this
# script only replaces the dumps. The JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-peers/gen.sh [CASE...]   (default: all; ~20 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../jstack3.sh"
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-peers.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
bin=${JAVA_HOME:+$JAVA_HOME/bin/}
declare -A MAIN=([peers]=PeersApp)
cases=("$@")
((${#cases[@]})) || cases=(peers-stuck peers-healthy)
"${bin}javac" -nowarn -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	base=${c#jdk25-}
	main=${MAIN[${base%-*}]:-}
	[[ -n $main ]] || { echo "unknown case $c" >&2; exit 1; }
	"${bin}java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" "com.example.peers.$main" "${c##*-}" >"$tmp/out.log" 2>&1 &
	pid=$!
	dir=$repo/testdata/verdicts/$c
	dump_started "$tmp/out.log" "$dir"
done
