#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-lookups-{stuck,healthy}/1..3.txt from main.go here (Go 1.26,
# CGO_ENABLED=1, GODEBUG=netdns=cgo for the default resolver; one resolver PreferGo), each mode in
# its own mount namespace (unshare -m, as root) whose /etc/resolv.conf names only 127.0.0.1
# (options timeout:30 attempts:5), where the program's own DNS server listens on port 53: no name
# leaves the machine. The two modes run one after the other (both bind 127.0.0.1:53); each writes
# its own dumps at 65, 70, 75 s. ~2.5 min. The READMEs are written by hand, from the source,
# before dumpdiff ran.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$here" && CGO_ENABLED=1 go build -o "$tmp/lookups" main.go)
printf 'nameserver 127.0.0.1\noptions timeout:30 attempts:5\n' >"$tmp/resolv.conf"
for m in stuck healthy; do
	dir=$repo/testdata/verdicts/go-lookups-$m
	mkdir -p "$dir"
	GODEBUG=netdns=cgo unshare -m sh -c "mount --bind $tmp/resolv.conf /etc/resolv.conf && exec $tmp/lookups -mode $m -out $dir" &
	pid=$!
	wait "$pid"
	pid=
done
