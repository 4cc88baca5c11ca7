package analyze

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// ownableSections are jstack -l's "Locked ownable synchronizers:" blocks
// (the heading and its "- <0x…> (a …)" or "- None" lines): what JDK 8's
// plain jstack and kill -3 do not print, so a java.util.concurrent lock's
// waiters are printed and its owner is not.
var ownableSections = regexp.MustCompile(`(?m)^\s+Locked ownable synchronizers:\n(\t- .*\n)*`)

// loadAsJDK8 parses dir's moments as JDK 8's plain jstack prints them:
// no cpu=, no elapsed=, no ownable synchronizers.
func loadAsJDK8(t *testing.T, dir string, moments []string) []Input {
	t.Helper()
	return loadRewritten(t, dir, moments, func(_ int, s string) string {
		return ownableSections.ReplaceAllString(cpuFields.ReplaceAllString(s, ""), "")
	})
}

// TestSpinningFramesAlone (issue 33, "spinning by frames alone where no
// cpu= is printed"): real programs run here (JDK 17 and Temurin 25, see
// each fixture's README, written from the source before dumpdiff ran),
// their dumps cut to what JDK 8's plain jstack prints. A thread in the
// same application frames at every moment over SpinMinWall while others
// wait for it is spinning on the frames alone (same-frames-awaited, the
// weaker evidence): the parsers a job waits on through their futures or a
// latch, a regex a request waits on, and a ReentrantLock's holder whose
// ownership the dump does not print (inferred: the one thread of the dump
// running the same frames; its 6 readers follow from it). The controls:
// the same programs healthy, loops nobody waits for (busy work on the
// frames alone is not a finding), and two dumps 5 s apart.
func TestSpinningFramesAlone(t *testing.T) {
	verdicts := filepath.Join("..", "testdata", "verdicts")
	all, two := []string{"1", "2", "3"}, []string{"1", "2"}
	for _, c := range []struct {
		dir     string
		moments []string
		pool    string // "" for no spinning finding
		basis   string
		owner   string // the lock's owner, inferred; "" for none
		follows string // a pool whose stuck finding follows from the spinning
	}{
		{"holder-spin-stuck", all, "index-rebuilder", "same-frames-awaited", "index-rebuilder", "index-reader-*"},
		{"jvm-spin-parser", two, "parser-*", "same-frames-awaited", "", ""},
		{"jdk25-spin-parser", two, "parser-*", "same-frames-awaited", "", ""},
		{"jvm-spin-latch", two, "parser-*", "same-frames-awaited", "", ""},
		{"jvm-spin-regex", two, "validator-*", "same-frames-awaited", "", ""},
		// The monitor's holder: ownership of a monitor is printed by
		// every JDK ("- locked"), the stronger frames-alone basis.
		{"jvm-spin-monitor", two, "registry-sync", "same-frames-holder", "", ""},
		// Controls.
		{"holder-spin-stuck", []string{"2", "3"}, "", "", "", ""},
		{"holder-spin-healthy", all, "", "", "", ""},
		{"jvm-spin-deep", all, "", "", "", ""},
		{"jvm-spin-sleep0", all, "", "", "", ""},
		{"jvm-spin-resubmit", all, "", "", "", ""},
		{"jvm-busy-batch", two, "", "", "", ""},
		{"jvm-busy-eventloop", two, "", "", "", ""},
		{"jvm-rest-edges", all, "", "", "", ""},
		{"jdk25-rest-edges", all, "", "", "", ""},
		{"jvm-idle", all, "", "", "", ""},
		{"holder-db-stuck", all, "", "", "", ""},
		{"small-pool-healthy", all, "", "", "", ""},
	} {
		t.Run(c.dir+"/"+strings.Join(c.moments, ","), func(t *testing.T) {
			r := Analyze(loadAsJDK8(t, filepath.Join(verdicts, c.dir), c.moments), Options{})
			var spin *Finding
			for i, f := range r.Findings {
				if f.Kind == KindSpinning {
					if spin != nil || c.pool == "" {
						t.Fatalf("unexpected spinning %s (%s)", f.Pool, f.Basis)
					}
					spin = &r.Findings[i]
				}
			}
			if c.pool == "" {
				return
			}
			if spin == nil {
				t.Fatalf("no spinning finding; findings %v", kindsOf(r.Findings))
			}
			eq(t, "pool", spin.Pool, c.pool)
			eq(t, "basis", spin.Basis, c.basis)
			eq(t, "severity", spin.Severity, Critical)
			if spin.Waiting == 0 {
				t.Error("nobody waits for it")
			}
			if c.owner != "" {
				if spin.Lock == nil || spin.Lock.Owner == nil {
					t.Fatal("no lock")
				}
				eq(t, "owner", spin.Lock.Owner.Name, c.owner)
				eq(t, "owner inferred", spin.Lock.OwnerInferred, true)
			}
			if c.follows != "" {
				found := false
				for _, f := range r.Findings {
					if f.Pool == c.follows && f.Kind == KindStuck {
						found = true
						eq(t, "stuck caused by", f.CausedBy, spin.ID)
					}
				}
				eq(t, "stuck "+c.follows, found, true)
			}
		})
	}
}

