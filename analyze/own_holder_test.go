package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// ownHolderMoment writes one jstack dump: the owner (by name) holds the
// Archive monitor while it sleeps, reads a socket or computes, and the
// named threads of their own are blocked on it.
func ownHolderMoment(at time.Time, owner, doing string, waiters []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n", at.Format("2006-01-02 15:04:05"))
	switch doing {
	case "sleep":
		fmt.Fprintf(&b, "\"%s\" #12 prio=5 os_prio=0 cpu=1.00ms elapsed=60.00s tid=0x00007f0000001000 nid=0x100 waiting on condition  [0x00007f0000000000]\n"+
			"   java.lang.Thread.State: TIMED_WAITING (sleeping)\n\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n", owner)
	case "socket":
		fmt.Fprintf(&b, "\"%s\" #12 prio=5 os_prio=0 cpu=1.00ms elapsed=60.00s tid=0x00007f0000001000 nid=0x100 runnable  [0x00007f0000000000]\n"+
			"   java.lang.Thread.State: RUNNABLE\n\tat sun.nio.ch.SocketDispatcher.read0(java.base@17.0.15/Native Method)\n"+
			"\tat sun.nio.ch.SocketDispatcher.read(java.base@17.0.15/SocketDispatcher.java:47)\n"+
			"\tat sun.nio.ch.NioSocketImpl.tryRead(java.base@17.0.15/NioSocketImpl.java:266)\n"+
			"\tat sun.nio.ch.NioSocketImpl.implRead(java.base@17.0.15/NioSocketImpl.java:313)\n"+
			"\tat sun.nio.ch.NioSocketImpl.read(java.base@17.0.15/NioSocketImpl.java:351)\n", owner)
	case "compute":
		fmt.Fprintf(&b, "\"%s\" #12 prio=5 os_prio=0 cpu=1.00ms elapsed=60.00s tid=0x00007f0000001000 nid=0x100 runnable  [0x00007f0000000000]\n"+
			"   java.lang.Thread.State: RUNNABLE\n\tat com.example.Archive.checksum(Archive.java:70)\n", owner)
	}
	b.WriteString("\tat com.example.Archive.flush(Archive.java:40)\n\t- locked <0x00000000e0000400> (a com.example.Archive)\n" +
		"\tat com.example.Archiver.run(Archiver.java:9)\n\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n")
	// Other work of the process, so that the dump is not all waiters and
	// their holder (heldWaits' one-dump story).
	b.WriteString("\"web-1\" #50 prio=5 os_prio=0 cpu=1.00ms elapsed=60.00s tid=0x00007f0000005000 nid=0x500 runnable  [0x00007f0000000000]\n" +
		"   java.lang.Thread.State: RUNNABLE\n\tat com.example.Web.render(Web.java:12)\n\tat com.example.Web.run(Web.java:5)\n" +
		"\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n")
	for i, w := range waiters {
		fmt.Fprintf(&b, "\"%s\" #%d prio=5 os_prio=0 cpu=1.00ms elapsed=60.00s tid=0x00007f00000%02x000 nid=0x%x waiting for monitor entry  [0x00007f0000000000]\n"+
			"   java.lang.Thread.State: BLOCKED (on object monitor)\n\tat com.example.Archive.store(Archive.java:30)\n"+
			"\t- waiting to lock <0x00000000e0000400> (a com.example.Archive)\n\tat com.example.%sLoop.run(Loop.java:5)\n"+
			"\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n", w, 30+i, 0x30+i, 0x300+i, strings.ToUpper(w[:1])+strings.TrimSuffix(w[1:], "-sink"))
	}
	return b.String()
}

// TestOwnWaitersHolderProperty (issue 33, the holder first): threads of
// their own (1 to 4, each its own pool) blocked on a monitor are a
// contention naming its holder exactly when the very same holder holds it
// at every moment, waiting itself (asleep, in a socket read), and the
// very same threads wait, at two moments or more. Threads of their own
// taking turns (others at each moment), a lock passed to another holder,
// a holder computing (not waiting), or one dump stay quiet.
func TestOwnWaitersHolderProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 11))
	base := time.Date(2026, 12, 6, 18, 0, 0, 0, time.UTC)
	names := []string{"audit-sink", "report-sink", "mail-sink", "index-sink", "export-sink", "backup-sink"}
	for i := range 400 {
		doing := []string{"sleep", "socket", "compute"}[rng.IntN(3)]
		k := 1 + rng.IntN(4)
		moments := 1 + rng.IntN(3)
		turns, moved := rng.IntN(4) == 0, rng.IntN(4) == 0
		var in []Input
		for m := range moments {
			ws := names[:k]
			if turns && m%2 == 1 {
				ws = names[6-k:]
			}
			owner := "archiver"
			if moved && m == moments-1 {
				owner = "compactor"
			}
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(ownHolderMoment(base.Add(time.Duration(m)*5*time.Second), owner, doing, ws)))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		// names[:k] and names[6-k:] share no thread for k up to 3, some
		// for k = 4: either way not the very same threads.
		sameWaiters := !turns || moments < 2
		want := doing != "compute" && moments >= 2 && sameWaiters && !moved
		var got []Finding
		for _, f := range Analyze(in, Options{}).Findings {
			if f.Kind == KindContention {
				got = append(got, f)
			}
		}
		desc := fmt.Sprintf("case %d (%s, %d waiters, %d moments, turns %v, moved %v)", i, doing, k, moments, turns, moved)
		if (len(got) == 1) != want || len(got) > 1 {
			t.Errorf("%s: %d contention findings, want %v", desc, len(got), want)
			continue
		}
		if want && (got[0].Lock.Owner == nil || got[0].Lock.Owner.Name != "archiver" || !got[0].Lock.Owner.Waits) {
			t.Errorf("%s: lock %+v, want held by archiver, waiting", desc, got[0].Lock)
		}
	}
}
