#!/usr/bin/env bash
# Regenerates testdata/hprof/: HotSpot heap dumps (HPROF 1.0.2) of three real JVMs on JDK 17 and
# Temurin 25, each beside a `jstack -l` of the same JVM taken just before the dump, and COUNTS.tsv
# (counts.sh: the Java threads and states of each jstack counted by awk, not by dumpdiff).
#
#   threads   thread per task until "unable to create native thread" (a cgroup v1 pids.max
#             caps this JVM alone); HeapDumpOnOutOfMemoryError is set but HotSpot does not
#             write a dump for this error, so the dump is jcmd GC.heap_dump at the limit;
#             a jstack -l of the same JVM before its tasks is kept too (.before.jstack.txt)
#   heap      8 report workers BLOCKED behind a monitor held over a silent socket read, then
#             "Java heap space": the dump is HeapDumpOnOutOfMemoryError's own
#   healthy   a small HTTP service and its client: jcmd GC.heap_dump (the control)
#
# Usage: testdata/gen/hprof/gen.sh   (from anywhere, as root for the cgroup; ~1 min)
# Needs /usr/lib/jvm/java-17-openjdk-amd64 and /usr/lib/jvm/temurin-25-jdk-amd64, and a
# writable /sys/fs/cgroup/pids (cgroup v1) or /sys/fs/cgroup with the pids controller (v2).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=$repo/testdata/hprof
tmp=$(mktemp -d)
pids=""
cleanup() {
	for p in $pids; do kill -9 "$p" 2>/dev/null || true; done
	rmdir "$cg" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
jdks="17:/usr/lib/jvm/java-17-openjdk-amd64 25:/usr/lib/jvm/temurin-25-jdk-amd64"
limit=120 # tasks the pids cgroup allows this JVM

if [ -d /sys/fs/cgroup/pids ]; then
	cg=/sys/fs/cgroup/pids/dumpdiff-hprof-$$
else
	cg=/sys/fs/cgroup/dumpdiff-hprof-$$
fi

/usr/lib/jvm/java-17-openjdk-amd64/bin/javac --release 17 -d "$tmp/classes" "$here/src/HeapScenes.java"

# waitfor FILE PATTERN: until FILE has a line matching PATTERN (60 s at most).
waitfor() {
	for _ in $(seq 600); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "timed out waiting for $2 in $1" >&2
	cat "$1" >&2
	return 1
}

for pair in $jdks; do
	v=${pair%%:*}
	jh=${pair#*:}
	java=$jh/bin/java
	for scene in threads heap healthy; do
		name=$scene-jdk$v
		rm -f "$tmp/go"
		flags=(-Xmx16m -XX:+HeapDumpOnOutOfMemoryError -XX:HeapDumpPath="$tmp/$name-oom.hprof")
		[ "$scene" = heap ] && flags+=(-XX:+ExitOnOutOfMemoryError)
		if [ "$scene" = threads ]; then
			mkdir -p "$cg"
			# the JVM's own threads and the task threads; the shell that starts it counts too
			echo $((limit + 40)) >"$cg/pids.max"
			sh -c 'echo $$ >"$1/cgroup.procs"; shift; exec "$@"' _ "$cg" \
				"$java" "${flags[@]}" -cp "$tmp/classes" HeapScenes "$scene" "$tmp/go" >"$tmp/$name.log" 2>&1 &
		else
			"$java" "${flags[@]}" -cp "$tmp/classes" HeapScenes "$scene" "$tmp/go" >"$tmp/$name.log" 2>&1 &
		fi
		pid=$!
		pids="$pids $pid"
		waitfor "$tmp/$name.log" READY
		"$jh/bin/jcmd" "$pid" VM.version >/dev/null # the Attach Listener, before any limit
		case $scene in
		threads)
			# the same JVM before its tasks: for the comparison across moments
			"$jh/bin/jstack" -l "$pid" >"$tmp/$name.before.jstack.txt"
			touch "$tmp/go"
			waitfor "$tmp/$name.log" 'OOM after'
			"$jh/bin/jstack" -l "$pid" >"$tmp/$name.jstack.txt"
			"$jh/bin/jcmd" "$pid" GC.heap_dump "$tmp/$name.hprof" >/dev/null
			[ ! -e "$tmp/$name-oom.hprof" ] || echo "note: HeapDumpOnOutOfMemoryError wrote a dump for $name" >&2
			;;
		heap)
			"$jh/bin/jstack" -l "$pid" >"$tmp/$name.jstack.txt"
			touch "$tmp/go"
			wait "$pid" || true
			mv "$tmp/$name-oom.hprof" "$tmp/$name.hprof"
			;;
		healthy)
			"$jh/bin/jstack" -l "$pid" >"$tmp/$name.jstack.txt"
			"$jh/bin/jcmd" "$pid" GC.heap_dump "$tmp/$name.hprof" >/dev/null
			;;
		esac
		kill -9 "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		gzip -9 -n "$tmp/$name.hprof"
		grep -E '^OOM after|OutOfMemoryError|Dumping heap|Heap dump file' "$tmp/$name.log" >"$tmp/$name.log.txt" || true
		rmdir "$cg" 2>/dev/null || true
	done
done

mkdir -p "$out"
rm -f "$out"/*.hprof.gz "$out"/*.jstack.txt "$out"/*.log.txt
cp "$tmp"/*.hprof.gz "$tmp"/*.jstack.txt "$tmp"/*.log.txt "$out"/
"$here/counts.sh"
ls -la "$out" >&2
