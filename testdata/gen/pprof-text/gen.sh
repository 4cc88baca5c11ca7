#!/bin/sh
# Regenerates testdata/pprof-text: go tool pprof's text reports of real
# goroutine profiles. mutexpile.go (40 goroutines waiting for a mutex that
# one goroutine holds while it sleeps, 7 on a channel nobody sends on)
# writes its own profile (debug=0); testdata/go/go1.26.8-debug0.pb.gz is a
# committed profile of a real Go 1.26 program. Each gets -traces (and
# -traces -lines), -top, -tree and -peek, as `go tool pprof` of the Go on
# PATH prints them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../pprof-text"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/mutexpile.go" "$tmp/main.go"
printf 'module mutexpile\ngo 1.22\n' >"$tmp/go.mod"
(cd "$tmp" && go build -o mutexpile . && ./mutexpile)
report() { # name profile
	go tool pprof -traces "$2" >"$out/$1.traces.txt" 2>/dev/null
	go tool pprof -traces -lines "$2" >"$out/$1.traces-lines.txt" 2>/dev/null
	go tool pprof -top "$2" >"$out/$1.top.txt" 2>/dev/null
	go tool pprof -tree "$2" >"$out/$1.tree.txt" 2>/dev/null
	go tool pprof -peek 'main\.' "$2" >"$out/$1.peek.txt" 2>/dev/null
}
report mutexpile "$tmp/goroutine.pb.gz"
report go1.26.8-debug0 "$here/../../go/go1.26.8-debug0.pb.gz"
