#!/usr/bin/env bash
# What package handler's flight recorder costs a service (issue 35), and how
# fast dumpdiff reads its snapshot.
#
# Starts bench/flightcost (N goroutines parked as a service's are, an HTTP
# endpoint doing a little work) on 127.0.0.1 with the recorder off and on,
# interleaved RUNS times; loads each with wrk for SECS seconds and reads the
# service's own CPU time (/proc/PID/stat) before and after: CPU per 1000
# requests, requests/s and wrk's latency percentiles. With the recorder on,
# it then takes the snapshot (GET handler.FlightPath, a WINDOW window) and
# times `dumpdiff parse --stats` on it (/usr/bin/time: wall, peak RSS).
#
# By hand only (a minute or two). Usage: cd bench && ./flight-cost.sh
# Env: N=10000 RUNS=3 SECS=15 CONNS=32 WINDOW=10s
set -euo pipefail
cd "$(dirname "$0")"
n=${N:-10000}; runs=${RUNS:-3}; secs=${SECS:-15}; conns=${CONNS:-32}; window=${WINDOW:-10s}
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
go build -o "$tmp/flightcost" ./flightcost
(cd .. && go build -o "$tmp/dumpdiff" ./cmd/dumpdiff)
hz=$(getconf CLK_TCK)
cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
printf 'mode\trun\treq/s\tp50\tp99\tcpu_ms_per_1k_req\tsnapshot_bytes\tread_wall_s\tread_cpu_s\tread_rss_kb\tmoments\n'
for r in $(seq 1 "$runs"); do
	for mode in off on; do
		flag=; [ "$mode" = on ] && flag=-flight
		"$tmp/flightcost" -n "$n" $flag -window "$window" >"$tmp/addr" 2>"$tmp/log" &
		pid=$!
		for _ in $(seq 600); do [ -s "$tmp/addr" ] && break; sleep 0.05; done
		addr=$(head -1 "$tmp/addr")
		wrk -t2 -c"$conns" -d3s "http://$addr/work" >/dev/null # warm up
		c0=$(cpu "$pid")
		wrk -t2 -c"$conns" -d"${secs}s" --latency "http://$addr/work" >"$tmp/wrk"
		c1=$(cpu "$pid")
		reqs=$(awk '/requests in/ {print $1}' "$tmp/wrk")
		rps=$(awk '/^Requests\/sec/ {print $2}' "$tmp/wrk")
		p50=$(awk '$1=="50%" {print $2}' "$tmp/wrk")
		p99=$(awk '$1=="99%" {print $2}' "$tmp/wrk")
		cpk=$(awk -v a="$c0" -v b="$c1" -v hz="$hz" -v q="$reqs" 'BEGIN{printf "%.1f", (b-a)*1000/hz*1000/q}')
		size=-; wall=-; rcpu=-; rss=-; moments=-
		if [ "$mode" = on ]; then
			curl -sf -o "$tmp/flight.trace" "http://$addr/debug/pprof/dumpdiff/flight"
			size=$(stat -c %s "$tmp/flight.trace")
			/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$tmp/dumpdiff" parse --stats "$tmp/flight.trace" >"$tmp/stats"
			read -r wall u sy rss <"$tmp/time"
			rcpu=$(awk -v u="$u" -v s="$sy" 'BEGIN{printf "%.2f", u+s}')
			moments=$(wc -l <"$tmp/stats")
		fi
		kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "$r" "$rps" "$p50" "$p99" "$cpk" "$size" "$wall" "$rcpu" "$rss" "$moments"
	done
done
