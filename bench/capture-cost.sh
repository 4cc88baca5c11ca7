#!/usr/bin/env bash
# What one capture moment costs the process being dumped (issue 11), against
# what a plain fetch of the dump costs it.
#
# Go: starts gen100k -serve (the benchmark's 100k-goroutine mix: 5 to 31
# frames deep, chan/select/mutex/cond/sleep/IO waits) with N goroutines on
# 127.0.0.1, reads its stops of the world from its own runtime/metrics
# (/sched/pauses/total/other:seconds, served at /stw) before and after
#   1. one moment of `dumpdiff capture URL --count 1` (default --max-pause)
#   2. one plain `curl .../debug/pprof/goroutine?debug=2`
# and prints both and their ratio, then the same target serving package
# handler: one default capture moment and one with --max-pause 0 (the full
# dump whatever it costs, in one stop). Each capture is analyzed to show how
# many goroutines it counts.
#
# JVM: starts bench/jvmcost/Threads (THREADS threads, HEAP_MB of live small
# objects) with -Xlog:safepoint and reads the ThreadDump safepoints of
#   1. a plain `jcmd PID Thread.print -l` (the old default)
#   2. one `dumpdiff capture --pid PID` moment (no -l: nothing needs it)
#   3. one `dumpdiff capture --pid PID --locks` moment
# and the cost each capture recorded from hsperfdata.
#
# By hand only (minutes, GBs of memory). Usage: cd bench && ./capture-cost.sh
# Env: NS="100000 300000" goroutine counts; GO=go1.27.3 builds the Go
#      target with that toolchain (GOTOOLCHAIN); THREADS=1000 HEAP_MB=1750;
#      SKIP_GO=1 or SKIP_JVM=1.
set -euo pipefail
cd "$(dirname "$0")"
ns=${NS:-100000 300000}
bin=data/bin
tmp=$(mktemp -d)
mkdir -p "$bin"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "== building"
(cd .. && go build -o bench/$bin/dumpdiff ./cmd/dumpdiff)
dd=$bin/dumpdiff
if [ -n "${GO:-}" ]; then
	GOTOOLCHAIN=$GO go build -o "$bin/target" ./gen100k
else
	go build -o "$bin/target" ./gen100k
fi
echo "target: $(go version -m "$bin/target" | head -1 | awk '{print $2}')"

# field NAME LINE: the value of NAME=... in a /stw line.
field() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }
stw() { curl -sf "http://$addr/stw"; }
# delta BEFORE AFTER: "N stops, S s stopped"
delta() {
	local c0 c1 s0 s1
	c0=$(field other_count "$1") c1=$(field other_count "$2") s0=$(field other_s "$1") s1=$(field other_s "$2")
	awk -v c="$((c1 - c0))" -v s0="$s0" -v s1="$s1" 'BEGIN { printf "%d stops, %.3f s stopped", c, s1 - s0 }'
}
seconds() { awk -v s0="$(field other_s "$1")" -v s1="$(field other_s "$2")" 'BEGIN { printf "%.4f", s1 - s0 }'; }
# counted DIR: the goroutines the analysis of a capture counts, and how.
counted() {
	local out
	out=$("$dd" --format json "$1" 2>/dev/null || true)
	local n
	n=$(grep -o '"threads": [0-9]*' <<<"$out" | head -1 | awk '{print $2}')
	echo "${n:-?} goroutines counted ($(grep -B1 '"primary": true' "$1/manifest.json" | grep -o '"kind": "[a-z0-9-]*"' | head -1 | cut -d'"' -f4)$(grep -q '"partial": true' "$1/manifest.json" && echo ', partial' || true))"
}

start_target() { # N HANDLER
	rm -f "$tmp/addr"
	"$bin/target" -n "$1" -handler="$2" -serve "$tmp/addr" >"$tmp/target.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 600); do [ -s "$tmp/addr" ] && break; sleep 0.1; done
	addr=$(cat "$tmp/addr")
	sleep 1
}
stop_target() { kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; }

capture_moment() { # LABEL ARGS...
	local label=$1
	shift
	local b a t0 t1
	b=$(stw)
	t0=$(date +%s.%N)
	"$dd" capture "http://$addr" --count 1 --timeout 5m --out "$tmp/$label" "$@" 2>"$tmp/$label.log" || { cat "$tmp/$label.log"; return 1; }
	t1=$(date +%s.%N)
	a=$(stw)
	last_pause=$(seconds "$b" "$a")
	printf '  %-34s %-32s %6.2f s wall  %s\n' "capture moment $label" "$(delta "$b" "$a")" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" "$(counted "$tmp/$label")"
	grep -o 'over the pause budget[^"]*' "$tmp/$label/manifest.json" | head -1 | sed 's/^/      /' || true
	grep -o 'cut by the runtime[^"]*' "$tmp/$label/manifest.json" | head -1 | sed 's/^/      /' || true
}

