package parse

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// parseFastAndSlow parses data with the frame fast path on and off and
// returns both results and the number of frames the fast path took.
func parseFastAndSlow(t testing.TB, data []byte, o Options) (fast, slow []*Dump, taken int) {
	t.Helper()
	defer func(old bool) { goFastFrames = old; goFastCounted = nil }(goFastFrames)
	goFastCounted = func(n int) { taken += n }
	goFastFrames = true
	fast, errFast := o.Parse("in.txt", bytes.NewReader(data))
	goFastFrames = false
	slow, errSlow := o.Parse("in.txt", bytes.NewReader(data))
	if fmt.Sprint(errFast) != fmt.Sprint(errSlow) {
		t.Fatalf("errors differ: fast %v, line by line %v", errFast, errSlow)
	}
	return fast, slow, taken
}

// fastEdgeDump is a dump of goroutines whose stacks repeat (so that the
// builder's guesses hold), with the lines the fast path must leave to the
// line-by-line path mixed in: CRLF endings, a file line of another
// function on the guessed line (two closures on one line), a function
// line that starts like the guess but does not end in ')', a file line
// without a line number, "goroutine running on other thread", an
// unreadable header followed by frames, ancestors, sync frames with an
// address, elided frames and a long line.
func fastEdgeDump(n int) []byte {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		nl := "\n"
		if i%7 == 3 {
			nl = "\r\n"
		}
		w := func(s string) { b.WriteString(s + nl) }
		switch i % 11 {
		case 5:
			w(fmt.Sprintf("goroutine %d [bad", i)) // unreadable header: its frames belong to no goroutine
		case 6:
			w(fmt.Sprintf("goroutine %d gp=0x%x m=nil [chan receive, %d minutes]:", i, 0xc000+i, i%4))
		default:
			w(fmt.Sprintf("goroutine %d [IO wait]:", i))
		}
		if i%13 == 4 {
			w("\tgoroutine running on other thread; stack unavailable")
			w("")
			continue
		}
		w(fmt.Sprintf("sync.(*Mutex).Lock(0x%x)", 0xc0000a6000+i%3))
		w("\t/usr/lib/go/src/sync/mutex.go:90 +0x1d")
		w(fmt.Sprintf("internal/poll.runtime_pollWait(0x%x, 0x72)", 0x7f00+i))
		w("\t/usr/lib/go/src/runtime/netpoll.go:351 +0x85")
		switch i % 5 {
		case 0:
			w("main.handler.func1()") // a closure on its parent's line
			w("\t/app/main.go:40 +0x1b")
		case 1:
			w("main.handler(0x1) trailing") // starts like the guess, is not a function line
			w("\t/app/main.go:40 +0x57")
		case 2:
			w("main.handler(...)")
			w("\t/app/main.go") // no line number
		default:
			w(fmt.Sprintf("main.handler(0x%x)", i))
			w("\t/app/main.go:40 +0x57")
		}
		if i%17 == 9 {
			w("...additional frames elided...")
		}
		if i%19 == 2 {
			w("main.orphan()") // a function line without its file line
		}
		if i%23 == 8 {
			w("main.long(" + strings.Repeat("0x1, ", 40) + "0x1)")
			w("\t/app/long.go:1 +0x1")
		}
		w(fmt.Sprintf("created by main.main in goroutine %d", 1+i%2))
		w("\t/app/main.go:12 +0x8d2")
		if i%29 == 10 {
			w("[originating from goroutine 1]:")
			w("main.main()")
			w("\t/app/main.go:12 +0x8d2")
		}
		w("")
	}
	return []byte(b.String())
}

