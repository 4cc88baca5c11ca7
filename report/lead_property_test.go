package report

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// TestLeadFitsTheFirstScreenGenerated proves the lead's layout on
// generated analyses rather than the six recorded incidents: any number
// of findings (1 to 12) of any kind and severity, pools, culprits,
// labels and remedies short and long, 1 to 8 moments with and without
// times, at 80 and 120 columns. At each, the lead (title, VERDICT, WHAT TO
// DO and the line that says what was left out) ends within the first
// screen (24 lines); the first finding is always in it, with its kind in
// words; no line is wider than the terminal; a report longer than the
// screen ends with the lead's first line again.
func TestLeadFitsTheFirstScreenGenerated(t *testing.T) {
	for seed := uint64(1); seed <= 400; seed++ {
		rng := rand.New(rand.NewPCG(seed, 34))
		r := genAnalysis(rng)
		for _, width := range []int{80, 120} {
			var b bytes.Buffer
			if err := Text(&b, r, Options{Width: width}); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
			fail := func(format string, a ...any) {
				t.Helper()
				t.Fatalf("seed %d, %d columns, %d findings, %d moments: %s\n%s", seed, width, len(r.Findings), len(r.Moments), fmt.Sprintf(format, a...), out)
			}
			end := -1
			for i, l := range lines {
				if strings.HasPrefix(l, "MOMENTS") {
					end = i
					break
				}
			}
			if end < 0 || end > screenLines {
				fail("the lead ends at line %d, past the first %d", end, screenLines)
			}
			for _, l := range lines {
				if cells(l) > width {
					fail("a line of %d cells: %q", cells(l), l)
				}
			}
			for _, l := range lines[2:end] {
				// After the severity column, parts are one space or " · "
				// apart: a wider gap is a layout seam.
				if len(l) > 12 && strings.Contains(strings.TrimSpace(l[12:]), "   ") {
					fail("a gap in a lead line: %q", l)
				}
			}
			first := r.Findings[0]
			if lines[1] != "VERDICT" || !strings.Contains(lines[2], strings.ToUpper(first.Severity.String())) ||
				!strings.Contains(lines[2], strings.TrimSuffix(truncate(kindInWords(first.Kind), width-14), "…")) {
				fail("the lead does not open with the first finding: %q", lines[2])
			}
			if len(lines) > screenLines && !repeatsLead(lines[len(lines)-1], lines[2]) {
				fail("the last line %q does not repeat the lead's first %q", lines[len(lines)-1], lines[2])
			}
		}
	}
}

