package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestPoolHoldersProperty (issue 33, "the holder first"): random worlds of
// a bounded pool, as jstack -l and Go debug=2 dumps of three moments. A
// world has a pool of size 1–10, its holders (0 to the size: none when the
// items leaked or are held where no stack shows), its waiters, and
// bystanders: threads in the same caller before its acquire (a request
// still being parsed), other application threads in a socket read,
// workers idle in the pool's loop. A stuck world keeps the same threads at
// every moment; a busy one turns over (other holders and waiters at each
// moment, two waiters at most). Properties:
//
//   - an exhausted-pool finding names holders by structure exactly when
//     the world has holders, as many as it has, with the holders' frame
//     as culprit, never a bystander;
//   - a stuck world with waiters says the pool exhausted (a Go channel
//     only when someone stands past its send: a send with nobody past it
//     is no semaphore); a busy world never does.
func TestPoolHoldersProperty(t *testing.T) {
	const cases = 300
	rng := rand.New(rand.NewPCG(33, 71))
	named := 0
	for c := range cases {
		w := poolWorld{
			goRT:    c%2 == 1,
			size:    1 + rng.IntN(10),
			waiters: rng.IntN(16),
			before:  rng.IntN(4),
			others:  rng.IntN(4),
			idle:    rng.IntN(4),
			busy:    rng.IntN(4) == 0,
			wrapped: rng.IntN(3) == 0,
		}
		w.holders = rng.IntN(w.size + 1)
		if w.busy {
			w.waiters = min(w.waiters, 8)
		}
		var in []Input
		for m := range 3 {
			text := w.dump(m)
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(text))
			if err != nil || len(ds) != 1 {
				t.Fatalf("case %d: parse: %v (%d dumps)\n%s", c, err, len(ds), text)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		var pf *Finding
		res := Analyze(in, Options{})
		for i, f := range res.Findings {
			if isPoolExhausted(f.Kind) {
				if pf != nil {
					t.Fatalf("case %d %+v: two pool findings: %s, %s", c, w, pf.ID, f.ID)
				}
				pf = &res.Findings[i]
			}
		}
		// A busy world's waiters are other threads at each moment: below
		// PoolWaitMin that is a pool at its edge; from it, the pool is
		// exhausted when nothing shows its holders (JVM: the waiters are
		// the evidence) or when more wait than hold (a queue longer than
		// one round of the pool), and turning over when its holders by
		// structure are other threads at each moment and no more wait.
		wantFinding := !w.busy && w.waiters > 0 && (!w.goRT || w.holders > 0) ||
			w.busy && w.waiters >= PoolWaitMin && (w.holders == 0 && !w.goRT || w.holders > 0 && w.waiters > w.holders)
		if (pf != nil) != wantFinding {
			t.Fatalf("case %d %+v: pool finding %v, want %v\n%s", c, w, pf != nil, wantFinding, findingIDs(res.Findings))
		}
		if pf == nil {
			continue
		}
		held := 0
		for _, h := range pf.Holders {
			held += h.Count
			if !strings.Contains(h.Culprit, w.holderFrame()) {
				t.Errorf("case %d %+v: holder group %+v is not at the holders' frame %s", c, w, h, w.holderFrame())
			}
		}
		if held != w.holders || (pf.HolderBasis != "") != (w.holders > 0) {
			t.Fatalf("case %d %+v: %d holders named (basis %q), want %d", c, w, held, pf.HolderBasis, w.holders)
		}
		if w.holders > 0 {
			named++
			if !strings.Contains(pf.Culprit, w.holderFrame()) {
				t.Errorf("case %d %+v: culprit %q, want the holders' frame %s", c, w, pf.Culprit, w.holderFrame())
			}
		}
	}
	if named < cases/5 {
		t.Errorf("only %d of %d worlds named holders: the generator drifted", named, cases)
	}
}

func findingIDs(fs []Finding) string {
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.ID)
	}
	return strings.Join(ids, ", ")
}

