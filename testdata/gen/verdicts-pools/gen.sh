#!/usr/bin/env bash
# Regenerates the pool-structure verdict fixtures in testdata/verdicts/ (issue 33) from small
# real Java 17 programs (src/), each dumped with the installed JDK's `jstack -l PID` three
# times, 5 s apart:
#
#   small-pool-stuck/1..3.txt     com.example.pools.SmallPoolApp stuck
#   small-pool-healthy/1..3.txt   com.example.pools.SmallPoolApp healthy
#   fetch-pool-stuck/1..3.txt     com.example.pools.FetchPoolApp stuck
#   fetch-pool-healthy/1..3.txt   com.example.pools.FetchPoolApp healthy
#   task-wait-stuck/1..3.txt      com.example.pools.TaskWaitApp stuck
#   task-wait-healthy/1..3.txt    com.example.pools.TaskWaitApp healthy
#   holder-db-stuck/1..3.txt      com.example.pools.HolderApp stuck
#   holder-db-healthy/1..3.txt    com.example.pools.HolderApp healthy
#   holder-spin-stuck/1..3.txt    com.example.pools.SpinHolderApp stuck
#   holder-spin-healthy/1..3.txt  com.example.pools.SpinHolderApp healthy
#   rpc-select-stuck/1..3.txt     com.example.pools.RpcApp stuck
#   rpc-select-healthy/1..3.txt   com.example.pools.RpcApp healthy
#   conn-server-stuck/1..3.txt    com.example.pools.ConnServerApp stuck
#   conn-server-healthy/1..3.txt  com.example.pools.ConnServerApp healthy
#   go-semaphore-stuck/1..3.txt   go-semaphore -mode stuck   (Go; golang.org/x/sync/semaphore)
#   go-semaphore-healthy/1..3.txt go-semaphore -mode healthy
#
# The Go program (go-semaphore/, its own module, built from the module cache) writes its own
# debug=2 goroutine dumps (pprof.Lookup("goroutine").WriteTo), 2 s after it starts, 5 s apart.
# Each Java program prints "ready" once its threads are started; the first dump is taken 3 s later
# (the stuck ones are in place by then, the healthy ones at their steady load). The README.md
# of each case is written by hand from the source, before dumpdiff was run on the dumps; this
# script only replaces the dumps. Every JVM started here is killed on exit.
#
# Usage: bash testdata/gen/verdicts-pools/gen.sh [CASE...]   (default: all; ~20 s a case)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-pools.XXXXXX)
pid=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

declare -A MAIN=(
	[small-pool-stuck]="SmallPoolApp stuck" [small-pool-healthy]="SmallPoolApp healthy"
	[fetch-pool-stuck]="FetchPoolApp stuck" [fetch-pool-healthy]="FetchPoolApp healthy"
	[task-wait-stuck]="TaskWaitApp stuck" [task-wait-healthy]="TaskWaitApp healthy"
	[holder-db-stuck]="HolderApp stuck" [holder-db-healthy]="HolderApp healthy"
	[holder-spin-stuck]="SpinHolderApp stuck" [holder-spin-healthy]="SpinHolderApp healthy"
	[rpc-select-stuck]="RpcApp stuck" [rpc-select-healthy]="RpcApp healthy"
	[conn-server-stuck]="ConnServerApp stuck" [conn-server-healthy]="ConnServerApp healthy"
)
cases=("$@")
((${#cases[@]})) || cases=(small-pool-stuck small-pool-healthy fetch-pool-stuck fetch-pool-healthy
	task-wait-stuck task-wait-healthy holder-db-stuck holder-db-healthy holder-spin-stuck holder-spin-healthy
	rpc-select-stuck rpc-select-healthy conn-server-stuck conn-server-healthy go-semaphore-stuck go-semaphore-healthy)

go_cases=()
java_cases=()
for c in "${cases[@]}"; do
	case $c in
	go-semaphore-*) go_cases+=("$c") ;;
	*) java_cases+=("$c") ;;
	esac
done
if ((${#go_cases[@]})); then
	(cd "$here/go-semaphore" && GOFLAGS=-mod=mod GOSUMDB=off go build -o "$tmp/gosem" .)
	for c in "${go_cases[@]}"; do
		mkdir -p "$repo/testdata/verdicts/$c"
		"$tmp/gosem" -mode "${c#go-semaphore-}" -out "$repo/testdata/verdicts/$c"
		echo "$c: $(grep -c '^goroutine ' "$repo/testdata/verdicts/$c/1.txt") goroutines a dump" >&2
	done
fi
cases=("${java_cases[@]}")
((${#cases[@]})) || exit 0

javac -nowarn -d "$tmp/classes" $(find "$here/src" -name '*.java')
for c in "${cases[@]}"; do
	[[ -n ${MAIN[$c]:-} ]] || { echo "unknown case $c" >&2; exit 1; }
	read -r cls mode <<<"${MAIN[$c]}"
	java -Xmx64m -XX:+UseSerialGC -cp "$tmp/classes" "com.example.pools.$cls" "$mode" >"$tmp/out.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 100); do
		grep -q '^ready$' "$tmp/out.log" && break
		sleep 0.1
	done
	grep -q '^ready$' "$tmp/out.log" || { cat "$tmp/out.log" >&2; exit 1; }
	sleep 3
	dir=$repo/testdata/verdicts/$c
	mkdir -p "$dir"
	for i in 1 2 3; do
		jstack -l "$pid" >"$dir/$i.txt"
		[[ $i == 3 ]] || sleep 5
	done
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	echo "$c: $(grep -c '^"' "$dir/1.txt") threads a dump" >&2
done
