package analyze

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestServedWaitProperty: a semaphore simulated over generated moments.
// Waiters queue for k permits; between two moments each holder either
// finishes (releases, ends; the next waiter takes its permit) or hangs
// (stays where it is), and some waiters may give up (time out, leave).
// The wait is served exactly when every holder at every moment before the
// last finished before the next: the holders rotate. Hung holders (a
// frozen throttle) with waiters timing out, or no holder seen, are not.
func TestServedWaitProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 2))
	workG := &Group{State: "work"}
	for c := 0; c < 5000; c++ {
		n := 2 + r.IntN(4)
		k := 1 + r.IntN(4)
		next := 0
		newID := func() threadID { next++; return threadID{s: fmt.Sprint("job-", next)} }
		var queue []threadID
		for range 5*k + r.IntN(50) + n*k {
			queue = append(queue, newID())
		}
		holders := make([]threadID, 0, k)
		for len(holders) < k {
			holders, queue = append(holders, queue[0]), queue[1:]
		}
		hidden := r.IntN(8) == 0 // the holders are in another pool: none seen
		wait := make([]map[threadID]bool, n)
		work := make([]map[threadID]*Group, n)
		want := !hidden
		for m := 0; m < n; m++ {
			wait[m], work[m] = map[threadID]bool{}, map[threadID]*Group{}
			for _, id := range queue {
				wait[m][id] = true
			}
			if !hidden {
				for _, id := range holders {
					work[m][id] = workG
				}
			}
			if m == n-1 {
				break
			}
			// Between m and m+1.
			var kept []threadID
			for _, h := range holders {
				if r.IntN(3) == 0 {
					kept = append(kept, h) // hangs: the same place at m+1
					want = false
				}
			}
			for len(kept) < k && len(queue) > 0 {
				kept, queue = append(kept, queue[0]), queue[1:]
			}
			holders = kept
			if r.IntN(4) == 0 && len(queue) > 1 {
				queue = queue[1:] // a waiter timed out and left
			}
		}
		if got := servedWait(wait, work); got != want {
			t.Fatalf("case %d (n %d, k %d, hidden %v): servedWait = %v, want %v", c, n, k, hidden, got, want)
		}
	}
}

// TestServedWaitFrozen: waiters that never leave are not served, however
// the pool's other threads move.
func TestServedWaitFrozen(t *testing.T) {
	g := &Group{}
	a, b, c, d := threadID{s: "a"}, threadID{s: "b"}, threadID{s: "c"}, threadID{s: "d"}
	wait := []map[threadID]bool{{a: true, d: true}, {a: true, d: true}, {a: true, d: true}}
	work := []map[threadID]*Group{{b: g}, {c: g}, {b: g}}
	if servedWait(wait, work) {
		t.Error("frozen waiters served")
	}
	wait[1] = map[threadID]bool{d: true}
	wait[2] = map[threadID]bool{}
	if !servedWait(wait, work) {
		t.Error("a waiter that got through while the holders rotated: not served")
	}
	if servedWait(wait[:1], work[:1]) {
		t.Error("one moment served")
	}
}

// TestLivelockProperty: one thread's stacks over generated moments 5 s
// apart. In a loop it never leaves (the same driver, its body's methods
// nested, a back-off frame at some moment, CPU growing) it is a livelock;
// a thread moving through its work (another method at a moment), one
// never seen backing off, one whose CPU did not grow at a step, one not
// RUNNABLE at a moment, or fewer than LivelockMoments moments, is not.
func TestLivelockProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 3))
	t0 := time.Date(2026, 12, 7, 4, 0, 0, 0, time.UTC)
	frame := func(fn string, line int) *parse.Frame {
		return &parse.Frame{Func: fn, File: "X.java", Line: line}
	}
	for c := 0; c < 5000; c++ {
		n := 2 + r.IntN(4)
		res := &Result{Runtime: parse.RuntimeJVM, Moments: make([]Moment, n)}
		s := make([]*parse.Thread, n)
		want := n >= LivelockMoments
		backed := false
		cpu := time.Duration(1+r.IntN(100)) * time.Millisecond
		for m := range n {
			res.Moments[m].Time = t0.Add(time.Duration(m)*5*time.Second + time.Duration(r.IntN(900))*time.Millisecond)
			var fs []*parse.Frame
			// The loop: Loop.attempt under Loop.run, at some line; backing
			// off in Thread.yield under Loop.backOff, or in a tryLock
			// right under attempt, or at attempt's own line.
			switch r.IntN(3) {
			case 0:
				fs = append(fs, frame("java.lang.Thread.yield", 0), frame("com.example.Loop.backOff", 40))
				backed = true
			case 1:
				fs = append(fs, frame("java.util.concurrent.locks.ReentrantLock$Sync.tryLock", 20), frame("java.util.concurrent.locks.ReentrantLock.tryLock", 10))
				backed = true
			}
			fs = append(fs, frame("com.example.Loop.attempt", 1+r.IntN(30)))
			if r.IntN(10) == 0 {
				// Moving through work: a method the loop calls at this
				// moment only, on top (hiding any back-off under it).
				fs = append([]*parse.Frame{frame("com.example.Work.render", 5)}, fs...)
				want = false
			}
			fs = append(fs, frame("com.example.Loop.run", 7), frame("java.lang.Thread.run", 840))
			th := &parse.Thread{State: "RUNNABLE", Frames: fs, JVM: &parse.JVM{Name: "t", NativeID: "0x1"}}
			if r.IntN(20) == 0 {
				th.State = "TIMED_WAITING"
				want = false
			}
			if m > 0 {
				wall := res.Moments[m].Time.Sub(res.Moments[m-1].Time)
				step := time.Duration(float64(wall) * LivelockCPUShare * (0.5 + 4*r.Float64()))
				if float64(step) < LivelockCPUShare*float64(wall) {
					want = false
				}
				cpu += step
			}
			th.JVM.CPU = cpu
			s[m] = th
		}
		if !backed {
			want = false
		}
		if _, got := livelockAt(res, s, backOffFrames); got != want {
			t.Fatalf("case %d: livelockAt = %v, want %v", c, got, want)
		}
	}
}
