#!/usr/bin/env bash
# Regenerates testdata/verdicts/shapes-wg-pipeline*/ from pipeline/main.go here (stdlib only):
# built by the installed Go (1.26) and by Go 1.13.15 (GOENV=off GO111MODULE=off, from the
# module cache as gen.sh fetches it), CGO_ENABLED=0; -mode leak (and -mode done for the
# healthy twin, Go 1.26 only). Once its 40 requests are answered, curl fetches debug=2
# (N.txt.gz) and debug=1 (into the -debug1 folder) from its net/http/pprof on 127.0.0.1 at
# three moments 3 s apart. The READMEs are written by hand; this script does not touch them.
# Usage: bash testdata/gen/verdicts-goshapes/gen-pipeline.sh   (~25 s)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d /tmp/dumpdiff-pipeline.XXXXXX)
pid=
trap '[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
cp "$here/pipeline/main.go" "$tmp/"
(cd "$tmp" && CGO_ENABLED=0 GOFLAGS= go build -o "$tmp/pipeline" main.go)
(cd "$tmp" && CGO_ENABLED=0 GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/pipeline-go113" main.go)
run() { # BIN MODE DEBUG2-FOLDER DEBUG1-FOLDER
	rm -f "$tmp/addr"
	"$1" -mode "$2" -addr-file "$tmp/addr" &
	pid=$!
	for _ in $(seq 300); do [[ -s $tmp/addr ]] && break; sleep 0.1; done
	local addr d2=$repo/testdata/verdicts/$3 d1=$repo/testdata/verdicts/$4
	addr=$(cat "$tmp/addr")
	mkdir -p "$d2" "$d1"
	for m in 1 2 3; do
		curl -sf "http://$addr/debug/pprof/goroutine?debug=2" | gzip -9n >"$d2/$m.txt.gz"
		curl -sf "http://$addr/debug/pprof/goroutine?debug=1" -o "$d1/$m.txt"
		[[ $m == 3 ]] || sleep 3
	done
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	echo "$3: $(head -1 "$d1/1.txt")" >&2
}
run "$tmp/pipeline" leak shapes-wg-pipeline shapes-wg-pipeline-debug1
run "$tmp/pipeline-go113" leak shapes-wg-pipeline-go113 shapes-wg-pipeline-debug1-go113
run "$tmp/pipeline" done shapes-wg-pipeline-done-healthy shapes-wg-pipeline-debug1-done-healthy