// poolWorld is one generated world (see TestPoolHoldersProperty).
type poolWorld struct {
	goRT                                         bool
	size, holders, waiters, before, others, idle int
	busy                                         bool
	// wrapped: the JVM waiters take the item through the application's
	// own helper (Conns.get under Handler.serve), which its holders have
	// returned from.
	wrapped bool
}

func (w poolWorld) holderFrame() string {
	if w.goRT {
		return "main.fetch"
	}
	return "com.example.gen.Remote.call"
}

// dump is moment m of the world: in a busy world every holder and
// waiter is another thread at each moment (a new id), in a stuck one the
// same.
func (w poolWorld) dump(m int) string {
	id := 0
	next := func(role string, i int) int {
		id++
		switch {
		case w.busy && role == "holder":
			return 1000*(m+1) + 100 + i
		case w.busy && role == "waiter":
			return 1000*(m+1) + 300 + i
		}
		return id
	}
	var b strings.Builder
	if w.goRT {
		fmt.Fprintf(&b, "goroutine 1 [running]:\nmain.main()\n\t/src/main.go:90 +0x1d\n\n")
		for i := range w.holders {
			fmt.Fprintf(&b, goHolder, 10+next("holder", i))
		}
		for i := range w.waiters {
			fmt.Fprintf(&b, goWaiter, 10+next("waiter", i))
		}
		for i := range w.before {
			fmt.Fprintf(&b, goBefore, 10+next("before", i))
		}
		for i := range w.others {
			fmt.Fprintf(&b, goOther, 10+next("other", i))
		}
		for i := range w.idle {
			fmt.Fprintf(&b, goIdle, 10+next("idle", i))
		}
		return b.String()
	}
	fmt.Fprintf(&b, "2026-12-07 18:%02d:00\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n", 10+m)
	jt := func(tmpl, name string, n int) {
		fmt.Fprintf(&b, tmpl, name, 20+n, 0x7f0000000000+n*0x1000, 0x3000+n)
	}
	for i := range w.holders {
		n := next("holder", i)
		jt(jHolder, fmt.Sprintf("handler-%d", n), n)
	}
	for i := range w.waiters {
		n := next("waiter", i)
		if w.wrapped {
			jt(jWaiterWrapped, fmt.Sprintf("handler-%d", n), n)
		} else {
			jt(jWaiter, fmt.Sprintf("handler-%d", n), n)
		}
	}
	for i := range w.before {
		n := next("before", i)
		jt(jBefore, fmt.Sprintf("handler-%d", n), n)
	}
	for i := range w.idle {
		n := next("idle", i)
		jt(jIdle, fmt.Sprintf("handler-%d", n), n)
	}
	for i := range w.others {
		n := next("other", i)
		jt(jOther, fmt.Sprintf("poller-%d", n), n)
	}
	for i, name := range []string{"Reference Handler", "Finalizer", "Signal Dispatcher"} {
		fmt.Fprintf(&b, "\"%s\" #%d daemon prio=10 os_prio=0 cpu=0.10ms elapsed=9.00s tid=0x00007f0000100%03d nid=0x10%d waiting on condition  [0x0000000000000000]\n   java.lang.Thread.State: RUNNABLE\n\n", name, 2+i, i, i)
	}
	return b.String()
}

const jHead = "\"%s\" #%d daemon prio=5 os_prio=0 cpu=1.00ms elapsed=9.00s tid=0x%016x nid=0x%x "

const jWorker = `	at java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1136)
	at java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)
	at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)

`

// jWaiter waits in the application's own pool's acquire under
// Handler.serve:40.
const jWaiter = jHead + `in Object.wait()  [0x00007f38f627d000]
   java.lang.Thread.State: WAITING (on object monitor)
	at java.lang.Object.wait(java.base@17.0.15/Native Method)
	- waiting on <0x00000000fc08fa40> (a com.example.gen.SlotPool)
	at java.lang.Object.wait(java.base@17.0.15/Object.java:338)
	at com.example.gen.SlotPool.acquire(SlotPool.java:45)
	- locked <0x00000000fc08fa40> (a com.example.gen.SlotPool)
	at com.example.gen.Handler.serve(Handler.java:40)
	at com.example.gen.Handler.lambda$run$0(Handler.java:12)
` + jWorker

