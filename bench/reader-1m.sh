#!/usr/bin/env bash
# The reader at 1M goroutines (issue 11): how much CPU the Go debug=2 parse
# costs against `grep -c '^goroutine '` on the same file, and what the whole
# analysis of three moments of 1,000,001 goroutines costs in wall time and
# peak RSS. Targets: parse CPU at most 3x grep's; 3 moments in under 3 s
# wall and 1 GB peak RSS on 2 cores, the report unchanged.
#
# Makes data/go-1m.txt (gen100k -n 1000000, ~911 MB, a minute) if missing and
# three distinct dumps of it, data/m{1,2,3}.txt: m1 a copy, m2 and m3 with
# one goroutine's wait said otherwise (dumpdiff reads one dump given twice,
# a copy included, as one moment: three copies would be one moment). Runs RUNS (3) interleaved rounds of: grep -c, dumpdiff parse --stats
# on one copy, dumpdiff on the three copies; each under /usr/bin/time. Prints
# the medians, the ratios and PASS/FAIL per target (exit 0 either way: a
# report, not a gate). By hand only: ~4 GB of disk, minutes.
#
# Usage: cd bench && ./reader-1m.sh        Env: RUNS=3
set -euo pipefail
cd "$(dirname "$0")"
runs=${RUNS:-3}
data=data
bin=data/bin
mkdir -p "$bin"
if [ ! -x /usr/bin/time ]; then
	echo "reader-1m.sh: /usr/bin/time is missing: apt-get install -y time" >&2
	exit 2
fi
(cd .. && go build -o bench/$bin/dumpdiff ./cmd/dumpdiff)
if [ ! -s "$data/go-1m.txt" ]; then
	echo "== generating $data/go-1m.txt"
	go run ./gen100k -n 1000000 -o "$data/go-1m.txt"
fi
# m1 is the dump; m2 and m3 the same but for the first waiting goroutine's
# header, which says a wait of 2 or 3 minutes ("[sleep]" becomes "[sleep,
# 2 minutes]"): distinct dumps of the same size class, the work unchanged.
variant() { # N: the first "[sleep]:" header said with a wait of N minutes
	awk -v n="$1" '!done && /^goroutine [0-9]+ \[sleep\]:$/ { sub(/\[sleep\]:$/, "[sleep, " n " minutes]:"); done = 1 } { print }' "$data/go-1m.txt"
}
stamp="$data/m.stamp" # the go-1m.txt the variants were made of
if [ ! -s "$data/m1.txt" ] || [ ! -s "$data/m3.txt" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$(stat -c %s.%Y "$data/go-1m.txt")" ]; then
	cp "$data/go-1m.txt" "$data/m1.txt"
	variant 2 >"$data/m2.txt"
	variant 3 >"$data/m3.txt"
	stat -c %s.%Y "$data/go-1m.txt" >"$stamp"
fi
cat "$data"/m?.txt >/dev/null # in the page cache, as for every tool

rm -f "$data"/r1m-*.times
run1() { # NAME CMD...: appends "wall cpu rss_kb" to data/r1m-NAME.times
	local name=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$data/time.out" "$@" >"$data/r1m-$name.out" 2>"$data/r1m-$name.err" || {
		echo "  $name failed: $(head -c 300 "$data/r1m-$name.err")"
		exit 1
	}
	awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$data/time.out" >>"$data/r1m-$name.times"
}
median() { # FILE COLUMN
	sort -n -k"$2" "$1" | awk -v c="$2" '{v[NR]=$c} END{print v[int((NR+1)/2)]}'
}
for r in $(seq "$runs"); do
	echo "== round $r of $runs (load average $(cut -d' ' -f1 /proc/loadavg))"
	run1 grep grep -c '^goroutine ' "$data/go-1m.txt"
	run1 parse "$bin/dumpdiff" parse --stats "$data/m1.txt"
	run1 analyze "$bin/dumpdiff" "$data/m1.txt" "$data/m2.txt" "$data/m3.txt"
done
g=$(median "$data/r1m-grep.times" 2)
p=$(median "$data/r1m-parse.times" 2)
pw=$(median "$data/r1m-parse.times" 1)
pr=$(median "$data/r1m-parse.times" 3)
aw=$(median "$data/r1m-analyze.times" 1)
ac=$(median "$data/r1m-analyze.times" 2)
ar=$(median "$data/r1m-analyze.times" 3)
echo
printf '%-36s %8s %8s %10s\n' "" "wall s" "CPU s" "peak RSS"
printf '%-36s %8s %8s %10s\n' "grep -c '^goroutine ' (1M)" "$(median "$data/r1m-grep.times" 1)" "$g" "$(($(median "$data/r1m-grep.times" 3) / 1024)) MB"
printf '%-36s %8s %8s %10s\n' "dumpdiff parse --stats (1M)" "$pw" "$p" "$((pr / 1024)) MB"
printf '%-36s %8s %8s %10s\n' "dumpdiff m1 m2 m3 (3 x 1M)" "$aw" "$ac" "$((ar / 1024)) MB"
echo
awk -v p="$p" -v g="$g" 'BEGIN { r = p / g; printf "parse CPU / grep CPU: %.2fx (target <= 3): %s\n", r, (r <= 3 ? "PASS" : "FAIL") }'
awk -v w="$aw" 'BEGIN { printf "3 x 1M wall: %.2f s (target < 3 s): %s\n", w, (w < 3 ? "PASS" : "FAIL") }'
awk -v m="$ar" 'BEGIN { printf "3 x 1M peak RSS: %.0f MB (target < 1024 MB): %s\n", m / 1024, (m < 1024 * 1024 ? "PASS" : "FAIL") }'
echo "report: $data/r1m-analyze.out ($(head -1 "$data/r1m-analyze.out"))"
