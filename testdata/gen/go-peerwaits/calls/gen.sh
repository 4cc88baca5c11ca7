#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-calls-{stuck,healthy}{,-go122,-go127} from
# main.go here (stdlib only), built by the installed Go (1.26), Go 1.22.10
# and Go 1.27.3 (GOTOOLCHAIN, from the module proxy). Each run writes its own
# debug=2 dumps at 75, 80 and 85 s (a housekeeping ticker allocates, so the
# runtime stamps each wait at once: they print 1 minute). ~1.5 minutes.
# The READMEs are written by hand, from the source, before dumpdiff ran.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here" && go build -o "$tmp/calls126" .)
(cd "$here" && GOTOOLCHAIN=go1.22.10 go build -o "$tmp/calls122" .)
(cd "$here" && GOTOOLCHAIN=go1.27.3 go build -o "$tmp/calls127" .)
pids=()
for v in 126 122 127; do
	suffix=""; [[ $v != 126 ]] && suffix="-go$v"
	for m in stuck healthy; do
		dir=$repo/testdata/verdicts/go-calls-$m$suffix
		mkdir -p "$dir"
		"$tmp/calls$v" -mode "$m" -out "$dir" &
		pids+=($!)
	done
done
for p in "${pids[@]}"; do wait "$p"; done
gzip -9f "$repo"/testdata/verdicts/go-calls-*/[123].txt
