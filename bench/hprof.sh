#!/usr/bin/env bash
# The heap dump reader (issue 37) on a generated multi-GiB HPROF file: its
# speed in GB/s beside `grep -ac` reading the same file (the floor: one pass
# over the bytes, nothing kept; -a reads a binary file whole, where GNU grep
# would stop at its first match; its output goes to a file, as GNU grep
# stops at the first match when it writes to /dev/null), and its peak RSS against the bound the
# README states (a 4 GiB dump in at most a few hundred MiB).
#
# Makes data/heap-$GIB.hprof (internal/hprofgen: 200 parked threads of a JDK
# 17 layout, then $GIB GiB of instances, byte[] and object arrays) if
# missing, then runs RUNS (3) interleaved rounds of grep -ac and dumpdiff
# parse --stats on it, each under /usr/bin/time, the file in the page
# cache. Prints each run and the medians (exit 0 either way: a report, not
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
cat "$file" >/dev/null # into the page cache
echo "== $file: $size bytes; $runs rounds"
g=() d=() r=()
for i in $(seq "$runs"); do
	/usr/bin/time -f '%e %M' -o "$data/t.grep" grep -ac 'task-' "$file" >"$data/out.grep" || true
	/usr/bin/time -f '%e %M' -o "$data/t.dd" "$bin/dumpdiff" parse --stats "$file" >"$data/out.dd"
	read -r ge _ <"$data/t.grep"
	read -r de dm <"$data/t.dd"
	echo "round $i: grep -ac ${ge}s, dumpdiff parse ${de}s peak RSS $((dm / 1024)) MiB: $(cat "$data/out.dd")"
	g+=("$ge") d+=("$de") r+=("$dm")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
mg=$(median "${g[@]}") md=$(median "${d[@]}") mr=$(median "${r[@]}")
awk -v s="$size" -v g="$mg" -v d="$md" -v r="$mr" 'BEGIN {
	printf "median: grep -ac %.2f s (%.2f GB/s); dumpdiff %.2f s (%.2f GB/s, %.1fx grep), peak RSS %d MiB\n",
		g, s / g / 1e9, d, s / d / 1e9, d / g, r / 1024
}'
