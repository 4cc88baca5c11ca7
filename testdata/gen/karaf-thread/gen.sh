#!/bin/sh
# Writes testdata/formats/karaf-thread-jdk17__future.txt and __idle.txt: threads of this JVM in
# the text Apache Karaf's `threads ID` console command prints (openHAB's console: "Thread 553
# OH-thingHandler-1 WAITING", "Stacktrace:", "CLASS.METHOD line: N"), by KarafThreadApp.java on
# the JDK on PATH. The printer is written from Karaf's format, not from its code.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -d "$tmp" "$here/KarafThreadApp.java"
for kind in future idle; do
	out=$here/../../formats/karaf-thread-jdk17__$kind.txt
	java -Xmx64m -cp "$tmp" KarafThreadApp "$kind" "$out"
	printf 'karaf-thread-jdk17__%s.txt\t%s\n' "$kind" "$(grep -c '^Thread ' "$out")"
done
