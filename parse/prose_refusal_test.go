package parse

import (
	"errors"
	"math/rand"
	"os"
	"strings"
	"testing"
)

// TestProseIsNoDump: texts that talk about threads, quoting a header, a
// state line or a frame among their sentences, are refused with what they
// are; a quote that holds a stack is read (as the part it is).
func TestProseIsNoDump(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		looks string // the refusal; "" when read as a dump
	}{
		{"a goroutine header alone", "The log shows:\n\ngoroutine 42 [chan receive]:\n\nand then it stopped. Any idea?\n", proseThreadsRefusal},
		// A JVM header alone stays a paste of that thread, said as a part
		// (jstack_excerpt.go: the JVM's own threads print no stack).
		{"a HotSpot header alone is a part", "I got this:\n\n\"http-nio-8080-exec-1\" #31 daemon prio=5 os_prio=0 tid=0x00007f1c nid=0x2b waiting on condition [0x00007f1b]\n\nand nothing else.\n", ""},
		{"a state line in a README", "The worker thread (see \"worker-1\" in jstack) is in state:\n   java.lang.Thread.State: WAITING (parking)\nwhen idle.\n", proseThreadsRefusal},
		{"one frame quoted in an issue body", "It hangs in the pool:\n\n    at com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:181)\n\nAll threads are busy.\n", excerptFramesRefusal},
		{"two goroutine headers in prose", "goroutine 1 [running]:\nis what it printed, and later\ngoroutine 7 [select]:\nthen nothing.\n", proseThreadsRefusal},
		{"a frame with its lock is a part of a stack", "It hangs here:\n\n    at com.foo.Bar.baz(Bar.java:12)\n    - locked <0x000000076b0> (a java.lang.Object)\n\nthanks\n", ""},
		{"a goroutine with its frame is a dump", "goroutine 42 [chan receive]:\nmain.worker()\n\t/src/main.go:12 +0x1d\n", ""},
		{"a Go crash's headline is kept", "panic: boom\n\ngoroutine 1 [running]:\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps, err := Parse("issue.md", strings.NewReader(tt.in))
			if tt.looks == "" {
				if err != nil || len(dumps) == 0 {
					t.Fatalf("got %v, want a dump", err)
				}
				if dumps[0].Format == FormatJVMText && dumps[0].Excerpt == "" {
					t.Errorf("a quote read as a whole dump")
				}
				return
			}
			var nd *NoDumpError
			if !errors.As(err, &nd) {
				t.Fatalf("got %d dumps (%v), want none", len(dumps), err)
			}
			if nd.Looks != tt.looks {
				t.Errorf("looks %q, want %q", nd.Looks, tt.looks)
			}
		})
	}
}

// TestProseGenerated is the generated test: sentences with one to three
// goroutine headers or JVM state lines of committed dumps among them (no
// frame, no lock line) are never read as a dump.
func TestProseGenerated(t *testing.T) {
	var quotes []string
	for _, file := range []string{"../testdata/go/go1.26.8-debug2.txt", "../testdata/formats/jstack-jdk17__deadlocks-whole.txt", "../testdata/formats/go-test-timeout.txt"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(data), "\n") {
			tl := strings.TrimSpace(l)
			if strings.HasPrefix(l, "goroutine ") && strings.HasSuffix(l, "]:") || strings.HasPrefix(tl, "java.lang.Thread.State: ") {
				quotes = append(quotes, l)
			}
		}
	}
	if len(quotes) < 20 {
		t.Fatalf("%d quotable lines", len(quotes))
	}
	sentences := []string{"We upgraded to 2.3 last week.", "Since then the service hangs on startup.", "", "Any idea?",
		"The thread dump shows it stuck:", "see the attached file", "- it happens every night", "Thanks!"}
	rng := rand.New(rand.NewSource(33))
	for i := 0; i < 500; i++ {
		var b strings.Builder
		n := 1 + rng.Intn(3)
		for k := 0; k < n; k++ {
			for j := rng.Intn(4); j >= 0; j-- {
				b.WriteString(sentences[rng.Intn(len(sentences))] + "\n")
			}
			b.WriteString(quotes[rng.Intn(len(quotes))] + "\n")
			b.WriteString(sentences[rng.Intn(len(sentences)-1)+1] + "\n") // a sentence, never blank, after the quote
		}
		dumps, err := Parse("issue.md", strings.NewReader(b.String()))
		if err == nil {
			t.Fatalf("text %d read as %d dumps (%d threads):\n%s", i, len(dumps), dumps[0].ThreadCount(), b.String())
		}
	}
}
