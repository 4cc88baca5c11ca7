package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// roundTripShape is one structure a lone JVM thread waits in: its frames
// from the top (JDK 17's, as testdata/verdicts/client-waits-* and
// nightly-jobs-* print them), and whether the wait is its own round trip.
type roundTripShape struct {
	name   string
	frames string
	trip   bool
}

const (
	jdkRead = "\tat sun.nio.ch.SocketDispatcher.read0(java.base@17.0.15/Native Method)\n" +
		"\tat sun.nio.ch.NioSocketImpl.implRead(java.base@17.0.15/NioSocketImpl.java:317)\n" +
		"\tat java.net.Socket$SocketInputStream.read(java.base@17.0.15/Socket.java:966)\n"
	jdkUDP = "\tat sun.nio.ch.Net.poll(java.base@17.0.15/Native Method)\n" +
		"\tat sun.nio.ch.SelChImpl.park(java.base@17.0.15/SelChImpl.java:98)\n" +
		"\tat sun.nio.ch.DatagramChannelImpl.trustedBlockingReceive(java.base@17.0.15/DatagramChannelImpl.java:705)\n" +
		"\tat sun.nio.ch.DatagramChannelImpl.blockingReceive(java.base@17.0.15/DatagramChannelImpl.java:633)\n" +
		"\tat sun.nio.ch.DatagramSocketAdaptor.receive(java.base@17.0.15/DatagramSocketAdaptor.java:240)\n" +
		"\tat java.net.DatagramSocket.receive(java.base@17.0.15/DatagramSocket.java:700)\n"
	threadRun = "\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n"
	scheduled = "\tat java.util.concurrent.FutureTask.runAndReset(java.base@17.0.15/FutureTask.java:305)\n" +
		"\tat java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask.run(java.base@17.0.15/ScheduledThreadPoolExecutor.java:305)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1136)\n" +
		"\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)\n" + threadRun
)

var roundTripShapes = []roundTripShape{
	{"http response head in a loop", jdkRead +
		"\tat java.io.BufferedInputStream.read(java.base@17.0.15/BufferedInputStream.java:343)\n" +
		"\tat sun.net.www.http.HttpClient.parseHTTPHeader(java.base@17.0.15/HttpClient.java:826)\n" +
		"\tat sun.net.www.http.HttpClient.parseHTTP(java.base@17.0.15/HttpClient.java:761)\n" +
		"\tat sun.net.www.protocol.http.HttpURLConnection.getInputStream(java.base@17.0.15/HttpURLConnection.java:1626)\n" +
		"\tat com.example.Consumer.enrich(Consumer.java:37)\n\tat com.example.Consumer.run(Consumer.java:27)\n" + threadRun, true},
	{"http response body in a loop (a watch stream)", jdkRead +
		"\tat sun.net.www.http.ChunkedInputStream.read(java.base@17.0.15/ChunkedInputStream.java:687)\n" +
		"\tat sun.net.www.protocol.http.HttpURLConnection$HttpInputStream.read(java.base@17.0.15/HttpURLConnection.java:3536)\n" +
		"\tat com.example.Watch.next(Watch.java:51)\n\tat com.example.Watch.run(Watch.java:20)\n" + threadRun, false},
	{"jdbc query in a timer", jdkRead +
		"\tat org.postgresql.core.PGStream.receiveChar(PGStream.java:465)\n" +
		"\tat org.postgresql.core.v3.QueryExecutorImpl.processResults(QueryExecutorImpl.java:2120)\n" +
		"\tat org.postgresql.jdbc.PgStatement.executeQuery(PgStatement.java:244)\n" +
		"\tat com.example.Report.query(Report.java:66)\n\tat com.example.Report.run(Report.java:59)\n" +
		"\tat java.util.TimerThread.mainLoop(java.base@17.0.15/Timer.java:566)\n\tat java.util.TimerThread.run(java.base@17.0.15/Timer.java:516)\n", true},
	{"dns lookup", "\tat java.net.Inet6AddressImpl.lookupAllHostAddr(java.base@17.0.15/Native Method)\n" +
		"\tat java.net.InetAddress$PlatformNameService.lookupAllHostAddr(java.base@17.0.15/InetAddress.java:934)\n" +
		"\tat java.net.InetAddress.getByName(java.base@17.0.15/InetAddress.java:1256)\n" +
		"\tat com.example.Resolve.once(Resolve.java:79)\n\tat com.example.Resolve.loop(Resolve.java:38)\n" + threadRun, true},
	{"jndi dns lookup", jdkUDP +
		"\tat com.sun.jndi.dns.DnsClient.doUdpQuery(jdk.naming.dns@17.0.15/DnsClient.java:430)\n" +
		"\tat com.sun.jndi.dns.DnsClient.query(jdk.naming.dns@17.0.15/DnsClient.java:216)\n" +
		"\tat javax.naming.directory.InitialDirContext.getAttributes(java.naming@17.0.15/InitialDirContext.java:171)\n" +
		"\tat com.example.Lookup.address(Lookup.java:154)\n\tat com.example.App.main(App.java:69)\n", true},
	{"raw read in a scheduled job", jdkRead + "\tat java.io.BufferedReader.readLine(java.base@17.0.15/BufferedReader.java:396)\n" +
		"\tat com.example.Sync.pull(Sync.java:112)\n\tat com.example.Sync.run(Sync.java:95)\n" +
		"\tat java.util.concurrent.Executors$RunnableAdapter.call(java.base@17.0.15/Executors.java:539)\n" + scheduled, true},
	{"udp receive in a scheduled job", jdkUDP + "\tat com.example.Probe.ping(Probe.java:12)\n" + scheduled, true},
	{"raw read in its own loop (a push reader)", jdkRead + "\tat java.io.BufferedReader.readLine(java.base@17.0.15/BufferedReader.java:396)\n" +
		"\tat com.example.PushReader.run(PushReader.java:176)\n" + threadRun, false},
	{"udp listener", jdkUDP + "\tat com.example.Listener.lambda$start$0(Listener.java:120)\n" + threadRun, false},
	{"redis blocking pop in a loop", jdkRead +
		"\tat redis.clients.jedis.util.RedisInputStream.ensureFill(RedisInputStream.java:208)\n" +
		"\tat redis.clients.jedis.Jedis.blpop(Jedis.java:2356)\n" +
		"\tat com.example.Queue.next(Queue.java:30)\n\tat com.example.Queue.run(Queue.java:12)\n" + threadRun, false},
}

