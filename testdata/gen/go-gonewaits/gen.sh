#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-gonewaits-* from main.go and weighted/
# here, built by the installed Go (1.26) and by Go 1.13.15 (the module
# proxy's toolchain, run without modules: GOENV=off GO111MODULE=off), with
# CGO_ENABLED=0, each run alone on 127.0.0.1 (weighted/ needs
# golang.org/x/sync from the module proxy, and Go 1.26 only):
#   - two debug=2 dumps over its net/http/pprof endpoint, 2 s after start
#     and 3 s later: <fixture>/1.txt, 2.txt; for sendleak, six requests
#     to /fetch before each (6, then 12 senders left);
#   - go-gonewaits-sendleak-minutes: six requests, a GC (/gc) 5 s after,
#     and SIGQUIT (GOTRACEBACK=all) 65 s after start, stderr: sigquit.txt.
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
(cd "$here/weighted" && CGO_ENABLED=0 GOFLAGS= go build -o "$tmp/weighted" .)
port=$((27000 + RANDOM % 2000)) # a free range: other programs on this host listen on 1879x
up() { # port: wait for the server
	for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$1/debug/pprof/" && return 0; sleep 0.1; done
	echo "server on $1 did not start" >&2; return 1
}
fetches() { # port
	for i in 0 1 2 3 4 5; do curl -s -m 5 -o /dev/null "http://127.0.0.1:$1/fetch?id=$i"; done
}
dumps() { # binary fixture args...
	local bin=$1 d=$v/$2
	shift 2
	port=$((port + 1))
	mkdir -p "$d"
	rm -f "$d"/[0-9].txt
	"$bin" -listen 127.0.0.1:$port "$@" &
	local pid=$!
	up $port
	[[ " $* " == *" sendleak "* ]] && fetches $port
	sleep 2
	curl -s "http://127.0.0.1:$port/debug/pprof/goroutine?debug=2" >"$d/1.txt"
	[[ " $* " == *" sendleak "* ]] && fetches $port
	sleep 3
	curl -s "http://127.0.0.1:$port/debug/pprof/goroutine?debug=2" >"$d/2.txt"
	kill $pid
	wait $pid || true
}
minutes() { # binary fixture port
	local bin=$1 d=$v/$2 port=$3
	mkdir -p "$d"
	GOTRACEBACK=all "$bin" -listen 127.0.0.1:$port -mode sendleak 2>"$d/sigquit.txt" &
	local pid=$!
	up $port
	fetches $port
	sleep 5
	curl -s -o /dev/null "http://127.0.0.1:$port/gc"
	sleep 60
	curl -s -o /dev/null "http://127.0.0.1:$port/gc"
	kill -QUIT $pid
	wait $pid || true
}
minutes "$tmp/p-126" go-gonewaits-sendleak-minutes $((port + 100)) &
mpid=$!
# 1. Senders whose receiver returned, and a pipeline whose receivers live.
dumps "$tmp/p-126" go-gonewaits-sendleak -mode sendleak
dumps "$tmp/p-113" go-gonewaits-sendleak-go113 -mode sendleak
dumps "$tmp/p-126" go-gonewaits-sendok-healthy -mode sendok
dumps "$tmp/p-113" go-gonewaits-sendok-healthy-go113 -mode sendok
dumps "$tmp/p-126" go-gonewaits-sendokloop-healthy -mode sendokloop
dumps "$tmp/p-113" go-gonewaits-sendokloop-healthy-go113 -mode sendokloop
# 2. A sync.Cond nobody signals, and one a ticker broadcasts.
dumps "$tmp/p-126" go-gonewaits-condstuck -mode condstuck
dumps "$tmp/p-113" go-gonewaits-condstuck-go113 -mode condstuck
dumps "$tmp/p-126" go-gonewaits-condok-healthy -mode condok
dumps "$tmp/p-113" go-gonewaits-condok-healthy-go113 -mode condok
# 3. Semaphores whose holders never finish, and ones whose holders turn over.
dumps "$tmp/p-126" go-gonewaits-chansem -mode chansem
dumps "$tmp/p-113" go-gonewaits-chansem-go113 -mode chansem
dumps "$tmp/p-126" go-gonewaits-chansemok-healthy -mode chansemok
dumps "$tmp/p-113" go-gonewaits-chansemok-healthy-go113 -mode chansemok
dumps "$tmp/weighted" go-gonewaits-weighted -mode stuck
dumps "$tmp/weighted" go-gonewaits-weightedok-healthy -mode ok
# 4. A go test timeout: the test waits for a collector whose workers block
# in their sends (the package collect/, its own module; -timeout 3s).
gotest() { # go-binary fixture: the package as collect, in GOPATH/src for Go 1.13
	local gobin=$1 d=$v/$2
	mkdir -p "$d"
	rm -rf "$tmp/gopath"
	mkdir -p "$tmp/gopath/src"
	cp -r "$here/collect" "$tmp/gopath/src/collect"
	(cd "$tmp/gopath/src/collect" && CGO_ENABLED=0 GOFLAGS= GOPATH="$tmp/gopath" "$gobin" test -count=1 -timeout 3s . >"$tmp/test.out" 2>&1) || true
	# go test's own trailer ("FAIL\tcollect\t3.05s", "FAIL") is no part of the panic.
	sed -e '/^FAIL\(\t.*\)\?$/d' -e '/^exit status /d' "$tmp/test.out" >"$d/test.txt"
}
gotest go go-gonewaits-testtimeout
GOENV=off GO111MODULE=off gotest "$g13/bin/go" go-gonewaits-testtimeout-go113
wait $mpid
# Paths in the dumps name this worktree: keep them as printed.
