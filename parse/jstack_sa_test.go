package parse

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// saRewrite writes a HotSpot jstack dump as the Serviceability Agent
// prints the same threads (jstack_sa.go): "Deadlock Detection:" for the
// "Full thread dump" line, each "at" frame as " - F() @bci=0, line=N
// (Interpreted frame)", a "JavaThread state:" line under each state line.
// jdk8 writes `jstack -F` of JDK 8 instead: each header "Thread NID:
// (state = BLOCKED)" (the nid in decimal), no state or lock lines. The
// trailer and a deadlock report are left out (the agent prints its report
// before the threads, and this rewrite keeps none). It fits a dump with
// one "Full thread dump" line whose thread headers all carry a nid.
func saRewrite(jdk8 bool) func(string, Runtime) (string, bool) {
	return func(text string, _ Runtime) (string, bool) {
		if strings.Count(text, "\nFull thread dump ") != 1 && !strings.HasPrefix(text, "Full thread dump ") ||
			strings.Contains(text, "Found one Java-level deadlock") {
			return "", false // the agent prints its report before the threads: not rewritten
		}
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		var b strings.Builder
		in := false
		for _, l := range lines {
			t := strings.TrimLeft(l, " \t")
			switch {
			case strings.HasPrefix(l, "Full thread dump "):
				b.WriteString("Deadlock Detection:\n\nNo deadlocks found.\n")
				in = true
				continue
			case !in:
				continue
			case strings.HasPrefix(l, "JNI global ref") || isDeadlockStart([]byte(t)) || l == "Heap":
				return b.String(), true
			case strings.HasPrefix(l, `"`):
				if !isHotSpotHeader([]byte(l)) {
					return "", false
				}
				if jdk8 {
					nid := saNid(l)
					if nid < 0 {
						return "", false
					}
					fmt.Fprintf(&b, "Thread %d: (state = BLOCKED)\n", nid)
					continue
				}
			case strings.HasPrefix(t, "java.lang.Thread.State:"):
				if jdk8 {
					continue
				}
				b.WriteString(l + "\n   JavaThread state: _thread_blocked\n")
				continue
			case strings.HasPrefix(t, "at "):
				f := parseFrame([]byte(t[3:]), newInterner())
				if f == nil {
					return "", false
				}
				if f.Line > 0 {
					fmt.Fprintf(&b, " - %s() @bci=0, line=%d (Interpreted frame)\n", f.Func, f.Line)
				} else {
					fmt.Fprintf(&b, " - %s() @bci=0 (Interpreted frame)\n", f.Func)
				}
				continue
			case jdk8 && t != "":
				continue // lock lines, ownable synchronizers, carriers: JDK 8's -F prints none
			}
			b.WriteString(l + "\n")
		}
		return b.String(), in
	}
}

// saNid is a HotSpot header's nid as a number, -1 if it has none.
func saNid(header string) int64 {
	_, rest, ok := strings.Cut(header, " nid=")
	if !ok {
		return -1
	}
	w, _, _ := strings.Cut(rest, " ")
	n, err := strconv.ParseInt(strings.TrimPrefix(w, "0x"), map[bool]int{true: 16, false: 10}[strings.HasPrefix(w, "0x")], 64)
	if err != nil {
		return -1
	}
	return n
}

// saKeeps is the fingerprint of what the agent's form keeps of a dump:
// its threads' frames by method and line (no file, module or note); and
// for jhsdb also each thread's id, name and state, which JDK 8's -F does
// not print. Threads without a nid (none in a HotSpot dump) are not in
// the rewrite and are left out.
func saKeeps(jdk8 bool) func([]*Dump) string {
	return func(dumps []*Dump) string {
		var b strings.Builder
		for _, d := range dumps {
			fmt.Fprintf(&b, "dump %s %d threads\n", d.Format, len(d.Threads))
			for _, t := range d.Threads {
				if !jdk8 {
					fmt.Fprintf(&b, "  %d %q [%s]\n", t.ID, t.Name(), t.State)
				} else {
					b.WriteString("  thread\n")
				}
				for _, f := range t.Frames {
					fmt.Fprintf(&b, "    %s:%d\n", f.Func, f.Line)
				}
			}
		}
		return b.String()
	}
}

