#!/bin/sh
# Writes testdata/formats/karaf-threads-jdk17__rules.txt: this JVM's threads in the text Apache
# Karaf's `threads` console command prints (openHAB's console), by KarafThreadsApp.java on the
# JDK on PATH: a monitor held by a sleeping thread with 4 waiters, and a two-thread monitor
# deadlock. The printer is written from Karaf's format (its ThreadsAction), not from its code.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/../../formats/karaf-threads-jdk17__rules.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -d "$tmp" "$here/KarafThreadsApp.java"
java -Xmx64m -cp "$tmp" KarafThreadsApp "$out"
printf 'karaf-threads-jdk17__rules.txt\t%s\n' "$(grep -c '^"' "$out")"
