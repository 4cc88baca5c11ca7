package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// peerPoolJVM writes one whole jstack dump: a pool of n "work-N" threads,
// k of them in a socket read (under the PostgreSQL driver's query, or with
// no known client when raw; with its deadline's frame when timed), inside
// a pool task or in a loop of their own,
// the others idle in getTask; plus the JVM's Reference Handler.
func peerPoolJVM(n, k int, raw, task, timed bool) string {
	var b strings.Builder
	b.WriteString("2026-12-06 08:00:00\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n")
	b.WriteString("\"Reference Handler\" #2 daemon prio=10 os_prio=0 cpu=0.10ms elapsed=60.00s tid=0x00007f0000000002 nid=0x2 waiting on condition  [0x00007f0000000000]\n" +
		"   java.lang.Thread.State: RUNNABLE\n\tat java.lang.ref.Reference.waitForReferencePendingList(java.base@17.0.15/Native Method)\n\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "\"work-%d\" #%d prio=5 os_prio=0 cpu=1.00ms elapsed=60.00s tid=0x00007f00000%04x nid=0x%x ", i, 20+i, i, 100+i)
		if i <= k {
			b.WriteString("runnable  [0x00007f0000000000]\n   java.lang.Thread.State: RUNNABLE\n" +
				"\tat sun.nio.ch.SocketDispatcher.read0(java.base@17.0.15/Native Method)\n" +
				"\tat sun.nio.ch.NioSocketImpl.implRead(java.base@17.0.15/NioSocketImpl.java:322)\n")
			if timed {
				b.WriteString("\tat sun.nio.ch.NioSocketImpl.timedRead(java.base@17.0.15/NioSocketImpl.java:276)\n")
			}
			if !raw {
				b.WriteString("\tat org.postgresql.core.VisibleBufferedInputStream.read(VisibleBufferedInputStream.java:161)\n" +
					"\tat org.postgresql.core.v3.QueryExecutorImpl.processResults(QueryExecutorImpl.java:2201)\n" +
					"\tat org.postgresql.jdbc.PgStatement.executeQuery(PgStatement.java:224)\n")
			}
			b.WriteString("\tat com.example.Reports.run(Reports.java:10)\n")
			if task {
				b.WriteString("\tat java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1136)\n" +
					"\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)\n")
			} else {
				b.WriteString("\tat com.example.Reports.loop(Reports.java:30)\n")
			}
		} else {
			b.WriteString("waiting on condition  [0x00007f0000000000]\n   java.lang.Thread.State: WAITING (parking)\n" +
				"\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
				"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)\n" +
				"\tat java.util.concurrent.LinkedBlockingQueue.take(java.base@17.0.15/LinkedBlockingQueue.java:435)\n" +
				"\tat java.util.concurrent.ThreadPoolExecutor.getTask(java.base@17.0.15/ThreadPoolExecutor.java:1062)\n" +
				"\tat java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1122)\n" +
				"\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)\n")
		}
		b.WriteString("\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n   Locked ownable synchronizers:\n\t- None\n\n")
	}
	return b.String()
}

// peerPoolGo writes one debug=2 dump: n goroutines of one creator, k of
// them in an HTTP client's round trip under a call their loop made (or in
// their own function: a loop of its own), the others idle on their job
// channel, none printing minutes.
func peerPoolGo(n, k int, own bool) string {
	var b strings.Builder
	b.WriteString("goroutine 1 [chan receive]:\nmain.main()\n\t/src/main.go:70 +0x1\n\n")
	for i := range n {
		id := 10 + i
		if i < k {
			fmt.Fprintf(&b, "goroutine %d [select]:\nnet/http.(*persistConn).roundTrip(0x1)\n\t/go/src/net/http/transport.go:2800 +0x1\n"+
				"net/http.(*Transport).roundTrip(0x1)\n\t/go/src/net/http/transport.go:700 +0x1\nnet/http.(*Client).Get(0x1)\n\t/go/src/net/http/client.go:480 +0x1\n", id)
			if !own {
				b.WriteString("main.(*fetcher).fetch(0x1)\n\t/src/main.go:40 +0x1\n")
			}
		} else {
			fmt.Fprintf(&b, "goroutine %d [chan receive]:\n", id)
		}
		b.WriteString("main.(*fetcher).worker(0x1)\n\t/src/main.go:33 +0x1\ncreated by main.main in goroutine 1\n\t/src/main.go:60 +0x1\n\n")
	}
	return b.String()
}

// TestPoolPeerWaitsProperty: over generated single whole dumps of both
// runtimes, a pool's named peer wait is said on one dump's evidence
// exactly when it holds at least PeerShare of the pool and PeerWaitMin
// threads, inside the work the pool gave them, under a known client, with
// no deadline shown (a timed read ends by its timeout); a
// raw read with no client named (a thread-per-connection server reads its
// own client the same way) and a loop of its own never (when every
// application thread of the dump waits, that rule says it first). Then two moments
// of the same dump are the ordinary stuck rule's, not this one's.
func TestPoolPeerWaitsProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 2))
	for c := range 300 {
		n := 1 + rng.IntN(20)
		k := rng.IntN(n + 1)
		raw, work, timed := rng.IntN(4) == 0, rng.IntN(4) != 0, rng.IntN(5) == 0
		goRT := rng.IntN(2) == 0
		text := peerPoolJVM(n, k, raw, work, timed)
		if goRT {
			raw, timed = false, false
			text = peerPoolGo(n, k, !work)
		}
		ds, err := parse.Parse("peer.txt", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		told, process := false, false
		for _, f := range r.Findings {
			process = process || f.Basis == "one-dump-process"
			if f.Basis == "one-dump-pool" {
				told = true
				if f.Kind != KindStuck || f.Severity != Warning || f.Counts[0] != k {
					t.Fatalf("case %d: %+v", c, f)
				}
			}
		}
		want := !raw && !timed && work && k >= PeerWaitMin && float64(k) >= PeerShare*float64(n)
		if want && process {
			told = true // every application thread waits: the process's story, said first
		}
		if told != want {
			t.Fatalf("case %d (go %v, %d of %d, raw %v, timed %v, in work %v): told %v, want %v", c, goRT, k, n, raw, timed, work, told, want)
		}
		if !want {
			continue
		}
		// Two moments: the ordinary rules speak, not the one-dump one.
		r = Analyze([]Input{{Dump: ds[0]}, {Dump: ds[0]}}, Options{})
		for _, f := range r.Findings {
			if f.Basis == "one-dump-pool" {
				t.Fatalf("case %d: a one-dump finding from two moments", c)
			}
		}
	}
}
