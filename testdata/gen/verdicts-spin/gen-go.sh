#!/usr/bin/env bash
# Regenerates the Go runaway-goroutine fixtures of testdata/verdicts/ (issue 27) from go/
# (module verdictsspin, stdlib only), built with the installed Go and run on 127.0.0.1:
#
#   go-spin-mutex/  `verdictsspin spin`: 1.txt and 2.txt are /debug/pprof/goroutine?debug=2
#                   GAP s apart (default 10), 3-sigquit.txt the program's stderr after
#                   SIGQUIT (GOTRACEBACK unset: all goroutines), right after 2.txt
#   go-spin-spinlock/ `verdictsspin spinlock` built with Go 1.27.3 (GOTOOLCHAIN=go1.27.3):
#                   debug=2 twice GAP s apart, then SIGQUIT, as go-spin-mutex
#   go-busy-service/ `verdictsspin busy` (healthy control): three debug=2 dumps GAP s apart
#
# Each README.md says, from the source, what dumpdiff must conclude, then grep counts.
# Every process started here is killed on exit. Usage: bash gen-go.sh [CASE...] (~30 s).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out_root=$(cd "$here/../../verdicts" && pwd)
GAP=${GAP:-10}
tmp=$(mktemp -d /tmp/dumpdiff-verdicts-spin-go.XXXXXX)
pid=
cleanup() {
	if [[ -n $pid ]]; then kill -KILL "$pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

(cd "$here/go" && GOTOOLCHAIN=local go build -o "$tmp/verdictsspin-local" .)
(cd "$here/go" && GOTOOLCHAIN=go1.27.3 go build -o "$tmp/verdictsspin-go1.27.3" .)
version=$(GOTOOLCHAIN=local go env GOVERSION)
prog=$tmp/verdictsspin-local

# start MODE: runs the program, sets pid and BASE.
start() {
	"$prog" -addr-file "$tmp/addr" "$1" 2>"$tmp/stderr.txt" &
	pid=$!
	local i
	for i in $(seq 100); do
		[[ -s $tmp/addr ]] && break
		sleep 0.1
	done
	[[ -s $tmp/addr ]] || { cat "$tmp/stderr.txt" >&2; exit 1; }
	BASE=http://$(cat "$tmp/addr")
	rm -f "$tmp/addr"
}
fetch() { curl -fsS --max-time 20 "$BASE/debug/pprof/goroutine?debug=2" -o "$1"; }

# states and state_table: the counts the READMEs hold.
. "$here/../go-states.sh"

go_spin_mutex() {
	local d=$tmp/go-spin-mutex
	mkdir -p "$d"
	start spin
	sleep 2
	fetch "$d/1.txt"
	sleep "$GAP"
	fetch "$d/2.txt"
	kill -QUIT "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	cp "$tmp/stderr.txt" "$d/3-sigquit.txt"
	{
		cat <<'T'
# go-spin-mutex

Issue 27 (runaway threads), Go: `verdictsspin spin` (`testdata/gen/verdicts-spin/go/main.go`).

## What dumpdiff must conclude (from the source)

**spinning** (critical): the first `quote` goroutine takes the price cache's `sync.Mutex` in
`priceCache.get` and retries `priceCache.load` (pure CPU, always false: the feed never comes
back) in a loop with no back-off, holding the mutex. Go prints no CPU time per goroutine: the
evidence is that the same goroutine is `running`/`runnable` in `get`/`load` at every moment
(in the SIGQUIT dump its top frames are the runtime's async preemption, `runtime.asyncPreempt`).
The five other `quote` goroutines are blocked in `sync.Mutex.Lock` from `priceCache.get`
(at its Lock call): contention on that mutex, whose holder is the spinning goroutine (the one in
`get` past its Lock call), one story.

## How it was made

`bash testdata/gen/verdicts-spin/gen-go.sh go-spin-mutex`: the program, built with
T
		printf '%s, ran `verdictsspin -addr-file F spin`; 1.txt is `curl $BASE/debug/pprof/goroutine?debug=2` 2 s after it\n' "$version"
		printf 'listened, 2.txt the same %s s later, then `kill -QUIT PID`: 3-sigquit.txt is its stderr.\n\n' "$GAP"
		printf '## Counts (grep over the dumps)\n\n'
		state_table "$d/1.txt" "$d/2.txt" "$d/3-sigquit.txt"
		printf '\nGoroutines in `main.(*priceCache).get` (`grep -c "^main.(\\*priceCache).get("`): %s, %s, %s.\n' \
			"$(grep -c '^main.(\*priceCache).get(' "$d/1.txt")" "$(grep -c '^main.(\*priceCache).get(' "$d/2.txt")" "$(grep -c '^main.(\*priceCache).get(' "$d/3-sigquit.txt")"
	} >"$d/README.md"
	rm -rf "${out_root:?}/go-spin-mutex"
	mv "$d" "$out_root/"
	log "go-spin-mutex written"
}

go_spin_spinlock() {
	local d=$tmp/go-spin-spinlock
	mkdir -p "$d"
	prog=$tmp/verdictsspin-go1.27.3
	start spinlock
	sleep 2
	fetch "$d/1.txt"
	sleep "$GAP"
	fetch "$d/2.txt"
	kill -QUIT "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	prog=$tmp/verdictsspin-local
	cp "$tmp/stderr.txt" "$d/3-sigquit.txt"
	{
		cat <<'T'
# go-spin-spinlock

Issue 27 (runaway threads), Go: `verdictsspin spinlock` (`testdata/gen/verdicts-spin/go/main.go`),
built with Go 1.27.3.

## What dumpdiff must conclude (from the source)

**spinning** (warning: nothing in the dump waits on them): the journal's hand-rolled
`spinLock` was taken by `flush`, whose error path returned without `Unlock`; the four
`writer` goroutines (created by `main.spinlock`) each spin for ever in `spinLock.Lock`, a
compare-and-swap retried with no back-off and no yield, under `journal.append`. Go prints no
CPU time: the evidence is the same four goroutines `running`/`runnable` in
`main.(*spinLock).Lock` at every moment. The holder is gone (its goroutine returned), so no
goroutine shows holding the lock, and none waits on a lock or channel for the writers.

## How it was made

`bash testdata/gen/verdicts-spin/gen-go.sh go-spin-spinlock`: the program, built with
T
		printf 'go1.27.3 (GOTOOLCHAIN=go1.27.3), ran `verdictsspin -addr-file F spinlock`; 1.txt is `curl $BASE/debug/pprof/goroutine?debug=2`\n'
		printf '2 s after it listened, 2.txt the same %s s later, then `kill -QUIT PID`: 3-sigquit.txt is its stderr.\n\n' "$GAP"
		printf '## Counts (grep over the dumps)\n\n'
		state_table "$d/1.txt" "$d/2.txt" "$d/3-sigquit.txt"
		printf '\nGoroutines in `main.(*spinLock).Lock` (`grep -c "^main.(\\*spinLock).Lock"`): %s, %s, %s.\n' \
			"$(grep -c '^main.(\*spinLock).Lock' "$d/1.txt")" "$(grep -c '^main.(\*spinLock).Lock' "$d/2.txt")" "$(grep -c '^main.(\*spinLock).Lock' "$d/3-sigquit.txt")"
	} >"$d/README.md"
	rm -rf "${out_root:?}/go-spin-spinlock"
	mv "$d" "$out_root/"
	log "go-spin-spinlock written"
}

go_busy_service() {
	local d=$tmp/go-busy-service
	mkdir -p "$d"
	start busy
	sleep 2
	fetch "$d/1.txt"
	sleep "$GAP"
	fetch "$d/2.txt"
	sleep "$GAP"
	fetch "$d/3.txt"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	{
		cat <<'T'
# go-busy-service

Issue 27 (runaway threads), Go healthy control: `verdictsspin busy`
(`testdata/gen/verdicts-spin/go/main.go`).

## What dumpdiff must conclude (from the source)

**healthy** (no hang): a service busy with CPU work that finishes. `/score` computes SHA-256
rounds for 20 ms a request; four client goroutines call it, each pausing 80 ms between calls
(kept-alive connections: the server's connection goroutines live on, in `IO wait` between
requests); three workers take jobs from a channel every 40 ms and compute 10 ms each. Any
goroutine may be caught `running`/`runnable` in a digest, but none computes all the time.

## How it was made

`bash testdata/gen/verdicts-spin/gen-go.sh go-busy-service`: the program, built with
T
		printf '%s, ran `verdictsspin -addr-file F busy`; 1.txt, 2.txt, 3.txt are `curl $BASE/debug/pprof/goroutine?debug=2`\n' "$version"
		printf '2 s after it listened and then every %s s.\n\n## Counts (grep over the dumps)\n\n' "$GAP"
		state_table "$d/1.txt" "$d/2.txt" "$d/3.txt"
	} >"$d/README.md"
	rm -rf "${out_root:?}/go-busy-service"
	mv "$d" "$out_root/"
	log "go-busy-service written"
}

cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=(go-spin-mutex go-spin-spinlock go-busy-service)
for c in "${cases[@]}"; do
	case $c in
	go-spin-mutex) go_spin_mutex ;;
	go-spin-spinlock) go_spin_spinlock ;;
	go-busy-service) go_busy_service ;;
	*) log "unknown case $c"; exit 2 ;;
	esac
done
