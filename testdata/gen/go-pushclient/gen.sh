#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-pushclient-healthy/sigquit.txt: pushclient (main.go here)
# on the installed Go, a client of a push stream on 127.0.0.1 (its own server, in the same
# process, sends nothing for now), sent SIGQUIT 2 s after it printed "ready".
# Usage: bash testdata/gen/go-pushclient/gen.sh (~5 s).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(cd "$here/../../verdicts" && pwd)/go-pushclient-healthy
tmp=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src" && cp "$here/main.go" "$tmp/src/" && printf 'module pushclient\n\ngo 1.22\n' >"$tmp/src/go.mod"
(cd "$tmp/src" && go build -o "$tmp/pushclient" .)
"$tmp/pushclient" 2>"$tmp/err" &
pid=$!
for _ in $(seq 100); do grep -q '^ready' "$tmp/err" && break; sleep 0.1; done
sleep 2
kill -QUIT "$pid"
wait "$pid" 2>/dev/null || true
pid=
sed -n '/^SIGQUIT/,$p' "$tmp/err" >"$out/sigquit.txt"
echo "wrote $out/sigquit.txt" >&2
