#!/usr/bin/env bash
# Regenerates the library fixtures in testdata/libs/jvm-*/: real `jstack -l` dumps of small
# Java 17 programs (src/) that use the real libraries of the Debian packages installed under
# /usr/share/java (Jetty 9.4, Apache HttpClient 4.5 and 5.2, commons-pool2, Netty 4.1, the
# PostgreSQL and MariaDB JDBC drivers) against real servers started here (PostgreSQL 15,
# MariaDB, redis-server), all on 127.0.0.1.
#
#   jvm-jetty-idle, jvm-jetty-stuck          com.example.jetty.JettyApp (one JVM, idle then stuck)
#   jvm-httpclient4-pool                     com.example.http4.Http4App
#   jvm-httpclient5-pool, -pool-lax          com.example.http5.Http5App STRICT | LAX
#   jvm-commons-pool2                        com.example.pool.PoolApp
#   jvm-redis-pool                           com.example.redis.RedisApp (+ redis-server)
#   jvm-netty-idle, jvm-netty-blocked        com.example.netty.NettyApp (one JVM, idle then blocked)
#   jvm-jdbc-drivers                         com.example.jdbc.JdbcApp (+ PostgreSQL, MariaDB)
#   jvm-rwlock                               com.example.rwlock.RwLockApp
#   jvm-class-init                           com.example.classinit.ClassInitApp
#   jvm-common-pool-starved                  com.example.forkjoin.ForkJoinApp
#   jvm-executors                            com.example.executors.ExecutorsApp
#   jvm-idle-kotlinx                         com.example.kotlinx.KotlinxApp (kotlinx Dispatchers.Default
#                                            and a Logback AsyncAppender at rest)
#   jvm-kept-alive, -serving                 com.example.keptalive.KeptAliveApp [serve] (main returns,
#                                            a non-daemon pool and timer stay)
#   jvm-task-sleep, -idle                    com.example.sleepy.SleepyApp [idle] (a bounded pool
#                                            whose every worker sleeps inside its task)
#   jvm-idle-libs, -jdk25, -stuck            com.example.idle.IdleApp [stuck] (Quartz, JMX over
#                                            RMI, JDWP, java.net.http; -jdk25 on the JDK 25 at
#                                            JDK25_HOME when there is one)
#
# Each program puts its threads in place and parks its main thread. This script polls the
# JVM with `jstack -l` until grep over the dump finds every thread in its wanted state (the
# checks of each case below; no blind sleeps), then writes 1.txt and, 3 s after 1.txt
# started, 2.txt, checks both again, writes the folder's README.md (what runs, the states,
# the commands, grep counts) and replaces the folder. Peers that never answer are
# com.example.upstream.SilentUpstream (its own JVM, so its threads are in no dump);
# connections into a server under test come from com.example.driver.Hold (its own JVM too).
# Every process started here is ended by the EXIT trap, and the servers' data directories
# are removed.
#
# Usage: bash testdata/gen/libs-jvm/gen.sh [CASE...]   (from anywhere; default: every case;
#        a case is a function name below without case_, e.g. jvm-rwlock or jvm-jetty).
#        Needs java, javac, jstack (17), the Debian jars of every case (compiled together: libjetty9-java,
#        libhttpclient-java, libhttpclient5-java, libcommons-pool2-java, libnetty-java, libquartz2-java,
#        kotlin, libkotlinx-coroutines-java, libkotlinx-atomicfu-java, liblogback-java), and for some cases redis-server, PostgreSQL 15
#        (/usr/lib/postgresql/15/bin) and mariadbd / mariadb-install-db.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out_root=$repo/testdata/libs
JAVA_OPTS=(-Xmx64m -XX:+UseSerialGC)
J=/usr/share/java
PG_BIN=/usr/lib/postgresql/15/bin
ALL_CASES=(jvm-httpclient4-pool jvm-httpclient5-pool jvm-commons-pool2 jvm-netty jvm-rwlock jvm-jetty
	jvm-redis-pool jvm-jdbc-drivers jvm-class-init jvm-common-pool-starved jvm-executors jvm-idle-libs jvm-task-sleep jvm-kept-alive jvm-idle-kotlinx)

# The class path of each program: only the jars it uses (Debian's unversioned symlinks).
CP_JETTY="$J/jetty9-server.jar:$J/jetty9-util.jar:$J/jetty9-http.jar:$J/jetty9-io.jar:$J/servlet-api.jar"
CP_HTTP4="$J/httpclient.jar:$J/httpcore.jar:$J/commons-logging.jar:$J/commons-codec.jar"
CP_HTTP5="$J/httpclient5.jar:$J/httpcore5.jar:$J/httpcore5-h2.jar:$J/slf4j-api.jar:$J/slf4j-nop.jar"
CP_POOL2="$J/commons-pool2.jar"
CP_NETTY="$J/netty-common.jar:$J/netty-buffer.jar:$J/netty-transport.jar:$J/netty-codec.jar:$J/netty-handler.jar:$J/netty-resolver.jar"
CP_JDBC="$J/postgresql.jar:$J/mariadb-java-client.jar"
CP_QUARTZ="$J/quartz2.jar:$J/slf4j-api.jar:$J/slf4j-nop.jar"
# kotlinx.coroutines 1.0.1 with its Kotlin stdlib and atomicfu; Logback 1.2 (Debian's kotlin,
# libkotlinx-coroutines-java, libkotlinx-atomicfu-java, liblogback-java).
CP_KOTLINX="$J/kotlinx-coroutines-core.jar:$J/kotlin-stdlib.jar:$J/atomicfu.jar:$J/logback-classic.jar:$J/logback-core.jar:$J/slf4j-api.jar"
# The java that runs a program under test (a case may set it to JDK 25's).
JAVA_BIN=java

tmp=$(mktemp -d /tmp/dumpdiff-libs-jvm.XXXXXX)
chmod 755 "$tmp"
classes=$tmp/classes
pids=()
PG_DATA=

cleanup() {
	local pid i alive
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for i in $(seq 1 25); do
		alive=0
		for pid in "${pids[@]}"; do
			kill -0 "$pid" 2>/dev/null && alive=1
		done
		((alive)) || break
		sleep 0.2
	done
	for pid in "${pids[@]}"; do
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	pids=()
	if [[ -n $PG_DATA ]]; then
		su postgres -c "$PG_BIN/pg_ctl -D $PG_DATA -m immediate -w stop" >/dev/null 2>&1 || true
		rm -rf "$PG_DATA"
		PG_DATA=
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() {
	log "$*"
	exit 1
}

# ---- processes ------------------------------------------------------------------------

# forget PID drops PID from the processes the EXIT trap ends.
forget() {
	local p keep=()
	for p in "${pids[@]}"; do
		[[ $p == "$1" ]] || keep+=("$p")
	done
	pids=("${keep[@]}")
}

# wait_line FILE REGEX [WHAT] waits up to 30 s for a line of FILE to match REGEX (sed -E,
# one group) and prints the group.
wait_line() {
	local i v
	for i in $(seq 1 300); do
		v=$(sed -nE "s/$2/\\1/p" "$1" 2>/dev/null | head -1)
		[[ -n $v ]] && { printf '%s' "$v"; return 0; }
		sleep 0.1
	done
	cat "$1" >&2 || true
	die "${3:-a process} did not print /$2/"
}

# free_port prints a TCP port on 127.0.0.1 that nothing listens on.
free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 20000))
		(: </dev/tcp/127.0.0.1/$p) 2>/dev/null || { echo "$p"; return; }
	done
}

# start_upstream starts the silent upstream and sets UPSTREAM_PORT and UPSTREAM_CMD.
start_upstream() {
	java "${JAVA_OPTS[@]}" -cp "$classes" com.example.upstream.SilentUpstream >"$tmp/upstream.log" 2>&1 &
	pids+=($!)
	UPSTREAM_PID=$!
	UPSTREAM_PORT=$(wait_line "$tmp/upstream.log" '^listening ([0-9]+)$' 'the silent upstream')
	UPSTREAM_CMD="java ${JAVA_OPTS[*]} -cp \$CLASSES com.example.upstream.SilentUpstream &    # prints \"listening PORT\"; this run: PORT=$UPSTREAM_PORT"
}

stop_upstream() {
	kill "$UPSTREAM_PID" 2>/dev/null || true
	wait "$UPSTREAM_PID" 2>/dev/null || true
	forget "$UPSTREAM_PID"
}

# start_app CP [JVM-OPTION...] MAIN-CLASS ARGS... starts one program under test with
# $classes:CP as its class path; sets APP_PID and APP_CMD (the command line as the README
# shows it: $CLASSES is the compiled src/, the jars by their /usr/share/java path).
start_app() {
	local cp=$1
	shift
	"$JAVA_BIN" "${JAVA_OPTS[@]}" -cp "$classes${cp:+:$cp}" "$@" >"$tmp/app.log" 2>&1 &
	APP_PID=$!
	pids+=("$APP_PID")
	APP_CMD="$JAVA_BIN ${JAVA_OPTS[*]} -cp \$CLASSES${cp:+:$cp} $*"
}

# stop_app ends the program under test and shows what it printed.
stop_app() {
	kill "$APP_PID" 2>/dev/null || true
	wait "$APP_PID" 2>/dev/null || true
	forget "$APP_PID"
	if [[ -s $tmp/app.log ]]; then
		log "program output:"
		sed 's/^/    /' "$tmp/app.log" >&2
	fi
}

# hold PORT ARGS... starts com.example.driver.Hold (connections into the program under test)
# and waits until it has connected; HOLD_CMD is its command line.
hold() {
	local log=$tmp/hold-$RANDOM.log
	java "${JAVA_OPTS[@]}" -cp "$classes" com.example.driver.Hold "$@" >"$log" 2>&1 &
	pids+=($!)
	wait_line "$log" '^connected ([0-9]+)$' 'the Hold client' >/dev/null
	local a q=()
	for a in "$@"; do q+=("'$a'"); done
	HOLD_CMD="java ${JAVA_OPTS[*]} -cp \$CLASSES com.example.driver.Hold ${q[*]} &"
}

# start_redis starts redis-server on 127.0.0.1 with no persistence; sets REDIS_PORT, REDIS_CMD.
start_redis() {
	REDIS_PORT=$(free_port)
	mkdir -p "$tmp/redis"
	redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp/redis" \
		>"$tmp/redis.log" 2>&1 &
	pids+=($!)
	local i
	for i in $(seq 1 100); do
		redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG && break
		sleep 0.1
	done
	redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping | grep -q PONG || die "redis-server did not start"
	REDIS_CMD="redis-server --port $REDIS_PORT --bind 127.0.0.1 --save '' --appendonly no --dir \$TMP/redis &"
}

