package analyze

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestPeersGathered (issue 33, "a latch or barrier waits for peers"):
// threads of their own that wait at every moment, untimed, at a latch, a
// barrier or a phaser are stuck from StuckTaskFloor: a gathering whose
// peers never come. Real programs run here (testdata/verdicts/peers-* and
// QueueApp's report threads in queue-busy-stuck, each README written from
// the source before dumpdiff ran): the latch nobody counts down, the
// barrier and the phaser missing a party; the lone Exchanger, main on its
// shutdown latch and the pollers' timed stop-latch checks stay quiet, and
// so does the control where every party comes.
func TestPeersGathered(t *testing.T) {
	latch := func(pool, culprit string, n int) want {
		return want{KindStuck, pool, "latch-wait", func(t *testing.T, f Finding) {
			eq(t, "severity", f.Severity, Critical)
			eq(t, "same threads", f.Same, n)
			eq(t, "culprit", strings.HasPrefix(f.Culprit, culprit), true)
		}}
	}
	peers := []want{
		latch("report-*", "com.example.peers.Reports.render", 3),
		latch("stage-*", "com.example.peers.Pipeline.stage", 3),
		latch("merge-*", "com.example.peers.Merger.merge", 2),
	}
	all := []string{"1", "2", "3"}
	runFixtureCases(t, filepath.Join("..", "testdata", "verdicts"), []fixtureCase{
		{"peers-stuck", all, peers},
		{"jdk25-peers-stuck", all, peers},
		{"peers-stuck", []string{"2", "3"}, peers},
		{"peers-healthy", all, nil},
		{"queue-busy-healthy", all, nil},
	})
}

// peersMoment writes one jstack dump of n threads "gate-1".."gate-n"
// waiting at a gathering of the given kind (timed or not), and main on its
// shutdown latch; at moment m the waiters are gate-(m*shift+1).. (shift 0:
// the same threads at every moment).
func peersMoment(at time.Time, m int, kind string, timed bool, n, shift int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n", at.Format("2006-01-02 15:04:05"))
	state, await := "WAITING (parking)", "await"
	if timed {
		state = "TIMED_WAITING (parking)"
	}
	for i := range n {
		id := m*shift + i + 1
		fmt.Fprintf(&b, "\"gate-%d\" #%d prio=5 os_prio=0 cpu=0.20ms elapsed=%d.00s tid=0x00007f00000%03x00 nid=0x%x waiting on condition  [0x00007f0000000000]\n   java.lang.Thread.State: %s\n",
			id, 20+id, 30+5*m, id, 0x300+id, state)
		b.WriteString("\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n")
		switch kind {
		case "latch":
			b.WriteString("\t- parking to wait for  <0x00000000fc126758> (a java.util.concurrent.CountDownLatch$Sync)\n" +
				"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)\n" +
				"\tat java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire(java.base@17.0.15/AbstractQueuedSynchronizer.java:715)\n" +
				"\tat java.util.concurrent.locks.AbstractQueuedSynchronizer.acquireSharedInterruptibly(java.base@17.0.15/AbstractQueuedSynchronizer.java:1047)\n")
			fmt.Fprintf(&b, "\tat java.util.concurrent.CountDownLatch.%s(java.base@17.0.15/CountDownLatch.java:230)\n", await)
		case "barrier":
			b.WriteString("\t- parking to wait for  <0x00000000fc12c4a8> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)\n" +
				"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)\n" +
				"\tat java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(java.base@17.0.15/AbstractQueuedSynchronizer.java:1630)\n" +
				"\tat java.util.concurrent.CyclicBarrier.dowait(java.base@17.0.15/CyclicBarrier.java:244)\n" +
				"\tat java.util.concurrent.CyclicBarrier.await(java.base@17.0.15/CyclicBarrier.java:364)\n")
		case "phaser":
			fmt.Fprintf(&b, "\t- parking to wait for  <0x00000000fc5%05x> (a java.util.concurrent.Phaser$QNode)\n", id)
			b.WriteString("\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)\n" +
				"\tat java.util.concurrent.Phaser$QNode.block(java.base@17.0.15/Phaser.java:1133)\n" +
				"\tat java.util.concurrent.Phaser.internalAwaitAdvance(java.base@17.0.15/Phaser.java:1063)\n" +
				"\tat java.util.concurrent.Phaser.arriveAndAwaitAdvance(java.base@17.0.15/Phaser.java:710)\n")
		}
		b.WriteString("\tat com.example.Gate.pass(Gate.java:12)\n\tat com.example.Gate.run(Gate.java:5)\n" +
			"\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n")
	}
	b.WriteString("\"main\" #1 prio=5 os_prio=0 cpu=40.00ms elapsed=60.00s tid=0x00007f0000009000 nid=0x200 waiting on condition  [0x00007f0000000000]\n" +
		"   java.lang.Thread.State: WAITING (parking)\n\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
		"\t- parking to wait for  <0x00000000fc000010> (a java.util.concurrent.CountDownLatch$Sync)\n" +
		"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)\n" +
		"\tat java.util.concurrent.CountDownLatch.await(java.base@17.0.15/CountDownLatch.java:230)\n" +
		"\tat com.example.Main.main(Main.java:30)\n\n")
	return b.String()
}

// TestPeersGatheredProperty: over generated dumps, n threads of their own
// at a CountDownLatch, a CyclicBarrier or a Phaser are stuck exactly when
// they are at least StuckTaskFloor, wait untimed, and are the same
// threads at every moment; one waiter (main's shutdown latch is in every
// dump), timed waits (a latch as an interruptible sleep), or other
// threads at each moment (a gathering that opens and fills again) are
// not.
func TestPeersGatheredProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 9))
	base := time.Date(2026, 12, 6, 18, 0, 0, 0, time.UTC)
	for i := range 300 {
		kind := []string{"latch", "barrier", "phaser"}[rng.IntN(3)]
		timed := rng.IntN(3) == 0
		n := 1 + rng.IntN(6)
		shift := 0
		if rng.IntN(3) == 0 {
			shift = n // other threads at each moment
		}
		moments := 2 + rng.IntN(2)
		var in []Input
		for m := range moments {
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(peersMoment(base.Add(time.Duration(m)*5*time.Second), m, kind, timed, n, shift)))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		want := !timed && n >= StuckTaskFloor && shift == 0
		var got []string
		for _, f := range Analyze(in, Options{}).Findings {
			got = append(got, f.Kind+" "+f.Pool)
		}
		stuck := len(got) == 1 && got[0] == KindStuck+" gate-*"
		if stuck != want || !want && len(got) > 0 {
			t.Errorf("case %d (%s, timed %v, %d threads, shift %d, %d moments): findings %v, want stuck %v", i, kind, timed, n, shift, moments, got, want)
		}
	}
}
