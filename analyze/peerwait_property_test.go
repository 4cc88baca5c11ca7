package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// peerPoolWorld is a JVM process at 1 to 3 moments: a pool of plain client
// threads (fetch-0..k-1) of which the first s read a peer's reply under
// application code at every moment and the rest sleep between calls, beside
// an idle Tomcat whose connection threads read their clients' next
// requests (its via rests) and an acceptor.
type peerPoolWorld struct {
	k, s, moments int
	gap           int  // seconds between moments
	ran           bool // the readers' cpu= rises between moments: they returned and came back
	timed         bool // the read has a visible timeout (NioSocketImpl.timedRead)
	body          bool // an HTTP client's body read (a stream, no round trip), not a plain read
	tomcat        int  // idle keep-alive readers of the server beside them
	age           int  // the threads' elapsed= at the first moment, seconds
	busy          bool // the readers spent 5% of their life on CPU
}

func randomPeerPoolWorld(rng *rand.Rand) peerPoolWorld {
	w := peerPoolWorld{k: 1 + rng.IntN(300), moments: 1 + rng.IntN(3), gap: []int{2, 4, 5, 10}[rng.IntN(4)],
		ran: rng.IntN(5) == 0, timed: rng.IntN(5) == 0, body: rng.IntN(6) == 0, tomcat: rng.IntN(30),
		age: []int{4, 30, 59, 61, 300, 3600}[rng.IntN(6)], busy: rng.IntN(5) == 0}
	if rng.IntN(3) == 0 {
		w.k = 1 + rng.IntN(8) // small pools often: the class
	}
	switch rng.IntN(3) {
	case 0:
		w.s = w.k // the whole pool
	case 1:
		w.s = rng.IntN(w.k + 1)
	default:
		w.s = max(0, w.k-1-rng.IntN(3))
	}
	return w
}

func (w peerPoolWorld) String() string {
	return fmt.Sprintf("pool %d, %d reading, %d moments %d s apart, ran %v, timed %v, body %v, tomcat %d, age %d s, busy %v",
		w.k, w.s, w.moments, w.gap, w.ran, w.timed, w.body, w.tomcat, w.age, w.busy)
}

