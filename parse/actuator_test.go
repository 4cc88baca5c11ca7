package parse

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// actuatorDir holds one real snapshot in every Actuator shape
// (testdata/gen/actuator/gen.sh).
const actuatorDir = "../testdata/jvm/actuator"

func TestClaimActuatorJSON(t *testing.T) {
	tests := []struct {
		name string
		head string
		want bool
	}{
		{"boot 3 sorted", `{"threads":[{"blockedCount":0,"blockedTime":-1`, true},
		{"boot 2 with spaces", "{ \"threads\" : [ {\"threadName\":\"main\"", true},
		{"pretty printed", "{\n  \"threads\" : [ {\n    \"threadName\" : \"main\",", true},
		{"empty list", `{"threads":[]}`, true},
		{"boot 1 array", `[{"threadName":"main","threadId":1,"blockedTime":-1`, true},
		{"boot 1 array, pretty", "[ {\n  \"threadName\" : \"main\"", true},
		{"jcmd json", `{"threadDump":{"processId":"1"`, false},
		{"threads not first", `{"status":"UP","threads":[`, false},
		{"threads not a list", `{"threads":12}`, false},
		{"other array", `[{"name":"main"}]`, false},
		{"array of numbers", `[1,2,3]`, false},
		{"text", `"main" - Thread t@1`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := claimActuatorJSON([]byte(tt.head)); got != tt.want {
				t.Errorf("claimActuatorJSON(%q) = %v, want %v", tt.head, got, tt.want)
			}
		})
	}
}

func TestCutOwnedBy(t *testing.T) {
	tests := []struct {
		name, in, lock, owner string
	}{
		{"owner", `waiting to lock <b5379e1> (a java.lang.Object) owned by "deadLock2" t@21`, `waiting to lock <b5379e1> (a java.lang.Object)`, "deadLock2"},
		{"owner with spaces and quotes", `waiting to lock <1> (a X) owned by "RMI TCP "x" (1)" t@7`, `waiting to lock <1> (a X)`, `RMI TCP "x" (1)`},
		{"no owner", `locked <41d2f8a> (a java.lang.Object)`, `locked <41d2f8a> (a java.lang.Object)`, ""},
		{"t@ without digits", `waiting to lock <1> (a X) owned by "a" t@x`, `waiting to lock <1> (a X) owned by "a" t@x`, ""},
		{"t@ without quote", `waiting to lock <1> (a X) owned by a t@1`, `waiting to lock <1> (a X) owned by a t@1`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lock, owner := cutOwnedBy([]byte(tt.in))
			if string(lock) != tt.lock || string(owner) != tt.owner {
				t.Errorf("cutOwnedBy(%q) = %q, %q; want %q, %q", tt.in, lock, owner, tt.lock, tt.owner)
			}
		})
	}
}

