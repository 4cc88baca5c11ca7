#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-peerwaits-* from main.go here, built by
# the installed Go (1.26) and by Go 1.27.3 (GOTOOLCHAIN, from the module
# proxy). Each mode runs as its own process on 127.0.0.1 and its debug=2
# goroutine dumps are fetched from its own net/http/pprof handler (the
# writer is in them): at 65, 70, 75 s (the runtime prints a wait in minutes
# from one minute) into go-peerwaits-<mode>[-go127]-1min, and at 370, 375,
# 380 s (past WorkRestMinutes) into go-peerwaits-<mode>[-go127]. ~6.5 min.
# The READMEs are written by hand, from the source, before dumpdiff ran.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
(cd "$here" && GOFLAGS=-mod=mod go build -o "$tmp/go126" .)
(cd "$here" && GOFLAGS=-mod=mod GOTOOLCHAIN=go1.27.3 go build -o "$tmp/go127" .)
fetch() { # url file
	curl -sf "$1" | gzip -9 >"$2"
}
for v in 126 127; do
	for m in stuck healthy; do
		suffix=""; [[ $v == 127 ]] && suffix="-go127"
		"$tmp/go$v" -mode "$m" >"$tmp/addr-$m-$v" &
		pids+=($!)
	done
done
sleep 2
start=$(date +%s)
at() { # wait until $1 seconds after start
	local now; now=$(date +%s)
	(( now - start < $1 )) && sleep $(( $1 - (now - start) ))
	return 0
}
take() { # n folder-suffix
	for v in 126 127; do
		for m in stuck healthy; do
			suffix=""; [[ $v == 127 ]] && suffix="-go127"
			dir=$repo/testdata/verdicts/go-peerwaits-$m$suffix$2
			mkdir -p "$dir"
			fetch "http://$(head -1 "$tmp/addr-$m-$v")/debug/pprof/goroutine?debug=2" "$dir/$1.txt.gz"
		done
	done
}
for i in 1 2 3; do at $((60 + 5 * i)); take "$i" -1min; done
for i in 1 2 3; do at $((365 + 5 * i)); take "$i" ""; done
