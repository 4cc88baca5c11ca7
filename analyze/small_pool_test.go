package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// jstackPool writes one jstack -l moment of a pool "work-1".."work-N":
// the first k in a socket read that never returns (inside a pool's task
// when task, else in a loop of their own thread), the rest idle in the
// pool's getTask.
func jstackPool(n, k int, task bool) string {
	var b strings.Builder
	b.WriteString("2026-12-06 08:00:00\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "\"work-%d\" #%d prio=5 os_prio=0 cpu=1.00ms elapsed=60.00s tid=0x00007f00000%04x nid=0x%x ", i, 20+i, i, 100+i)
		if i <= k {
			b.WriteString("runnable  [0x00007f0000000000]\n   java.lang.Thread.State: RUNNABLE\n" +
				"\tat sun.nio.ch.SocketDispatcher.read0(java.base@17.0.15/Native Method)\n" +
				"\tat sun.nio.ch.NioSocketImpl.implRead(java.base@17.0.15/NioSocketImpl.java:322)\n" +
				"\tat com.example.Client.fetch(Client.java:10)\n")
			if task {
				b.WriteString("\tat com.example.App.lambda$main$0(App.java:20)\n" +
					"\tat java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1136)\n" +
					"\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)\n")
			} else {
				b.WriteString("\tat com.example.Client.readLoop(Client.java:30)\n")
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

// TestSmallPoolThresholds: over pools of every size from 1 to 12 with every
// count of held threads, the same threads held at three moments are stuck
// when they are StuckShare of their pool and at least StuckTaskFloor
// inside a pool's task, or StuckMin in a loop of their own; the pool is
// saturated when every thread is held in a task (from SaturatedTaskFloor)
// or, from SaturatedMin threads, whatever they run. With every thread held
// the dumps' whole process waits, and the pool is stuck at any size.
func TestSmallPoolThresholds(t *testing.T) {
	for _, task := range []bool{true, false} {
		for n := 1; n <= 12; n++ {
			for k := 1; k <= n; k++ {
				var in []Input
				for m := range 3 {
					ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(jstackPool(n, k, task)))
					if err != nil {
						t.Fatal(err)
					}
					in = append(in, Input{Dump: ds[0]})
				}
				min := StuckMin
				if task {
					min = StuckTaskFloor
				}
				// Or every thread held: these dumps hold no other application
				// thread, so the process does nothing but wait (heldWaits).
				wantStuck := k >= min && float64(k) >= StuckShare*float64(n) || k == n
				wantSaturated := k == n && (task && n >= SaturatedTaskFloor || n >= SaturatedMin)
				var stuck, saturated bool
				for _, f := range Analyze(in, Options{}).Findings {
					switch {
					case f.Kind == KindStuck && f.Pool == "work-*":
						stuck = true
					case f.Kind == KindSaturated && f.Pool == "work-*":
						saturated = true
					default:
						t.Errorf("task %v, %d of %d: unexpected %s %s %s", task, k, n, f.Kind, f.Pool, f.State)
					}
				}
				if stuck != wantStuck || saturated != wantSaturated {
					t.Errorf("task %v, %d of %d held: stuck %v saturated %v, want %v %v", task, k, n, stuck, saturated, wantStuck, wantSaturated)
				}
			}
		}
	}
}

// TestSmallPoolFullOnce: a small pool (under SaturatedMin) whose tasks are
// all held at some moments and not at others is saturated only when it is
// full at the last moment: full at one instant and with room again after is
// a pool keeping up. Every sequence of held counts over three moments, for
// pools of 2, 4 and 8 (the same threads hold, work-1 first).
func TestSmallPoolFullOnce(t *testing.T) {
	for _, n := range []int{2, 4, 8} {
		for k1 := 0; k1 <= n; k1++ {
			for k2 := 0; k2 <= n; k2++ {
				for k3 := 0; k3 <= n; k3++ {
					var in []Input
					for m, k := range []int{k1, k2, k3} {
						ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(jstackPool(n, k, true)))
						if err != nil {
							t.Fatal(err)
						}
						in = append(in, Input{Dump: ds[0]})
					}
					for _, f := range Analyze(in, Options{}).Findings {
						if f.Kind == KindSaturated && k3 != n {
							t.Errorf("pool of %d held %d → %d → %d: saturated (%s), though it has room at the last moment", n, k1, k2, k3, f.Severity)
						}
					}
				}
			}
		}
	}
}
