#!/usr/bin/env bash
# Compares `dumpdiff parse --stats` with two peer Go dump parsers on a
# 100,000-goroutine debug=2 dump: wall time, CPU time (user+sys) and peak RSS
# of the whole process, measured by /usr/bin/time, in RUNS rounds that run
# each tool once (interleaved, so load from other processes on the machine
# hits all tools alike); medians are reported. Targets: dumpdiff at least 2x
# faster than gostackparse, and at most half its peak RSS. Exits 1 if a
# target is missed or a tool fails.
#
# If data/jstack-10k.txt (or $JSTACK) exists (a 10,000-thread jstack dump by the
# JVM generator), dumpdiff's throughput on it is reported too (no target).
#
# Usage: cd bench && ./compare.sh
# Env:   RUNS=5 rounds; PANICPARSE_RUNS=1 (panicparse only in the first
#        rounds); JSTACK=file and JREPEAT=10 for the jstack benchmark.
set -euo pipefail
cd "$(dirname "$0")"
runs=${RUNS:-5}
pp_runs=${PANICPARSE_RUNS:-1} # panicparse runs in the first rounds only
data=data
bin=data/bin
mkdir -p "$bin"

if [ ! -x /usr/bin/time ] && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
	echo "== installing GNU time (apt-get install -y time)"
	apt-get install -y -qq time >/dev/null || { apt-get update -qq && apt-get install -y -qq time >/dev/null; } || true
fi
if [ ! -x /usr/bin/time ]; then
	echo "compare.sh: /usr/bin/time is missing: apt-get install -y time" >&2
	exit 2
fi

echo "== building"
(cd .. && go build -o bench/$bin/dumpdiff ./cmd/dumpdiff)
go build -o "$bin/" ./cmd/gostackparse-stats ./cmd/panicparse-stats
if [ ! -s "$data/go-100k.txt" ]; then
	echo "== generating $data/go-100k.txt"
	go run ./gen100k -o "$data/go-100k.txt"
fi

# count TOOL OUTPUT: the goroutine/thread count a tool printed.
count() {
	case $1 in
	dumpdiff) sed -n 's/.* threads=\([0-9]*\).*/\1/p' | awk '{t+=$1} END{print t+0}' ;;
	*) sed -n 's/.* goroutines=\([0-9]*\).*/\1/p' | awk '{t+=$1} END{print t+0}' ;;
	esac
}

# run1 NAME CMD...: runs CMD once; appends "wall_s cpu_s rss_kb" to data/NAME.times.
run1() {
	local name=$1
	shift
	if ! /usr/bin/time -f '%e %U %S %M' -o "$data/time.out" "$@" >"$data/$name.out" 2>"$data/$name.err"; then
		echo "  $name failed: $(head -c 300 "$data/$name.err")"
		return 1
	fi
	awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$data/time.out" >>"$data/$name.times"
}

# summarize NAME: sets med_s, cpu_s, med_mb (medians over the runs) and n.
summarize() {
	local t=$data/$1.times
	med_s=$(awk '{print $1}' "$t" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
	cpu_s=$(awk '{print $2}' "$t" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
	med_mb=$(awk '{print $3}' "$t" | sort -g | awk '{a[NR]=$1} END{printf "%.1f", a[int((NR+1)/2)]/1024}')
	n=$(count "$1" <"$data/$1.out")
	echo "  $1: wall $(awk '{printf "%s ", $1}' "$t")s; peak RSS $(awk '{printf "%s ", $3}' "$t")KB; count $n"
}

f="$data/go-100k.txt"
size_mb=$(awk -v b="$(stat -c %s "$f")" 'BEGIN{printf "%.1f", b/1e6}')
echo "== $f ($size_mb MB), $runs rounds, tools interleaved in each round"
tools=(dumpdiff gostackparse panicparse)
declare -A S C M N F
cat "$f" >/dev/null # same page-cache state for every tool
for tool in "${tools[@]}"; do rm -f "$data/$tool.times"; done
for ((i = 0; i < runs; i++)); do
	for tool in "${tools[@]}"; do
		[ -n "${F[$tool]:-}" ] && continue
		# panicparse has no target and costs ~7 CPU-seconds and ~900 MB a run.
		[ "$tool" = panicparse ] && [ "$i" -ge "$pp_runs" ] && continue
		case $tool in
		dumpdiff) cmd=("$bin/dumpdiff" parse --stats "$f") ;;
		*) cmd=("$bin/$tool-stats" "$f") ;;
		esac
		run1 "$tool" "${cmd[@]}" || F[$tool]=failed
	done
