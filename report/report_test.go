package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

var (
	update = flag.Bool("update", false, "rewrite the golden files in testdata/")
	// A scenario folder appears before its fixtures are final (another
	// engineer generates them); its goldens are written on purpose only.
	newScenarios = flag.Bool("new", false, "with -update, also write goldens for scenarios that have none")
)

// corpusCases are real dumps from the shared corpus; each file's dumps are
// the moments, in file order, labelled by the analysis.
var corpusCases = []struct {
	name  string
	files []string
}{
	// Three jstack dumps a second apart: nine threads blocked on one monitor.
	{"jvm-blocker-example", []string{"jvm/samurai__openjdk-17+35__blocker-example.dmp"}},
	// Three kill -3 dumps inside a catalina.out-style log.
	{"jvm-catalina-3-dumps", []string{"jvm/dumpdiff-gen__openjdk-17.0.15__catalina-out-log-with-3-sigquit-dumps.log"}},
	// One jstack dump with a Java-level deadlock report.
	{"jvm-monitor-deadlock", []string{"jvm/dumpdiff-gen__openjdk-17.0.15__jstack-l-monitor-deadlock.txt"}},
	// Two runtime.Stack dumps of one Go process, a moment apart.
	{"go-stack-set1-set2", []string{"go/go-profiler-notes__go1.15.6__runtime-stack-all-set1.txt", "go/go-profiler-notes__go1.15.6__runtime-stack-all-set2.txt"}},
}

// scenarioMoments are the moments of a scenario folder, in order: before,
// during-1, during-2, after, then after-2, after-3... while the folder has
// them (go-slow-upstream-leak has after-2, once its upstream calls returned).
func scenarioMoments(dir string) []string {
	ms := []string{"before", "during-1", "during-2", "after"}
	for n := 2; ; n++ {
		m := "after-" + strconv.Itoa(n)
		if _, err := os.Stat(filepath.Join(dir, m+".txt")); err != nil {
			return ms
		}
		ms = append(ms, m)
	}
}

// analyzeFiles parses files and analyzes their dumps as moments. It skips
// the test when a file is absent (the shared corpus is not on every
// machine); a file that is there and does not parse fails the test.
func analyzeFiles(t testing.TB, files []string) *analyze.Result {
	t.Helper()
	var in []analyze.Input
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			t.Skipf("input absent (%v): the shared corpus or fixtures are not here", err)
		}
		ds, err := parse.ParseFile(f)
		if err != nil {
			t.Fatalf("parsing %s: %v", f, err)
		}
		for _, d := range ds {
			in = append(in, analyze.Input{Dump: d})
		}
	}
	return analyze.Analyze(in, analyze.Options{})
}

// analyzeScenario reads testdata/scenarios/<name>: one text dump per
// moment, with the same moment's debug=1 and proto dumps as aux when
// present.
func analyzeScenario(t testing.TB, dir string) *analyze.Result {
	t.Helper()
	return analyzeMoments(t, dir, scenarioMoments(dir))
}

// scenarioCuts are the scenario judged as an engineer may find it: without
// its healthy before (arrived mid-incident), and as its first during dump
// alone. Their text goldens are report.CUT.txt.
func scenarioCuts(dir string) map[string][]string {
	ms := scenarioMoments(dir)
	return map[string][]string{"no-before": ms[1:], "single": {"during-1"}}
}

// analyzeMoments reads the given moments of a scenario folder.
func analyzeMoments(t testing.TB, dir string, moments []string) *analyze.Result {
	t.Helper()
	return analyze.Analyze(scenarioInputs(t, dir, moments, ""), analyze.Options{})
}

// scenarioInputs are the given moments of a scenario folder as inputs, of
// a captured target when target is not "".
func scenarioInputs(t testing.TB, dir string, moments []string, target string) []analyze.Input {
	t.Helper()
	var in []analyze.Input
	for _, m := range moments {
		ds, err := parse.ParseFile(filepath.Join(dir, m+".txt"))
		if err != nil || len(ds) != 1 {
			// A committed fixture that does not parse is a failure, never a skip.
			t.Fatalf("parsing %s/%s.txt: %d dumps, %v", dir, m, len(ds), err)
		}
		x := analyze.Input{Label: m, Dump: ds[0], Target: target}
		for _, aux := range []string{m + "-debug1.txt", m + ".pb.gz"} {
			p := filepath.Join(dir, aux)
			if _, err := os.Stat(p); err != nil {
				continue
			}
			ad, err := parse.ParseFile(p)
			if err != nil {
				t.Fatalf("parsing %s: %v", p, err)
			}
			x.Aux = append(x.Aux, ad...)
		}
		in = append(in, x)
	}
	return in
}

