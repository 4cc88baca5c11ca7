package parse

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// JDK Flight Recorder recordings. A recording with jdk.ThreadDump events
// (the JVM takes a Thread.print dump every period: 1 s in
// testdata/gen/jfr/threaddump.jfc, 60 s in the JDK's profile.jfc) is a
// timeline: each event is one moment, with its start time.
//
// The binary format is the JDK's to read: dumpdiff runs the jfr tool,
//
//	jfr print --json --events jdk.ThreadDump FILE
//
// whose output (JSON, exact times with their zone) is also accepted when
// saved, as is the default text output of `jfr print --events
// jdk.ThreadDump FILE`:
//
//	jdk.ThreadDump {
//	  startTime = 10:38:34.843
//	  result = "2026-12-01 10:38:34
//	Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):
//	...
//	JNI global refs: 23, weak refs: 3
//
//	"
//	}
//
// The text prints the result string raw (its quotes unescaped) and the
// start time as a wall clock without a date, in the zone of whoever ran
// jfr: the dump's own date line gives the date, and the start time's
// milliseconds are added when both show the same second.
//
// A recording given as a stream (stdin, inside gzip) is copied to a
// temporary file first: jfr reads files only.
//
// Positions: a dump from the text output starts at its event's line; the
// dumps of JSON events have no line (Source.Index tells them apart) and
// their skipped lines are numbered within the event's result.

// jfrMagic starts every recording chunk.
var jfrMagic = []byte("FLR\x00")

func isJFRRecording(head []byte) bool { return bytes.HasPrefix(head, jfrMagic) }

// parseJFRRecording reads the thread dumps of the recording in br, at path
// when it is a file jfr can read ("" for a stream).
func (o Options) parseJFRRecording(name string, br *bufio.Reader, path string) ([]*Dump, error) {
	tool, err := o.findJFR()
	if err != nil {
		return nil, fmt.Errorf("%s: a JFR recording: %w", name, err)
	}
	if path == "" {
		tmp, err := os.CreateTemp("", "dumpdiff-*.jfr")
		if err != nil {
			return nil, fmt.Errorf("%s: a JFR recording: copying it for jfr: %w", name, err)
		}
		defer os.Remove(tmp.Name())
		_, err = io.Copy(tmp, &capReader{r: br, max: o.maxInflated(), what: "JFR recording"})
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("%s: a JFR recording: copying it for jfr: %w", name, err)
		}
		path = tmp.Name()
	}
	cmd := exec.Command(tool, "print", "--json", "--events", "jdk.ThreadDump", path)
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 4 << 10}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: running %s: %w", name, tool, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: running %s: %w", name, tool, err)
	}
	dumps, perr := o.parseJFRJSON(name, out, newInterner())
	io.Copy(io.Discard, out) // let jfr finish writing whatever was left unread
	werr := cmd.Wait()
	if werr != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = werr.Error()
		}
		return nil, fmt.Errorf("%s: %s print failed: %s", name, filepath.Base(tool), msg)
	}
	if perr != nil {
		return nil, perr
	}
	if len(dumps) == 0 {
		return nil, &NoDumpError{File: name, Looks: jfrNoThreadDump}
	}
	return dumps, nil
}

// jfrNoThreadDump says what to do about a recording without thread dumps.
const jfrNoThreadDump = "a JFR recording without jdk.ThreadDump events: record with a .jfc that enables them " +
	"with a period (`jfr configure jdk.ThreadDump#period=10s --output dumps.jfc`, JDK 17+; see testdata/gen/jfr)"

// findJFR returns the jfr tool to run: Options.JFR, else jfr on the PATH,
// else $JAVA_HOME/bin/jfr.
func (o Options) findJFR() (string, error) {
	if o.JFR != "" {
		if _, err := os.Stat(o.JFR); err != nil {
			return "", fmt.Errorf("reading it needs the JDK's jfr tool: %w", err)
		}
		return o.JFR, nil
	}
	return lookupJFR(exec.LookPath, os.Getenv("JAVA_HOME"))
}

// lookupJFR finds jfr with lookPath, then under javaHome.
func lookupJFR(lookPath func(string) (string, error), javaHome string) (string, error) {
	if p, err := lookPath("jfr"); err == nil {
		return p, nil
	}
	if javaHome != "" {
		p := filepath.Join(javaHome, "bin", "jfr")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", errors.New("reading it needs the JDK's jfr tool, which is neither on the PATH nor in $JAVA_HOME/bin: " +
		"install a JDK 11 or later (Debian, Ubuntu: apt install openjdk-17-jdk-headless) or set JAVA_HOME to one, " +
		"or run `jfr print --events jdk.ThreadDump FILE > FILE.txt` where a JDK is and give dumpdiff that file")
}

// limitedWriter keeps the first n bytes written to it and drops the rest.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

// claimJFRJSON reports whether head starts the output of jfr print --json.
func claimJFRJSON(head []byte) bool {
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	i := skipSpace(head, 1)
	return bytes.HasPrefix(head[i:], []byte(`"recording"`))
}

// parseJFRJSONData is the binaryFormat entry for saved jfr print --json output.
func parseJFRJSONData(name string, data []byte, in *interner) ([]*Dump, error) {
	dumps, err := Options{}.parseJFRJSON(name, bytes.NewReader(data), in)
	if err == nil && len(dumps) == 0 {
		return nil, &NoDumpError{File: name, Looks: jfrNoThreadDump}
	}
	return dumps, err
}

