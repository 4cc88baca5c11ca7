package watch

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/parse"
	"github.com/google/go-cmp/cmp"
)

// The incident step's tables, as node_exporter tests its collectors: a
// sequence of moments made of real dumps goes in, each moment the ring's
// analysis (the main command's, run here once a moment) goes through
// decide, and the decisions that come out are compared line by line with
// what the rules say. The ring is watch's own (pins, eviction) without a
// folder; the clock is a value that moves 15 s a moment.
//
// The dumps are the watch tests' Java service (testdata/watch/
// JavaService.java, READMEs in testdata/libs): its 16 req-exec threads
// idle (healthy) or all in a socket read from an upstream that never
// answers (stuck). Their expected verdicts are in those READMEs, written
// from the service: stuck after healthy is critical (not-recovered and
// saturated on req-exec-* socket-read); healthy again after stuck is
// recovered (no longer open).
var stepDumps = map[string]string{
	"h":  "../testdata/libs/jvm-saturated-recovers/1.txt", // healthy: the workers idle in LinkedBlockingQueue.take
	"s":  "../testdata/libs/jvm-saturated-recovers/2.txt", // stuck: all 16 in SocketDispatcher.read0
	"s2": "../testdata/libs/jvm-saturated-recovers/3.txt", // stuck, the next moment
	"h2": "../testdata/libs/jvm-saturated-recovers/4.txt", // healthy again after recover
}

// reqExec is the story key of the stuck pool's findings.
const reqExec = "req-exec-* socket-read"

// stepCase is one table row: ticks in, one line of decisions per tick out.
//
// A tick is a dump's key of stepDumps, then optionally "!REASON" for a
// triggered moment, or "-" for a moment the target did not answer (no
// dump, nothing kept), or "KEY refused" for a moment whose incident the
// loop could not record (notOpened).
type stepCase struct {
	name  string
	keep  int // the ring's --keep; 0 is 40
	max   int // --incident-max; 0 is 40
	ring  bool
	ticks []string
	// resume, when set, is the incident.json an earlier watch left open
	// over the ring its ticks before resumeAt made; the step starts again
	// from it there (the verdict state lost as at a restart).
	resume   *incidentState
	resumeAt int
	want     []string
}

