#!/usr/bin/env bash
# Incident 2: CompletableFuture.supplyAsync without an executor on a 2-vCPU container (case
# completablefuture-thread-per-task), and its later shape: a dedicated fixed pool mypage-N
# whose threads stay stuck in a socket read with no timeout while orTimeout(2s) has already
# answered the users (case mypage-pool-stuck).
# Usage: completablefuture.sh thread-per-task|mypage-pool
source "$(dirname "$0")/lib.sh"

variant=${1:?thread-per-task or mypage-pool}
case $variant in
thread-per-task)
	name=completablefuture-thread-per-task
	opts=(-XX:ActiveProcessorCount=2 -Dshop.mypage.executor=common)
	slow_path=/ # recommendations and coupons: the whole upstream is slow
	rate=48
	total=960
	;;
mypage-pool)
	name=mypage-pool-stuck
	opts=(-XX:ActiveProcessorCount=2 -Dshop.mypage.executor=pool -Dshop.mypage.poolSize=80)
	slow_path=/recommendations # only the recommendation service hangs; coupons stay fast
	rate=3.5
	total=70
	;;
*) echo "unknown variant $variant" >&2; exit 2 ;;
esac
dir=$WORK/out/$name # published to testdata/scenarios/$name only if the run was undisturbed

prepare
start_upstream
start_shop "${opts[@]}"
warm "http://127.0.0.1:$SHOP_PORT/mypage/%d" 30
upstream_delay 30000 "$slow_path"

start_load() {
	load mypage -url "http://127.0.0.1:$SHOP_PORT/mypage/%d" -rate "$rate" -duration 20s -max "$total" -timeout 10s
	load ping -url "http://127.0.0.1:$SHOP_PORT/ping" -rate 1 -duration 20s -max 20 -timeout 5s
}
timeline "$dir" start_load

exec_re='^"http-nio-18080-exec-'
{
	if [[ $variant == thread-per-task ]]; then
		cat <<'MD'
# completablefuture-thread-per-task

What ran (testdata/gen/completablefuture.sh thread-per-task): the shop (embedded Tomcat 10.1,
200 request threads `http-nio-18080-exec-N`, JDK 17) started with `-XX:ActiveProcessorCount=2`,
as on a 2-vCPU container. `GET /mypage/{user}` fetches two widgets (recommendations, coupons)
with `CompletableFuture.supplyAsync(supplier)` **without an executor** and waits for each with
`get(2, SECONDS)`, leaving a widget out when it is late. With 2 CPUs the common pool's
parallelism is 1, so CompletableFuture does not use the common pool: its
`ThreadPerTaskExecutor` starts a new `Thread-N` per task. The upstream calls use
`HttpURLConnection` with no read timeout. After warm-up the upstream (separate JVM,
127.0.0.1:18081) answers after 30 s. Load: open model, 48 req/s for 20 s (960 requests,
client timeout 10 s) plus 1 req/s on `/ping`.
Dumps: `jstack -l` at before, during-1 (T0+10 s), during-2 (T0+20 s), after (5 s after the load
generator ended).

What on-call should conclude: a thread leak driven by a slow dependency. The users get
answers (after 2 s, without widgets; about 100 request threads are in `CompletableFuture.get`
at any moment of the load, all idle after it), but every request
leaves two new `Thread-N` stuck in a socket read with no timeout (first application frame
`com.example.shop.UpstreamClient.fetch` ← `MyPageService.fetchWidget`, run by
`CompletableFuture$AsyncSupply`), about 96 new threads per second (48 req/s × 2 widgets): about 1,000 at during-1,
about 1,900 at during-2, and still about 1,900 after the load: **not recovered** (they end only
when the upstream answers, and any further traffic adds more). The thread count grows without
bound; the fix is a dedicated bounded executor and a read timeout.
MD
	else
		cat <<'MD'
# mypage-pool-stuck

What ran (testdata/gen/completablefuture.sh mypage-pool): the shop (embedded Tomcat 10.1, 200
request threads `http-nio-18080-exec-N`, JDK 17, `-XX:ActiveProcessorCount=2`) after the first
fix: `GET /mypage/{user}` runs its two widgets on a dedicated fixed pool of 80 threads named
`mypage-1`..`mypage-80` (prestarted) with `supplyAsync(supplier, pool).orTimeout(2, SECONDS)`;
the upstream calls still have **no read timeout**. After warm-up the recommendation service
(`/recommendations/*` on the upstream JVM, 127.0.0.1:18081) answers after 30 s; coupons stay
fast. Load: open model, 3.5 req/s for 20 s (70 requests, client timeout 10 s) plus 1 req/s on
`/ping`.
Dumps: `jstack -l` at before, during-1 (T0+10 s), during-2 (T0+20 s), after (5 s after the load
generator ended).

What on-call should conclude: the users are answered (orTimeout gives up after 2 s and the page
renders without recommendations; request threads are free after the load), but the pool is
leaking its capacity: each request leaves one `mypage-N` stuck in a socket read with no timeout
(first application frame `com.example.shop.UpstreamClient.fetch` ← `MyPageService.fetchWidget`):
about 35 at during-1, about 70 of 80 at during-2, and still about 70 of 80 after the load:
**not recovered**; orTimeout does not cancel the read. Ten more slow requests and the pool is
full, and then every widget, coupons included, times out. The fix is a read timeout on the
client.
MD
	fi
	echo
	echo "## Observed (grep over the committed dumps, written by the script)"
	echo
	count_table "$dir" \
		"threads=^\"" \
		"Thread-N=^\"Thread-[0-9]+\"" \
		"Thread-N in upstream socket read=^\"Thread-[0-9]+\".*${SOCKET_READ_RE}.*com\.example\.shop\.UpstreamClient\.fetch.*CompletableFuture\\\$AsyncSupply" \
		"mypage-N=^\"mypage-[0-9]+\"" \
		"mypage-N in upstream socket read=^\"mypage-[0-9]+\".*${SOCKET_READ_RE}.*com\.example\.shop\.UpstreamClient\.fetch" \
		"mypage-N idle=^\"mypage-[0-9]+\".*LinkedBlockingQueue\.take" \
		"exec total=$exec_re" \
		"exec waiting in CompletableFuture.get=${exec_re}.*CompletableFuture\.(timedGet|waitingGet).*MyPageService" \
		"exec idle (TaskQueue)=${exec_re}.*org\.apache\.tomcat\.util\.threads\.TaskQueue\.(take|poll)"
	load_summary_section
} >"$dir/README.md"
publish "$dir" "$SCENARIOS_DIR/$name"
