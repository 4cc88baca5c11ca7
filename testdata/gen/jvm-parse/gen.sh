#!/usr/bin/env bash
# Regenerates testdata/jvm/: thread dumps of JvmParse.java written by the
# installed JDK (17), used by parse/jstack_test.go's goldens:
#
#   jstack-l.txt                 jstack -l PID
#   jcmd-Thread.print-l-e.txt    jcmd PID Thread.print -l -e
#
# and, with `bench`, jstack-l-10000-threads.txt.gz (read by
# BenchmarkParseJstack): jstack -l of 10,000 sleeping threads (5 MB, 0.2 MB
# gzipped).
# After regenerating, run `go test ./parse -run TestJVMGolden -update`.
#
# Usage: testdata/gen/jvm-parse/gen.sh [bench]   (from anywhere; ~10 s, bench ~1 min)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=$repo/testdata/jvm
mkdir -p "$out"
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# start ARGS...: run JvmParse and wait for its "ready" line.
start() {
	javac -d "$tmp" "$here/JvmParse.java"
	java -Xss256k -cp "$tmp" JvmParse "$@" >"$tmp/out.txt" 2>&1 &
	pid=$!
	for _ in $(seq 1 600); do
		grep -q '^ready$' "$tmp/out.txt" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "JvmParse did not get ready" >&2
	cat "$tmp/out.txt" >&2
	exit 1
}

stop() {
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
}

if [ "${1:-}" = bench ]; then
	start many 10000
	jstack -l "$pid" | gzip -9n >"$out/jstack-l-10000-threads.txt.gz"
	stop
	echo "wrote $out/jstack-l-10000-threads.txt.gz"
	exit 0
fi

mkdir -p "$out"
start
jstack -l "$pid" >"$out/jstack-l.txt"
jcmd "$pid" Thread.print -l -e >"$out/jcmd-Thread.print-l-e.txt"
stop
# Counts made without dumpdiff: thread headers (lines starting with a quote,
# minus the deadlock report's `"name":` lines).
for f in "$out"/jstack-l.txt "$out"/jcmd-Thread.print-l-e.txt; do
	printf '%s\t%s\n' "$(basename "$f")" "$(grep -c '^"' "$f" | awk -v d="$(grep -c '^".*":$' "$f")" '{print $1-d}')"
done >"$out/COUNTS.tsv"
cat "$out/COUNTS.tsv"