// jWaiterWrapped waits in the same acquire through the application's
// helper Conns.get, called at Handler.serve:40.
const jWaiterWrapped = jHead + `in Object.wait()  [0x00007f38f627d000]
   java.lang.Thread.State: WAITING (on object monitor)
	at java.lang.Object.wait(java.base@17.0.15/Native Method)
	- waiting on <0x00000000fc08fa40> (a com.example.gen.SlotPool)
	at java.lang.Object.wait(java.base@17.0.15/Object.java:338)
	at com.example.gen.SlotPool.acquire(SlotPool.java:45)
	- locked <0x00000000fc08fa40> (a com.example.gen.SlotPool)
	at com.example.gen.Conns.get(Conns.java:10)
	at com.example.gen.Handler.serve(Handler.java:40)
	at com.example.gen.Handler.lambda$run$0(Handler.java:12)
` + jWorker

// jHolder is past the acquire: Handler.serve:42 → Remote.call in a socket read.
const jHolder = jHead + `runnable  [0x00007f31b77fc000]
   java.lang.Thread.State: RUNNABLE
	at sun.nio.ch.SocketDispatcher.read0(java.base@17.0.15/Native Method)
	at sun.nio.ch.SocketDispatcher.read(java.base@17.0.15/SocketDispatcher.java:47)
	at sun.nio.ch.NioSocketImpl.tryRead(java.base@17.0.15/NioSocketImpl.java:266)
	at sun.nio.ch.NioSocketImpl.implRead(java.base@17.0.15/NioSocketImpl.java:317)
	at sun.nio.ch.NioSocketImpl.read(java.base@17.0.15/NioSocketImpl.java:355)
	at sun.nio.ch.NioSocketImpl$1.read(java.base@17.0.15/NioSocketImpl.java:808)
	at java.net.Socket$SocketInputStream.read(java.base@17.0.15/Socket.java:966)
	at java.io.DataInputStream.readInt(java.base@17.0.15/DataInputStream.java:381)
	at com.example.gen.Remote.call(Remote.java:77)
	at com.example.gen.Handler.serve(Handler.java:42)
	at com.example.gen.Handler.lambda$run$0(Handler.java:12)
` + jWorker

// jBefore is in the same caller before its acquire (reading the request
// at Handler.serve:31): not a holder.
const jBefore = jHead + `runnable  [0x00007f31b77fc000]
   java.lang.Thread.State: RUNNABLE
	at sun.nio.ch.SocketDispatcher.read0(java.base@17.0.15/Native Method)
	at sun.nio.ch.SocketDispatcher.read(java.base@17.0.15/SocketDispatcher.java:47)
	at sun.nio.ch.NioSocketImpl.tryRead(java.base@17.0.15/NioSocketImpl.java:266)
	at sun.nio.ch.NioSocketImpl.implRead(java.base@17.0.15/NioSocketImpl.java:317)
	at sun.nio.ch.NioSocketImpl.read(java.base@17.0.15/NioSocketImpl.java:355)
	at sun.nio.ch.NioSocketImpl$1.read(java.base@17.0.15/NioSocketImpl.java:808)
	at java.net.Socket$SocketInputStream.read(java.base@17.0.15/Socket.java:966)
	at java.io.DataInputStream.readInt(java.base@17.0.15/DataInputStream.java:381)
	at com.example.gen.Request.read(Request.java:20)
	at com.example.gen.Handler.serve(Handler.java:31)
	at com.example.gen.Handler.lambda$run$0(Handler.java:12)
` + jWorker

// jIdle is a worker of the same pool, idle in its loop.
const jIdle = jHead + `waiting on condition  [0x00007f38f657d000]
   java.lang.Thread.State: WAITING (parking)
	at jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)
	- parking to wait for  <0x00000000fc090b98> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)
	at java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)
	at java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(java.base@17.0.15/AbstractQueuedSynchronizer.java:1630)
	at java.util.concurrent.LinkedBlockingQueue.take(java.base@17.0.15/LinkedBlockingQueue.java:435)
	at java.util.concurrent.ThreadPoolExecutor.getTask(java.base@17.0.15/ThreadPoolExecutor.java:1062)
` + jWorker

