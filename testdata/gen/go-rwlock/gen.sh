#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-rwlock-* from main.go here (stdlib only),
# built by the installed Go (1.26), by Go 1.13.15 (from the module proxy,
# run without modules: GOENV=off GO111MODULE=off) and by Go 1.27.3 (the
# toolchain module, for the -go127 folders), CGO_ENABLED=0:
#   - go-rwlock-{self,selfrw,nested,readerheld,readerheldfn,readerok}[-go113]:
#     the program's own debug=2 dumps at 3, 8 and 13 s (no wait age
#     printed: every wait under a minute);
#   - go-rwlock-{self,nested}-sigquit[-go113]: one SIGQUIT at 65 s (the
#     program runs the GC each second, so the runtime dates the waits)
#     (GOTRACEBACK default), stderr: a stuck wait prints its minute.
# The READMEs are written by hand, from the source.
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
GOTOOLCHAIN=go1.27.3 go version >/dev/null 2>&1 || true # fetches the toolchain
g127=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.27.3.linux-amd64 2>/dev/null | head -1)
[[ -x $g127/bin/go ]] || { echo "no Go 1.27.3 toolchain in the module cache" >&2; exit 1; }
(cd "$tmp" && CGO_ENABLED=0 GOFLAGS= "$g127/bin/go" build -o "$tmp/p-127" main.go)
for m in self selfrw nested readerheldfn readerok; do
	d=$v/go-rwlock-$m-go127
	mkdir -p "$d"
	rm -f "$d"/*.txt
	"$tmp/p-127" -mode $m -out "$d" &
done
for ver in 126 113; do
	sfx=""; [[ $ver == 113 ]] && sfx=-go113
	for m in self selfrw nested readerheld readerheldfn readerok; do
		d=$v/go-rwlock-$m$sfx
		mkdir -p "$d"
		rm -f "$d"/*.txt
		"$tmp/p-$ver" -mode $m -out "$d" &
	done
	for m in self nested; do
		d=$v/go-rwlock-$m-sigquit$sfx
		mkdir -p "$d"
		(
			"$tmp/p-$ver" -mode $m -at 600 2>"$d/sigquit.txt" &
			pid=$!
			sleep 65
			kill -QUIT $pid
			wait $pid || true
		) &
	done
done
wait
