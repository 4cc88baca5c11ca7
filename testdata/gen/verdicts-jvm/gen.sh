#!/usr/bin/env bash
# Regenerates the JVM verdict fixtures in testdata/verdicts/ from small real Java 17 programs
# (src/) dumped with the installed JDK's `jstack -l PID`:
#
#   jvm-lock-order-deadlock/dump.txt               com.example.bank.BankApp synchronized
#   jvm-lock-order-deadlock/dump-reentrantlock.txt com.example.bank.BankApp reentrantlock
#   jvm-contention/1.txt, 2.txt                    com.example.cache.PricingApp  (3 s apart)
#   jvm-idle/1.txt, 2.txt, 3.txt                   com.example.gateway.GatewayApp (2 s apart)
#   jvm-stuck-pool/1.txt, 2.txt                    com.example.report.ReportApp  (3 s apart)
#
# Each program puts its threads in place and then parks its main thread. This script polls
# the JVM with jstack until grep over the dump finds every thread in its wanted state (the
# checks listed in each case below), then takes the dumps, checks each one again, writes the
# case's README.md (grep counts per dump) and replaces the case's folder. The sockets go to
# com.example.upstream.SilentUpstream, a separate JVM (so its threads are in no dump) that
# accepts on 127.0.0.1 and never answers. Every JVM started here is ended by the EXIT trap.
#
# Usage: bash testdata/gen/verdicts-jvm/gen.sh [CASE...]   (from anywhere; default: all four
#        cases; ~40 s). Needs java, javac and jstack (17).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out_root=$repo/testdata/verdicts
JAVA_OPTS=(-Xmx64m -XX:+UseSerialGC)
ALL_CASES=(jvm-lock-order-deadlock jvm-contention jvm-idle jvm-stuck-pool)

tmp=$(mktemp -d /tmp/dumpdiff-verdicts-jvm.XXXXXX)
classes=$tmp/classes
pids=()

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
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() {
	log "$*"
	exit 1
}

# ---- the JVMs -------------------------------------------------------------------------

# start_upstream starts the silent upstream and sets UPSTREAM_PORT.
start_upstream() {
	java "${JAVA_OPTS[@]}" -cp "$classes" com.example.upstream.SilentUpstream >"$tmp/upstream.log" 2>&1 &
	pids+=($!)
	local i
	for i in $(seq 1 100); do
		UPSTREAM_PORT=$(sed -n 's/^listening \([0-9]*\)$/\1/p' "$tmp/upstream.log")
		[[ -n $UPSTREAM_PORT ]] && return 0
		sleep 0.1
	done
	cat "$tmp/upstream.log" >&2
	die "the silent upstream did not start"
}

# start_app MAIN-CLASS ARGS... starts one program under test; sets APP_PID and APP_CMD (the
# command line as the README shows it, with the class directory as $CLASSES).
start_app() {
	java "${JAVA_OPTS[@]}" -cp "$classes" "$@" >"$tmp/app.log" 2>&1 &
	APP_PID=$!
	pids+=("$APP_PID")
	APP_CMD="java ${JAVA_OPTS[*]} -cp \$CLASSES $*"
}

# stop_app ends the program under test.
stop_app() {
	kill "$APP_PID" 2>/dev/null || true
	wait "$APP_PID" 2>/dev/null || true
	local p keep=()
	for p in "${pids[@]}"; do
		[[ $p == "$APP_PID" ]] || keep+=("$p")
	done
	pids=("${keep[@]}")
	if [[ -s $tmp/app.log ]]; then
		log "program output:"
		cat "$tmp/app.log" >&2
	fi
}

# ---- grep over a dump -----------------------------------------------------------------

# flatten FILE prints one line per thread of a jstack dump: the header, then every frame and
# lock line with its indent removed, joined with " | " (same as flatten in ../lib.sh). It
# stops at "JNI global refs", so the deadlock report after it is not read as threads.
flatten() {
	awk '/^"/ { if (t) print t; t = $0; next }
	     /^JNI global refs/ { if (t) print t; t = ""; exit }
	     /^[[:space:]]*$/ { next }
	     t { sub(/^[[:space:]]+/, ""); t = t " | " $0 }
	     END { if (t) print t }' "$1"
}

# held FILE THREAD REGEX prints the first 0x address in the part of THREAD's flattened line
# that REGEX matches (REGEX must contain <0x[0-9a-f]+>).
held() {
	flatten "$1" | grep -E "^\"$2\" " | grep -oE -- "$3" | head -1 | grep -oE '0x[0-9a-f]+' || true
}

