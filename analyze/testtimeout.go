package analyze

import (
	"slices"
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
		if d == nil || len(d.RunningTests) == 0 && !strings.HasPrefix(d.Headline, goTestTimedOut) {
			continue
		}
		names := testNames(RunningTests(d))
		if len(names) == 0 {
			continue
		}
		f := Finding{ID: "stuck test-timeout", Kind: KindStuck, Severity: Critical, Basis: "test-timeout",
			Headline: d.Headline, Counts: make([]int, len(r.Moments)), At: m, Since: m, FromStart: m == 0}
		var refs []ThreadRef
		var ts []*parse.Thread
		for _, t := range d.Threads {
			if !runsTest(t, names) {
				continue
			}
			if sig := p.signature(m, t); sig == nil || sig.Category != Waiting && sig.Category != Idle {
				continue
			}
			refs = append(refs, p.ref(m, t))
			ts = append(ts, t)
		}
		if len(refs) == 0 {
			continue
		}
		// The holder first, else the culprit most of them share: not
		// whichever goroutine the panic printed first (leadOf).
		lead := leadOf(p, m, ts)
		refs[0], refs[lead] = refs[lead], refs[0]
		// The goroutines the test started, waiting beside it (workers
		// blocked in a send to a collector that stopped reading): named
		// with it, each the test's own (f.Blocked).
		for _, t := range startedByTest(p.R.Runtime, d, names) {
			if sig := p.signature(m, t); sig == nil || sig.Category != Waiting {
				continue // running, or at rest: an accept loop of a test server
			}
			f.Blocked = append(f.Blocked, p.ref(m, t))
		}
		f.Pool, _ = poolName(r.Runtime, ts[lead], p.opt)
		f.State, f.Culprit, f.Frame = refs[0].State, refs[0].Culprit, refs[0].Frame
		f.Counts[m] = len(refs) + len(f.Blocked)
		var ids []string
		for _, ref := range refs[:min(len(refs), 3)] {
			ids = append(ids, ref.Name)
		}
		f.Evidence = []Evidence{{Moment: m, Count: len(refs), Threads: ids}}
		fs = append(fs, f)
	}
	return fs
}

// goTestTimedOut is how go test's timeout panic begins, in every Go
// version (testing's startAlarm: "panic: test timed out after 2s").
const goTestTimedOut = "panic: test timed out after "

// RunningTests are the tests go test was running when it timed out, in
// the dump d: as its panic prints them (parse.Dump.RunningTests), or,
// where it prints none (Go before 1.20), the tests found running under
// testing.tRunner, each followed by "(running)"; nil when d is no go
// test timeout.
func RunningTests(d *parse.Dump) []string {
	if d == nil {
		return nil
	}
	if len(d.RunningTests) > 0 || !strings.HasPrefix(d.Headline, goTestTimedOut) {
		return d.RunningTests
	}
	var out []string
	for _, n := range testsUnderRunner(d) {
		out = append(out, n+" (running)")
	}
	return out
}

// testsUnderRunner are the top-level tests a go test timeout dump shows
// running when its panic names none (Go before 1.20 printed no "running
// tests:"): the functions testing.tRunner calls, whose name past the
// package is a test's (TestX, or a subtest's closure TestX.func1 → TestX).
// testing's own tRunner (runTests.func1 under main) is not a test.
func testsUnderRunner(d *parse.Dump) []string {
	var out []string
	for _, t := range d.Threads {
		for i, f := range t.Frames {
			if f.Func != "testing.tRunner" || i == 0 {
				continue
			}
			fn := t.Frames[i-1].Func
			if j := strings.LastIndex(fn, "/"); j >= 0 {
				fn = fn[j+1:]
			}
			_, rest, _ := strings.Cut(fn, ".")
			name, _, _ := strings.Cut(rest, ".")
			if strings.HasPrefix(name, "Test") && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
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

// startedByTest are the goroutines of d the tests (names) started, other
// than those running the tests' own functions: those created, at any
// remove, by a goroutine that runs a test (its id printed as the parent,
// Go 1.21+; before, an application function on a test goroutine's stack,
// or one of the test's own package, which the test called and which has
// returned, printed as the creator), and those running code of the tests' own
// _test.go files (an anonymous function of the test file, Go before 1.5's
// func·008). A library's goroutines (a test server's) have no
// application frame and are left out.
func startedByTest(rt parse.Runtime, d *parse.Dump, names []string) []*parse.Thread {
	in := map[*parse.Thread]bool{}
	ids := map[int64]bool{}
	funcs := map[string]bool{}
	files := map[string]bool{}
	add := func(t *parse.Thread) {
		in[t] = true
		if t.ID != 0 {
			ids[t.ID] = true
		}
		for _, f := range t.Frames {
			if isAppFrame(rt, f) {
				funcs[f.Func] = true
			}
		}
	}
	pkgs := map[string]bool{} // the tests' packages
	for _, t := range d.Threads {
		if runsTest(t, names) {
			add(t)
			for _, f := range t.Frames {
				if strings.HasSuffix(f.File, "_test.go") {
					files[f.File] = true
					pkgs[funcPackage(f.Func)] = true
				}
			}
		}
	}
	var out []*parse.Thread
	for grew := true; grew; {
		grew = false
		for _, t := range d.Threads {
			if in[t] || !slices.ContainsFunc(t.Frames, func(f *parse.Frame) bool { return isAppFrame(rt, f) }) {
				continue
			}
			c := t.CreatedBy
			started := c != nil && (c.Parent != 0 && ids[c.Parent] || c.Parent == 0 && (funcs[c.Func] || pkgs[funcPackage(c.Func)]))
			ownFile := slices.ContainsFunc(t.Frames, func(f *parse.Frame) bool { return files[f.File] })
			if started || ownFile {
				add(t)
				out = append(out, t)
				grew = true
			}
		}
	}
	return out
}
