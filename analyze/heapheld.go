package analyze

import (
	"fmt"
	"slices"

	"github.com/dumpdiff/dumpdiff/parse"
)

// heapDumpHidden are the Java threads HotSpot leaves out of a heap dump
// (JavaThread::is_hidden_from_external_view: its compiler threads, the
// sweeper, the service and monitor-deflation threads; counted from the
// jstack beside each heap dump of testdata/hprof, COUNTS.tsv). A name
// ending in "*" is a prefix.
// Not a [roles] key: what HotSpot itself leaves out of a heap dump, a JDK
// fact.
var heapDumpHidden = []string{"C1 CompilerThread*", "C2 CompilerThread*", "JVMCI CompilerThread*",
	"Sweeper thread", "Service Thread", "Monitor Deflation Thread"}

// heldByAll compares moments of one JVM in two kinds of dump on what both
// hold: when a heap dump (Dump.JavaThreadsOnly) is among the moments, the
// thread dumps beside it are read without the threads a heap dump cannot
// hold — the JVM's non-Java threads (GC, VM, periodic task: no "#N") and
// its hidden Java threads (heapDumpHidden) — which otherwise read as
// "JVM internal 18 → 6" between a jstack and the heap dump of the same
// process. Each thread dump so read is said in a warning. The dumps given
// are not modified; with no heap dump among them, in is returned as is.
func heldByAll(in []Input) ([]Input, []string) {
	only := false
	for _, x := range in {
		if x.Dump != nil && x.Dump.JavaThreadsOnly {
			only = true
		}
	}
	if !only {
		return in, nil
	}
	out := append([]Input(nil), in...)
	var warns []string
	for i, x := range in {
		if x.Dump == nil || x.Dump.JavaThreadsOnly || x.Dump.Format.Runtime() != parse.RuntimeJVM {
			continue
		}
		// "#N" tells a Java thread only where the dump prints it (JDK 8
		// and later): an older dump's threads are all kept by number.
		numbered := slices.ContainsFunc(x.Dump.Threads, func(t *parse.Thread) bool { return t.ID != 0 })
		c := *x.Dump
		c.Threads = nil
		left := 0
		for _, t := range x.Dump.Threads {
			if numbered && t.ID == 0 || nameIn(t.Name(), heapDumpHidden) {
				left++
				continue
			}
			c.Threads = append(c.Threads, t)
		}
		if left == 0 {
			continue
		}
		out[i].Dump = &c
		name := x.Label
		if name == "" {
			name = LabelFromFile(x.Dump.Source.File)
		}
		warns = append(warns, fmt.Sprintf("%s: %d JVM thread(s) a heap dump does not hold (GC, VM and compiler threads) left out, "+
			"to compare it with the heap dump beside it", name, left))
	}
	return out, warns
}
