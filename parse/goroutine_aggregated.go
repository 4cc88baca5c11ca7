package parse

import (
	"bytes"
	"fmt"
	"strconv"
)

// Aggregated goroutine listings: what tools that group a Go dump's
// goroutines by stack print, and people paste instead of the dump (issue
// 32). Each group is read as Weight identical goroutines, with its state,
// wait minutes and creator; the dump says it is an excerpt of that kind
// (no goroutine ids, the groups as the tool made them).
//
// panicparse's pp (github.com/maruel/panicparse, internal/ui.go
// BucketHeader and callLine):
//
//	1: running [Created by http.(*Server).Serve @ server.go:3464]       count: state [sleep] [locked] [Created by F @ file:line]
//	    pprof   pprof.go:819          writeGoroutineStacks({#1, #4})    package (last element), file:line, function(args)
//	80: chan send [0~2 minutes] [Created by main.handleSearch @ main.go:49]
//	    main    main.go:50            handleSearch.func1()
//	    (...)                                                           frames elided
//
// gotraceanalyzer (github.com/felixge/gotraceanalyzer): the runtime's own
// goroutine text under a count:
//
//	Showing 6 unique goroutines out of 230 total:
//
//	100 goroutines [sleep]:
//	time.Sleep(0x3b9aca00)
//		/usr/local/go/src/pkg/runtime/time.goc:31 +0x31
//
// Both are rewritten line by line into the runtime's text ("goroutine K
// [state, N minutes]:", a function line over its file line) and read by
// the Go text parser; the groups' counts, and the lines they came from,
// are put back on the goroutines read. What the rewrite cannot give back
// is said: pp prints a package's last element only ("http", not
// "net/http"), and a group's wait as a range of minutes ("0~2 minutes"),
// of which the least is kept (each goroutine of the group waited that
// long at least).

// formatGoAggregated names the aggregated listings in the detection
// chain only: a dump read from one is a FormatGoText dump that says it is
// an excerpt. Its own name keeps the chain's rules for the runtime's text
// (a goroutine header is a dump's start only where it ends like one) off
// its first lines, which no runtime prints and a log rarely does.
const formatGoAggregated Format = "go-aggregated"

// goWaitReasons are the states the Go runtime prints in a goroutine's
// header (runtime2.go waitReasonStrings and gStatusStrings, Go 1.26, with
// older reasons): an aggregated group's header must name one, which tells
// it from a numbered list in prose ("1: see below").
var goWaitReasons = map[string]bool{
	"GC assist marking": true, "IO wait": true, "chan receive (nil chan)": true, "chan send (nil chan)": true,
	"dumping heap": true, "garbage collection": true, "garbage collection scan": true, "panicwait": true,
	"select": true, "select (no cases)": true, "GC assist wait": true, "GC sweep wait": true,
	"GC scavenge wait": true, "chan receive": true, "chan send": true, "finalizer wait": true,
	"force gc (idle)": true, "GOMAXPROCS updater (idle)": true, "semacquire": true, "sleep": true,
	"sync.Cond.Wait": true, "sync.Mutex.Lock": true, "sync.RWMutex.RLock": true, "sync.RWMutex.Lock": true,
	"sync.WaitGroup.Wait": true, "trace reader (blocked)": true, "wait for GC cycle": true,
	"GC worker (idle)": true, "GC worker (active)": true, "preempted": true, "debug call": true,
	"GC mark termination": true, "stopping the world": true, "flushing proc caches": true,
	"trace goroutine status": true, "trace proc status": true, "page trace flush": true, "coroutine": true,
	"GC weak to strong wait": true, "synctest.Run": true, "synctest.Wait": true,
	"chan receive (durable)": true, "chan send (durable)": true, "select (durable)": true,
	"sync.WaitGroup.Wait (durable)": true, "cleanup wait": true,
	"idle": true, "runnable": true, "running": true, "syscall": true, "waiting": true, "dead": true,
	"copystack": true, "leaked": true, "waiting for cgo callback": true,
	"timer goroutine (idle)": true, "Concurrent GC wait": true, "GC worker (mark termination)": true,
}

var (
	prefixShowing   = []byte("Showing ")
	infixUniqueOf   = []byte(" unique goroutines out of ")
	infixGoroutines = []byte(" goroutines [")
)