var stepCases = []stepCase{{
	name:  "a finding that appears and stays",
	ticks: []string{"h", "h", "s", "s2", "s2", "s2"},
	want: []string{
		"·",
		"·",
		// The rise is first seen at m3: m1 and m2 are the before, pinned.
		"open at +30s [" + reqExec + "] since m3 pin m1 m2",
		"add m4 (1)",
		"add m5 (2)",
		"add m6 (3)",
	},
}, {
	name:  "a finding that recovers: the first moment with none of its findings open closes it",
	ticks: []string{"h", "h", "s", "s2", "h2", "h2", "h2"},
	want: []string{
		"·",
		"·",
		"open at +30s [" + reqExec + "] since m3 pin m1 m2",
		"add m4 (1)",
		"add m5 (2); close at +60s: recovered after 2 moments; unpin m3",
		"·",
		"·",
	},
}, {
	// Each return of the stuck pool after a healthy moment is a rise again,
	// new at that moment: an incident each time, each closed at the next
	// healthy moment.
	name:  "flapping",
	ticks: []string{"h", "s", "h2", "s", "h2", "s", "h2"},
	want: []string{
		"·",
		"open at +15s [" + reqExec + "] since m2 pin m1",
		"add m3 (1); close at +30s: recovered after 1 moments; unpin m2",
		"open at +45s [" + reqExec + "] since m2 pin m1",
		"add m5 (1); close at +60s: recovered after 1 moments; unpin m2",
		"open at +75s [" + reqExec + "] since m2 pin m1",
		"add m7 (1); close at +90s: recovered after 1 moments; unpin m2",
	},
}, {
	name:  "a trigger with no finding: the moments before, the triggered one and one after",
	ticks: []string{"h", "h", "h!HighLatency", "h", "h"},
	want: []string{
		"·",
		"·",
		"open at +30s trigger(HighLatency) [] since m3 pin m1 m2",
		"add m4 (1); close at +45s: recovered after 1 moments: triggered (HighLatency), no finding; unpin m3",
		"·",
	},
}, {
	name:  "a trigger during an open incident joins it",
	ticks: []string{"h", "s", "s2!HighLatency", "h2"},
	want: []string{
		"·",
		"open at +15s [" + reqExec + "] since m2 pin m1",
		"add m3 (1) trigger(HighLatency) joins",
		"add m4 (2); close at +45s: recovered after 2 moments; unpin m2",
	},
}, {
	name:  "a trigger at the moment a finding opens: one incident, both",
	ticks: []string{"h", "s!HighLatency", "h2"},
	want: []string{
		"·",
		"open at +15s trigger(HighLatency) [" + reqExec + "] since m2 pin m1",
		"add m3 (1); close at +30s: recovered after 1 moments; unpin m2",
	},
}, {
	// --incident-max closes it unrecovered; the finding still open is not
	// new, so no second incident opens for it.
	name:  "still open after --incident-max",
	max:   2,
	ticks: []string{"h", "s", "s2", "s2", "s2", "h2", "s"},
	want: []string{
		"·",
		"open at +15s [" + reqExec + "] since m2 pin m1",
		"add m3 (1)",
		"add m4 (2); close at +45s: still open after 2 moments (--incident-max); unpin m2",
		"·",
		"·",
		"open at +90s [" + reqExec + "] since m2 pin m1",
	},
}, {
	name:  "the target stops answering: the incident closes, and what it said is forgotten",
	ticks: []string{"h", "s", "-", "s2"},
	want: []string{
		"·",
		"open at +15s [" + reqExec + "] since m2 pin m1",
		"close at +30s: the target stopped answering: connection refused; unpin m2",
		"open at +45s [" + reqExec + "] since m2 pin m1",
	},
}, {
	name:  "an incident not recorded opens at the next moment",
	ticks: []string{"h", "s refused", "s2", "h2"},
	want: []string{
		"·",
		"open at +15s [" + reqExec + "] since m2 pin m1 (not recorded)",
		"open at +30s [" + reqExec + "] since m2 pin m1",
		"add m4 (1); close at +45s: recovered after 1 moments; unpin m2",
	},
}, {
	// The restart loses the verdict state; incident.json brings it back:
	// the finding open at the restart is not new (no second bundle), the
	// moments go on counting, and the recovery closes it.
	name:     "resume after a restart with an incident open",
	ticks:    []string{"h", "h", "s", "s2", "s2", "h2"},
	resumeAt: 4,
	resume:   &incidentState{Target: "svc", Findings: []string{"req-exec-*\x00socket-read\x00"}, Since: "m3", After: 1, Open: true},
	want: []string{
		"·",
		"·",
		"open at +30s [" + reqExec + "] since m3 pin m1 m2",
		"add m4 (1)",
		"resumed: pin m1 m2",
		"add m5 (2)",
		"add m6 (3); close at +75s: recovered after 3 moments; unpin m3",
	},
}, {
	// A ring of 4 pins one moment (keep/maxPinnedShare): the newest
	// healthy one before the incident, m2. Eviction passes over it while
	// the incident outlasts the ring, so the recovery at m9 is read against
	// it: recovered, not a rise of idle workers from a ring of stuck ones.
	// After the close the pin holds until the incident's moments are gone.
	name:  "ring eviction around a pinned moment",
	keep:  4,
	ring:  true,
	ticks: []string{"h", "h", "s", "s2", "s", "s2", "s", "s2", "h2", "h2", "h2", "h2", "h2"},
	want: []string{
		"· | m1",
		"· | m1 m2",
		"open at +30s [" + reqExec + "] since m3 pin m1 m2 | m1 m2* m3",
		"add m4 (1) | m1 m2* m3 m4",
		"add m5 (2) | m2* m3 m4 m5",
		"add m6 (3) | m2* m4 m5 m6",
		"add m7 (4) | m2* m5 m6 m7",
		"add m8 (5) | m2* m6 m7 m8",
		"add m9 (6); close at +120s: recovered after 6 moments; unpin m3 | m2* m7 m8 m9",
		"· | m2* m8 m9 m10",
		"· | m2* m9 m10 m11",
		// m9 is gone: no moment of the incident is left, the pin goes;
		// m2 is then the oldest, and goes at the next moment.
		"· | m2 m10 m11 m12",
		"· | m10 m11 m12 m13",
	},
}}

