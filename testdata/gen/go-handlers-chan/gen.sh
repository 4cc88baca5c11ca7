#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-handlers-chan-* from main.go here (stdlib only), built by the
# installed Go (1.26) and, for -go113, by Go 1.13.15 (GOTOOLCHAIN=go1.13.15, run without modules),
# CGO_ENABLED=0. Each case runs the program with its -mode, waits 2 s for its 100 requests (or
# workers) to settle, and fetches with curl from its net/http/pprof on 127.0.0.1 one debug=1
# profile and cuts from it the fragment a person pastes: the header line and the one record of
# the goroutines the case is about (fragment.txt); the workers' whole profile (an idle server
# beside its idle workers) goes to go-handlers-chan-server-idle/whole.txt.
# The READMEs are written by hand from the source before dumpdiff runs; not touched here.
#
#   go-handlers-chan-send[-go113]   100 handlers sending on a channel nobody receives from
#   go-handlers-chan-recv           100 handlers receiving from a channel nobody sends on
#   go-handlers-chan-workers-idle   100 workers idle on their job channel (their record)
#   go-handlers-chan-server-idle    the same process whole: an idle server, 100 idle workers
#
# Usage: bash testdata/gen/go-handlers-chan/gen.sh [CASE...]   (default: all; ~5 s each)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-hchan.XXXXXX)
pid=
trap '[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
cases=("$@")
((${#cases[@]})) || cases=(go-handlers-chan-send go-handlers-chan-send-go113 go-handlers-chan-recv go-handlers-chan-workers-idle)
cp "$here/main.go" "$tmp/"
(cd "$tmp" && CGO_ENABLED=0 GOFLAGS= go build -o "$tmp/hchan" main.go)
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
if [[ -x $g13/bin/go ]]; then
	(cd "$tmp" && CGO_ENABLED=0 GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/hchan-go113" main.go)
fi
for c in "${cases[@]}"; do
	bin=$tmp/hchan mode=${c#go-handlers-chan-}
	if [[ $mode == *-go113 ]]; then bin=$tmp/hchan-go113 mode=${mode%-go113}; fi
	mode=${mode%-idle}
	d=$repo/testdata/verdicts/$c
	rm -f "$tmp/addr"
	"$bin" -mode "$mode" -addr-file "$tmp/addr" 2>/dev/null &
	pid=$!
	for _ in $(seq 300); do [[ -s $tmp/addr ]] && break; sleep 0.1; done
	sleep 2
	mkdir -p "$d"
	curl -sf "http://$(cat "$tmp/addr")/debug/pprof/goroutine?debug=1" -o "$tmp/whole.txt"
	if [[ $mode == workers ]]; then
		mkdir -p "$repo/testdata/verdicts/go-handlers-chan-server-idle"
		cp "$tmp/whole.txt" "$repo/testdata/verdicts/go-handlers-chan-server-idle/whole.txt"
	fi
	# The fragment: the header and the record whose frames hold the case's function.
	fn=main.enqueue; [[ $mode == recv ]] && fn=main.awaitResult; [[ $mode == workers ]] && fn=main.worker
	awk -v fn="$fn" 'NR==1{print; print ""; next} /^$/{if (keep) print rec; rec=""; keep=0; next} {rec=rec $0 "\n"; if (index($0, fn"+")) keep=1} END{if (keep) print rec}' "$tmp/whole.txt" > "$d/fragment.txt"
	kill -KILL "$pid"; wait "$pid" 2>/dev/null || true; pid=
done