# start_postgres starts a private PostgreSQL 15 cluster on 127.0.0.1 (trust auth); sets
# PG_PORT and PG_CMDS.
start_postgres() {
	PG_PORT=$(free_port)
	PG_DATA=$(mktemp -d /tmp/dumpdiff-libs-pg.XXXXXX)
	chown postgres: "$PG_DATA"
	su postgres -c "$PG_BIN/initdb -D $PG_DATA -A trust -U postgres" >"$tmp/initdb.log" 2>&1
	su postgres -c "$PG_BIN/pg_ctl -D $PG_DATA -l $PG_DATA/server.log -w start \
		-o '-p $PG_PORT -k $PG_DATA -c listen_addresses=127.0.0.1'" >/dev/null
	PG_CMDS=("su postgres -c '$PG_BIN/initdb -D \$PGDATA -A trust -U postgres'"
		"su postgres -c \"$PG_BIN/pg_ctl -D \$PGDATA -l \$PGDATA/server.log -w start -o '-p $PG_PORT -k \$PGDATA -c listen_addresses=127.0.0.1'\"")
}

# start_mariadb starts a private MariaDB on 127.0.0.1 with its socket in $tmp/maria and a
# user app/app; sets MARIA_PORT and MARIA_CMDS.
start_mariadb() {
	MARIA_PORT=$(free_port)
	local d=$tmp/maria
	mkdir -p "$d"
	mariadb-install-db --no-defaults --user=root --datadir="$d/data" --auth-root-authentication-method=socket \
		--skip-test-db >"$tmp/maria-install.log" 2>&1
	mariadbd --no-defaults --user=root --datadir="$d/data" --socket="$d/mysqld.sock" --port="$MARIA_PORT" \
		--bind-address=127.0.0.1 --pid-file="$d/mysqld.pid" --log-error="$d/error.log" >/dev/null 2>&1 &
	pids+=($!)
	local i
	for i in $(seq 1 150); do
		mariadb-admin --no-defaults -S "$d/mysqld.sock" -u root ping >/dev/null 2>&1 && break
		sleep 0.2
	done
	mariadb --no-defaults -S "$d/mysqld.sock" -u root -e "CREATE USER 'app'@'127.0.0.1' IDENTIFIED BY 'app'" ||
		{ cat "$d/error.log" >&2; die "mariadbd did not start"; }
	MARIA_CMDS=("mariadb-install-db --no-defaults --user=root --datadir=\$TMP/maria/data --auth-root-authentication-method=socket --skip-test-db"
		"mariadbd --no-defaults --user=root --datadir=\$TMP/maria/data --socket=\$TMP/maria/mysqld.sock --port=$MARIA_PORT --bind-address=127.0.0.1 --pid-file=\$TMP/maria/mysqld.pid --log-error=\$TMP/maria/error.log &"
		"mariadb --no-defaults -S \$TMP/maria/mysqld.sock -u root -e \"CREATE USER 'app'@'127.0.0.1' IDENTIFIED BY 'app'\"")
}

# ---- grep over a dump -----------------------------------------------------------------

# flatten FILE prints one line per thread of a jstack dump: the header, then every frame and
# lock line with its indent removed, joined with " | " (as flatten in ../lib.sh).
flatten() {
	awk '/^"/ { if (t) print t; t = $0; next }
	     /^JNI global refs/ { if (t) print t; t = ""; exit }
	     /^[[:space:]]*$/ { next }
	     t { sub(/^[[:space:]]+/, ""); t = t " | " $0 }
	     END { if (t) print t }' "$1"
}

# held FILE THREAD-REGEX REGEX prints the first 0x address in the part of the thread's
# flattened line that REGEX matches.
held() {
	flatten "$1" | grep -E "^\"$2\" " | grep -oE -- "$3" | head -1 | grep -oE '0x[0-9a-f]+' || true
}

# A case's checks: spec LABEL WANT REGEX counts the threads whose flattened line matches
# REGEX; WANT is a number or ">=N". @NAME@ in a REGEX is replaced by ADDR[NAME], which the
# case's ADDR_FN reads from the same dump.
SPEC_LABEL=() SPEC_WANT=() SPEC_RE=()
ADDR_FN=
ADDR_NOTE=
declare -A ADDR
new_case() {
	SPEC_LABEL=() SPEC_WANT=() SPEC_RE=()
	ADDR_FN=
	ADDR_NOTE=
}
spec() { SPEC_LABEL+=("$1") SPEC_WANT+=("$2") SPEC_RE+=("$3"); }