if [ -z "${SKIP_GO:-}" ]; then
	for n in $ns; do
		echo "== Go target, $n goroutines, net/http/pprof only"
		start_target "$n" false
		echo "  target: $(stw)"
		capture_moment "pprof-$n"
		cap=$last_pause
		b=$(stw)
		t0=$(date +%s.%N)
		curl -sf --max-time 600 -o "$tmp/plain.txt" "http://$addr/debug/pprof/goroutine?debug=2"
		t1=$(date +%s.%N)
		a=$(stw)
		plain=$(seconds "$b" "$a")
		size=$(stat -c %s "$tmp/plain.txt")
		cut=""
		[ "$size" -eq $((64 << 20)) ] && cut=", cut at 64 MiB: $(grep -c '^goroutine ' "$tmp/plain.txt") goroutines in it"
		printf '  %-34s %-32s %6.2f s wall  %.1f MB%s\n' "plain curl goroutine?debug=2" "$(delta "$b" "$a")" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" "$(awk -v s="$size" 'BEGIN{print s/1e6}')" "$cut"
		awk -v c="$cap" -v p="$plain" 'BEGIN { if (p > 0) printf "  ratio: the capture moment stopped the target %.3f s, %.1f%% of the plain fetch'"'"'s %.3f s\n", c, 100*c/p, p }'
		stop_target

		echo "== Go target, $n goroutines, serving package handler"
		start_target "$n" true
		capture_moment "handler-$n"
		capture_moment "handler-full-$n" --max-pause 0
		grep -o '"pause_ms": [0-9.]*' "$tmp/handler-full-$n/manifest.json" | head -1 | sed 's/^/      handler measured /'
		stop_target
	done
fi

if [ -z "${SKIP_JVM:-}" ]; then
	threads=${THREADS:-1000}
	heap=${HEAP_MB:-1750}
	echo "== JVM target, $threads threads, ${heap} MB live heap"
	javac -d "$bin" jvmcost/Threads.java
	mkfifo "$tmp/jin"
	java -Xms3g -Xmx3g -XX:+UseParallelGC "-Xlog:safepoint:file=$tmp/sp.log" -cp "$bin" Threads "$threads" "$heap" <"$tmp/jin" >"$tmp/jvm.out" 2>&1 &
	jpid=$!
	pids+=($jpid)
	exec 9>"$tmp/jin" # keeps its stdin open
	for _ in $(seq 1200); do grep -q ready "$tmp/jvm.out" 2>/dev/null && break; sleep 0.1; done
	# threaddumps: the safepoints of thread dumps logged since line $1
	# (Thread.print is the VM operations PrintThreads, PrintJNI and
	# FindDeadlocks; -Xlog:safepoint says "Total: N ns" for each).
	threaddumps() {
		tail -n +"$1" "$tmp/sp.log" | grep -E 'Safepoint "(PrintThreads|PrintJNI|FindDeadlocks|ThreadDump)"' |
			sed 's/.*Total: \([0-9]*\) ns.*/\1/' |
			awk '{ n++; t += $1; if ($1 > m) m = $1 } END { printf "%d safepoints, %.1f ms stopped (longest %.1f ms)", n, t/1e6, m/1e6 }'
	}
	from=$(($(wc -l <"$tmp/sp.log") + 1))
	jcmd "$jpid" Thread.print -l >/dev/null
	printf '  %-40s %s\n' "plain jcmd Thread.print -l" "$(threaddumps "$from")"
	for args in "" "--locks"; do
		label="jvm${args:+-locks}"
		from=$(($(wc -l <"$tmp/sp.log") + 1))
		"$dd" capture --pid "$jpid" --count 1 --timeout 5m --out "$tmp/$label" $args 2>"$tmp/$label.log"
		printf '  %-40s %s; recorded: %s, %s\n' "capture moment --pid ${args:-(default)}" "$(threaddumps "$from")" \
			"$(grep -o '"tool": "[^"]*"' "$tmp/$label/manifest.json" | head -1)" "$(grep -o '"pause_ms": [0-9.]*' "$tmp/$label/manifest.json" | head -1)"
	done
	exec 9>&-
fi