// genAnalysis is an analysis made of random facts: moments, a pool with
// a state per finding (its sentence, culprit, stack and labels), and
// findings over them, most severe first, some following from the one
// before.
func genAnalysis(rng *rand.Rand) *analyze.Result {
	n := 1 + rng.IntN(8)
	rt := parse.RuntimeJVM
	if rng.IntN(2) == 0 {
		rt = parse.RuntimeGo
	}
	r := &analyze.Result{Version: "1", Runtime: rt}
	t0 := time.Date(2026, 12, 6, 14, 2, 0, 0, time.UTC)
	timed := rng.IntN(3) > 0
	for i := range n {
		label := fmt.Sprintf("during-%d", i)
		if rng.IntN(6) == 0 {
			label = "samurai__openjdk-17+35__blocker-example#" + fmt.Sprint(i+1) // a long label from a file name
		}
		m := analyze.Moment{Label: label, Format: parse.FormatJVMText, Threads: 100 + rng.IntN(5000)}
		if timed {
			m.Time = t0.Add(time.Duration(i*(5+rng.IntN(60))) * time.Second)
		}
		r.Moments = append(r.Moments, m)
		r.Totals = append(r.Totals, m.Threads)
	}
	counts := func() []int {
		c := make([]int, n)
		for i := range c {
			c[i] = rng.IntN(2000)
		}
		return c
	}
	nf := 1 + rng.IntN(12)
	sevs := make([]analyze.Severity, nf)
	for i := range sevs {
		sevs[i] = analyze.Severity(rng.IntN(3))
	}
	// Most severe first, as the analysis orders them.
	for i := range sevs {
		for j := i + 1; j < len(sevs); j++ {
			if sevs[j] > sevs[i] {
				sevs[i], sevs[j] = sevs[j], sevs[i]
			}
		}
	}
	for i := range nf {
		pool := genName(rng, "pool-", 4+rng.IntN(60))
		state := fmt.Sprintf("state-%d", i)
		culprit := ""
		if rng.IntN(4) > 0 {
			culprit = "com.example." + genName(rng, "Svc", 3+rng.IntN(40)) + ".call(Svc.java:" + fmt.Sprint(1+rng.IntN(900)) + ")"
		}
		c, pc := counts(), counts()
		thread := &parse.Thread{State: "WAITING", Weight: 1, Frames: []*parse.Frame{{Func: "sun.nio.ch.Net.poll"}}}
		if rng.IntN(3) == 0 {
			thread.Labels = map[string]string{"route": "/api/" + genName(rng, "r", 3+rng.IntN(30))}
		}
		threads := make([][]*parse.Thread, n)
		stacks := make([]*parse.Thread, n)
		for m := range n {
			threads[m], stacks[m] = []*parse.Thread{thread}, thread
		}
		g := &analyze.Group{Pool: pool, State: state, Category: analyze.Waiting, Counts: c, Culprit: culprit,
			Explain: genSentence(rng, 2+rng.IntN(25)) + ": " + genSentence(rng, 5), Stacks: stacks, Threads: threads}
		r.Pools = append(r.Pools, &analyze.Pool{Name: pool, Counts: pc, States: []*analyze.Group{g}})
		at, since := rng.IntN(n), rng.IntN(n)
		f := analyze.Finding{ID: fmt.Sprintf("f%d", i), Kind: analyze.Kinds[rng.IntN(len(analyze.Kinds))], Severity: sevs[i],
			Pool: pool, State: state, Counts: c, PoolCounts: pc, Totals: r.Totals, At: at, Since: min(since, at),
			FromStart: since == 0, Culprit: culprit, Frame: "sun.nio.ch.Net.poll", Limit: analyze.Limit{Size: 200, Source: "default"},
			// The facts some kinds read (contention its lock, deadlock its
			// cycle, spinning its loop): every finding has them here.
			Lock: &analyze.LockFact{Address: "0x000000076ab62208", Class: "java.lang.Object", Owner: &analyze.ThreadRef{Name: "holder-1", Frame: "a.B.c"}},
			Cycle: []analyze.CycleMember{{Name: "t-1", WaitsFor: &analyze.LockRef{Address: "0x1", Holder: "t-2"}},
				{Name: "t-2", WaitsFor: &analyze.LockRef{Address: "0x2", Holder: "t-1"}}},
			Loop: []string{"a.B.spin"}, Wall: time.Second, CPU: time.Second, CPUThreads: 1}
		if rng.IntN(2) == 0 {
			f.Remedy = genSentence(rng, 5+rng.IntN(40)) + " ({culprit})"
		}
		if i > 0 && rng.IntN(3) == 0 && sevs[i] == sevs[i-1] {
			f.CausedBy = r.Findings[i-1].ID
		}
		r.Findings = append(r.Findings, f)
	}
	return r
}

// genName is prefix and letters up to n cells.
func genName(rng *rand.Rand, prefix string, n int) string {
	var b strings.Builder
	b.WriteString(prefix)
	for b.Len() < n {
		b.WriteByte(byte('a' + rng.IntN(26)))
	}
	return b.String()
}

// genSentence is n words of 1 to 9 letters.
func genSentence(rng *rand.Rand, n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = genName(rng, "", 1+rng.IntN(9))
	}
	return strings.Join(ws, " ")
}