// jfrEvent is one event of jfr print --json.
type jfrEvent struct {
	Type   string `json:"type"`
	Values struct {
		StartTime string `json:"startTime"`
		Result    string `json:"result"`
	} `json:"values"`
}

// parseJFRJSON reads jfr print --json output one event at a time: the
// whole output is never held, only the event being read.
func (o Options) parseJFRJSON(name string, r io.Reader, in *interner) ([]*Dump, error) {
	dec := json.NewDecoder(r)
	bad := func(err error) error {
		return &SyntaxError{File: name, Msg: fmt.Sprintf("jfr print --json output at byte %d: %v", dec.InputOffset(), err)}
	}
	// {"recording": {"events": [ ... ]}}
	for _, want := range []any{json.Delim('{'), "recording", json.Delim('{'), "events", json.Delim('[')} {
		tok, err := dec.Token()
		if err != nil {
			return nil, bad(err)
		}
		if tok != want {
			return nil, bad(fmt.Errorf("got %v, want %v", tok, want))
		}
	}
	var dumps []*Dump
	for i := 0; dec.More(); i++ {
		var ev jfrEvent
		if err := dec.Decode(&ev); err != nil {
			return dumps, bad(err)
		}
		if ev.Type != "jdk.ThreadDump" {
			continue
		}
		ds, err := o.parseText(name, strings.NewReader(ev.Values.Result), in, false)
		if err != nil {
			var nd *NoDumpError
			if !errors.As(err, &nd) {
				return dumps, err
			}
			d := &Dump{Skipped: []Skipped{{Reason: fmt.Sprintf("jdk.ThreadDump event %d holds no thread dump", i+1)}}}
			ds = []*Dump{d}
		}
		for _, d := range ds {
			d.Format = FormatJFR
			d.Source = Source{File: name, Index: len(dumps)}
			if t, err := time.Parse(time.RFC3339Nano, ev.Values.StartTime); err == nil {
				d.Time = t
			}
			dumps = append(dumps, d)
		}
	}
	return dumps, nil
}

// startsJFRText claims the first line of an event of jfr print's text output.
func startsJFRText(line, prev []byte) bool {
	return string(line) == "jdk.ThreadDump {"
}

// parseJFRText reads one jdk.ThreadDump event of jfr print's text output.
// States: fields ("  startTime = ...") -> result (the dump, read by the
// JVM text parser from the line after `result = "`) -> closing (the `"`
// and `}` lines) -> end.
func parseJFRText(p *textParser) *Dump {
	ls := p.ls
	ls.next() // "jdk.ThreadDump {"
	var clock string
	var skipped []Skipped
	var d *Dump
	for {
		line, ok := ls.next()
		if !ok {
			break
		}
		if v, ok := bytes.CutPrefix(line, []byte("  startTime = ")); ok && d == nil {
			clock = string(v)
			continue
		}
		if v, ok := bytes.CutPrefix(line, []byte(`  result = "`)); ok && d == nil {
			at := ls.lineNo()
			ls.replace(v)
			saved := p.prev
			p.prev = nil
			d = parseJVMText(p)
			p.prev = saved
			if d == nil {
				if ls.givenBack() && ls.lineNo() == at {
					ls.next() // the result's first line, given back
				}
				d = &Dump{}
				skipped = append(skipped, Skipped{Line: at, Text: truncate(string(v)), Reason: "jdk.ThreadDump result is not a thread dump"})
			}
			continue
		}
		if string(line) == "}" {
			break
		}
		if d == nil && bytes.HasPrefix(line, []byte("  ")) {
			continue // another field of the event ("  duration = ...")
		}
		if d != nil && string(line) == `"` {
			continue
		}
		if len(line) == 0 {
			continue
		}
		skipped = append(skipped, Skipped{Line: ls.lineNo(), Text: truncate(string(line)), Reason: "not part of a jdk.ThreadDump event"})
		if string(line) == "jdk.ThreadDump {" {
			ls.unread() // the event was cut: the next one begins
			break
		}
	}
	if d == nil {
		return nil
	}
	d.Format = FormatJFR
	d.Skipped = append(d.Skipped, skipped...)
	d.Time = jfrTextTime(d.Time, clock)
	return d
}

// jfrTextTime refines the dump's date line (seconds) with the event's
// start time: "10:38:34.843", or "10:38:34.843 (2026-12-01)" when jfr
// prints the date. Without a printed date, the start time counts only when
// it shows the same second as the date line (jfr ran in the JVM's zone).
func jfrTextTime(date time.Time, clock string) time.Time {
	clock = strings.TrimSpace(clock)
	if c, day, ok := strings.Cut(clock, " ("); ok {
		if t, err := time.Parse("2006-01-02 15:04:05.999999999", strings.TrimSuffix(day, ")")+" "+c); err == nil {
			return t
		}
		clock = c
	}
	if date.IsZero() {
		return date
	}
	c, err := time.Parse("15:04:05.999999999", clock)
	if err != nil || c.Hour() != date.Hour() || c.Minute() != date.Minute() || c.Second() != date.Second() {
		return date
	}
	return date.Add(time.Duration(c.Nanosecond()))
}