// startsGoAggregated claims the first line of an aggregated listing: the
// "Showing K unique goroutines out of T total:" line or a group header
// of gotraceanalyzer, or a pp group header naming a Go state (the parser
// then checks that a pp frame follows).
func startsGoAggregated(line, _ []byte) bool {
	if len(line) < 4 || line[0] < '0' || line[0] > '9' && line[0] != 'S' && line[0] != 'g' {
		return false // one byte for almost every line
	}
	if line[0] == 'g' {
		return startsGoSummary(line) // "goroutine 12 [chan receive]: a -> b"
	}
	if isShowingLine(line) {
		return true
	}
	_, _, ok := gtaHeader(line)
	if ok {
		return true
	}
	if _, ok = ppHeader(line); ok {
		return true
	}
	return startsGoSummary(line) // "40 goroutines [select]: a -> b"
}

// isShowingLine reports whether line is gotraceanalyzer's first line.
func isShowingLine(line []byte) bool {
	return bytes.HasPrefix(line, prefixShowing) && bytes.Contains(line, infixUniqueOf) && bytes.HasSuffix(line, []byte(" total:"))
}

// gtaHeader reads "100 goroutines [sleep]:": the count and the state
// words; ok false for any other line.
func gtaHeader(line []byte) (n int, state []byte, ok bool) {
	i := bytes.Index(line, infixGoroutines)
	if i <= 0 || !allDigits(line[:i]) || !bytes.HasSuffix(line, []byte("]:")) {
		return 0, nil, false
	}
	state = line[i+len(infixGoroutines) : len(line)-2]
	if j := bytes.Index(state, []byte("] {")); j >= 0 {
		// Its regexp takes the header up to the last ']': a Go 1.27
		// header's labels, after the bracket, come along cut when a value
		// holds a ']' ("chan send] {job: \"import[batch=7"); the state
		// is before them. (Go 1.26's labels are inside the bracket, and
		// kept whole: the Go text parser reads them.)
		state = state[:j]
	}
	return atoiBytes(line[:i]), state, true
}

// ppGroup is a pp group header read.
type ppGroup struct {
	n        int    // goroutines in the group
	state    string // "chan send"
	minutes  int    // the least wait printed; 0 if none
	ranged   bool   // the wait was printed as a range ("0~2 minutes")
	locked   bool   // "[locked]"
	creator  string // "main.handleSearch"; empty if none
	created  string // "main.go:49"; empty if none
	hasSleep bool
}

// ppHeader reads a pp group header: "80: chan send [0~2 minutes]
// [locked] [Created by main.handleSearch @ main.go:49]".
func ppHeader(line []byte) (g ppGroup, ok bool) {
	c := bytes.IndexByte(line, ':')
	if c <= 0 || c+2 > len(line) || line[c+1] != ' ' || !allDigits(line[:c]) {
		return g, false
	}
	g.n = atoiBytes(line[:c])
	rest := bytes.TrimRight(line[c+2:], " ")
	// The bracketed parts end the line, each " [...]".
	for len(rest) > 0 && rest[len(rest)-1] == ']' {
		o := bytes.LastIndex(rest, []byte(" ["))
		if o < 0 {
			return g, false
		}
		part := rest[o+2 : len(rest)-1]
		rest = rest[:o]
		switch {
		case bytes.HasPrefix(part, []byte("Created by ")):
			f := part[len("Created by "):]
			if at := bytes.LastIndex(f, []byte(" @ ")); at > 0 {
				g.creator, g.created = string(f[:at]), string(f[at+3:])
			} else {
				g.creator = string(f)
			}
		case bytes.Equal(part, []byte("locked")):
			g.locked = true
		case bytes.HasSuffix(part, []byte(" minutes")):
			m := part[:len(part)-len(" minutes")]
			if t := bytes.IndexByte(m, '~'); t > 0 {
				m, g.ranged = m[:t], true
			}
			if !allDigits(m) {
				return g, false
			}
			g.minutes, g.hasSleep = atoiBytes(m), true
		default:
			return g, false
		}
	}
	if !goWaitReasons[string(rest)] {
		return g, false
	}
	g.state = string(rest)
	return g, true
}