// jdk8Moment writes one JDK 8 jstack dump (no cpu=, no ownable
// synchronizers) of a thread "loop-1" RUNNABLE in com.example.Loop.run
// under depth library frames (other ones at each moment) topped by top,
// a rival computing elsewhere if asked, and waiters of the given kind.
func jdk8Moment(at time.Time, m int, top string, depth int, waiters string, nWaiters int, rival bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nFull thread dump Java HotSpot(TM) 64-Bit Server VM (25.202-b08 mixed mode):\n\n", at.Format("2006-01-02 15:04:05"))
	if top == "sleep" {
		b.WriteString("\"loop-1\" #12 prio=5 os_prio=0 tid=0x00007f0000001000 nid=0x100 waiting on condition [0x00007f0000000000]\n" +
			"   java.lang.Thread.State: TIMED_WAITING (sleeping)\n\tat java.lang.Thread.sleep(Native Method)\n")
	} else {
		b.WriteString("\"loop-1\" #12 prio=5 os_prio=0 tid=0x00007f0000001000 nid=0x100 runnable [0x00007f0000000000]\n" +
			"   java.lang.Thread.State: RUNNABLE\n")
	}
	switch top {
	case "cas":
		b.WriteString("\tat sun.misc.Unsafe.compareAndSwapLong(Native Method)\n" +
			"\tat java.util.concurrent.atomic.AtomicLong.compareAndSet(AtomicLong.java:147)\n")
	case "clock":
		b.WriteString("\tat java.lang.System.nanoTime(Native Method)\n")
	case "socket":
		b.WriteString("\tat java.net.SocketInputStream.socketRead0(Native Method)\n" +
			"\tat java.net.SocketInputStream.socketRead(SocketInputStream.java:116)\n" +
			"\tat java.net.SocketInputStream.read(SocketInputStream.java:171)\n")
	case "process":
		b.WriteString("\tat java.lang.UNIXProcess.waitForProcessExit(Native Method)\n" +
			"\tat java.lang.UNIXProcess.lambda$initStreams$3(UNIXProcess.java:289)\n")
	}
	for i := range depth {
		fmt.Fprintf(&b, "\tat org.apache.commons.gen.M%dF%d.match(M%dF%d.java:%d)\n", m, depth-i, m, depth-i, 10+i)
	}
	fmt.Fprintf(&b, "\tat com.example.Loop.rebuild(Loop.java:%d)\n", 40+m)
	if waiters == "monitor" {
		b.WriteString("\t- locked <0x00000000e0000010> (a com.example.Index)\n")
	}
	b.WriteString("\tat com.example.Loop.run(Loop.java:20)\n\tat java.lang.Thread.run(Thread.java:748)\n\n")
	if rival {
		fmt.Fprintf(&b, "\"batch-1\" #13 prio=5 os_prio=0 tid=0x00007f0000002000 nid=0x101 runnable [0x00007f0000000000]\n"+
			"   java.lang.Thread.State: RUNNABLE\n\tat com.example.Batch.sum(Batch.java:%d)\n\tat com.example.Batch.run(Batch.java:9)\n"+
			"\tat java.lang.Thread.run(Thread.java:748)\n\n", 30+m)
	}
	for i := range nWaiters {
		fmt.Fprintf(&b, "\"reader-%d\" #%d prio=5 os_prio=0 tid=0x00007f00000%02x000 nid=0x%x ", i+1, 20+i, 0x10+i, 0x200+i)
		switch waiters {
		case "monitor":
			b.WriteString("waiting for monitor entry [0x00007f0000000000]\n   java.lang.Thread.State: BLOCKED (on object monitor)\n" +
				"\tat com.example.Reader.read(Reader.java:12)\n\t- waiting to lock <0x00000000e0000010> (a com.example.Index)\n")
		case "unowned":
			b.WriteString("waiting on condition [0x00007f0000000000]\n   java.lang.Thread.State: WAITING (parking)\n" +
				"\tat sun.misc.Unsafe.park(Native Method)\n" +
				"\t- parking to wait for  <0x00000000e0000020> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)\n" +
				"\tat java.util.concurrent.locks.LockSupport.park(LockSupport.java:175)\n" +
				"\tat java.util.concurrent.locks.AbstractQueuedSynchronizer.parkAndCheckInterrupt(AbstractQueuedSynchronizer.java:836)\n" +
				"\tat java.util.concurrent.locks.AbstractQueuedSynchronizer.acquireQueued(AbstractQueuedSynchronizer.java:870)\n" +
				"\tat java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire(AbstractQueuedSynchronizer.java:1199)\n" +
				"\tat java.util.concurrent.locks.ReentrantLock$NonfairSync.lock(ReentrantLock.java:209)\n" +
				"\tat java.util.concurrent.locks.ReentrantLock.lock(ReentrantLock.java:285)\n" +
				"\tat com.example.Reader.read(Reader.java:12)\n")
		}
		b.WriteString("\tat com.example.Reader.run(Reader.java:5)\n\tat java.lang.Thread.run(Thread.java:748)\n\n")
	}
	return b.String()
}

