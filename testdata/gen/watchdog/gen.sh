#!/bin/sh
# Regenerates testdata/watchdog/jdk17-*.log: WatchdogLike run on the JDK on
# PATH (17 here), its standard output as the server's log.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../watchdog"
for mode in stuck healthy; do
	java "$here/WatchdogLike.java" "$mode" >"$out/jdk17-$mode.log"
done