// ppFrame reads a pp frame line, "    pprof   pprof.go:819   writeGoroutineStacks({#1, #4})":
// the function as the runtime prints it ("pprof.writeGoroutineStacks({#1, #4})")
// and its file:line; ok false for any other line.
func ppFrame(line []byte) (call, loc []byte, ok bool) {
	if !bytes.HasPrefix(line, []byte("    ")) {
		return nil, nil, false
	}
	f := bytes.Fields(line)
	if len(f) < 3 {
		return nil, nil, false
	}
	pkg, fl := f[0], f[1]
	c := bytes.LastIndexByte(fl, ':')
	if c <= 0 || !allDigits(fl[c+1:]) {
		return nil, nil, false
	}
	// The call is the rest of the line after the file column (its
	// arguments may hold spaces).
	at := bytes.Index(line, fl) + len(fl)
	fn := bytes.TrimSpace(line[at:])
	if len(fn) < 3 || fn[len(fn)-1] != ')' {
		return nil, nil, false
	}
	call = append(append(append([]byte(nil), pkg...), '.'), fn...)
	return call, fl, true
}

// aggregatedText is a listing rewritten into the runtime's text.
type aggregatedText struct {
	buf    bytes.Buffer
	orig   []int // orig[i] is the input line of the rewritten line i+1
	counts []int // goroutines of each group, in order
	heads  []int // the input line of each group's header
	tool   string
	ranged bool // a pp group printed its wait as a range
	total  int  // gotraceanalyzer's "out of T total"; 0 if not printed
	shown  int  // its "Showing K unique"
}

func (a *aggregatedText) line(no int, text ...[]byte) {
	for _, t := range text {
		a.buf.Write(t)
	}
	a.buf.WriteByte('\n')
	a.orig = append(a.orig, no)
}

// parseGoAggregated reads one aggregated listing (see the top of this file).
func parseGoAggregated(p *textParser) *Dump {
	ls := p.ls
	first, ok := ls.next()
	if !ok {
		return nil
	}
	if _, _, _, _, rest, ok := summaryHeader(first); ok {
		first, no := bytes.Clone(first), ls.lineNo()
		// A summary written by hand (goroutine_summary.go): its chain on
		// the header's line, or a function under it with no file line.
		summary := len(rest) > 0
		if !summary {
			if n, ok := ls.next(); ok {
				_, summary = summaryFrames(n)
				if after, ok := ls.peek(0); summary && ok && isFileLineLike(after.text) {
					summary = false // a frame over its file line: the runtime's text
				}
				ls.unread()
			}
		}
		if summary {
			return parseGoSummary(p, first, no)
		}
	}
	a := &aggregatedText{}
	start := ls.lineNo()
	switch {
	case isShowingLine(first):
		a.tool = "gotraceanalyzer"
		rest := first[len(prefixShowing):]
		i := bytes.Index(rest, infixUniqueOf)
		a.shown = atoiBytes(rest[:i])
		a.total = atoiBytes(rest[i+len(infixUniqueOf):])
		a.readGTA(ls)
	default:
		if _, _, ok := gtaHeader(first); ok {
			a.tool = "gotraceanalyzer"
			ls.unread()
			a.readGTA(ls)
			break
		}
		// A pp header is a listing's only when a pp frame follows it:
		// the next line is read (under the dump's prefix, if any), and
		// given back either way. When it is no frame, the header was a
		// line of prose ("1: running late"), passed over.
		a.tool = "panicparse"
		pp := ppPending{}
		a.ppLine(&pp, first, start)
		n, ok := ls.next()
		if !ok {
			return nil
		}
		if _, _, ok := ppFrame(n); !ok {
			ls.unread()
			return nil
		}
		ls.unread()
		a.readPP(ls, &pp)
	}
	if len(a.counts) == 0 {
		return nil
	}
	return a.dump(p, start)
}

// ppPending is a pp group's creator, printed in its header and written
// after its frames, where the runtime prints it.
type ppPending struct {
	g  ppGroup
	no int
	k  int // groups read
}

// flush writes the pending creator.
func (a *aggregatedText) flush(pp *ppPending) {
	if pp.g.creator != "" {
		a.line(pp.no, []byte("created by "+pp.g.creator))
		a.line(pp.no, []byte("\t"+pp.g.created))
	}
	pp.g = ppGroup{}
}