# count FILE I prints how many threads of FILE match spec I.
count() {
	local re=${SPEC_RE[$2]} k
	ADDR=()
	[[ -n $ADDR_FN ]] && "$ADDR_FN" "$1"
	for k in "${!ADDR[@]}"; do
		re=${re//@$k@/${ADDR[$k]:-MISSING}}
	done
	flatten "$1" | grep -cE -- "$re" || true
}

# wanted N WANT succeeds when N is what WANT asks for.
wanted() {
	if [[ $2 == '>='* ]]; then
		(($1 >= ${2#>=}))
	else
		(($1 == $2))
	fi
}

# check FILE [quiet] succeeds when every spec has its wanted count in FILE.
check() {
	local i n ok=0
	for i in "${!SPEC_LABEL[@]}"; do
		n=$(count "$1" "$i")
		if ! wanted "$n" "${SPEC_WANT[$i]}"; then
			ok=1
			[[ ${2:-} == quiet ]] || log "$(basename "$1"): ${SPEC_LABEL[$i]}: $n, want ${SPEC_WANT[$i]}"
		fi
	done
	return $ok
}

# wait_ready polls the program with jstack -l until check passes (60 s at most).
wait_ready() {
	local i
	for i in $(seq 1 200); do
		if jstack -l "$APP_PID" >"$tmp/poll.txt" 2>/dev/null && check "$tmp/poll.txt" quiet; then
			log "threads in place after $i jstack poll(s)"
			return 0
		fi
		kill -0 "$APP_PID" 2>/dev/null || { cat "$tmp/app.log" >&2; die "the program exited"; }
		sleep 0.3
	done
	check "$tmp/poll.txt" || true
	cp "$tmp/poll.txt" /tmp/dumpdiff-libs-jvm-last-poll.txt
	die "the threads did not get in place (last poll: /tmp/dumpdiff-libs-jvm-last-poll.txt)"
}

# take DIR NAME writes jstack -l of the program to DIR/NAME and checks it; DUMP_AT[DIR/NAME]
# is the wall-clock time jstack started.
declare -A DUMP_AT
take() {
	DUMP_AT[$1/$2]=${EPOCHREALTIME}
	jstack -l "$APP_PID" >"$1/$2"
	check "$1/$2" || die "$2 is not what was wanted (see above)"
	log "$(basename "$1")/$2: $(threads "$1/$2") threads, $(wc -c <"$1/$2") bytes"
}

# take_pair DIR writes DIR/1.txt and, 3 s after 1.txt started, DIR/2.txt.
take_pair() {
	mkdir -p "$1"
	take "$1" 1.txt
	sleep "$(awk -v a="${DUMP_AT[$1/1.txt]}" -v now="${EPOCHREALTIME}" 'BEGIN { d = a + 3 - now; print (d > 0 ? d : 0) }')"
	take "$1" 2.txt
}

# threads FILE prints the number of thread headers.
threads() { grep -c '^"' "$1"; }

# ---- README ---------------------------------------------------------------------------

STATES=('RUNNABLE' 'BLOCKED (on object monitor)' 'WAITING (parking)' 'WAITING (on object monitor)'
	'TIMED_WAITING (sleeping)' 'TIMED_WAITING (parking)' 'TIMED_WAITING (on object monitor)')

# counts_section DIR prints the README's thread counts of DIR/1.txt and DIR/2.txt: per
# state, then per check.
counts_section() {
	local dir=$1 f s i row
	local files=(1.txt 2.txt)
	echo "2.txt was taken $(awk -v a="${DUMP_AT[$dir/1.txt]}" -v b="${DUMP_AT[$dir/2.txt]}" 'BEGIN { printf "%.1f", b - a }') s after 1.txt (when jstack started)."
	echo
	echo "Thread counts per state, from grep over the dumps:"
	echo
	echo "| | 1.txt | 2.txt |"
	echo "|---|---:|---:|"
	row="| threads (\`grep -c '^\"'\`) |"
	for f in "${files[@]}"; do row+=" $(threads "$dir/$f") |"; done
	echo "$row"
	for s in "${STATES[@]}"; do
		row="| \`java.lang.Thread.State: $s\` |"
		for f in "${files[@]}"; do row+=" $(grep -cF "java.lang.Thread.State: $s" "$dir/$f" || true) |"; done
		echo "$row"
	done
	row="| no state line (VM-internal threads) |"
	for f in "${files[@]}"; do
		row+=" $(($(threads "$dir/$f") - $(grep -c 'java.lang.Thread.State: ' "$dir/$f"))) |"
	done
	echo "$row"
	echo
	echo "Thread names in 1.txt: $(grep '^"' "$dir/1.txt" | cut -d'"' -f2 | awk '{ printf "%s`%s`", (NR > 1 ? ", " : ""), $0 }')."
	echo
	echo "The program's threads, per check (the same checks gen.sh waits for and verifies):"
	echo
	echo "| check | want | 1.txt | 2.txt |"
	echo "|---|---:|---:|---:|"
	for i in "${!SPEC_LABEL[@]}"; do
		row="| ${SPEC_LABEL[$i]} | ${SPEC_WANT[$i]} |"
		for f in "${files[@]}"; do row+=" $(count "$dir/$f" "$i") |"; done
		echo "$row"
	done
	echo
	echo "A check is \`flatten FILE | grep -cE REGEX\`, where flatten (in gen.sh) prints one line per"
	echo "thread: its header, then each frame and lock line without its indent, joined with \" | \".${ADDR_NOTE:+ $ADDR_NOTE}"
	echo
	for i in "${!SPEC_LABEL[@]}"; do
		echo "- ${SPEC_LABEL[$i]}: \`${SPEC_RE[$i]}\`"
	done
}

# command_section CASE prints how the dumps were made, from CMDS.
command_section() {
	echo "## How it was made"
	echo
	echo "\`bash testdata/gen/libs-jvm/gen.sh $1\` (Java sources in \`testdata/gen/libs-jvm/src/\`), which runs:"
	echo
	echo '```'
	echo "javac -d \$CLASSES -cp <the jars below> \$(find testdata/gen/libs-jvm/src -name '*.java')"
	local c
	for c in "${CMDS[@]}"; do echo "$c"; done
	echo "jstack -l PID > 1.txt    # once polling jstack -l finds every check below at its count"
	echo "jstack -l PID > 2.txt    # 3 s after 1.txt started; both are checked again"
	echo '```'
	echo
	local jars
	jars=$(jar_versions)
	if [[ -n $jars ]]; then
		echo "$("$JAVA_BIN" -version 2>&1 | sed -n 2p) on $(uname -sm); jars from Debian 12 packages:"
		echo "$jars."
	else
		echo "$("$JAVA_BIN" -version 2>&1 | sed -n 2p) on $(uname -sm); no library jar (the JDK only)."
	fi
}

# jar_versions prints each jar on APP_CMD's class path with its Debian package and version.
jar_versions() {
	local cp j pkg out=()
	cp=$(sed -E 's/.*-cp ([^ ]+).*/\1/' <<<"$APP_CMD")
	IFS=: read -ra js <<<"$cp"
	for j in "${js[@]}"; do
		[[ $j == /* ]] || continue
		pkg=$(dpkg -S "$j" 2>/dev/null | head -1 | cut -d: -f1)
		out+=("\`$(basename "$j")\` (${pkg:-?} $(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null))")
	done
	local IFS=,
	echo "${out[*]}" | sed 's/,/, /g'
}

# publish TMPDIR CASE README-BODY writes TMPDIR/README.md and replaces testdata/libs/CASE.
publish() {
	printf '%s\n' "$3" >"$1/README.md"
	rm -rf "${out_root:?}/$2"
	mkdir -p "$out_root"
	mv "$1" "$out_root/$2"
	log "$2 written"
}

# ---- shared patterns ------------------------------------------------------------------

MAIN_WAITS='^"main" .*State: WAITING \(parking\) .*at com\.example\.util\.Threads\.awaitShutdown\('
# A socket read with no timeout (JDK 17: NioSocketImpl blocks in the read itself) and with
# one (NioSocketImpl.timedRead polls first).
SOCKET_READ='State: RUNNABLE \| at sun\.nio\.ch\.SocketDispatcher\.read0\([^)]*\) \| at sun\.nio\.ch\.SocketDispatcher\.read\('
TIMED_SOCKET_READ='State: RUNNABLE \| at sun\.nio\.ch\.Net\.poll\([^)]*\) \| at sun\.nio\.ch\.NioSocketImpl\.park\(.* at sun\.nio\.ch\.NioSocketImpl\.timedRead\('
CONDITION_AWAIT='State: WAITING \(parking\) \| at jdk\.internal\.misc\.Unsafe\.park\([^)]*\) \| - parking to wait for +<0x[0-9a-f]+> \(a java\.util\.concurrent\.locks\.AbstractQueuedSynchronizer\$ConditionObject\)'
# An untimed read on a socket that a timed operation (a connect timeout) switched to
# non-blocking mode: NioSocketImpl parks in Net.poll with no timeout, not in timedRead.
PARKED_SOCKET_READ='State: RUNNABLE \| at sun\.nio\.ch\.Net\.poll\([^)]*\) \| at sun\.nio\.ch\.NioSocketImpl\.park\([^)]*\) \| at sun\.nio\.ch\.NioSocketImpl\.park\([^)]*\) \| at sun\.nio\.ch\.NioSocketImpl\.implRead\('
SELECT='State: RUNNABLE \| at sun\.nio\.ch\.EPoll\.wait\('

# ---- the cases ------------------------------------------------------------------------

case_jvm-httpclient4-pool() {
	local dir=$tmp/out/jvm-httpclient4-pool
	new_case
	spec 'hc4-caller-* threads' 20 '^"hc4-caller-[0-9]+" '
	spec 'hc4-caller-*: socket read of the silent upstream on a leased connection (MainClientExec)' 4 "^\"hc4-caller-[0-9]+\" .*$SOCKET_READ.*at org\\.apache\\.http\\.impl\\.io\\.SessionInputBufferImpl\\.streamRead\\(.*at org\\.apache\\.http\\.impl\\.execchain\\.MainClientExec\\.execute\\(.*at com\\.example\\.http4\\.InventoryClient\\.fetch\\("
	spec 'hc4-caller-*: waiting for a connection in AbstractConnPool.getPoolEntryBlocking' 16 "^\"hc4-caller-[0-9]+\" .*$CONDITION_AWAIT.*at org\\.apache\\.http\\.pool\\.AbstractConnPool\\.getPoolEntryBlocking\\(.*at org\\.apache\\.http\\.impl\\.conn\\.PoolingHttpClientConnectionManager\\.leaseConnection\\(.*at com\\.example\\.http4\\.InventoryClient\\.fetch\\("
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	start_upstream
	start_app "$CP_HTTP4" com.example.http4.Http4App "$UPSTREAM_PORT"
	CMDS=("$UPSTREAM_CMD" "$APP_CMD &")
	wait_ready
	take_pair "$dir"
	publish "$dir" jvm-httpclient4-pool "# jvm-httpclient4-pool

Apache HttpClient 4.5 (\`org.apache.http\`) with its connection pool exhausted by a silent
upstream: \`com.example.http4.Http4App\` builds one \`CloseableHttpClient\` over a
\`PoolingHttpClientConnectionManager\` with \`setDefaultMaxPerRoute(4)\` and \`setMaxTotal(20)\`
and the default \`RequestConfig\` (socket timeout and connection-request timeout unset: wait for
ever), then 20 threads \`hc4-caller-1\`..\`hc4-caller-20\` (a fixed thread pool with a naming
ThreadFactory) each \`execute(new HttpGet(...))\` against the silent upstream (one route).

- 4 of them hold the route's 4 connections and are \`RUNNABLE\` in the socket read of the
  response head (\`SocketDispatcher.read0\` under \`SessionInputBufferImpl.streamRead\` /
  \`DefaultHttpResponseParser\` / \`MainClientExec.execute\`).
- The other 16 are \`WAITING (parking)\` on the pool's condition in
  \`AbstractConnPool.getPoolEntryBlocking\`, under
  \`PoolingHttpClientConnectionManager.leaseConnection\` (and hold the monitor of their
  \`AbstractConnPool\$2\` future: a \`- locked\` line under \`AbstractConnPool\$2.get\`).
- \`main\` parks in \`Threads.awaitShutdown\`.

Which 4 callers got a connection differs from run to run; the same 4 hold them in 1.txt and
2.txt.

$(command_section jvm-httpclient4-pool)

## Counts

$(counts_section "$dir")"
	stop_app
	stop_upstream
}

# http5_case CASE POLICY writes one HttpClient 5 case.
http5_case() {
	local name=$1 policy=$2 dir=$tmp/out/$1 fut pool
	if [[ $policy == STRICT ]]; then
		fut='StrictConnPool\$1'
		pool=StrictConnPool
	else
		fut='LaxConnPool\$PerRoutePool\$1'
		pool=LaxConnPool
	fi
	new_case
	spec 'hc5-caller-* threads' 20 '^"hc5-caller-[0-9]+" '
	spec "hc5-caller-*: timed socket read of the silent upstream on a leased connection" 4 "^\"hc5-caller-[0-9]+\" .*$TIMED_SOCKET_READ.*at org\\.apache\\.hc\\.core5\\.http\\.impl\\.io\\.SessionInputBufferImpl\\.fillBuffer\\(.*at org\\.apache\\.hc\\.client5\\.http\\.impl\\.io\\.PoolingHttpClientConnectionManager\\\$InternalConnectionEndpoint\\.execute\\(.*at com\\.example\\.http5\\.InventoryClient\\.fetch\\("
	spec "hc5-caller-*: waiting for a connection in BasicFuture.get of the $pool lease" 16 "^\"hc5-caller-[0-9]+\" .*State: TIMED_WAITING \\(on object monitor\\) \\| at java\\.lang\\.Object\\.wait\\([^)]*\\) \\| - waiting on <0x[0-9a-f]+> \\(a org\\.apache\\.hc\\.core5\\.pool\\.$fut\\) \\| at org\\.apache\\.hc\\.core5\\.concurrent\\.BasicFuture\\.get\\(.*at org\\.apache\\.hc\\.core5\\.pool\\.$fut\\.get\\(.*at org\\.apache\\.hc\\.client5\\.http\\.impl\\.io\\.PoolingHttpClientConnectionManager\\\$3\\.get\\(.*at org\\.apache\\.hc\\.client5\\.http\\.impl\\.classic\\.InternalExecRuntime\\.acquireEndpoint\\(.*at com\\.example\\.http5\\.InventoryClient\\.fetch\\("
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	start_upstream
	start_app "$CP_HTTP5" com.example.http5.Http5App "$UPSTREAM_PORT" "$policy"
	CMDS=("$UPSTREAM_CMD" "$APP_CMD &")
	wait_ready
	take_pair "$dir"
	publish "$dir" "$name" "# $name

Apache HttpClient 5.2 classic (\`org.apache.hc.client5\`, core \`org.apache.hc.core5\`) with its
connection pool exhausted by a silent upstream: \`com.example.http5.Http5App\` builds one
\`CloseableHttpClient\` over a \`PoolingHttpClientConnectionManager\` from
\`PoolingHttpClientConnectionManagerBuilder\` with \`setPoolConcurrencyPolicy(PoolConcurrencyPolicy.$policy)\`
(so the pool is a \`$pool\`), \`setMaxConnPerRoute(4)\`, \`setMaxConnTotal(20)\` and HttpClient
5.2's default timeouts (connection-request timeout 3 min, socket/response timeout 3 min); then
20 threads \`hc5-caller-1\`..\`hc5-caller-20\` each \`execute(new HttpGet(...), handler)\`
against the silent upstream (one route). The dumps are taken well within the 3 minutes.

- 4 of them hold the route's 4 connections and are \`RUNNABLE\` in a *timed* socket read of
  the response head (\`sun.nio.ch.Net.poll\` under \`NioSocketImpl.timedRead\`, because the
  default socket timeout is set) under
  \`PoolingHttpClientConnectionManager\$InternalConnectionEndpoint.execute\`.
- The other 16 are \`TIMED_WAITING (on object monitor)\` in \`Object.wait\` inside
  \`org.apache.hc.core5.concurrent.BasicFuture.get\`: the future that \`$pool.lease\`
  returned (\`${fut//\\/}\`); \`$pool.lease\` itself does not block, the wait is in
  \`${fut//\\/}.get\` under \`PoolingHttpClientConnectionManager\$3.get\` (the
  \`LeaseRequest\`) and \`InternalExecRuntime.acquireEndpoint\`. Each holds its future's
  monitor (\`- locked\` twice, the same address as \`- waiting on\`) and its
  \`PoolingHttpClientConnectionManager\$3\`'s.
- \`main\` parks in \`Threads.awaitShutdown\`.

$(command_section "$name")

## Counts

$(counts_section "$dir")"
	stop_app
	stop_upstream
}

case_jvm-httpclient5-pool() {
	http5_case jvm-httpclient5-pool STRICT
	http5_case jvm-httpclient5-pool-lax LAX
}

case_jvm-commons-pool2() {
	local dir=$tmp/out/jvm-commons-pool2
	new_case
	spec 'report-holder-1..3: sleeping with a borrowed Session' 3 '^"report-holder-[1-3]" .*State: TIMED_WAITING \(sleeping\) \| at java\.lang\.Thread\.sleep\([^)]*\) \| at com\.example\.pool\.ReportService\.renderSlowly\('
	spec 'report-worker-1..10: waiting in GenericObjectPool.borrowObject' 10 "^\"report-worker-([1-9]|10)\" .*$CONDITION_AWAIT.*at org\\.apache\\.commons\\.pool2\\.impl\\.LinkedBlockingDeque\\.takeFirst\\(.*at org\\.apache\\.commons\\.pool2\\.impl\\.GenericObjectPool\\.borrowObject\\(.*at com\\.example\\.pool\\.ReportService\\.render\\("
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	start_app "$CP_POOL2" com.example.pool.PoolApp
	CMDS=("$APP_CMD &")
	wait_ready
	take_pair "$dir"
	publish "$dir" jvm-commons-pool2 "# jvm-commons-pool2

Apache commons-pool2 (\`org.apache.commons.pool2\`) exhausted: \`com.example.pool.PoolApp\` makes a
\`GenericObjectPool<Session>\` of plain objects (\`com.example.pool.Session\`, from a
\`BasePooledObjectFactory\`) with \`setMaxTotal(3)\` and the defaults otherwise
(\`blockWhenExhausted\` true, max wait -1: wait for ever; no evictor thread).

- \`report-holder-1\`..\`report-holder-3\` each borrow a Session in
  \`ReportService.renderSlowly\` and sleep holding it (\`TIMED_WAITING (sleeping)\` in
  \`Thread.sleep\`): the pool is empty.
- \`report-worker-1\`..\`report-worker-10\` then call \`ReportService.render\`, which borrows:
  each is \`WAITING (parking)\` on the idle deque's condition in
  \`org.apache.commons.pool2.impl.LinkedBlockingDeque.takeFirst\` under
  \`GenericObjectPool.borrowObject\`.
- \`main\` parks in \`Threads.awaitShutdown\`.

The holders show no lock line: a borrowed object is not a lock the JVM knows about.

$(command_section jvm-commons-pool2)

## Counts

$(counts_section "$dir")"
	stop_app
}

case_jvm-redis-pool() {
	local dir=$tmp/out/jvm-redis-pool
	new_case
	spec 'job-consumer-1..3: socket read of BLPOP jobs 0 (holding a pooled connection)' 3 "^\"job-consumer-[1-3]\" .*$SOCKET_READ.*at com\\.example\\.redis\\.RedisConnection\\.readReply\\(.*at com\\.example\\.redis\\.RedisConnection\\.command\\(.*at com\\.example\\.redis\\.JobQueue\\.consume\\("
	spec 'cache-reader-1..10: waiting in GenericObjectPool.borrowObject' 10 "^\"cache-reader-([1-9]|10)\" .*$CONDITION_AWAIT.*at org\\.apache\\.commons\\.pool2\\.impl\\.LinkedBlockingDeque\\.takeFirst\\(.*at org\\.apache\\.commons\\.pool2\\.impl\\.GenericObjectPool\\.borrowObject\\(.*at com\\.example\\.redis\\.JobQueue\\.readCache\\("
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	start_redis
	start_app "$CP_POOL2" com.example.redis.RedisApp "$REDIS_PORT"
	CMDS=("$REDIS_CMD" "$APP_CMD &")
	wait_ready
	local blocked
	blocked=$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" info clients | tr -d '\r' | sed -n 's/^blocked_clients://p')
	[[ $blocked == 3 ]] || die "redis reports $blocked blocked clients, want 3"
	take_pair "$dir"
	publish "$dir" jvm-redis-pool "# jvm-redis-pool

A pool of 3 Redis connections exhausted by blocking commands, against a real
\`redis-server\` ($(redis-server --version | cut -d' ' -f1-3)) on 127.0.0.1.

Debian 12 packages no Jedis and no Lettuce (\`apt-cache search jedis\` and
\`apt-cache search lettuce\` find no Java client), so the client is a tiny one of our own,
\`com.example.redis.RedisConnection\` (RESP2 over a \`java.net.Socket\`, no read timeout), pooled
with the real commons-pool2 \`GenericObjectPool\` (\`setMaxTotal(3)\`, blocking when exhausted,
no max wait), which is also what Jedis's \`JedisPool\` is built on. With Jedis the frames
above \`SocketDispatcher.read0\` would be \`redis.clients.*\` ones (e.g.
\`redis.clients.jedis.util.RedisInputStream\` in Jedis 3 and later, \`redis.clients.util.*\` in
2.x) instead of \`com.example.redis.RedisConnection\`, and the borrow would go through Jedis's
\`Pool.getResource\` above the same \`GenericObjectPool.borrowObject\`; table cases for Jedis
frames are to come from public dumps.

- \`job-consumer-1\`..\`job-consumer-3\` each borrow a connection and send \`BLPOP jobs 0\` on an
  empty list (timeout 0: block for ever); each is \`RUNNABLE\` in the socket read
  (\`SocketDispatcher.read0\`) under \`RedisConnection.readReply\` / \`JobQueue.consume\`.
  \`redis-cli info clients\` reported \`blocked_clients:$blocked\` before the dumps.
- \`cache-reader-1\`..\`cache-reader-10\` then want a connection for a \`GET\`: each is
  \`WAITING (parking)\` in commons-pool2's \`LinkedBlockingDeque.takeFirst\` under
  \`GenericObjectPool.borrowObject\` / \`JobQueue.readCache\`.
- \`main\` parks in \`Threads.awaitShutdown\`.

$(command_section jvm-redis-pool)

## Counts

$(counts_section "$dir")"
	stop_app
}

NETTY_LOOP='^"nioEventLoopGroup-[0-9]+-[0-9]+" '
NETTY_SELECT="$SELECT.*at io\\.netty\\.channel\\.nio\\.NioEventLoop\\.select\\(.*at io\\.netty\\.channel\\.nio\\.NioEventLoop\\.run\\("
NETTY_HANDLER='at com\.example\.netty\.CommandHandler\.channelRead0\(.*at io\.netty\.channel\.nio\.NioEventLoop\.processSelectedKeys.*at io\.netty\.channel\.nio\.NioEventLoop\.run\('

netty_addresses() {
	ADDR[CACHE]=$(held "$1" price-refresher '- locked <0x[0-9a-f]+> \(a com\.example\.netty\.PriceCache\)')
}

case_jvm-netty() {
	local idle=$tmp/out/jvm-netty-idle blocked=$tmp/out/jvm-netty-blocked
	start_upstream
	start_app "$CP_NETTY" com.example.netty.NettyApp "$UPSTREAM_PORT"
	local port
	port=$(wait_line "$tmp/app.log" '^listening ([0-9]+)$' 'NettyApp')
	CMDS=("$UPSTREAM_CMD" "$APP_CMD &    # prints \"listening PORT\"; this run: PORT=$port")

	new_case
	spec 'nioEventLoopGroup-*-* threads (1 boss + 5 workers)' 6 "$NETTY_LOOP"
	spec 'nioEventLoopGroup-*-*: idle in the selector (NioEventLoop.select)' 6 "$NETTY_LOOP.*$NETTY_SELECT"
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	hold "$port" 5 -
	CMDS+=("$HOLD_CMD    # 5 idle connections: every worker loop starts (idle dumps)")
	wait_ready
	take_pair "$idle"
	local idle_counts idle_cmds
	idle_counts=$(counts_section "$idle")
	idle_cmds=$(command_section jvm-netty)

	new_case
	ADDR_FN=netty_addresses
	ADDR_NOTE='@CACHE@ stands for the address in price-refresher'"'"'s `- locked <ADDR> (a com.example.netty.PriceCache)`.'
	spec 'nioEventLoopGroup-*-* threads (1 boss + 5 workers)' 6 "$NETTY_LOOP"
	spec 'nioEventLoopGroup-*-*: idle in the selector' 2 "$NETTY_LOOP.*$NETTY_SELECT"
	spec 'event loop in a socket read inside the handler' 1 "$NETTY_LOOP.*$SOCKET_READ.*at com\\.example\\.netty\\.PriceLookup\\.fetchBlocking\\(.*$NETTY_HANDLER"
	spec 'event loop in CompletableFuture.get inside the handler' 1 "${NETTY_LOOP}.*State: WAITING \\(parking\\) \\| at jdk\\.internal\\.misc\\.Unsafe\\.park\\([^)]*\\) \\| - parking to wait for +<0x[0-9a-f]+> \\(a java\\.util\\.concurrent\\.CompletableFuture\\\$Signaller\\).*at java\\.util\\.concurrent\\.CompletableFuture\\.get\\(.*at com\\.example\\.netty\\.PriceLookup\\.awaitQuote\\(.*$NETTY_HANDLER"
	spec 'event loop in Thread.sleep inside the handler' 1 "${NETTY_LOOP}.*State: TIMED_WAITING \\(sleeping\\) \\| at java\\.lang\\.Thread\\.sleep\\([^)]*\\) \\| at com\\.example\\.netty\\.PriceLookup\\.backOff\\(.*$NETTY_HANDLER"
	spec 'event loop BLOCKED on the PriceCache monitor inside the handler' 1 "${NETTY_LOOP}.*State: BLOCKED \\(on object monitor\\) \\| at com\\.example\\.netty\\.PriceCache\\.get\\([^)]*\\) \\| - waiting to lock <@CACHE@> \\(a com\\.example\\.netty\\.PriceCache\\).*$NETTY_HANDLER"
	spec 'price-refresher: sleeping, holds the PriceCache monitor' 1 '^"price-refresher" .*State: TIMED_WAITING \(sleeping\) \| at java\.lang\.Thread\.sleep\([^)]*\) \| at com\.example\.netty\.PriceCache\.reload\([^)]*\) \| - locked <0x[0-9a-f]+> \(a com\.example\.netty\.PriceCache\)'
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	hold "$port" -- 'read\n' 'get\n' 'sleep\n' 'lock\n' -
	local blocked_cmd=$HOLD_CMD
	wait_ready
	take_pair "$blocked"
	CMDS+=("$blocked_cmd    # 5 more connections, round robin again over the 5 worker loops: a command on 4 of them (blocked dumps)")

	publish "$idle" jvm-netty-idle "# jvm-netty-idle

A Netty 4.1 server (NIO transport) at rest: \`com.example.netty.NettyApp\` binds a
\`ServerBootstrap\` on 127.0.0.1 with a boss \`NioEventLoopGroup(1)\` and a worker
\`NioEventLoopGroup(5)\`; Netty names the threads \`nioEventLoopGroup-<group>-<n>\` (here the
boss is \`nioEventLoopGroup-2-1\` and the workers \`nioEventLoopGroup-3-1\`..\`-3-5\`: group
numbers come from a JVM-wide counter of Netty's DefaultThreadFactory). A client
(\`com.example.driver.Hold\`, its own JVM) opens 5 connections and sends nothing, so each
worker loop has started (Netty starts a loop's thread on its first channel) and all 6 loops
are \`RUNNABLE\` in \`sun.nio.ch.EPoll.wait\` under \`NioEventLoop.select\` (with two \`- locked\`
lines: the \`SelectedSelectionKeySet\` and the \`EPollSelectorImpl\`).

The epoll transport is not used: Debian's \`netty-transport-native-epoll.jar\` has no native
library in it.

The same JVM then gets the blocked commands of \`jvm-netty-blocked\`.

$idle_cmds

## Counts

$idle_counts"

	publish "$blocked" jvm-netty-blocked "# jvm-netty-blocked

The classic incident: Netty event loops blocked by blocking calls inside a channel handler.
Same JVM as \`jvm-netty-idle\` (\`com.example.netty.NettyApp\`, boss \`NioEventLoopGroup(1)\`,
workers \`NioEventLoopGroup(5)\`, pipeline \`LineBasedFrameDecoder\` → \`StringDecoder\` →
\`CommandHandler\`). A second client opens 5 more connections; the boss hands them to the worker
loops round robin, so each loop gets one, and 4 of them send a command that
\`CommandHandler.channelRead0\` runs *on the event loop*:

- \`read\`: \`PriceLookup.fetchBlocking\`, a \`java.net.Socket\` read of the silent upstream with
  no timeout: \`RUNNABLE\` in \`SocketDispatcher.read0\`.
- \`get\`: \`PriceLookup.awaitQuote\`, \`CompletableFuture.get()\` on a future nobody completes:
  \`WAITING (parking)\` on a \`CompletableFuture\$Signaller\`.
- \`sleep\`: \`PriceLookup.backOff\`, \`Thread.sleep(1 h)\`: \`TIMED_WAITING (sleeping)\`.
- \`lock\`: \`PriceLookup.cachedPrice\` starts the \`price-refresher\` thread, which enters the
  \`PriceCache\` monitor and sleeps holding it (\`- locked\`), then calls the synchronized
  \`PriceCache.get\`: the loop is \`BLOCKED (on object monitor)\` (\`- waiting to lock\` the
  same address).

Every one of those loops also serves one idle channel from the first client, which now
waits for nothing it will ever get. The fifth connection sends nothing: its loop and the
boss stay in the selector. Which loop got which command is the accept order; the checks do
not depend on it.

$(command_section jvm-netty)

## Counts

$(counts_section "$blocked")"
	stop_app
	stop_upstream
}

case_jvm-rwlock() {
	local dir=$tmp/out/jvm-rwlock
	new_case
	ADDR_FN=rw_addresses
	ADDR_NOTE='@RW@ stands for the address of the lock'"'"'s `ReentrantReadWriteLock$NonfairSync` under catalog-reindex'"'"'s "Locked ownable synchronizers".'
	local park="- parking to wait for +<@RW@> \\(a java\\.util\\.concurrent\\.locks\\.ReentrantReadWriteLock\\\$NonfairSync\\)"
	spec 'catalog-reindex: sleeping, owns the write lock' 1 '^"catalog-reindex" .*State: TIMED_WAITING \(sleeping\) \| at java\.lang\.Thread\.sleep\([^)]*\) \| at com\.example\.rwlock\.Catalog\.reindex\(.*Locked ownable synchronizers: \| - <@RW@> \(a java\.util\.concurrent\.locks\.ReentrantReadWriteLock\$NonfairSync\)$'
	spec 'catalog-reader-1..6: WAITING in ReadLock.lock' 6 "^\"catalog-reader-[1-6]\" .*State: WAITING \\(parking\\) \\| at jdk\\.internal\\.misc\\.Unsafe\\.park\\([^)]*\\) \\| $park.*at java\\.util\\.concurrent\\.locks\\.ReentrantReadWriteLock\\\$ReadLock\\.lock\\(.*at com\\.example\\.rwlock\\.Catalog\\.lookup\\(.*Locked ownable synchronizers: \\| - None\$"
	spec 'catalog-writer-1..3: WAITING in WriteLock.lock' 3 "^\"catalog-writer-[1-3]\" .*State: WAITING \\(parking\\) \\| at jdk\\.internal\\.misc\\.Unsafe\\.park\\([^)]*\\) \\| $park.*at java\\.util\\.concurrent\\.locks\\.ReentrantReadWriteLock\\\$WriteLock\\.lock\\(.*at com\\.example\\.rwlock\\.Catalog\\.update\\(.*Locked ownable synchronizers: \\| - None\$"
	spec 'catalog-try-writer-1..2: TIMED_WAITING in WriteLock.tryLock(timeout)' 2 "^\"catalog-try-writer-[1-2]\" .*State: TIMED_WAITING \\(parking\\) \\| at jdk\\.internal\\.misc\\.Unsafe\\.park\\([^)]*\\) \\| $park.*at java\\.util\\.concurrent\\.locks\\.ReentrantReadWriteLock\\\$WriteLock\\.tryLock\\(.*at com\\.example\\.rwlock\\.Catalog\\.tryUpdate\\(.*Locked ownable synchronizers: \\| - None\$"
	spec 'catalog-stream-1..2: WAITING in ReadLock.lockInterruptibly' 2 "^\"catalog-stream-[1-2]\" .*State: WAITING \\(parking\\) \\| at jdk\\.internal\\.misc\\.Unsafe\\.park\\([^)]*\\) \\| $park.*at java\\.util\\.concurrent\\.locks\\.ReentrantReadWriteLock\\\$ReadLock\\.lockInterruptibly\\(.*at com\\.example\\.rwlock\\.Catalog\\.stream\\(.*Locked ownable synchronizers: \\| - None\$"
	spec 'threads that own a synchronizer' 1 'Locked ownable synchronizers: \| - <'
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	start_app "" com.example.rwlock.RwLockApp
	CMDS=("$APP_CMD &")
	wait_ready
	take_pair "$dir"
	publish "$dir" jvm-rwlock "# jvm-rwlock

A \`java.util.concurrent.locks.ReentrantReadWriteLock\` (non-fair, the default) held for ever
by a writer: \`com.example.rwlock.RwLockApp\` guards a \`Catalog\` with it.

- \`catalog-reindex\` takes the write lock and sleeps holding it (\`TIMED_WAITING (sleeping)\`);
  its \"Locked ownable synchronizers\" lists the lock's \`ReentrantReadWriteLock\$NonfairSync\`.
- Then, one at a time (each queued before the next starts, so the queue order is fixed):
  \`catalog-reader-1\`..\`-6\` in \`ReadLock.lock\` (\`WAITING (parking)\`, via
  \`AbstractQueuedSynchronizer.acquireShared\`), \`catalog-writer-1\`..\`-3\` in
  \`WriteLock.lock\` (\`WAITING (parking)\`, via \`acquire\`), \`catalog-try-writer-1\`..\`-2\` in
  \`WriteLock.tryLock(10, MINUTES)\` (\`TIMED_WAITING (parking)\`, via \`tryAcquireNanos\`) and
  \`catalog-stream-1\`..\`-2\` in \`ReadLock.lockInterruptibly\` (\`WAITING (parking)\`, via
  \`acquireSharedInterruptibly\`). All 13 park on the same \`NonfairSync\` address the
  holder owns, and own nothing.
- \`main\` parks in \`Threads.awaitShutdown\`.

Nothing in a waiter's lines says read or write except the \`ReadLock\` / \`WriteLock\` frame.

$(command_section jvm-rwlock)

## Counts

$(counts_section "$dir")"
	stop_app
}

rw_addresses() {
	ADDR[RW]=$(held "$1" catalog-reindex 'Locked ownable synchronizers: \| - <0x[0-9a-f]+> \(a java\.util\.concurrent\.locks\.ReentrantReadWriteLock\$NonfairSync\)')
}

case_jvm-jetty() {
	local idle=$tmp/out/jvm-jetty-idle stuck=$tmp/out/jvm-jetty-stuck
	start_upstream
	start_app "$CP_JETTY" com.example.jetty.JettyApp "$UPSTREAM_PORT"
	local port
	port=$(wait_line "$tmp/app.log" '^listening ([0-9]+)$' 'JettyApp')
	curl -fsS --max-time 5 "http://127.0.0.1:$port/ping" >/dev/null
	CMDS=("$UPSTREAM_CMD" "$APP_CMD &    # prints \"listening PORT\"; this run: PORT=$port"
		"curl -fsS http://127.0.0.1:$port/ping    # one request answered at once")

	local qtp='^"qtp[0-9]+-[0-9]+" '
	local selector="$SELECT.*at org\\.eclipse\\.jetty\\.io\\.ManagedSelector\\.select\\("
	local acceptor='^"qtp[0-9]+-[0-9]+-acceptor-0@[0-9a-f]+-ServerConnector@[0-9a-f]+\{HTTP/1\.1, \(http/1\.1\)\}\{127\.0\.0\.1:[0-9]+\}" .*State: RUNNABLE \| at sun\.nio\.ch\.Net\.accept\(.*at org\.eclipse\.jetty\.server\.ServerConnector\.accept\('
	local idle_poll="State: TIMED_WAITING \\(parking\\) .*at org\\.eclipse\\.jetty\\.util\\.BlockingArrayQueue\\.poll\\(.*at org\\.eclipse\\.jetty\\.util\\.thread\\.QueuedThreadPool\\\$Runner\\.idleJobPoll\\("
	local reserved="State: TIMED_WAITING \\(parking\\) .*at java\\.util\\.concurrent\\.SynchronousQueue\\.poll\\(.*at org\\.eclipse\\.jetty\\.util\\.thread\\.ReservedThreadExecutor\\\$ReservedThread\\.reservedWait\\("
	new_case
	spec 'qtp<hash>-N threads, acceptor included (QueuedThreadPool minThreads 8)' 8 '^"qtp[0-9]+-[0-9]+'
	spec 'qtp: the acceptor (renamed while it accepts)' 1 "$acceptor"
	spec 'qtp: the selector (ManagedSelector.select)' 1 "$qtp.*$selector"
	spec 'qtp: idle in QueuedThreadPool$Runner.idleJobPoll' '>=4' "$qtp.*$idle_poll"
	spec 'qtp: reserved thread in ReservedThreadExecutor$ReservedThread.reservedWait' '>=0' "$qtp.*$reserved"
	spec 'qtp: idle poll + reserved + selector (all the non-acceptor qtp threads)' 7 "$qtp.*($idle_poll|$reserved|$selector)"
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	wait_ready
	take_pair "$idle"
	local idle_counts idle_cmds
	idle_counts=$(counts_section "$idle")
	idle_cmds=$(command_section jvm-jetty)

	new_case
	spec 'qtp: request threads in the socket read of the upstream (UpstreamClient.fetch in QuoteHandler.handle)' 24 "$qtp.*$SOCKET_READ.*at sun\\.net\\.www\\.protocol\\.http\\.HttpURLConnection\\.getInputStream\\(.*at com\\.example\\.jetty\\.UpstreamClient\\.fetch\\(.*at com\\.example\\.jetty\\.QuoteHandler\\.handle\\(.*at org\\.eclipse\\.jetty\\.server\\.HttpChannel\\.handle\\(.*at org\\.eclipse\\.jetty\\.util\\.thread\\.QueuedThreadPool\\\$Runner\\.run\\("
	spec 'qtp: the acceptor' 1 "$acceptor"
	spec 'qtp: the selector' 1 "$qtp.*$selector"
	spec 'qtp: idle in idleJobPoll' '>=0' "$qtp.*$idle_poll"
	spec 'qtp: reserved thread' '>=0' "$qtp.*$reserved"
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	hold "$port" 24 'GET /quote HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'
	CMDS+=("$HOLD_CMD    # 24 requests for /quote on 24 connections (stuck dumps)")
	wait_ready
	take_pair "$stuck"

	publish "$idle" jvm-jetty-idle "# jvm-jetty-idle

An embedded Jetty 9.4 server at rest: \`com.example.jetty.JettyApp\` starts a
\`org.eclipse.jetty.server.Server\` on a \`QueuedThreadPool\` with Jetty's defaults (max 200,
min 8 threads, idle timeout 60 s; threads named \`qtp<hashCode>-<n>\`) and one
\`ServerConnector\` on 127.0.0.1 (1 acceptor, 1 selector on this 2-CPU machine), with one
handler (\`QuoteHandler\`: \`/ping\` answers at once, \`/quote\` calls the upstream). One
\`/ping\` request was answered before the dumps.

- The acceptor is a qtp thread renamed while it accepts:
  \`qtp<hash>-<n>-acceptor-0@<hash>-ServerConnector@<hash>{HTTP/1.1, (http/1.1)}{127.0.0.1:<port>}\`,
  \`RUNNABLE\` in \`sun.nio.ch.Net.accept\` under \`ServerConnector.accept\`.
- The selector: a qtp thread \`RUNNABLE\` in \`sun.nio.ch.EPoll.wait\` under
  \`ManagedSelector.select\` (two \`- locked\` lines).
- The idle threads: \`TIMED_WAITING (parking)\` in \`BlockingArrayQueue.poll\` under
  \`QueuedThreadPool\$Runner.idleJobPoll\`; one of them may instead be a reserved thread,
  \`TIMED_WAITING (parking)\` in \`SynchronousQueue.poll\` under
  \`ReservedThreadExecutor\$ReservedThread.reservedWait\` (Jetty keeps reserved threads for
  its EatWhatYouKill strategy).
- \`Connector-Scheduler-<hash>-1\` (the connector's scheduler, started by the \`/ping\`
  connection's idle timeout) in \`ScheduledThreadPoolExecutor\$DelayedWorkQueue.take\`.
- \`main\` parks in \`Threads.awaitShutdown\`.

The same JVM then gets the 24 requests of \`jvm-jetty-stuck\`.

$idle_cmds

## Counts

$idle_counts"

	publish "$stuck" jvm-jetty-stuck "# jvm-jetty-stuck

The same embedded Jetty 9.4 server as \`jvm-jetty-idle\` (same JVM, dumped after it), now with
24 requests for \`/quote\` in flight: \`QuoteHandler.handle\` calls \`UpstreamClient.fetch\`,
which opens an \`HttpURLConnection\` to the silent upstream with a connect timeout and **no
read timeout**, so each request thread waits for the response head for ever.

- 24 qtp threads (\`qtp<hash>-<n>\`) are \`RUNNABLE\` in \`SocketDispatcher.read0\` under
  \`sun.net.www.http.HttpClient.parseHTTPHeader\` / \`HttpURLConnection.getInputStream\` /
  \`UpstreamClient.fetch\` / \`QuoteHandler.handle\` / \`HttpChannel.handle\` (each with a
  \`- locked\` \`java.io.BufferedInputStream\`). Jetty's EatWhatYouKill strategy runs a request
  on the thread that was producing, so the thread that was the selector in jvm-jetty-idle
  may be a request thread now and another qtp thread the selector.
- The acceptor and the selector as in jvm-jetty-idle; the pool grew to serve the requests,
  and the threads left over idle in \`idleJobPoll\` or \`reservedWait\`.
- \`main\` parks in \`Threads.awaitShutdown\`.

The client (\`com.example.driver.Hold\`, its own JVM) writes each request and never reads.

$(command_section jvm-jetty)

## Counts

$(counts_section "$stuck")"
	stop_app
	stop_upstream
}

case_jvm-jdbc-drivers() {
	local dir=$tmp/out/jvm-jdbc-drivers
	start_postgres
	start_mariadb
	local pg_url="jdbc:postgresql://127.0.0.1:$PG_PORT/postgres?user=postgres"
	local maria_url="jdbc:mariadb://127.0.0.1:$MARIA_PORT/?user=app&password=app"
	new_case
	spec 'pg-query-1..5: socket read in the PostgreSQL driver (pg_sleep)' 5 "^\"pg-query-[1-5]\" .*$PARKED_SOCKET_READ.*at org\\.postgresql\\.core\\.VisibleBufferedInputStream\\..*at org\\.postgresql\\.core\\.v3\\.QueryExecutorImpl\\.processResults\\(.*at org\\.postgresql\\.jdbc\\.PgStatement\\.executeQuery\\(.*at com\\.example\\.jdbc\\.SlowReport\\.run\\("
	spec 'maria-query-1..5: socket read in the MariaDB driver (SLEEP)' 5 "^\"maria-query-[1-5]\" .*$PARKED_SOCKET_READ.*at org\\.mariadb\\.jdbc\\..*at org\\.mariadb\\.jdbc\\.MariaDbStatement\\.executeQuery\\(.*at com\\.example\\.jdbc\\.SlowReport\\.run\\("
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	start_app "$CP_JDBC" com.example.jdbc.JdbcApp "$pg_url" "$maria_url"
	CMDS=("${PG_CMDS[@]}" "${MARIA_CMDS[@]}" "$APP_CMD &")
	wait_ready
	local pg_active maria_active
	pg_active=$("$PG_BIN/psql" -tA -h 127.0.0.1 -p "$PG_PORT" -U postgres -c "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)' AND state = 'active'")
	maria_active=$(mariadb --no-defaults -S "$tmp/maria/mysqld.sock" -u root -N -e "SELECT count(*) FROM information_schema.processlist WHERE info = 'SELECT SLEEP(60)'")
	[[ $pg_active == 5 && $maria_active == 5 ]] || die "servers report $pg_active pg_sleep and $maria_active SLEEP queries, want 5 and 5"
	take_pair "$dir"
	publish "$dir" jvm-jdbc-drivers "# jvm-jdbc-drivers

Threads waiting in JDBC drivers' socket reads for a slow query, against real servers on
127.0.0.1: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') (a private cluster) and
MariaDB $(mariadbd --version | awk '{print $3}') (a private datadir, socket in a temp dir).
\`com.example.jdbc.JdbcApp\` starts two fixed thread pools with naming ThreadFactories:

- \`pg-query-1\`..\`pg-query-5\`: each opens its own connection with the PostgreSQL JDBC driver
  (\`DriverManager\`, no pool) and runs \`SELECT pg_sleep(60)\` in a loop: \`RUNNABLE\` in
  \`sun.nio.ch.Net.poll\` (see below) under \`org.postgresql.core.VisibleBufferedInputStream\` /
  \`QueryExecutorImpl.processResults\` / \`PgStatement.executeQuery\`.
- \`maria-query-1\`..\`maria-query-5\`: likewise with the MariaDB Connector/J and
  \`SELECT SLEEP(60)\`: \`RUNNABLE\` in \`sun.nio.ch.Net.poll\` under the driver's packet
  reader (\`ReadAheadBufferedStream.fillBuffer\`, \`StandardPacketInputStream.getPacketArray\`,
  \`AbstractQueryProtocol.getResult\`) and \`MariaDbStatement.executeQuery\`.
- \`main\` parks in \`Threads.awaitShutdown\`.

Neither driver sets a socket timeout by default, so both reads are untimed; but a timed
read switches JDK 17's \`NioSocketImpl\` to non-blocking mode for good, and each connection
had one before (in the drivers' connection setup), so the untimed read shows as
\`Net.poll\` under two \`NioSocketImpl.park\` frames and \`NioSocketImpl.implRead\` (no
\`timedRead\`, no \`SocketDispatcher.read0\`). The PostgreSQL threads hold two monitors
(\`- locked\` a \`QueryExecutorImpl\` and, twice, the \`PgStatement\`) and own a
\`ReentrantLock\$NonfairSync\` besides their \`ThreadPoolExecutor\$Worker\`; the MariaDB threads
hold one monitor (\`ReadAheadBufferedStream\`) and own two \`ReentrantLock\$NonfairSync\`. Before the
dumps the servers reported $pg_active active \`SELECT pg_sleep(60)\` (\`pg_stat_activity\`) and
$maria_active \`SELECT SLEEP(60)\` (\`information_schema.processlist\`).

$(command_section jvm-jdbc-drivers)

## Counts

$(counts_section "$dir")"
	stop_app
}

case_jvm-class-init() {
	local dir=$tmp/out/jvm-class-init
	new_case
	spec 'config-loader: sleeping in TaxRules.<clinit>' 1 '^"config-loader" .*State: TIMED_WAITING \(sleeping\) \| at java\.lang\.Thread\.sleep\([^)]*\) \| at com\.example\.classinit\.TaxRules\.load\([^)]*\) \| at com\.example\.classinit\.TaxRules\.<clinit>\('
	spec 'checkout-1..5: waiting for the class initialization of TaxRules' 5 '^"checkout-[1-5]" .* in Object\.wait\(\) .*State: RUNNABLE \| at com\.example\.classinit\.Checkout\.total\([^)]*\) \| - waiting on the Class initialization monitor for com\.example\.classinit\.TaxRules \|'
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	start_app "" com.example.classinit.ClassInitApp
	CMDS=("$APP_CMD &")
	wait_ready
	take_pair "$dir"
	publish "$dir" jvm-class-init "# jvm-class-init

Threads stuck behind a class initialization: \`com.example.classinit.ClassInitApp\` starts
\`config-loader\`, which calls \`TaxRules.rateFor\`; \`TaxRules\`'s static initializer
(\`private static final Map RATES = load()\`) sleeps for an hour (a slow remote config load
written in a static block). Once it is running, \`checkout-1\`..\`checkout-5\` call
\`Checkout.total\`, which needs \`TaxRules\`.

- \`config-loader\`: \`TIMED_WAITING (sleeping)\` in \`Thread.sleep\` under
  \`TaxRules.load\` / \`TaxRules.<clinit>\`. It shows no lock line: the JVM's class
  initialization lock is not a monitor it prints as held.
- \`checkout-1\`..\`-5\`: on JDK 17.0.15 the header says \`in Object.wait()\`, the state is
  \`RUNNABLE\`, the top frame is the caller (\`Checkout.total\`, the line that touches
  \`TaxRules\`) and the lock line under it is
  \`- waiting on the Class initialization monitor for com.example.classinit.TaxRules\`. (Older
  JDKs print the same header and state with no lock line; JDK 21+ print the same lock line.)
- \`main\` parks in \`Threads.awaitShutdown\`.

$(command_section jvm-class-init)

## Counts

$(counts_section "$dir")"
	stop_app
}

case_jvm-common-pool-starved() {
	local dir=$tmp/out/jvm-common-pool-starved
	new_case
	spec 'ForkJoinPool.commonPool-worker-* threads' 4 '^"ForkJoinPool\.commonPool-worker-[0-9]+" '
	spec 'ForkJoinPool.commonPool-worker-*: socket read in a supplyAsync task (RatesClient.rate)' 4 "^\"ForkJoinPool\\.commonPool-worker-[0-9]+\" .*$SOCKET_READ.*at com\\.example\\.forkjoin\\.RatesClient\\.rate\\(.*at java\\.util\\.concurrent\\.CompletableFuture\\\$AsyncSupply\\.run\\(.*at java\\.util\\.concurrent\\.ForkJoinPool\\.runWorker\\("
	spec 'main: WAITING in CompletableFuture.join' 1 '^"main" .*State: WAITING \(parking\) \| at jdk\.internal\.misc\.Unsafe\.park\([^)]*\) \| - parking to wait for +<0x[0-9a-f]+> \(a java\.util\.concurrent\.CompletableFuture\$Signaller\).*at java\.util\.concurrent\.CompletableFuture\.join\(.*at com\.example\.forkjoin\.ForkJoinApp\.main\('
	start_upstream
	start_app "" -Djava.util.concurrent.ForkJoinPool.common.parallelism=4 com.example.forkjoin.ForkJoinApp "$UPSTREAM_PORT"
	CMDS=("$UPSTREAM_CMD" "$APP_CMD &")
	wait_ready
	take_pair "$dir"
	publish "$dir" jvm-common-pool-starved "# jvm-common-pool-starved

The common ForkJoinPool starved by blocking tasks: \`com.example.forkjoin.ForkJoinApp\` runs
with \`-Djava.util.concurrent.ForkJoinPool.common.parallelism=4\` and submits 14
\`CompletableFuture.supplyAsync(...)\` tasks with no executor (so on
\`ForkJoinPool.commonPool()\`); each reads a rate from the silent upstream over a
\`java.net.Socket\` with no read timeout.

- \`ForkJoinPool.commonPool-worker-1\`..\`-4\` (daemon threads; the pool starts no more than its
  parallelism, and a socket read is no \`ManagedBlocker\`, so no compensating thread) are
  \`RUNNABLE\` in \`SocketDispatcher.read0\` under \`RatesClient.rate\` /
  \`CompletableFuture\$AsyncSupply.run\` / \`ForkJoinPool.runWorker\`.
- The other 10 tasks wait in the pool's queues; queued tasks appear in no thread dump.
- \`main\` is \`WAITING (parking)\` on a \`CompletableFuture\$Signaller\` in
  \`CompletableFuture.join\` (of \`allOf(...)\`), through \`ForkJoinPool.managedBlock\`.

Every other user of the common pool in this JVM (parallel streams, other \`supplyAsync\`
calls without an executor) would now wait behind these.

$(command_section jvm-common-pool-starved)

## Counts

$(counts_section "$dir")"
	stop_app
	stop_upstream
}

case_jvm-executors() {
	local dir=$tmp/out/jvm-executors
	local tail='at java\.util\.concurrent\.ThreadPoolExecutor\.getTask\([^)]*\) \| at java\.util\.concurrent\.ThreadPoolExecutor\.runWorker\('
	new_case
	spec 'pool-1-thread-1..3, pool-2-thread-1..2: WAITING in LinkedBlockingQueue.take' 5 "^\"pool-(1-thread-[1-3]|2-thread-[1-2])\" .*$CONDITION_AWAIT.*at java\\.util\\.concurrent\\.LinkedBlockingQueue\\.take\\([^)]*\\) \\| $tail"
	spec 'pool-3-thread-1: WAITING in DelayedWorkQueue.take (nothing scheduled)' 1 "^\"pool-3-thread-1\" .*$CONDITION_AWAIT.*at java\\.util\\.concurrent\\.ScheduledThreadPoolExecutor\\\$DelayedWorkQueue\\.take\\(.*$tail"
	spec 'task-1..8: TIMED_WAITING in LinkedBlockingQueue.poll' 8 "^\"task-[1-8]\" .*State: TIMED_WAITING \\(parking\\) .*at java\\.util\\.concurrent\\.LinkedBlockingQueue\\.poll\\([^)]*\\) \\| $tail"
	spec 'scheduling-1: TIMED_WAITING in DelayedWorkQueue.take (a task due in 1 h)' 1 "^\"scheduling-1\" .*State: TIMED_WAITING \\(parking\\) .*at java\\.util\\.concurrent\\.ScheduledThreadPoolExecutor\\\$DelayedWorkQueue\\.take\\(.*$tail"
	spec 'grpc-default-executor-0..2: TIMED_WAITING in SynchronousQueue.poll' 3 "^\"grpc-default-executor-[0-2]\" #[0-9]+ daemon .*State: TIMED_WAITING \\(parking\\) .*at java\\.util\\.concurrent\\.SynchronousQueue\\.poll\\([^)]*\\) \\| $tail"
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	start_app "" com.example.executors.ExecutorsApp
	CMDS=("$APP_CMD &")
	wait_ready
	take_pair "$dir"
	publish "$dir" jvm-executors "# jvm-executors

Idle executors named as the JDK, Spring Boot and grpc-java name theirs. Every pool is a JDK
\`ThreadPoolExecutor\` / \`ScheduledThreadPoolExecutor\` built by \`com.example.executors.ExecutorsApp\`;
**only the names follow those libraries** (our own ThreadFactory; no Spring or gRPC jar is
used). Each pool first runs one task per thread (tasks that wait for each other, so every
thread starts), then sits idle:

| threads | built as | idle in |
|---|---|---|
| \`pool-1-thread-1\`..\`-3\` | \`Executors.newFixedThreadPool(3)\` (JDK default names) | \`WAITING (parking)\`, \`LinkedBlockingQueue.take\` |
| \`pool-2-thread-1\`..\`-2\` | \`Executors.newFixedThreadPool(2)\` | likewise |
| \`pool-3-thread-1\` | \`Executors.newSingleThreadScheduledExecutor()\`, nothing scheduled | \`WAITING (parking)\`, \`ScheduledThreadPoolExecutor\$DelayedWorkQueue.take\` |
| \`task-1\`..\`-8\` | as Spring Boot's default \`ThreadPoolTaskExecutor\` (prefix \`task-\`, core 8, unbounded queue, keep-alive 60 s, core threads time out) | \`TIMED_WAITING (parking)\`, \`LinkedBlockingQueue.poll\` |
| \`scheduling-1\` | as Spring Boot's default \`ThreadPoolTaskScheduler\` (prefix \`scheduling-\`, pool size 1), one fixed-rate task every hour | \`TIMED_WAITING (parking)\`, \`DelayedWorkQueue.take\` |
| \`grpc-default-executor-0\`..\`-2\` | as grpc-java's shared executor (\`Executors.newCachedThreadPool\`, daemon threads, format \`grpc-default-executor-%d\` from 0) | \`TIMED_WAITING (parking)\`, \`SynchronousQueue.poll\` (keep-alive 60 s) |

All of them sit under \`ThreadPoolExecutor.getTask\` / \`runWorker\`. The \`task-*\` and
\`grpc-default-executor-*\` threads end after 60 s idle; the dumps are taken well before.
\`main\` parks in \`Threads.awaitShutdown\`.

$(command_section jvm-executors)

## Counts

$(counts_section "$dir")"
	stop_app
}

# jvm-idle-libs: machinery at rest, each in its own loop waiting for work, and a Quartz job
# that does not rest beside it.
idle_specs() {
	spec 'IdleScheduler_Worker-1..3: Object.wait in SimpleThreadPool$WorkerThread.run' "$1" '^"IdleScheduler_Worker-[1-3]" .*at java\.lang\.Object\.wait[0-9]*\(.*at org\.quartz\.simpl\.SimpleThreadPool\$WorkerThread\.run\('
	spec 'IdleScheduler_QuartzSchedulerThread: Object.wait in QuartzSchedulerThread.run' 1 '^"IdleScheduler_QuartzSchedulerThread" .*at java\.lang\.Object\.wait[0-9]*\(.*at org\.quartz\.core\.QuartzSchedulerThread\.run\('
	spec 'RMI TCP Connection(N)-127.0.0.1: reading the next call in TCPTransport.handleMessages' '>=1' '^"RMI TCP Connection\([0-9]+\)-127\.0\.0\.1" .*State: RUNNABLE.*at sun\.rmi\.transport\.tcp\.TCPTransport\.handleMessages\('
	spec 'JDWP Transport Listener: dt_socket' 1 '^"JDWP Transport Listener: dt_socket" '
	spec 'HttpClient-1-SelectorManager: in EPoll.wait' 1 '^"HttpClient-1-SelectorManager" .*at sun\.nio\.ch\.EPoll\.wait\('
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
}

idle_readme() { # CASE WHAT
	echo "# $1

\`com.example.idle.IdleApp\` $2

- a Quartz scheduler (\`IdleScheduler\`, 3 workers of \`SimpleThreadPool\`, one job due in an hour):
  the workers wait in \`SimpleThreadPool\$WorkerThread.run\` (\`Object.wait\`), the scheduler
  thread in \`QuartzSchedulerThread.run\`;
- a JMX connector server over RMI on 127.0.0.1 and a JMX client connected to it: the server's
  \`RMI TCP Connection(N)-127.0.0.1\` threads read the next call in
  \`TCPTransport.handleMessages\`, the client has its heartbeat;
- the debugger's agent (\`-agentlib:jdwp=transport=dt_socket,server=y,suspend=n\` on 127.0.0.1): the
  \`JDWP\` threads;
- a \`java.net.http.HttpClient\`: its \`HttpClient-1-SelectorManager\` in the selector;
- a scheduled executor (\`timer-1\`) with a task due in an hour; \`main\` parks in \`Threads.awaitShutdown\`."
}

case_jvm-idle-libs() {
	local jdwp=-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:0
	local dir=$tmp/out/jvm-idle-libs
	new_case
	idle_specs 3
	start_app "$CP_QUARTZ" "$jdwp" com.example.idle.IdleApp
	CMDS=("$APP_CMD &")
	wait_ready
	take_pair "$dir"
	publish "$dir" jvm-idle-libs "$(idle_readme jvm-idle-libs 'is a service at rest, made of machinery that waits for work in its own loop:')

Every thread but \`main\` is idle or the JVM's own: the right answer is no finding, and no pool
of busy or waiting threads.

$(command_section jvm-idle-libs)

## Counts

$(counts_section "$dir")"
	stop_app

	local jdk25=${JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
	if [[ -x $jdk25/bin/java ]]; then
		dir=$tmp/out/jvm-idle-libs-jdk25
		new_case
		idle_specs 3
		JAVA_BIN=$jdk25/bin/java
		start_app "$CP_QUARTZ" "$jdwp" com.example.idle.IdleApp
		CMDS=("$APP_CMD &")
		wait_ready
		take_pair "$dir"
		publish "$dir" jvm-idle-libs-jdk25 "$(idle_readme jvm-idle-libs-jdk25 'on JDK 25 (the classes compiled by javac 17, dumped by jstack 17): the same service at rest:')

The right answer is the same as on JDK 17: no finding.

$(command_section jvm-idle-libs-jdk25)

## Counts

$(counts_section "$dir")"
		stop_app
		JAVA_BIN=java
	else
		log "no JDK 25 at $jdk25: jvm-idle-libs-jdk25 left as it is"
	fi

	dir=$tmp/out/jvm-idle-libs-stuck
	new_case
	idle_specs 2
	spec 'IdleScheduler_Worker-N: a job (ReadForever) reading a socket that never answers, under JobRunShell.run' 1 '^"IdleScheduler_Worker-[1-3]" .*State: RUNNABLE.*at com\.example\.idle\.IdleApp\$ReadForever\.execute\(.*at org\.quartz\.core\.JobRunShell\.run\('
	start_app "$CP_QUARTZ" "$jdwp" com.example.idle.IdleApp stuck
	CMDS=("$APP_CMD &")
	wait_ready
	take_pair "$dir"
	publish "$dir" jvm-idle-libs-stuck "$(idle_readme jvm-idle-libs-stuck 'stuck: the same service, and one Quartz job (\`ReadForever\`) running now that reads with no timeout from a peer in the same JVM that accepts and never writes:')

One worker is in a socket read under \`JobRunShell.run\`: busy, not idle, in both dumps; the two
others and the rest of the machinery stay idle.

$(command_section jvm-idle-libs-stuck)

## Counts

$(counts_section "$dir")"
	stop_app
}

# jvm-idle-kotlinx: kotlinx.coroutines' default dispatcher and a Logback async appender at rest.
case_jvm-idle-kotlinx() {
	local dir=$tmp/out/jvm-idle-kotlinx
	new_case
	spec 'DefaultDispatcher-worker-N: parked in CoroutineScheduler$Worker, waiting for work' '>=1' '^"DefaultDispatcher-worker-[0-9]+" .*at kotlinx\.coroutines\.scheduling\.CoroutineScheduler\$Worker\.'
	spec 'AsyncAppender-Worker-ASYNC: waiting on its queue' 1 '^"AsyncAppender-Worker-ASYNC" .*at java\.util\.concurrent\.ArrayBlockingQueue\.take\('
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	start_app "$CP_KOTLINX" com.example.kotlinx.KotlinxApp
	CMDS=("$APP_CMD &")
	wait_ready
	take_pair "$dir"
	publish "$dir" jvm-idle-kotlinx "# jvm-idle-kotlinx

\`com.example.kotlinx.KotlinxApp\`: kotlinx.coroutines 1.0.1's \`Dispatchers.Default\` ran 4 tasks (its
\`DefaultDispatcher-worker-N\` threads then park in \`CoroutineScheduler\$Worker\`, waiting for the
next), and a Logback \`AsyncAppender\` wrote one line (its \`AsyncAppender-Worker-ASYNC\` waits on its
queue for the next event); \`main\` parks in \`Threads.awaitShutdown\`.

The right answer: every thread at rest, no finding.

$(command_section jvm-idle-kotlinx)

## Counts

$(counts_section "$dir")"
	stop_app
}

# jvm-kept-alive: main returned, non-daemon threads keep the JVM up.
kept_specs() {
	spec 'pool-1-thread-1..3: non-daemon, idle in ThreadPoolExecutor.getTask' 3 '^"pool-1-thread-[1-3]" #[0-9]+ prio=.*at java\.util\.concurrent\.ThreadPoolExecutor\.getTask\('
	spec 'cleanup-timer: non-daemon, waiting in TimerThread.mainLoop' 1 '^"cleanup-timer" #[0-9]+ prio=.*at java\.util\.TimerThread\.mainLoop\('
	spec 'DestroyJavaVM: present' 1 '^"DestroyJavaVM" '
	spec 'main: gone' 0 '^"main" '
}
case_jvm-kept-alive() {
	local dir=$tmp/out/jvm-kept-alive
	new_case
	kept_specs
	start_app "" com.example.keptalive.KeptAliveApp
	CMDS=("$APP_CMD &")
	wait_ready
	take_pair "$dir"
	publish "$dir" jvm-kept-alive "# jvm-kept-alive

\`com.example.keptalive.KeptAliveApp\`, a command-line job, does its work on
\`Executors.newFixedThreadPool(3)\` and schedules a non-daemon \`java.util.Timer\`
(\`cleanup-timer\`, a task due in an hour), then returns from \`main\` without shutting either
down. \`DestroyJavaVM\` waits for the last non-daemon thread; \`pool-1-thread-1\`..\`3\` (idle in
\`getTask\`) and \`cleanup-timer\` (in \`TimerThread.mainLoop\`) never end: the JVM never exits.

The right answer: a JVM kept alive by those two pools, every thread of them at rest.

$(command_section jvm-kept-alive)

## Counts

$(counts_section "$dir")"
	stop_app

	dir=$tmp/out/jvm-kept-alive-serving
	new_case
	kept_specs
	spec 'acceptor: non-daemon, accepting on 127.0.0.1' 1 '^"acceptor" #[0-9]+ prio=.*State: RUNNABLE.*accept'
	start_app "" com.example.keptalive.KeptAliveApp serve
	CMDS=("$APP_CMD &")
	wait_ready
	take_pair "$dir"
	publish "$dir" jvm-kept-alive-serving "# jvm-kept-alive-serving

\`com.example.keptalive.KeptAliveApp serve\`: the same, and it listens on 127.0.0.1 with an
acceptor thread of its own (\`acceptor\`, non-daemon): a server whose \`main\` returns is up by
design, as a Spring Boot service is.

The right answer: no finding.

$(command_section jvm-kept-alive-serving)

## Counts

$(counts_section "$dir")"
	stop_app
}

# jvm-task-sleep: a bounded pool whose every worker sleeps inside its task, a request thread
# on their futures; and the same pool idle in its loop (the control).
sleepy_specs() {
	spec 'report-1..4: idle in ThreadPoolExecutor.getTask' 4 '^"report-[1-4]" .*at java\.util\.concurrent\.ThreadPoolExecutor\.getTask\('
	spec 'poller: sleeping in its own loop (no task)' 1 '^"poller" .*State: TIMED_WAITING \(sleeping\)'
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
}
case_jvm-task-sleep() {
	local dir=$tmp/out/jvm-task-sleep
	new_case
	sleepy_specs
	spec 'quote-1..10: Thread.sleep inside the task (SleepyApp.slowQuote under FutureTask.run)' 10 '^"quote-([1-9]|10)" .*State: TIMED_WAITING \(sleeping\).*at com\.example\.sleepy\.SleepyApp\.slowQuote\(.*at java\.util\.concurrent\.FutureTask\.run\('
	spec 'checkout: waiting on a future (FutureTask.get)' 1 '^"checkout" .*at java\.util\.concurrent\.FutureTask\.get\('
	start_app "" com.example.sleepy.SleepyApp
	CMDS=("$APP_CMD &")
	wait_ready
	take_pair "$dir"
	publish "$dir" jvm-task-sleep "# jvm-task-sleep

\`com.example.sleepy.SleepyApp\`: a pool of 10 (\`Executors.newFixedThreadPool\`, \`quote-1\`..\`10\`)
given 30 tasks that each sleep 10 minutes inside the task (\`SleepyApp.slowQuote\` under
\`FutureTask.run\`: a slow call simulated); 20 wait in its queue, and \`checkout\` waits on their
futures. Beside it \`report-1\`..\`4\` are idle in their pool's loop and \`poller\`, a thread of its
own, sleeps between polls.

The right answer: the quote pool is saturated (every worker busy in a task, work queued behind
them), the request thread waits for it; report and poller are at rest.

$(command_section jvm-task-sleep)

## Counts

$(counts_section "$dir")"
	stop_app

	dir=$tmp/out/jvm-task-sleep-idle
	new_case
	sleepy_specs
	spec 'quote-1..10: idle in ThreadPoolExecutor.getTask' 10 '^"quote-([1-9]|10)" .*at java\.util\.concurrent\.ThreadPoolExecutor\.getTask\('
	start_app "" com.example.sleepy.SleepyApp idle
	CMDS=("$APP_CMD &")
	wait_ready
	take_pair "$dir"
	publish "$dir" jvm-task-sleep-idle "# jvm-task-sleep-idle

\`com.example.sleepy.SleepyApp idle\`: the same pool of 10, its tasks done: every worker idle in
\`ThreadPoolExecutor.getTask\`; \`report-1\`..\`4\` idle too, \`poller\` sleeping in its own loop.

The right answer: no finding.

$(command_section jvm-task-sleep-idle)

## Counts

$(counts_section "$dir")"
	stop_app
}

# ---- main -----------------------------------------------------------------------------

cases=("$@")
((${#cases[@]})) || cases=("${ALL_CASES[@]}")
for c in "${cases[@]}"; do
	declare -F "case_$c" >/dev/null || die "unknown case $c (cases: ${ALL_CASES[*]})"
done

log "compiling src/"
javac -nowarn -d "$classes" -cp "$CP_JETTY:$CP_HTTP4:$CP_HTTP5:$CP_POOL2:$CP_NETTY:$CP_QUARTZ:$CP_KOTLINX" $(find "$here/src" -name '*.java')
mkdir -p "$tmp/out"
for c in "${cases[@]}"; do
	log "case $c"
	"case_$c"
done
