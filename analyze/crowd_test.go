package analyze

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// crowdShape is how the generated crowd's threads run.
type crowdShape int

const (
	spawnRead   crowdShape = iota // new Thread per request, reading an upstream's reply
	supplySleep                   // supplyAsync's task on a thread of its own, asleep
	pooledRead                    // the same read under a pool's runWorker
	serverRead                    // a blocking server's connection reading in the accept loop's code
	orphanRead                    // the same read in the server's code, no accept loop in the dump
	queueTake                     // threads of their own, idle in a queue's take (a rest)
	crowdShapes
)

// jstackCrowd writes one jstack -l moment: n threads of shape s, k pool
// workers idle in getTask, main asleep, and, for serverRead, the accept
// loop.
func jstackCrowd(s crowdShape, n, k int) string {
	var b strings.Builder
	b.WriteString("2026-12-07 08:00:00\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n")
	id := 20
	head := func(name, state, top string) {
		id++
		fmt.Fprintf(&b, "\"%s\" #%d prio=5 os_prio=0 cpu=1.00ms elapsed=60.00s tid=0x00007f00000%04x nid=0x%x %s  [0x00007f0000000000]\n   java.lang.Thread.State: %s\n", name, id, id, id, top, state)
	}
	tail := "\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n   Locked ownable synchronizers:\n\t- None\n\n"
	read := "\tat sun.nio.ch.SocketDispatcher.read0(java.base@17.0.15/Native Method)\n" +
		"\tat sun.nio.ch.NioSocketImpl.implRead(java.base@17.0.15/NioSocketImpl.java:322)\n" +
		"\tat sun.nio.ch.NioSocketImpl.read(java.base@17.0.15/NioSocketImpl.java:355)\n"
	for i := 0; i < n; i++ {
		switch s {
		case spawnRead:
			head(fmt.Sprintf("Thread-%d", i), "RUNNABLE", "runnable")
			b.WriteString(read + "\tat com.example.orders.InventoryClient.call(InventoryClient.java:40)\n" +
				"\tat com.example.orders.OrderServer.lambda$handle$0(OrderServer.java:22)\n" + tail)
		case pooledRead:
			head(fmt.Sprintf("pool-1-thread-%d", i+1), "RUNNABLE", "runnable")
			b.WriteString(read + "\tat com.example.orders.InventoryClient.call(InventoryClient.java:40)\n" +
				"\tat com.example.orders.OrderServer.lambda$handle$0(OrderServer.java:22)\n" +
				"\tat java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1136)\n" +
				"\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)\n" + tail)
		case supplySleep:
			head(fmt.Sprintf("Thread-%d", i), "TIMED_WAITING (sleeping)", "waiting on condition")
			b.WriteString("\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n" +
				"\tat com.example.prices.PriceService.quote(PriceService.java:30)\n" +
				"\tat com.example.prices.PriceService.lambda$all$0(PriceService.java:20)\n" +
				"\tat java.util.concurrent.CompletableFuture$AsyncSupply.run(java.base@17.0.15/CompletableFuture.java:1768)\n" + tail)
		case serverRead, orphanRead:
			head(fmt.Sprintf("Thread-%d", i), "RUNNABLE", "runnable")
			b.WriteString(read + "\tat java.io.BufferedReader.readLine(java.base@17.0.15/BufferedReader.java:397)\n" +
				"\tat com.example.echo.EchoServer$Handler.run(EchoServer.java:50)\n" + tail)
		case queueTake:
			head(fmt.Sprintf("Thread-%d", i), "WAITING (parking)", "waiting on condition")
			b.WriteString("\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
				"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)\n" +
				"\tat java.util.concurrent.LinkedBlockingQueue.take(java.base@17.0.15/LinkedBlockingQueue.java:435)\n" +
				"\tat com.example.feed.Consumer.run(Consumer.java:30)\n" + tail)
		}
	}
	for i := 0; i < k; i++ {
		head(fmt.Sprintf("worker-%d", i+1), "WAITING (parking)", "waiting on condition")
		b.WriteString("\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
			"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)\n" +
			"\tat java.util.concurrent.LinkedBlockingQueue.take(java.base@17.0.15/LinkedBlockingQueue.java:435)\n" +
			"\tat java.util.concurrent.ThreadPoolExecutor.getTask(java.base@17.0.15/ThreadPoolExecutor.java:1062)\n" +
			"\tat java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1122)\n" +
			"\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)\n" + tail)
	}
	head("main", "RUNNABLE", "runnable")
	if s == serverRead {
		b.WriteString("\tat sun.nio.ch.Net.accept(java.base@17.0.15/Native Method)\n" +
			"\tat sun.nio.ch.NioSocketImpl.accept(java.base@17.0.15/NioSocketImpl.java:760)\n" +
			"\tat java.net.ServerSocket.implAccept(java.base@17.0.15/ServerSocket.java:675)\n" +
			"\tat java.net.ServerSocket.accept(java.base@17.0.15/ServerSocket.java:554)\n" +
			"\tat com.example.echo.EchoServer.main(EchoServer.java:30)\n\n   Locked ownable synchronizers:\n\t- None\n\n")
	} else {
		b.WriteString("\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n" +
			"\tat com.example.Main.main(Main.java:10)\n\n   Locked ownable synchronizers:\n\t- None\n\n")
	}
	return b.String()
}

