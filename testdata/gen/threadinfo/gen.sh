#!/bin/sh
# Writes testdata/formats/threadinfo-jdk17__three-way.txt: every thread's
# java.lang.management.ThreadInfo.toString() (the shape of OpenJ9's
# jstack and of what programs log), printed by ThreeWay.java on the JDK
# on PATH once a three-thread monitor ring and five ReentrantLock waiters
# are blocked (it waits on their states, not on time).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/../../formats/threadinfo-jdk17__three-way.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -d "$tmp" "$here/ThreeWay.java"
java -cp "$tmp" ThreeWay >"$out"
printf 'threadinfo-jdk17__three-way.txt\t%s\n' "$(grep -c '^"' "$out")"
