#!/usr/bin/env bash
# Regenerates the rest-state leak fixtures from restleak (main.go here, stdlib only,
# written for Go 1.13): real dumps of real runtimes, fetched with curl from
# net/http/pprof on 127.0.0.1.
#
#   verdicts/go113-select-leak/   restleak leak, Go 1.13.15 (no parent ids): 100 GET
#                                 /subscribe at t0, 100 more at ~65 s, moment 1
#                                 once both waves print minutes, 100 more, moment 2
#                                 60 s later                                 ~3.5 min
#   verdicts/go113-busy-healthy/  restleak busy, Go 1.13.15: 1000 held /events
#   verdicts/go-busy-healthy/     the same, Go 1.26 (the installed go)      ~2 min each
#
# Each moment is debug=2 (gzipped: thousands of goroutines), debug=1 and the proto,
# fetched one after the other. 50 keep-alive clients send GET /api/work every 250 ms
# throughout (the ordinary, short-lived work). The Go 1.13.15 toolchain comes from
# the module cache (GOTOOLCHAIN=go1.13.15 fetches it) and runs without modules and
# without the machine's go env (GOENV=off).
#
# Usage (from the repo root): bash testdata/gen/go-rest-leak/gen.sh [leak|busy113|busy]...
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(cd "$here/../../verdicts" && pwd)
tmp=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
log() { printf '%s %s\n' "$(date +%T)" "$*" >&2; }
die() { log "gen.sh: $*"; exit 1; }

GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
[[ -x $g13/bin/go ]] || die "no Go 1.13.15 toolchain in the module cache"
(cd "$here" && GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/restleak-go113" main.go)
(cd "$here" && GOTOOLCHAIN=local GO111MODULE=off GOFLAGS= go build -o "$tmp/restleak-local" main.go)

# start NAME BIN MODE: runs the server, sets BASE.
start() {
	local name=$1 bin=$2 mode=$3 i
	"$bin" "$mode" -addr-file "$tmp/$name.addr" 2>"$tmp/$name.log" &
	pids+=($!)
	for i in $(seq 100); do [ -s "$tmp/$name.addr" ] && break; sleep 0.1; done
	[ -s "$tmp/$name.addr" ] || die "$name did not start"
	BASE=http://$(cat "$tmp/$name.addr")
}
fetch() { curl -fsS --max-time 60 "$1/debug/pprof/goroutine?debug=$2" -o "$3"; }
# moment BASE DIR N: N.txt.gz (debug=2), N-debug1.txt, N.pb.gz.
moment() {
	fetch "$1" 2 "$2/$3.txt"
	fetch "$1" 1 "$2/$3-debug1.txt"
	fetch "$1" 0 "$2/$3.pb.gz"
	gzip -9nf "$2/$3.txt"
	log "moment $3 in $2"
}
# count FILE ERE: headers or lines matching ERE in a (gzipped) debug=2 dump.
count() { zcat -f "$1" | grep -cE "$2" || true; }
# poll BASE DESC TIMEOUT CMD: fetches debug=2 into $tmp/poll.txt until CMD succeeds.
poll() {
	local base=$1 desc=$2 end=$((SECONDS + $3))
	log "waiting for: $desc"
	until fetch "$base" 2 "$tmp/poll.txt" && eval "$4"; do
		((SECONDS < end)) || die "timed out: $desc"
		sleep 2
	done
	log "reached: $desc"
}

leak() {
	local d=$out/go113-select-leak
	mkdir -p "$d"
	start leak "$tmp/restleak-go113" leak
	"$tmp/restleak-go113" clients -base "$BASE" -n 50 -path /api/work -period 250ms 2>/dev/null &
	pids+=($!)
	"$tmp/restleak-go113" fire -base "$BASE" -n 100 >"$tmp/fire1.log"
	sleep 65
	"$tmp/restleak-go113" fire -base "$BASE" -n 100 >"$tmp/fire2.log"
	poll "$BASE" "200 watchers, 100 of them at 2 minutes, 100 at 1" 120 \
		'[[ $(grep -c "^main.(\*hub).watch(" $tmp/poll.txt) == 200 && $(grep -cE "^goroutine [0-9]+ \[select, 2 minutes\]:" $tmp/poll.txt) -ge 100 && $(grep -cE "^goroutine [0-9]+ \[select, 1 minutes\]:" $tmp/poll.txt) -ge 100 ]]'
	moment "$BASE" "$d" 1
	"$tmp/restleak-go113" fire -base "$BASE" -n 100 >"$tmp/fire3.log"
	sleep 60
	moment "$BASE" "$d" 2
	cat "$tmp"/fire*.log >"$tmp/fire.log"
	kill -KILL "${pids[@]}" 2>/dev/null || true
	pids=()
}

busy() { # busy NAME BIN
	local d=$out/$1
	mkdir -p "$d"
	start "$1" "$2" busy
	"$2" clients -base "$BASE" -n 1000 -path /events -period 0 2>/dev/null &
	pids+=($!)
	"$2" clients -base "$BASE" -n 50 -path /api/work -period 250ms 2>/dev/null &
	pids+=($!)
	poll "$BASE" "1000 event streams, 1000 heartbeats, workers idle a minute" 150 \
		'[[ $(grep -c "^main.(\*events).handleEvents(" $tmp/poll.txt) == 1000 && $(grep -c "^main.heartbeat(" $tmp/poll.txt) == 1000 && $(grep -cE "^goroutine [0-9]+ \[select, 1 minutes\]:" $tmp/poll.txt) -ge 12 ]]'
	moment "$BASE" "$d" 1
	sleep 30
	moment "$BASE" "$d" 2
	kill -KILL "${pids[@]}" 2>/dev/null || true
	pids=()
}

[ $# -gt 0 ] || set -- leak busy113 busy
for what in "$@"; do
	case $what in
	leak) leak ;;
	busy113) busy go113-busy-healthy "$tmp/restleak-go113" ;;
	busy) busy go-busy-healthy "$tmp/restleak-local" ;;
	*) die "unknown fixture $what" ;;
	esac
done