// TestSpinningFramesAloneProperty: over generated JDK 8 dumps (no cpu=,
// no ownable synchronizers), a thread in the same application frames at
// three dumps on a 5 s schedule (each up to 1 s early or late), under
// 0–30 library frames that differ at each moment, topped by Java code or
// a native that returns at once (a CAS, a clock), is spinning exactly
// when others wait for it: blocked on a monitor it prints as locked, or
// parked on a java.util.concurrent lock no thread prints as held, when it
// is the one thread running the same frames (then the owner is inferred).
// It is not when nobody waits, when a native call that blocks in the
// kernel tops it (a socket read, a child process) or it sleeps (then a
// rival computing elsewhere is not taken for the lock's owner either:
// the sleeper or the reader may hold it), when the dumps are
// two 5 s apart (under SpinMinWall), or when a second thread computes as
// well and the lock's owner cannot be told.
func TestSpinningFramesAloneProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 8))
	base := time.Date(2026, 12, 6, 18, 0, 0, 0, time.UTC)
	for i := range 400 {
		top := []string{"java", "cas", "clock", "socket", "process", "sleep"}[rng.IntN(6)]
		waiters := []string{"none", "monitor", "unowned"}[rng.IntN(3)]
		nWaiters := 1 + rng.IntN(6)
		if waiters == "none" {
			nWaiters = 0
		}
		depth := rng.IntN(31)
		rival := rng.IntN(3) == 0
		moments := []int{0, 1, 2}
		if rng.IntN(4) == 0 {
			moments = moments[1:]
		}
		var in []Input
		for _, m := range moments {
			at := base.Add(time.Duration(m)*5*time.Second + time.Duration((rng.Float64()*2-1)*float64(time.Second)))
			text := jdk8Moment(at, m, top, depth, waiters, nWaiters, rival)
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		blocking := top == "socket" || top == "process" || top == "sleep"
		want := !blocking && len(moments) == 3 && (waiters == "monitor" || waiters == "unowned" && !rival)
		var spins []Finding
		for _, f := range Analyze(in, Options{}).Findings {
			if f.Kind == KindSpinning {
				spins = append(spins, f)
			}
		}
		desc := fmt.Sprintf("case %d (top %s, depth %d, waiters %s ×%d, rival %v, %d dumps)", i, top, depth, waiters, nWaiters, rival, len(moments))
		if !want {
			if len(spins) > 0 {
				t.Errorf("%s: spinning %s (%s), want none", desc, spins[0].Pool, spins[0].Basis)
			}
			continue
		}
		if len(spins) != 1 || spins[0].Pool != "loop-*" {
			t.Errorf("%s: spinning %v, want loop-*", desc, kindsOf(spins))
			continue
		}
		f := spins[0]
		if f.Severity != Critical || f.Waiting != nWaiters {
			t.Errorf("%s: severity %v, %d waiting, want critical, %d", desc, f.Severity, f.Waiting, nWaiters)
		}
		if f.Lock == nil || f.Lock.Owner == nil || f.Lock.Owner.Name != "loop-1" || f.Lock.OwnerInferred != (waiters == "unowned") {
			t.Errorf("%s: lock %+v, want loop-1's, inferred %v", desc, f.Lock, waiters == "unowned")
		}
	}
}
