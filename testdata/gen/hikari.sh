#!/usr/bin/env bash
# Incident 3: HikariCP with maximumPoolSize 10 over PostgreSQL; about 100 requests in flight,
# each running a 5 s query; the pool is exhausted, /health waits for a connection too, and the
# service recovers once the load is gone (case hikari-pool-exhausted).
# Usage: hikari.sh
source "$(dirname "$0")/lib.sh"

name=hikari-pool-exhausted
dir=$WORK/out/$name # published to testdata/scenarios/$name only if the run was undisturbed

prepare
start_postgres
start_upstream
start_shop -Dshop.db.url="jdbc:postgresql://127.0.0.1:$PG_PORT/shop" -Dshop.db.user=shop \
	-Dshop.db.poolSize=10 -Dshop.db.orderQuerySeconds=5 -Dorg.slf4j.simpleLogger.defaultLogLevel=warn
# Warm-up through /health: it loads the driver and pool classes and uses pooled connections
# without the 5 s query.
warm "http://127.0.0.1:$SHOP_PORT/health" 20
warm "http://127.0.0.1:$SHOP_PORT/ping" 10

start_load() {
	# About 100 requests in flight for 20 s: a burst of 100, then arrivals at the pool's
	# throughput (10 connections / 5 s = 2 per second).
	load orders-burst -url "http://127.0.0.1:$SHOP_PORT/orders/%d" -rate 50 -duration 2s -max 100 -timeout 60s
	load orders -url "http://127.0.0.1:$SHOP_PORT/orders/%d" -rate 2 -duration 20s -max 40 -timeout 60s
	load health -url "http://127.0.0.1:$SHOP_PORT/health" -rate 0.2 -duration 20s -max 4 -timeout 60s
	load ping -url "http://127.0.0.1:$SHOP_PORT/ping" -rate 1 -duration 20s -max 20 -timeout 5s
}
timeline "$dir" start_load

exec_re='^"http-nio-18080-exec-'
{
	cat <<'MD'
# hikari-pool-exhausted

What ran (testdata/gen/hikari.sh): the shop (embedded Tomcat 10.1, 200 request threads
`http-nio-18080-exec-N`, JDK 17) with HikariCP 2.7.9 (pool `shop-db`, maximumPoolSize 10,
connectionTimeout 30 s) over PostgreSQL 15 (a private cluster on 127.0.0.1:15432, JDBC driver
42.5). `GET /orders/{user}` runs `OrderRepository.recentOrderSummary`, a query that takes 5 s
in the database (`pg_sleep(5)` stands in for a bad plan). `GET /health` takes a connection
from the same pool and calls `Connection.isValid(2)`, like a readiness probe.
Load: open model, a burst of 100 requests (50 req/s for 2 s) plus 2 req/s for 20 s on
`/orders/{user}` (the pool's throughput: 10 connections / 5 s), so about 100 requests are in
flight for 20 s; `/health` every 5 s; `/ping` every second (no database). Client timeout 60 s
(5 s for /ping).
Dumps: `jstack -l` at before (idle after warm-up), during-1 (T0+10 s), during-2 (T0+20 s),
after (5 s after the load generator ended, i.e. every request was answered or failed).

What on-call should conclude: the connection pool is the bottleneck, the database is merely
slow. during-1 and during-2: 10 `http-nio-18080-exec-*` in a socket read inside the PostgreSQL
driver (`org.postgresql.core.VisibleBufferedInputStream.readMore` ← `QueryExecutorImpl`),
first application frame `com.example.shop.OrderRepository.recentOrderSummary`; about 90 waiting
for a connection in `com.zaxxer.hikari.pool.HikariPool.getConnection` (`ConcurrentBag.borrow` →
`SynchronousQueue.poll`, TIMED_WAITING), from `OrderRepository.recentOrderSummary` and from
`HealthServlet.doGet`: the health check is stuck behind the same queue and fails or answers late
(see the health line below), so a probe on it would take the instance out. Requests that wait
longer than connectionTimeout (30 s) fail with 503. after: no thread waits for a connection,
none is in the driver: **recovered**; the fix is capacity (pool size vs. query time) and a health
check that does not compete with traffic for the pool.
MD
	echo
	echo "## Observed (grep over the committed dumps, written by the script)"
	echo
	count_table "$dir" \
		"threads=^\"" \
		"exec total=$exec_re" \
		"exec in PostgreSQL socket read=${exec_re}.*${SOCKET_READ_RE}.*org\.postgresql\..*com\.example\.shop\.OrderRepository" \
		"exec waiting in HikariPool.getConnection=${exec_re}.*com\.zaxxer\.hikari\.pool\.HikariPool\.getConnection" \
		"of which from HealthServlet=${exec_re}.*com\.zaxxer\.hikari\.pool\.HikariPool\.getConnection.*com\.example\.shop\.HealthServlet" \
		"exec idle (TaskQueue)=${exec_re}.*org\.apache\.tomcat\.util\.threads\.TaskQueue\.(take|poll)"
	load_summary_section
} >"$dir/README.md"
publish "$dir" "$SCENARIOS_DIR/$name"
