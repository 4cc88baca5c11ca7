#!/usr/bin/env bash
# Regenerates testdata/verdicts/tpcserver-idle-healthy: Tpc.java here on the installed Java,
# dumped three times with `jstack -l PID`, 4 s apart, once it printed "ready" (2 s after).
# Usage: bash testdata/gen/jvm-tpcserver/gen.sh (~20 s).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(cd "$here/../../verdicts" && pwd)/tpcserver-idle-healthy
tmp=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
javac -d "$tmp" "$here/Tpc.java"
java -Xmx64m -XX:+UseSerialGC -cp "$tmp" Tpc >"$tmp/out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q '^ready' "$tmp/out" && break; sleep 0.1; done
sleep 2
for m in 1 2 3; do
	jstack -l "$pid" >"$out/$m.txt"
	[[ $m == 3 ]] || sleep 4
done
echo "wrote $out" >&2
