package parse

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJRockitModel reads testdata/formats' JRockit dump (written from the
// format, README) into the model as a HotSpot dump of the same threads
// would read: states from the header's words, JRockit's own frames off
// the top, classes with dots, each lock line a Lock at its frame, the
// blocked thread's holder from the lock chain, the circular chain a
// deadlock.
func TestJRockitModel(t *testing.T) {
	dumps, err := ParseFile(filepath.Join(formatsDir, "jrockit__written-from-the-format.txt"))
	if err != nil {
		t.Fatal(err)
	}
	d := dumps[0]
	if d.Version == "" || d.Time.IsZero() || len(d.Skipped) != 0 {
		t.Errorf("version %q, time %v, skipped %v", d.Version, d.Time, d.Skipped)
	}
	by := map[string]*Thread{}
	for _, th := range d.Threads {
		by[th.Name()] = th
	}
	type want struct {
		state string
		top   string
		locks []Lock
	}
	for name, w := range map[string]want{
		"Main Thread": {"WAITING", "java.lang.Object.wait", []Lock{
			{Kind: LockWaitingOn, Class: "com.example.ledger.Shutdown", Address: "0x10204E50", Frame: 2}}},
		"Thread-0": {"BLOCKED", "com.example.ledger.Transfer.move", []Lock{
			{Kind: LockWaitingTo, Class: "com.example.ledger.Account", Address: "0x0133C5F8", Frame: 0, Owner: "Thread-1", OwnerID: 12},
			{Kind: LockHeld, Class: "com.example.ledger.Account", Address: "0x0133C5E0", Frame: 0}}},
		"ledger-writer": {"BLOCKED", "com.example.ledger.Journal.append", []Lock{
			{Kind: LockWaitingTo, Class: "com.example.ledger.Journal", Address: "0x0179EF40", Frame: 0, Owner: "ledger-flusher", OwnerID: 14}}},
		"ledger-flusher": {"TIMED_WAITING", "java.lang.Thread.sleep", []Lock{
			{Kind: LockHeld, Class: "com.example.ledger.Journal", Address: "0x0179EF40", Frame: 1}}},
		"pool-1-thread-1": {"WAITING", "sun.misc.Unsafe.park", []Lock{
			{Kind: LockParking, Class: "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject", Address: "0x0176E128", Frame: 0}}},
		"(GC Main Thread)": {"RUNNABLE", "", nil},
	} {
		th := by[name]
		if th == nil {
			t.Errorf("no thread %q", name)
			continue
		}
		top := ""
		if len(th.Frames) > 0 {
			top = th.Frames[0].Func
		}
		if th.State != w.state || top != w.top {
			t.Errorf("%s: state %q, top %q; want %q, %q", name, th.State, top, w.state, w.top)
		}
		if diff := cmp.Diff(w.locks, th.Locks()); diff != "" {
			t.Errorf("%s's locks (-want +got):\n%s", name, diff)
		}
	}
	if len(d.Deadlocks) != 1 || len(d.Deadlocks[0].Cycle) != 3 {
		t.Fatalf("deadlocks %+v, want one of Thread-0, -1, -2", d.Deadlocks)
	}
	for i, e := range d.Deadlocks[0].Cycle {
		if wantHolder := []string{"Thread-1", "Thread-2", "Thread-0"}[i]; e.Holder != wantHolder {
			t.Errorf("edge %d %+v: holder want %s", i, e, wantHolder)
		}
	}
}

// TestJRockitCorpus reads the shared corpus's real JRockit dumps (R25.2 to
// R27.6 and a 1.4-era WebLogic one; SOURCES.md): as many dumps and threads
// as grep counts, nothing skipped (lines cut by a console's width joined),
// and the circular lock chains each one deadlock of the threads they name.
func TestJRockitCorpus(t *testing.T) {
	tests := []struct {
		file             string
		dumps, threads   int // grep -c '===== FULL THREAD DUMP'; grep -c '^"[^"]*" .*prio='
		deadlocksPerDump int // grep -c 'Circular (deadlocked) lock chains' / dumps
	}{
		{"dumpling__jrockit-R27.6.5-1.6.0_14__dump.log", 1, 13, 0},
		{"samurai__jrockit-R25.2-1.5.0_03__stacked.dmp", 3, 33, 1},
		{"samurai__jrockit-R26.0-1.5.0_04__weblogic-log-with-mojibake.dmp", 4, 172, 1},
		{"tda__jrockit-1.4-era__weblogic-crlf.txt", 1, 59, 0},
		{"tda__jrockit-R26.4-1.5.0_06__weblogic-2-dumps-crlf.txt", 2, 70, 0},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join(corpusDir, "jvm", tt.file)
			if _, err := os.Stat(path); err != nil {
				t.Skipf("shared corpus not present: %v", err)
			}
			dumps, err := ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			threads, skipped := 0, 0
			for _, d := range dumps {
				threads += d.ThreadCount()
				skipped += len(d.Skipped)
				if len(d.Deadlocks) != tt.deadlocksPerDump {
					t.Errorf("dump at line %d: %d deadlocks, want %d", d.Source.Line, len(d.Deadlocks), tt.deadlocksPerDump)
				}
				for _, dl := range d.Deadlocks {
					for _, e := range dl.Cycle {
						if e.Holder == "" {
							t.Errorf("deadlock edge %+v without its holder", e)
						}
					}
				}
			}
			if len(dumps) != tt.dumps || threads != tt.threads || skipped != 0 {
				t.Errorf("%d dumps, %d threads, %d skipped; grep counts %d, %d, and nothing is skipped", len(dumps), threads, skipped, tt.dumps, tt.threads)
			}
		})
	}
}
