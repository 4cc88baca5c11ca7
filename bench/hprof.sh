#!/usr/bin/env bash
# The heap dump reader (issue 37) on a generated multi-GiB HPROF file: its
# speed in GB/s beside `grep -c` reading the same file (the floor: one pass
# over the bytes, nothing kept; its pattern is in no line, so grep reads the
# file to its end: with a match, GNU grep stops early on a binary file, and
# on any file when its output is /dev/null), and its peak RSS against the bound the
# README states (a 4 GiB dump in at most a few hundred MiB).
#
# Makes data/heap-$GIB.hprof (internal/hprofgen: 200 parked threads of a JDK
# 17 layout, then $GIB GiB of instances, byte[] and object arrays) if
# missing, then runs RUNS (3) interleaved rounds of grep -c and dumpdiff
# parse --stats on it, each under /usr/bin/time (wall and CPU: on a machine
# whose page cache cannot hold the file, wall is the disk's). Prints each
# run and the medians (exit 0 either way: a report, not
# a gate). By hand only: GIB GiB of disk, minutes.
#
# Usage: cd bench && ./hprof.sh        Env: GIB=4 RUNS=3
set -euo pipefail
cd "$(dirname "$0")"
gib=${GIB:-4}
runs=${RUNS:-3}
data=data
bin=data/bin
mkdir -p "$bin"
if [ ! -x /usr/bin/time ]; then
	echo "hprof.sh: /usr/bin/time is missing: apt-get install -y time" >&2
	exit 2
fi
(cd .. && go build -o bench/$bin/dumpdiff ./cmd/dumpdiff)
file=$data/heap-${gib}g.hprof
if [ ! -s "$file" ]; then
	echo "== generating $file"
	(cd .. && go run ./internal/hprofgen/cmd/hprofgen -o "bench/$file" -gib "$gib")
fi
size=$(stat -c %s "$file")
echo "== $file: $size bytes; $runs rounds"
g=() d=() r=() gc=() dc=()
for i in $(seq "$runs"); do
	# Each command reads the file just read by cat: from the page cache when
	# it holds the file, not the pages the other command left.
	cat "$file" >/dev/null
	/usr/bin/time -f '%e %U %S %M' -o "$data/t.grep" grep -c 'no line of a heap dump holds this' "$file" >"$data/out.grep" || true
	cat "$file" >/dev/null
	/usr/bin/time -f '%e %U %S %M' -o "$data/t.dd" "$bin/dumpdiff" parse --stats "$file" >"$data/out.dd"
	# the last line: time writes "Command exited with non-zero status 1"
	# first for grep, which finds nothing
	read -r ge gu gs _ < <(tail -n1 "$data/t.grep")
	read -r de du ds dm < <(tail -n1 "$data/t.dd")
	gcpu=$(awk -v u="$gu" -v s="$gs" 'BEGIN { print u + s }')
	dcpu=$(awk -v u="$du" -v s="$ds" 'BEGIN { print u + s }')
	echo "round $i: grep -c ${ge}s wall ${gcpu}s CPU; dumpdiff parse ${de}s wall ${dcpu}s CPU, peak RSS $((dm / 1024)) MiB: $(cat "$data/out.dd")"
	g+=("$ge") d+=("$de") r+=("$dm") gc+=("$gcpu") dc+=("$dcpu")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
mg=$(median "${g[@]}") md=$(median "${d[@]}") mr=$(median "${r[@]}") mgc=$(median "${gc[@]}") mdc=$(median "${dc[@]}")
awk -v s="$size" -v g="$mg" -v d="$md" -v r="$mr" -v gc="$mgc" -v dc="$mdc" 'BEGIN {
	printf "median wall: grep -c %.2f s (%.2f GB/s); dumpdiff %.2f s (%.2f GB/s, %.2fx grep)\n", g, s / g / 1e9, d, s / d / 1e9, d / g
	printf "median CPU:  grep -c %.2f s (%.2f GB/s); dumpdiff %.2f s (%.2f GB/s, %.2fx grep); dumpdiff peak RSS %d MiB\n", gc, s / gc / 1e9, dc, s / dc / 1e9, dc / gc, r / 1024
}'
