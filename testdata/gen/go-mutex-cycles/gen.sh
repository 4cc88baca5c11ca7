#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-mutex-* and go-chan-ring* from main.go
# here (stdlib only), built by the installed Go (1.26) and by Go 1.13.15
# (the module proxy's toolchain, run without modules: GOENV=off
# GO111MODULE=off), with CGO_ENABLED=0, each run alone on 127.0.0.1:
#   - <fixture>/1.txt: Go 1.26, the program's own debug=2 dump 2 s after
#     start (every wait under a minute: no age printed);
#   - <fixture>-go113/sigquit.txt: Go 1.13, SIGQUIT (GOTRACEBACK=all) 2 s
#     after start, stderr;
#   - go-mutex-{transfer,lockorder}-minutes[-go113]/sigquit.txt: SIGQUIT
#     65 s after start, with -gc (the GC runs each second: waits of a
#     minute dated).
# The READMEs are written by hand, from the source, before dumpdiff runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
v=$repo/testdata/verdicts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
[[ -x $g13/bin/go ]] || { echo "no Go 1.13.15 toolchain in the module cache" >&2; exit 1; }
cp "$here/main.go" "$tmp/"
(cd "$tmp" && CGO_ENABLED=0 GOFLAGS= go build -o "$tmp/p-126" main.go)
(cd "$tmp" && CGO_ENABLED=0 GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/p-113" main.go)
quit() { # binary mode seconds out [flags]
	GOTRACEBACK=all "$1" -mode "$2" "${@:5}" 2>"$4" &
	local pid=$!
	sleep "$3"
	kill -QUIT $pid
	wait $pid || true
}
for pair in transfer:go-mutex-transfer-stuck lockorder:go-mutex-lockorder-stuck ordered:go-mutex-ordered-healthy \
	turnover:go-mutex-turnover-healthy ring:go-chan-ring-stuck ringflow:go-chan-ringflow-healthy; do
	m=${pair%%:*} d=$v/${pair#*:}
	mkdir -p "$d" "$d-go113"
	"$tmp/p-126" -mode "$m" -out "$d/1.txt" -after 2s
	quit "$tmp/p-113" "$m" 2 "$d-go113/sigquit.txt"
done
mkdir -p "$v/go-mutex-transfer-minutes" "$v/go-mutex-lockorder-minutes-go113"
quit "$tmp/p-126" transfer 65 "$v/go-mutex-transfer-minutes/sigquit.txt" -gc &
quit "$tmp/p-113" lockorder 65 "$v/go-mutex-lockorder-minutes-go113/sigquit.txt" -gc &
wait
