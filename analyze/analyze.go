package analyze

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Analyze computes the analysis of the moments, in the order given. It does
// no I/O and does not modify the dumps.
func Analyze(in []Input, opt Options) *Result {
	r, opt, b := prepare(in, opt)
	runDetectors(r, opt, b.classes, b.goLocks)
	setRemedies(r, opt.Extensions)
	r.Notable = notables(r, b.classes)
	return r
}

// prepare is the analysis up to the detectors: the moments, their pools and
// groups, the warnings, and the builder (its classification and Go lock
// waiters are the detectors'), with the options as the build used them.
func prepare(in []Input, opt Options) (*Result, Options, *builder) {
	if opt.Samples <= 0 {
		opt.Samples = 5
	}
	r := &Result{Version: "1"}
	in = resolveDebug1(in)
	in = qualifyShortClasses(in, signatureTable(opt.Extensions), roleTables(opt.Extensions))
	r.Runtime, r.Warnings = runtimeOf(in)
	in, held := heldByAll(in)
	r.Warnings = append(r.Warnings, held...)
	labels := make([]string, len(in)) // as the warnings name the moments
	for i, x := range in {
		label := x.Label
		if label == "" {
			label = LabelFromFile(x.Dump.Source.File)
			if x.Dump.Source.Index > 0 || countFromFile(in, x.Dump.Source.File) > 1 {
				label = fmt.Sprintf("%s#%d", label, x.Dump.Source.Index+1)
			}
		}
		labels[i] = label
		m := Moment{Label: label, Target: x.Target, Source: x.Dump.Source, Format: x.Dump.Format,
			Time: x.Dump.Time, Skipped: len(x.Dump.Skipped), Dump: x.Dump}
		if m.Time.IsZero() {
			m.Time = x.Taken
		}
		if m.Time.IsZero() {
			// A Go text dump prints no time; the proto taken beside it
			// (TimeNanos) does, a few ms apart: the moment's time to
			// the second, where no capture manifest said when it was taken.
			for _, a := range x.Aux {
				if a != nil && !a.Time.IsZero() {
					m.Time = a.Time
					break
				}
			}
		}
		r.Moments = append(r.Moments, m)
		if r.LoadStarted.IsZero() {
			r.LoadStarted = x.LoadStarted
		}
	}
	dedupeLabels(r.Moments)
	r.Cautions = processWarnings(r.Moments)
	r.Warnings = append(slices.Clone(r.Cautions), r.Warnings...)
	opt.roles = roleTables(opt.Extensions)
	if r.Runtime == parse.RuntimeJVM {
		opt.jvmPools = learnJVMPools(in)
		opt.ownForkJoin = ownForkJoin(opt.jvmPools)
	}
	mixed := r.Runtime == parse.RuntimeGo && mixesCreators(in)
	if mixed {
		opt.byEntry = true
	}
	b := newBuilder(r, opt)
	b.build(in)
	// The moments' thread counts are the build's (weights summed as it
	// filed them: one more visit of a million threads each was a serial
	// twentieth of a second).
	for i, x := range in {
		n := b.ms[i].weights
		r.Moments[i].Threads = n
		r.Totals = append(r.Totals, n)
		r.Warnings = append(r.Warnings, skippedWarnings(labels[i], x.Dump.Skipped)...)
		if j := x.Dump.Joined; len(j) > 0 {
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: %d line(s) a prefixing tool cut in two read joined, first at line %d (%s)",
				labels[i], len(j), j[0].Line, j[0].Reason))
		}
		if g := x.Dump.Gaps; len(g) > 0 {
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: %d blank line(s) inside a record read through, first at line %d (%s)",
				labels[i], len(g), g[0].Line, g[0].Reason))
		}
		if pt := x.Dump.Partial; len(pt) > 0 {
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: %d frame line(s) read with a part missing, first at line %d (%s): %q",
				labels[i], len(pt), pt[0].Line, pt[0].Reason, pt[0].Text))
		}
		if e := x.Dump.Excerpt; e != "" {
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: an excerpt, not a whole dump (%s): read for the threads it holds; "+
				"threads it left out are in no count", labels[i], e))
		}
		if n == 0 {
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: the dump holds no threads", labels[i]))
		}
	}
	if r.Runtime == parse.RuntimeJVM {
		if w := virtualThreadWarning(labels, in); w != "" {
			r.Warnings = append(r.Warnings, w)
		}
	}
	if mixed {
		r.Warnings = append(r.Warnings, "the moments mix goroutine dumps that print creators (debug=2) with profiles that do not "+
			"(debug=1, proto): goroutines are pooled by their entry function in every moment")
	}
	b.finish()
	if key, ok := strings.CutPrefix(opt.PoolBy, "label:"); ok && !anyPoolPrefixed(r.Pools, key+"=") {
		r.Warnings = append(r.Warnings, fmt.Sprintf("no goroutine carries the pprof label %q: pooled by creator instead "+
			"(Go text dumps print labels only from Go 1.27, or 1.26 with GODEBUG=tracebacklabels=1; put the debug=1 or "+
			"proto profiles beside the debug=2 dumps in one folder to join their labels)", key))
	}
	return r, opt, b
}

func anyPoolPrefixed(ps []*Pool, prefix string) bool {
	for _, p := range ps {
		if strings.HasPrefix(p.Name, prefix) {
			return true
		}
	}
	return false
}

