package parse

import (
	"fmt"
	"io"
	"time"
)

// Options tune a parse. The zero value is what dumpdiff uses (Parse and
// ParseFile); tests set small limits, a fixed clock or a stand-in jfr tool.
type Options struct {
	// checkedTrace reads every generation of a Go execution trace with
	// x/exp/trace (the checked path) instead of our own reader first: the
	// tests' reference.
	checkedTrace bool

	// MaxLine is the longest line read, in bytes. A longer line is skipped
	// and counted (Dump.Skipped inside a dump, NoDumpError outside), never
	// held whole. 0 means DefaultMaxLine.
	MaxLine int
	// MaxInflated caps what a gzip stream may expand to and what a format
	// read whole (JSON, proto, a JFR recording from a stream) may hold.
	// 0 means DefaultMaxInflated.
	MaxInflated int64
	// HPROFBudget caps what the heap dump reader keeps of a file: its
	// symbols, class layouts, frames, thread objects and wanted ids, in
	// bytes of memory (hprof.go). 0 means DefaultHPROFBudget.
	HPROFBudget int64
	// JFR is the path of the JDK's jfr tool; empty means the jfr on the
	// PATH, else $JAVA_HOME/bin/jfr.
	JFR string
	// Now dates log prefixes printed without a year (syslog, journalctl's
	// short output): the year that puts the date at most a day after Now.
	// The zero value means time.Now().
	Now time.Time
}

// Default limits. A 100,000-goroutine debug=2 dump is 91 MB with lines
// under 1 KiB; the longest real lines are JVM thread names and Go
// argument lists, far under 1 MiB.
const (
	DefaultMaxLine     = 1 << 20 // 1 MiB
	DefaultMaxInflated = 2 << 30 // 2 GiB
	// DefaultHPROFBudget: a real dump of a large service keeps a few tens
	// of MiB (its symbols); the cap is for a hostile or corrupt file.
	DefaultHPROFBudget = 256 << 20 // 256 MiB
)

func (o Options) maxLine() int {
	if o.MaxLine > 0 {
		return o.MaxLine
	}
	return DefaultMaxLine
}

func (o Options) maxInflated() int64 {
	if o.MaxInflated > 0 {
		return o.MaxInflated
	}
	return DefaultMaxInflated
}

func (o Options) hprofBudget() int64 {
	if o.HPROFBudget > 0 {
		return o.HPROFBudget
	}
	return DefaultHPROFBudget
}

func (o Options) now() time.Time {
	if o.Now.IsZero() {
		return time.Now()
	}
	return o.Now
}

// TooLargeError says that an input grew past a limit: a gzip stream that
// expands past MaxInflated (a gzip bomb, or something that is no dump), or
// a whole-read format larger than it.
type TooLargeError struct {
	What  string // "gzip stream", "JSON input"
	Limit int64
}

func (e *TooLargeError) Error() string {
	verb := "is larger than"
	if e.What == "gzip stream" {
		verb = "expands past"
	}
	return fmt.Sprintf("%s %s %s: not a dump", e.What, verb, byteSize(e.Limit))
}

// byteSize writes n as "2 GiB", "1 MiB", "640 KiB" or "12 bytes".
func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// capReader returns a *TooLargeError once more than max bytes were read
// from r. It reads one byte past max to tell "exactly max" from "more".
type capReader struct {
	r    io.Reader
	n    int64
	max  int64
	what string
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.n > c.max {
		return 0, &TooLargeError{What: c.what, Limit: c.max}
	}
	if room := c.max + 1 - c.n; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.max {
		return n - int(c.n-c.max), &TooLargeError{What: c.what, Limit: c.max}
	}
	return n, err
}

// readAllCapped reads r whole, failing with a *TooLargeError past max bytes.
func readAllCapped(r io.Reader, max int64, what string) ([]byte, error) {
	return io.ReadAll(&capReader{r: r, max: max, what: what})
}