// TestThreadPerTaskProperty: over generated one-dump populations (a crowd
// of every shape, 1–400 strong, beside 0–600 idle pool workers), the
// thread-per-task finding is there exactly when the crowd runs on threads
// of their own in a wait that is no rest (an upstream's reply, a task's
// sleep, a server's read with no accept loop to rest it), CrowdMin or
// more, CrowdShare or more of the application's threads; never for a
// pool's workers, a blocking server's connections or a rest; and it names
// the frame that made them.
func TestThreadPerTaskProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	found := 0
	const cases = 400
	for c := range cases {
		s := crowdShape(c % int(crowdShapes))
		n := 1 + rng.Intn(400)
		k := rng.Intn(600)
		if c%4 == 0 {
			k = rng.Intn(n) // most of the process
		}
		ds, err := parse.Parse("1.txt", strings.NewReader(jstackCrowd(s, n, k)))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		app := n + k + 1
		want := (s == spawnRead || s == supplySleep || s == orphanRead) && n >= CrowdMin && float64(n) >= CrowdShare*float64(app)
		var got *Finding
		for i, f := range r.Findings {
			if f.Kind == KindExplosion {
				got = &r.Findings[i]
			}
		}
		if (got != nil) != want {
			t.Fatalf("case %d: shape %d, %d in the crowd beside %d workers: explosion %v, want %v", c, s, n, k, got != nil, want)
		}
		if got == nil {
			continue
		}
		found++
		creator := map[crowdShape]string{spawnRead: "com.example.orders.OrderServer.lambda$handle$0",
			supplySleep: "com.example.prices.PriceService.lambda$all$0", orphanRead: "com.example.echo.EchoServer$Handler.run"}[s]
		if got.Basis != BasisCrowd || got.Pool != "Thread-*" || got.Counts[0] != n || len(got.Entries) == 0 || got.Entries[0].Func != creator {
			t.Fatalf("case %d: %+v, want %d of Thread-* made by %s", c, got, n, creator)
		}
	}
	if found < 50 {
		t.Errorf("only %d crowds found in %d cases", found, cases)
	}
	t.Logf("%d cases, %d crowds found", cases, found)
}

// goCrowdShape is how a generated Go crowd waits and was made.
type goCrowdShape int

const (
	sendDistinct  goCrowdShape = iota // chan send, one parent per request (a leak)
	sendOneParent                     // chan send, made by one loop (a leak: a send is no rest)
	recvDistinct                      // chan receive, one parent per request (a leak)
	recvOneParent                     // chan receive, a worker pool started by main (healthy)
	recvNoParent                      // chan receive, Go before 1.21: no parent printed (not told)
	connServe                         // net/http connections waiting for their next request (healthy)
	goCrowdShapes
)

