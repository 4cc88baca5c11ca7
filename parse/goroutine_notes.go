package parse

import (
	"bytes"
	"fmt"
	"strconv"
)

// Notes and lead-ins: what tools and people put around a Go dump's
// goroutines.
//
// A lead-in is text in front of a goroutine header on the header's own
// line; the header is read after it, and the line starts a dump:
//
//	Leaked goroutine: goroutine 30 [select]:                 grpc's internal/leakcheck
//	    leakcheck.go:131: Leaked goroutine: goroutine 30 [select]:    the same through t.Errorf:
//	        google.golang.org/grpc.(*addrConn).resetTransport(...)    go test indents the
//	        	/src/grpc/clientconn.go:1203 +0x5a                      message's later lines
//
// In the t.Errorf form, the first line after such a header that is a
// function, "created by" or file line once its leading spaces are off
// fixes those spaces as the dump's continuation indent (contIndent),
// taken off every later line that has it.
//
// A note is a line of its own between goroutines. It is never a
// goroutine's and never a dump's boundary: it is skipped, and recorded in
// Dump.Skipped with what it is (noteReason) when the dump goes on after it
// (goroutine_text.go's rule for lines no rule knows):
//
//	 Goroutine 8 in state semacquire, with sync.runtime_Semacquire on top of the stack:    goleak
//	[Goroutine 8 in state ...                                                             goleak, first record
//	=== RUN   TestPool/case_3, --- FAIL: TestPool (2.00s), === CONT, === PAUSE           go test -v
//	## the stuck one                                                                      a person's note
//	panic: test timed out after 2s (inside a dump)                                        go test
//
// Cost: none on a dump as the runtime writes it: both are looked for only
// on lines no other rule knows.

// goTestTimeout starts the panic go test prints when a test runs past
// -timeout. Inside a dump that began with a goroutine it is a note (the
// dump goes on), recorded in Skipped; at a dump's start it is the dump's
// own prologue.
var goTestTimeout = []byte("panic: test timed out after ")

// goLeadIns are the lead-ins before a goroutine header (read-only).
var goLeadIns = [][]byte{
	[]byte("Leaked goroutine: "), // grpc internal/leakcheck: logger.Errorf("Leaked goroutine: %v", g)
}

// goLeadIn returns the index of the goroutine header after a lead-in on
// line, or 0 when line holds none. Text before the lead-in (a logger's
// prefix, go test's "    leakcheck.go:131: ") is part of it.
func goLeadIn(line []byte) int {
	for _, li := range goLeadIns {
		if i := bytes.Index(line, li); i >= 0 && isGoHeader(line[i+len(li):]) {
			return i + len(li)
		}
	}
	return 0
}

// continued reads line, a line no rule knows right after a header read
// after a lead-in, as a goroutine's line indented by go test: ok when,
// its leading spaces off, it is a function, "created by" or file line.
func (s *goTextScan) continued(line []byte) ([]byte, goLineKind, int, bool) {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	if n == 0 || n == len(line) {
		return line, glUnknown, 0, false
	}
	k, p := classifyGoLineParen(line[n:])
	if k != glFunc && k != glCreatedBy && k != glFile {
		return line, glUnknown, 0, false
	}
	return s.p.ls.learnCont(n), k, p, true
}

// noteReason says what a line not understood inside a Go dump is, for
// its Skipped entry.
func noteReason(line []byte) string {
	t := bytes.TrimLeft(line, " [")
	switch {
	case bytes.HasPrefix(t, []byte("Goroutine ")) && bytes.HasSuffix(line, []byte("on top of the stack:")):
		return "goleak's line before a goroutine: skipped"
	case bytes.HasPrefix(line, []byte("=== ")), bytes.HasPrefix(line, []byte("--- FAIL: ")),
		bytes.HasPrefix(line, []byte("--- PASS: ")), bytes.HasPrefix(line, []byte("--- SKIP: ")):
		return "go test line between goroutines: skipped"
	}
	return "line not understood in a Go dump"
}

// The tests go test was running when it timed out. Its timeout panic
// (testing's startAlarm, Go 1.20+) names them before the goroutines (Go
// 1.20–1.22 with "running tests:" at the line's start and each test one
// tab in; before 1.20 it names none: analyze finds them under
// testing.tRunner):
//
//	panic: test timed out after 10m0s
//		running tests:
//			TestTransfer (10m0s)
//			TestDrain/slow (9m58s)
//
//	goroutine 5 [running]:
//
// They are the tests that hung: kept in Dump.RunningTests as printed.

// testsState is where a prologue is in the list of running tests.
type testsState uint8

