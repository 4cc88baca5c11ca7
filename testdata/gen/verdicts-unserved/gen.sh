#!/usr/bin/env bash
# Regenerates the fixtures of waits nobody will serve (issue 33, "waits by structure", "a rest is
# proven by the loop it rests in") from src/UnservedApp.java, run on the installed Java 17 with
# Debian's Guava and Apache HttpClient (apt-get install libguava-java libhttpclient-java: guava
# 31.1, httpclient 4.5.14, httpcore 4.4.16), dumped three times with
# `jstack -l PID`, 5 s apart, 3 s after the program printed "ready":
#
#   unserved-MODE-stuck/1..3.txt     com.example.unserved.UnservedApp MODE stuck
#   unserved-MODE-healthy/1..3.txt   com.example.unserved.UnservedApp MODE healthy
#
# MODE is latch, fjlatch, hook, hookpool, client or ui (UnservedApp's comment says each). client's
# peer is a second JVM, "blackhole", on a free port of 127.0.0.1, started first and not dumped.
# hook's and hookpool's programs print "started" and are sent SIGTERM, as a service is told to
# stop; their dumps are of the JVM running its shutdown hooks. ui runs AWT headless. Each
# README.md was written by hand from the source before dumpdiff ran on
# the dumps; this script only replaces the dumps. The JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-unserved/gen.sh [CASE...]   (default: all; ~15 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../jstack3.sh"
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-unserved.XXXXXX)
pid= peer=
cleanup() {
	[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	[[ -n $peer ]] && kill -KILL "$peer" 2>/dev/null && wait "$peer" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
bin=${JAVA_HOME:+$JAVA_HOME/bin/}
j=/usr/share/java
cp=$j/guava.jar:$j/httpclient.jar:$j/httpcore.jar:$j/commons-logging.jar:$j/commons-codec.jar
for f in ${cp//:/ }; do
	[[ -f $f ]] || { echo "missing $f (apt-get install libguava-java libhttpclient-java)" >&2; exit 1; }
done
cases=("$@")
if ((${#cases[@]} == 0)); then
	for m in latch fjlatch hook hookpool client ui; do
		cases+=("unserved-$m-stuck" "unserved-$m-healthy")
	done
fi
"${bin}javac" -nowarn -cp "$cp" -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	rest=${c#unserved-}
	mode=${rest%-*} how=${rest##*-}
	args=("$mode" "$how")
	if [[ $mode == client ]]; then
		port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		wait_s=0
		[[ $how == healthy ]] && wait_s=200 # ms
		"${bin}java" -Xmx32m -XX:+UseSerialGC -cp "$tmp/classes:$cp" com.example.unserved.UnservedApp blackhole "$port" "$wait_s" >"$tmp/peer.log" 2>&1 &
		peer=$!
		for _ in $(seq 1 100); do
			grep -q '^listening$' "$tmp/peer.log" && break
			sleep 0.1
		done
		args+=("$port")
	fi
	"${bin}java" -Xmx64m -XX:+UseSerialGC -Djava.awt.headless=true -cp "$tmp/classes:$cp" com.example.unserved.UnservedApp "${args[@]}" >"$tmp/out.log" 2>&1 &
	pid=$!
	if [[ $mode == hook* ]]; then
		for _ in $(seq 1 200); do
			grep -q '^started$' "$tmp/out.log" && break
			sleep 0.1
		done
		sleep 1
		kill -TERM "$pid" # the service is told to stop: its hooks run
		sleep 0.5
		echo ready >>"$tmp/out.log"
	fi
	dump_started "$tmp/out.log" "$repo/testdata/verdicts/$c"
	if [[ -n $peer ]]; then
		kill -KILL "$peer"
		wait "$peer" 2>/dev/null || true
		peer=
	fi
done
