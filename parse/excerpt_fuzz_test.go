package parse

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzExcerpt feeds the excerpt readers (jstack_excerpt.go,
// goroutine_aggregated.go) their committed fixtures and pieces of them:
// nothing panics, every thread has a weight, a JVM thread a name (one
// without a header is "(unnamed N)"), and every skipped line a position.
func FuzzExcerpt(f *testing.F) {
	for _, name := range []string{"jstack-jdk17__deadlock-report.txt", "jstack-jdk17__deadlock-summary.md", "jstack-jdk17__from-state-line.txt",
		"panicparse__go1.26.8-debug2.txt", "gotraceanalyzer__go-long-wait-leak.txt"} {
		b, err := os.ReadFile(filepath.Join(formatsDir, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 4<<10)])
		// Its second half: a paste that starts anywhere.
		if i := bytes.IndexByte(b[len(b)/2:], '\n'); i >= 0 {
			f.Add(b[len(b)/2+i+1:])
		}
	}
	f.Add([]byte("main\" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 runnable\n   java.lang.Thread.State: RUNNABLE\n\tat a.B.c(B.java:1)\n"))
	f.Add([]byte("\"w\"\n    at a.B.c(B.java:1)\n\n\"v\"\n    at a.B.d(B.java:2)\n"))
	f.Add([]byte("\tat a.B.c(B.java:1)\n\t- locked <0x1> (a java.lang.Object)\n"))
	f.Add([]byte("Java stack information for the threads listed above:\n===\n\"a\":\n\tat x.Y.z(Y.java:1)\n\t- waiting to lock <0x1> (a java.lang.Object)\n"))
	f.Add([]byte("2: chan send [0~2 minutes] [locked] [Created by main.f @ main.go:9]\n    main  main.go:10  f.func1()\n    (...)\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, _ := Options{MaxLine: 4 << 10}.Parse("fuzz.txt", bytes.NewReader(data))
		checkDumps(t, dumps)
		for _, d := range dumps {
			for _, th := range d.Threads {
				if th.Weight < 1 {
					t.Fatalf("weight %d", th.Weight)
				}
				if th.JVM != nil && d.Excerpt != "" && strings.TrimSpace(th.Name()) == "" && d.Format == FormatJVMText {
					t.Fatalf("a thread of an excerpt without a name: %+v", th)
				}
			}
			for _, s := range d.Skipped {
				if s.Line <= 0 {
					t.Fatalf("skipped line without position: %+v", s)
				}
			}
		}
	})
}
