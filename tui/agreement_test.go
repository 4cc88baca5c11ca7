package tui

import (
	"bytes"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/report"
)

// TestViewsAgree: every view of every fixture in testdata/scenarios and
// testdata/verdicts says the same words for the same facts. The words are
// the report's document (report.Document): the lead (the root cause's
// claim, whether it recovered, its numbers, culprit and entry points; each
// consequence's claim) in Markdown, Jira, Slack and HTML; each finding's
// heading, numbers line and facts (top frame, culprit, seen, follows
// from, leads to) in Markdown, Jira and HTML; its counts and what was seen
// in the text view; its numbers line and facts in the TUI's finding pane.
// Markup is taken off each view (its escapes, code spans, bold, tags) and
// white space, parentheses and case are ignored: a view may wrap, mark and
// capitalize, never say other words.
func TestViewsAgree(t *testing.T) {
	for _, dir := range agreementFixtures(t) {
		t.Run(filepath.Base(filepath.Dir(dir))+"/"+filepath.Base(dir), func(t *testing.T) {
			r := analyzeDir(t, dir)
			doc := report.NewDocument(r)
			views := map[string]string{}
			for _, f := range []report.Format{report.FormatText, report.FormatMarkdown, report.FormatJira, report.FormatSlack, report.FormatHTML} {
				var b bytes.Buffer
				if err := report.Generate(&b, r, report.Options{Format: f, Width: 10000}); err != nil {
					t.Fatal(err)
				}
				views[string(f)] = plainOf(f, b.String())
			}
			say := func(view, what, words string) {
				t.Helper()
				if words != "" && !strings.Contains(views[view], canon(words)) {
					t.Errorf("%s does not say the %s %q:\n%s", view, what, words, views[view])
				}
			}
			root := -1
			for i := range r.Findings {
				if r.Findings[i].CausedBy == "" {
					root = i
					break
				}
			}
			if len(r.Findings) > 0 && root < 0 {
				root = 0
			}
			for i := range r.Findings {
				f := &r.Findings[i]
				ft, ok := doc.Finding(f.ID)
				if !ok {
					t.Fatalf("the document has no finding %s", f.ID)
				}
				facts := map[string]string{}
				for _, x := range ft.Facts {
					facts[x.Label] = x.Value
				}
				head, _, _ := strings.Cut(report.Summary(r, f), "; ")
				lead := i == root || (root >= 0 && f.CausedBy == r.Findings[root].ID)
				for _, v := range []string{"markdown", "jira", "html", "slack"} {
					if !lead || v == "slack" && i != root && consequenceIndex(r, root, i) >= 2 {
						continue
					}
					say(v, "claim of finding "+f.ID, head)
					if i == root {
						_, rec, _ := strings.Cut(ft.Counts, " · recovered: ")
						say(v, "recovery", rec)
						say(v, "numbers", facts["Numbers"])
						say(v, "culprit", facts["Culprit"])
						say(v, "entry points", facts["Entry points"])
					}
				}
				if i == root {
					say("slack", "title", ft.Title)
				}
				for _, v := range []string{"markdown", "jira", "html"} {
					say(v, "heading of finding "+f.ID, ft.Title)
					say(v, "numbers line of finding "+f.ID, ft.Counts)
					for _, label := range []string{"Top frame", "Culprit", "Seen", "Follows from", "Leads to"} {
						if val, ok := facts[label]; ok {
							say(v, label+" of finding "+f.ID, label+" "+val)
						}
					}
				}
				say("text", "counts of finding "+f.ID, arrows(f.Counts))
				if val, ok := facts["Seen"]; ok {
					say("text", "Seen of finding "+f.ID, "Seen "+val)
				}

				d := newDetailPane(common{ix: newIndex(r), st: newStyles(true), keys: newKeyMap(), width: 10000, height: 100}, f)
				tuiView := canon(ansi.Strip(strings.Join(d.doc, "\n")))
				if !strings.Contains(tuiView, canon(ft.Counts)) {
					t.Errorf("the TUI's finding %s does not say its numbers line %q:\n%s", f.ID, ft.Counts, tuiView)
				}
				for _, x := range ft.Facts {
					if !strings.Contains(tuiView, canon(x.Label+" "+x.Value)) {
						t.Errorf("the TUI's finding %s does not say %s %q:\n%s", f.ID, x.Label, x.Value, tuiView)
					}
				}
			}
		})
	}
}