func (w peerPoolWorld) dump(m int) string {
	var b strings.Builder
	at := time.Date(2026, 12, 8, 1, 0, 0, 0, time.UTC).Add(time.Duration(m*w.gap) * time.Second)
	fmt.Fprintf(&b, "%s\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n", at.Format("2006-01-02 15:04:05"))
	id := 20
	elapsed := float64(w.age + m*w.gap)
	head := func(name, state, top string, cpu float64) {
		id++
		fmt.Fprintf(&b, "\"%s\" #%d prio=5 os_prio=0 cpu=%.2fms elapsed=%.2fs tid=0x00007f00000%04x nid=0x%x %s  [0x00007f0000000000]\n   java.lang.Thread.State: %s\n",
			name, id, cpu, elapsed, id, id, top, state)
	}
	tail := "\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n   Locked ownable synchronizers:\n\t- None\n\n"
	read := "\tat sun.nio.ch.SocketDispatcher.read0(java.base@17.0.15/Native Method)\n" +
		"\tat sun.nio.ch.SocketDispatcher.read(java.base@17.0.15/SocketDispatcher.java:47)\n" +
		"\tat sun.nio.ch.NioSocketImpl.tryRead(java.base@17.0.15/NioSocketImpl.java:266)\n"
	if w.timed {
		read = "\tat sun.nio.ch.Net.poll(java.base@17.0.15/Native Method)\n" +
			"\tat sun.nio.ch.NioSocketImpl.park(java.base@17.0.15/NioSocketImpl.java:186)\n" +
			"\tat sun.nio.ch.NioSocketImpl.timedRead(java.base@17.0.15/NioSocketImpl.java:290)\n"
	}
	read += "\tat sun.nio.ch.NioSocketImpl.implRead(java.base@17.0.15/NioSocketImpl.java:314)\n" +
		"\tat sun.nio.ch.NioSocketImpl.read(java.base@17.0.15/NioSocketImpl.java:355)\n" +
		"\tat java.net.Socket$SocketInputStream.read(java.base@17.0.15/Socket.java:966)\n"
	call := "\tat com.example.gen.QuoteClient.fetch(QuoteClient.java:41)\n"
	if w.body {
		call = "\tat org.apache.http.impl.io.SessionInputBufferImpl.fillBuffer(SessionInputBufferImpl.java:153)\n" +
			"\tat org.apache.http.impl.io.ChunkedInputStream.read(ChunkedInputStream.java:180)\n" +
			"\tat org.apache.http.conn.EofSensorInputStream.read(EofSensorInputStream.java:135)\n" +
			"\tat com.example.gen.QuoteClient.stream(QuoteClient.java:58)\n"
	}
	for i := range w.k {
		if i < w.s {
			cpu := 2.0
			if w.busy {
				cpu = 0.05 * 1000 * float64(w.age) // spent before the first moment
			}
			if w.ran {
				cpu += float64(m) * 40
			}
			head(fmt.Sprintf("fetch-%d", i), "RUNNABLE", "runnable", cpu)
			b.WriteString(read + call + "\tat com.example.gen.Fetcher.lambda$start$0(Fetcher.java:20)\n")
		} else {
			head(fmt.Sprintf("fetch-%d", i), "TIMED_WAITING (sleeping)", "waiting on condition", 2+float64(m)*40)
			b.WriteString("\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n" +
				"\tat com.example.gen.Fetcher.pause(Fetcher.java:33)\n\tat com.example.gen.Fetcher.lambda$start$0(Fetcher.java:21)\n")
		}
		b.WriteString(tail)
	}
	for i := range w.tomcat {
		head(fmt.Sprintf("http-nio-8080-exec-%d", i+1), "RUNNABLE", "runnable", 5)
		b.WriteString(read +
			"\tat org.apache.tomcat.util.net.NioEndpoint$NioSocketWrapper.fillReadBuffer(NioEndpoint.java:1290)\n" +
			"\tat org.apache.coyote.http11.Http11InputBuffer.fill(Http11InputBuffer.java:790)\n" +
			"\tat org.apache.coyote.http11.Http11Processor.service(Http11Processor.java:274)\n" +
			"\tat org.apache.tomcat.util.threads.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:659)\n" + tail)
	}
	head("http-nio-8080-Acceptor", "RUNNABLE", "runnable", 3)
	b.WriteString("\tat sun.nio.ch.Net.accept(java.base@17.0.15/Native Method)\n" +
		"\tat sun.nio.ch.ServerSocketChannelImpl.implAccept(java.base@17.0.15/ServerSocketChannelImpl.java:425)\n" +
		"\tat org.apache.tomcat.util.net.NioEndpoint.serverSocketAccept(NioEndpoint.java:548)\n" +
		"\tat org.apache.tomcat.util.net.Acceptor.run(Acceptor.java:129)\n" + tail)
	return b.String()
}

func (w peerPoolWorld) analyze(t *testing.T) *Result {
	t.Helper()
	var in []Input
	for m := range w.moments {
		ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(w.dump(m)))
		if err != nil || len(ds) != 1 {
			t.Fatalf("%v: parse moment %d: %v", w, m+1, err)
		}
		in = append(in, Input{Dump: ds[0]})
	}
	return Analyze(in, Options{})
}

