#!/bin/sh
# Writes testdata/formats/jhsdb-jdk17__deadlock.txt and
# jhsdb-jdk25__deadlock.txt: the HotSpot Serviceability Agent's stack dump
# (`jhsdb jstack --pid`, the successor of JDK 8's `jstack -F`) of
# Deadlock.java, run on the JDK on PATH (17) and on Temurin 25 (JDK25, the
# same JDK's jhsdb: the agent reads only its own VM's version). It waits for
# the program's "ready" line (printed once its threads are in their states).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/../../formats
jdk25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
tmp=$(mktemp -d)
pid=
trap 'if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi; rm -rf "$tmp"' EXIT
dump() { # bindir name
	mkdir -p "$tmp/$2"
	"$1/javac" -d "$tmp/$2" "$here/Deadlock.java"
	"$1/java" -cp "$tmp/$2" Deadlock >"$tmp/$2.out" &
	pid=$!
	until grep -q ready "$tmp/$2.out"; do
		kill -0 "$pid"
		sleep 0.1
	done
	"$1/jhsdb" jstack --pid "$pid" >"$out/jhsdb-$2__deadlock.txt"
	kill "$pid"
	wait "$pid" || true
	pid=
	printf 'jhsdb-%s__deadlock.txt\t%s\n' "$2" "$(grep -c '^"[^"]*" #' "$out/jhsdb-$2__deadlock.txt")"
}
dump "$(dirname "$(readlink -f "$(command -v javac)")")" jdk17
dump "$jdk25/bin" jdk25