// TestRoundTripAloneProperty: 400 generated sets of JVM moments, each
// one thread (its own pool, "lone-sync") in one of the shapes above beside
// an idle pool, dumped 2 to 4 times with random gaps (2 to 8 s), the
// thread staying or leaving (running elsewhere at one moment) and its
// cpu= flat or rising. It is stuck exactly when its wait is its own round
// trip, it stays at every moment with no CPU, and the moments span
// RoundTripStay: a lone thread's wait, however long, is never stuck in
// its own loop's read, a UDP listener's receive, a long poll, or over a
// shorter span.
func TestRoundTripAloneProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 8))
	base := time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC)
	for c := range 400 {
		sh := roundTripShapes[rng.IntN(len(roundTripShapes))]
		n := 2 + rng.IntN(3)
		stays := rng.IntN(4) != 0
		rising := rng.IntN(4) == 0
		left := rng.IntN(n)
		var in []Input
		at := base
		for m := range n {
			if m > 0 {
				at = at.Add(time.Duration(2000+rng.IntN(6000)) * time.Millisecond)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "%s\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n", at.Format("2006-01-02 15:04:05"))
			cpu := 5.0
			if rising {
				cpu += float64(m) * 400
			}
			elapsed := 30 + at.Sub(base).Seconds()
			fmt.Fprintf(&b, "\"lone-sync\" #20 prio=5 os_prio=0 cpu=%.2fms elapsed=%.2fs tid=0x00007f0000001000 nid=0x100 runnable  [0x00007f0000000000]\n   java.lang.Thread.State: RUNNABLE\n", cpu, elapsed)
			if !stays && m == left {
				b.WriteString("\tat com.example.Work.compute(Work.java:5)\n" + threadRun)
			} else {
				b.WriteString(sh.frames)
			}
			b.WriteString("\n")
			for i := 1; i <= 3; i++ {
				fmt.Fprintf(&b, "\"idle-%d\" #%d prio=5 os_prio=0 cpu=1.00ms elapsed=%.2fs tid=0x00007f000000200%d nid=0x20%d waiting on condition  [0x00007f0000000000]\n   java.lang.Thread.State: WAITING (parking)\n"+
					"\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n"+
					"\tat java.util.concurrent.LinkedBlockingQueue.take(java.base@17.0.15/LinkedBlockingQueue.java:435)\n"+
					"\tat java.util.concurrent.ThreadPoolExecutor.getTask(java.base@17.0.15/ThreadPoolExecutor.java:1062)\n"+
					"\tat java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1122)\n"+
					"\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)\n"+threadRun+"\n",
					i, 20+i, elapsed, i, i)
			}
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(b.String()))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		span := at.Sub(base)
		want := sh.trip && stays && !rising && span >= RoundTripStay*time.Second
		got := false
		for _, f := range Analyze(in, Options{}).Findings {
			if f.Kind == KindStuck && f.Pool == "lone-sync" {
				got = true
				if f.Severity != Warning || f.Basis != basisRoundTrip {
					t.Errorf("case %d %s: severity %v basis %q", c, sh.name, f.Severity, f.Basis)
				}
			} else if f.Kind != KindRecovered {
				t.Errorf("case %d %s: unexpected %s %s %s", c, sh.name, f.Kind, f.Pool, f.State)
			}
		}
		if got != want {
			t.Errorf("case %d: %s, %d moments over %v, stays %v, cpu rising %v: stuck %v, want %v", c, sh.name, n, span, stays, rising, got, want)
		}
	}
}