// ppLine rewrites one line of a pp listing; false when it is none of its
// lines.
func (a *aggregatedText) ppLine(pp *ppPending, line []byte, no int) bool {
	t := bytes.TrimSpace(line)
	switch {
	case len(t) == 0:
		a.flush(pp)
		a.line(no)
		return true
	case bytes.HasPrefix(line, []byte("To see all goroutines, visit ")):
		a.flush(pp)
		a.line(no) // pp's note under a filtered listing
		return true
	case bytes.Equal(t, []byte("(...)")):
		a.line(no, []byte("...additional frames elided..."))
		return true
	}
	if g, ok := ppHeader(line); ok {
		a.flush(pp)
		pp.k++
		a.counts = append(a.counts, g.n)
		a.heads = append(a.heads, no)
		a.ranged = a.ranged || g.ranged
		h := "goroutine " + strconv.Itoa(pp.k) + " [" + g.state
		if g.hasSleep {
			h += ", " + strconv.Itoa(g.minutes) + " minutes"
		}
		if g.locked {
			h += ", locked to thread"
		}
		a.line(no, []byte(h+"]:"))
		pp.g, pp.no = g, no
		return true
	}
	if call, loc, ok := ppFrame(line); ok {
		a.line(no, call)
		a.line(no, []byte("\t"), loc)
		return true
	}
	return false
}

// readPP rewrites pp's lines until one that is none of theirs (given
// back).
func (a *aggregatedText) readPP(ls *lineSource, pp *ppPending) {
	defer a.flush(pp)
	for {
		line, ok := ls.next()
		if !ok {
			return
		}
		if !a.ppLine(pp, line, ls.lineNo()) {
			ls.unread()
			return
		}
	}
}

// readGTA rewrites gotraceanalyzer's groups (the runtime's text under a
// count) until a line after a blank one that starts no group (given
// back).
func (a *aggregatedText) readGTA(ls *lineSource) {
	k := 0
	blank := true
	afterHeader := false // the line before was a group's header
	for {
		line, ok := ls.next()
		if !ok {
			return
		}
		no := ls.lineNo()
		wasHeader := afterHeader
		afterHeader = false
		if len(bytes.TrimSpace(line)) == 0 {
			blank = true
			a.line(no)
			continue
		}
		if n, state, ok := gtaHeader(line); ok {
			afterHeader = true
			k++
			a.counts = append(a.counts, n)
			a.heads = append(a.heads, no)
			a.line(no, []byte("goroutine "+strconv.Itoa(k)+" ["), state, []byte("]:"))
			blank = false
			continue
		}
		if blank || k == 0 {
			ls.unread()
			return
		}
		if isGoHeader(line) && wasHeader {
			// gotraceanalyzer keeps the header of its input's first
			// goroutine in that goroutine's trace, under the group's
			// header: the group's own words, said twice.
			continue
		}
		a.line(no, line)
	}
}

// dump reads the rewritten text with the Go text parser and gives its
// goroutines their groups' counts and lines.
func (a *aggregatedText) dump(p *textParser, start int) *Dump {
	sub := &textParser{ls: newLineSource(p.name, bytes.NewReader(a.buf.Bytes()), p.ls.max), in: p.in, name: p.name}
	d := parseGoText(sub)
	if d == nil {
		return nil
	}
	if _, more := sub.ls.next(); more {
		return nil // the rewrite read as more than one dump: not this listing
	}
	if len(d.Threads) != len(a.counts) {
		return nil // a group the Go text parser did not read as one goroutine: not this listing
	}
	for i, t := range d.Threads {
		t.ID = 0 // the rewrite's numbers, not the runtime's ids
		t.Weight = a.counts[i]
		t.Line = a.heads[i]
	}
	for i := range d.Skipped {
		if n := d.Skipped[i].Line; n > 0 && n <= len(a.orig) {
			d.Skipped[i].Line = a.orig[n-1]
		}
	}
	d.Source = Source{}
	d.Format = FormatGoText
	n := d.ThreadCount()
	d.Excerpt = fmt.Sprintf("aggregated by %s: %d goroutines in %d groups of identical stacks, each read as that many goroutines (no goroutine ids)",
		a.tool, n, len(a.counts))
	if a.tool == "panicparse" {
		d.Excerpt += `; packages by their last element ("http", not "net/http")`
	}
	if a.ranged {
		d.Excerpt += `; a group's wait printed as a range ("0~2 minutes") is read as its least`
	}
	if a.total > 0 && (a.total != n || a.shown != len(a.counts)) {
		d.Excerpt += fmt.Sprintf("; it says %d groups of %d goroutines: the rest are not in it", a.shown, a.total)
	}
	return d
}
