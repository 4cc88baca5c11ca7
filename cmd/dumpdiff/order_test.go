package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dumpdiff/dumpdiff/tui"
)

// jvmScenarios are the recorded incidents whose dumps print their times
// (jstack's date line).
var jvmScenarios = []string{
	"completablefuture-thread-per-task", "hikari-pool-exhausted", "mypage-pool-stuck",
	"slow-upstream-bulkhead", "slow-upstream-no-timeout",
}

// textReport runs the main job and returns stdout, failing on an error.
func textReport(t *testing.T, args ...string) (string, string) {
	t.Helper()
	code, out, errs := runArgs(t, append([]string{"--color", "never"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	return out, errs
}

// TestOrderAndCopiesProperty is the property behind time order and the
// same dump twice, on generated argument lists: every recorded JVM
// scenario, its files given in a random order with random copies of its
// dumps among them (a re-download under the same name in another folder,
// or the dump inside a log file with other lines around it), gives the
// very report its folder gives. Seeded; the seed and the arguments are
// printed on failure.
func TestOrderAndCopiesProperty(t *testing.T) {
	moments := []string{"before", "during-1", "during-2", "after"}
	for _, sc := range jvmScenarios {
		dir := filepath.Join("../../testdata/scenarios", sc)
		want, _ := textReport(t, dir)
		for trial := range 6 {
			seed := uint64(len(sc)*1000 + trial)
			rng := rand.New(rand.NewPCG(seed, 7))
			var args []string
			for _, m := range moments {
				args = append(args, filepath.Join(dir, m+".txt"))
			}
			rng.Shuffle(len(args), func(i, j int) { args[i], args[j] = args[j], args[i] })
			copies := 1 + rng.IntN(3)
			tmp := t.TempDir()
			for c := range copies {
				m := moments[rng.IntN(len(moments))]
				data, err := os.ReadFile(filepath.Join(dir, m+".txt"))
				if err != nil {
					t.Fatal(err)
				}
				sub := filepath.Join(tmp, fmt.Sprint(c))
				os.MkdirAll(sub, 0o700)
				path := filepath.Join(sub, m+".txt")
				if rng.IntN(2) == 0 { // inside a log, with lines around it
					path = filepath.Join(sub, m+".log")
					data = append([]byte("2026-11-29 17:50:00 INFO started\nsome other line\n"), append(data, "\n2026-11-29 17:59:00 INFO stopping\n"...)...)
				}
				if err := os.WriteFile(path, data, 0o600); err != nil {
					t.Fatal(err)
				}
				at := rng.IntN(len(args) + 1)
				args = append(args[:at], append([]string{path}, args[at:]...)...)
			}
			got, errs := textReport(t, args...)
			if got != want {
				t.Errorf("%s, seed %d, args %v: the report differs from the folder's\n--- folder\n%s\n--- args\n%s\nstderr:\n%s", sc, seed, args, want, got, errs)
				continue
			}
			if n := strings.Count(errs, "is the same dump as"); n != copies {
				t.Errorf("%s, seed %d: %d same-dump warnings for %d copies:\n%s", sc, seed, n, copies, errs)
			}
		}
	}
}

// TestTimeOrderDefault: the shell's order (after, before, during-1,
// during-2) is read in time order by default, and that is said; --order
// args keeps the arguments' order; --sort time is an alias.
func TestTimeOrderDefault(t *testing.T) {
	dir := "../../testdata/scenarios/slow-upstream-no-timeout/"
	glob := []string{dir + "after.txt", dir + "before.txt", dir + "during-1.txt", dir + "during-2.txt"}
	code, out, errs := runArgs(t, append([]string{"--format", "json"}, glob...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "moments ordered by their times, not as given: before, during-1, during-2, after") {
		t.Errorf("no note of the reordering:\n%s", errs)
	}
	if strings.Contains(out, `"already so at`) {
		t.Errorf("the verdict still speaks of the first moment given")
	}
	if got := momentLabels(jsonReport(t, glob...)); got != "before,during-1,during-2,after" {
		t.Errorf("default order %s, want before,during-1,during-2,after", got)
	}
	if got := momentLabels(jsonReport(t, append([]string{"--order", "args"}, glob...)...)); got != "after,before,during-1,during-2" {
		t.Errorf("--order args gave %s", got)
	}
	if got := momentLabels(jsonReport(t, append([]string{"--sort", "args"}, glob...)...)); got != "after,before,during-1,during-2" {
		t.Errorf("--sort args (the alias) gave %s", got)
	}
	// In time order already: nothing to say.
	_, errs = textReport(t, dir+"before.txt", dir+"during-1.txt")
	if strings.Contains(errs, "ordered by their times") {
		t.Errorf("a note although the order given is the time order:\n%s", errs)
	}
}

// TestLabelsFollowTheirDumps: --labels name the dumps in the order given,
// whatever order time then puts them in.
func TestLabelsFollowTheirDumps(t *testing.T) {
	dir := "../../testdata/scenarios/slow-upstream-no-timeout/"
	doc := jsonReport(t, "--labels", "late,early", dir+"after.txt", dir+"before.txt")
	if got := momentLabels(doc); got != "early,late" {
		t.Errorf("labels %s, want early,late (after.txt is late)", got)
	}
}

// TestUntimedKeepTheirPlace: a dump that prints no time keeps its place
// among the arguments; the timed ones are ordered around it, and both are
// said. Dumps without any time in the wrong order by name are questioned.
func TestUntimedKeepTheirPlace(t *testing.T) {
	dir := "../../testdata/scenarios/slow-upstream-no-timeout/"
	data, err := os.ReadFile(dir + "during-1.txt")
	if err != nil {
		t.Fatal(err)
	}
	// jstack's first line is its date: without it the dump has no time.
	lines := strings.SplitN(string(data), "\n", 2)
	if !strings.HasPrefix(lines[0], "2026-") {
		t.Fatalf("first line %q is not jstack's date", lines[0])
	}
	// Without elapsed= either (a JDK 8 dump prints none), nothing dates
	// it: it keeps its place (with elapsed=, TestDateByElapsedProperty
	// and the case below).
	untimed := filepath.Join(t.TempDir(), "middle.txt")
	os.WriteFile(untimed, []byte(elapsedField.ReplaceAllString(lines[1], "")), 0o600)
	code, out, errs := runArgs(t, "--format", "json", dir+"after.txt", untimed, dir+"before.txt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	doc := jsonReport(t, dir+"after.txt", untimed, dir+"before.txt")
	if got := momentLabels(doc); got != "before,middle,after" {
		t.Errorf("order %s, want before,middle,after (middle keeps its place, the timed swap around it)", got)
	}
	for _, want := range []string{"prints no time", "kept at its place", "moments ordered by their times"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	_ = out

	// With its threads' elapsed=, the same dump given first is dated
	// against the others and put at its moment.
	dated := filepath.Join(t.TempDir(), "middle.txt")
	os.WriteFile(dated, []byte(lines[1]), 0o600)
	_, errs = textReport(t, dated, dir+"after.txt", dir+"before.txt")
	if got := momentLabels(jsonReport(t, dated, dir+"after.txt", dir+"before.txt")); got != "before,middle,after" {
		t.Errorf("order %s, want before,middle,after (middle dated by its threads' elapsed=)", got)
	}
	if !strings.Contains(errs, "prints no time: dated") {
		t.Errorf("stderr does not say how middle was dated:\n%s", errs)
	}

	g := "../../testdata/scenarios/go-slow-upstream-leak/"
	_, errs = textReport(t, g+"after.txt", g+"before.txt")
	if !strings.Contains(errs, "after.txt is given before "+g+"before.txt, and no dump prints a time") {
		t.Errorf("Go dumps given after-first are not questioned:\n%s", errs)
	}
}

// TestSameTimeDifferentThreads: two dumps that print the same time but
// hold different threads are two moments, and that is said.
func TestSameTimeDifferentThreads(t *testing.T) {
	dir := "../../testdata/scenarios/slow-upstream-no-timeout/"
	data, err := os.ReadFile(dir + "during-1.txt")
	if err != nil {
		t.Fatal(err)
	}
	other := strings.Replace(string(data), `"http-nio-18080-exec-1"`, `"http-nio-18080-exec-1-renamed"`, 1)
	if other == string(data) {
		t.Fatal("no thread to rename")
	}
	path := filepath.Join(t.TempDir(), "other.txt")
	os.WriteFile(path, []byte(other), 0o600)
	code, out, errs := runArgs(t, "--format", "json", dir+"during-1.txt", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "print the same time (2026-11-29 17:53:18) but hold different threads") {
		t.Errorf("no warning:\n%s", errs)
	}
	if n := strings.Count(out, `"file":`); n != 2 {
		t.Errorf("%d moments, want 2", n)
	}
}

// TestGoCopyIsOneMoment: Go debug=2 dumps print no time; a copy of one
// (same threads, same ids, same waits) is still one moment.
func TestGoCopyIsOneMoment(t *testing.T) {
	g := "../../testdata/scenarios/go-slow-upstream-leak/"
	data, _ := os.ReadFile(g + "during-1.txt")
	sub := filepath.Join(t.TempDir(), "dl")
	os.MkdirAll(sub, 0o700)
	os.WriteFile(filepath.Join(sub, "during-1.txt"), data, 0o600)
	want, _ := textReport(t, g+"before.txt", g+"during-1.txt", g+"after.txt")
	got, errs := textReport(t, g+"before.txt", g+"during-1.txt", filepath.Join(sub, "during-1.txt"), g+"after.txt")
	if got != want || !strings.Contains(errs, "is the same dump as") {
		t.Errorf("a Go copy changed the report:\n%s\n---\n%s\n%s", want, got, errs)
	}
}

// TestTUIShowsTimeOrder: the TUI reads the moments as the main command
// does, in time order, and its first screen says that they were reordered
// (the loading notes lead its warnings: the terminal it owns cannot print
// them).
func TestTUIShowsTimeOrder(t *testing.T) {
	dir := "../../testdata/scenarios/slow-upstream-no-timeout/"
	glob := []string{dir + "after.txt", dir + "before.txt", dir + "during-1.txt", dir + "during-2.txt"}
	for _, order := range []string{"time", "args"} {
		af := &analysisFlags{order: order, stdin: strings.NewReader("")}
		rs, err := tuiResults(af, glob)
		if err != nil {
			t.Fatal(err)
		}
		m := tui.NewMany(rs, tui.Options{NoColor: true})
		v, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
		screen := ansi.Strip(v.(tui.Model).View().Content)
		// The pools table's header names the moments in the TUI's order.
		header := ""
		for _, line := range strings.Split(screen, "\n") {
			if strings.Contains(line, "trend") {
				header = line
			}
		}
		var at []int
		for _, label := range []string{"before", "during-1", "during-2", "after"} {
			at = append(at, strings.Index(header, label))
		}
		inOrder := slices.IsSorted(at) && at[0] >= 0
		noted := strings.Contains(screen, "moments ordered by their times")
		switch {
		case order == "time" && (!inOrder || !noted):
			t.Errorf("--order time: moments at %v (want before < during-1 < during-2 < after), note shown %v:\n%s", at, noted, screen)
		case order == "args" && (inOrder || noted):
			t.Errorf("--order args: the TUI reordered (%v) or said so (%v):\n%s", at, noted, screen)
		}
	}
}

// TestAggregatedSameIsTwoMoments: debug=1 profiles print no time and no
// goroutine id, so two files holding the same records are two captures of
// a process in which nothing moved as likely as a copy: both are moments,
// in their places, with a note (go-moments-stuck-debug1's 1.txt and 3.txt,
// taken 10 s apart, are identical); the very same file given twice is a
// copy, read once. Go debug=2 dumps alike but for their printed arguments
// are moments too.
func TestAggregatedSameIsTwoMoments(t *testing.T) {
	d := "../../testdata/verdicts/go-moments-stuck-debug1/"
	code, out, errs := runArgs(t, "--format", "json", d+"1.txt", d+"2.txt", d+"3.txt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := strings.Count(out, `"file":`); n != 3 {
		t.Errorf("%d moments, want 3:\n%s", n, errs)
	}
	if !strings.Contains(errs, "note: ") || strings.Contains(errs, "is the same dump as") || strings.Contains(errs, "sign that the process is stuck") {
		t.Errorf("want a note, no merge and no word of stuck:\n%s", errs)
	}
	code, out, errs = runArgs(t, "--format", "json", d+"1.txt", d+"2.txt", d+"2.txt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := strings.Count(out, `"file":`); n != 2 || !strings.Contains(errs, "read once") {
		t.Errorf("the same file twice: %d moments, want 2 (a copy):\n%s", n, errs)
	}
	// debug=2 dumps of a process in which no goroutine moved (the dumper
	// is main's goroutine, the same id each time): the same ids in the
	// same places, texts that differ in the printed arguments.
	g := "../../testdata/verdicts/go-moments-stuck/"
	code, out, errs = runArgs(t, "--format", "json", g+"1.txt", g+"2.txt", g+"3.txt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := strings.Count(out, `"file":`); n != 3 || strings.Count(errs, "its text differs") != 2 {
		t.Errorf("go-moments-stuck: %d moments, want 3, each later one said alike:\n%s", n, errs)
	}
}
