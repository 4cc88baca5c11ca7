# shellcheck shell=bash
# Shared helpers for the JVM fixture scenarios; sourced by the case scripts, never run alone.
# Everything listens on 127.0.0.1 and every process started here is stopped by the EXIT trap.
#
# Timeline of one case (T0 = load start):
#   warm-up (upstream fast) -> upstream made slow -> before.txt -> load starts (T0)
#   -> during-1.txt at T0+10s -> during-2.txt at T0+20s
#   -> every load generator has ended (each request answered or hit its client timeout)
#   -> after.txt 5s later.
set -euo pipefail

GEN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$GEN_DIR/../.." && pwd)
SCENARIOS_DIR=$REPO_DIR/testdata/scenarios
SHOP_PORT=18080
UPSTREAM_PORT=18081
PG_PORT=15432
PG_BIN=/usr/lib/postgresql/15/bin
JAVA_CP=/usr/share/java/tomcat10-embed-core.jar:/usr/share/java/jakarta-annotation-api.jar:/usr/share/java/HikariCP.jar:/usr/share/java/slf4j-api.jar:/usr/share/java/slf4j-simple.jar:/usr/share/java/postgresql.jar
# A thread in a socket read, as JDK 17 prints it: with no read timeout the socket blocks in
# SocketDispatcher.read0; with one, NioSocketImpl.timedRead parks in Net.poll.
SOCKET_READ_RE='sun\.nio\.ch\.(SocketDispatcher\.read0|Net\.poll)'
WORK=${FIXTURE_WORK:-/tmp/dumpdiff-fixtures}
STARTED_PIDS=()
PG_DATA=

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# ensure_packages installs the Debian packages the scenarios need when one is missing.
ensure_packages() {
	local pkgs=(openjdk-17-jdk-headless libtomcat10-embed-java libjakarta-annotation-api-java
		libhikaricp-java libpostgresql-jdbc-java libslf4j-java postgresql-15 curl)
	local missing=()
	for p in "${pkgs[@]}"; do
		dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
	done
	if ((${#missing[@]})); then
		log "installing ${missing[*]}"
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
	fi
	command -v go >/dev/null || { log "go is needed for the load generator"; exit 1; }
}

# build compiles the shop, the upstream and the load generator into $WORK.
build() {
	mkdir -p "$WORK"
	rm -rf "$WORK/classes"
	javac -nowarn -d "$WORK/classes" -cp "$JAVA_CP" $(find "$GEN_DIR/java/src" -name '*.java')
	(cd "$REPO_DIR" && go build -o "$WORK/load" ./testdata/gen/load)
}

cleanup() {
	local pid i
	for pid in "${STARTED_PIDS[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	# A shop with 200 stuck request threads can take Tomcat's whole shutdown grace period;
	# give each process 5 s, then end it for good.
	for i in $(seq 1 25); do
		alive=0
		for pid in "${STARTED_PIDS[@]}"; do
			kill -0 "$pid" 2>/dev/null && alive=1
		done
		((alive)) || break
		sleep 0.2
	done
	for pid in "${STARTED_PIDS[@]}"; do
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	STARTED_PIDS=()
	if [[ -n $PG_DATA ]]; then
		su postgres -c "$PG_BIN/pg_ctl -D $PG_DATA -m immediate -w stop" >/dev/null 2>&1 || true
		rm -rf "$PG_DATA"
		PG_DATA=
	fi
}
trap cleanup EXIT

# wait_http URL waits up to 30s for URL to answer.
wait_http() {
	local i
	for i in $(seq 1 150); do
		curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null && return 0
		sleep 0.2
	done
	log "timed out waiting for $1"
	return 1
}

start_upstream() {
	java -Xmx256m -cp "$WORK/classes" com.example.upstream.SlowUpstream "$UPSTREAM_PORT" 10 \
		>"$WORK/upstream.log" 2>&1 &
	STARTED_PIDS+=($!)
	wait_http "http://127.0.0.1:$UPSTREAM_PORT/admin/delay"
}

# upstream_delay MS [PATH-PREFIX] makes the upstream answer after MS milliseconds.
upstream_delay() {
	curl -fsS "http://127.0.0.1:$UPSTREAM_PORT/admin/delay?ms=$1&path=${2:-/}" >/dev/null
}

# start_shop JVM-OPTIONS... starts the shop and sets SHOP_PID.
start_shop() {
	java -Xmx512m "$@" -Dshop.port=$SHOP_PORT -Dshop.upstream=http://127.0.0.1:$UPSTREAM_PORT \
		-cp "$WORK/classes:$JAVA_CP" com.example.shop.ShopApplication >"$WORK/shop.log" 2>&1 &
	SHOP_PID=$!
	STARTED_PIDS+=($SHOP_PID)
	wait_http "http://127.0.0.1:$SHOP_PORT/ping"
}

# start_postgres starts a private cluster on 127.0.0.1:$PG_PORT with a "shop" database
# holding an orders table.
start_postgres() {
	PG_DATA=$(mktemp -d /tmp/dumpdiff-pg.XXXXXX)
	chown postgres: "$PG_DATA"
	su postgres -c "$PG_BIN/initdb -D $PG_DATA -A trust -U postgres" >"$WORK/initdb.log" 2>&1
	su postgres -c "$PG_BIN/pg_ctl -D $PG_DATA -l $PG_DATA/server.log -w start \
		-o '-p $PG_PORT -k $PG_DATA -c listen_addresses=127.0.0.1 -c max_connections=50'" >/dev/null
	"$PG_BIN/psql" -q -h 127.0.0.1 -p $PG_PORT -U postgres -c "CREATE ROLE shop LOGIN" -c "CREATE DATABASE shop OWNER shop"
	"$PG_BIN/psql" -q -h 127.0.0.1 -p $PG_PORT -U shop -d shop \
		-c "CREATE TABLE orders (id bigserial PRIMARY KEY, user_id bigint NOT NULL, total numeric(10,2) NOT NULL)" \
		-c "INSERT INTO orders (user_id, total) SELECT g % 1000, (g % 97) + 0.99 FROM generate_series(1, 50000) g" \
		-c "CREATE INDEX orders_user_id ON orders (user_id)"
}

# load NAME ARGS... runs the load generator in the background; its summary goes to $WORK/NAME.out.
LOAD_PIDS=()
load() {
	local name=$1
	shift
	"$WORK/load" -name "$name" "$@" >"$WORK/$name.out" 2>&1 &
	LOAD_PIDS+=($!)
	STARTED_PIDS+=($!)
}

# warm CURL-URL COUNT sends COUNT sequential requests (warm-up, no timing).
warm() {
	local i
	for i in $(seq 1 "$2"); do
		curl -sS -o /dev/null --max-time 10 "${1//%d/$i}" || true
	done
}

# dump DIR NAME writes jstack -l of the shop to DIR/NAME.txt and records in DUMP_AT[NAME]
# the wall-clock start and end of the jstack run (see dump_offset).
declare -A DUMP_AT
dump() {
	local begin=${EPOCHREALTIME}
	jstack -l "$SHOP_PID" >"$1/$2.txt"
	DUMP_AT[$2]="$begin ${EPOCHREALTIME}"
	log "$2.txt: $(grep -c '^"' "$1/$2.txt") threads, $(du -h "$1/$2.txt" | cut -f1)"
}

# at SECONDS sleeps until T0+SECONDS.
at() {
	local now
	now=${EPOCHREALTIME}
	local wait_s
	wait_s=$(awk -v t0="$T0" -v s="$1" -v now="$now" 'BEGIN { d = t0 + s - now; print (d > 0 ? d : 0) }')
	sleep "$wait_s"
}

# timeline DIR LOAD-STARTER runs the standard four dumps around the load that the function
# LOAD-STARTER starts (with `load`), and writes the load summaries to DIR/load.txt.
timeline() {
	local dir=$1 starter=$2
	rm -rf "$dir"
	mkdir -p "$dir"
	sleep 2
	dump "$dir" before
	T0=${EPOCHREALTIME}
	LOAD_PIDS=()
	"$starter"
	at 10
	dump "$dir" during-1
	at 20
	dump "$dir" during-2
	local pid
	for pid in "${LOAD_PIDS[@]}"; do
		wait "$pid"
	done
	LOAD_END=$(awk -v t0="$T0" -v now="$EPOCHREALTIME" 'BEGIN { printf "%.0f", now - t0 }')
	log "load ended at T0+${LOAD_END}s"
	sleep 5
	dump "$dir" after
	cat "$WORK"/*.out >"$WORK/load-summary.txt"
	rm -f "$WORK"/*.out
}

# check_undisturbed fails (exit 75) when the machine was too busy for the timeline to mean
# what it says: a load generator started its requests more than 1 s late, or a during dump
# started more than 1 s late or took jstack more than 3 s (the 2 cores are shared). run-all.sh
# then runs the case again.
check_undisturbed() {
	local bad=0 lag m
	while read -r lag; do
		if awk -v l="$lag" 'BEGIN { exit !(l >= 1) }'; then
			log "disturbed: a load generator started a request ${lag}s late"
			bad=1
		fi
	done < <(sed -n 's/.*send-lag-max=\([0-9.]*\)s).*/\1/p' "$WORK/load-summary.txt")
	for m in during-1 during-2; do
		if ! awk -v t0="$T0" -v at="${DUMP_AT[$m]}" -v want="${m#during-}" 'BEGIN {
			split(at, a, " "); exit !(a[1] - t0 <= want * 10 + 1 && a[2] - a[1] <= 3) }'; then
			log "disturbed: $m taken at $(dump_offset "$m")"
			bad=1
		fi
	done
	((bad == 0)) || exit 75
}

# dump_offset NAME prints when dump NAME was taken relative to T0, e.g. T0+10.0s..+10.4s.
dump_offset() {
	[[ -n ${DUMP_AT[$1]:-} ]] || { echo "?"; return; }
	awk -v t0="$T0" -v at="${DUMP_AT[$1]}" \
		'BEGIN { split(at, a, " "); printf "T0%+.1fs..%+.1fs", a[1] - t0, a[2] - t0 }'
}

# flatten FILE prints one line per thread of a jstack dump: the header, then every frame and
# lock line joined with " | ", so grep -E can ask "which threads have X below Y".
flatten() {
	awk '/^"/ { if (t) print t; t = $0; next }
	     /^JNI global refs/ { if (t) print t; t = ""; next }
	     /^[[:space:]]*$/ { next }
	     t { sub(/^[[:space:]]+/, ""); t = t " | " $0 }
	     END { if (t) print t }' "$1"
}

# count_table DIR "label=regex"... prints a Markdown table: one row per dump, one column per
# label, each cell the number of threads whose flattened line matches the regex.
count_table() {
	local dir=$1
	shift
	local header="| dump | taken at |" rule="|---|---|" spec moment row
	for spec in "$@"; do
		header+=" ${spec%%=*} |"
		rule+="---:|"
	done
	echo "$header"
	echo "$rule"
	for moment in before during-1 during-2 after; do
		row="| $moment | $(dump_offset "$moment") |"
		for spec in "$@"; do
			row+=" $(flatten "$dir/$moment.txt" | grep -cE -- "${spec#*=}" || true) |"
		done
		echo "$row"
	done
	echo
	echo "T0 is the start of the load; \"taken at\" is when jstack started and ended."
	echo
	echo "Column patterns (grep -E over one line per thread, frames joined with \" | \"; see flatten in testdata/gen/lib.sh):"
	echo
	for spec in "$@"; do
		echo "- ${spec%%=*}: \`${spec#*=}\`"
	done
}

# prepare installs and builds unless run-all.sh already did (FIXTURE_BUILT=1).
prepare() {
	if [[ ${FIXTURE_BUILT:-} != 1 ]]; then
		ensure_packages
		build
	fi
}

# publish OUT DEST replaces DEST with the freshly written OUT, after check_undisturbed.
# load_summary_section prints the README section with the load generator's
# summaries (inside a case's README block).
load_summary_section() {
	echo
	echo "Load generator summaries (load ended at T0+${LOAD_END}s):"
	echo
	echo '```'
	cat "$WORK/load-summary.txt"
	echo '```'
}

publish() {
	check_undisturbed
	rm -rf "$2"
	mkdir -p "$(dirname "$2")"
	mv "$1" "$2"
	log "$(basename "$2") written"
}