// TestDecide runs the step's table.
func TestDecide(t *testing.T) {
	dumps := map[string]*parse.Dump{}
	for k, path := range stepDumps {
		ds, err := parse.ParseFile(path)
		if err != nil || len(ds) != 1 {
			t.Fatalf("%s: %d dumps, %v", path, len(ds), err)
		}
		dumps[k] = ds[0]
	}
	for _, c := range stepCases {
		t.Run(c.name, func(t *testing.T) {
			if got := runSteps(t, c, dumps); !slices.Equal(got, c.want) {
				t.Errorf("decisions (-want +got):\n%s", cmp.Diff(c.want, got))
			}
		})
	}
}

// runSteps runs c's ticks through a ring and the step, as a target's loop
// does without its effects, and says each tick's decisions in a line.
func runSteps(t *testing.T, c stepCase, dumps map[string]*parse.Dump) []string {
	t.Helper()
	keep, incMax := c.keep, c.max
	if keep == 0 {
		keep = 40
	}
	if incMax == 0 {
		incMax = 40
	}
	g := &ring{keep: keep, share: 1 << 40, forget: func(string) (int64, error) { return 0, nil }, opt: analyze.Options{Cache: analyze.NewCache()}}
	clock := time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)
	start := clock
	var st verdictState
	var out []string
	n := 0
	for i, tick := range c.ticks {
		if c.resume != nil && i == c.resumeAt {
			var pin []string
			st, pin = resumed(*c.resume, "", ringLabels(g))
			g.pin(pin)
			out = append(out, "resumed: pin "+strings.Join(pin, " "))
		}
		key, trig, _ := strings.Cut(tick, "!")
		key, refused := strings.CutSuffix(key, " refused")
		v := verdict{at: clock, trigger: trig, alert: analyze.Critical, max: incMax}
		clock = clock.Add(15 * time.Second)
		if key == "-" {
			v.gone = "connection refused"
		} else {
			n++
			v.label = fmt.Sprintf("m%d", n)
			d := dumps[key]
			if d == nil {
				t.Fatalf("tick %q: no dump %q", tick, key)
			}
			g.makeRoom() // as the loop does before it takes a moment
			g.put(ringMoment{label: v.label, input: analyze.Input{Label: v.label, Dump: d}, ok: true})
			v.r = g.analyze()
		}
		next, d := decide(st, v)
		line := sayDecision(d, start)
		// What the loop does with the decision, on the ring: pins, and a
		// bundle it could not record.
		switch {
		case d.open && refused:
			next = notOpened(next, d)
			line += " (not recorded)"
		case d.open:
			g.pin(d.pin)
		case d.close != "":
			g.unpin(d.unpin)
		}
		st = next
		g.evict()
		if c.ring {
			line += " | " + strings.Join(ringLabelsPinned(g), " ")
		}
		out = append(out, line)
	}
	return out
}

// sayDecision is a decision in a line: "·" for none; the clock's time as
// the offset from start.
func sayDecision(d decision, start time.Time) string {
	var parts []string
	at := fmt.Sprintf("+%ds", int(d.at.Sub(start)/time.Second))
	keys := func(fs []*analyze.Finding) string {
		var ks []string
		for _, f := range fs {
			ks = append(ks, strings.TrimSpace(strings.ReplaceAll(storyKey(f), "\x00", " ")))
		}
		return "[" + strings.Join(slices.Compact(ks), ", ") + "]"
	}
	if d.open {
		s := "open at " + at
		if d.trigger != "" {
			s += " trigger(" + d.trigger + ")"
		}
		s += " " + keys(d.opened) + " since " + d.since
		if len(d.pin) > 0 {
			s += " pin " + strings.Join(d.pin, " ")
		}
		parts = append(parts, s)
	}
	if d.add != "" {
		s := fmt.Sprintf("add %s (%d)", d.add, d.after)
		if len(d.opened) > 0 {
			s += " join " + keys(d.opened)
		}
		if d.trigger != "" {
			s += " trigger(" + d.trigger + ") joins"
		}
		parts = append(parts, s)
	}
	if d.close != "" {
		parts = append(parts, "close at "+at+": "+d.close+"; unpin "+d.unpin)
	}
	if len(parts) == 0 {
		return "·"
	}
	return strings.Join(parts, "; ")
}

