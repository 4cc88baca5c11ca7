package parse

import (
	"bytes"
	"strings"
	"time"
)

// `go tool pprof -traces` of a goroutine profile: the profile's header,
// then each sample (a stack with its count of goroutines) between
// separators, the top frame first (google/pprof internal/report
// printTraces and ProfileLabels, as vendored in Go 1.26):
//
//	File: server                                                         header: the binary, its build id,
//	Build ID: 6eef9dddecacbe0c18b80293abeb077c9941e5e3                   comments, the sample type, the time
//	Type: goroutine
//	Time: 2026-12-07 13:13:06 UTC                                        (older pprof: "Time: Mar 11, 2020 at 2:59pm (CET)")
//	-----------+-------------------------------------------------------  separator
//	    worker:  3                                                       a label: %10s, ":  ", its values
//	        40   runtime.gopark                                          the count (%10s), 3 spaces, the top frame
//	             runtime.goparkunlock (inline)                           a frame under it; " (inline)": inlined
//	             main.waiter /src/main.go:13                             with -lines: its file and line
//	             0000000000466d8e runtime.gopark                         with -addresses: its address first
//
// Each sample is read as Weight goroutines sharing one stack, as a debug=1
// record is (FormatGoDebug1): the text prints no wait reason, goroutine
// id or creator, so states are read from the frames as debug=1's are.
// It is the whole profile (no Excerpt), as a debug=1 text is, unless
// pprof was told to drop samples (-focus, -hide: they print nothing of
// it). The time in the header is the dump's Time.
//
// What pprof's other text reports print (-top, -tree, -peek, -list:
// "Showing nodes accounting for ...", flat and cum by function) holds no
// whole stack: it is refused with what to paste instead (pprofRefusals),
// never read as goroutines; so is -traces of a profile of another type
// (cpu, heap: "Type: cpu", values with units).
//
// States: from: a "Type: goroutine" line (header lines to the first
// separator; any other line: no dump) or a separator; to: label, count
// line, frame, separator, end (a blank line or a line of no such shape:
// unread).

// formatPprofTraces names -traces in the detection chain only.
const formatPprofTraces Format = "go-pprof-traces"

var (
	pprofSeparator = []byte("-----------+-------------------------------------------------------")
	pprofTypeGo    = []byte("Type: goroutine")
)

// startsPprofTraces claims a goroutine profile's "Type:" line or the
// separator -traces prints.
func startsPprofTraces(line, _ []byte) bool {
	t := bytes.TrimRight(trimIndent(line), " \r")
	return bytes.Equal(t, pprofTypeGo) || bytes.Equal(t, pprofSeparator)
}