// resolveDebug1 gives each debug=1 moment the runtime frames its records
// hide, from its own frame lines and from the other dumps given (every
// moment and every other encoding) of the same binary
// (parse.ResolveHiddenFrames): a stack then has the state it has in the
// proto, and one pool keeps one state across encodings. The caller's
// inputs and dumps are not modified.
func resolveDebug1(in []Input) []Input {
	var all []*parse.Dump
	for _, x := range in {
		all = append(all, x.Dump)
		all = append(all, x.Aux...)
	}
	var out []Input
	for i, x := range in {
		if x.Dump == nil || x.Dump.Format != parse.FormatGoDebug1 {
			continue
		}
		if d := parse.ResolveHiddenFrames(x.Dump, all); d != x.Dump {
			if out == nil {
				out = append([]Input(nil), in...)
			}
			out[i].Dump = d
		}
	}
	if out == nil {
		return in
	}
	return out
}

// mixesCreators reports whether some moments print goroutine creators
// (Go text) and others do not (debug=1, proto).
func mixesCreators(in []Input) bool {
	text, aggregated := false, false
	for _, x := range in {
		switch x.Dump.Format {
		case parse.FormatGoText:
			text = true
		case parse.FormatGoDebug1, parse.FormatGoProto:
			aggregated = true
		}
	}
	return text && aggregated
}

// skippedWarnings says what the parser could not read in a dump: lines
// skipped (how many, the first with its reason), and notes about the dump
// as a whole (no line: an input cut in transfer).
func skippedWarnings(label string, skipped []parse.Skipped) []string {
	var out []string
	lines := 0
	var first *parse.Skipped
	for i, s := range skipped {
		if s.Line == 0 && s.Text == "" {
			out = append(out, fmt.Sprintf("%s: %s", label, s.Reason))
			continue
		}
		lines++
		if first == nil {
			first = &skipped[i]
		}
	}
	if first != nil {
		out = append([]string{fmt.Sprintf("%s: %d line(s) not understood and skipped, first at line %d (%s): %q",
			label, lines, first.Line, first.Reason, first.Text)}, out...)
	}
	return out
}

// dedupeLabels makes every moment label unique ("before", "before (2)"), so
// columns and evidence never name two moments alike.
func dedupeLabels(ms []Moment) {
	seen := map[string]int{}
	for i := range ms {
		l := ms[i].Label
		seen[l]++
		if n := seen[l]; n > 1 {
			ms[i].Label = fmt.Sprintf("%s (%d)", l, n)
		}
	}
}

// LabelFromFile derives a moment label from a file name: "dumps/before.txt"
// → "before", "during-1.txt.gz" → "during-1". Only known dump extensions
// are removed, so "jstack.1" and "jstack.2" stay apart.
func LabelFromFile(name string) string {
	if name == "-" {
		return "stdin"
	}
	base := filepath.Base(name)
	for {
		ext := filepath.Ext(base)
		if ext == base || !dumpExts[strings.ToLower(ext)] {
			return base
		}
		base = strings.TrimSuffix(base, ext)
	}
}

// dumpExts are the extensions LabelFromFile removes.
var dumpExts = map[string]bool{".txt": true, ".log": true, ".out": true, ".dmp": true, ".dump": true, ".tdump": true,
	".gz": true, ".pb": true, ".pprof": true, ".prof": true, ".json": true, ".stack": true, ".stacks": true, ".threads": true}

func countFromFile(in []Input, file string) int {
	n := 0
	for _, x := range in {
		if x.Dump.Source.File == file {
			n++
		}
	}
	return n
}

func runtimeOf(in []Input) (parse.Runtime, []string) {
	var rt parse.Runtime
	var warn []string
	for _, x := range in {
		r := x.Dump.Format.Runtime()
		if rt == "" {
			rt = r
		} else if r != rt {
			warn = append(warn, fmt.Sprintf("%s is a %s dump among %s dumps: the moments compare different processes", x.Dump.Source, r, rt))
		}
	}
	return rt, warn
}

// groupKey identifies a group within a pool.
type groupKey struct {
	pool, state, via string
}

func mostCommon(m map[string]int) string {
	best, bc := "", 0
	for k, c := range m {
		if c > bc || (c == bc && k < best) {
			best, bc = k, c
		}
	}
	return best
}

func mostCommonAll(ms []map[string]int) string {
	sum := map[string]int{}
	for _, m := range ms {
		for k, c := range m {
			sum[k] += c
		}
	}
	return mostCommon(sum)
}

// peakAt is the first moment with the largest count.
func peakAt(xs []int) int {
	at := 0
	for i, x := range xs {
		if x > xs[at] {
			at = i
		}
	}
	return at
}

func maxOf(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// change is how much a count series moved: max − min.
func change(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	return hi - lo
}

// auxLabels maps stacks to pprof labels from the aux dumps of a moment (a
// debug=0 proto beside a debug=2 text). A stack whose goroutines carry
// different label sets is left out: the join must not guess.
func auxLabels(aux []*parse.Dump) map[string]map[string]string {
	if len(aux) == 0 {
		return nil
	}
	out := map[string]map[string]string{}
	ambiguous := map[string]bool{}
	for _, d := range aux {
		for _, t := range d.Threads {
			if len(t.Labels) == 0 {
				continue
			}
			k := funcKey(t)
			if prev, ok := out[k]; ok && !sameLabels(prev, t.Labels) {
				ambiguous[k] = true
			}
			out[k] = t.Labels
		}
	}
	for k := range ambiguous {
		delete(out, k)
	}
	return out
}

// funcKey is a stack by function names only: what a debug=2 goroutine and
// the proto sample of the same goroutine have in common.
func funcKey(t *parse.Thread) string {
	var sb strings.Builder
	for _, f := range t.Frames {
		sb.WriteString(normalizeGeneric(f.Func))
		sb.WriteByte('\n')
	}
	return sb.String()
}

func sameLabels(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func withLabels(t *parse.Thread, l map[string]string) *parse.Thread {
	c := *t
	c.Labels = l
	return &c
}