# A case's checks: spec LABEL WANT REGEX counts the threads whose flattened line matches
# REGEX; lines LABEL WANT REGEX counts raw lines of the dump. @NAME@ in a REGEX is replaced
# by the address ADDR[NAME] that the case's addresses function reads from the same dump.
SPEC_KIND=() SPEC_LABEL=() SPEC_WANT=() SPEC_RE=()
ADDR_FN=
declare -A ADDR
new_case() {
	SPEC_KIND=() SPEC_LABEL=() SPEC_WANT=() SPEC_RE=()
	ADDR_FN=
}
spec() { SPEC_KIND+=(threads) SPEC_LABEL+=("$1") SPEC_WANT+=("$2") SPEC_RE+=("$3"); }
lines() { SPEC_KIND+=(lines) SPEC_LABEL+=("$1") SPEC_WANT+=("$2") SPEC_RE+=("$3"); }

# expand FILE REGEX fills in REGEX's @NAME@ addresses from FILE.
expand() {
	local re=$2 k
	ADDR=()
	[[ -n $ADDR_FN ]] && "$ADDR_FN" "$1"
	for k in "${!ADDR[@]}"; do
		re=${re//@$k@/${ADDR[$k]:-MISSING}}
	done
	printf '%s' "$re"
}

# count FILE I prints the count of spec I in FILE.
count() {
	local re
	re=$(expand "$1" "${SPEC_RE[$2]}")
	if [[ ${SPEC_KIND[$2]} == lines ]]; then
		grep -cE -- "$re" "$1" || true
	else
		flatten "$1" | grep -cE -- "$re" || true
	fi
}

# check FILE [quiet] succeeds when every spec has its wanted count in FILE.
check() {
	local i n ok=0
	for i in "${!SPEC_LABEL[@]}"; do
		n=$(count "$1" "$i")
		if [[ $n != "${SPEC_WANT[$i]}" ]]; then
			ok=1
			[[ ${2:-} == quiet ]] || log "$(basename "$1"): ${SPEC_LABEL[$i]}: $n, want ${SPEC_WANT[$i]}"
		fi
	done
	return $ok
}

# wait_ready polls the program with jstack -l until check passes (30 s at most).
wait_ready() {
	local i
	for i in $(seq 1 100); do
		if jstack -l "$APP_PID" >"$tmp/poll.txt" 2>/dev/null && check "$tmp/poll.txt" quiet; then
			log "threads in place after $i jstack poll(s)"
			return 0
		fi
		kill -0 "$APP_PID" 2>/dev/null || { cat "$tmp/app.log" >&2; die "the program exited"; }
		sleep 0.3
	done
	check "$tmp/poll.txt" || true
	cp "$tmp/poll.txt" /tmp/dumpdiff-verdicts-jvm-last-poll.txt
	die "the threads did not get in place (last poll: /tmp/dumpdiff-verdicts-jvm-last-poll.txt)"
}

# take DIR NAME writes jstack -l of the program to DIR/NAME and checks it; DUMP_AT[NAME] is
# the wall-clock time jstack started.
declare -A DUMP_AT
take() {
	DUMP_AT[$2]=${EPOCHREALTIME}
	jstack -l "$APP_PID" >"$1/$2"
	check "$1/$2" || die "$2 is not what was wanted (see above)"
	log "$2: $(threads "$1/$2") threads, $(wc -c <"$1/$2") bytes"
}

# after SECONDS sleeps until SECONDS after 1.txt started.
after() {
	sleep "$(awk -v a="${DUMP_AT[1.txt]}" -v s="$1" -v now="${EPOCHREALTIME}" 'BEGIN { d = a + s - now; print (d > 0 ? d : 0) }')"
}

# threads FILE prints the number of thread headers (minus the deadlock report's "name": lines).
threads() {
	echo $(($(grep -c '^"' "$1") - $(grep -c '^".*":$' "$1" || true)))
}

# ---- README ---------------------------------------------------------------------------

STATES=('RUNNABLE' 'BLOCKED (on object monitor)' 'WAITING (parking)' 'WAITING (on object monitor)'
	'TIMED_WAITING (sleeping)' 'TIMED_WAITING (parking)' 'TIMED_WAITING (on object monitor)')

# counts_section DIR DUMP... prints the README's thread counts: per state, then per check.
counts_section() {
	local dir=$1 f s i row first
	shift
	local header="|" rule="|---|"
	for f in "$@"; do
		header+=" | $f"
		rule+="---:|"
	done
	header+=" |"
	first=${DUMP_AT[$1]}
	if (($# > 1)); then
		local at=()
		for f in "$@"; do
			at+=("$f at $(awk -v a="$first" -v b="${DUMP_AT[$f]}" 'BEGIN { printf "+%.1f s", b - a }')")
		done
		echo "When jstack started, from the first dump: $(printf '%s, ' "${at[@]}" | sed 's/, $//')."
		echo
	fi
	echo "Thread counts per state, from grep over the dumps:"
	echo
	echo "$header"
	echo "$rule"
	row="| threads (\`grep -c '^\"'\` minus the deadlock report's \`grep -c '^\".*\":\$'\`) |"
	for f in "$@"; do row+=" $(threads "$dir/$f") |"; done
	echo "$row"
	for s in "${STATES[@]}"; do
		row="| \`java.lang.Thread.State: $s\` |"
		for f in "$@"; do row+=" $(grep -cF "java.lang.Thread.State: $s" "$dir/$f" || true) |"; done
		echo "$row"
	done
	row="| no state line (VM-internal threads) |"
	for f in "$@"; do
		row+=" $(($(threads "$dir/$f") - $(grep -c 'java.lang.Thread.State: ' "$dir/$f"))) |"
	done
	echo "$row"
	echo
	echo "The VM-internal threads (headers without a \`#N\` thread number) in $1: $(grep '^"' "$dir/$1" |
		grep -v '^"[^"]*" #[0-9]' | grep -v '":$' | cut -d'"' -f2 | sed 's/.*/"&"/' | paste -sd, | sed 's/,/, /g')."
	echo
	echo "The program's threads, per check (the same checks gen.sh waits for and verifies):"
	echo
	echo "$header"
	echo "$rule"
	for i in "${!SPEC_LABEL[@]}"; do
		row="| ${SPEC_LABEL[$i]} |"
		for f in "$@"; do row+=" $(count "$dir/$f" "$i") |"; done
		echo "$row"
	done
	echo
	echo "Patterns: a thread check is \`flatten FILE | grep -cE REGEX\`, where flatten (in gen.sh) prints"
	echo "one line per thread: its header, then each frame and lock line without its indent, joined"
	echo "with \" | \"; a line check is \`grep -cE REGEX FILE\`.${ADDR_NOTE:+ $ADDR_NOTE}"
	echo
	for i in "${!SPEC_LABEL[@]}"; do
		echo "- ${SPEC_LABEL[$i]} (${SPEC_KIND[$i]}): \`${SPEC_RE[$i]}\`"
	done
}

# command_section CASE DUMPS-DESCRIPTION prints how the dumps were made.
command_section() {
	echo "## How it was made"
	echo
	echo "\`bash testdata/gen/verdicts-jvm/gen.sh $1\` (Java sources in \`testdata/gen/verdicts-jvm/src/\`), which runs:"
	echo
	echo '```'
	echo "javac -d \$CLASSES \$(find testdata/gen/verdicts-jvm/src -name '*.java')"
	if [[ -n ${UPSTREAM_CMD:-} ]]; then
		echo "$UPSTREAM_CMD &    # prints \"listening PORT\"; this run: PORT=$UPSTREAM_PORT"
	fi
	local c
	for c in "${CMDS[@]}"; do echo "$c"; done
	echo '```'
	echo
	echo "$2"
	echo
	echo "$(java -version 2>&1 | sed -n 2p) on $(uname -sm)."
}

# ---- the cases ------------------------------------------------------------------------

MAIN_WAITS='^"main" .*State: WAITING \(parking\) .*at com\.example\.util\.Threads\.awaitShutdown\('
POOL_IDLE='State: WAITING \(parking\) .*at java\.util\.concurrent\.LinkedBlockingQueue\.take\(.*at java\.util\.concurrent\.ThreadPoolExecutor\.getTask\('
SOCKET_READ='State: RUNNABLE \| at sun\.nio\.ch\.SocketDispatcher\.read0\([^)]*Native Method\)'
NONFAIR='\(a java\.util\.concurrent\.locks\.ReentrantLock\$NonfairSync\)'

bank_addresses_monitor() {
	ADDR[A]=$(held "$1" transfer-1 '- locked <0x[0-9a-f]+> \(a com\.example\.bank\.Account\)')
	ADDR[B]=$(held "$1" transfer-2 '- locked <0x[0-9a-f]+> \(a com\.example\.bank\.Account\)')
}
bank_addresses_locks() {
	ADDR[A]=$(held "$1" transfer-1 "Locked ownable synchronizers: \\| - <0x[0-9a-f]+> $NONFAIR")
	ADDR[B]=$(held "$1" transfer-2 "Locked ownable synchronizers: \\| - <0x[0-9a-f]+> $NONFAIR")
}

case_jvm-lock-order-deadlock() {
	local dir=$1
	CMDS=()

	new_case
	ADDR_FN=bank_addresses_monitor
	lines 'deadlock report header' 1 '^Found one Java-level deadlock:$'
	lines 'deadlock report footer' 1 '^Found 1 deadlock\.$'
	spec 'transfer-1: BLOCKED, holds A, waits for B' 1 '^"transfer-1" .*State: BLOCKED \(on object monitor\) \| at com\.example\.bank\.TransferService\.transferSynchronized\(.* - waiting to lock <@B@> \(a com\.example\.bank\.Account\) \| - locked <@A@> \(a com\.example\.bank\.Account\)'
	spec 'transfer-2: BLOCKED, holds B, waits for A' 1 '^"transfer-2" .*State: BLOCKED \(on object monitor\) \| at com\.example\.bank\.TransferService\.transferSynchronized\(.* - waiting to lock <@A@> \(a com\.example\.bank\.Account\) \| - locked <@B@> \(a com\.example\.bank\.Account\)'
	spec 'audit: BLOCKED waiting for A, holds nothing' 1 '^"audit" .*State: BLOCKED \(on object monitor\) \| at com\.example\.bank\.AuditService\.auditSynchronized\(.* - waiting to lock <@A@> \(a com\.example\.bank\.Account\)'
	spec 'teller-1..8: BLOCKED waiting for B' 8 '^"teller-[1-8]" .*State: BLOCKED \(on object monitor\) \| at com\.example\.bank\.TellerService\.depositSynchronized\(.* - waiting to lock <@B@> \(a com\.example\.bank\.Account\)'
	spec 'threads that hold an Account monitor' 2 ' - locked <0x[0-9a-f]+> \(a com\.example\.bank\.Account\)'
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	start_app com.example.bank.BankApp synchronized
	CMDS+=("$APP_CMD &    # dump.txt")
	wait_ready
	take "$dir" dump.txt
	ADDR_NOTE='@A@ and @B@ stand for the addresses of accounts A and B: the `- locked <ADDR> (a com.example.bank.Account)` of transfer-1 and of transfer-2.'
	local counts1
	counts1=$(counts_section "$dir" dump.txt)
	stop_app

	new_case
	ADDR_FN=bank_addresses_locks
	lines 'deadlock report header' 1 '^Found one Java-level deadlock:$'
	lines 'deadlock report footer' 1 '^Found 1 deadlock\.$'
	spec 'transfer-1: WAITING (parking), owns A, waits for B' 1 "^\"transfer-1\" .*State: WAITING \\(parking\\) .*- parking to wait for +<@B@> $NONFAIR.*at com\\.example\\.bank\\.TransferService\\.transferWithLocks\\(.*Locked ownable synchronizers: \\| - <@A@> $NONFAIR\$"
	spec 'transfer-2: WAITING (parking), owns B, waits for A' 1 "^\"transfer-2\" .*State: WAITING \\(parking\\) .*- parking to wait for +<@A@> $NONFAIR.*at com\\.example\\.bank\\.TransferService\\.transferWithLocks\\(.*Locked ownable synchronizers: \\| - <@B@> $NONFAIR\$"
	spec 'audit: WAITING (parking) for A, owns nothing' 1 "^\"audit\" .*State: WAITING \\(parking\\) .*- parking to wait for +<@A@> $NONFAIR.*at com\\.example\\.bank\\.AuditService\\.auditWithLock\\(.*Locked ownable synchronizers: \\| - None\$"
	spec 'teller-1..8: WAITING (parking) for B, own nothing' 8 "^\"teller-[1-8]\" .*State: WAITING \\(parking\\) .*- parking to wait for +<@B@> $NONFAIR.*at com\\.example\\.bank\\.TellerService\\.depositWithLock\\(.*Locked ownable synchronizers: \\| - None\$"
	spec 'threads that own a synchronizer' 2 'Locked ownable synchronizers: \| - <'
	spec 'threads that hold an Account monitor' 0 ' - locked <0x[0-9a-f]+> \(a com\.example\.bank\.Account\)'
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	start_app com.example.bank.BankApp reentrantlock
	CMDS+=("$APP_CMD &    # dump-reentrantlock.txt")
	CMDS+=("jstack -l PID > FILE    # once the checks below pass, then the JVM is killed")
	wait_ready
	take "$dir" dump-reentrantlock.txt
	ADDR_NOTE='@A@ and @B@ stand for the addresses of the ReentrantLock$NonfairSync of accounts A and B: the one under "Locked ownable synchronizers" of transfer-1 and of transfer-2.'
	local counts2
	counts2=$(counts_section "$dir" dump-reentrantlock.txt)
	stop_app

	cat >"$dir/README.md" <<EOF
# jvm-lock-order-deadlock

A lock-order deadlock in a bank app (\`com.example.bank.BankApp\`), with bystanders. Verdict
wanted: **deadlock** (transfer-1 ⇄ transfer-2), with audit and the 8 tellers stuck behind the
cycle's locks but not part of it.

- \`transfer-1\` runs \`TransferService.transfer(A, B)\`: locks account A, then waits for B.
- \`transfer-2\` runs \`TransferService.transfer(B, A)\`: locks account B, then waits for A.
  A CountDownLatch makes both hold their first account before either asks for its second.
- \`audit\` then waits for account A (\`AuditService.audit\`); it holds nothing.
- \`teller-1\`..\`teller-8\` then wait for account B (\`TellerService.deposit\`); they hold nothing.
- \`main\` parks in \`Threads.awaitShutdown\` (a CountDownLatch that is never counted down).

Two dumps of the same shape, from two runs:

- \`dump.txt\`: the accounts' monitors (\`synchronized\`): all 11 threads are
  \`BLOCKED (on object monitor)\`, the two transfers each with a \`- locked\` line; the JVM
  prints "Found one Java-level deadlock:" after the threads.
- \`dump-reentrantlock.txt\`: each account's \`java.util.concurrent.locks.ReentrantLock\`:
  all 11 threads are \`WAITING (parking)\` on a \`ReentrantLock\$NonfairSync\`; the two
  transfers list the lock they own under "Locked ownable synchronizers"; the JVM prints
  "Found one Java-level deadlock:" too (waiting for ownable synchronizer).

$(command_section jvm-lock-order-deadlock "Each dump is one \`jstack -l PID\` of its own JVM, taken once polling jstack found every check below at its count.")

## dump.txt

$counts1

## dump-reentrantlock.txt

$counts2
EOF
}

contention_addresses() {
	ADDR[CACHE]=$(held "$1" cache-refresher '- locked <0x[0-9a-f]+> \(a com\.example\.cache\.PriceCache\)')
	ADDR[LEDGER]=$(held "$1" ledger-compactor "Locked ownable synchronizers: \\| - <0x[0-9a-f]+> $NONFAIR")
}

case_jvm-contention() {
	local dir=$1
	CMDS=()
	new_case
	ADDR_FN=contention_addresses
	lines 'deadlock reports' 0 'Java-level deadlock'
	spec 'cache-refresher: RUNNABLE in a socket read, holds the PriceCache' 1 "^\"cache-refresher\" .*$SOCKET_READ.*at com\\.example\\.cache\\.PriceFeed\\.fetchSnapshot\\(.*at com\\.example\\.cache\\.PriceCache\\.refresh\\(.* - locked <@CACHE@> \\(a com\\.example\\.cache\\.PriceCache\\)"
	spec 'worker-1..12: BLOCKED entering PriceCache.get' 12 '^"worker-([1-9]|1[0-2])" .*State: BLOCKED \(on object monitor\) \| at com\.example\.cache\.PriceCache\.get\(.* - waiting to lock <@CACHE@> \(a com\.example\.cache\.PriceCache\).*at java\.util\.concurrent\.ThreadPoolExecutor\.runWorker\('
	spec 'ledger-compactor: sleeping, owns the Ledger lock' 1 "^\"ledger-compactor\" .*State: TIMED_WAITING \\(sleeping\\) \\| at java\\.lang\\.Thread\\.sleep\\([^)]*Native Method\\) \\| at com\\.example\\.ledger\\.Ledger\\.compact\\(.*Locked ownable synchronizers: \\| - <@LEDGER@> $NONFAIR\$"
	spec 'ledger-1..6: WAITING (parking) for the Ledger lock' 6 "^\"ledger-[1-6]\" .*State: WAITING \\(parking\\) .*- parking to wait for +<@LEDGER@> $NONFAIR.*at com\\.example\\.ledger\\.Ledger\\.append\\("
	spec 'idle-1..3: idle in getTask' 3 "^\"idle-[1-3]\" .*$POOL_IDLE"
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	UPSTREAM_CMD="java ${JAVA_OPTS[*]} -cp \$CLASSES com.example.upstream.SilentUpstream"
	start_app com.example.cache.PricingApp "$UPSTREAM_PORT"
	CMDS+=("$APP_CMD &"
		"jstack -l PID > 1.txt    # once the checks below pass"
		"jstack -l PID > 2.txt    # 3 s after 1.txt started; then the JVM is killed")
	wait_ready
	take "$dir" 1.txt
	after 3
	take "$dir" 2.txt
	ADDR_NOTE='@CACHE@ stands for the PriceCache address in the `- locked` line of cache-refresher, @LEDGER@ for the ReentrantLock$NonfairSync that ledger-compactor lists under "Locked ownable synchronizers".'
	local counts
	counts=$(counts_section "$dir" 1.txt 2.txt)
	stop_app

	cat >"$dir/README.md" <<EOF
# jvm-contention

Lock contention, no deadlock (\`com.example.cache.PricingApp\`). Verdict wanted: **contention**
on two locks, each held by a thread that is slow while holding it (a socket read; a sleep), the
same threads stuck in both dumps; the idle pool is healthy.

- \`cache-refresher\` is in the synchronized \`PriceCache.refresh\`, inside
  \`PriceFeed.fetchSnapshot\`'s socket read (no timeout) from a feed on 127.0.0.1 that accepts
  and never answers: \`RUNNABLE\` in \`sun.nio.ch.SocketDispatcher.read0\`, \`- locked\` the
  PriceCache.
- \`worker-1\`..\`worker-12\` (a fixed pool, \`Executors.newFixedThreadPool(12, ThreadFactory)\`)
  are \`BLOCKED (on object monitor)\` entering the synchronized \`PriceCache.get\`, waiting to
  lock that PriceCache.
- \`ledger-compactor\` owns the Ledger's \`ReentrantLock\` and is in \`Thread.sleep\`
  (\`TIMED_WAITING (sleeping)\`, the lock under "Locked ownable synchronizers").
- \`ledger-1\`..\`ledger-6\` are \`WAITING (parking)\` in \`Ledger.append\` for that lock.
- \`idle-1\`..\`idle-3\`, a ThreadPoolExecutor with no work, are \`WAITING (parking)\` in
  \`LinkedBlockingQueue.take\` from \`ThreadPoolExecutor.getTask\` (healthy).
- \`main\` parks in \`Threads.awaitShutdown\`.

The feed is \`com.example.upstream.SilentUpstream\`, a separate JVM (not in the dumps).
Note that cache-refresher also lists, under "Locked ownable synchronizers", the
\`ReentrantLock\` that the JDK's \`sun.nio.ch.NioSocketImpl\` holds during a read.

$(command_section jvm-contention "1.txt and 2.txt are two \`jstack -l PID\` of the same JVM, 3 s apart, taken once polling jstack found every check below at its count.")

## Counts

$counts
EOF
}

case_jvm-idle() {
	local dir=$1
	CMDS=()
	new_case
	lines 'deadlock reports' 0 'Java-level deadlock'
	spec 'app-worker-1..16: idle in getTask' 16 "^\"app-worker-([1-9]|1[0-6])\" .*$POOL_IDLE"
	spec 'scheduler-1..2: waiting on the delay queue' 2 '^"scheduler-[12]" .*State: (TIMED_)?WAITING \(parking\) .*at java\.util\.concurrent\.ScheduledThreadPoolExecutor\$DelayedWorkQueue\.take\(.*at java\.util\.concurrent\.ThreadPoolExecutor\.getTask\('
	spec 'acceptor: RUNNABLE in ServerSocket.accept' 1 '^"acceptor" .*State: RUNNABLE \| at sun\.nio\.ch\.Net\.accept\([^)]*Native Method\).*at java\.net\.ServerSocket\.accept\('
	spec 'conn-reader-1..4: RUNNABLE in a keep-alive socket read' 4 "^\"conn-reader-[1-4]\" .*$SOCKET_READ.*at com\\.example\\.gateway\\.BackendConnection\\.readLoop\\("
	spec 'housekeeping-timer: java.util.Timer waiting for its next task' 1 '^"housekeeping-timer" .*State: TIMED_WAITING \(on object monitor\) \| at java\.lang\.Object\.wait\([^)]*Native Method\).*at java\.util\.TimerThread\.mainLoop\('
	spec 'session-reaper, config-watcher: sleeping' 2 '^"(session-reaper|config-watcher)" .*State: TIMED_WAITING \(sleeping\) \| at java\.lang\.Thread\.sleep\([^)]*Native Method\) \| at com\.example\.gateway\.GatewayApp\.(reapSessions|watchConfig)\('
	spec 'busy-1..2: RUNNABLE computing (RiskScorer)' 2 '^"busy-[12]" .*State: RUNNABLE \| (at java\.lang\.Math\.[a-z]+\([^)]*\) \| )?(at com\.example\.gateway\.RiskScorer\.score\([^)]*\) \| )?at com\.example\.gateway\.RiskScorer\.scoreForever\('
	spec 'threads BLOCKED' 0 'State: BLOCKED'
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	UPSTREAM_CMD="java ${JAVA_OPTS[*]} -cp \$CLASSES com.example.upstream.SilentUpstream"
	start_app com.example.gateway.GatewayApp "$UPSTREAM_PORT"
	CMDS+=("$APP_CMD &"
		"jstack -l PID > 1.txt    # once the checks below pass"
		"jstack -l PID > 2.txt    # 2 s after 1.txt started"
		"jstack -l PID > 3.txt    # 4 s after 1.txt started; then the JVM is killed")
	wait_ready
	take "$dir" 1.txt
	after 2
	take "$dir" 2.txt
	after 4
	take "$dir" 3.txt
	ADDR_NOTE=
	local counts
	counts=$(counts_section "$dir" 1.txt 2.txt 3.txt)
	stop_app

	cat >"$dir/README.md" <<EOF
# jvm-idle

A healthy service with no traffic (\`com.example.gateway.GatewayApp\`), dumped 3 times ~2 s
apart. Verdict wanted: **healthy / idle**: nothing is stuck; the socket reads are idle
keep-alive connections and the only RUNNABLE work is a small steady CPU job.

- \`app-worker-1\`..\`app-worker-16\`: a fixed ThreadPoolExecutor (16, started up front), idle:
  \`WAITING (parking)\` in \`LinkedBlockingQueue.take\` from \`ThreadPoolExecutor.getTask\`.
- \`scheduler-1\`, \`scheduler-2\`: a ScheduledThreadPoolExecutor whose one task runs every
  10 min: parked in \`ScheduledThreadPoolExecutor\$DelayedWorkQueue.take\` (the leader
  \`TIMED_WAITING\` until the task is due, the other \`WAITING\`).
- \`acceptor\`: the service's ServerSocket (127.0.0.1, any free port), \`RUNNABLE\` in
  \`sun.nio.ch.Net.accept\` (no client connects).
- \`conn-reader-1\`..\`conn-reader-4\`: kept-alive connections to a quiet backend on
  127.0.0.1, each reader \`RUNNABLE\` in \`sun.nio.ch.SocketDispatcher.read0\` from
  \`BackendConnection.readLoop\`, waiting for the next pushed event (the realistic healthy
  socket read).
- \`housekeeping-timer\`: a \`java.util.Timer\` whose task runs every 10 min:
  \`TIMED_WAITING (on object monitor)\` in \`Object.wait\` from \`TimerThread.mainLoop\`.
- \`session-reaper\`, \`config-watcher\`: wake every 30 s, \`TIMED_WAITING (sleeping)\` in between.
- \`busy-1\`, \`busy-2\`: \`RiskScorer.scoreForever\`, a CPU loop, always \`RUNNABLE\`
  (their top frame and cpu= move between dumps).
- \`main\` parks in \`Threads.awaitShutdown\`.

The backend is \`com.example.upstream.SilentUpstream\`, a separate JVM (not in the dumps).

$(command_section jvm-idle "1.txt, 2.txt and 3.txt are three \`jstack -l PID\` of the same JVM, ~2 s apart, taken once polling jstack found every check below at its count.")

## Counts

$counts
EOF
}

case_jvm-stuck-pool() {
	local dir=$1
	CMDS=()
	new_case
	lines 'deadlock reports' 0 'Java-level deadlock'
	spec 'report-1..40: RUNNABLE in the upstream socket read' 36 "^\"report-([1-9]|[1-3][0-9]|40)\" .*$SOCKET_READ.*at com\\.example\\.report\\.UpstreamClient\\.fetch\\(.*at com\\.example\\.report\\.ReportService\\.render\\(.*at java\\.util\\.concurrent\\.ThreadPoolExecutor\\.runWorker\\("
	spec 'report-1..40: idle in getTask' 4 "^\"report-([1-9]|[1-3][0-9]|40)\" .*$POOL_IDLE"
	spec 'req-1..8: WAITING (parking) in Future.get()' 8 '^"req-[1-8]" .*State: WAITING \(parking\) .*- parking to wait for +<0x[0-9a-f]+> \(a java\.util\.concurrent\.FutureTask\).*at java\.util\.concurrent\.FutureTask\.get\(.*at com\.example\.report\.ReportController\.handle\('
	spec 'main: parked in Threads.awaitShutdown' 1 "$MAIN_WAITS"
	UPSTREAM_CMD="java ${JAVA_OPTS[*]} -cp \$CLASSES com.example.upstream.SilentUpstream"
	start_app com.example.report.ReportApp "$UPSTREAM_PORT"
	CMDS+=("$APP_CMD &"
		"jstack -l PID > 1.txt    # once the checks below pass"
		"jstack -l PID > 2.txt    # 3 s after 1.txt started; then the JVM is killed")
	wait_ready
	take "$dir" 1.txt
	after 3
	take "$dir" 2.txt
	ADDR_NOTE=
	local counts
	counts=$(counts_section "$dir" 1.txt 2.txt)
	stop_app

	cat >"$dir/README.md" <<EOF
# jvm-stuck-pool

A service already stuck on an upstream that never answers (\`com.example.report.ReportApp\`),
dumped twice 3 s apart. Verdict wanted: **stuck pool**: 36 of the 40 report threads are in a
socket read with no timeout that never returns (the same threads in both dumps), and the
request pool is stuck behind them.

- \`report-1\`..\`report-40\`: the report pool (\`ThreadPoolExecutor\` 40/40 named with a
  ThreadFactory, all threads started up front). 36 run \`ReportService.render\` →
  \`UpstreamClient.fetch\` → \`Socket.getInputStream().read()\` on a 127.0.0.1 upstream that
  accepts and never answers, with no read timeout: \`RUNNABLE\` in
  \`sun.nio.ch.SocketDispatcher.read0\`. 28 of those reports came from a nightly batch
  (submitted, never waited for), 8 from the requests below. The other 4 threads are idle:
  \`WAITING (parking)\` in \`LinkedBlockingQueue.take\` from \`ThreadPoolExecutor.getTask\`.
- \`req-1\`..\`req-8\`: the request pool (fixed, 8). Each is in \`ReportController.handle\`,
  \`WAITING (parking)\` on a \`FutureTask\` in \`Future.get()\` (no timeout) for its report.
- \`main\` parks in \`Threads.awaitShutdown\`.

Which thread runs which request's report is not in the dump (the batch's and the requests'
renders look the same). The upstream is \`com.example.upstream.SilentUpstream\`, a separate JVM
(not in the dumps).

$(command_section jvm-stuck-pool "1.txt and 2.txt are two \`jstack -l PID\` of the same JVM, 3 s apart, taken once polling jstack found every check below at its count.")

## Counts

$counts
EOF
}

# ---- main -----------------------------------------------------------------------------

cases=("$@")
((${#cases[@]})) || cases=("${ALL_CASES[@]}")
for c in "${cases[@]}"; do
	declare -F "case_$c" >/dev/null || die "unknown case $c (cases: ${ALL_CASES[*]})"
done

log "compiling"
javac -nowarn -d "$classes" $(find "$here/src" -name '*.java')
start_upstream
log "silent upstream on 127.0.0.1:$UPSTREAM_PORT"

for c in "${cases[@]}"; do
	log "== $c"
	UPSTREAM_CMD=
	DUMP_AT=()
	mkdir -p "$tmp/out/$c"
	"case_$c" "$tmp/out/$c"
	rm -rf "${out_root:?}/$c"
	mkdir -p "$out_root"
	mv "$tmp/out/$c" "$out_root/$c"
	log "wrote testdata/verdicts/$c: $(cd "$out_root/$c" && echo *)"
done
