#!/usr/bin/env bash
# Regenerates the executor-leak fixtures in testdata/verdicts/ (issue 33: thread owners made per
# request and never shut down) from one small real program (src/, com.example.execleak.ExecLeakApp):
# an HTTP service on 127.0.0.1 (com.sun.net.httpserver) whose handler needs threads of its own, and
# main calling it about ten times a second. Each case is dumped with the running JDK's own
# `jstack -l PID` three times, 5 s apart, the first 3 s after the program printed "ready";
# the dumps are gzipped (N.txt.gz: a leak's last dump holds a few hundred threads).
#
#   execleak-pool-leak          OpenJDK 17   pool-leak      Executors.newFixedThreadPool(2) per request, never shut down
#   execleak-pool-healthy       OpenJDK 17   pool-shutdown  the same, shutdown() in a finally
#   execleak-handful-healthy    OpenJDK 17   handful        three executors made at start, shared
#   execleak-turnover-healthy   OpenJDK 17   turnover       one pool whose idle threads die after 100 ms
#   execleak-timer-leak         OpenJDK 17   timer-leak     new java.util.Timer() per request, never cancelled
#   execleak-timer-healthy      OpenJDK 17   timer-cancel   the same, cancel() after its task ran
#   execleak-netty-leak         OpenJDK 17   group-leak     a Netty NioEventLoopGroup(1) per call (NettyLeakApp), never shut down
#   execleak-netty-healthy      OpenJDK 17   group-shutdown the same, shutdownGracefully() and waited for
#   jdk25-execleak-*            Temurin 25   the same eight modes
#
# The Netty cases (netty/, com.example.execleak.NettyLeakApp: a client calling a small quote server
# on 127.0.0.1) need Debian's libnetty-java (/usr/share/java/netty-*.jar, 4.1.48); without it they
# are skipped with a message.
#
# The README.md of each case is written by hand from the source, before dumpdiff was run on the
# dumps; this script only replaces the dumps. Every JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-execleak/gen.sh [CASE...]   (default: all; ~20 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
jdk17=${JDK17_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
jdk25=${JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-execleak.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

declare -A MODE=(
	[execleak-pool-leak]=pool-leak [execleak-pool-healthy]=pool-shutdown
	[execleak-handful-healthy]=handful [execleak-turnover-healthy]=turnover
	[execleak-timer-leak]=timer-leak [execleak-timer-healthy]=timer-cancel
	[execleak-netty-leak]=group-leak [execleak-netty-healthy]=group-shutdown
)
cases=("$@")
if ((${#cases[@]} == 0)); then
	for c in "${!MODE[@]}"; do cases+=("$c" "jdk25-$c"); done
fi

"$jdk17/bin/javac" -nowarn -d "$tmp/classes" $(find "$here/src" -name '*.java')
netty=
if ls /usr/share/java/netty-{common,buffer,transport,resolver}.jar >/dev/null 2>&1; then
	netty=$(ls /usr/share/java/netty-{common,buffer,transport,resolver}.jar | paste -sd:)
	"$jdk17/bin/javac" -nowarn -cp "$netty" -d "$tmp/classes" $(find "$here/netty" -name '*.java')
fi
for c in "${cases[@]}"; do
	jdk=$jdk17
	base=$c
	if [[ $c == jdk25-* ]]; then
		if [[ ! -x $jdk25/bin/java ]]; then
			echo "$c: no Temurin 25 at $jdk25 (JDK25_HOME), skipped" >&2
			continue
		fi
		jdk=$jdk25
		base=${c#jdk25-}
	fi
	mode=${MODE[$base]:-}
	[[ -n $mode ]] || { echo "unknown case $c" >&2; exit 1; }
	main=com.example.execleak.ExecLeakApp cp=$tmp/classes
	if [[ $base == execleak-netty-* ]]; then
		if [[ -z $netty ]]; then
			echo "$c: no Netty jars in /usr/share/java (apt-get install libnetty-java), skipped" >&2
			continue
		fi
		main=com.example.execleak.NettyLeakApp cp=$tmp/classes:$netty
	fi
	"$jdk/bin/java" -Xmx64m -XX:+UseSerialGC -cp "$cp" "$main" "$mode" >"$tmp/out.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 100); do
		grep -q '^ready$' "$tmp/out.log" && break
		sleep 0.1
	done
	grep -q '^ready$' "$tmp/out.log" || { cat "$tmp/out.log" >&2; exit 1; }
	sleep 3
	dir=$repo/testdata/verdicts/$c
	mkdir -p "$dir"
	rm -f "$dir"/[123].txt "$dir"/[123].txt.gz
	for i in 1 2 3; do
		"$jdk/bin/jstack" -l "$pid" >"$dir/$i.txt"
		[[ $i == 3 ]] || sleep 5
	done
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	echo "$c: $(grep -c '^"' "$dir/1.txt") → $(grep -c '^"' "$dir/3.txt") threads" >&2
	gzip -9n "$dir"/[123].txt
done