func TestGoldenCorpus(t *testing.T) {
	for _, c := range corpusCases {
		t.Run(c.name, func(t *testing.T) {
			var files []string
			for _, f := range c.files {
				files = append(files, filepath.Join("..", "..", "shared", "corpus", f))
			}
			r := analyzeFiles(t, files)
			checkGoldens(t, r, filepath.Join("testdata", "corpus", c.name))
			checkProperties(t, r)
		})
	}
}

// TestGoldenScenarios renders every scenario in ../testdata/scenarios. Its
// goldens are to be read by eye after -update: they must say nothing false
// about what the scenario's README says ran.
func TestGoldenScenarios(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "testdata", "scenarios", "*"))
	if len(dirs) == 0 {
		t.Skip("no scenario in ../testdata/scenarios yet")
	}
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, "before.txt")); err != nil {
			continue // not a scenario folder, or one still being written
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			golden := filepath.Join("testdata", "scenarios", filepath.Base(dir))
			if _, err := os.Stat(golden); err != nil && !(*update && *newScenarios) {
				// A committed scenario without goldens is a failure: write
				// them with -update -new and read them.
				t.Fatalf("no goldens for %s: run go test -update -new and read them", dir)
			}
			r := analyzeScenario(t, dir)
			checkGoldens(t, r, filepath.Join("testdata", "scenarios", filepath.Base(dir)))
			checkProperties(t, r)
			for cut, moments := range scenarioCuts(dir) {
				t.Run(cut, func(t *testing.T) {
					r := analyzeMoments(t, dir, moments)
					checkGolden(t, r, "text", filepath.Join("testdata", "scenarios", filepath.Base(dir), "report."+cut+".txt"))
					checkProperties(t, r)
				})
			}
		})
	}
}

// checkGoldens renders r in every format and compares with dir/report.*.
func checkGoldens(t *testing.T, r *analyze.Result, dir string) {
	t.Helper()
	for _, format := range Formats() {
		checkGolden(t, r, format, filepath.Join(dir, "report."+format.Ext()))
	}
}

// checkGolden renders r in format and compares with the file at path.
func checkGolden(t *testing.T, r *analyze.Result, format Format, path string) {
	t.Helper()
	dir := filepath.Dir(path)
	{
		var b bytes.Buffer
		if err := Generate(&b, r, Options{Format: format}); err != nil {
			t.Fatalf("Generate %s: %v", format, err)
		}
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to write it)", err)
		}
		if diff := cmp.Diff(string(want), b.String()); diff != "" {
			t.Errorf("%s differs from the golden (-want +got; go test -update rewrites it):\n%s", path, diff)
		}
	}
}

// checkProperties checks what every rendering of r must hold, whatever the
// analysis says.
func checkProperties(t *testing.T, r *analyze.Result) {
	t.Helper()
	t.Run("text fits the width", func(t *testing.T) { checkWidth(t, r) })
	t.Run("no colour means no escape byte", func(t *testing.T) { checkNoEscape(t, r) })
	t.Run("colour only adds escapes", func(t *testing.T) { checkColorStrips(t, r) })
	t.Run("json round-trips", func(t *testing.T) { checkJSONRoundTrip(t, r) })
	t.Run("markdown tables keep their columns", func(t *testing.T) { checkMarkdownTables(t, r) })
	t.Run("markdown holds no raw HTML", func(t *testing.T) { checkMarkdownHTML(t, r) })
	t.Run("markdown leads with the verdict", func(t *testing.T) { checkMarkdownLead(t, r) })
	t.Run("jira keeps its syntax", func(t *testing.T) { checkJira(t, r) })
	t.Run("slack is one safe post", func(t *testing.T) { checkSlack(t, r) })
	t.Run("html is one safe file", func(t *testing.T) { checkHTML(t, r) })
}

