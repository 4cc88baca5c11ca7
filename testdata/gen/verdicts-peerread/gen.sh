#!/usr/bin/env bash
# Regenerates testdata/verdicts/peerread-{stuck,healthy} (issue 33: small pools of an application's
# own client threads waiting for a peer with no read timeout, and their healthy twin) from src/, on the
# installed Java 17 with Apache HttpClient 4 from /usr/share/java (Debian's libhttpclient-java,
# libhttpcore-java, libcommons-logging-java), dumped three times with `jstack -l PID`, 5 s apart, 3 s
# after the program printed "ready" (the -late cases: one dump, 65 s after it). JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 makes the
# jdk25-peerread-* cases. The READMEs were written by hand from the source before dumpdiff ran; the
# JVM is killed on exit. The peers run in a JVM of their own (a client's upstreams are not in its
# process; an accept loop of the client's own would make its readers look like a server's).
#
# Usage: bash testdata/gen/verdicts-peerread/gen.sh [CASE...]   (default: every case; ~3 min)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../jstack3.sh"
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-peerread.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
bin=${JAVA_HOME:+$JAVA_HOME/bin/}
prefix=${JAVA_HOME:+jdk25-}
cases=("$@")
((${#cases[@]})) || cases=(peerread-stuck peerread-healthy peerread-stuck-late peerread-healthy-late)
cp=/usr/share/java/httpclient.jar:/usr/share/java/httpcore.jar:/usr/share/java/commons-logging.jar
for j in ${cp//:/ }; do
	[[ -f $j ]] || { echo "missing $j: apt-get install libhttpclient-java libhttpcore-java libcommons-logging-java" >&2; exit 1; }
done
"${bin}javac" -nowarn -cp "$cp" -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	mode=${c#peerread-}
	mode=${mode%-late}
	# The peers in a JVM of their own: the client process holds only its clients.
	"${bin}java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes:$cp" com.example.peerread.PeerReadApp "peers-$mode" >"$tmp/peers.log" 2>&1 &
	peers=$!
	for _ in $(seq 100); do grep -q '^ports ' "$tmp/peers.log" && break; sleep 0.1; done
	ports=$(sed -n 's/^ports //p' "$tmp/peers.log")
	# shellcheck disable=SC2086 # the four ports, one argument each
	"${bin}java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes:$cp" com.example.peerread.PeerReadApp "$mode" $ports >"$tmp/out.log" 2>&1 &
	pid=$!
	dir=$repo/testdata/verdicts/$prefix$c
	if [[ $c == *-late ]]; then
		# One dump, 65 s after ready: every thread's elapsed= past a minute.
		wait_ready "$tmp/out.log"
		sleep 65
		mkdir -p "$dir"
		"${bin}jstack" -l "$pid" >"$dir/1.txt"
		kill -KILL "$pid"
		wait "$pid" 2>/dev/null || true
		pid=
		kill -KILL "$peers"; wait "$peers" 2>/dev/null || true
		continue
	fi
	dump_started "$tmp/out.log" "$dir"
	kill -KILL "$peers"; wait "$peers" 2>/dev/null || true
done
