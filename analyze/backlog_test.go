package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// backlogMoment writes one jstack moment of a bounded queue's two sides
// (frames of testdata/verdicts/backlog-busy, JDK 17.0.15): producers
// parked in LinkedBlockingQueue.put, consumers either hashing
// (Digester.digest, cpu= rising by 400 ms a moment) or waiting in take
// (taking[i]); beside them a thread RUNNABLE in the same application frame
// at every moment with its cpu= flat (a native wait that reads as
// running: not a busy consumer) and one whose culprit moves (busy, but
// not in the same frames).
func backlogMoment(at time.Time, m, producers int, taking []bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n", at.Format("2006-01-02 15:04:05"))
	head := func(name string, id int, cpu float64, state string) {
		fmt.Fprintf(&b, "\"%s\" #%d prio=5 os_prio=0 cpu=%.2fms elapsed=%d.00s tid=0x00007f00000%04x nid=0x%x %s\n", name, id, cpu, 30+5*m, id, id, state)
	}
	for i := 1; i <= producers; i++ {
		head(fmt.Sprintf("producer-%d", i), 20+i, 10, "waiting on condition  [0x00007f0000000000]\n   java.lang.Thread.State: WAITING (parking)")
		b.WriteString("\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
			"\t- parking to wait for  <0x00000000fd591ec8> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)\n" +
			"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)\n" +
			"\tat java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(java.base@17.0.15/AbstractQueuedSynchronizer.java:1630)\n" +
			"\tat java.util.concurrent.LinkedBlockingQueue.put(java.base@17.0.15/LinkedBlockingQueue.java:343)\n" +
			"\tat com.example.Producer.run(Producer.java:50)\n\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n")
	}
	for i, take := range taking {
		if take {
			head(fmt.Sprintf("digester-%d", i+1), 10+i, float64(1000+400*m), "waiting on condition  [0x00007f0000000000]\n   java.lang.Thread.State: WAITING (parking)")
			b.WriteString("\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
				"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)\n" +
				"\tat java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(java.base@17.0.15/AbstractQueuedSynchronizer.java:1630)\n" +
				"\tat java.util.concurrent.LinkedBlockingQueue.take(java.base@17.0.15/LinkedBlockingQueue.java:435)\n" +
				"\tat com.example.Digester.run(Digester.java:73)\n\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n")
			continue
		}
		head(fmt.Sprintf("digester-%d", i+1), 10+i, float64(1000+400*m), "runnable  [0x00007f0000000000]\n   java.lang.Thread.State: RUNNABLE")
		b.WriteString("\tat com.example.Digester.digest(Digester.java:90)\n\tat com.example.Digester.run(Digester.java:80)\n" +
			"\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n")
	}
	head("native-poller", 40, 3, "runnable  [0x00007f0000000000]\n   java.lang.Thread.State: RUNNABLE")
	b.WriteString("\tat com.example.Native.poll(Native Method)\n\tat com.example.Native.loop(Native.java:12)\n\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n")
	head("batch-runner", 41, float64(500+300*m), "runnable  [0x00007f0000000000]\n   java.lang.Thread.State: RUNNABLE")
	fmt.Fprintf(&b, "\tat com.example.Batch.step%d(Batch.java:%d)\n\tat com.example.Batch.run(Batch.java:9)\n\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n", m, 20+m)
	return b.String()
}

// TestBacklogConsumersProperty: 300 generated sets of 2 to 4 moments, 5 s
// apart, of 1 to 8 producers parked in a full queue's put at every moment
// and 1 to 3 consumers, each caught in take at random moments (or never).
// The producers are stuck from StuckTaskFloor (back-pressure, not a rest
// of their loop). When no consumer is caught taking at any moment, the
// finding names exactly the consumers as its likely ones (BusyInferred):
// they run the same application frames at every moment with their CPU
// growing; the thread whose CPU stays flat and the one whose frames move
// are never named. When one is caught taking at another moment, it is
// named as seen taking (not inferred).
func TestBacklogConsumersProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 2))
	base := time.Date(2026, 12, 7, 2, 0, 0, 0, time.UTC)
	var inferred, seen, none int
	for c := range 300 {
		n := 2 + rng.IntN(3)
		producers := 1 + rng.IntN(8)
		consumers := 1 + rng.IntN(3)
		never := rng.IntN(2) == 0
		taking := make([][]bool, n)
		caught := false
		for m := range n {
			taking[m] = make([]bool, consumers)
			for i := range consumers {
				taking[m][i] = !never && rng.IntN(3) == 0
				caught = caught || taking[m][i]
			}
		}
		var in []Input
		for m := range n {
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(backlogMoment(base.Add(time.Duration(m)*5*time.Second), m, producers, taking[m])))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		var f *Finding
		for i := range r.Findings {
			if r.Findings[i].Pool == "producer-*" || r.Findings[i].Pool == "producer-1" {
				f = &r.Findings[i]
			}
		}
		name := fmt.Sprintf("case %d: %d moments, %d producers, %d consumers, taking %v", c, n, producers, consumers, taking)
		if (f != nil) != (producers >= StuckTaskFloor) {
			t.Errorf("%s: producers' finding %v, want one from %d", name, f != nil, StuckTaskFloor)
			continue
		}
		if f == nil {
			none++
			continue
		}
		if f.BusyInferred {
			inferred++
		} else if len(f.Busy) > 0 {
			seen++
		}
		named := 0
		for _, g := range f.Busy {
			if g.Pool == "native-poller" || g.Pool == "batch-runner" {
				t.Errorf("%s: %s named a consumer", name, g.Pool)
			}
			named += g.Count
		}
		last := n - 1
		busyAtLast := 0
		for _, tk := range taking[last] {
			if !tk {
				busyAtLast++
			}
		}
		switch {
		case !caught:
			if !f.BusyInferred || named != consumers {
				t.Errorf("%s: inferred %v, %d named, want the %d consumers inferred (%+v)", name, f.BusyInferred, named, consumers, f.Busy)
			}
		case f.BusyInferred:
			t.Errorf("%s: inferred although a consumer was caught taking", name)
		}
		if caught && len(f.Consumers) == 0 && f.OtherTakers == 0 && named > busyAtLast {
			t.Errorf("%s: %d named, only %d busy at the last moment", name, named, busyAtLast)
		}
	}
	t.Logf("inferred %d, seen taking %d, no producers' finding %d", inferred, seen, none)
	if inferred == 0 || seen == 0 || none == 0 {
		t.Errorf("a path was never taken: inferred %d, seen %d, none %d", inferred, seen, none)
	}
}
