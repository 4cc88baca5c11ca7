#!/bin/sh
# Writes testdata/formats/lockreport-jdk17__intellij-framing.txt,
# lockreport-jdk17__detector-framing.txt and (on Temurin 25, $JDK25)
# lockreport-jdk25__detector-framing.txt: the lines deadlock detectors
# write from ThreadMXBean, printed by DetectorReports.java once its two deadlocks are found by the JVM (it waits on
# findDeadlockedThreads, not on time) and a third thread is blocked
# behind a sleeping holder.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
formats=$here/../../formats
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
javac --release 17 -d "$tmp" "$here/DetectorReports.java"
for run in "jdk17 intellij java" "jdk17 detector java" "jdk25 detector $JDK25/bin/java"; do
	set -- $run
	jdk=$1 framing=$2 java=$3
	out=$formats/lockreport-${jdk}__$framing-framing.txt
	"$java" -cp "$tmp" DetectorReports "$framing" >"$out"
	# threads: each name the lines give, waiter or owner
	printf 'lockreport-%s__%s-framing.txt\t%s\n' "$jdk" "$framing" \
		"$(sed -n 's/^[\t]*\(.*\) is waiting to lock [^ ]* which is held by \(.*\)$/\1\n\2/p' "$out" | sed 's/\. Locked synchronizers:.*//' | sort -u | wc -l)"
done
