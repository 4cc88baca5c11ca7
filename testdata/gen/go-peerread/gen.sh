#!/usr/bin/env bash
# Regenerates testdata/verdicts/go-peerread-* from main.go here (stdlib only), built by the
# installed Go (1.26), by Go 1.27.3 (GOTOOLCHAIN) and by Go 1.13.15 (GOENV=off, GO111MODULE=off),
# all from the module proxy's toolchains. Each mode is its own process on 127.0.0.1: the silent
# peer (accepts, reads the request, never answers) and the echo peer run beside the clients; a
# client is sent SIGQUIT 2 s after it printed "ready" (the -minutes cases 190 s after: the runtime
# prints a wait in minutes from one minute, counted from the first GC that saw the goroutine waiting,
# the one the runtime forces two minutes after the program's last: main.go collects once at start) and
# its traceback (stderr) is the dump. The healthy server is dumped while its idle client holds a
# kept-alive connection to each of its servers.
# ~3.5 min (MINUTES=0 skips the 190 s cases: ~15 s). The READMEs are written by hand, from the source,
# before dumpdiff ran.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
(cd "$here" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -o "$tmp/go126" .)
(cd "$here" && CGO_ENABLED=0 GOFLAGS=-mod=mod GOTOOLCHAIN=go1.27.3 go build -o "$tmp/go127" .)
GOENV=off GOTOOLCHAIN=go1.13.15 go version >/dev/null 2>&1 || true # fetches the toolchain
g13=$(ls -d "$(go env GOMODCACHE)"/golang.org/toolchain@v0.0.1-go1.13.15.linux-amd64 2>/dev/null | head -1)
[[ -x $g13/bin/go ]] || { echo "no Go 1.13.15 toolchain in the module cache" >&2; exit 1; }
mkdir -p "$tmp/src" && cp "$here/main.go" "$tmp/src/"
(cd "$tmp/src" && CGO_ENABLED=0 GOENV=off GO111MODULE=off GOFLAGS= "$g13/bin/go" build -o "$tmp/go113" main.go)

# wait_ready LOG: up to 10 s for a line starting "ready".
wait_ready() {
	for _ in $(seq 1 100); do
		grep -q '^ready' "$1" && return 0
		sleep 0.1
	done
	cat "$1" >&2
	return 1
}
# start LOG CMD...: runs CMD in the background, its stdout in LOG, until ready.
start() {
	local log=$1
	shift
	"$@" >"$log" 2>"$log.err" &
	pids+=($!)
	wait_ready "$log"
}
# dump CASE BIN SECONDS ARGS...: runs BIN ARGS, SIGQUIT SECONDS after ready,
# its traceback into testdata/verdicts/CASE/sigquit.txt.
dump() {
	local c=$1 bin=$2 after=$3
	shift 3
	local out=$repo/testdata/verdicts/$c
	mkdir -p "$out"
	"$tmp/$bin" "$@" >"$tmp/$c.log" 2>"$out/sigquit.txt" &
	local pid=$!
	pids+=($pid)
	wait_ready "$tmp/$c.log"
	sleep "$after"
	kill -QUIT "$pid"
	wait "$pid" 2>/dev/null || true
	grep -q '^goroutine 1 ' "$out/sigquit.txt" || { echo "$c: no traceback" >&2; exit 1; }
	echo "$c: $(grep -c '^goroutine ' "$out/sigquit.txt") goroutines" >&2
}
start "$tmp/silent.log" "$tmp/go126" -mode silent -addr 127.0.0.1:0
silent=$(awk '/^ready/{print $2}' "$tmp/silent.log")
start "$tmp/echo.log" "$tmp/go126" -mode echo -addr 127.0.0.1:0
echo=$(awk '/^ready/{print $2}' "$tmp/echo.log")

for v in 126 127 113; do
	suffix=""
	[[ $v != 126 ]] && suffix="-go$v"
	dump "go-peerread-main$suffix" "go$v" 2 -mode main -peer "$silent"
	dump "go-peerread-workers$suffix" "go$v" 2 -mode workers -peer "$silent"
	dump "go-peerread-poller-healthy$suffix" "go$v" 2 -mode poller -peer "$echo"
done
# The idle servers: dumped while their idle client holds a connection to each.
for v in 126 113; do
	suffix=""
	[[ $v != 126 ]] && suffix="-go$v"
	port=$((20000 + RANDOM % 20000))
	out=$repo/testdata/verdicts/go-peerread-server-idle-healthy$suffix
	mkdir -p "$out"
	"$tmp/go$v" -mode server -addr "127.0.0.1:$port" >"$tmp/server.log" 2>"$out/sigquit.txt" &
	spid=$!
	pids+=($spid)
	wait_ready "$tmp/server.log"
	start "$tmp/client.log" "$tmp/go126" -mode client-of -peer "127.0.0.1:$port"
	sleep 2
	kill -QUIT "$spid"
	wait "$spid" 2>/dev/null || true
	echo "go-peerread-server-idle-healthy$suffix: $(grep -c '^goroutine ' "$out/sigquit.txt") goroutines" >&2
done
if [[ ${MINUTES:-1} != 0 ]]; then
	dump go-peerread-workers-minutes go126 190 -mode workers -peer "$silent" &
	dump go-peerread-main-minutes-go113 go113 190 -mode main -peer "$silent"
	wait
fi