// TestPeerPoolProperty: over random worlds (a pool of 1 to 300 plain client
// threads, any share of them in one client read at every moment, 1 to 3
// moments 2 to 10 s apart, threads 4 s to an hour old, idle or busy all
// their life, beside an idle Tomcat's keep-alive readers), the
// pool is stuck by its whole-pool read (basis peer-pool) exactly when
// every one of its threads, two or more and fewer than StuckMin, reads at
// every moment over RoundTripStay, none running between the moments, the
// read untimed and a round trip's (not a stream's body); whenever the
// whole pool of two or more is held so, some finding names it (any
// size: stuck, or a crowd's explosion); the Tomcat readers and the acceptor are never a finding, and a
// pool whose readers ran between the moments or whose read is timed or a
// body's is never stuck by the pool's share alone; on one dump, a
// peer-lifetime warning comes only for the whole pool, two or more, each
// thread PeerElapsedMin old with at most PeerCPUShare of it on CPU, and
// such a pool is always named. Seeded.
func TestPeerPoolProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 2026))
	seen := map[string]int{}
	for i := range 300 {
		w := randomPeerPoolWorld(rng)
		if i == 0 {
			w = peerPoolWorld{k: 2, s: 2, moments: 3, gap: 4, age: 4} // judge15's price-fetcher: 8 s
		}
		r := w.analyze(t)
		span := (w.moments - 1) * w.gap
		held := w.moments >= 2 && span >= RoundTripStay && !w.ran && !w.timed && !w.body
		whole := held && w.s == w.k && w.k >= PeerPoolFloor
		wantBasis := whole && w.k < StuckMin
		// One dump: the whole pool in its read, each thread old and idle
		// all its life (peerLifetime).
		lifetime := w.moments == 1 && w.s == w.k && w.k >= PeerPoolFloor && !w.timed && !w.body && !w.busy && w.age >= PeerElapsedMin
		var gotBasis, gotStuck, named, gotLifetime bool
		for _, f := range r.Findings {
			if strings.HasPrefix(f.Pool, "http-nio") {
				t.Errorf("%v: the idle server's %s is a finding: %s", w, f.Pool, f.ID)
			}
			if f.Pool != "fetch-*" || f.State != "socket-read" {
				continue
			}
			// A crowd of plain threads each in its own read is the
			// explosion's (thread-per-task), which names them too.
			named = named || f.Severity != Info
			if f.Kind == KindStuck {
				gotStuck = true
				gotBasis = gotBasis || f.Basis == BasisPeerPool
				gotLifetime = gotLifetime || f.Basis == BasisPeerLifetime
			}
		}
		if gotBasis != wantBasis {
			t.Errorf("%v: peer-pool finding %v, want %v", w, gotBasis, wantBasis)
		}
		if gotLifetime && !lifetime {
			t.Errorf("%v: peer-lifetime finding, not wanted", w)
		}
		if lifetime && !named {
			t.Errorf("%v: one dump's whole pool, old and idle in its read: no finding names it", w)
		}
		if whole && !named {
			t.Errorf("%v: the whole pool held in its read, no finding names it", w)
		}
		if gotStuck && (w.ran && w.moments >= 2 || w.timed || w.body) && w.s < StuckMin {
			t.Errorf("%v: stuck below StuckMin though the read ran, is timed or is a body's", w)
		}
		if gotLifetime {
			seen["peer-lifetime"]++
		}
		switch {
		case wantBasis:
			seen["peer-pool"]++
		case whole:
			seen["whole, large"]++
		case w.s == w.k && w.moments >= 2:
			seen["whole, not held"]++
		default:
			seen["other"]++
		}
	}
	for _, k := range []string{"peer-pool", "peer-lifetime", "whole, large", "whole, not held", "other"} {
		if seen[k] == 0 {
			t.Errorf("no world of kind %q: the generator does not cover it", k)
		}
	}
}

// peerProgramWorld is one Go dump (debug=2 form): reads goroutines in a
// client read under main.fetch, created by main.main or by the accept
// loop's function, main in one of mainWaits, and others each in one of
// otherWaits.
type peerProgramWorld struct {
	reads      int
	mainReads  bool // main itself reads (then reads counts it)
	byAccept   bool // the readers were created by the accept loop's function: a server's connections
	mainWait   string
	others     []string
	minutes    []int // per reader, 0: none printed
	hasAccept  bool
	serverConn int // net/http server connections reading their next request
	// signals: the program registered for signals (os/signal's loop
	// runs): main in a receive waits for its operator, not its readers
	signals bool
}

var mainWaits = []string{"select (no cases)", "sync.WaitGroup.Wait", "chan receive", "sleep", "select", "running"}

var otherWaits = []string{"chan receive", "sync.Mutex.Lock", "select (no cases)", "sleep", "select", "running"}

// onAnotherWait: the waits of mainWaits and otherWaits that wait on
// another goroutine (or for good), not on the clock or the CPU.
var onAnotherWait = map[string]bool{"select (no cases)": true, "sync.WaitGroup.Wait": true, "chan receive": true, "sync.Mutex.Lock": true}

func randomPeerProgramWorld(rng *rand.Rand) peerProgramWorld {
	w := peerProgramWorld{reads: rng.IntN(5), mainReads: rng.IntN(3) == 0, byAccept: rng.IntN(5) == 0,
		mainWait: mainWaits[rng.IntN(len(mainWaits))], hasAccept: rng.IntN(2) == 0, serverConn: 0, signals: rng.IntN(3) == 0}
	if rng.IntN(5) == 0 {
		w.serverConn = 1 + rng.IntN(4)
	}
	if w.mainReads && w.reads == 0 {
		w.reads = 1
	}
	if w.byAccept {
		w.hasAccept = true
	}
	for range rng.IntN(4) {
		if rng.IntN(2) == 0 {
			w.others = append(w.others, "chan receive") // waits on another goroutine, often
		} else {
			w.others = append(w.others, otherWaits[rng.IntN(len(otherWaits))])
		}
	}
	for range w.reads {
		m := 0
		if rng.IntN(2) == 0 {
			m = 1 + rng.IntN(40)
		}
		w.minutes = append(w.minutes, m)
	}
	return w
}

