#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-wg-{stuck,healthy}{,-go113} from main.go
# here (stdlib only), built by the installed Go (1.26, parents printed) and
# by Go 1.13.15 (GOENV=off, no modules: no parents printed). Each run writes
# its own debug=2 dumps at 75, 80 and 85 s (the runtime prints a wait in
# minutes from one minute, stamped at the first GC after it began: the
# program allocates a little every 100 ms, as a service does). ~1.5
# minutes. READMEs written by hand first.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here" && go build -o "$tmp/wg126" .)
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 | head -1)
mkdir -p "$tmp/src" && cp "$here/main.go" "$tmp/src/"
(cd "$tmp/src" && GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/wg113" main.go)
pids=()
for v in 126 113; do
	suffix=""; [[ $v == 113 ]] && suffix="-go113"
	for m in stuck healthy; do
		dir=$repo/testdata/verdicts/go-wg-$m$suffix
		mkdir -p "$dir"
		"$tmp/wg$v" -mode "$m" -out "$dir" &
		pids+=($!)
	done
done
for p in "${pids[@]}"; do wait "$p"; done
gzip -9f "$repo"/testdata/verdicts/go-wg-*/[123].txt