func ringLabels(g *ring) []string {
	var out []string
	for _, rm := range g.snapshot() {
		out = append(out, rm.label)
	}
	return out
}

// ringLabelsPinned are the ring's labels, a pinned one marked "*".
func ringLabelsPinned(g *ring) []string {
	var out []string
	for _, rm := range g.snapshot() {
		l := rm.label
		if g.pinned[l] {
			l += "*"
		}
		out = append(out, l)
	}
	return out
}

// TestJudgeTake: what a moment's files and error come to, moment after
// moment (the state carried), as the loop says it.
func TestJudgeTake(t *testing.T) {
	dump := capture.File{Kind: capture.FileGoroutine, Primary: true, Path: "m.txt", Size: 10}
	aside := capture.File{Kind: capture.FileGoroutineDebug1, Path: "m.1.txt", Size: 5}
	failed := func(f capture.File, reason, why string) capture.File {
		f.Path, f.Size, f.Reason, f.Error = "", 0, reason, why
		return f
	}
	refused := failed(dump, capture.ReasonRefused, "connection refused")
	full := failed(dump, capture.ReasonDisk, "no space left on device")
	steps := []struct {
		name  string
		files []capture.File
		err   error
		want  takeDecision
		h     health
	}{
		{"a dump", []capture.File{dump}, nil, takeDecision{up: true, read: true}, health{}},
		{"the dump fails, its debug=1 kept", []capture.File{failed(dump, capture.ReasonTimeout, "timeout"), aside}, nil,
			takeDecision{down: "timeout", downSay: true, read: true}, health{failures: 1, down: true}},
		{"nothing answers", []capture.File{refused}, nil,
			takeDecision{down: "connection refused", silent: true, forget: true}, health{failures: 2, down: true}},
		{"a moment of that label exists", nil, capture.ErrMomentExists, takeDecision{skip: true}, health{failures: 2, down: true}},
		{"back", []capture.File{dump}, nil, takeDecision{up: true, upAgain: true, read: true}, health{}},
		{"the dump fetched, the disk full", []capture.File{full}, nil, takeDecision{diskSay: "no space left on device", forget: true}, health{disk: true}},
		{"the manifest cannot be written", []capture.File{dump}, errors.New("manifest: read-only"),
			takeDecision{diskErr: true, up: true, read: true}, health{disk: true}},
		{"written again", []capture.File{dump}, nil, takeDecision{diskBack: true, up: true, read: true}, health{}},
	}
	var h health
	for _, s := range steps {
		var d takeDecision
		h, d = judgeTake(h, s.files, s.err)
		if d != s.want || h != s.h {
			t.Errorf("%s: %+v %+v, want %+v %+v", s.name, d, h, s.want, s.h)
		}
	}
}

// TestBackoffTicks: 1 tick while the target answers, then doubling per
// failure up to maxBackoff, and never over maxBackoffTime.
func TestBackoffTicks(t *testing.T) {
	for _, c := range []struct {
		failures int
		every    time.Duration
		want     int
	}{
		{0, time.Second, 1}, {1, time.Second, 1}, {2, time.Second, 2}, {3, time.Second, 4}, {5, time.Second, 16}, {9, time.Second, 16},
		{9, time.Minute, 5}, // 16 minutes over the 5-minute bound
		{9, 10 * time.Minute, 1},
	} {
		if got := backoffTicks(c.failures, c.every); got != c.want {
			t.Errorf("backoffTicks(%d, %v) = %d, want %d", c.failures, c.every, got, c.want)
		}
	}
}
