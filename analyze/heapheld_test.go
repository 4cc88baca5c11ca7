package analyze

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// asHeapDump is what a heap dump of d's moment holds, made from d: its
// Java threads but the hidden ones, no monitor lines, the flags a heap
// dump's reader sets; the threads in moved are RUNNABLE in another frame
// (they got their monitor between the two dumps).
func asHeapDump(d *parse.Dump, moved map[string]bool) *parse.Dump {
	c := *d
	c.NoMonitors, c.JavaThreadsOnly = true, true
	c.Threads = nil
	for _, t := range d.Threads {
		if t.ID == 0 || nameIn(t.Name(), heapDumpHidden) {
			continue
		}
		tc := *t
		tc.JVM = &parse.JVM{}
		*tc.JVM = t.Java()
		tc.JVM.Locks = nil
		for _, l := range t.Locks() {
			if l.Kind == parse.LockParking || l.Kind == parse.LockOwnable {
				tc.JVM.Locks = append(tc.JVM.Locks, l)
			}
		}
		if moved[t.Name()] {
			tc.State = "RUNNABLE"
			tc.Frames = append([]*parse.Frame{{Func: "com.example.Render.format", File: "Render.java", Line: 12}}, t.Frames[1:]...)
		}
		c.Threads = append(c.Threads, &tc)
	}
	return &c
}

// TestHeapDumpBesideJstackProperty: the jstack of testdata/hprof's
// heap-jdk17 and heap-jdk25 (8 report-* BLOCKED on the monitor
// cache-refresh holds), beside a heap dump made from it in which a random
// k of the 8 got their monitor: the contention reads 8 → 8−k (not 8 → 0:
// the heap dump names no monitor), and JVM internal reads the same at
// both moments (not 18 → 6: the jstack's GC, VM and compiler threads are
// left out of the comparison). 40 cases.
func TestHeapDumpBesideJstackProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 17))
	for _, name := range []string{"heap-jdk17", "heap-jdk25"} {
		in := loadRewritten(t, "../testdata/hprof", []string{name + ".jstack"}, func(_ int, s string) string { return s })
		jstack := in[0].Dump
		for c := range 20 {
			k := rng.IntN(8)
			moved := map[string]bool{}
			for _, i := range rng.Perm(8)[:k] {
				moved["report-"+string(rune('1'+i))] = true
			}
			r := Analyze([]Input{{Label: "jstack", Dump: jstack}, {Label: "heap", Dump: asHeapDump(jstack, moved)}}, Options{})
			var counts []int
			for _, f := range r.Findings {
				if f.Kind == KindContention {
					counts = f.Counts
				}
			}
			if len(counts) != 2 || counts[0] != 8 || counts[1] != 8-k {
				t.Errorf("%s case %d: %d moved: contention %v, want [8 %d]", name, c, k, counts, 8-k)
			}
			for _, p := range r.Pools {
				if p.Internal && p.Counts[0] != p.Counts[1] {
					t.Errorf("%s case %d: %s %v", name, c, p.Name, p.Counts)
				}
			}
			if !strings.Contains(strings.Join(r.Warnings, "\n"), "a heap dump does not hold") {
				t.Errorf("%s case %d: no warning says what was left out: %v", name, c, r.Warnings)
			}
		}
	}
}