func (w peerProgramWorld) String() string {
	return fmt.Sprintf("reads %d (main %v, by accept %v, minutes %v), main %q, others %q, accept %v, server conns %d, signals %v",
		w.reads, w.mainReads, w.byAccept, w.minutes, w.mainWait, w.others, w.hasAccept, w.serverConn, w.signals)
}

// goWait writes goroutine id in state st at main's function fn, created by
// creator ("" for main).
func goWait(b *strings.Builder, id int, st, fn, creator string) {
	header := st
	top := ""
	switch st {
	case "running":
		header = "running"
		top = "main.crunch(0x1)\n\t/src/main.go:90 +0x1e\n"
	case "sleep":
		top = "time.Sleep(0x3b9aca00)\n\t/usr/local/go/src/runtime/time.go:363 +0x165\n"
	case "chan receive":
		top = "runtime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/proc.go:460 +0xce\nruntime.chanrecv1(0x0?, 0x0?)\n\t/usr/local/go/src/runtime/chan.go:489 +0x12\n"
	case "select", "select (no cases)":
		top = "runtime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/proc.go:460 +0xce\nruntime.selectgo(0x0?, 0x0?, 0x0?, 0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/select.go:351 +0x837\n"
		if st == "select (no cases)" {
			top = "runtime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/proc.go:460 +0xce\nruntime.block()\n\t/usr/local/go/src/runtime/select.go:104 +0x26\n"
		}
	case "sync.WaitGroup.Wait":
		top = "sync.runtime_SemacquireWaitGroup(0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:114 +0x2e\nsync.(*WaitGroup).Wait(0x0?)\n\t/usr/local/go/src/sync/waitgroup.go:206 +0x85\n"
	case "sync.Mutex.Lock":
		top = "sync.runtime_SemacquireMutex(0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\ninternal/sync.(*Mutex).lockSlow(0x0)\n\t/usr/local/go/src/internal/sync/mutex.go:149 +0x15d\nsync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\n"
	}
	fmt.Fprintf(b, "goroutine %d [%s]:\n%s%s(0x1)\n\t/src/main.go:%d +0x4a\n", id, header, top, fn, 30+id)
	if creator != "" {
		fmt.Fprintf(b, "created by %s in goroutine 1\n\t/src/main.go:12 +0x2c\n", creator)
	}
	b.WriteString("\n")
}

func (w peerProgramWorld) dump() string {
	var b strings.Builder
	read := func(id, minutes int, creator string) {
		st := "IO wait"
		if minutes > 0 {
			st = fmt.Sprintf("IO wait, %d minutes", minutes)
		}
		fmt.Fprintf(&b, "goroutine %d [%s]:\n%smain.fetch(0x1)\n\t/src/main.go:44 +0x1e\nmain.ask(0x1)\n\t/src/main.go:30 +0x77\n", id, st, goNetRead)
		if creator != "" {
			fmt.Fprintf(&b, "created by %s in goroutine 1\n\t/src/main.go:60 +0x2c\n", creator)
		} else {
			b.WriteString("main.main()\n\t/src/main.go:10 +0x18\n")
		}
		b.WriteString("\n")
	}
	creator := "main.main"
	if w.byAccept {
		creator = "main.serve"
	}
	r := 0
	if w.mainReads {
		read(1, w.minutes[0], "")
		r = 1
	} else {
		goWait(&b, 1, w.mainWait, "main.main", "")
	}
	id := 20
	for ; r < w.reads; r++ {
		read(id, w.minutes[r], creator)
		id++
	}
	if w.hasAccept {
		fmt.Fprintf(&b, "goroutine %d [IO wait]:\ninternal/poll.runtime_pollWait(0x7efd48e7d800, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n"+
			"internal/poll.(*pollDesc).wait(0xc000150000?, 0x0?, 0x0)\n\t/usr/local/go/src/internal/poll/fd_poll_runtime.go:84 +0x27\n"+
			"internal/poll.(*pollDesc).waitRead(...)\n\t/usr/local/go/src/internal/poll/fd_poll_runtime.go:89\n"+
			"internal/poll.(*FD).Accept(0xc000150000)\n\t/usr/local/go/src/internal/poll/fd_unix.go:620 +0x295\n"+
			"net.(*netFD).accept(0xc000150000)\n\t/usr/local/go/src/net/fd_unix.go:172 +0x29\n"+
			"net.(*TCPListener).accept(0xc00012c000)\n\t/usr/local/go/src/net/tcpsock_posix.go:159 +0x1b\n"+
			"net.(*TCPListener).Accept(0xc00012c000)\n\t/usr/local/go/src/net/tcpsock.go:380 +0x30\n"+
			"main.serve(0x1)\n\t/src/main.go:58 +0x44\ncreated by main.main in goroutine 1\n\t/src/main.go:11 +0x2c\n\n", id)
		id++
	}
	for range w.serverConn {
		fmt.Fprintf(&b, "goroutine %d [IO wait]:\n%snet/http.(*connReader).Read(0xc000100000, {0xc000200000, 0x1000, 0x1000})\n\t/usr/local/go/src/net/http/server.go:798 +0x14b\n"+
			"net/http.(*conn).serve(0xc000102000, {0x7a1b20, 0xc000110000})\n\t/usr/local/go/src/net/http/server.go:2100 +0x7e5\n"+
			"created by net/http.(*Server).Serve in goroutine 7\n\t/usr/local/go/src/net/http/server.go:3454 +0x485\n\n", id, goNetRead)
		id++
	}
	for _, o := range w.others {
		goWait(&b, id, o, fmt.Sprintf("main.worker%d", id), "main.main")
		id++
	}
	if w.signals {
		fmt.Fprintf(&b, "goroutine %d [syscall]:\nos/signal.signal_recv()\n\t/usr/local/go/src/runtime/sigqueue.go:152 +0x29\n"+
			"os/signal.loop()\n\t/usr/local/go/src/os/signal/signal_unix.go:23 +0x13\ncreated by os/signal.Notify.func1.1 in goroutine 1\n\t/usr/local/go/src/os/signal/signal.go:152 +0x1f\n\n", id)
	}
	return b.String()
}

