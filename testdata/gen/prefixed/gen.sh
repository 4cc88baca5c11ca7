#!/usr/bin/env bash
# Regenerates testdata/prefixed/run-*: the two real dumps of testdata/gen/pasted (a Go
# program's SIGQUIT traceback, a Java 17 program's kill -3 thread dump), each run under a real
# tool that puts its own text before every line it prints, with another process's lines
# between them where the tool runs several:
#
#   concurrently (npm concurrently 10.0.7)   "[checkout] ", beside "[orders] "; once with colour
#   node-foreman (npm foreman 3.0.1, nf)     "HH:MM:SS checkout.1 |", beside "orders.1"
#   pm2 (npm pm2 7.0.4)                      pm2 logs --nostream: "0|checkout | "
#   ts (Debian moreutils 0.67)               "Dec 06 18:40:01 " (its default), and with a
#                                            layout "%Y-%m-%d %H:%M:%.S "
#   GNU parallel --tag (Debian 20221122)     "go\t" / "jvm\t"
#   cat -n, grep -n, grep -H (coreutils, GNU grep)
#                                            an editor's line numbers "    12\t", "12:",
#                                            a file name "checkout.log:"
#
#   shape-*.go.log                           the shape of a public log that could not be copied
#                                            (README.md), over testdata/pasted's Go dump
#
# Usage: testdata/gen/prefixed/gen.sh  (~1 min). Needs go, java, javac, npx tools in
# $NPM_BIN (default: node_modules/.bin of an `npm install concurrently@10.0.7 foreman@3.0.1
# pm2@7.0.4`), ts, parallel. Counts in README.md are made by grep (see there), not dumpdiff.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=$repo/testdata/prefixed
npm=${NPM_BIN:?set NPM_BIN to the node_modules/.bin holding concurrently, nf and pm2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$repo/testdata/gen/pasted/goapp" && go build -o "$tmp/checkout" .)
javac -d "$tmp/java" "$repo/testdata/gen/pasted/java/com/example/checkout/CheckoutApp.java"
one="$here/dumpone.sh"
other='for i in $(seq 1 40); do echo "GET /health 200 ${i}ms"; sleep 0.02; done'
mkdir -p "$out"

for kind in go jvm; do
	# concurrently: two commands, each line prefixed with its command's name.
	"$npm/concurrently" -n checkout,orders "$one $kind $tmp" "$other" >"$out/run-concurrently.$kind.log" 2>&1
	# ... coloured as on a terminal (FORCE_COLOR, chalk's switch).
	FORCE_COLOR=1 "$npm/concurrently" -n checkout,orders -c cyan,magenta "$one $kind $tmp" "$other" >"$out/run-concurrently-color.$kind.log" 2>&1
	# node-foreman: a Procfile of two processes.
	printf 'checkout: %s %s %s\norders: %s\n' "$one" "$kind" "$tmp" "$other" >"$tmp/Procfile"
	(cd "$tmp" && "$npm/nf" start -j Procfile >"$out/run-foreman.$kind.log" 2>&1) || true
	# pm2: the process run by pm2's daemon, its logs as pm2 prints them.
	export PM2_HOME=$tmp/pm2-$kind
	"$npm/pm2" start "$one" --name checkout --no-autorestart -- "$kind" "$tmp" >/dev/null
	for _ in $(seq 1 60); do # until the process has ended, then a moment for the log files
		pid=$("$npm/pm2" pid checkout 2>/dev/null || true)
		[ -z "$pid" ] || [ "$pid" = 0 ] && break
		sleep 0.5
	done
	sleep 1
	"$npm/pm2" logs checkout --nostream --lines 5000 >"$tmp/pm2.out" 2>&1
	"$npm/pm2" kill >/dev/null
	unset PM2_HOME
	# pm2 prints each log file's tail under a header line; the lines are kept as it prints them.
	cp "$tmp/pm2.out" "$out/run-pm2.$kind.log"
	# ts: each line stamped as it arrives, both streams.
	"$one" "$kind" "$tmp" 2>&1 | ts >"$out/run-ts.$kind.log"
	"$one" "$kind" "$tmp" 2>&1 | ts '%Y-%m-%d %H:%M:%.S' >"$out/run-ts-layout.$kind.log"
	# GNU parallel --tag: the argument before each line.
	parallel --will-cite --tag --line-buffer "$one" '{}' "$tmp" ::: "$kind" >"$out/run-parallel-tag.$kind.log" 2>&1
	# An editor's or a pager's copy: the log file, numbered or found by grep.
	"$one" "$kind" "$tmp" >"$tmp/checkout.log" 2>&1
	cat -n "$tmp/checkout.log" >"$out/run-cat-n.$kind.log"
	grep -n '' "$tmp/checkout.log" >"$out/run-grep-n.$kind.log"
	(cd "$tmp" && grep -H '' checkout.log) >"$out/run-grep-H.$kind.log"
done
# The shapes of public logs that cannot be copied here (README.md: their sources), each over
# testdata/pasted's Go dump, with the source's own quirks.
go=$repo/testdata/pasted/go-sigquit.stderr.txt
# Terraform's remote-exec provisioner: every line of the remote command's output after the
# resource's name; the blank lines of the output left blank.
awk '{ if ($0 == "") print ""; else print "null_resource.build_dcos (remote-exec): " $0 }' "$go" >"$out/shape-terraform-remote-exec.go.log"
# A GitHub Actions job log (each line after its time, 7 fraction digits) as a log viewer
# shows it: the line's number, right-aligned, before it.
awk 'BEGIN { t = 15.1455272 } { printf "%7d 2021-09-15T07:40:%010.7fZ %s\n", 618282 + NR, t, $0; t += 0.0000591 }' "$go" >"$out/shape-gha-lineno.go.log"
echo "wrote $out/run-*; now update the counts in $out/README.md (grep, as it says)" >&2
