#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-gone-* from main.go here (stdlib only),
# built by the installed Go (1.26) and by Go 1.13.15 (the module proxy's
# toolchain, run without modules: GOENV=off GO111MODULE=off), with
# CGO_ENABLED=0, each run alone on 127.0.0.1:
#   - debug=2 (or debug=1) dumps the program writes itself (-out, -n 2:
#     two moments 3 s apart, the first 2 s after start): <fixture>/1.txt, 2.txt;
#   - SIGQUIT (GOTRACEBACK=all) 2 s after start, stderr: <fixture>/sigquit.txt;
#   - go-gone-fetch-minutes-go113: SIGQUIT 65 s after start with -gc (the
#     runtime dates waits only after a GC saw them).
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
quit() { # binary out seconds args...
	local bin=$1 out=$2 secs=$3
	shift 3
	GOTRACEBACK=all "$bin" "$@" 2>"$out" &
	local pid=$!
	sleep "$secs"
	kill -QUIT $pid
	wait $pid || true
}
dumps() { # binary fixture args...
	local bin=$1 d=$v/$2
	shift 2
	mkdir -p "$d"
	rm -f "$d"/[0-9].txt
	"$bin" -out "$d/" -n 2 -every 3s "$@"
}
sig() { # binary fixture seconds args...
	local bin=$1 d=$v/$2 secs=$3
	shift 3
	mkdir -p "$d"
	quit "$bin" "$d/sigquit.txt" "$secs" "$@"
}
# 1. An AB-BA cycle beside a sleeper, and its healthy twins.
sig "$tmp/p-126" go-gone-sleepcycle 2 -mode sleepcycle
dumps "$tmp/p-126" go-gone-sleepcycle-debug2 -mode sleepcycle
sig "$tmp/p-113" go-gone-sleepcycle-go113 2 -mode sleepcycle -mainsleep
dumps "$tmp/p-113" go-gone-sleepcycle-debug2-go113 -mode sleepcycle -mainsleep
dumps "$tmp/p-126" go-gone-sleepflow-healthy -mode sleepflow
dumps "$tmp/p-113" go-gone-sleepflow-healthy-go113 -mode sleepflow
sig "$tmp/p-126" go-gone-contend-busy 2 -mode contend
dumps "$tmp/p-113" go-gone-contend-busy-go113 -mode contend
# 2. A receive whose producer returned, and its controls.
dumps "$tmp/p-126" go-gone-fetch -mode fetchgone
dumps "$tmp/p-113" go-gone-fetch-http-go113 -mode fetchgone -http
dumps "$tmp/p-126" go-gone-fetch-http-debug1 -mode fetchgone -http -debug 1
sig "$tmp/p-126" go-gone-fetch-cut 2 -mode fetchgone -http
dumps "$tmp/p-126" go-gone-fetchslow-bounded -mode fetchslow
dumps "$tmp/p-113" go-gone-fetchslow-bounded-go113 -mode fetchslow
dumps "$tmp/p-126" go-gone-poolidle-idle -mode poolidle
dumps "$tmp/p-113" go-gone-poolidle-idle-go113 -mode poolidle
# Requests from outside: six curl requests to the server on 127.0.0.1.
ext() { # binary fixture args...
	local bin=$1 d=$v/$2 port=18733
	shift 2
	mkdir -p "$d"
	rm -f "$d"/[0-9].txt
	"$bin" -out "$d/" -n 2 -every 3s -after 3s -listen 127.0.0.1:$port -selfclient=false "$@" &
	local pid=$!
	sleep 1
	for i in 0 1 2 3 4 5; do curl -s -m 20 "http://127.0.0.1:$port/fetch?id=$i" >/dev/null & done
	wait $pid
	wait || true
}
ext "$tmp/p-113" go-gone-fetch-ext-go113 -mode fetchgone -http
ext "$tmp/p-126" go-gone-fetch-ext -mode fetchgone -http
sig "$tmp/p-113" go-gone-fetch-minutes-go113 65 -mode fetchgone -gc