// TestActuatorText reads the Actuator's text lines the JVM scanner did not
// know: the owner suffix, a parked "waiting to lock", a name-only header.
func TestActuatorText(t *testing.T) {
	const in = "2026-12-01 10:43:14\n" +
		"Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode, sharing):\n\n" +
		"\"w\" - Thread t@21\n" +
		"   java.lang.Thread.State: WAITING\n" +
		"\tat java.base@17.0.15/jdk.internal.misc.Unsafe.park(Native Method)\n" +
		"\t- waiting to lock <2a84aee7> (a java.util.concurrent.locks.ReentrantLock$NonfairSync) owned by \"holder\" t@20\n" +
		"\tat java.base@17.0.15/java.util.concurrent.locks.LockSupport.park(LockSupport.java:211)\n\n" +
		"   Locked ownable synchronizers:\n\t- None\n\n" +
		"\"Finalizer\"\n" +
		"   java.lang.Thread.State: WAITING\n" +
		"\tat java.base@17/java.lang.Object.wait(Native Method)\n" +
		"\t- waiting on <228a944d> (a java.lang.ref.ReferenceQueue$Lock)\n\n" +
		"   Locked ownable synchronizers:\n\t- None\n\n" +
		"\"lost\"\n" +
		"\tat a.B.c(B.java:1)\n\n"
	dumps, err := Parse("t.txt", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	d := dumps[0]
	if len(d.Threads) != 2 {
		t.Fatalf("got %d threads, want 2 (w, Finalizer)", len(d.Threads))
	}
	w, fin := d.Threads[0], d.Threads[1]
	wantLock := Lock{Kind: LockParking, Address: "2a84aee7", Class: "java.util.concurrent.locks.ReentrantLock$NonfairSync", Owner: "holder", OwnerID: 20}
	if diff := cmp.Diff([]Lock{wantLock}, w.Locks()); diff != "" {
		t.Errorf("w's locks (-want +got):\n%s", diff)
	}
	if fin.Name() != "Finalizer" || fin.ID != 0 || fin.State != "WAITING" || len(fin.Frames) != 1 || fin.Line != 13 {
		t.Errorf("Finalizer: got %+v", fin)
	}
	// "lost" is a name alone followed by a frame: skipped with its entry.
	want := []Skipped{
		{Line: 21, Text: `"lost"`, Reason: "thread header with a name only (no id, priority or state)"},
		{Line: 22, Text: "\tat a.B.c(B.java:1)", Reason: "line of a thread whose header was not understood"},
	}
	if diff := cmp.Diff(want, d.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}

// lockView is what the text and JSON forms of one dump both say of a thread.
type lockView struct {
	Name   string
	ID     int64
	State  string
	Frames []Frame
	Locks  []Lock
}

func viewThreads(d *Dump) []lockView {
	var out []lockView
	for _, t := range d.Threads {
		v := lockView{Name: t.Name(), ID: t.ID, State: t.State, Locks: t.Locks()}
		for _, f := range t.Frames {
			v.Frames = append(v.Frames, *f)
		}
		out = append(out, v)
	}
	return out
}

// TestActuatorShapesAgree: the Boot 1, 2 and 3 JSON and the text form of one
// real snapshot give the same threads, frames and locks (owners included).
func TestActuatorShapesAgree(t *testing.T) {
	text, err := ParseFile(filepath.Join(actuatorDir, "threaddump.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(text) != 1 || len(text[0].Skipped) != 0 || text[0].Format != FormatJVMText {
		t.Fatalf("text: %d dumps, want 1 with nothing skipped: %+v", len(text), text[0].Skipped)
	}
	want := viewThreads(text[0])
	for _, name := range []string{"threaddump-boot3.json", "threaddump-boot2.json", "dump-boot1.json"} {
		t.Run(name, func(t *testing.T) {
			dumps, err := ParseFile(filepath.Join(actuatorDir, name))
			if err != nil {
				t.Fatal(err)
			}
			if len(dumps) != 1 || dumps[0].Format != FormatActuatorJSON || len(dumps[0].Skipped) != 0 {
				t.Fatalf("got %d dumps (%+v)", len(dumps), dumps[0])
			}
			if diff := cmp.Diff(want, viewThreads(dumps[0])); diff != "" {
				t.Errorf("JSON and text differ (-text +json):\n%s", diff)
			}
			var daemons int
			for _, th := range dumps[0].Threads {
				if th.Daemon {
					daemons++
				}
			}
			if daemons == 0 {
				t.Error("no daemon thread: daemon not read")
			}
		})
	}
}

// TestActuatorLocks: the waits of the fixture as the lock graph needs them.
func TestActuatorLocks(t *testing.T) {
	dumps, err := ParseFile(filepath.Join(actuatorDir, "threaddump-boot3.json"))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*Thread{}
	for _, th := range dumps[0].Threads {
		byName[th.Name()] = th
	}
	waits := func(name string) Lock {
		th := byName[name]
		if th == nil || len(th.Locks()) == 0 {
			t.Fatalf("%s: no thread or no lock", name)
		}
		return th.Locks()[0]
	}
	holds := func(name, addr string, kind LockKind) {
		for _, l := range byName[name].Locks() {
			if l.Address == addr && l.Kind == kind {
				return
			}
		}
		t.Errorf("%s does not hold %s (%s): %+v", name, addr, kind, byName[name].Locks())
	}
	ls, af := waits("ledger-sync"), waits("audit-flush")
	if ls.Kind != LockWaitingTo || ls.Owner != "audit-flush" || af.Kind != LockWaitingTo || af.Owner != "ledger-sync" {
		t.Errorf("deadlock waits: %+v, %+v", ls, af)
	}
	holds("audit-flush", ls.Address, LockHeld)
	holds("ledger-sync", af.Address, LockHeld)
	w := waits("inventory-worker-1")
	if w.Kind != LockParking || w.Owner != "inventory-rebuild" || w.Frame != 0 {
		t.Errorf("ReentrantLock waiter: %+v", w)
	}
	holds("inventory-rebuild", w.Address, LockOwnable)
	if l := waits("order-dispatcher"); l.Kind != LockWaitingOn {
		t.Errorf("Object.wait: %+v", l)
	}
}

func TestActuatorJSONErrors(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"syntax", "{\"threads\": [\n{\"threadName\": \"a\",\n\"threadId\": }]}", 3, "invalid character '}'"},
		{"type", "{\"threads\": [\n{\"threadName\": 7}]}", 2, "cannot unmarshal number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("a.json", strings.NewReader(tt.in))
			se, ok := err.(*SyntaxError)
			if !ok || se.Line != tt.line || !strings.Contains(se.Msg, tt.msg) {
				t.Fatalf("got %v, want a.json:%d: ...%s", err, tt.line, tt.msg)
			}
		})
	}
	dumps, err := Parse("a.json", strings.NewReader(`{"threads":[{"threadState":"RUNNABLE"},{"threadName":"b"}]}`))
	if err != nil || len(dumps[0].Threads) != 1 || len(dumps[0].Skipped) != 1 {
		t.Fatalf("a thread without name and id: got %v, %+v", err, dumps)
	}
}