// jOther is other application work in a socket read: not of the pool.
const jOther = jHead + `runnable  [0x00007f31b77fc000]
   java.lang.Thread.State: RUNNABLE
	at sun.nio.ch.SocketDispatcher.read0(java.base@17.0.15/Native Method)
	at sun.nio.ch.SocketDispatcher.read(java.base@17.0.15/SocketDispatcher.java:47)
	at sun.nio.ch.NioSocketImpl.tryRead(java.base@17.0.15/NioSocketImpl.java:266)
	at sun.nio.ch.NioSocketImpl.implRead(java.base@17.0.15/NioSocketImpl.java:317)
	at sun.nio.ch.NioSocketImpl.read(java.base@17.0.15/NioSocketImpl.java:355)
	at sun.nio.ch.NioSocketImpl$1.read(java.base@17.0.15/NioSocketImpl.java:808)
	at java.net.Socket$SocketInputStream.read(java.base@17.0.15/Socket.java:966)
	at com.example.gen.Poller.poll(Poller.java:55)
	at com.example.gen.Poller.run(Poller.java:30)
	at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)

`

// goNetRead are the frames of a network read, under the caller's.
const goNetRead = `internal/poll.runtime_pollWait(0x7efd48e7d800, 0x72)
	/usr/local/go/src/runtime/netpoll.go:351 +0x85
internal/poll.(*pollDesc).wait(0xff747566080?, 0xff747573000?, 0x0)
	/usr/local/go/src/internal/poll/fd_poll_runtime.go:84 +0x27
internal/poll.(*pollDesc).waitRead(...)
	/usr/local/go/src/internal/poll/fd_poll_runtime.go:89
internal/poll.(*FD).Read(0xff747566080, {0xff747573000, 0x1000, 0x1000})
	/usr/local/go/src/internal/poll/fd_unix.go:165 +0x2ae
net.(*netFD).Read(0xff747566080, {0xff747573000?, 0xff7475700ab?, 0x1?})
	/usr/local/go/src/net/fd_posix.go:68 +0x25
net.(*conn).Read(0xff7474f0040, {0xff747573000?, 0x7?, 0xff7475020b8?})
	/usr/local/go/src/net/net.go:196 +0x45
`

// goWaiter takes a slot of the channel at main.handle:25.
const goWaiter = `goroutine %d [chan send]:
main.handle(0x1)
	/src/main.go:25 +0x4a
created by main.serve in goroutine 1
	/src/main.go:60 +0x2c

`

// goHolder is past it: main.handle:29 → main.fetch in a network read.
const goHolder = `goroutine %d [IO wait]:
` + goNetRead + `main.fetch(0x1)
	/src/main.go:44 +0x1e
main.handle(0x1)
	/src/main.go:29 +0x77
created by main.serve in goroutine 1
	/src/main.go:60 +0x2c

`

// goBefore is in main.handle before the send (main.handle:22 → main.parse
// in a sleep): not a holder.
const goBefore = `goroutine %d [sleep]:
time.Sleep(0x3b9aca00)
	/usr/local/go/src/runtime/time.go:363 +0x165
main.parse(0x1)
	/src/main.go:15 +0x1e
main.handle(0x1)
	/src/main.go:22 +0x2e
created by main.serve in goroutine 1
	/src/main.go:60 +0x2c

`

// goOther is other work in a network read.
const goOther = `goroutine %d [IO wait]:
` + goNetRead + `main.poll()
	/src/main.go:75 +0x1e
created by main.main in goroutine 1
	/src/main.go:88 +0x2c

`

// goIdle waits for work in a plain receive.
const goIdle = `goroutine %d [chan receive]:
main.worker(0xc000010000)
	/src/main.go:52 +0x2e
created by main.main in goroutine 1
	/src/main.go:87 +0x2c

`
