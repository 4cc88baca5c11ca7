#!/usr/bin/env bash
# Writes DIR/COUNTS.tsv for the go-slow-upstream-leak captures in DIR, with
# awk/grep and `go tool pprof -raw` only (independent of dumpdiff).
# Usage: count.sh DIR   (gen.sh calls it)
set -euo pipefail
out=$1
# debug=2 dumps separate goroutines by blank lines, so awk's paragraph mode
# (RS="") reads one goroutine per record.
{
	printf '# moment\tgoroutines\titems_stuck_in_roundtrip\tsearch_leaked_chan_send\tupstream_sleeping\tdebug1_total\tdebug1_route_items\tdebug1_route_search\tdebug0_total\n'
	for m in before during-1 during-2 after after-2; do
		awk -v m="$m" 'BEGIN{RS=""}
			/^goroutine [0-9]+ \[/ {g++}
			/^goroutine [0-9]+ \[select/ && /net\/http\.\(\*persistConn\)\.roundTrip/ && /main\.\(\*server\)\.handleItems/ {items++}
			/^goroutine [0-9]+ \[chan send/ && /main\.\(\*server\)\.handleSearch\.func1/ {leak++}
			/^goroutine [0-9]+ \[sleep/ && /main\.slowUpstream/ {up++}
			END{printf "%s\t%d\t%d\t%d\t%d", m, g, items, leak, up}' "$out/$m.txt"
		awk 'NR==1{sub(/.*total /,""); total=$0}
			/^[0-9]+ @ /{n=$1}
			/^# labels: .*"route":"\/api\/items"/{items+=n}
			/^# labels: .*"route":"\/api\/search"/{search+=n}
			END{printf "\t%d\t%d\t%d", total, items, search}' "$out/$m-debug1.txt"
		go tool pprof -raw "$out/$m.pb.gz" 2>/dev/null |
			awk '/^Samples:/{s=1;next} s&&/^ *[0-9]+:/{sub(":","",$1); t+=$1} /^Locations/{s=0} END{printf "\t%d\n", t}'
	done
} >"$out/COUNTS.tsv"