// pprofTime reads the header's time: "2026-12-07 13:13:06 UTC" (pprof
// since 2023) or "Mar 11, 2020 at 2:59pm (CET)" (before); zero if neither.
func pprofTime(s string) time.Time {
	for _, layout := range []string{"2006-01-02 15:04:05 MST", "Jan 2, 2006 at 3:04pm (MST)"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// pprofCount reads a sample's first line: the count right-aligned in ten
// columns, three spaces, the top frame. col is where the frame starts.
func pprofCount(line []byte) (n int, frame []byte, col int, ok bool) {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	j := i
	for j < len(line) && isDigit(line[j]) {
		n = n*10 + int(line[j]-'0')
		j++
		if n > 1<<40 {
			return 0, nil, 0, false
		}
	}
	if j == i || j+2 >= len(line) || line[j] != ' ' || line[j+1] != ' ' {
		return 0, nil, 0, false
	}
	k := j
	for k < len(line) && line[k] == ' ' {
		k++
	}
	if k == len(line) {
		return 0, nil, 0, false
	}
	return n, line[k:], k, true
}

// pprofLabel reads a label line: "%10s:  %s" (key, values).
func pprofLabel(t []byte) (key, val string, ok bool) {
	c := bytes.Index(t, []byte(":  "))
	if c <= 0 || bytes.IndexByte(t[:c], ' ') >= 0 {
		return "", "", false
	}
	return string(t[:c]), string(bytes.TrimSpace(t[c+3:])), true
}

// pprofFrame reads a frame as -traces prints it: "[address ]name[
// file:line[:col]][ (inline)]".
func pprofFrame(t []byte, in *interner) *Frame {
	t = bytes.TrimSuffix(t, []byte(" (inline)"))
	if sp := bytes.IndexByte(t, ' '); sp == 16 && isHexWord(t[:16]) {
		t = t[17:] // -addresses
	}
	if len(t) == 0 {
		return nil
	}
	file, line := []byte(nil), 0
	if sp := bytes.LastIndexByte(t, ' '); sp > 0 && !spaceOutside(t[sp+1:]) && !bytes.ContainsAny(t[sp+1:], "]})") {
		loc := t[sp+1:]
		c := bytes.IndexByte(loc, ':')
		if c > 0 {
			rest := loc[c+1:]
			if k := bytes.IndexByte(rest, ':'); k > 0 {
				rest = rest[:k] // a column
			}
			if allDigits(rest) {
				file, line, t = loc[:c], atoiBytes(rest), t[:sp]
			}
		}
	}
	if spaceOutside(t) && !bytes.HasPrefix(t, []byte("<unknown>")) {
		return nil // a sentence, not a function
	}
	return in.frame(in.bytes(t), in.bytes(file), line, "", "")
}

// parsePprofTraces reads one -traces text (see the top of this file).
func parsePprofTraces(p *textParser) *Dump {
	ls, in := p.ls, p.in
	first, ok := ls.next()
	if !ok {
		return nil
	}
	d := &Dump{Format: FormatGoDebug1}
	if t := bytes.TrimRight(trimIndent(first), " \r"); bytes.Equal(t, pprofTypeGo) {
		// The header's lines after Type: (Doc:, Time:, Duration:) up to the
		// first separator; another line (-top's "Showing nodes ..."): no
		// dump here.
		for {
			line, ok := ls.next()
			if !ok {
				return nil
			}
			t := bytes.TrimRight(trimIndent(line), " \r")
			if bytes.Equal(t, pprofSeparator) {
				ls.unread()
				break
			}
			if v, ok := bytes.CutPrefix(t, []byte("Time: ")); ok {
				d.Time = pprofTime(string(v))
				continue
			}
			if bytes.HasPrefix(t, []byte("Doc: ")) || bytes.HasPrefix(t, []byte("Duration: ")) {
				continue
			}
			ls.unread()
			return nil
		}
	} else {
		ls.unread()
	}
	var (
		cur     *Thread
		col     int // the column the current sample's frames start at
		labels  map[string]string
		labelAt []Skipped // the label lines read for the next sample
	)
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		line = bytes.TrimRight(line, " \r")
		t := trimIndent(line)
		if bytes.Equal(t, pprofSeparator) {
			cur, labels = nil, nil
			continue
		}
		if len(t) == 0 {
			ls.unread()
			break
		}
		if cur != nil {
			ind := len(line) - len(t)
			if ind >= col && ind > 0 {
				if f := pprofFrame(t, in); f != nil {
					cur.Frames = append(cur.Frames, f)
					continue
				}
				p.skip(d, t, "a line of a pprof -traces sample that is no frame")
				continue
			}
		}
		if n, fr, c, ok := pprofCount(line); ok {
			f := pprofFrame(fr, in)
			if f == nil {
				p.skip(d, t, "a pprof -traces count line whose frame is not a function")
				cur = nil
				continue
			}
			cur = &Thread{Weight: n, Line: ls.lineNo(), Frames: []*Frame{f}, Labels: labels}
			labels, labelAt = nil, nil
			col = c
			if n == 0 {
				p.skip(d, t, "a pprof -traces sample of no goroutine")
				cur = nil
				continue
			}
			d.Threads = append(d.Threads, cur)
			continue
		}
		if cur == nil {
			if k, v, ok := pprofLabel(t); ok {
				if labels == nil {
					labels = map[string]string{}
				}
				labels[k] = v
				labelAt = append(labelAt, Skipped{Line: ls.lineNo(), Text: string(t[:min(len(t), 200)]), Reason: "a pprof -traces label line with no sample after it"})
				continue
			}
		}
		ls.unread()
		break
	}
	if len(d.Threads) == 0 {
		return nil
	}
	d.Skipped = append(d.Skipped, labelAt...)
	return d
}

// pprofRefusals name pprof's text reports that hold no whole stack, and
// -traces of other profiles, so that a file of one is refused with what
// to paste instead.
var pprofRefusals = []refusal{
	{
		// Showing nodes accounting for 2000, 100% of 2000 total
		//       flat  flat%   sum%        cum   cum%
		matches: func(line []byte) bool {
			t := trimIndent(line)
			return bytes.HasPrefix(t, []byte("Showing nodes accounting for ")) ||
				bytes.HasPrefix(t, []byte("flat  flat%   sum%")) ||
				bytes.HasPrefix(t, []byte("Showing top ")) && bytes.Contains(t, []byte(" nodes out of "))
		},
		looks: "go tool pprof -top, -tree or -peek output: counts by function, with no whole stack to read goroutines from; " +
			"paste `go tool pprof -traces` of the goroutine profile (each stack with its count), the profile itself " +
			"(/debug/pprof/goroutine, debug=0), or its text (?debug=1 or ?debug=2)",
	},
	{
		// Type: cpu
		matches: func(line []byte) bool {
			v, ok := bytes.CutPrefix(bytes.TrimRight(line, " \r"), []byte("Type: "))
			return ok && len(v) > 0 && !bytes.Equal(v, []byte("goroutine")) && bytes.IndexByte(v, ' ') < 0 &&
				strings.Contains("|cpu|samples|inuse_space|inuse_objects|alloc_space|alloc_objects|contentions|delay|threadcreate|", "|"+string(v)+"|")
		},
		looks: "go tool pprof text of a profile that is not of goroutines (its Type: line): it holds no goroutine",
	},
}

// spaceOutside reports a space outside brackets: a generic function's
// shape type holds spaces ("writeRuntimeProfile[go.shape.struct { ID
// uint64; ... }]"), a sentence holds them between its words.
func spaceOutside(t []byte) bool {
	depth := 0
	for _, c := range t {
		switch c {
		case '[', '{', '(':
			depth++
		case ']', '}', ')':
			depth--
		case ' ':
			if depth <= 0 {
				return true
			}
		}
	}
	return false
}
