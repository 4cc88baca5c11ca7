#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-mass-leak/: massleak (main.go here) on the installed Go,
# its goroutine profile as debug=1 text and as the proto at two moments 5 s apart, fetched
# with curl from net/http/pprof on 127.0.0.1: no wait time is printed in either encoding,
# so only the mass of one stack tells the leak. README.md counts with grep/awk.
# Usage: bash testdata/gen/go-mass-leak/gen.sh (~15 s).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(cd "$here/../../verdicts" && pwd)/go-mass-leak
tmp=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$here" && go build -o "$tmp/massleak" main.go)
"$tmp/massleak" -addr-file "$tmp/addr" &
pid=$!
for _ in $(seq 100); do [[ -s $tmp/addr ]] && break; sleep 0.1; done
addr=$(cat "$tmp/addr")
sleep 1
mkdir -p "$tmp/out"
for m in 1 2; do
	curl -sf "http://$addr/debug/pprof/goroutine?debug=1" -o "$tmp/out/$m-debug1.txt"
	curl -sf "http://$addr/debug/pprof/goroutine?debug=0" -o "$tmp/out/$m.pb.gz"
	[[ $m == 1 ]] && sleep 5
done
total=$(head -1 "$tmp/out/1-debug1.txt" | awk '{print $4}')
watch=$(awk '/^[0-9]+ @/ {n=$1} /main\.\(\*registry\)\.watch/ {print n; exit}' "$tmp/out/1-debug1.txt")
cat >"$tmp/out/README.md" <<README
# go-mass-leak

\`testdata/gen/go-mass-leak/main.go\` (massleak) on $(go version | awk '{print $3}'), by
\`bash testdata/gen/go-mass-leak/gen.sh\`: a service that starts a watcher per request and forgets it
(5,067 waiting for ever in \`main.(*registry).watch\` on a channel nobody closes), beside ordinary
goroutines (60 workers on a job queue, 30 tickers, 10 sleepers, the HTTP server). Its goroutine
profile as debug=1 text (\`N-debug1.txt\`) and as the proto (\`N.pb.gz\`), at two moments 5 s apart.
Neither encoding prints how long a goroutine has waited.

The right answer (from the source): a suspected leak by mass, $watch of $total goroutines at
\`main.(*registry).watch\`, flat across the moments; nothing else is wrong.

Counts from the files (grep/awk): total $total; the watch record's count $watch.
README
rm -rf "$out"
mv "$tmp/out" "$out"
echo "wrote $out: $watch of $total" >&2