// TestSAFixtures: the agent's dumps of a deadlock (jhsdb of JDK 17 and
// 25) read as one dump with the report and the threads, the waits the
// report names mended from "locked" (jstack_sa.go); the JDK 8 -F listing
// reads its three threads by OS id, their VM state kept as the detail and
// no Java state made of it.
func TestSAFixtures(t *testing.T) {
	for _, f := range []string{"jhsdb-jdk17__deadlock.txt", "jhsdb-jdk25__deadlock.txt"} {
		t.Run(f, func(t *testing.T) {
			dumps, err := ParseFile(filepath.Join(formatsDir, f))
			if err != nil || len(dumps) != 1 {
				t.Fatalf("%d dumps, %v; want 1", len(dumps), err)
			}
			d := dumps[0]
			if len(d.Deadlocks) != 1 || len(d.Deadlocks[0].Cycle) != 2 {
				t.Fatalf("deadlocks %+v, want one of two threads", d.Deadlocks)
			}
			held := map[string]string{} // address -> holder
			waits := map[string]Lock{}  // thread -> its wait
			for _, th := range d.Threads {
				if len(th.Frames) == 0 && th.Name() != "Signal Dispatcher" && th.Name() != "Notification Thread" {
					t.Errorf("thread %q has no frames", th.Name())
				}
				for _, l := range th.Locks() {
					switch l.Kind {
					case LockHeld:
						if h, ok := held[l.Address]; ok && h != th.Name() {
							t.Errorf("%s held by %q and %q", l.Address, h, th.Name())
						}
						held[l.Address] = th.Name()
					case LockWaitingTo:
						waits[th.Name()] = l
					}
				}
			}
			for w, h := range map[string]string{"worker-1": "worker-2", "worker-2": "worker-1"} {
				l, ok := waits[w]
				if !ok || l.Owner != h || held[l.Address] != h {
					t.Errorf("%s waits for %+v; want a lock %s holds", w, l, h)
				}
			}
		})
	}
	dumps, err := ParseFile(filepath.Join(formatsDir, "intellij-tests__jstack-F-jdk8.txt"))
	if err != nil || len(dumps) != 1 {
		t.Fatalf("%d dumps, %v", len(dumps), err)
	}
	var got []string
	for _, th := range dumps[0].Threads {
		got = append(got, fmt.Sprintf("%s %q %q %d", th.Java().NativeID, th.State, th.Java().StateDetail, len(th.Frames)))
	}
	want := []string{
		`8393 "" "VM state BLOCKED" 9`,
		`7399 "" "VM state IN_NATIVE" 5`,
		`7381 "" "VM state BLOCKED" 0`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("threads (-want +got):\n%s", diff)
	}
	if f := dumps[0].Threads[0].Frames[2]; f.Func != "java.util.concurrent.SynchronousQueue$TransferStack.awaitFulfill" || f.Line != 460 || f.Note != "Compiled frame" {
		t.Errorf("frame 2 = %+v", f)
	}
}

func TestSAFrame(t *testing.T) {
	tests := []struct {
		in         string
		fn         string
		line       int
		note       string
		isSA, isOK bool
	}{
		{"java.lang.Object.wait(long) @bci=0 (Interpreted frame)", "java.lang.Object.wait", 0, "Interpreted frame", true, true},
		{"Main.main(java.lang.String[]) @bci=9, line=5 (Compiled frame; information may be imprecise)", "Main.main", 5, "Compiled frame", true, true},
		{"Dl$$Lambda$1+0x00007f6548000a08.run() @bci=0 (Interpreted frame)", "Dl$$Lambda$1+0x00007f6548000a08.run", 0, "Interpreted frame", true, true},
		{"locked <0x000000069ec195e8> (a java.lang.Object)", "", 0, "", false, false},
		{"(long) @bci=0 (Interpreted frame)", "", 0, "", true, false},
	}
	for _, tt := range tests {
		if got := isSAFrame([]byte(tt.in)); got != tt.isSA {
			t.Errorf("isSAFrame(%q) = %v", tt.in, got)
		}
		if !tt.isSA {
			continue
		}
		f := saFrame([]byte(tt.in), newInterner())
		if (f != nil) != tt.isOK || f != nil && (f.Func != tt.fn || f.Line != tt.line || f.Note != tt.note) {
			t.Errorf("saFrame(%q) = %+v", tt.in, f)
		}
	}
}