// TestFastFramesSame checks that the frame fast path gives the dump the
// line-by-line path gives, skipped lines and line numbers included, on
// the corpus and on the edge cases above (small and spanning many
// buffer fills), and that it did run.
func TestFastFramesSame(t *testing.T) {
	inputs := goCorpusTexts(t)
	corpus := len(inputs)
	for name, data := range map[string][]byte{
		"edges":         fastEdgeDump(200),
		"edges 5 MiB":   fastEdgeDump(40000), // lines across the reader's 1 MiB buffer
		"cut mid-frame": fastEdgeDump(50)[:4000],
		"no final nl":   bytes.TrimSuffix(fastEdgeDump(20), []byte("\n\n")),
		"junk and orphans": []byte("goroutine 1 [running]:\nmain.main()\nmain.x()\n\tx.go:1\nlog line\n\tno number\n" +
			"goroutine 2 [bad\nmain.y()\n\ty.go:2 +0x1\ncreated by main.main\n\tm.go:3\n[originating from goroutine 1]:\nmain.z(...)\n\tz.go:4\n"),
		"frame then EOF": []byte("goroutine 1 [running]:\nmain.a()\n\t/a.go:1 +0x1\n\ngoroutine 2 [running]:\nmain.a()\n\t/a.go:1 +0x1"),
	} {
		inputs[name] = data
	}
	for name, data := range inputs {
		for _, o := range []Options{{}, {MaxLine: 120}} {
			fast, slow, taken := parseFastAndSlow(t, data, o)
			if strings.HasPrefix(name, "edges") && taken == 0 {
				t.Errorf("%s: the fast path took no frame", name)
			}
			if len(data) > 1<<20 {
				var a, b bytes.Buffer
				WriteCanonical(&a, fast)
				WriteCanonical(&b, slow)
				if a.String() != b.String() {
					t.Errorf("%s (MaxLine %d): the fast path and line by line differ", name, o.MaxLine)
				}
				continue
			}
			if diff := cmp.Diff(slow, fast); diff != "" {
				t.Errorf("%s (MaxLine %d): fast path differs (-line by line +fast):\n%s", name, o.MaxLine, diff)
			}
		}
	}
	if corpus == 0 {
		t.Log("../shared/corpus absent: compared on the generated edge cases only")
	}
}

// FuzzFastFrames compares both paths on arbitrary input.
func FuzzFastFrames(f *testing.F) {
	f.Add(fastEdgeDump(30))
	addCorpusSeeds(f, "*.txt", 16<<10)
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, slow, _ := parseFastAndSlow(t, data, Options{})
		if reflect.DeepEqual(slow, fast) {
			return
		}
		if diff := cmp.Diff(slow, fast); diff != "" {
			t.Fatalf("fast path differs (-line by line +fast):\n%s", diff)
		}
	})
}

// TestSameStatusAsParse checks the builder's remembered statuses: every
// header of the corpus, and headers that share a status's bytes with
// labels, flags, a bubble or a bad id, read one after another by one
// builder, give the thread parseGoHeader gives each alone.
func TestSameStatusAsParse(t *testing.T) {
	headers := []string{
		"goroutine 1 [chan receive]:",
		"goroutine 2 [chan receive]:",
		"goroutine 3 gp=0x25e31a5321e0 m=nil [chan receive]:",
		"goroutine 4 [chan receive, 5 minutes]:",
		"goroutine 5 [chan receive, 6 minutes]:",
		"goroutine 6 [chan receive, 5 minutes]:",
		`goroutine 7 [select labels:{"pool": "ingest"}]:`,
		"goroutine 8 [select]:",
		`goroutine 9 [select] {pool: ingest}:`,
		"goroutine 10 [select]:",
		"goroutine 11 [select, locked to thread]:",
		"goroutine 12 [select, locked to thread]:",
		"goroutine 13 [chan send (leaked)]:",
		"goroutine 14 [chan send (leaked)]:",
		"goroutine 15 [chan receive (durable), synctest bubble 1]:",
		"goroutine 16 [chan receive (durable), synctest bubble 1]:",
		"goroutine 99999999999999999999 [chan receive]:", // id overflows: not understood
		"goroutine 17 [chan receive]",                    // no colon
		"goroutine 18 [chan receive]:",
	}
	for _, data := range goCorpusTexts(t) {
		for _, line := range strings.Split(string(data), "\n") {
			if isGoHeader([]byte(line)) {
				headers = append(headers, line)
			}
		}
	}
	b := newGoBuilder(newInterner())
	remembered := 0
	for i, h := range headers {
		var want Thread
		ok := parseGoHeader([]byte(h), newInterner(), &want)
		var got Thread
		id, idOK := goHeaderID([]byte(h))
		hit := idOK && b.sameStatus([]byte(h), id, &got)
		if hit {
			remembered++
		} else if !idOK || !b.parseHeader([]byte(h), id, &got) {
			if ok {
				t.Errorf("header %d %q: not understood, parseGoHeader reads it", i, h)
			}
			continue
		}
		if !ok {
			t.Errorf("header %d %q: understood (remembered %v), parseGoHeader refuses it", i, h, hit)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("header %d %q (remembered %v): (-parseGoHeader +builder)\n%s", i, h, hit, diff)
		}
	}
	if remembered == 0 {
		t.Error("no status was remembered")
	}
}
