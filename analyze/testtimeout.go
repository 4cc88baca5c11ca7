package analyze

import (
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// hungTests: a dump go test printed when a test ran past its -timeout
// ("panic: test timed out after 10m0s", "running tests:" naming them) is
// the test framework's own verdict: the tests it names hung. Their
// goroutines — the test's own and those it started, whose frames are the
// test function or its closures — that wait at that moment are what it
// hung on: stuck, on this one dump, with the framework's deadline as the
// evidence (no second moment is needed: the deadline passed). Goroutines
// that run are left out (a test that spins shows as running work).
func hungTests(p *Pass) []Finding {
	r := p.R
	var fs []Finding
	for m, mo := range r.Moments {
		d := mo.Dump
		if d == nil || len(d.RunningTests) == 0 {
			continue
		}
		names := testNames(d.RunningTests)
		f := Finding{ID: "stuck test-timeout", Kind: KindStuck, Severity: Critical, Basis: "test-timeout",
			Headline: d.Headline, Counts: make([]int, len(r.Moments)), At: m, Since: m, FromStart: m == 0}
		var refs []ThreadRef
		for _, t := range d.Threads {
			if !runsTest(t, names) {
				continue
			}
			ref := p.ref(m, t)
			if sig := p.signature(m, t); sig == nil || sig.Category != Waiting && sig.Category != Idle {
				continue
			}
			if f.Pool == "" {
				f.Pool, _ = poolName(r.Runtime, t, p.opt)
				f.State, f.Culprit, f.Frame = ref.State, ref.Culprit, ref.Frame
			}
			refs = append(refs, ref)
		}
		if len(refs) == 0 {
			continue
		}
		f.Counts[m] = len(refs)
		var ids []string
		for _, ref := range refs[:min(len(refs), 3)] {
			ids = append(ids, ref.Name)
		}
		f.Evidence = []Evidence{{Moment: m, Count: len(refs), Threads: ids}}
		fs = append(fs, f)
	}
	return fs
}

// testNames are the top-level test functions of go test's "running tests:"
// lines ("TestTransfer (2s)", "TestA/sub (10m0s)" → TestA).
func testNames(running []string) []string {
	var out []string
	for _, s := range running {
		n, _, _ := strings.Cut(strings.TrimSpace(s), " ")
		n, _, _ = strings.Cut(n, "/")
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// runsTest reports whether one of t's frames is one of the tests (names)
// or a closure of it: "bank.TestTransfer", "bank.TestTransfer.func1".
func runsTest(t *parse.Thread, names []string) bool {
	for _, f := range t.Frames {
		fn := f.Func
		if i := strings.LastIndex(fn, "/"); i >= 0 {
			fn = fn[i+1:]
		}
		_, rest, ok := strings.Cut(fn, ".") // past the package
		if !ok {
			continue
		}
		for _, n := range names {
			if rest == n || strings.HasPrefix(rest, n+".") {
				return true
			}
		}
	}
	return false
}
