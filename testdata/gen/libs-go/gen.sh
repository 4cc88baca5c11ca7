#!/usr/bin/env bash
# Regenerates testdata/libs/go-*/: real goroutine dumps, written by the real Go
# runtime, of small programs (one main package per case here, one module,
# go.mod "libsgo") that use real libraries from the Go module proxy against
# real servers: PostgreSQL 15 and redis-server, each a private instance on
# 127.0.0.1 and a free port, started here and stopped on exit.
#
#   go-database-sql/    database/sql + pgx stdlib, 4 conns: 4 in pg_sleep, 20 waiting
#   go-pgxpool/         pgxpool MaxConns 3: 3 in pg_sleep, 12 in Acquire (puddle)
#   go-redis/           go-redis v9 PoolSize 3: 3 in BLPOP, 12 waiting for a pool turn
#   go-redigo/          redigo Pool MaxActive 3, Wait: 3 in BLPOP, 10 waiting
#   go-grpc/            grpc-go: 15 unary calls and 1 server stream waiting, server never answers
#   go-http-maxconns/   net/http MaxConnsPerHost 2: 2 requests in flight, 15 waiting for a conn
#   go-rwmutex/         sync.RWMutex held for writing (8 RLock, 3 Lock) and for reading (2 Lock)
#   go-generics/        generic workers (main.worker[...]); also a Go 1.27.3 dump
#
# Each program serves net/http/pprof on 127.0.0.1 and writes its address to
# the file named by -addr-file. The script polls /debug/pprof/goroutine?debug=2
# until the case's state is reached (no blind sleeps), then fetches with curl
#   1.txt (debug=2), 1-debug1.txt (debug=1), 1.pb.gz (debug=0), right after
#   one another (the same moment), and 2.txt (debug=2) 3 s later,
# checks the state again in 2.txt, and writes the folder's README.md with the
# goroutine counts from grep/awk over the committed files (never from
# dumpdiff). Every process it starts is killed on exit, and the PostgreSQL
# cluster is stopped and deleted.
#
# Usage (from the repo root or anywhere): bash testdata/gen/libs-go/gen.sh [CASE]...
#   (no argument: every case; CASE is a folder name without "go-")
# Needs: go (1.26; Go 1.27.3 comes through GOTOOLCHAIN=go1.27.3 for
# go-generics), curl, redis-server and redis-cli, PostgreSQL 15 in
# /usr/lib/postgresql/15/bin, run as root (PostgreSQL runs as user postgres).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$here/../../libs"
out=$(cd "$here/../../libs" && pwd)
tmp=$(mktemp -d)
PG_BIN=/usr/lib/postgresql/15/bin
pids=()
pg_dir=
PG_DSN=
REDIS_ADDR=
stop_all() {
	local p
	for p in "${pids[@]}"; do
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	pids=()
}
cleanup() {
	stop_all
	if [ -n "$pg_dir" ]; then
		su postgres -c "$PG_BIN/pg_ctl -D $pg_dir/data -m immediate -w stop" >/dev/null 2>&1 || true
		rm -rf "$pg_dir"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$here"
v126=$(GOTOOLCHAIN=local go env GOVERSION)
v127=go1.27.3

log() { printf '%s %s\n' "$(date +%T)" "$*" >&2; }
die() {
	log "gen.sh: $*"
	exit 1
}

# free_port: a TCP port on 127.0.0.1 that nothing listens on.
free_port() {
	local p i
	for i in $(seq 50); do
		p=$((20000 + RANDOM % 30000))
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || {
			echo "$p"
			return
		}
	done
	die "no free port"
}

# build TOOLCHAIN PROG: builds ./PROG with TOOLCHAIN (local or go1.27.3) into
# $tmp/PROG-TOOLCHAIN.
build() {
	GOTOOLCHAIN=$1 go build -o "$tmp/$2-$1" "./$2"
}

# start NAME CMD...: runs `CMD... -addr-file $tmp/NAME.addr` in the background
# (stderr to $tmp/NAME.log) and sets BASE once the program wrote its address.
start() {
	local name=$1 i
	shift
	rm -f "$tmp/$name.addr"
	"$@" -addr-file "$tmp/$name.addr" 2>"$tmp/$name.log" &
	pids+=($!)
	for i in $(seq 300); do
		[ -s "$tmp/$name.addr" ] && break
		kill -0 "${pids[-1]}" 2>/dev/null || break
		sleep 0.1
	done
	[ -s "$tmp/$name.addr" ] || {
		cat "$tmp/$name.log" >&2
		die "$name did not start"
	}
	BASE=http://$(cat "$tmp/$name.addr")
}

# start_postgres: a private PostgreSQL 15 cluster (trust auth, user postgres)
# on 127.0.0.1 and a free port, once; sets PG_DSN.
start_postgres() {
	[ -n "$PG_DSN" ] && return
	local port
	port=$(free_port)
	pg_dir=$(mktemp -d /tmp/libsgo-pg.XXXXXX)
	chown postgres: "$pg_dir"
	su postgres -c "cd /tmp && $PG_BIN/initdb -D $pg_dir/data -A trust -U postgres" >"$tmp/initdb.log" 2>&1 ||
		die "initdb failed: $(cat "$tmp/initdb.log")"
	su postgres -c "cd /tmp && $PG_BIN/pg_ctl -D $pg_dir/data -l $pg_dir/server.log -w start \
		-o '-p $port -k $pg_dir -c listen_addresses=127.0.0.1 -c max_connections=20'" >/dev/null ||
		die "postgres did not start: $(cat "$pg_dir/server.log")"
	PG_DSN="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
	log "postgres on 127.0.0.1:$port"
}

# start_redis: a private redis-server on 127.0.0.1 and a free port, once;
# sets REDIS_ADDR.
start_redis() {
	[ -n "$REDIS_ADDR" ] && return
	local port i
	port=$(free_port)
	redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no >"$tmp/redis.log" 2>&1 &
	pids+=($!)
	for i in $(seq 100); do
		[ "$(redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null)" = PONG ] && break
		sleep 0.1
	done
	[ "$(redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null)" = PONG ] || die "redis-server did not start: $(cat "$tmp/redis.log")"
	REDIS_ADDR=127.0.0.1:$port
	log "redis-server on $REDIS_ADDR"
}

# fetch DEBUG FILE: /debug/pprof/goroutine?debug=DEBUG of $BASE into FILE.
fetch() {
	curl -fsS --max-time 20 "$BASE/debug/pprof/goroutine?debug=$1" -o "$2"
}

# holds FILE AWK: AWK, run over the debug=2 dump FILE with one goroutine per
# record (RS=""), exits 0.
holds() { awk 'BEGIN { RS = "" } '"$2" "$1"; }

# poll DESC TIMEOUT-S AWK: fetches the debug=2 dump every 0.2 s until
# `holds` it with AWK.
poll() {
	local desc=$1 end=$((SECONDS + $2)) prog=$3
	log "waiting for: $desc"
	until fetch 2 "$tmp/poll.txt" && holds "$tmp/poll.txt" "$prog"; do
		((SECONDS < end)) || die "timed out waiting for: $desc"
		sleep 0.2
	done
	log "reached: $desc"
}

# capture DIR AWK: 1.txt, 1-debug1.txt and 1.pb.gz right after one another,
# then 2.txt 3 s later; both debug=2 dumps must still hold AWK.
capture() {
	local d=$1 prog=$2 f
	rm -f "$d"/*.txt "$d"/*.pb.gz
	fetch 2 "$d/1.txt"
	fetch 1 "$d/1-debug1.txt"
	fetch 0 "$d/1.pb.gz"
	sleep 3
	fetch 2 "$d/2.txt"
	for f in 1.txt 2.txt; do
		holds "$d/$f" "$prog" || die "$d/$f: the state was left"
	done
	log "$(basename "$d"): $(grep -c '^goroutine ' "$d/1.txt") and $(grep -c '^goroutine ' "$d/2.txt") goroutines"
}

# states and state_table: the counts the READMEs hold.
. "$here/../go-states.sh"

# count FILE NAME...: how many goroutines of FILE have every function NAME on
# their stack (NAME is exact, as debug=2 prints it, without arguments; a NAME
# ending in "[" matches any instantiation: debug=2 and debug=1 print
# "main.f[...]", the proto "main.f[go.shape.string]"). By the file's name:
#   *.pb.gz        one trace of `go tool pprof -traces` per stack, weighted
#                  by its count;
#   *-debug1.txt   one record (`N @ pcs` and its `#` lines) per stack,
#                  weighted by N;
#   else (debug=2) one record per goroutine, weight 1.
count() {
	local f=$1 mode=2
	shift
	case $f in
	*.pb.gz) mode=0 ;;
	*-debug1.txt) mode=1 ;;
	esac
	{
		if [ "$mode" = 0 ]; then
			go tool pprof -traces "$f" 2>/dev/null | awk '/^-+\+/ { printf "\n\n"; next } { print }'
		else
			cat "$f"
		fi
	} | awk -v mode="$mode" -v names="$(printf '%s\n' "$@")" '
		BEGIN {
			RS = ""
			n = split(names, name, "\n")
			for (i = 1; i <= n; i++) {
				re = name[i]
				open = re ~ /\[$/
				gsub(/[][\\.()*+?{}|^$]/, "\\\\&", re)
				# a frame name: after the line start or a tab/space, before
				# "(" (debug=2), "+0x" (debug=1), " (inline)" or the end
				# of the line (proto).
				pat[i] = "(^|[\n\t ])" re (open ? "" : "([(+\n ]|$)")
			}
		}
		# debug=1: the first record starts with the "goroutine profile: total N" line.
		mode == 1 && /^goroutine profile:/ { sub(/^[^\n]*\n/, "") }
		{
			for (i = 1; i <= n; i++) if ($0 !~ pat[i]) next
			if (mode == 2) t++
			else if (mode == 1) t += $1
			else t += $1 # first line of a trace: COUNT FUNCTION
		}
		END { print t + 0 }'
}

# role_table FILES -- "LABEL|NAME[&&NAME...]"...: Markdown table, one row per
# role, one column per file, each cell `count FILE NAME...`.
role_table() {
	local files=() spec f n names
	while [ "$1" != -- ]; do
		files+=("$1")
		shift
	done
	shift
	printf '| goroutines with all these functions on their stack | role |'
	for f in "${files[@]}"; do printf ' %s |' "$(basename "$f")"; done
	printf '\n|---|---|'
	for f in "${files[@]}"; do printf -- '---:|'; done
	echo
	for spec; do
		names=()
		while IFS= read -r n; do names+=("$n"); done < <(printf "%s\n" "${spec#*|}" | sed "s/&&/\n/g")
		printf '| %s | %s |' "$(printf '`%s` ' "${names[@]}" | sed 's/ $//')" "${spec%%|*}"
		for f in "${files[@]}"; do printf ' %s |' "$(count "$f" "${names[@]}")"; done
		echo
	done
}

# pb_total FILE: the goroutines in a debug=0 profile, summed from
# `go tool pprof -raw`.
pb_total() {
	go tool pprof -raw "$1" 2>/dev/null |
		awk '/^Samples:/ { s = 1; next } s && /^ *[0-9]+:/ { sub(":", "", $1); t += $1 } /^Locations/ { s = 0 } END { print t + 0 }'
}

# versions MODULE...: "MODULE VERSION" of each, from go.mod's build list.
versions() {
	local m
	for m; do go list -m -f '`{{.Path}} {{.Version}}`' "$m"; done | paste -sd, - | sed 's/,/, /g'
}

# write_readme CASE DESC COMMAND ROLE...: testdata/libs/go-CASE/README.md with
# DESC (Markdown: what runs), COMMAND (how the program was started) and the
# counts: header states by grep, and each ROLE (see role_table) in every file.
write_readme() {
	local c=$1 desc=$2 cmd=$3 d=$out/go-$1
	shift 3
	local files=("$d/1.txt" "$d/2.txt") all=("$d/1.txt" "$d/2.txt" "$d/1-debug1.txt" "$d/1.pb.gz")
	[ -e "$d/2-go1.27.txt" ] && files+=("$d/2-go1.27.txt") && all+=("$d/2-go1.27.txt")
	{
		cat <<MD
# go-$c

Real goroutine dumps, written by the Go ${v126#go} runtime, of
\`testdata/gen/libs-go/$c/main.go\` (module \`libsgo\`, \`testdata/gen/libs-go/go.mod\`).
Everything listens on 127.0.0.1.

| file | what | when |
|---|---|---|
| \`1.txt\` | \`/debug/pprof/goroutine?debug=2\` | once the state below is reached |
| \`1-debug1.txt\` | \`?debug=1\` (one \`N @ PCs\` record per distinct stack: no wait state, no arguments, no \`created by\` line) | right after \`1.txt\` |
| \`1.pb.gz\` | \`?debug=0\` (the gzipped profile.proto; read with \`go tool pprof -traces\`) | right after \`1-debug1.txt\` |
| \`2.txt\` | \`?debug=2\` | 3 s after \`1.pb.gz\` |
MD
		[ -e "$d/2-go1.27.txt" ] && echo "| \`2-go1.27.txt\` | \`?debug=2\` of the same program built with Go ${v127#go} | another run, once the same state is reached |"
		cat <<MD

## What the program does

$desc

## How it was made

\`bash testdata/gen/libs-go/gen.sh ${c}\` (from the repo root), which runs, in
\`testdata/gen/libs-go\`:

\`\`\`
$cmd
\`\`\`

then polls \`curl -fsS http://ADDR/debug/pprof/goroutine?debug=2\` every 0.2 s until the
state above is reached, and fetches \`?debug=2 -o 1.txt\`, \`?debug=1 -o 1-debug1.txt\`,
\`?debug=0 -o 1.pb.gz\`, \`sleep 3\`, \`?debug=2 -o 2.txt\`; the state is checked again in both
debug=2 dumps.

## Counts (grep and awk over the files, not dumpdiff)

Header states, \`sed -nE 's/^goroutine [0-9]+ \\[(.*)\\]:\$/\\1/p' F | grep -cxF STATE\`:

$(state_table "${files[@]}")

Goroutines by role, in every encoding: a goroutine (debug=2), a \`N @\` record weighted by N
(debug=1) or a trace of \`go tool pprof -traces\` weighted by its count (proto) is counted when
every listed function is one of its frames (\`count\` in \`gen.sh\`; a name ending in \`[\`
matches any instantiation of a generic function):

$(role_table "${all[@]}" -- "$@")

\`1-debug1.txt\`: $(sed -n '1s/.*total //p' "$d/1-debug1.txt") goroutines (its \`goroutine profile: total\` line) in
$(grep -c '^[0-9]* @ ' "$d/1-debug1.txt") records; \`1.pb.gz\`: $(pb_total "$d/1.pb.gz") goroutines (sum of the sample values of
\`go tool pprof -raw 1.pb.gz\`).
MD
	} >"$d/README.md"
}

# run_case CASE AWK CMD...: starts CMD (the built program and its flags),
# polls for AWK, captures into testdata/libs/go-CASE and stops CMD.
run_case() {
	local c=$1 prog=$2
	shift 2
	mkdir -p "$out/go-$c"
	start "$c" "$@"
	poll "$c" 60 "$prog"
	capture "$out/go-$c" "$prog"
	stop_all_but_servers
}

# stop_all_but_servers kills the case's program (the last started).
stop_all_but_servers() {
	local last=${pids[-1]}
	kill -KILL "$last" 2>/dev/null || true
	wait "$last" 2>/dev/null || true
	unset 'pids[-1]'
}

gen_database-sql() {
	local c=database-sql prog
	start_postgres
	build local $c
	prog='
		/^goroutine [0-9]+ \[IO wait\]:/ && /\nmain\.query\(/ && /pgproto3\.\(\*Frontend\)\.Receive\(/ && /created by main\.startHolders / { h++ }
		/^goroutine [0-9]+ \[select\]:/ && /\ndatabase\/sql\.\(\*DB\)\.conn\(/ && /created by main\.runQueries / { w++ }
		END { exit !(h == 4 && w == 20) }'
	run_case $c "$prog" "$tmp/$c-local" -dsn "$PG_DSN"
	write_readme $c "$(
		cat <<MD
Libraries: $(versions github.com/jackc/pgx/v5), over database/sql; server: PostgreSQL
$("$PG_BIN/postgres" --version | awk '{print $3}'), a private cluster (see \`start_postgres\` in \`gen.sh\`).

- \`sql.Open("pgx", DSN)\` (\`github.com/jackc/pgx/v5/stdlib\`) with \`db.SetMaxOpenConns(4)\`.
- **Holders (4):** \`main.startHolders\` starts 4 \`main.query\` goroutines, each
  \`db.QueryRowContext(ctx, "SELECT pg_sleep(60)::text")\` with a 5-minute context deadline.
  Each holds a connection and waits for the server's answer in a socket read under pgx:
  \`[IO wait]\`, \`net.(*conn).Read\` ← \`pgconn/internal/bgreader.(*BGReader).Read\` ← …
  \`pgproto3.(*Frontend).Receive\` ← \`pgconn.(*PgConn).receiveMessage\` ← …
  \`pgx/v5.(*Conn).Query\` ← \`pgx/v5/stdlib.(*Conn).QueryContext\` ← \`database/sql.ctxDriverQuery\`
  ← … \`database/sql.(*DB).QueryContext\` ← \`database/sql.(*DB).QueryRowContext(...)\` (inlined) ←
  \`main.query\`. main waits until \`db.Stats().InUse\` is 4.
- **Waiters (20):** then \`main.runQueries\` starts 20 more \`main.query\` goroutines with the same
  query; each waits for a connection in \`[select]\` in \`database/sql.(*DB).conn\` ←
  \`database/sql.(*DB).query\` ← … \`database/sql.(*DB).QueryContext\`.
- database/sql's own \`database/sql.(*DB).connectionOpener\` (\`[select]\`, created by
  \`database/sql.OpenDB\`); main serving net/http/pprof (\`[IO wait]\` in \`Accept\`); the dump
  request itself (\`[running]\` \`runtime/pprof.writeGoroutineStacks\`, and its connection's
  \`net/http.(*connReader).backgroundRead\`, \`[IO wait]\`, or caught in the read syscall,
  \`[running]\`/\`[runnable]\`).
MD
	)" "GOTOOLCHAIN=local go build -o PROG ./$c
PROG -addr-file ADDR -dsn 'postgres://postgres@127.0.0.1:PGPORT/postgres?sslmode=disable'" \
		"holders|main.query&&net.(*conn).Read&&github.com/jackc/pgx/v5/pgproto3.(*Frontend).Receive" \
		"waiters|main.query&&database/sql.(*DB).conn" \
		"database/sql opener|database/sql.(*DB).connectionOpener"
}

gen_pgxpool() {
	local c=pgxpool prog
	start_postgres
	build local $c
	prog='
		/^goroutine [0-9]+ \[IO wait\]:/ && /\nmain\.query\(/ && /pgproto3\.\(\*Frontend\)\.Receive\(/ && /created by main\.startHolders / { h++ }
		/^goroutine [0-9]+ \[select\]:/ && /\ngithub\.com\/jackc\/pgx\/v5\/pgxpool\.\(\*Pool\)\.Acquire\(/ && /created by main\.runQueries / { w++ }
		END { exit !(h == 3 && w == 12) }'
	run_case $c "$prog" "$tmp/$c-local" -dsn "$PG_DSN"
	write_readme $c "$(
		cat <<MD
Libraries: $(versions github.com/jackc/pgx/v5 github.com/jackc/puddle/v2 golang.org/x/sync); server:
PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}'), a private cluster (see \`start_postgres\` in \`gen.sh\`).

- \`pgxpool.NewWithConfig\` with \`MaxConns = 3\`.
- **Holders (3):** \`main.startHolders\` starts 3 \`main.query\` goroutines, each
  \`pool.QueryRow(ctx, "SELECT pg_sleep(60)::text").Scan\` with a 5-minute context deadline. Each
  holds a connection and waits in a socket read: \`[IO wait]\`, \`net.(*conn).Read\` ←
  \`pgconn/internal/bgreader.(*BGReader).Read\` ← … \`pgproto3.(*Frontend).Receive\` ← … 
  \`pgx/v5.(*Conn).Query\` ← \`pgx/v5.(*Conn).QueryRow(...)\` (inlined) ←
  \`pgxpool.(*Conn).QueryRow\` ← \`pgxpool.(*Pool).QueryRow\` ← \`main.query\`. main waits until
  \`pool.Stat().AcquiredConns()\` is 3.
- **Waiters (12):** then \`main.runQueries\` starts 12 more \`main.query\` goroutines with the same
  query; each waits in \`[select]\` in \`golang.org/x/sync/semaphore.(*Weighted).Acquire\` ←
  \`github.com/jackc/puddle/v2.(*Pool[...]).acquire\` ← \`puddle/v2.(*Pool[...]).Acquire\` (a
  generic type: debug=2 and debug=1 print \`Pool[...]\`) ← \`pgxpool.(*Pool).Acquire\` ←
  \`pgxpool.(*Pool).QueryRow\`.
- pgxpool's own \`pgxpool.(*Pool).backgroundHealthCheck\` (\`[select]\`); main serving
  net/http/pprof (\`[IO wait]\` in \`Accept\`); the dump request itself.
MD
	)" "GOTOOLCHAIN=local go build -o PROG ./$c
PROG -addr-file ADDR -dsn 'postgres://postgres@127.0.0.1:PGPORT/postgres?sslmode=disable'" \
		"holders|main.query&&net.(*conn).Read&&github.com/jackc/pgx/v5/pgproto3.(*Frontend).Receive" \
		"waiters|main.query&&github.com/jackc/pgx/v5/pgxpool.(*Pool).Acquire&&golang.org/x/sync/semaphore.(*Weighted).Acquire" \
		"health check|github.com/jackc/pgx/v5/pgxpool.(*Pool).backgroundHealthCheck"
}

gen_redis() {
	local c=redis prog
	start_redis
	build local $c
	prog='
		/^goroutine [0-9]+ \[IO wait\]:/ && /\nmain\.consume\(/ && /\nnet\.\(\*conn\)\.Read\(/ && /created by main\.startConsumers / { h++ }
		/^goroutine [0-9]+ \[select\]:/ && /\ngithub\.com\/redis\/go-redis\/v9\/internal\/pool\.\(\*ConnPool\)\.waitTurn\(/ && /created by main\.runCommands / { w++ }
		END { exit !(h == 3 && w == 12) }'
	run_case $c "$prog" "$tmp/$c-local" -redis "$REDIS_ADDR"
	write_readme $c "$(
		cat <<MD
Library: $(versions github.com/redis/go-redis/v9); server: $(redis-server --version | awk '{print $1, $3}'), a private
instance (\`--bind 127.0.0.1 --save '' --appendonly no\`). go-redis speaks RESP3 to it (\`HELLO 3\`,
its default).

- \`redis.NewClient\` with \`PoolSize: 3\` and \`PoolTimeout: 10 * time.Minute\` (the default,
  ReadTimeout + 1 s = 4 s, would make the waiters fail and leave).
- **Holders (3):** \`main.startConsumers\` starts 3 \`main.consume\` goroutines, each
  \`BLPOP jobs:empty 0\` (\`rdb.BLPop(ctx, 0, ...)\`, no timeout) on a key nobody pushes to. Each
  holds a pool connection and waits in a socket read: \`[IO wait]\`, \`net.(*conn).Read\` ←
  \`bufio.(*Reader).fill\` ← \`bufio.(*Reader).Peek\` ←
  \`go-redis/v9/internal/proto.(*Reader).PeekReplyType\` ←
  \`go-redis/v9/push.(*Processor).processPendingNotifications\` (with RESP3 go-redis peeks for
  push notifications before reading the reply, and that peek is where it blocks) ← … 
  \`go-redis/v9/internal/pool.(*Conn).WithReader\` ← … \`go-redis/v9.(*baseClient)._process\` ← … 
  \`go-redis/v9.cmdable.BLPop\` ← \`main.consume\`. main waits until \`PoolStats()\` shows 3
  connections and none idle.
- **Waiters (12):** then \`main.runCommands\` starts 12 \`main.get\` goroutines (\`GET cache:I\`);
  each waits for a pool turn in \`[select]\` in \`go-redis/v9/internal.(*FastSemaphore).Acquire\`
  ← \`go-redis/v9/internal/pool.(*ConnPool).waitTurn\` ← \`(*ConnPool).getConn\` ←
  \`(*ConnPool).Get\` ← \`go-redis/v9.(*baseClient)._getConn\` ← … \`go-redis/v9.cmdable.Get(...)\`
  (inlined) ← \`main.get\`.
- main serving net/http/pprof (\`[IO wait]\` in \`Accept\`); the dump request itself. go-redis
  starts no goroutine of its own here.
MD
	)" "GOTOOLCHAIN=local go build -o PROG ./$c
PROG -addr-file ADDR -redis 127.0.0.1:REDISPORT" \
		"holders|main.consume&&net.(*conn).Read&&github.com/redis/go-redis/v9.cmdable.BLPop" \
		"waiters|main.get&&github.com/redis/go-redis/v9/internal/pool.(*ConnPool).waitTurn&&github.com/redis/go-redis/v9/internal.(*FastSemaphore).Acquire"
}

gen_redigo() {
	local c=redigo prog
	start_redis
	build local $c
	prog='
		/^goroutine [0-9]+ \[IO wait\]:/ && /\nmain\.consume\(/ && /\nnet\.\(\*conn\)\.Read\(/ && /created by main\.startConsumers / { h++ }
		/^goroutine [0-9]+ \[select\]:/ && /\ngithub\.com\/gomodule\/redigo\/redis\.\(\*Pool\)\.waitVacantConn\(/ && /created by main\.runCommands / { w++ }
		END { exit !(h == 3 && w == 10) }'
	run_case $c "$prog" "$tmp/$c-local" -redis "$REDIS_ADDR"
	write_readme $c "$(
		cat <<MD
Library: $(versions github.com/gomodule/redigo); server: $(redis-server --version | awk '{print $1, $3}'), a private
instance (\`--bind 127.0.0.1 --save '' --appendonly no\`).

- \`redis.Pool{MaxActive: 3, MaxIdle: 3, Wait: true, Dial: redis.Dial("tcp", ADDR)}\`.
- **Holders (3):** \`main.startConsumers\` starts 3 \`main.consume\` goroutines, each
  \`pool.GetContext(ctx)\` then \`c.Do("BLPOP", "jobs:empty", 0)\` (no timeout) on a key nobody
  pushes to. Each waits in a socket read: \`[IO wait]\`, \`net.(*conn).Read\` ←
  \`bufio.(*Reader).fill\` ← \`bufio.(*Reader).ReadSlice\` ← \`redigo/redis.(*conn).readLine\` ←
  \`(*conn).readReply\` ← \`(*conn).DoWithTimeout\` ← \`(*conn).Do\` ← \`redigo/redis.(*activeConn).Do\`
  ← \`main.consume\`. main waits until \`pool.Stats()\` shows 3 active connections and none idle.
- **Waiters (10):** then \`main.runCommands\` starts 10 \`main.get\` goroutines (\`GET cache:I\`);
  each waits for a connection in \`[select]\` in \`redigo/redis.(*Pool).waitVacantConn\` ←
  \`redigo/redis.(*Pool).GetContext\` ← \`main.get\`.
- main serving net/http/pprof (\`[IO wait]\` in \`Accept\`); the dump request itself. redigo
  starts no goroutine of its own here.
MD
	)" "GOTOOLCHAIN=local go build -o PROG ./$c
PROG -addr-file ADDR -redis 127.0.0.1:REDISPORT" \
		"holders|main.consume&&net.(*conn).Read&&github.com/gomodule/redigo/redis.(*conn).readReply" \
		"waiters|main.get&&github.com/gomodule/redigo/redis.(*Pool).waitVacantConn"
}

gen_grpc() {
	local c=grpc prog
	build local $c
	prog='
		/^goroutine [0-9]+ \[select\]:/ && /\ngoogle\.golang\.org\/grpc\/internal\/transport\.\(\*ClientStream\)\.waitOnHeader\(/ && /\nmain\.call\(/ && /created by main\.runCalls / { u++ }
		/^goroutine [0-9]+ \[select\]:/ && /\ngoogle\.golang\.org\/grpc\.\(\*clientStream\)\.RecvMsg\(/ && /\nmain\.watch\(/ { s++ }
		/^goroutine [0-9]+ \[chan receive\]:/ && /\nmain\.\(\*slowServer\)\.Get\(/ { g++ }
		/^goroutine [0-9]+ \[chan receive\]:/ && /\nmain\.\(\*slowServer\)\.Watch\(/ { wa++ }
		END { exit !(u == 15 && s == 1 && g == 15 && wa == 1) }'
	run_case $c "$prog" "$tmp/$c-local"
	write_readme $c "$(
		cat <<MD
Libraries: $(versions google.golang.org/grpc google.golang.org/protobuf golang.org/x/net). Server and client
are in the same process, so the dump holds both sides.

- **Server:** \`grpc.NewServer()\` with one hand-written service, \`dumpdiff.Slow\` (a
  \`grpc.ServiceDesc\` as protoc-gen-go-grpc would write it; messages are
  \`wrapperspb.StringValue\`, the default proto codec): the unary \`Get\` and the server-streaming
  \`Watch\`. Both handlers wait for their call's context to end, which never happens:
  \`[chan receive]\` in \`main.(*slowServer).Get\` ← \`main.init.func1\` (the method handler of the
  ServiceDesc) ← \`grpc.(*Server).register.(*Server).wrapUnaryHandler.func1\` ←
  \`grpc.(*Server).processRPC\` ← \`grpc.(*Server).handleStream\` ←
  \`grpc.(*Server).serveStreams.func2.1\` (15), and \`main.(*slowServer).Watch\` ←
  \`main.init.func2\` ← \`grpc.(*Server).processRPC\` ← … (1).
- **Client, unary (15):** \`grpc.NewClient("passthrough:///127.0.0.1:PORT", insecure)\`;
  \`main.runCalls\` starts 15 \`main.call\` goroutines, each
  \`cc.Invoke(context.Background(), "/dumpdiff.Slow/Get", ...)\` with no deadline, waiting for the
  reply: \`[select]\` in \`grpc/internal/transport.(*ClientStream).waitOnHeader\` ←
  \`(*ClientStream).RecvCompress(...)\` (inlined) ← \`grpc.(*csAttempt).recvMsg\` ←
  \`grpc.(*clientStream).RecvMsg.func1\` ← \`(*clientStream).withRetry\` ←
  \`grpc.(*clientStream).RecvMsg\` ← \`grpc.(*clientStreamWrapper).RecvMsg\` ← \`grpc.invoke\` ←
  \`grpc.(*ClientConn).Invoke\` ← \`main.call\`. (In this grpc-go the type is
  \`transport.(*ClientStream)\`, not \`transport.(*Stream)\` as in older releases.)
- **Client, server stream (1):** \`main.watch\` opens \`Watch\` (\`cc.NewStream\`, \`SendMsg\`,
  \`CloseSend\`) and waits in \`stream.RecvMsg\` for the first message: the same frames from
  \`waitOnHeader\` down to \`grpc.(*clientStreamWrapper).RecvMsg\`, then \`main.watch\`; beside it
  grpc's \`grpc.newClientStreamWithParams.func4\` (\`[select]\`, watching the stream's context).
- grpc's transport goroutines: per connection, both sides, \`transport.(*http2Client).reader\` and
  \`transport.(*http2Server).HandleStreams\` (\`[IO wait]\`, reading frames),
  \`transport.(*loopyWriter).run\` (\`[select]\` in \`(*controlBuffer).get\`),
  \`transport.(*http2Server).keepalive\` (\`[select]\`); \`grpc.(*Server).Serve\` in \`Accept\`;
  \`grpcsync.(*CallbackSerializer).run\` goroutines (\`[chan receive]\`) of the ClientConn.
- main serving net/http/pprof (\`[IO wait]\` in \`Accept\`); the dump request itself.
MD
	)" "GOTOOLCHAIN=local go build -o PROG ./$c
PROG -addr-file ADDR" \
		"unary calls waiting for the reply|main.call&&google.golang.org/grpc.(*ClientConn).Invoke&&google.golang.org/grpc/internal/transport.(*ClientStream).waitOnHeader" \
		"server stream waiting in RecvMsg|main.watch&&google.golang.org/grpc.(*clientStream).RecvMsg" \
		"server: unary handlers|main.(*slowServer).Get" \
		"server: stream handler|main.(*slowServer).Watch" \
		"stream context watcher|google.golang.org/grpc.newClientStreamWithParams.func4" \
		"transport readers|google.golang.org/grpc/internal/transport.(*framer).readFrame" \
		"loopy writers|google.golang.org/grpc/internal/transport.(*loopyWriter).run"
}

gen_http-maxconns() {
	local c=http-maxconns prog
	build local $c
	prog='
		/^goroutine [0-9]+ \[select\]:/ && /\nnet\/http\.\(\*persistConn\)\.roundTrip\(/ && /\nmain\.fetch\(/ { f++ }
		/^goroutine [0-9]+ \[select\]:/ && /\nnet\/http\.\(\*Transport\)\.getConn\(/ && /\nmain\.fetch\(/ { w++ }
		/^goroutine [0-9]+ \[chan receive\]:/ && /\nmain\.hang\(/ { h++ }
		END { exit !(f == 2 && w == 15 && h == 2) }'
	run_case $c "$prog" "$tmp/$c-local"
	write_readme $c "$(
		cat <<MD
Library: net/http of Go ${v126#go}. The slow upstream is an \`http.Server\` in the same process.

- **Upstream:** its handler, \`main.hang\`, waits for the request's context to end (when the
  client goes away, which it never does): \`[chan receive]\` in \`main.hang\` ←
  \`net/http.HandlerFunc.ServeHTTP\` ← \`net/http.serverHandler.ServeHTTP\` ←
  \`net/http.(*conn).serve\` (2), and each connection's \`net/http.(*connReader).backgroundRead\`
  (\`[IO wait]\`).
- **Client:** \`http.Client{Transport: &http.Transport{MaxConnsPerHost: 2}}\`, no \`Timeout\`.
  \`main.runRequests\` starts 17 \`main.fetch\` goroutines, each \`client.Get(UPSTREAM/items/I)\`.
  - **In flight (2):** waiting for the response headers: \`[select]\` in
    \`net/http.(*persistConn).roundTrip\` ← \`net/http.(*Transport).roundTrip\` ←
    \`net/http.(*Transport).RoundTrip\` ← \`net/http.send\` ← \`net/http.(*Client).send\` ←
    \`(*Client).do\` ← \`(*Client).Do\` ← \`(*Client).Get\` ← \`main.fetch\`; beside each, the
    connection's \`net/http.(*persistConn).readLoop\` (\`[IO wait]\`, in \`bufio.(*Reader).Peek\`)
    and \`net/http.(*persistConn).writeLoop\` (\`[select]\`).
  - **Waiting for a connection (15):** \`[select]\` in \`net/http.(*Transport).getConn\` ←
    \`net/http.(*Transport).roundTrip\` ← … the same frames ← \`main.fetch\` (queued by
    \`queueForDial\` in \`connsPerHostWait\`, which has returned; \`getConn\` waits on the wantConn).
- main serving net/http/pprof and the upstream's \`net/http.(*Server).Serve\` (both \`[IO wait]\`
  in \`Accept\`); the dump request itself.
MD
	)" "GOTOOLCHAIN=local go build -o PROG ./$c
PROG -addr-file ADDR" \
		"in flight, waiting for headers|main.fetch&&net/http.(*persistConn).roundTrip" \
		"waiting for a connection|main.fetch&&net/http.(*Transport).getConn" \
		"client conn read loops|net/http.(*persistConn).readLoop" \
		"client conn write loops|net/http.(*persistConn).writeLoop" \
		"upstream handlers|main.hang"
}

gen_rwmutex() {
	local c=rwmutex prog
	build local $c
	prog='
		/^goroutine [0-9]+ \[chan receive\]:/ && /\nmain\.\(\*cache\)\.refresh\(/ { h++ }
		/^goroutine [0-9]+ \[sync\.RWMutex\.RLock\]:/ && /\nmain\.\(\*cache\)\.get\(/ { r++ }
		/^goroutine [0-9]+ \[sync\.Mutex\.Lock\]:/ && /\nmain\.\(\*cache\)\.put\(/ { w++ }
		/^goroutine [0-9]+ \[chan receive\]:/ && /\nmain\.\(\*config\)\.snapshot\(/ { s++ }
		/^goroutine [0-9]+ \[sync\.RWMutex\.Lock\]:/ && /\nmain\.\(\*config\)\.reload\(/ { rl++ }
		/^goroutine [0-9]+ \[sync\.Mutex\.Lock\]:/ && /\nmain\.\(\*config\)\.reload\(/ { rm++ }
		END { exit !(h == 1 && r == 8 && w == 3 && s == 2 && rl == 1 && rm == 1) }'
	run_case $c "$prog" "$tmp/$c-local"
	local addrs
	addrs=$(sed -n 's/^rwmutex: //p' "$tmp/$c.log")
	write_readme $c "$(
		cat <<MD
Library: sync of Go ${v126#go}. The program printed: \`$addrs\`.

- **\`cache.mu\`, held for writing.** \`main.(*cache).refresh\` takes \`c.mu.Lock()\` and, while
  holding it, waits on a channel nobody sends on: \`[chan receive]\`, one frame
  \`main.(*cache).refresh\`, created by \`main.main\` (1). Then:
  - **8 readers:** \`main.(*cache).get\` (created by \`main.startReaders\`) in \`c.mu.RLock()\`:
    \`[sync.RWMutex.RLock]\`, \`sync.runtime_SemacquireRWMutexR\` ← \`sync.(*RWMutex).RLock(...)\`
    (inlined) ← \`main.(*cache).get\`.
  - **3 writers:** \`main.(*cache).put\` (created by \`main.startWriters\`) in \`c.mu.Lock()\`. The
    holder keeps the RWMutex's writer mutex (\`rw.w\`) until it unlocks, so all 3 wait on that
    inner \`sync.Mutex\`: header \`[sync.Mutex.Lock]\` (not \`sync.RWMutex.Lock\`),
    \`internal/sync.runtime_SemacquireMutex\` ← \`internal/sync.(*Mutex).lockSlow\` ←
    \`internal/sync.(*Mutex).Lock(...)\` ← \`sync.(*Mutex).Lock(...)\` ← \`sync.(*RWMutex).Lock\` ←
    \`main.(*cache).put\`.
- **\`config.mu\`, held for reading.** 2 \`main.(*config).snapshot\` goroutines (created by
  \`main.main\`) take \`c.mu.RLock()\` and wait on a channel that is never closed (\`[chan
  receive]\`). Then \`main.startReloaders\` starts 2 \`main.(*config).reload\` in \`c.mu.Lock()\`:
  - the first takes \`rw.w\` and waits for the readers to leave: \`[sync.RWMutex.Lock]\`,
    \`sync.runtime_SemacquireRWMutex\` ← \`sync.(*RWMutex).Lock\` ← \`main.(*config).reload\`;
  - the second waits on \`rw.w\`: \`[sync.Mutex.Lock]\`, the same frames as the cache writers
    down to \`sync.(*RWMutex).Lock\`, then \`main.(*config).reload\`.
- main serving net/http/pprof (\`[IO wait]\` in \`Accept\`); the dump request itself.
- Receivers: \`main.(*cache).get(ADDR, ...)\` and the others print the receiver, and the
  mutex is each struct's first field, so ADDR is the mutex address printed above.
MD
	)" "GOTOOLCHAIN=local go build -o PROG ./$c
PROG -addr-file ADDR" \
		"cache: write holder|main.(*cache).refresh" \
		"cache: readers in RLock|main.(*cache).get&&sync.runtime_SemacquireRWMutexR" \
		"cache: writers in Lock (on rw.w)|main.(*cache).put&&sync.(*RWMutex).Lock&&internal/sync.(*Mutex).lockSlow" \
		"config: read holders|main.(*config).snapshot" \
		"config: writer in Lock, waiting for readers|main.(*config).reload&&sync.runtime_SemacquireRWMutex" \
		"config: writer in Lock (on rw.w)|main.(*config).reload&&internal/sync.(*Mutex).lockSlow"
}

gen_generics() {
	local c=generics prog d=$out/go-generics
	build local $c
	build "$v127" $c
	prog='
		/^goroutine [0-9]+ \[chan receive\]:/ && /\nmain\.worker\[\.\.\.\]\(/ && /created by main\.startPool\[\.\.\.\] / { w++ }
		/^goroutine [0-9]+ \[select\]:/ && /\nmain\.\(\*batcher\[\.\.\.\]\)\.loop\(/ { b++ }
		END { exit !(w == 20 && b == 2) }'
	run_case $c "$prog" "$tmp/$c-local"
	[ "$(go version "$tmp/$c-$v127" | awk '{print $2}')" = "$v127" ] || die "$c-$v127 is not built by $v127"
	start "$c-127" "$tmp/$c-$v127"
	poll "$c ($v127)" 60 "$prog"
	fetch 2 "$d/2-go1.27.txt"
	holds "$d/2-go1.27.txt" "$prog" || die "2-go1.27.txt: the state was left"
	stop_all_but_servers
	write_readme $c "$(
		cat <<MD
Standard library only. \`2-go1.27.txt\` is another run of the same source built with
\`GOTOOLCHAIN=$v127 go build\` (language version from go.mod, runtime $v127).

- \`func worker[T any](ch chan T)\` ranges over \`ch\`, on which nobody sends. The generic
  \`func startPool[T any](n int, ch chan T)\` starts n of them; main calls it for 10 workers with
  \`T = string\` and 10 with \`T = *int\`: 20 goroutines in \`[chan receive]\`. Both \`worker\` and
  \`startPool\` are inlined (into the \`go\` statement's wrapper and into main), so debug=2 prints
  the whole stack as one inlined frame, \`main.worker[...](...)\` (no arguments, no offset), then
  \`created by main.startPool[...] in goroutine 1\`. debug=2 cannot tell the two instantiations
  apart (same frame text, same created-by offset); debug=1 gives them two records with different
  PCs, both named \`main.worker[...]\`; the proto names them by their GC shape:
  \`main.worker[go.shape.string]\` and \`main.worker[go.shape.*uint8]\` (every pointer type shares
  the \`*uint8\` shape).
- \`type batcher[T any]\` with the method \`func (b *batcher[T]) loop()\` (a select on its input
  and a stop channel, never closed), \`T = int\`, 2 goroutines created by \`main.main\` in
  \`[select]\`. It is marked \`//go:noinline\` (a real batching loop is too big to inline), so it
  shows the other shape of a generic frame: \`main.(*batcher[...]).loop(0x...)\` with an argument
  and a \`+0x\` offset (debug=2), \`main.(*batcher[...]).loop+0x...\` (debug=1),
  \`main.(*batcher[go.shape.int]).loop\` (proto).
- main serving net/http/pprof (\`[IO wait]\` in \`Accept\`); the dump request itself.
MD
	)" "GOTOOLCHAIN=local go build -o PROG ./$c
PROG -addr-file ADDR
# 2-go1.27.txt:
GOTOOLCHAIN=$v127 go build -o PROG127 ./$c
PROG127 -addr-file ADDR" \
		"workers (any T)|main.worker[" \
		"workers, T=string (shape only in the proto)|main.worker[go.shape.string]" \
		"workers, T=*int (shape only in the proto)|main.worker[go.shape.*uint8]" \
		"batcher loops|main.(*batcher["
}

all=(database-sql redis http-maxconns rwmutex generics grpc pgxpool redigo)
[ $# -gt 0 ] || set -- "${all[@]}"
for what; do
	case " ${all[*]} " in
	*" $what "*) "gen_$what" ;;
	*) die "unknown case $what (one of: ${all[*]})" ;;
	esac
done
