#!/usr/bin/env bash
# Regenerates the join fixtures of testdata/verdicts/ (issue 33, "two-sided waits tied: main's join
# on a thread pinned in <clinit>") from src/JoinApp.java (JDK classes only), dumped three times,
# 5 s apart, 3 s after the program printed "ready":
#
#   joins-clinit-stuck/1..3.txt        JoinApp clinit   on Java 17, `jstack -l PID`: main joins
#                                      "loader", which reads a silent peer inside Config.<clinit>
#   joins-healthy/1..3.txt             JoinApp healthy  on Java 17, `jstack -l PID`: main joins
#                                      "batcher", a batch job that works and pauses
#   jdk25-joins-vclinit-stuck/1..3.txt JoinApp vclinit  on Temurin 25, `jcmd PID Thread.dump_to_file
#                                      -format=text`: the same from a virtual thread
#
# Each README.md was written by hand from the source before dumpdiff ran on the dumps; this
# script only replaces the dumps. The JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-joins/gen.sh [CASE...]   (default: all; ~20 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../jstack3.sh"
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-joins.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
cases=("$@")
((${#cases[@]})) || cases=(joins-clinit-stuck joins-healthy jdk25-joins-vclinit-stuck)
for c in "${cases[@]}"; do
	bin=
	[[ $c == jdk25-* ]] && bin=/usr/lib/jvm/temurin-25-jdk-amd64/bin/
	rm -rf "$tmp/classes"
	"${bin}javac" -nowarn -d "$tmp/classes" $(find "$here/src" -name '*.java')
	mode=${c#jdk25-}
	mode=${mode#joins-}
	mode=${mode%-*}
	"${bin}java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" com.example.joins.JoinApp "$mode" >"$tmp/out.log" 2>&1 &
	pid=$!
	dir=$repo/testdata/verdicts/$c
	if [[ $c == jdk25-* ]]; then
		# jcmd's thread dump: the only one that prints every virtual thread.
		wait_ready "$tmp/out.log"
		sleep 3
		mkdir -p "$dir"
		for i in 1 2 3; do
			rm -f "$tmp/d.txt"
			"${bin}jcmd" "$pid" Thread.dump_to_file -format=text "$tmp/d.txt" >/dev/null
			cp "$tmp/d.txt" "$dir/$i.txt"
			[[ $i == 3 ]] || sleep 5
		done
		kill -KILL "$pid"
		wait "$pid" 2>/dev/null || true
		pid=
		echo "$c: $(grep -c '^#' "$dir/1.txt") threads a dump" >&2
	else
		dump_started "$tmp/out.log" "$dir"
	fi
done
