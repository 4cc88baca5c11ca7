#!/usr/bin/env bash
# Compares `dumpdiff parse --stats` with two peer Go dump parsers on a
# 100,000-goroutine debug=2 dump: wall time and peak RSS of the whole process,
# each tool run RUNS times (median reported). Targets: dumpdiff at least 2x
# faster than gostackparse, and at most half its peak RSS. Exits 1 if a
# target is missed or a tool fails.
#
# If data/jstack-10k.txt exists (a 10,000-thread jstack dump written by the
# JVM generator), dumpdiff's throughput on it is reported too (no target).
#
# Usage: cd bench && ./compare.sh          (RUNS=5 by default)
set -euo pipefail
cd "$(dirname "$0")"
runs=${RUNS:-5}
data=data
bin=data/bin
mkdir -p "$bin"

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

# measure NAME FILE CMD...: runs CMD $runs times; sets med_s, med_mb, n.
measure() {
	local name=$1 file=$2
	shift 2
	local times=() rss=() i out
	cat "$file" >/dev/null # same page-cache state for every tool
	for ((i = 0; i < runs; i++)); do
		if ! /usr/bin/time -f '%e %M' -o "$data/time.out" "$@" >"$data/$name.out" 2>"$data/$name.err"; then
			echo "  $name failed: $(head -c 300 "$data/$name.err")"
			med_s=NaN med_mb=NaN n=0
			return 1
		fi
		read -r s kb <"$data/time.out"
		times+=("$s")
		rss+=("$kb")
	done
	med_s=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
	med_mb=$(printf '%s\n' "${rss[@]}" | sort -g | awk '{a[NR]=$1} END{printf "%.1f", a[int((NR+1)/2)]/1024}')
	n=$(count "$name" <"$data/$name.out")
	echo "  $name: times ${times[*]} s; peak RSS ${rss[*]} KB; count $n"
}

f="$data/go-100k.txt"
size_mb=$(awk -v b="$(stat -c %s "$f")" 'BEGIN{printf "%.1f", b/1e6}')
echo "== $f ($size_mb MB), $runs runs each"
declare -A S M N
ok=1
for tool in dumpdiff gostackparse panicparse; do
	case $tool in
	dumpdiff) cmd=("$bin/dumpdiff" parse --stats "$f") ;;
	*) cmd=("$bin/$tool-stats" "$f") ;;
	esac
	if measure "$tool" "$f" "${cmd[@]}"; then :; else [ "$tool" = dumpdiff ] && ok=0; fi
	S[$tool]=$med_s M[$tool]=$med_mb N[$tool]=$n
done

echo
printf '%-14s %10s %12s %10s %10s\n' tool median_s peak_RSS_MB MB/s goroutines
for tool in dumpdiff gostackparse panicparse; do
	mbs=$(awk -v s="${S[$tool]}" -v m="$size_mb" 'BEGIN{ if (s+0 > 0) printf "%.0f", m/s; else print "-" }')
	printf '%-14s %10s %12s %10s %10s\n' "$tool" "${S[$tool]}" "${M[$tool]}" "$mbs" "${N[$tool]}"
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
	[ "$v1" = PASS ] && [ "$v2" = PASS ] || ok=0
else
	echo "speed: FAIL (dumpdiff did not produce a matching result)"
	echo "RSS:   FAIL (dumpdiff did not produce a matching result)"
fi

j="$data/jstack-10k.txt"
if [ -s "$j" ]; then
	jmb=$(awk -v b="$(stat -c %s "$j")" 'BEGIN{printf "%.1f", b/1e6}')
	echo
	echo "== $j ($jmb MB), $runs runs"
	if measure dumpdiff "$j" "$bin/dumpdiff" parse --stats "$j"; then
		awk -v s="$med_s" -v m="$jmb" -v r="$med_mb" -v n="$n" \
			'BEGIN{printf "dumpdiff jstack: median %s s, %s MB/s, peak RSS %s MB, threads %d\n", s, (s > 0 ? sprintf("%.0f", m/s) : "-"), r, n}'
	else
		ok=0
	fi
else
	echo
	echo "(no $j: JVM benchmark skipped)"
fi
rm -f "$data/time.out"
[ "$ok" = 1 ]
