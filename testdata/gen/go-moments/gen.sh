#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-moments-*, go-waits-handlers*-moments*
# and go-paste-* from main.go here and ../go-waits/main.go (stdlib only),
# each built by the installed Go (1.26) and by Go 1.13.15 (from the module
# proxy, run without modules: GOENV=off GO111MODULE=off). Built with
# CGO_ENABLED=0.
#   - go-moments-{stuck,healthy}[-go113][-debug1]: dumps at 3, 8 and 13 s
#     (debug=2, or debug=1): every stall under a minute old (~15 s);
#   - go-waits-handlers[-healthy]-moments[-go113]: go-waits' handlers at 4,
#     9 and 14 s, gzipped;
#   - go-grep-*: grep -A/-B over committed dumps and the 330 s one;
#   - go-paste-*: one dump of go-moments -mode stuck at 330 s (a wait of 5
#     minutes printed), cut with awk to the goroutines each paste keeps
#     (~6 minutes).
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
for p in go-moments go-waits; do
	(cd "$here/../$p" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -o "$tmp/$p-126" .)
	mkdir -p "$tmp/src-$p" && cp "$here/../$p/main.go" "$tmp/src-$p/"
	(cd "$tmp/src-$p" && CGO_ENABLED=0 GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/$p-113" main.go)
done
for s in stuck healthy; do
	for ver in 126 113; do
		for dbg in 2 1; do
			d=$v/go-moments-$s
			[[ $ver == 113 ]] && d=$d-go113
			[[ $dbg == 1 ]] && d=$d-debug1
			mkdir -p "$d"
			"$tmp/go-moments-$ver" -mode "$s" -debug "$dbg" -out "$d" &
		done
	done
done
for m in handlers handlers-healthy; do
	for ver in 126 113; do
		d=$v/go-waits-$m-moments
		[[ $ver == 113 ]] && d=$d-go113
		mkdir -p "$d"
		"$tmp/go-waits-$ver" -mode "$m" -first 4s -out "$d" &
	done
done
wait
gzip -9nf "$v"/go-waits-handlers*-moments*/[123].txt
# One record per goroutine (a blank line ends each): the pastes.
cut() { awk -v pat="$2" 'BEGIN{RS="";ORS="\n\n"} $0 ~ pat' "$1"; }
first() { awk 'BEGIN{RS="";ORS="\n\n"} NR==1'; }
for ver in 126 113; do
	mkdir -p "$tmp/aged-$ver"
	"$tmp/go-moments-$ver" -mode stuck -first 330s -every 1s -out "$tmp/aged-$ver" &
done
wait
for ver in 126 113; do
	sfx=""; [[ $ver == 113 ]] && sfx=-go113
	src=$tmp/aged-$ver/1.txt
	mkdir -p "$v/go-paste-read-stuck$sfx" "$v/go-paste-receive-stuck$sfx" "$v/go-paste-rests-healthy$sfx"
	cut "$src" 'main.readReply' >"$v/go-paste-read-stuck$sfx/paste.txt"
	cut "$src" 'main.awaitSummary' >"$v/go-paste-receive-stuck$sfx/paste.txt"
	{
		cut "$src" 'main.idleWorker' | first
		cut "$src" 'persistConn..readLoop' | awk 'BEGIN{RS="";ORS="\n\n"} /IO wait, [0-9]+ minutes/' | first
		cut "$src" 'main.upstream.func1\\(' | first
	} >"$v/go-paste-rests-healthy$sfx/paste.txt"
done
# grep's output as a person pastes it (go-grep-*): over the committed
# dumps, and over the 330 s dump for the sends (their age printed).
grep -B3 -A3 'main.transfer' "$v/go-waits-cycles/1.txt" >"$v/go-grep-transfer-stuck/grep.txt"
grep -B3 -A3 'main.transfer' "$v/go-waits-cycles-go113/1.txt" >"$v/go-grep-transfer-stuck-go113/grep.txt"
grep -A3 '\[chan send' "$tmp/aged-126/1.txt" >"$v/go-grep-process-stuck/grep.txt"
grep -A3 '\[chan send' "$tmp/aged-113/1.txt" >"$v/go-grep-process-stuck-go113/grep.txt"
grep -B4 -A2 'net/http.(\*conn).serve' "$v/go-moments-healthy/1.txt" >"$v/go-grep-serve-healthy/grep.txt"
grep -B4 -A2 'net/http.(\*conn).serve' "$v/go-moments-healthy-go113/1.txt" >"$v/go-grep-serve-healthy-go113/grep.txt"
grep -B1 -A4 'main.ringWorker' "$v/go-moments-healthy/1.txt" >"$v/go-grep-ring-healthy/grep.txt"