const (
	testsNone    testsState = iota // no go test timeout read
	testsTimeout                   // "panic: test timed out after D" read
	testsList                      // "running tests:" read: test lines follow
)

var goRunningTests = []byte("running tests:")

// testsLine reads a prologue line for the tests of a go test timeout.
func (s *goTextScan) testsLine(line []byte) {
	switch {
	case bytes.HasPrefix(line, goTestTimeout):
		s.tests = testsTimeout
	case s.tests == testsTimeout && bytes.Equal(bytes.TrimSpace(line), goRunningTests):
		s.tests = testsList
	case s.tests == testsList && len(line) > 1 && (line[0] == '\t' || line[0] == ' ') && len(bytes.TrimSpace(line)) > 0:
		// Go 1.20–1.22 print the list one tab in ("\tTestTransfer (2s)"
		// under "running tests:"), later ones two under "\trunning tests:".
		s.d.RunningTests = append(s.d.RunningTests, string(bytes.TrimSpace(line)))
	default:
		s.tests = testsNone
	}
}

// contIndent is the indentation go test gives the lines of a t.Log
// message after its first: taken off every line that begins with it.
type contIndent struct{ cont []byte }

func (c *contIndent) rank() int { return 0 }

func (c *contIndent) undo(line []byte) []byte {
	if bytes.HasPrefix(line, c.cont) {
		return line[len(c.cont):]
	}
	return line
}

// learnCont takes the first n bytes of the line last returned off it and
// off every later line of the dump that begins with them, and returns the
// line without them.
func (s *lineSource) learnCont(n int) []byte {
	s.addRewrite(&contIndent{cont: bytes.Clone(s.line[:n])})
	s.line = s.line[n:]
	return s.line
}

// goleak (go.uber.org/goleak) fails a test that leaves goroutines behind,
// printing each one after a record of its own (t.Error's message, indented
// by go test):
//
//	leak_test.go:62: found unexpected goroutines:
//	    [Goroutine 9 in state chan receive, with example.com/gl.(*pool).work on top of the stack:
//	    example.com/gl.(*pool).work(...)                                       goleak 1.3+: the record
//	    	/tmp/gl/leak_test.go:28                                             is the header
//	     Goroutine 13 in state select (no cases), with ...
//	    goroutine 13 [select (no cases)]:                                      before 1.3: the header
//	    ]                                                                      follows it
//
// Since 1.3 (2023) the record is the goroutine's only header: it is read
// as "goroutine 9 [chan receive]:". The dump is goleak's verdict: every
// goroutine in it was left running by the test (Dump.Kind "goleak").

// goleakHeadline is the dump's headline: goleak's own words.
const goleakHeadline = "goleak: found unexpected goroutines"

// goleakRec is a record read and held until the next line.
type goleakRec struct {
	no           int // its line; 0 when none is held
	id           int64
	line, header []byte // the record, and the header it stands for
}

// goleakHeader writes the goroutine header a record stands for: goleak's
// state is the header's text after the id, its '[' and last ']' trimmed,
// so a header with labels after its reason (Go 1.27: "[chan receive]
// {pool: consumers}:") kept its ']' inside.
func goleakHeader(buf []byte, id int64, state []byte) []byte {
	buf = fmt.Appendf(buf[:0], "goroutine %d [%s", id, state)
	if !bytes.Contains(state, []byte("] {")) {
		buf = append(buf, ']')
	}
	return append(buf, ':')
}

// goleakRecord reads goleak's record of a goroutine: its id and state.
func goleakRecord(line []byte) (id int64, state []byte, ok bool) {
	t := line
	if len(t) > 0 && (t[0] == '[' || t[0] == ' ') {
		t = t[1:] // the first record opens goleak's list, the others follow ", "'s space
	}
	rest, found := bytes.CutPrefix(t, []byte("Goroutine "))
	if !found || !bytes.HasSuffix(t, []byte(" on top of the stack:")) {
		return 0, nil, false
	}
	sp := bytes.IndexByte(rest, ' ')
	if sp <= 0 {
		return 0, nil, false
	}
	n, err := strconv.ParseInt(string(rest[:sp]), 10, 64)
	if err != nil || n < 0 {
		return 0, nil, false
	}
	st, found := bytes.CutPrefix(rest[sp:], []byte(" in state "))
	if !found {
		return 0, nil, false
	}
	i := bytes.LastIndex(st, []byte(", with ")) // a label's value may hold one; a function's name not
	if i <= 0 {
		return 0, nil, false
	}
	return n, st[:i], true
}
