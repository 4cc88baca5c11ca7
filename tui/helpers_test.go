package tui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

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

// send drives m through keys as the program would (step); a key of more
// than one rune that is not a named key is typed rune by rune.
func send(t testing.TB, m Model, keys ...string) Model {
	t.Helper()
	m, _ = sendOut(t, m, keys...)
	return m
}

// sendOut is send that also returns what the keys asked of the terminal.
func sendOut(t testing.TB, m Model, keys ...string) (Model, []tea.Msg) {
	t.Helper()
	var out []tea.Msg
	for _, k := range keys {
		msgs := []tea.Msg{press(k)}
		if len([]rune(k)) > 1 && press(k).Code == []rune(k)[0] && press(k).Text == k {
			msgs = msgs[:0]
			for _, r := range k {
				msgs = append(msgs, press(string(r)))
			}
		}
		for _, msg := range msgs {
			var o []tea.Msg
			m, o = step(t, m, msg)
			out = append(out, o...)
		}
	}
	return m, out
}

// step gives m one message as the program would: the commands it returns
// run and their messages are fed back (a pane to open, a status), until
// none is left. What they ask of the terminal — quit, the clipboard — is
// returned instead (bubbletea's own messages).
func step(t testing.TB, m Model, msg tea.Msg) (Model, []tea.Msg) {
	t.Helper()
	queue := []tea.Msg{msg}
	var out []tea.Msg
	for n := 0; len(queue) > 0; n++ {
		if n > 100 {
			t.Fatalf("more than 100 messages from one message: %T", msg)
		}
		nm, cmd := m.Update(queue[0])
		m = nm.(Model)
		queue = append(queue[1:], runCmd(t, cmd, &out)...)
	}
	return m, out
}

// runCmd runs cmd (bounded: a command that waits, a timer, fails the test)
// and returns its messages for the model; bubbletea's own go to out.
func runCmd(t testing.TB, cmd tea.Cmd, out *[]tea.Msg) []tea.Msg {
	t.Helper()
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("a command did not answer within 5 s: the TUI must not return timers")
	}
	switch msg := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var q []tea.Msg
		for _, c := range msg {
			q = append(q, runCmd(t, c, out)...)
		}
		return q
	}
	if ty := reflect.TypeOf(msg); ty.PkgPath() == "charm.land/bubbletea/v2" {
		*out = append(*out, msg)
		return nil
	}
	return []tea.Msg{msg}
}

// clipboard is what msgs put on the clipboard (tea.SetClipboard's message,
// which the program writes as OSC 52); ok is false when none does.
func clipboard(msgs []tea.Msg) (string, bool) {
	for _, msg := range msgs {
		if fmt.Sprintf("%T", msg) == "tea.setClipboardMsg" {
			return fmt.Sprint(msg), true
		}
	}
	return "", false
}

// quits reports whether msgs hold tea.QuitMsg.
func quits(msgs []tea.Msg) bool {
	for _, msg := range msgs {
		if _, ok := msg.(tea.QuitMsg); ok {
			return true
		}
	}
	return false
}

// paneOf returns the topmost pane of type P in m's stack; it fails the
// test when there is none.
func paneOf[P pane](t testing.TB, m Model) P {
	t.Helper()
	for i := len(m.stack) - 1; i >= 0; i-- {
		if p, ok := m.stack[i].(P); ok {
			return p
		}
	}
	var zero P
	t.Fatalf("no %T in the stack (screen %d)", zero, m.screen())
	return zero
}

func overviewOf(t testing.TB, m Model) *overviewPane { t.Helper(); return paneOf[*overviewPane](t, m) }
func poolOf(t testing.TB, m Model) *poolPane         { t.Helper(); return paneOf[*poolPane](t, m) }
func stateOf(t testing.TB, m Model) *statePane       { t.Helper(); return paneOf[*statePane](t, m) }

// click is a left click at column x, row y of the screen.
func click(x, y int) tea.MouseClickMsg {
	return tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft}
}

// wheel is one notch of the wheel (down when down) at row y.
func wheel(y int, down bool) tea.MouseWheelMsg {
	b := tea.MouseWheelUp
	if down {
		b = tea.MouseWheelDown
	}
	return tea.MouseWheelMsg{X: 10, Y: y, Button: b}
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

// deadlock is the real JVM lock-order deadlock: transfer-1 and transfer-2
// each hold the account the other wants; audit and 8 tellers wait behind
// the cycle's locks without being in it. One jstack -l dump.
func deadlock(t testing.TB) *analyze.Result {
	return analyzeFiles(t, "../testdata/verdicts/jvm-lock-order-deadlock/dump.txt")
}

// noTimeout is the real Tomcat service whose 200 workers (the maxThreads
// default) all end up reading a slow upstream without a timeout:
// saturated, with the pool's limit.
func noTimeout(t testing.TB) *analyze.Result {
	dir := filepath.Join(scenarios, "slow-upstream-no-timeout")
	var files []string
	for _, m := range []string{"before", "during-1", "during-2", "after"} {
		files = append(files, filepath.Join(dir, m+".txt"))
	}
	return analyzeFiles(t, files...)
}

// goLabels is a real Go 1.26 debug=2 dump written with
// GODEBUG=tracebacklabels=1: goroutine headers carry pprof labels.
func goLabels(t testing.TB) *analyze.Result {
	return analyzeFiles(t, "../testdata/go/go1.26.8-tracebacklabels-debug2.txt")
}

// empty is the analysis of no dump at all.
func empty(testing.TB) *analyze.Result { return analyze.Analyze(nil, analyze.Options{}) }
