#!/usr/bin/env bash
# Regenerates dumps/go126/dump.txt.gz and dumps/go113/dump.txt.gz: main.go
# here (an RPC client over a yamux stream whose server never replies)
# built by the installed Go (1.26, yamux v0.1.2, go-msgpack v0.5.5: go.mod)
# and by Go 1.13.15 (GOENV=off, yamux v0.0.0-20190923154419-df201c70410d,
# the same go-msgpack), both from the Go module proxy. Each runs for 8
# minutes, then SIGQUIT: its traceback of every goroutine (stderr) is the
# dump. The runtime prints a wait's age from one minute, stamped at the
# first GC after the wait began (main allocates a little every 100 ms, as
# a service does). Then paste.sh cuts the pastes.
# READMEs written by hand first.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$here" && go build -o "$tmp/y126" .)
mkdir -p "$tmp/src113" && cp "$here/main.go" "$tmp/src113/"
printf 'module yprog\n\ngo 1.13\n\nrequire (\n\tgithub.com/hashicorp/go-msgpack v0.5.5\n\tgithub.com/hashicorp/yamux v0.0.0-20190923154419-df201c70410d\n)\n' >"$tmp/src113/go.mod"
(cd "$tmp/src113" && GOENV=off GOTOOLCHAIN=go1.13.15 GOPATH="$tmp/gopath" go build -o "$tmp/y113" .)
pids=()
for v in 126 113; do
	mkdir -p "$here/dumps/go$v"
	"$tmp/y$v" >/dev/null 2>"$tmp/$v.err" &
	pids+=($!)
done
sleep 480
for p in "${pids[@]}"; do kill -QUIT "$p"; done
for p in "${pids[@]}"; do wait "$p" || true; done
for v in 126 113; do gzip -9c "$tmp/$v.err" >"$here/dumps/go$v/dump.txt.gz"; done
"$here/paste.sh"
