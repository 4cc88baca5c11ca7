#!/usr/bin/env bash
# Regenerates testdata/verdicts/peer-pool-{stuck,healthy}/1..3.txt from
# PeerPoolApp.java here, run by the installed JDK 17 (source launcher);
# `jstack -l PID` three times, 5 s apart, from 3 s after it printed
# "ready". The READMEs are written by hand, before dumpdiff ran. ~40 s.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
pid=
trap '[[ -n $pid ]] && kill "$pid" 2>/dev/null; true' EXIT
for m in stuck healthy; do
	out=$repo/testdata/verdicts/peer-pool-$m
	mkdir -p "$out"
	log=$(mktemp)
	java -Xmx64m -XX:+UseSerialGC "$here/PeerPoolApp.java" "$m" >"$log" 2>&1 &
	pid=$!
	for _ in $(seq 100); do grep -q ready "$log" && break; sleep 0.2; done
	grep -q ready "$log" || { cat "$log"; exit 1; }
	sleep 3
	for i in 1 2 3; do
		jstack -l "$pid" >"$out/$i.txt"
		[[ $i == 3 ]] || sleep 5
	done
	kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
	rm -f "$log"
done
