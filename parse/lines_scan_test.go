package parse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// refLines is the line source as it was before it scanned its buffer in
// place: one bufio.ReadSlice per line. The tests below hold lineSource to
// it, line by line.
type refLines struct {
	r         *bufio.Reader
	max       int
	n         int
	long      []byte
	eof       bool
	err       error
	held      []Skipped
	longLines int
}

func (s *refLines) read() ([]byte, bool, bool) {
	for {
		if s.eof {
			return nil, false, false
		}
		line, err := s.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull || len(line) > s.max+1 {
			s.long = append(s.long[:0], line[:min(len(line), s.max+1)]...)
			size := int64(len(line))
			for err == bufio.ErrBufferFull {
				line, err = s.r.ReadSlice('\n')
				size += int64(len(line))
				if room := s.max + 1 - len(s.long); room > 0 {
					s.long = append(s.long, line[:min(len(line), room)]...)
				}
			}
			content := size
			if len(line) > 0 && line[len(line)-1] == '\n' {
				content--
			}
			if content <= int64(s.max) {
				line = s.long
			} else {
				s.n++
				s.longLines++
				text := s.long[:min(len(s.long), s.max, 200)]
				s.held = append(s.held, Skipped{Line: s.n, Text: string(text), Reason: fmt.Sprintf("line longer than %s (%d bytes): skipped without being read whole", byteSize(int64(s.max)), content)})
				if err != nil {
					s.eof = true
					if !errors.Is(err, io.EOF) {
						s.err = err
					}
				}
				continue
			}
		}
		if err != nil {
			s.eof = true
			if !errors.Is(err, io.EOF) {
				s.err = err
			}
			if len(line) == 0 {
				return nil, false, false
			}
		}
		s.n++
		partial := len(line) == 0 || line[len(line)-1] != '\n'
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		return line, partial, true
	}
}

// scanStep is what one call of next gave.
type scanStep struct {
	Line    string
	No      int
	Partial bool
	EOF     bool
}

func scanAll(in string, max int, wrap func(io.Reader) io.Reader, unreadEvery int) (steps []scanStep, held []Skipped, long int, err error) {
	ls := newLineSource("t", wrap(strings.NewReader(in)), max)
	for k := 1; ; k++ {
		line, ok := ls.next()
		if !ok {
			break
		}
		steps = append(steps, scanStep{string(line), ls.lineNo(), ls.partial, ls.eof})
		if unreadEvery > 0 && k%unreadEvery == 0 {
			ls.unread()
			again, _ := ls.next()
			if string(again) != string(line) {
				panic("unread gave another line")
			}
		}
	}
	return steps, ls.held, ls.longLines, ls.Err()
}

func refAll(in string, max int, wrap func(io.Reader) io.Reader) (steps []scanStep, held []Skipped, long int, err error) {
	s := &refLines{r: bufio.NewReaderSize(wrap(strings.NewReader(in)), 1<<20), max: max}
	if max <= 0 {
		s.max = DefaultMaxLine
	}
	for {
		line, partial, ok := s.read()
		if !ok {
			break
		}
		steps = append(steps, scanStep{string(line), s.n, partial, s.eof})
	}
	return steps, s.held, s.longLines, s.err
}

var errScanTest = errors.New("disk on fire")

// scanWraps are the ways an input is given: whole, a byte at a time, in
// halves, with data and io.EOF together, and ending in a read error.
var scanWraps = []struct {
	name string
	wrap func(io.Reader) io.Reader
}{
	{"whole", func(r io.Reader) io.Reader { return r }},
	{"one byte", iotest.OneByteReader},
	{"half", iotest.HalfReader},
	{"data and EOF", iotest.DataErrReader},
	{"read error", func(r io.Reader) io.Reader { return io.MultiReader(r, iotest.ErrReader(errScanTest)) }},
}

func checkScanSame(t *testing.T, in string, max int) {
	t.Helper()
	for _, w := range scanWraps {
		want, wantHeld, wantLong, wantErr := refAll(in, max, w.wrap)
		for _, unread := range []int{0, 3} {
			got, held, long, err := scanAll(in, max, w.wrap, unread)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s, max %d: lines (-old +new):\n%s", w.name, max, diff)
			}
			if diff := cmp.Diff(wantHeld, held); diff != "" {
				t.Fatalf("%s, max %d: held (-old +new):\n%s", w.name, max, diff)
			}
			if long != wantLong || !errors.Is(err, wantErr) && err != wantErr {
				t.Fatalf("%s, max %d: long lines %d, err %v; old %d, %v", w.name, max, long, err, wantLong, wantErr)
			}
		}
	}
}

// TestLineScanSame: the in-place scan gives the lines, numbers, partial
// and end-of-input flags, held long lines and errors of one ReadSlice per
// line, however the reader hands out its bytes.
func TestLineScanSame(t *testing.T) {
	mib := strings.Repeat("y", 1<<20)
	tests := []struct {
		name string
		in   string
		max  int
	}{
		{"empty", "", 0},
		{"one line", "goroutine 1 [running]:\n", 0},
		{"no final newline", "a\nb", 0},
		{"CRLF", "a\r\nb\r\n\r\nc\r", 0},
		{"blank lines", "\n\n\n", 0},
		{"long inside", "a\n" + strings.Repeat("x", 100) + "\nb\n", 64},
		{"at the limit", "a\n" + strings.Repeat("x", 64) + "\nb\n", 64},
		{"CR past the limit", "a\n" + strings.Repeat("x", 64) + "\r\nb\n", 64},
		{"long last", "a\n" + strings.Repeat("x", 100), 64},
		{"long last, limit+1", "a\n" + strings.Repeat("x", 65), 64},
		{"past the buffer", "a\n" + mib + "zz\nb\n", 0},
		{"past the buffer, under max", "a\n" + mib + "zz\nb\n", 2 << 20},
		{"buffer exactly", "a\n" + mib[:1<<20-3] + "\nb\n", 0},
		{"buffer and newline", mib + "\nb\n", 0},
		{"buffer, last", "a\n" + mib, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkScanSame(t, tt.in, tt.max) })
	}
}

// FuzzLineScan holds the in-place scan to one ReadSlice per line on
// arbitrary input and line caps.
func FuzzLineScan(f *testing.F) {
	f.Add([]byte("goroutine 1 [running]:\nmain.main()\n\t/a.go:1 +0x1\n"), uint8(0))
	f.Add([]byte("a\r\n\r\nbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\nc"), uint8(8))
	f.Fuzz(func(t *testing.T, data []byte, max uint8) {
		checkScanSame(t, string(data), int(max))
	})
}

// BenchmarkScanLines reads the lines of a Go dump and nothing else: the
// line source's share of BenchmarkParseGoDebug2.
func BenchmarkScanLines(b *testing.B) {
	path := filepath.Join(corpusDir, "go", "dumpdiff-gen__go1.26.8__lookup-goroutine-debug2-20000-goroutines.txt")
	if p := os.Getenv("DUMPDIFF_BENCH_FILE"); p != "" {
		path = p
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("corpus file not present (%v)", err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		ls := newLineSource("bench", bytes.NewReader(data), 0)
		n := 0
		for {
			line, ok := ls.next()
			if !ok {
				break
			}
			n += len(line)
		}
		if n == 0 {
			b.Fatal("no lines")
		}
	}
}
