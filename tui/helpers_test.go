package tui

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const (
	corpus    = "../../shared/corpus"
	scenarios = "../testdata/scenarios"
)

// analyzeFiles parses real dumps and analyzes them, one moment per dump in
// file order; it skips the test when a file is absent.
func analyzeFiles(t testing.TB, files ...string) *analyze.Result {
	return analyzeTarget(t, "", nil, files)
}

// analyzeTarget analyzes real dumps as one captured target (none when
// target is empty): one moment per dump in file order, labelled by labels
// (one per file; from the file names when nil). It skips the test when a
// file is absent.
func analyzeTarget(t testing.TB, target string, labels, files []string) *analyze.Result {
	t.Helper()
	var in []analyze.Input
	for i, f := range files {
		if _, err := os.Stat(f); err != nil {
			t.Skipf("real dump %s not available: %v", f, err)
		}
		dumps, err := parse.ParseFile(f)
		if err != nil {
			t.Fatalf("parsing %s: %v", f, err)
		}
		for _, d := range dumps {
			x := analyze.Input{Dump: d, Target: target}
			if labels != nil {
				x.Label = labels[i]
			}
			in = append(in, x)
		}
	}
	return analyze.Analyze(in, analyze.Options{})
}

// samurai is a real JDK 17 jstack log holding three dumps of ten threads
// fighting over one monitor.
func samurai(t testing.TB) *analyze.Result {
	return analyzeFiles(t, filepath.Join(corpus, "jvm/samurai__openjdk-17+35__blocker-example.dmp"))
}

// goMoments are the moments of the Go scenario: at after both faults hold
// 150 goroutines; at after-2 the upstream calls have returned and the
// leaked senders have not.
var goMoments = []string{"before", "during-1", "during-2", "after", "after-2"}

// goScenario is the real Go service profiled at five moments while an
// upstream call without timeout piles up goroutines (they drain by
// after-2) and a channel send leaks one per search (they never do).
func goScenario(t testing.TB) *analyze.Result {
	dir := filepath.Join(scenarios, "go-slow-upstream-leak")
	var files []string
	for _, m := range goMoments {
		files = append(files, filepath.Join(dir, m+".txt"))
	}
	return analyzeFiles(t, files...)
}

// press turns a key name ("enter", "esc", "left", "ctrl+c", "a") into the
// message the terminal would send.
func press(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// send drives m through keys; a key of more than one rune that is not a
// named key is typed rune by rune.
func send(t testing.TB, m Model, keys ...string) Model {
	t.Helper()
	for _, k := range keys {
		msgs := []tea.Msg{press(k)}
		if len([]rune(k)) > 1 && press(k).Code == []rune(k)[0] && press(k).Text == k {
			msgs = msgs[:0]
			for _, r := range k {
				msgs = append(msgs, press(string(r)))
			}
		}
		for _, msg := range msgs {
			nm, _ := m.Update(msg)
			m = nm.(Model)
		}
	}
	return m
}

var trailingSpace = regexp.MustCompile(`(?m)[ \t]+$`)

// text is the view as text: ANSI stripped, trailing spaces cut.
func text(m Model) string {
	return trailingSpace.ReplaceAllString(ansi.Strip(m.View().Content), "")
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func contains(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s does not contain %q:\n%s", what, w, text)
		}
	}
}

type analyzeResult = analyze.Result

func goData(t testing.TB) *analyze.Result  { return goScenario(t) }
func jvmData(t testing.TB) *analyze.Result { return samurai(t) }

// goDebug1 is the same Go scenario read from the debug=1 profiles, which
// aggregate goroutines by stack and print no goroutine ids.
func goDebug1(t testing.TB) *analyze.Result {
	dir := filepath.Join(scenarios, "go-slow-upstream-leak")
	var files []string
	for _, m := range goMoments {
		files = append(files, filepath.Join(dir, m+"-debug1.txt"))
	}
	return analyzeFiles(t, files...)
}

// goOneMoment is the Go scenario's first moment alone.
func goOneMoment(t testing.TB) *analyze.Result {
	return analyzeFiles(t, filepath.Join(scenarios, "go-slow-upstream-leak", "before.txt"))
}

// hikari is the real JVM scenario of Tomcat workers waiting for a HikariCP
// connection, at four moments.
func hikari(t testing.TB) *analyze.Result {
	dir := filepath.Join(scenarios, "hikari-pool-exhausted")
	var files []string
	for _, m := range []string{"before", "during-1", "during-2", "after"} {
		files = append(files, filepath.Join(dir, m+".txt"))
	}
	return analyzeFiles(t, files...)
}

// empty is the analysis of no dump at all.
func empty(testing.TB) *analyze.Result { return analyze.Analyze(nil, analyze.Options{}) }