// FuzzActuatorJSON feeds Actuator JSON to Parse: it must never panic, and
// every lock must follow a frame of its thread or none.
func FuzzActuatorJSON(f *testing.F) {
	for _, name := range []string{"threaddump-boot3.json", "threaddump-boot2.json", "dump-boot1.json"} {
		data, err := os.ReadFile(filepath.Join(actuatorDir, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 4<<10)])
	}
	f.Add([]byte(`{"threads":[{"threadName":"a","threadId":1,"threadState":"BLOCKED","lockInfo":{"className":"X","identityHashCode":-5},"lockOwnerId":2,"lockOwnerName":"b","lockedMonitors":[{"className":"Y","identityHashCode":9,"lockedStackDepth":4}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, _ := Parse("fuzz.json", bytes.NewReader(data))
		checkDumps(t, dumps)
		checkLockFrames(t, dumps)
	})
}

// FuzzActuatorText feeds Actuator text dumps to Parse.
func FuzzActuatorText(f *testing.F) {
	data, err := os.ReadFile(filepath.Join(actuatorDir, "threaddump.txt"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data[:min(len(data), 6<<10)])
	f.Add([]byte("Full thread dump X:\n\n\"a\"\n   java.lang.Thread.State: BLOCKED\n\tat a.B.c(B.java:1)\n\t- waiting to lock <1> (a X) owned by \"b\" t@2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, _ := Parse("fuzz.txt", bytes.NewReader(data))
		checkDumps(t, dumps)
		checkLockFrames(t, dumps)
		for _, d := range dumps {
			for _, s := range d.Skipped {
				if s.Line <= 0 {
					t.Fatalf("skipped line without position: %+v", s)
				}
			}
		}
	})
}

// checkLockFrames verifies that every lock follows a frame of its thread,
// or none (-1).
func checkLockFrames(t *testing.T, dumps []*Dump) {
	for _, d := range dumps {
		for _, th := range d.Threads {
			for _, l := range th.Locks() {
				if l.Frame < -1 || l.Frame >= len(th.Frames) {
					t.Fatalf("lock %+v after frame %d of %d", l, l.Frame, len(th.Frames))
				}
			}
		}
	}
}
