#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-idle-long/: idlelong (main.go here) on the installed Go,
# left idle until every goroutine prints minutes of wait, then its debug=2 dump (1.txt,
# gzipped) and 3 s later 2.txt fetched with curl from net/http/pprof on 127.0.0.1. README.md counts with grep.
# Usage: bash testdata/gen/go-idle-long/gen.sh (~2.5 min: waits are printed from 1 minute).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(cd "$here/../../verdicts" && pwd)/go-idle-long
tmp=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$here" && go build -o "$tmp/idlelong" main.go)
"$tmp/idlelong" -addr-file "$tmp/addr" &
pid=$!
for _ in $(seq 100); do [[ -s $tmp/addr ]] && break; sleep 0.1; done
addr=$(cat "$tmp/addr")
# The runtime prints a wait from 1 minute, rounded down, and only after a GC has seen it.
for _ in $(seq 200); do
	curl -sf "http://$addr/debug/pprof/goroutine?debug=2" -o "$tmp/1.txt"
	n=$(grep -c '^goroutine [0-9]* \[select, 2 minutes\]:$' "$tmp/1.txt" || true)
	[[ $n -ge 200 ]] && break
	sleep 2
done
mkdir -p "$tmp/out"
gzip -c "$tmp/1.txt" >"$tmp/out/1.txt.gz"
sleep 3
curl -sf "http://$addr/debug/pprof/goroutine?debug=2" | gzip -c >"$tmp/out/2.txt.gz"
sel=$(grep -c '^goroutine [0-9]* \[select, [0-9]* minutes\]:$' "$tmp/1.txt" || true)
recv=$(grep -c '^goroutine [0-9]* \[chan receive, [0-9]* minutes\]:$' "$tmp/1.txt" || true)
parents=$(grep -A3 'main.(\*hub).subscribe' "$tmp/1.txt" | grep -o 'in goroutine [0-9]*' | sort -u | wc -l)
cat >"$tmp/out/README.md" <<README
# go-idle-long

\`testdata/gen/go-idle-long/main.go\` (idlelong) on $(go version | awk '{print $3}'), by
\`bash testdata/gen/go-idle-long/gen.sh\`: at start, 200 requests each start a subscriber waiting
in \`select\` (\`main.(*hub).subscribe\`, $parents distinct parents printed) and 300 workers wait on
their job channels; then nothing happens. \`1.txt.gz\` is its debug=2 dump once the subscribers
print 2 minutes of wait, \`2.txt.gz\` 3 s later.

The right answer (from the source): no leak, in one dump or two. Every goroutine has waited as
long as the others (a process at rest since it started), so the subscribers' minutes are not long
for this process, however many distinct parents they have; the 300 idle workers, most of the
process, are a pool at rest, not a mass of leaked goroutines.

Counts (grep): $sel goroutines in \`[select, N minutes]\`, $recv in \`[chan receive, N minutes]\`.
README
rm -rf "$out"
mv "$tmp/out" "$out"
echo "wrote $out: $sel in select, $recv in chan receive, $parents parents" >&2
