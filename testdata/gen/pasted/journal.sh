#!/usr/bin/env bash
# Run by gen.sh inside `unshare --mount`: a private journald (systemd-journald started by hand
# on a tmpfs /run, so nothing outside this mount namespace sees it) receives the output of the
# checkout programs through systemd-cat while another process ("cron") logs beside them, and
# journalctl prints it. Usage: journal.sh TMP (TMP holds the built programs; output goes there).
set -euo pipefail
tmp=$1
mount -t tmpfs dumpdiff-journal /run
mkdir -p /run/systemd/journal
/lib/systemd/systemd-journald >/dev/null 2>&1 &
journald=$!
noise=
app=
cleanup() {
	for p in $app $noise $journald; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 1 100); do [ -S /run/systemd/journal/stdout ] && break; sleep 0.05; done
[ -S /run/systemd/journal/stdout ] || { echo "journald did not start" >&2; exit 1; }

systemd-cat -t cron sh -c 'i=0; while :; do i=$((i+1)); echo "(root) CMD (run-parts /etc/cron.hourly) #$i"; sleep 0.002; done' &
noise=$!

# wait_ready IDENT: until the program's "ready" line is in the journal.
wait_ready() {
	for _ in $(seq 1 200); do
		journalctl -t "$1" -o cat --no-pager 2>/dev/null | grep -qx ready && return 0
		sleep 0.05
	done
	echo "$1 never logged ready" >&2
	exit 1
}

GOTRACEBACK=all systemd-cat -t checkout "$tmp/checkout" &
app=$!
wait_ready checkout
sleep 0.2
kill -QUIT "$app"
wait "$app" 2>/dev/null || true
app=

systemd-cat -t orders java -Xmx64m -cp "$tmp/java" com.example.checkout.CheckoutApp &
app=$!
wait_ready orders
sleep 0.2
kill -QUIT "$app"
sleep 0.5
kill "$app"
wait "$app" 2>/dev/null || true
app=
sleep 0.2
kill "$noise"
noise=
journalctl --sync 2>/dev/null || true

journalctl -t checkout -t cron -o short --no-pager >"$tmp/go-sigquit.journal-short.log"
journalctl -t checkout -t cron -o short-precise --no-pager >"$tmp/go-sigquit.journal-short-precise.log"
journalctl -t orders -t cron -o short --no-pager >"$tmp/jvm-kill3.journal-short.log"
journalctl -t orders -t cron -o short-iso --no-pager >"$tmp/jvm-kill3.journal-short-iso.log"
# What the journal holds of each program, raw (-o cat --all: the messages alone, TABs kept):
# the dump the short outputs above are compared with.
journalctl -t checkout -o cat --all --no-pager >"$tmp/go-sigquit.journal-cat.txt"
journalctl -t orders -o cat --all --no-pager >"$tmp/jvm-kill3.journal-cat.txt"
