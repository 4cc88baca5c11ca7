#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-feeder-{stuck,healthy}/1..3.txt from main.go here, built by
# the installed Go; both modes run at once, each writes its own debug=2 dumps at 65, 70, 75 s.
# ~80 s. The READMEs are written by hand, from the source, before dumpdiff ran.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
(cd "$here" && go build -o "$tmp/feeder" main.go)
for m in stuck healthy; do
	mkdir -p "$repo/testdata/verdicts/go-feeder-$m"
	"$tmp/feeder" -mode "$m" -out "$repo/testdata/verdicts/go-feeder-$m" &
	pids+=($!)
done
wait
