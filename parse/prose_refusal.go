package parse

import "strings"

// A text about threads is not a dump. An issue body or a README quotes a
// goroutine's header ("goroutine 42 [chan receive]:") or a JVM state line
// ("java.lang.Thread.State: WAITING (parking)") among its sentences; each
// is a line a dump may start with, and the text formats read one as a
// dump of one thread that shows nothing: no frame, no lock, no deadlock,
// no line of a stack skipped (words between two quotes are skipped as
// notes: they are no stack). Such a "dump" is refused (parseText passes
// it over, and says what it is when the input holds no other dump),
// never read as a moment with a confident state.
//
// Which quotes: goroutines without a frame (a goroutine the runtime
// could not walk says so: NoStack, kept), and JVM threads with no header
// (a state line alone). A JVM thread header alone stays a paste of that
// thread (jstack_excerpt.go: the JVM's own threads print no stack, and a
// paste of one reads as the whole dump reads it), and so does Karaf's
// one-thread line over its empty "Stacktrace:". A Go crash keeps its
// headline, go test its hung tests, a deadlock report its cycle.

// proseThreadsRefusal is what such a text is said to be.
const proseThreadsRefusal = "a thread or goroutine header, or a state line, quoted alone with no stack, lock or deadlock under it: " +
	"text about threads, not a dump; paste the whole dump (jstack PID, kill -3, /debug/pprof/goroutine?debug=2)"

// emptyQuote reports whether d holds nothing but quoted goroutine
// headers or state lines (see above); f is the format that read it, when
// d says none.
func emptyQuote(d *Dump, f Format) bool {
	if d == nil || d.Kind != "" || d.Headline != "" || len(d.RunningTests) > 0 || len(d.Deadlocks) > 0 ||
		len(d.Threads) == 0 || len(d.Partial) > 0 {
		return false
	}
	for _, s := range d.Skipped {
		// A line of a stack the reader could not place (a file line
		// without its function: grep's output) is a stack, not words.
		if strings.Contains(s.Text, ".go:") || strings.HasPrefix(s.Text, "\t") || strings.Contains(s.Text, ".java:") {
			return false
		}
	}
	if d.Format != "" {
		f = d.Format
	}
	for _, t := range d.Threads {
		if len(t.Frames) > 0 || len(t.Locks()) > 0 || t.CreatedBy != nil || t.NoStack {
			return false
		}
		switch {
		case f.Runtime() == RuntimeGo:
		case d.Excerpt != "" && t.JVM != nil && t.Line > 0 && unnamedThread(t.JVM.Name):
		default:
			return false
		}
	}
	return true
}

// unnamedThread is the name a JVM paste's thread gets when no header
// named it ("(unnamed 1)": jstack_excerpt.go).
func unnamedThread(name string) bool {
	return len(name) > 9 && name[:9] == "(unnamed " && name[len(name)-1] == ')'
}
