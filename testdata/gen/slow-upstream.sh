#!/usr/bin/env bash
# Incident 1: the inventory upstream slows to 30s and the shop calls it with no read timeout
# (case slow-upstream-no-timeout), then the fix: a 2s read timeout and a 20-permit
# Semaphore bulkhead that fails fast (case slow-upstream-bulkhead).
# Usage: slow-upstream.sh no-timeout|bulkhead   (expects build to have run; see run-all.sh)
source "$(dirname "$0")/lib.sh"

variant=${1:?no-timeout or bulkhead}
case $variant in
no-timeout) opts=() ;;
bulkhead) opts=(-Dshop.upstream.readTimeoutMillis=2000 -Dshop.bulkhead.permits=20 -Dshop.bulkhead.waitMillis=100) ;;
*) echo "unknown variant $variant" >&2; exit 2 ;;
esac
name=slow-upstream-$variant
dir=$WORK/out/$name # published to testdata/scenarios/$name only if the run was undisturbed

prepare
start_upstream
start_shop "${opts[@]}"
warm "http://127.0.0.1:$SHOP_PORT/product/%d" 30
warm "http://127.0.0.1:$SHOP_PORT/ping" 10
upstream_delay 30000

start_load() {
	load product -url "http://127.0.0.1:$SHOP_PORT/product/%d" -rate 50 -duration 20s -max 1000 -timeout 10s
	load ping -url "http://127.0.0.1:$SHOP_PORT/ping" -rate 1 -duration 20s -max 20 -timeout 5s
}
timeline "$dir" start_load

exec_re='^"http-nio-18080-exec-'
{
	if [[ $variant == no-timeout ]]; then
		cat <<'MD'
# slow-upstream-no-timeout

What ran (testdata/gen/slow-upstream.sh no-timeout): the shop (embedded Tomcat 10.1, 200
request threads `http-nio-18080-exec-N`, JDK 17) serves `GET /product/{id}`, which calls the
inventory upstream with `java.net.HttpURLConnection` and **no read timeout** (the JDK default).
After warm-up the upstream (a separate JVM on 127.0.0.1:18081) starts answering after 30 s.
Load: open model, 50 req/s for 20 s (1,000 requests, client timeout 10 s) on `/product/{id}`,
plus 1 req/s on `/ping` (no upstream call, client timeout 5 s).
Dumps: `jstack -l` at before (idle after warm-up), during-1 (T0+10 s), during-2 (T0+20 s),
after (5 s after the load generator ended, i.e. every client had its answer or gave up).

What on-call should conclude: the request pool is exhausted by one slow dependency.
during-1 and during-2: 200/200 `http-nio-18080-exec-*` are RUNNABLE in a socket read with no
timeout (JDK 17 prints it as `sun.nio.ch.SocketDispatcher.read0` under `NioSocketImpl.read` /
`Socket$SocketInputStream.read` / `HttpClient.parseHTTPHeader` / `HttpURLConnection`), first
application frame `com.example.shop.UpstreamClient.fetch` ← `ProductService.productDetail`.
`/ping`, which never calls the upstream, times out too: no thread is free. CPU is idle
(RUNNABLE here means blocked in the kernel's read, not burning CPU). after: still 200/200 in the same read:
**not recovered** (the queued requests keep the threads busy with the 30 s upstream). The fix is
a read timeout plus a bulkhead (see slow-upstream-bulkhead).
MD
	else
		cat <<'MD'
# slow-upstream-bulkhead

What ran (testdata/gen/slow-upstream.sh bulkhead): the same shop and the same incident as
slow-upstream-no-timeout (upstream answers after 30 s; 50 req/s for 20 s on `/product/{id}`,
client timeout 10 s, plus 1 req/s on `/ping`), with the fix: `HttpURLConnection` read timeout
2 s and a bulkhead, a `java.util.concurrent.Semaphore` with 20 permits taken with
`tryAcquire(100 ms)`; a request that gets no permit fails fast with 503, one whose upstream
read times out answers 504.
Dumps: `jstack -l` at before, during-1 (T0+10 s), during-2 (T0+20 s), after (5 s after the
load generator ended).

What on-call should conclude: the dependency is slow but the service is protected.
during-1 and during-2: up to 20 `http-nio-18080-exec-*` (never more than the 20 permits) in
socket read under `UpstreamClient.fetch` (`sun.nio.ch.Net.poll` under `NioSocketImpl.timedRead`), at most a few in
`Semaphore.tryAcquire` (TIMED_WAITING), the rest idle in Tomcat's `TaskQueue`; `/ping` keeps
answering. after: no thread in socket read, all request threads idle: **recovered**.
MD
	fi
	echo
	echo "## Observed (grep over the committed dumps, written by the script)"
	echo
	count_table "$dir" \
		"threads=^\"" \
		"exec total=$exec_re" \
		"exec in upstream socket read=${exec_re}.*${SOCKET_READ_RE}.*HttpURLConnection.*com\.example\.shop\.UpstreamClient\.fetch" \
		"exec in Semaphore.tryAcquire=${exec_re}.*Semaphore\.tryAcquire" \
		"exec idle (TaskQueue)=${exec_re}.*org\.apache\.tomcat\.util\.threads\.TaskQueue\.(take|poll)"
	load_summary_section
} >"$dir/README.md"
publish "$dir" "$SCENARIOS_DIR/$name"
