package report

import (
	"bytes"
	"html"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLeadOnTheFirstScreen: every recorded incident, rendered at 80
// columns, has its whole lead (the VERDICT lines, one or two a finding,
// and WHAT TO DO) within the first 24 lines, every finding's kind said in
// words there, its culprit named at most once in its lead, and the report
// longer than a screen ends with the lead's first line again.
func TestLeadOnTheFirstScreen(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/scenarios/*")
	if len(dirs) < 6 {
		t.Fatalf("%d scenarios", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			r := analyzeScenario(t, dir)
			var b bytes.Buffer
			if err := Text(&b, r, Options{Width: 80}); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
			end := -1 // the line after the lead
			for i, l := range lines {
				if strings.HasPrefix(l, "MOMENTS") {
					end = i
					break
				}
			}
			if end < 0 || end > screenLines {
				t.Fatalf("the lead ends at line %d, past the first %d:\n%s", end, screenLines, b.String())
			}
			lead := strings.Join(lines[:end], "\n")
			for _, f := range r.Findings {
				if !strings.Contains(lead, kindInWords(f.Kind)) {
					t.Errorf("the lead does not say %q:\n%s", kindInWords(f.Kind), lead)
				}
			}
			for _, l := range lines[:end] {
				for _, f := range r.Findings {
					if c := ShortFrame(f.Culprit); f.Culprit != "" && strings.Count(l, c) > 1 {
						t.Errorf("the culprit %s twice in one lead line: %s", c, l)
					}
				}
			}
			if len(lines) > screenLines && len(r.Findings) > 0 && !repeatsLead(lines[len(lines)-1], lines[2]) {
				t.Errorf("a report of %d lines ends with %q, not the lead's first line %q", len(lines), lines[len(lines)-1], lines[2])
			}
		})
	}
}

// TestRemediesReachTheConclusions: what each recorded incident's README
// concludes is to be done is said in WHAT TO DO, from the frames that prove
// it; the protected service (its read has a timeout, a bulkhead bounds it,
// it recovered) gets no remedy.
func TestRemediesReachTheConclusions(t *testing.T) {
	for name, want := range map[string][]string{
		// "The fix is a 2 s timeout and a 20-permit bulkhead."
		"slow-upstream-no-timeout": {"no timeout", "set a read timeout", "bulkhead"},
		// "the fix is a dedicated bounded executor and a read timeout"
		"completablefuture-thread-per-task": {"bounded executor", "read timeout"},
		// "the fix is capacity (pool size vs. query time) and a health check off the pool"
		"hikari-pool-exhausted": {"take the health check off the pool", "size the pool for the query time"},
		// "The fix is a read timeout on the client"
		"mypage-pool-stuck": {"set a read timeout"},
		// the leaking goroutines send on a channel whose reader returned
		"go-slow-upstream-leak": {"channel", "buffer 1", "context"},
		// "the dependency is slow but the service is protected"
		"slow-upstream-bulkhead": nil,
	} {
		t.Run(name, func(t *testing.T) {
			r := analyzeScenario(t, filepath.Join("../testdata/scenarios", name))
			var b bytes.Buffer
			if err := Text(&b, r, Options{Width: 80}); err != nil {
				t.Fatal(err)
			}
			s := b.String()
			todo := ""
			if i := strings.Index(s, "WHAT TO DO"); i >= 0 {
				todo = strings.Join(strings.Fields(s[i:strings.Index(s, "MOMENTS")]), " ")
			}
			if want == nil && todo != "" {
				t.Errorf("a remedy for a protected service:\n%s", todo)
			}
			for _, w := range want {
				if !strings.Contains(todo, w) {
					t.Errorf("WHAT TO DO lacks %q:\n%s", w, todo)
				}
			}
			// Every other format says it too, as its reader reads it.
			for _, format := range []Format{FormatMarkdown, FormatJira, FormatSlack, FormatHTML, FormatJSON} {
				said := readable(format, render(t, r, Options{Format: format}))
				if want == nil && (strings.Contains(said, "What to do") || strings.Contains(said, `"remedy": "t`) || strings.Contains(said, `"remedy": "g`)) {
					t.Errorf("%s: a remedy for a protected service", format)
				}
				for _, w := range want {
					if !strings.Contains(said, w) {
						t.Errorf("%s does not say %q", format, w)
					}
				}
			}
		})
	}
}

// repeatsLead reports whether last says the lead's first line again: its
// severity, kind and pool (what the first line holds up to its second
// " · "), then at most what fits of since when and the culprit.
func repeatsLead(last, first string) bool {
	head := first
	if i := strings.Index(first, " · "); i >= 0 {
		if j := strings.Index(first[i+len(" · "):], " · "); j >= 0 {
			head = first[:i+len(" · ")+j]
		}
	}
	head = strings.TrimSuffix(head, "…")
	return strings.HasPrefix(last, head)
}

// readable is a rendered report as its reader reads it: HTML without its
// tags and entities, Markdown and Jira without their escapes, Slack
// without its code spans and entities, whitespace folded.
func readable(format Format, out string) string {
	switch format {
	case FormatHTML:
		out = html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(out, ""))
	case FormatMarkdown, FormatJira:
		out = regexp.MustCompile(`\\(.)`).ReplaceAllString(out, "$1")
	case FormatSlack:
		out = strings.NewReplacer("`", "", "&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(out)
	}
	return strings.Join(strings.Fields(out), " ")
}