// consequenceIndex is the position of finding i among the consequences of
// root (0 for the first); -1 when it is not one. Slack names two.
func consequenceIndex(r *analyze.Result, root, i int) int {
	n := 0
	for k := range r.Findings {
		if r.Findings[k].CausedBy != "" && r.Findings[k].CausedBy == r.Findings[root].ID {
			if k == i {
				return n
			}
			n++
		}
	}
	return -1
}

func arrows(c []int) string {
	var s []string
	for _, v := range c {
		s = append(s, itoa(v))
	}
	return strings.Join(s, " → ")
}

// agreementFixtures are the folders of testdata/scenarios and
// testdata/verdicts.
func agreementFixtures(t *testing.T) []string {
	var out []string
	for _, root := range []string{"../testdata/scenarios", "../testdata/verdicts"} {
		es, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.IsDir() {
				out = append(out, filepath.Join(root, e.Name()))
			}
		}
	}
	return out
}

// analyzeDir analyzes a fixture folder: a scenario's before, during-1,
// during-2, after (then after-2...) as they are there, or a verdict's text
// dumps (else its gzipped ones, else its JSON ones) in name order.
func analyzeDir(t *testing.T, dir string) *analyze.Result {
	var files []string
	if _, err := os.Stat(filepath.Join(dir, "before.txt")); err == nil {
		for _, m := range []string{"before", "during-1", "during-2", "after", "after-2", "after-3"} {
			if p := filepath.Join(dir, m+".txt"); fileExists(p) {
				files = append(files, p)
			}
		}
	} else {
		ms, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		if len(ms) == 0 { // gzipped text dumps (thousands of goroutines)
			ms, _ = filepath.Glob(filepath.Join(dir, "*.txt.gz"))
		}
		if len(ms) == 0 { // JSON dumps (Actuator's shape)
			ms, _ = filepath.Glob(filepath.Join(dir, "*.json"))
		}
		sort.Strings(ms)
		files = ms
	}
	if len(files) == 0 {
		t.Fatalf("no dumps in %s", dir)
	}
	return analyzeFiles(t, files...)
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

var (
	backslashed = regexp.MustCompile(`\\(.)`)
	htmlTag     = regexp.MustCompile(`<[^>]*>`)
	jiraColor   = regexp.MustCompile(`\{color(:[^}]*)?\}`)
	mdFence     = regexp.MustCompile("(?s)```mermaid.*?```")
)

// plainOf takes a view's markup off: what a reader reads.
func plainOf(f report.Format, s string) string {
	switch f {
	case report.FormatMarkdown:
		s = mdFence.ReplaceAllString(s, "")
		s = html.UnescapeString(backslashed.ReplaceAllString(s, "$1"))
	case report.FormatJira:
		s = strings.ReplaceAll(s, "\u200b", "")
		s = jiraColor.ReplaceAllString(s, "")
		s = backslashed.ReplaceAllString(s, "$1")
		s = strings.NewReplacer("{{", "", "}}", "").Replace(s)
	case report.FormatHTML:
		s = html.UnescapeString(htmlTag.ReplaceAllString(s, ""))
	case report.FormatSlack:
		s = html.UnescapeString(strings.ReplaceAll(s, "ˋ", "`"))
	}
	return canon(s)
}

// canon is s without white space, the marks of code and bold, parentheses
// and colons (a label's), in lower case: the words, whatever the layout.
func canon(s string) string {
	s = strings.Join(strings.Fields(s), "")
	s = strings.NewReplacer("*", "", "`", "", "(", "", ")", "", ":", "", "_", "").Replace(s)
	return strings.ToLower(s)
}