// goroutineCrowd writes one debug=2 dump: main writing it, n goroutines of
// shape s, and k asleep in a ticker loop of their own (a rest), each made
// by main.
func goroutineCrowd(s goCrowdShape, n, k int) string {
	var b strings.Builder
	b.WriteString("goroutine 1 [running]:\nruntime/pprof.writeGoroutineStacks({0x79cac0, 0xc000010000})\n\t/usr/local/go/src/runtime/pprof/pprof.go:819 +0x6b\n" +
		"runtime/pprof.writeGoroutine({0x79cac0?, 0xc000010000?}, 0x2?)\n\t/usr/local/go/src/runtime/pprof/pprof.go:782 +0x25\n" +
		"runtime/pprof.(*Profile).WriteTo(0x77a862?, {0x79cac0?, 0xc000010000?}, 0x1b6?)\n\t/usr/local/go/src/runtime/pprof/pprof.go:408 +0x149\n" +
		"main.main()\n\t/app/main.go:20 +0x25\n\n")
	id := 10
	for i := 0; i < n; i++ {
		id += 2
		parent := fmt.Sprintf(" in goroutine %d", id-1) // the request's goroutine, gone
		switch s {
		case sendOneParent, recvOneParent:
			parent = " in goroutine 1"
		case recvNoParent:
			parent = ""
		}
		switch s {
		case sendDistinct, sendOneParent:
			fmt.Fprintf(&b, "goroutine %d [chan send]:\nmain.quote.func1()\n\t/app/main.go:101 +0x45\ncreated by main.quote%s\n\t/app/main.go:98 +0x9a\n\n", id, parent)
		case recvDistinct, recvOneParent, recvNoParent:
			fmt.Fprintf(&b, "goroutine %d [chan receive]:\nmain.watch(0xc000120000)\n\t/app/main.go:120 +0x25\ncreated by main.watchers%s\n\t/app/main.go:115 +0x9a\n\n", id, parent)
		case connServe:
			fmt.Fprintf(&b, "goroutine %d [IO wait]:\ninternal/poll.runtime_pollWait(0x7f39778ce800, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n"+
				"internal/poll.(*pollDesc).wait(0xc000188180?, 0xc0001a1000?, 0x0)\n\t/usr/local/go/src/internal/poll/fd_poll_runtime.go:84 +0x27\n"+
				"internal/poll.(*pollDesc).waitRead(...)\n\t/usr/local/go/src/internal/poll/fd_poll_runtime.go:89\n"+
				"internal/poll.(*FD).Read(0xc000188180, {0xc0001a1000, 0x1000, 0x1000})\n\t/usr/local/go/src/internal/poll/fd_unix.go:165 +0x2ae\n"+
				"net.(*netFD).Read(0xc000188180, {0xc0001a1000?, 0x4c9f20?, 0xc000188180?})\n\t/usr/local/go/src/net/fd_posix.go:68 +0x25\n"+
				"net.(*conn).Read(0xc00006c0a8, {0xc0001a1000?, 0x0?, 0x72?})\n\t/usr/local/go/src/net/net.go:196 +0x45\n"+
				"net/http.(*connReader).Read(0xc0000cc340, {0xc0001a1000, 0x1000, 0x1000})\n\t/usr/local/go/src/net/http/server.go:812 +0x154\n"+
				"bufio.(*Reader).fill(0xc0000e0240)\n\t/usr/local/go/src/bufio/bufio.go:113 +0x103\n"+
				"bufio.(*Reader).Peek(0xc0000e0240, 0x4)\n\t/usr/local/go/src/bufio/bufio.go:152 +0x53\n"+
				"net/http.(*conn).serve(0xc00018e1b0, {0x7a0258, 0xc0000df110})\n\t/usr/local/go/src/net/http/server.go:2103 +0x7f3\n"+
				"created by net/http.(*Server).Serve in goroutine 5\n\t/usr/local/go/src/net/http/server.go:3464 +0x485\n\n", id)
		}
	}
	for i := 0; i < k; i++ {
		id++
		fmt.Fprintf(&b, "goroutine %d [sleep]:\ntime.Sleep(0x3b9aca00)\n\t/usr/local/go/src/runtime/time.go:338 +0x167\nmain.poll()\n\t/app/main.go:60 +0x25\ncreated by main.main in goroutine 1\n\t/app/main.go:30 +0x9a\n\n", id)
	}
	return b.String()
}

// TestGoCrowdProperty: over generated one-dump populations (a crowd of
// every shape, 1–400 strong, beside 0–400 pollers asleep in their loop),
// the one-dump leak suspect is there exactly for a crowd in a send, or in
// a receive made one per request (distinct parents), LeakFlatMin or more
// and LeakMassShare or more of the process; never for a worker pool
// started by one parent, a receive whose parents are not printed, or a
// server's connections.
func TestGoCrowdProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	found := 0
	const cases = 400
	for c := range cases {
		s := goCrowdShape(c % int(goCrowdShapes))
		n := 1 + rng.Intn(400)
		k := rng.Intn(400)
		ds, err := parse.Parse("1.txt", strings.NewReader(goroutineCrowd(s, n, k)))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		total := n + k + 1
		leak := s == sendDistinct || s == sendOneParent || s == recvDistinct
		want := leak && n >= LeakFlatMin && float64(n) >= LeakMassShare*float64(total)
		var got []Finding
		for _, f := range r.Findings {
			if f.Severity > Info {
				got = append(got, f)
			}
		}
		if want != (len(got) == 1) || len(got) > 1 {
			t.Fatalf("case %d: shape %d, %d in the crowd beside %d: findings %+v, want a leak %v", c, s, n, k, got, want)
		}
		if !want {
			continue
		}
		found++
		if f := got[0]; f.Kind != KindLeaked || f.Basis != BasisGoCrowd || f.Counts[0] != n {
			t.Fatalf("case %d: %+v, want %d leaked by %s", c, f, n, BasisGoCrowd)
		}
	}
	if found < 30 {
		t.Errorf("only %d leaks found in %d cases", found, cases)
	}
	t.Logf("%d cases, %d leaks found", cases, found)
}
