#!/usr/bin/env bash
# Regenerates the one-dump spinning fixtures in testdata/verdicts/ (issue 33: spinning seen in
# one dump) from a real Java 17 program (src/HashMapRace.java):
#
#   hashmap-loop-stuck/1..3.txt   HashMapRace race 4: four threads put into one plain HashMap
#                                 until one loops for ever in HashMap$TreeNode code; top-H.out is
#                                 `top -H -b -n 1` of the process at the first dump
#   hashmap-root-stuck/1..3.txt   the same race run again (it landed in TreeNode.root and
#                                 balanceInsertion there; a rerun may land elsewhere: its README
#                                 says what the committed dumps show)
#   hashmap-busy-healthy/1..3.txt HashMapRace healthy 4: the same puts, each thread into a map
#                                 of its own: a busy service caught in HashMap.put
#   treemap-loop-stuck/1..3.txt   CollectionRace treemap race 4: a shared java.util.TreeMap
#                                 (src/CollectionRace.java)
#   treemap-busy-healthy/1..3.txt CollectionRace treemap healthy 4: a TreeMap each
#   hashset-loop-stuck/1..3.txt   CollectionRace hashset race 4: a shared java.util.HashSet
#   hashset-busy-healthy/1..3.txt CollectionRace hashset healthy 4: a HashSet each
#   identity-{loop-stuck,busy-healthy}: the same for an IdentityHashMap
#   weakhashmap-{loop-stuck,busy-healthy}: the same for a WeakHashMap (not committed: its race
#                                 made no loop in 90 s here)
#   nbhm-busy-healthy/1..3.txt    CollectionRace nbhm shared 4: JCTools' NonBlockingHashMap
#                                 (Debian's libjctools-java, /usr/share/java/jctools-core.jar)
#                                 shared as it is made to be, resized now and then
# Beside the dumps of every case: top-H.out (`top -H -b -n 1`) and, for the CollectionRace
# cases, ps-L.out (`ps -L -o pid,lwp,pcpu,time,etimes,comm`), both at the first dump.
#
# The race is a race: it loops after seconds or minutes (the program prints "ready" once a
# thread has made no progress for 3 s while RUNNABLE); this script waits up to 15 minutes.
# Dumps are `jstack -l PID`, three, 5 s apart. The README.md of each case is written by hand
# from the source, before dumpdiff was run on the dumps; this script only replaces the dumps.
# Every JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-hotloop/gen.sh [CASE...]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-hotloop.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

cases=("$@")
((${#cases[@]})) || cases=(hashmap-loop-stuck hashmap-root-stuck hashmap-busy-healthy)
javac -nowarn -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	case $c in
	hashmap-loop-stuck | hashmap-root-stuck) mode=race ;; # which loop the race lands in is chance
	hashmap-busy-healthy) mode=healthy ;;
	treemap-loop-stuck | hashset-loop-stuck | identity-loop-stuck | weakhashmap-loop-stuck) mode=race ;;
	treemap-busy-healthy | hashset-busy-healthy | identity-busy-healthy | weakhashmap-busy-healthy) mode=healthy ;;
	nbhm-busy-healthy) mode=shared ;;
	*) echo "unknown case $c" >&2; exit 2 ;;
	esac
	case $c in
	hashmap-*) main=(com.example.hotloop.HashMapRace "$mode" 4) ;;
	*) main=(com.example.hotloop.CollectionRace "${c%%-*}" "$mode" 4) ;;
	esac
	java -Xmx256m -cp "$tmp/classes:/usr/share/java/jctools-core.jar" "${main[@]}" >"$tmp/out.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 9000); do
		grep -q '^ready$' "$tmp/out.log" && break
		sleep 0.1
	done
	grep -q '^ready$' "$tmp/out.log" || { cat "$tmp/out.log" >&2; exit 1; }
	[[ $mode == healthy ]] && sleep 5 # the healthy threads at their work for a while
	dir=$repo/testdata/verdicts/$c
	mkdir -p "$dir"
	for i in 1 2 3; do
		jstack -l "$pid" >"$dir/$i.txt"
		if [[ $i == 1 ]]; then
			top -H -b -n 1 -p "$pid" >"$dir/top-H.out"
			[[ $c == hashmap-* ]] || ps -L -o pid,lwp,pcpu,time,etimes,comm -p "$pid" >"$dir/ps-L.out"
		fi
		[[ $i == 3 ]] || sleep 5
	done
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	echo "$c: $(cat "$tmp/out.log" | tr '\n' ' ')" >&2
done
