package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// TestOneDumpSentences (issue 33): what one dump says is said as one
// dump's evidence, with the command that takes the next dumps, and a
// running holder leads its contention with "likely spinning or slow while
// holding the lock", the weaker evidence, where no spinning finding is.
func TestOneDumpSentences(t *testing.T) {
	verdicts := filepath.Join("..", "testdata", "verdicts")
	summaries := func(r *analyze.Result) string {
		var b strings.Builder
		for i := range r.Findings {
			b.WriteString(Summary(r, &r.Findings[i]) + "\n")
		}
		return b.String()
	}
	// Two reading workers pasted alone: the paste, its share, the caveat.
	r := analyzeFiles(t, []string{filepath.Join(verdicts, "onedump-read-pool-stuck", "excerpt.txt")})
	s := summaries(r)
	for _, want := range []string{"in this paste of 2 threads, which a person cut from a dump",
		"one dump cannot tell stuck from busy", "dumpdiff capture --pid PID --every " + oneDumpInterval} {
		if !strings.Contains(s, want) {
			t.Errorf("paste: %q not in\n%s", want, s)
		}
	}
	// A lone untimed read: every application thread waits.
	s = summaries(analyzeFiles(t, []string{filepath.Join(verdicts, "onedump-read-alone", "1.txt")}))
	if !strings.Contains(s, "every application thread of this dump waits on what it names") {
		t.Errorf("read-alone: no word of the whole process waiting in\n%s", s)
	}
	// A running holder in one dump without cpu= (JDK 8's header).
	b, err := os.ReadFile(filepath.Join(verdicts, "holder-spin-stuck", "1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	noCPU := regexp.MustCompile(` (cpu=[0-9.]+ms|elapsed=[0-9.]+s)`).ReplaceAllString(string(b), "")
	ds, err := parse.Parse("1.txt", strings.NewReader(noCPU))
	if err != nil {
		t.Fatal(err)
	}
	r = analyze.Analyze([]analyze.Input{{Dump: ds[0]}}, analyze.Options{})
	s = summaries(r)
	if !strings.Contains(s, `held by "index-rebuilder"`) || !strings.Contains(s, "likely spinning or slow while holding the lock") {
		t.Errorf("running holder: want it named and said likely spinning or slow, got\n%s", s)
	}
	rs := buildRows(r, Options{})
	if len(rs.findings) == 0 || !strings.HasPrefix(rs.findings[0].holder, `held by "index-rebuilder", running at IndexRebuilder.rebuild`) {
		t.Errorf("the lead's holder: %+v", rs.findings)
	}
}