func render(t *testing.T, r *analyze.Result, opt Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := Generate(&b, r, opt); err != nil {
		t.Fatalf("Generate %+v: %v", opt, err)
	}
	return b.String()
}

func checkWidth(t *testing.T, r *analyze.Result) {
	for _, width := range []int{200, 120, 100, 80, 60, 40} {
		for _, color := range []bool{false, true} {
			for _, verbose := range []bool{false, true} {
				out := render(t, r, Options{Format: "text", Width: width, Color: color, Verbose: verbose})
				for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
					plain := ansi.Strip(l)
					if n := utf8.RuneCountInString(plain); n > width {
						t.Errorf("width %d color %v: line %d has %d runes:\n%s", width, color, i+1, n, plain)
					}
					if n := ansi.StringWidth(plain); n > width {
						t.Errorf("width %d color %v: line %d is %d cells:\n%s", width, color, i+1, n, plain)
					}
				}
			}
		}
	}
}

func checkNoEscape(t *testing.T, r *analyze.Result) {
	for _, format := range Formats() {
		out := render(t, r, Options{Format: format, Verbose: true})
		if i := strings.IndexByte(out, 0x1b); i >= 0 {
			t.Errorf("%s without colour holds an ESC byte at %d: %q", format, i, out[max(0, i-20):min(len(out), i+20)])
		}
	}
}

func checkColorStrips(t *testing.T, r *analyze.Result) {
	plain := render(t, r, Options{Format: "text"})
	colored := render(t, r, Options{Format: "text", Color: true})
	if !strings.Contains(colored, "\x1b[") {
		t.Errorf("text with colour holds no escape sequence")
	}
	if diff := cmp.Diff(plain, ansi.Strip(colored)); diff != "" {
		t.Errorf("colour changed the text, not only its colour (-plain +stripped):\n%s", diff)
	}
}

func checkJSONRoundTrip(t *testing.T, r *analyze.Result) {
	out := render(t, r, Options{Format: "json"})
	doc, err := DecodeJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(NewJSONReport(r), doc); diff != "" {
		t.Errorf("decoded JSON differs from the report (-want +got):\n%s", diff)
	}
	again, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	// The encoder does not escape HTML; MarshalIndent does: compare values.
	var a, b any
	json.Unmarshal([]byte(out), &a)
	json.Unmarshal(again, &b)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("re-encoded JSON differs (-first +again):\n%s", diff)
	}
	if strings.Contains(out, "null") {
		t.Errorf("JSON holds a null; empties must be [] or \"\"")
	}
	if len(doc.Moments) != len(r.Moments) || len(doc.Pools) != len(r.Pools) || len(doc.Findings) != len(r.Findings) {
		t.Errorf("JSON has %d moments, %d pools, %d findings; the analysis %d, %d, %d",
			len(doc.Moments), len(doc.Pools), len(doc.Findings), len(r.Moments), len(r.Pools), len(r.Findings))
	}
	for _, p := range doc.Pools {
		if len(p.Counts) != len(doc.Moments) {
			t.Errorf("pool %q has %d counts for %d moments", p.Name, len(p.Counts), len(doc.Moments))
		}
		for _, s := range p.States {
			if len(s.Counts) != len(doc.Moments) || len(s.Samples) != len(doc.Moments) {
				t.Errorf("state %q of %q has %d counts and %d sample lists for %d moments", s.State, p.Name, len(s.Counts), len(s.Samples), len(doc.Moments))
			}
		}
	}
}

// checkMarkdownTables checks that each table row has as many cells as its
// header, read strictly and loosely (see splitRow).
func checkMarkdownTables(t *testing.T, r *analyze.Result) {
	out := render(t, r, Options{Format: "markdown", Verbose: true})
	head := -1
	for i, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "|") {
			head = -1
			continue
		}
		n, loose := len(splitRow(l)), len(splitRowLoose(l))
		if n != loose {
			t.Errorf("line %d: %d cells read strictly, %d loosely:\n%s", i+1, n, loose, l)
		}
		if head < 0 {
			head = n
			continue
		}
		if n != head {
			t.Errorf("line %d: %d cells, header has %d:\n%s", i+1, n, head, l)
		}
	}
}

// allowedTag is HTML the Markdown view writes itself.
var allowedTag = regexp.MustCompile(`^</?(details|summary)>`)

