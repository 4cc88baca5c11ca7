package analyze

import (
	"slices"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestViaNotByThreadOrder: two JVM threads with one stack, in Object.wait
// on monitors of two classes, get the via of their own monitor whichever
// comes first in the dump (the classification cache once keyed them by
// the stack alone, and the first thread's via stood for both).
func TestViaNotByThreadOrder(t *testing.T) {
	thread := func(name, class string) string {
		return `"` + name + `" #1 prio=5 os_prio=0 tid=0x1 nid=0x` + name[len(name)-1:] + ` in Object.wait()  [0x1]
   java.lang.Thread.State: WAITING (on object monitor)
	at java.lang.Object.wait(java.base@17/Native Method)
	- waiting on <0x0000000700000001> (a ` + class + `)
	at java.lang.Thread.join(java.base@17/Thread.java:1304)
	at com.example.Main.run(Main.java:10)
	- locked <0x0000000700000001> (a ` + class + `)

`
	}
	head := "2026-12-01 10:00:00\nFull thread dump OpenJDK 64-Bit Server VM (17 mixed mode):\n\n"
	a, b := thread("joiner-1", "java.lang.Thread"), thread("joiner-2", "com.foo.Worker")
	var vias [][]string
	for _, text := range []string{head + a + b, head + b + a} {
		ds, err := parse.Parse("v.txt", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		var got []string
		for _, p := range r.Pools {
			for _, g := range p.States {
				got = append(got, p.Name+"/"+g.State+"/"+g.Via)
			}
		}
		slices.Sort(got)
		vias = append(vias, got)
	}
	if !slices.Equal(vias[0], vias[1]) {
		t.Errorf("the vias depend on thread order:\n  %v\n  %v", vias[0], vias[1])
	}
	if !slices.ContainsFunc(vias[0], func(s string) bool { return strings.HasSuffix(s, "/com.foo.Worker") }) {
		t.Errorf("no group via com.foo.Worker: %v", vias[0])
	}
}