done
ok=1
for tool in "${tools[@]}"; do
	if [ -n "${F[$tool]:-}" ]; then
		S[$tool]=failed C[$tool]=- M[$tool]=- N[$tool]=0
		[ "$tool" = dumpdiff ] && ok=0
		continue
	fi
	summarize "$tool"
	S[$tool]=$med_s C[$tool]=$cpu_s M[$tool]=$med_mb N[$tool]=$n
done

echo
printf '%-14s %10s %10s %12s %10s %10s\n' tool median_s cpu_s peak_RSS_MB MB/s goroutines
for tool in "${tools[@]}"; do
	mbs=$(awk -v s="${S[$tool]}" -v m="$size_mb" 'BEGIN{ if (s+0 > 0) printf "%.0f", m/s; else print "-" }')
	printf '%-14s %10s %10s %12s %10s %10s\n' "$tool" "${S[$tool]}" "${C[$tool]}" "${M[$tool]}" "$mbs" "${N[$tool]}"
done
echo

if [ "${N[dumpdiff]}" != "${N[gostackparse]}" ]; then
	echo "count mismatch: dumpdiff ${N[dumpdiff]}, gostackparse ${N[gostackparse]}"
	ok=0
fi
if [ "$ok" = 1 ]; then
	speed=$(awk -v d="${S[dumpdiff]}" -v g="${S[gostackparse]}" 'BEGIN{printf "%.2f", (d > 0 ? g/d : 1e9)}')
	mem=$(awk -v d="${M[dumpdiff]}" -v g="${M[gostackparse]}" 'BEGIN{printf "%.2f", d/g}')
	verdict() { awk -v x="$1" -v op="$2" -v t="$3" 'BEGIN{ok = (op == ">=") ? x >= t : x <= t; print ok ? "PASS" : "FAIL"}'; }
	v1=$(verdict "$speed" '>=' 2) v2=$(verdict "$mem" '<=' 0.5)
	# wall time has 10 ms resolution: a ratio from times under 0.1 s is rough.
	echo "speed: gostackparse/dumpdiff = ${speed}x (target >= 2): $v1"
	echo "RSS:   dumpdiff/gostackparse = ${mem} (target <= 0.5): $v2"
	cpu=$(awk -v d="${C[dumpdiff]}" -v g="${C[gostackparse]}" 'BEGIN{printf "%.2f", (d > 0 ? g/d : 1e9)}')
	echo "(CPU time: gostackparse/dumpdiff = ${cpu}x; steadier than wall time when the machine is busy)"
	[ "$v1" = PASS ] && [ "$v2" = PASS ] || ok=0
else
	echo "speed: FAIL (dumpdiff did not produce a matching result)"
	echo "RSS:   FAIL (dumpdiff did not produce a matching result)"
fi

j=${JSTACK:-$data/jstack-10k.txt}
# The 10,000-thread jstack dump written by a real JVM ships gzipped in
# testdata/jvm (testdata/gen/jvm-parse/gen.sh bench); unpack it once.
if [ -z "${JSTACK:-}" ] && [ ! -s "$j" ] && [ -s ../testdata/jvm/jstack-l-10000-threads.txt.gz ]; then
	gunzip -c ../testdata/jvm/jstack-l-10000-threads.txt.gz >"$j"
fi
# The file is named JREPEAT times on one command line: one parse of a few MB
# takes about the 10 ms resolution of /usr/bin/time.
jrep=${JREPEAT:-10}
if [ -s "$j" ]; then
	jmb=$(awk -v b="$(stat -c %s "$j")" 'BEGIN{printf "%.1f", b/1e6}')
	echo
	echo "== $j ($jmb MB), named $jrep times per run, $runs runs"
	rm -f "$data/dumpdiff.times"
	cat "$j" >/dev/null
	jargs=()
	for ((i = 0; i < jrep; i++)); do jargs+=("$j"); done
	jok=1
	for ((i = 0; i < runs; i++)); do run1 dumpdiff "$bin/dumpdiff" parse --stats "${jargs[@]}" || { jok=0; break; }; done
	if [ "$jok" = 1 ]; then
		summarize dumpdiff
		awk -v s="$med_s" -v m="$jmb" -v k="$jrep" -v r="$med_mb" -v n="$n" \
			'BEGIN{printf "dumpdiff jstack: %.3f s per parse, %s MB/s, peak RSS %s MB, threads %d per parse\n", s/k, (s > 0 ? sprintf("%.0f", m*k/s) : "-"), r, n/k}'
	else
		ok=0
	fi
else
	echo
	echo "(no $j: JVM benchmark skipped)"
fi
rm -f "$data/time.out" "$data"/*.times "$data"/*.out "$data"/*.err
[ "$ok" = 1 ]
