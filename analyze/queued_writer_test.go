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
