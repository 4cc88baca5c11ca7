package report

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// TestSlackSaysNothingSlackDoesNotRender: a Slack post of every scenario,
// whole and as one dump, and of the hostile analysis, holds none of the
// Markdown that Slack's mrkdwn shows as typed (headings, **bold**,
// [links](u), tables, fenced blocks with a language) and no command for
// the channel to run: those who read the post have no dumps.
func TestSlackSaysNothingSlackDoesNotRender(t *testing.T) {
	rs := map[string]*analyze.Result{"hostile": handmade()}
	dirs, _ := filepath.Glob("../testdata/scenarios/*")
	for _, dir := range dirs {
		rs[filepath.Base(dir)] = analyzeScenario(t, dir)
		rs[filepath.Base(dir)+"/single"] = analyzeMoments(t, dir, []string{"during-1"})
	}
	bad := map[string]*regexp.Regexp{
		"a heading":               regexp.MustCompile(`(?m)^#{1,6} `),
		"**bold**":                regexp.MustCompile(`\*\*[^*\s]`),
		"a [link](url)":           regexp.MustCompile(`\]\([^)]*\)`),
		"a table row":             regexp.MustCompile(`(?m)^\|.*\|$`),
		"a fence with a language": regexp.MustCompile("```[a-z]"),
		"a command to run":        regexp.MustCompile(`dumpdiff (--|capture|tui|watch)`),
	}
	for name, r := range rs {
		out := render(t, r, Options{Format: FormatSlack})
		// Code spans show their text as typed, which is what they are for:
		// only the text outside them is read as mrkdwn.
		prose := regexp.MustCompile("`[^`]*`").ReplaceAllString(out, "")
		for what, re := range bad {
			if m := re.FindString(prose); m != "" {
				t.Errorf("%s: the post holds %s (%q):\n%s", name, what, m, out)
			}
		}
		if strings.Contains(out, "dumpdiff --format") {
			t.Errorf("%s: the post tells the channel to run dumpdiff:\n%s", name, out)
		}
	}
}
