#!/usr/bin/env bash
# Regenerates the thread-role fixtures in testdata/libs/jvm-roles-*/: real dumps of the small
# Java 17 programs in src/ (issue 33: pool ids, a Timer's and the Finalizer's work, the thread
# that writes the dump), all on 127.0.0.1.
#
#   jvm-roles-pool-ids          ThreeExecutors: pool-1..3-thread-1, pool-4-thread-1..2, Netty's
#                               boss nioEventLoopGroup-2-1 and worker nioEventLoopGroup-3-1, at rest
#   jvm-roles-executor-leak     ExecutorLeak: a new single-thread executor every 50 ms, never shut down
#   jvm-roles-timer-work        TimerWork: Timer-0's task BLOCKED on a monitor, Timer-1's task
#                               sleeping, report-timer at rest
#   jvm-roles-finalizer-blocked FinalizerBlocked: finalize() BLOCKED on a monitor a sleeper holds
#   jvm-roles-finalizer-idle    FinalizerBlocked idle: the same process with no finalizable object
#   jvm-roles-renamed-common-pool       RenamedCommonPool: the common pool's 3 workers renamed by
#                                       their tasks, each waiting on a latch nobody counts down
#   jvm-roles-renamed-common-pool-jdk25 the same on Temurin 25 (JDK25_HOME)
#   jvm-roles-renamed-common-pool-idle  RenamedCommonPool idle: the renamed workers at rest
#   jvm-roles-kept-alive-monitor        KeptAliveMonitor: main returned, a non-daemon thread in
#                                       Object.wait() nobody notifies and a queue consumer stay
#   jvm-roles-dump-endpoint     DumpEndpoint: GET /threaddump (ThreadMXBean.dumpAllThreads on an
#                               HTTP worker, ThreadInfo.toString), twice, 3 s apart; then GET
#                               /threadprint (the DiagnosticCommand MBean's Thread.print), twice
#
# jstack is polled until grep finds every wanted state (no blind sleeps where a state is
# awaited); the leak's dumps are taken on a schedule from the program's start (its point is
# growth). Every process started here is ended by the EXIT trap.
#
# Usage: bash testdata/gen/roles/gen.sh [CASE...]   (default: every case)
#        Needs java, javac, jstack (17), curl, and Debian's libnetty-java (/usr/share/java).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out_root=$repo/testdata/libs
J=/usr/share/java
CP_NETTY="$J/netty-common.jar:$J/netty-buffer.jar:$J/netty-transport.jar:$J/netty-resolver.jar"
# The JDK that runs a program under test (a -jdk25 case sets it to Temurin 25's, from
# JDK25_HOME or /usr/lib/jvm/temurin-25-jdk-amd64); classes are compiled for 17.
JAVA_HOME_RUN=
JDK25_HOME=${JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
tmp=$(mktemp -d /tmp/dumpdiff-roles.XXXXXX)
classes=$tmp/classes
pid=

cleanup() {
	if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT

mkdir -p "$classes"
javac --release 17 -d "$classes" -cp "$CP_NETTY" $(find "$here/src" -name '*.java')
CP="$classes:$CP_NETTY"

# start [JVM-OPTION...] MAIN ARGS...: runs the program, waits for its "ready" line.
start() {
	"${JAVA_HOME_RUN:+$JAVA_HOME_RUN/bin/}java" -Xmx64m -XX:+UseSerialGC -cp "$CP" "$@" >"$tmp/out.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 300); do
		grep -q '^ready' "$tmp/out.log" && return 0
		sleep 0.1
	done
	echo "no ready line from $*" >&2
	cat "$tmp/out.log" >&2
	exit 1
}

stop() {
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	pid=
}

# until_dump FILE CHECK...: jstack -l into FILE until every CHECK (an extended grep
# pattern over the whole dump, "pattern=count") holds.
until_dump() {
	local file=$1 ok c pat want got
	shift
	for _ in $(seq 1 100); do
		"${JAVA_HOME_RUN:+$JAVA_HOME_RUN/bin/}jstack" -l "$pid" >"$file"
		ok=1
		for c in "$@"; do
			pat=${c%=*}
			want=${c##*=}
			got=$(grep -cE -- "$pat" "$file" || true)
			[ "$got" = "$want" ] || ok=0
		done
		[ $ok = 1 ] && return 0
		sleep 0.2
	done
	echo "checks never held in $file: $*" >&2
	exit 1
}

# fresh CASE: the case's folder without its dumps (its README.md, written before any
# analysis from the program's source, stays).
fresh() {
	mkdir -p "$out_root/$1"
	rm -f "$out_root/$1"/*.txt
	echo "$out_root/$1"
}

case_jvm-roles-pool-ids() {
	local d
	d=$(fresh jvm-roles-pool-ids)
	start com.example.roles.ThreeExecutors
	local checks=('^"pool-[123]-thread-1"=3' '^"pool-4-thread-[12]"=2' '^"nioEventLoopGroup-[23]-1"=2' 'ThreadPoolExecutor.getTask=5')
	until_dump "$d/1.txt" "${checks[@]}"
	sleep 3
	until_dump "$d/2.txt" "${checks[@]}"
	stop
}

case_jvm-roles-executor-leak() {
	local d t0
	d=$(fresh jvm-roles-executor-leak)
	start com.example.roles.ExecutorLeak
	t0=$(date +%s.%N)
	for i in 1 2 3; do
		# 2 s, 7 s and 12 s after ready: about 40, 140 and 240 executors.
		sleep "$(echo "$t0 + 2 + 5 * ($i - 1) - $(date +%s.%N)" | bc)"
		jstack -l "$pid" >"$d/$i.txt"
	done
	stop
}

case_jvm-roles-timer-work() {
	local d
	d=$(fresh jvm-roles-timer-work)
	start com.example.roles.TimerWork
	local checks=('^"Timer-0"=1' 'java.lang.Thread.State: BLOCKED \(on object monitor\)=1' '^"Timer-1"=1' 'TimerWork\$2.run=1' '^"report-timer"=1' 'TimerThread.mainLoop=3')
	until_dump "$d/1.txt" "${checks[@]}"
	sleep 3
	until_dump "$d/2.txt" "${checks[@]}"
	stop
}

case_jvm-roles-finalizer-blocked() {
	local d
	d=$(fresh jvm-roles-finalizer-blocked)
	start com.example.roles.FinalizerBlocked
	local checks=('NativeHandle.finalize=1' 'java.lang.Thread.State: BLOCKED \(on object monitor\)=1')
	until_dump "$d/1.txt" "${checks[@]}"
	sleep 3
	until_dump "$d/2.txt" "${checks[@]}"
	stop
}

case_jvm-roles-finalizer-idle() {
	local d
	d=$(fresh jvm-roles-finalizer-idle)
	start com.example.roles.FinalizerBlocked idle
	local checks=('NativeHandle.finalize=0' 'Finalizer\$FinalizerThread.run=1' '^"registry-compactor"=1')
	until_dump "$d/1.txt" "${checks[@]}"
	sleep 3
	until_dump "$d/2.txt" "${checks[@]}"
	stop
}

case_jvm-roles-renamed-common-pool() {
	local d
	d=$(fresh jvm-roles-renamed-common-pool)
	start -Djava.util.concurrent.ForkJoinPool.common.parallelism=3 com.example.roles.RenamedCommonPool
	local checks=('^"import-job-[012]"=3' 'CountDownLatch.await=3' 'ForkJoinWorkerThread.run=3')
	until_dump "$d/1.txt" "${checks[@]}"
	sleep 3
	until_dump "$d/2.txt" "${checks[@]}"
	stop
}

case_jvm-roles-renamed-common-pool-jdk25() {
	local d
	d=$(fresh jvm-roles-renamed-common-pool-jdk25)
	JAVA_HOME_RUN=$JDK25_HOME
	start -Djava.util.concurrent.ForkJoinPool.common.parallelism=3 com.example.roles.RenamedCommonPool
	local checks=('^"import-job-[012]"=3' 'CountDownLatch.await=3' 'ForkJoinWorkerThread.run=3')
	until_dump "$d/1.txt" "${checks[@]}"
	sleep 3
	until_dump "$d/2.txt" "${checks[@]}"
	stop
	"$JAVA_HOME_RUN/bin/java" -version 2>&1 | head -2
	JAVA_HOME_RUN=
}

case_jvm-roles-renamed-common-pool-idle() {
	local d
	d=$(fresh jvm-roles-renamed-common-pool-idle)
	start -Djava.util.concurrent.ForkJoinPool.common.parallelism=3 com.example.roles.RenamedCommonPool idle
	local checks=('^"import-job-[012]"=3' 'CountDownLatch.await=0' 'ForkJoinPool.awaitWork=3')
	until_dump "$d/1.txt" "${checks[@]}"
	sleep 3
	until_dump "$d/2.txt" "${checks[@]}"
	stop
}

case_jvm-roles-kept-alive-monitor() {
	local d
	d=$(fresh jvm-roles-kept-alive-monitor)
	start com.example.roles.KeptAliveMonitor
	local checks=('^"DestroyJavaVM"=1' '^"config-watcher"=1' '^"event-consumer"=1' 'LinkedBlockingQueue.take=1' '^"main"=0')
	until_dump "$d/1.txt" "${checks[@]}"
	sleep 3
	until_dump "$d/2.txt" "${checks[@]}"
	stop
}

case_jvm-roles-dump-endpoint() {
	local d port
	d=$(fresh jvm-roles-dump-endpoint)
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	start com.example.roles.DumpEndpoint "$port"
	curl -sf "http://127.0.0.1:$port/threaddump" >"$d/1.txt"
	sleep 3
	curl -sf "http://127.0.0.1:$port/threaddump" >"$d/2.txt"
	sleep 3
	curl -sf "http://127.0.0.1:$port/threadprint" >"$d/3-threadprint.txt"
	sleep 3
	curl -sf "http://127.0.0.1:$port/threadprint" >"$d/4-threadprint.txt"
	stop
}

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(jvm-roles-pool-ids jvm-roles-executor-leak jvm-roles-timer-work jvm-roles-finalizer-blocked
	jvm-roles-finalizer-idle jvm-roles-renamed-common-pool jvm-roles-renamed-common-pool-jdk25 jvm-roles-renamed-common-pool-idle jvm-roles-kept-alive-monitor jvm-roles-dump-endpoint)
for c in "${cases[@]}"; do
	echo "== $c"
	"case_$c"
done
java -version 2>&1 | head -2
