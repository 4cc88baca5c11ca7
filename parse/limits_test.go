package parse

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const smallGoDump = "goroutine 1 [chan receive]:\nmain.main()\n\t/src/main.go:12 +0x1d\n"

func TestLongLines(t *testing.T) {
	long := strings.Repeat("x", 100)
	tests := []struct {
		name    string
		in      string
		max     int
		dumps   int
		skipped []Skipped
		err     string
	}{
		{"inside a dump", "goroutine 1 [chan receive]:\n" + long + "\nmain.main()\n\t/src/main.go:12 +0x1d\n", 64, 1,
			[]Skipped{{Line: 2, Text: long[:64], Reason: "line longer than 64 bytes (100 bytes): skipped without being read whole"}}, ""},
		{"at the limit", "goroutine 1 [chan receive]:\nmain.main(" + strings.Repeat("0", 51) + ")\n\t/src/main.go:12 +0x1d\n", 64, 1, nil, ""},
		{"last line, no newline", smallGoDump + "\n" + long, 64, 1, nil, ""},
		{"outside any dump", long + "\n" + smallGoDump, 64, 1, nil, ""},
		{"no dump", long + "\n" + long + "\nhello\n", 64, 0, nil,
			"no dump found: expected a Go goroutine dump (debug=2, panic, SIGQUIT), a goroutine profile (debug=1 text or proto), or a JVM thread dump (jstack, jcmd Thread.print, kill -3, jcmd JSON, Spring Boot Actuator, JFR, IBM or OpenJ9 javacore, a HotSpot heap dump) (2 line(s) longer than 64 bytes skipped unread)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps, err := Options{MaxLine: tt.max}.Parse("long.txt", strings.NewReader(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || len(dumps) != tt.dumps {
				t.Fatalf("got %d dumps, %v", len(dumps), err)
			}
			if len(dumps[0].Threads) != 1 || len(dumps[0].Threads[0].Frames) != 1 {
				t.Errorf("goroutine not read whole: %+v", dumps[0].Threads)
			}
			if diff := cmp.Diff(tt.skipped, dumps[0].Skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTooLarge(t *testing.T) {
	if got := (&TooLargeError{What: "gzip stream", Limit: DefaultMaxInflated}).Error(); got != "gzip stream expands past 2 GiB: not a dump" {
		t.Errorf("default limit: %q", got)
	}
	_, err := Options{MaxInflated: 1 << 20}.Parse("bomb.gz", zeroBomb(t, 2))
	var tl *TooLargeError
	if !errors.As(err, &tl) || err.Error() != "bomb.gz: gzip stream expands past 1 MiB: not a dump" {
		t.Errorf("got %v", err)
	}
	// Read whole (JSON): the same cap.
	_, err = Options{MaxInflated: 64}.Parse("big.json", strings.NewReader(`{"threads":[`+strings.Repeat(" ", 100)+`]}`))
	if !errors.As(err, &tl) || !strings.Contains(err.Error(), "is larger than 64 bytes: not a dump") {
		t.Errorf("JSON: got %v", err)
	}
}

// zeroBomb is a gzip stream of n MiB of zero bytes: n members of one MiB
// each (gzip readers read concatenated members as one stream), so it is
// made in microseconds.
func zeroBomb(t testing.TB, n int) io.Reader {
	var m bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&m, gzip.BestCompression)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	member := m.Bytes()
	readers := make([]io.Reader, n)
	for i := range readers {
		readers[i] = bytes.NewReader(member)
	}
	return io.MultiReader(readers...)
}

// repeatReader yields n copies of b.
type repeatReader struct {
	b []byte
	n int64 // bytes left
	i int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && r.n > 0 {
		c := copy(p[k:min(len(p), k+int(r.n))], r.b[r.i:])
		k += c
		r.n -= int64(c)
		r.i = (r.i + c) % len(r.b)
	}
	return k, nil
}

// allocated runs f and returns the bytes it allocated (runtime.MemStats
// TotalAlloc: every allocation counts, freed or not, so a line held whole
// even for a moment shows).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestBoundedMemory streams inputs far larger than any buffer through the
// parser: a 128 MiB gzip bomb of zeros (one line), and 64 MiB of one line
// before a real dump. Neither line is ever held: the parse allocates a few
// MiB, where holding either would allocate its size.
func TestBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 192 MiB")
	}
	const limit = 16 << 20
	var err error
	n := allocated(func() {
		_, err = Options{MaxInflated: 96 << 20}.Parse("bomb.gz", zeroBomb(t, 128))
	})
	if err == nil || err.Error() != "bomb.gz: gzip stream expands past 96 MiB: not a dump" {
		t.Errorf("bomb: got %v", err)
	}
	if n > limit {
		t.Errorf("bomb: the parse allocated %d MiB, want at most %d", n>>20, limit>>20)
	}
	t.Logf("128 MiB gzip bomb: %.1f MiB allocated", float64(n)/(1<<20))

	var dumps []*Dump
	n = allocated(func() {
		long := &repeatReader{b: []byte("0123456789abcdef"), n: 64 << 20}
		dumps, err = Parse("long.txt", io.MultiReader(long, strings.NewReader("\n"+smallGoDump)))
	})
	if err != nil || len(dumps) != 1 || len(dumps[0].Threads) != 1 {
		t.Fatalf("long line then a dump: %d dumps, %v", len(dumps), err)
	}
	if n > limit {
		t.Errorf("long line: the parse allocated %d MiB, want at most %d", n>>20, limit>>20)
	}
	t.Logf("64 MiB line: %.1f MiB allocated", float64(n)/(1<<20))
}