// TestPeerProgramProperty: over random one-dump Go programs (client reads
// by main or goroutines it started, or by a server's connections; main and
// the other goroutines each waiting on another goroutine, for good, on the
// clock, or running; an accept loop; net/http's idle connections), the
// reads are a peer-program finding exactly when there is one, none was
// created by the accept loop's function, and every other application
// goroutine waits on another goroutine or for good (or accepts): a
// warning where main's own path reads or waits for the readers (a
// WaitGroup, a channel with no os/signal loop beside it), else info (a
// push client's reader on a quiet stream, main in select {} or waiting for
// a signal, looks the same); it tells the longest printed minute.
// Seeded.
func TestPeerProgramProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 127))
	seen := map[bool]int{}
	for range 400 {
		w := randomPeerProgramWorld(rng)
		ds, err := parse.Parse("sigquit.txt", strings.NewReader(w.dump()))
		if err != nil || len(ds) != 1 {
			t.Fatalf("%v: parse: %v", w, err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		mainOnly := w.mainReads && w.reads == 1 // no reader the accept loop's function could have made
		want := w.reads > 0 && (!w.byAccept || mainOnly) && w.serverConn == 0 && (w.mainReads || onAnotherWait[w.mainWait])
		for _, o := range w.others {
			want = want && onAnotherWait[o]
		}
		seen[want]++
		var got []Finding
		for _, f := range r.Findings {
			if f.Basis == BasisPeerProgram {
				got = append(got, f)
			}
		}
		if (len(got) > 0) != want {
			t.Errorf("%v: peer-program findings %d, want %v\n%s", w, len(got), want, w.dump())
			continue
		}
		if !want {
			continue
		}
		reads, longest := 0, 0
		for _, f := range got {
			// A warning where main's own path reads; a suspect (info)
			// where only goroutines of their own do: a quiet stream's
			// reader looks the same.
			sev := Info
			if w.mainReads || w.mainWait == "sync.WaitGroup.Wait" || w.mainWait == "chan receive" && !w.signals {
				sev = Warning // main waits on its readers
			}
			if f.Severity != sev || f.State != "socket-read" || !strings.HasPrefix(f.Culprit, "main.fetch") {
				t.Errorf("%v: %s: severity %s, state %s, culprit %q", w, f.ID, f.Severity, f.State, f.Culprit)
			}
			reads += f.Counts[f.At]
			if f.Wait != nil {
				longest = max(longest, f.Wait.MaxMinutes)
			}
		}
		if reads != w.reads {
			t.Errorf("%v: %d reads told, want %d", w, reads, w.reads)
		}
		if m := longestMinutes(w.minutes); longest != m {
			t.Errorf("%v: longest printed wait %d, want %d", w, longest, m)
		}
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("worlds cover one side only: %v", seen)
	}
}

func longestMinutes(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