// checkMarkdownHTML checks that outside code, every "<" is one of the view's
// own tags: no name or frame can inject markup.
func checkMarkdownHTML(t *testing.T, r *analyze.Result) {
	out := render(t, r, Options{Format: "markdown", Verbose: true})
	fence := ""
	for i, l := range strings.Split(out, "\n") {
		if fence != "" {
			if strings.TrimSpace(l) == fence {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(l, "```") {
			fence = strings.TrimRight(l, "abcdefghijklmnopqrstuvwxyz")
			continue
		}
		l = stripCodeSpans(l)
		for j := strings.IndexByte(l, '<'); j >= 0; j = strings.IndexByte(l, '<') {
			if !allowedTag.MatchString(l[j:]) {
				t.Errorf("line %d: raw %q outside code", i+1, l[j:min(len(l), j+20)])
			}
			l = l[j+1:]
		}
	}
}

// stripCodeSpans removes the code spans of a Markdown line (CommonMark: a
// backtick run up to the next run of the same length).
func stripCodeSpans(l string) string {
	var b strings.Builder
	for i := 0; i < len(l); {
		if l[i] != '`' {
			b.WriteByte(l[i])
			i++
			continue
		}
		n := 0
		for i+n < len(l) && l[i+n] == '`' {
			n++
		}
		run := strings.Repeat("`", n)
		end := -1
		for k := i + n; k < len(l); {
			j := strings.Index(l[k:], run)
			if j < 0 {
				break
			}
			j += k
			if j+n < len(l) && l[j+n] == '`' { // a longer run: not the end
				for j < len(l) && l[j] == '`' {
					j++
				}
				k = j
				continue
			}
			end = j + n
			break
		}
		if end < 0 {
			b.WriteString(run)
			i += n
			continue
		}
		i = end
	}
	return b.String()
}

// TestHandmadeProperties runs the checks on an analysis built by hand with
// names made to break Markdown and the terminal.
func TestHandmadeProperties(t *testing.T) {
	checkProperties(t, handmade())
}

// TestHandmadeText checks what the text view must say about a known
// analysis: the verdict before the table, the most severe finding first,
// and the culprit and evidence of each finding.
func TestHandmadeText(t *testing.T) {
	out := render(t, handmade(), Options{Format: "text"})
	order := []string{"VERDICT", "CRITICAL  not-recovered", "UpstreamClient.fetch(UpstreamClient.java:42)",
		"Seen: during-1 200 (http-nio-8080-exec-1", "WARNING   growing", "POOLS", "! http-nio-8080-exec-*",
		"! socket-read via http-client", "JVM internal (2 pools)", "total", "WARNINGS", "3 lines skipped"}
	rest := out
	for _, s := range order {
		i := strings.Index(rest, s)
		if i < 0 {
			t.Fatalf("text view lacks %q after the previous items:\n%s", s, out)
		}
		rest = rest[i+len(s):]
	}
}

func TestGenerateUnknownFormat(t *testing.T) {
	err := Generate(&bytes.Buffer{}, handmade(), Options{Format: "xml"})
	if err == nil || !strings.Contains(err.Error(), `unknown format "xml"`) {
		t.Errorf("Generate(xml) = %v, want an unknown format error", err)
	}
	if err := Generate(&bytes.Buffer{}, nil, Options{}); err == nil {
		t.Errorf("Generate(nil) = nil, want an error")
	}
}

// TestSchemaDocumentsEveryField checks that SCHEMA.md names every JSON
// field, so the document and the types cannot drift apart.
func TestSchemaDocumentsEveryField(t *testing.T) {
	doc, err := os.ReadFile("SCHEMA.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "`version`: `\""+SchemaVersion+"\"`") {
		t.Errorf("SCHEMA.md does not give the version %q as `version`: `\"%s\"`", SchemaVersion, SchemaVersion)
	}
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Slice || ty.Kind() == reflect.Pointer {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] {
			return
		}
		seen[ty] = true
		for f := range ty.Fields() {
			name := strings.Split(f.Tag.Get("json"), ",")[0]
			if !strings.Contains(string(doc), "`"+name+"`") {
				t.Errorf("SCHEMA.md does not document %s.%s (`%s`)", ty.Name(), f.Name, name)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(JSONReport{}))
}
