#!/usr/bin/env bash
# Regenerates the kept-alive and missed-signal fixtures of testdata/verdicts/ (issue 33: "kept-alive
# only for a leaked executor, not for threads built to run forever"; "a condition wait after a
# missed signal") from src/, run on the installed Java 17 (JDK classes only), dumped three times
# with `jstack -l PID`, 5 s apart, 3 s after the program printed "ready":
#
#   keptalive-leaked/1..3.txt      ForeverApp leaked      (a fixed pool never shut down; main returned)
#   keptalive-prodcons/1..3.txt    ForeverApp prodcons    (producer/consumer threads, forever by design)
#   keptalive-waitnotify/1..3.txt  ForeverApp waitnotify  (the same over wait/notify)
#   keptalive-scheduled/1..3.txt   ForeverApp scheduled   (a scheduled pool printing every second)
#   keptalive-timer/1..3.txt       ForeverApp timer       (a non-daemon java.util.Timer printing every second)
#   keptalive-heartbeat/1..3.txt  ForeverApp heartbeat (a client's scheduled pool of 4, its heartbeat due
#                                  in 10 minutes, never closed; main returned: should end, does not)
#   missed-signal-stuck/1..3.txt   MissedSignalApp stuck  (Object.wait and Condition.await after the
#                                  signal was sent by threads that ended)
#   missed-signal-healthy/1..3.txt MissedSignalApp healthy (the same waits, senders alive)
#   missed-notify-stuck/1..3.txt   jobs.JobTracker stuck  (a flag set without notify; a signal on another
#                                  Condition of the same lock; the senders ended)
#   missed-notify-healthy/1..3.txt jobs.JobTracker healthy (the same waits, senders alive)
#   pool-barrier-stuck/1..3.txt    PoolBarrierApp stuck   (pool tasks at a CyclicBarrier, a CountDownLatch and
#                                  a Phaser whose last party is queued behind them)
#   pool-barrier-healthy/1..3.txt  PoolBarrierApp healthy (pool tasks at a barrier and a phaser whose last
#                                  party is a live coordinator thread)
#
# JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 runs them on Temurin 25 instead (the jdk25-* cases:
# `JAVA_HOME=... bash gen.sh jdk25-keptalive-leaked`).
#
# Each README.md was written by hand from the source before dumpdiff ran on the dumps; this
# script only replaces the dumps. The JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-keptalive/gen.sh [CASE...]   (default: all; ~20 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
. "$here/../jstack3.sh"
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-keptalive.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
bin=${JAVA_HOME:+$JAVA_HOME/bin/}
declare -A MAIN=([keptalive]=ForeverApp [missed-signal]=MissedSignalApp [pool-barrier]=PoolBarrierApp [missed-notify]=jobs.JobTracker)
cases=("$@")
((${#cases[@]})) || cases=(keptalive-leaked keptalive-prodcons keptalive-waitnotify keptalive-scheduled missed-signal-stuck missed-signal-healthy pool-barrier-stuck pool-barrier-healthy keptalive-timer missed-notify-stuck missed-notify-healthy keptalive-heartbeat)
"${bin}javac" -nowarn -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	base=${c#jdk25-}
	main=${MAIN[${base%-*}]:-}
	[[ -n $main ]] || { echo "unknown case $c" >&2; exit 1; }
	"${bin}java" -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" "com.example.keptalive2.$main" "${base##*-}" >"$tmp/out.log" 2>&1 &
	pid=$!
	dir=$repo/testdata/verdicts/$c
	dump_started "$tmp/out.log" "$dir"
done
