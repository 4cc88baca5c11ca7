#!/usr/bin/env bash
# Regenerates the fixtures of a CPU table beside one JVM dump (issue 33: spinning seen in one
# moment by CPU evidence) from the runaway programs of testdata/gen/verdicts-spin (their source,
# unchanged), on the installed JDK 17:
#
#   cpu-beside-regex/   RegexApp: validator-1 backtracks for ever in java.util.regex
#   cpu-beside-batch/   BatchApp: healthy; nightly-1 computes a batch job 20–35 s after start
#                       (alive since the start, idle before), export-1 computes 10 s and ends
#
# START seconds after the program prints "ready" (regex: 40, a thread that loops since then
# has lived past the lifetime rule's 30 s; batch: 27, in the middle of both jobs), at once and
# in this order:
#   1.txt      jstack -l PID
#   ps-L.out   ps -L -o pid,lwp,pcpu,time,etimes,comm -p PID   (%CPU over each thread's life)
#   top-H.out  top -H -b -n 1 -p PID                           (%CPU of top's interval)
# The JVM runs at nice -5 (NICE): the machine here is 2 cores shared by several sessions (load
# 10-30), and a runaway on a host of its own gets most of a core; what ps and top print is the
# CPU the machine gave it.
# Every JVM started here is killed on exit. Usage: bash gen.sh [CASE...]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out_root=$(cd "$here/../../verdicts" && pwd)
src=$(cd "$here/../verdicts-spin/src" && pwd)
NICE=${NICE:--5}
tmp=$(mktemp -d /tmp/dumpdiff-cpu-beside.XXXXXX)
pid=
cleanup() {
	if [[ -n $pid ]]; then kill -KILL "$pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
javac -nowarn -d "$tmp/classes" "$src"/com/example/spin/*.java
cases=("$@")
((${#cases[@]})) || cases=(cpu-beside-regex cpu-beside-batch)
for c in "${cases[@]}"; do
	case $c in
	cpu-beside-regex) main=RegexApp start=40 ;;
	cpu-beside-batch) main=BatchApp start=27 ;;
	*) echo "unknown case $c" >&2; exit 2 ;;
	esac
	nice -n "$NICE" java -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" "com.example.spin.$main" >"$tmp/app.log" 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		grep -q '^ready$' "$tmp/app.log" && break
		sleep 0.1
	done
	grep -q '^ready$' "$tmp/app.log" || { cat "$tmp/app.log" >&2; exit 1; }
	sleep "$start"
	dir=$out_root/$c
	mkdir -p "$dir"
	jstack -l "$pid" >"$dir/1.txt"
	ps -L -o pid,lwp,pcpu,time,etimes,comm -p "$pid" >"$dir/ps-L.out"
	top -H -b -n 1 -p "$pid" >"$dir/top-H.out"
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	pid=
	echo "$c: written ($(cut -d' ' -f1 /proc/loadavg) load)" >&2
done
