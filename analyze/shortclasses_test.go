package analyze

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// shortSources are real jstack dumps of several libraries and JDKs.
var shortSources = []string{
	"../testdata/verdicts/queue-busy-rising/2.txt",
	"../testdata/verdicts/holder-db-stuck/1.txt",
	"../testdata/verdicts/jdk25-twosided-stuck/1.txt",
	"../testdata/verdicts/borrow-dbcp1-stuck/1.txt",
	"../testdata/verdicts/onedump-pool-tomcat/1.txt",
	"../testdata/verdicts/jvm-idle/1.txt",
	"../testdata/scenarios/hikari-pool-exhausted/during-1.txt",
}

// shortened is t as Eclipse would print it: each frame's class without
// its package.
func shortened(t *parse.Thread) *parse.Thread {
	c := *t
	c.Frames = make([]*parse.Frame, len(t.Frames))
	for i, f := range t.Frames {
		fc := *f
		if k, ok := shortKey(f.Func); ok {
			fc.Func = k
		}
		fc.Module = ""
		c.Frames[i] = &fc
	}
	return &c
}

// TestShortClassesProperty: every thread of real jstack dumps, printed
// again without packages (as Eclipse's Copy Stack prints), is classified
// as its whole stack is, unless a frame the row needs has a short name
// the tables give two owners (left short on purpose) or the row needs a
// package prefix (Within, borrow's pool classes), which a short frame
// cannot show: those are counted and must stay a small share. And the
// other way: the same threads with every JDK frame moved into an
// application's package (com.acme.<Class>.<method>), printed whole, are
// never read as a JDK row anchored on that frame.
func TestShortClassesProperty(t *testing.T) {
	table := signatureTable(nil)
	idx := newShortIndex(table, &builtinRoles)
	var n, same, unknowable int
	for _, path := range shortSources {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := parse.Parse(filepath.Base(path), f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		d := ds[0]
		short := &parse.Dump{Format: d.Format, ShortClasses: true}
		for _, th := range d.Threads {
			short.Threads = append(short.Threads, shortened(th))
		}
		q := qualifyShortClasses([]Input{{Dump: short}}, table, &builtinRoles)[0].Dump
		for _, th := range short.Threads {
			for _, f := range th.Frames {
				if jdkName(f.Func) {
					t.Fatalf("%s: the dump given was modified: %s", path, f.Func)
				}
			}
		}
		for i, th := range d.Threads {
			want, got := stateOf(classifyIn(table, parse.RuntimeJVM, th)), stateOf(classifyIn(table, parse.RuntimeJVM, q.Threads[i]))
			n++
			if got == want {
				same++
				continue
			}
			if needsPackage(table, th, idx) {
				t.Logf("needs a package: %s %q: %s whole, %s short", filepath.Base(path), th.Name(), want, got)
				unknowable++
				continue
			}
			t.Errorf("%s %q: %s whole, %s short\n%v", path, th.Name(), want, got, framesOf(q.Threads[i]))
		}
		// Another package's class of the same simple name, printed whole.
		for _, th := range d.Threads {
			c := *th
			c.Frames = nil
			for _, f := range th.Frames {
				fc := *f
				if k, ok := shortKey(f.Func); ok && jdkName(f.Func) {
					fc.Func = "com.acme." + k
				}
				c.Frames = append(c.Frames, &fc)
			}
			if s := classifyIn(table, parse.RuntimeJVM, &c); s != nil && jdkAnchored(s, th) {
				t.Errorf("%s %q: com.acme frames read as %s", path, th.Name(), s.ID)
			}
		}
	}
	t.Logf("%d threads: %d classified alike short and whole, %d need a package the short frames lack", n, same, unknowable)
	if n == 0 || same < n*9/10 {
		t.Errorf("%d of %d threads classified alike", same, n)
	}
}

// needsPackage: a row t's whole stack matches needs what a short frame
// cannot give (a package prefix, or a key the index leaves short).
func needsPackage(table []Signature, t *parse.Thread, idx shortIndex) bool {
	s := classifyIn(table, parse.RuntimeJVM, t)
	if s == nil {
		return false
	}
	if len(s.Within) > 0 || s.Borrow {
		return true
	}
	for _, f := range t.Frames {
		if k, ok := shortKey(f.Func); ok && idx[k] == "" && anchorMatch(append(append([]string(nil), s.Anchors...), s.Unless...), f.Func) {
			return true
		}
	}
	return false
}

// jdkAnchored: s matched t's whole stack on one of the JDK's frames
// (moved into com.acme, it must not match there).
func jdkAnchored(s *Signature, t *parse.Thread) bool {
	for _, f := range t.Frames {
		if jdkName(f.Func) && anchorMatch(s.Anchors, f.Func) && len(s.Anchors) > 0 {
			return true
		}
	}
	return false
}

func framesOf(t *parse.Thread) string {
	var b strings.Builder
	for _, f := range t.Frames {
		b.WriteString(f.Func + "\n")
	}
	return b.String()
}

// TestShortClassesEclipse: Eclipse's stacks (testdata/formats, written
// from the format) read main's Thread.sleep as a sleep and the waiter's
// Object.wait as an object wait, not as unclassified application frames;
// the application's own frames stay as printed.
func TestShortClassesEclipse(t *testing.T) {
	in := corpusInputs(t, "../testdata/formats/eclipse__written-from-the-format.txt")
	r := Analyze(in, Options{})
	got := map[string]string{}
	for _, p := range r.Pools {
		for _, g := range p.States {
			got[p.Name] = g.State
		}
	}
	for pool, want := range map[string]string{"main": "sleep", "waiter": "object-wait", "worker-*": "monitor-blocked"} {
		if got[pool] != want {
			t.Errorf("%s: %q, want %q (all: %v)", pool, got[pool], want, got)
		}
	}
	if in[0].Dump.Threads[0].Frames[0].Func != "Thread.sleep" {
		t.Errorf("the dump given was modified: %s", in[0].Dump.Threads[0].Frames[0].Func)
	}
}

// TestShortIndexOwners: a short key two packages share is read as one
// only when the tables cannot tell them apart.
func TestShortIndexOwners(t *testing.T) {
	table := []Signature{
		{ID: "a", Runtime: parse.RuntimeJVM, Anchors: []string{"java.util.concurrent.ThreadPoolExecutor.getTask", "org.apache.tomcat.util.threads.ThreadPoolExecutor.getTask"}},
		{ID: "b", Runtime: parse.RuntimeJVM, Anchors: []string{"com.zaxxer.hikari.util.ConcurrentBag.borrow"}},
		{ID: "c", Runtime: parse.RuntimeJVM, Anchors: []string{"org.other.ConcurrentBag.borrow", "java.lang.Thread.sleep"}},
		{ID: "d", Runtime: parse.RuntimeJVM, Anchors: []string{"sun.misc.Unsafe.park"}},
		{ID: "e", Runtime: parse.RuntimeJVM, Anchors: []string{"jdk.internal.misc.Unsafe.park", "org.xnio.XnioWorker$TaskPool*", "java.lang.Thread.sleepNanos*"}},
	}
	idx := newShortIndex(table, &Roles{})
	for _, tt := range []struct{ short, want string }{
		{"ThreadPoolExecutor.getTask", "java.util.concurrent.ThreadPoolExecutor.getTask"}, // the same rows: one
		{"ConcurrentBag.borrow", ""},                           // two libraries, two rows: left short
		{"Thread.sleep", "java.lang.Thread.sleep"},             // one owner
		{"Unsafe.park", "sun.misc.Unsafe.park"},                // the JDK's moved class: the first listed
		{"Thread.sleepNanos0", "java.lang.Thread.sleepNanos0"}, // a method prefix
		{"XnioWorker$TaskPool.run", ""},                        // a class prefix names no frame
		{"Deadlock.main", ""},                                  // the application's
	} {
		if got := idx.full(tt.short); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.short, got, tt.want)
		}
	}
}
