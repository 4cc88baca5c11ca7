package analyze

import (
	"math/rand/v2"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestQueuedWriterProperty: among generated waiters of one lock (readers,
// writers and others, ReentrantReadWriteLock's or StampedLock's frames,
// in any order), queuedWriter names the first writer and counts the
// writers exactly when a reader and a writer of the same kind wait
// together; readers alone, writers alone or a ReentrantLock name no one.
func TestQueuedWriterProperty(t *testing.T) {
	kinds := []struct{ write, read string }{
		{"java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock.lock", "java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock.lock"},
		{"java.util.concurrent.locks.StampedLock.writeLock", "java.util.concurrent.locks.StampedLock.readLock"},
	}
	waiter := func(fn string) *parse.Thread {
		return &parse.Thread{Frames: []*parse.Frame{
			{Func: "jdk.internal.misc.Unsafe.park"}, {Func: "java.util.concurrent.locks.LockSupport.park"},
			{Func: "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire"}, {Func: fn}, {Func: "com.example.App.run"}}}
	}
	rng := rand.New(rand.NewPCG(33, 2))
	for i := range 400 {
		k := kinds[rng.IntN(len(kinds))]
		var ws []*parse.Thread
		var first *parse.Thread
		writers, readers := 0, 0
		for range 1 + rng.IntN(8) {
			switch rng.IntN(3) {
			case 0:
				ws = append(ws, waiter(k.write))
				if first == nil {
					first = ws[len(ws)-1]
				}
				writers++
			case 1:
				ws = append(ws, waiter(k.read))
				readers++
			default:
				ws = append(ws, waiter("java.util.concurrent.locks.ReentrantLock.lock"))
			}
		}
		got, n := queuedWriter(ws)
		if writers == 0 || readers == 0 {
			first, writers = nil, 0
		}
		if got != first || n != writers {
			t.Fatalf("case %d (%d writers, %d readers of %s): got %p and %d, want %p and %d", i, writers, readers, k.write, got, n, first, writers)
		}
	}
}

// TestLikelyReaderProperty: in generated dumps, waiters whose first
// application frame is a method of one class, and 0 to 3 other threads
// that run some method of that class (at any depth) beside threads that
// run other classes only, likelyReader names the one such thread, and
// no one when there are none or several.
func TestLikelyReaderProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 3))
	park := []*parse.Frame{{Func: "jdk.internal.misc.Unsafe.park"}, {Func: "java.util.concurrent.locks.LockSupport.park"},
		{Func: "java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock.lock"}}
	for i := range 300 {
		class := "com.example.Store" + string(rune('A'+rng.IntN(26)))
		d := &parse.Dump{}
		var ws []*parse.Thread
		for range 1 + rng.IntN(6) {
			fs := append(append([]*parse.Frame(nil), park...), &parse.Frame{Func: class + ".read"}, &parse.Frame{Func: "com.example.App.run"})
			w := &parse.Thread{Frames: fs}
			ws = append(ws, w)
			d.Threads = append(d.Threads, w)
		}
		readers := rng.IntN(4)
		var want *parse.Thread
		for k := range readers {
			// Deeper and deeper below its own work: a socket read, a sleep.
			fs := []*parse.Frame{{Func: "sun.nio.ch.SocketDispatcher.read0"}}
			for range k {
				fs = append(fs, &parse.Frame{Func: "com.example.Util.step"})
			}
			fs = append(fs, &parse.Frame{Func: class + ".refresh"}, &parse.Frame{Func: "java.lang.Thread.run"})
			th := &parse.Thread{Frames: fs}
			d.Threads = append(d.Threads, th)
			want = th
		}
		for range rng.IntN(5) {
			d.Threads = append(d.Threads, &parse.Thread{Frames: []*parse.Frame{{Func: "java.lang.Thread.sleep"}, {Func: "com.example.Other.loop"}}})
		}
		rng.Shuffle(len(d.Threads), func(a, b int) { d.Threads[a], d.Threads[b] = d.Threads[b], d.Threads[a] })
		if readers != 1 {
			want = nil
		}
		if got := likelyReader(d, ws); got != want {
			t.Fatalf("case %d: %d threads run %s past its lock: got %p, want %p", i, readers, class, got, want)
		}
	}
}
