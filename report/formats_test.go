package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dumpdiff/dumpdiff/analyze"
)

func TestParseFormat(t *testing.T) {
	tests := []struct {
		in   string
		want Format
		err  bool
	}{
		{"", FormatText, false},
		{"text", FormatText, false},
		{"markdown", FormatMarkdown, false},
		{"md", FormatMarkdown, false},
		{" MD ", FormatMarkdown, false},
		{"jira", FormatJira, false},
		{"slack", FormatSlack, false},
		{"html", FormatHTML, false},
		{"json", FormatJSON, false},
		{"xml", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseFormat(tt.in)
			if (err != nil) != tt.err || got != tt.want {
				t.Errorf("ParseFormat(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.err)
			}
		})
	}
	// Every format of the registry has a renderer, an extension and a doc.
	for _, f := range Formats() {
		if _, err := rendererFor(f); err != nil || f.Ext() == "" || f.Doc() == "" {
			t.Errorf("format %q: renderer error %v, ext %q, doc %q", f, err, f.Ext(), f.Doc())
		}
	}
}

// TestEveryFormatRendersNothing: an analysis of no dump renders in every
// format, alone and among several.
func TestEveryFormatRendersNothing(t *testing.T) {
	empty := analyze.Analyze(nil, analyze.Options{})
	for _, f := range Formats() {
		var b bytes.Buffer
		if err := Generate(&b, empty, Options{Format: f}); err != nil || b.Len() == 0 {
			t.Errorf("%s of no analysis: %v, %d bytes", f, err, b.Len())
		}
		b.Reset()
		if err := GenerateMany(&b, []*analyze.Result{empty, handmade()}, Options{Format: f}); err != nil || b.Len() == 0 {
			t.Errorf("%s of two analyses: %v, %d bytes", f, err, b.Len())
		}
	}
}

// TestGoldenMany renders several analyses as one document in every format:
// two captured targets of one service (compared side by side), and a Go
// and a JVM analysis given together.
func TestGoldenMany(t *testing.T) {
	scen := filepath.Join("..", "testdata", "scenarios")
	four := []string{"before", "during-1", "during-2", "after"}
	cases := []struct {
		name string
		rs   func(t *testing.T) []*analyze.Result
	}{
		{"targets", func(t *testing.T) []*analyze.Result {
			return []*analyze.Result{
				analyze.Analyze(scenarioInputs(t, filepath.Join(scen, "slow-upstream-no-timeout"), four, "api-1"), analyze.Options{}),
				analyze.Analyze(scenarioInputs(t, filepath.Join(scen, "slow-upstream-bulkhead"), four, "api-2"), analyze.Options{}),
			}
		}},
		{"runtimes", func(t *testing.T) []*analyze.Result {
			return []*analyze.Result{
				analyzeMoments(t, filepath.Join(scen, "go-slow-upstream-leak"), four),
				analyzeMoments(t, filepath.Join(scen, "hikari-pool-exhausted"), four),
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs := c.rs(t)
			for _, f := range Formats() {
				var b bytes.Buffer
				if err := GenerateMany(&b, rs, Options{Format: f}); err != nil {
					t.Fatalf("GenerateMany %s: %v", f, err)
				}
				compareGolden(t, filepath.Join("testdata", "many", c.name, "report."+f.Ext()), b.Bytes())
				if f == FormatHTML {
					checkHTMLDoc(t, b.String())
				}
			}
		})
	}
}

// compareGolden compares got with the file at path, or writes it with
// -update.
func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs from the golden (-want +got; go test -update rewrites it):\n%s", path, diff)
	}
}

// checkMarkdownLead: the document opens with its title, then at most ten
// lines of verdict before the first section; the verdict names the root
// cause and whether it recovered; every finding's counts are drawn.
func checkMarkdownLead(t *testing.T, r *analyze.Result) {
	out := render(t, r, Options{Format: FormatMarkdown})
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "# dumpdiff: ") {
		t.Errorf("first line is not the title: %q", lines[0])
	}
	var lead []string
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "## ") {
			break
		}
		if strings.TrimSpace(l) != "" {
			lead = append(lead, l)
		}
	}
	if len(lead) > 10 {
		t.Errorf("the verdict takes %d lines, want at most 10:\n%s", len(lead), strings.Join(lead, "\n"))
	}
	if len(r.Findings) > 0 {
		if len(lead) == 0 || !strings.HasPrefix(lead[0], "- **Root cause** (") || !strings.Contains(out, "- **Recovered:** ") {
			t.Errorf("the verdict does not open with the root cause and say whether it recovered:\n%s", strings.Join(lead, "\n"))
		}
	}
	if len(r.Moments) < 2 {
		return
	}
	for _, f := range r.Findings {
		if len(f.Counts) == 0 {
			continue
		}
		want := "    line [" + strings.Trim(strings.Join(strings.Fields(fmt.Sprint(fitCounts(f.Counts, len(r.Moments)))), ", "), "[]") + "]"
		if !strings.Contains(out, want+"\n") {
			t.Errorf("finding %s: the chart has no %q", f.ID, want)
		}
	}
	// Tables are narrow: no more columns than the pools table's (a name,
	// the moments, the change).
	for i, l := range lines {
		if strings.HasPrefix(l, "|") {
			if n := len(splitRow(l)); n > len(r.Moments)+2 && n > 5 {
				t.Errorf("line %d: a table of %d columns:\n%s", i+1, n, l)
			}
		}
	}
}

func TestJiraText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "Thread.run", "Thread.run"},
		{"pool", "http-nio-8080-exec-*", `http\-nio\-8080\-exec\-\*`},
		{"table cell", "a|b", `a\|b`},
		{"macro", "{noformat}", `\{noformat\}`},
		{"link", "[x|http://e]", `\[x\|http://e\]`},
		{"emoticon", "(x) (!)", `\(x\) \(\!\)`},
		{"smiley", ":D", ":" + zwsp + "D"},
		{"effects", "*b* _i_ +u+ ^s^ ~s~ ??c??", `\*b\* \_i\_ \+u\+ \^s\^ \~s\~ \?\?c\?\?`},
		{"mention", "@team #1 100%", `\@team \#1 100\%`},
		{"backslash", `a\b`, `a\` + zwsp + "b"},
		{"two backslashes are not a line break", `a\\b`, `a\` + zwsp + `\` + zwsp + "b"},
		{"html is shown as typed", "<script>", "<script>"},
		{"newline", "a\nb", "a b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := jiraText(tt.in); got != tt.want {
				t.Errorf("jiraText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	for _, s := range nasty {
		out := jiraText(s)
		if got, want := jiraUnescape(out), oneLine(s); got != want {
			t.Errorf("jiraText(%q) = %q reads back as %q", s, out, got)
		}
		if bad := unescapedJira(out); bad != "" {
			t.Errorf("jiraText(%q) = %q leaves %q unescaped", s, out, bad)
		}
		if p := jiraParam(s); strings.ContainsAny(p, "|={}\n") {
			t.Errorf("jiraParam(%q) = %q holds a parameter separator", s, p)
		}
		for _, l := range jiraNoformat([]string{s, "x{noformat}y", "{panel}"}) {
			if strings.Contains(strings.ToLower(l), "{noformat}") || strings.Contains(l, "{panel}") {
				t.Errorf("jiraNoformat left a macro in %q", l)
			}
		}
	}
}

// jiraUnescape reads Jira inline text the way its renderer does for the
// escapes: a backslash before a special character is that character; a
// zero-width space is nothing.
func jiraUnescape(s string) string {
	var b strings.Builder
	rs := []rune(strings.ReplaceAll(s, zwsp, ""))
	raw := []rune(s)
	_ = raw
	for i := 0; i < len(rs); i++ {
		if rs[i] == '\\' && i+1 < len(rs) && strings.ContainsRune(jiraSpecial, rs[i+1]) {
			b.WriteRune(rs[i+1])
			i++
			continue
		}
		b.WriteRune(rs[i])
	}
	return b.String()
}

// unescapedJira returns the first special character of s that no
// backslash escapes, or a line break ("\\"); "" when none.
func unescapedJira(s string) string {
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		switch {
		case rs[i] == '\\' && i+1 < len(rs) && rs[i+1] == '\\':
			return `\\`
		case rs[i] == '\\' && i+1 < len(rs) && strings.ContainsRune(jiraSpecial, rs[i+1]):
			i++
		case strings.ContainsRune(jiraSpecial, rs[i]):
			return string(rs[i])
		}
	}
	return ""
}

// checkJira checks a Jira document: tables keep their columns, blocks
// open and close, and text from the dumps is escaped: a hostile pool name
// reads back whole, and no table cell splits it.
func checkJira(t *testing.T, r *analyze.Result) {
	out := render(t, r, Options{Format: FormatJira, Verbose: true})
	head := -1
	inNoformat := false
	panels := 0
	for i, l := range strings.Split(out, "\n") {
		if l == "{noformat}" {
			inNoformat = !inNoformat
			continue
		}
		if inNoformat {
			if strings.Contains(l, "{noformat}") || strings.Contains(l, "{panel") {
				t.Errorf("line %d: a macro inside {noformat}: %q", i+1, l)
			}
			continue
		}
		switch {
		case l == "{panel}":
			panels--
		case strings.HasPrefix(l, "{panel"):
			panels++
		}
		if strings.HasPrefix(l, "|") {
			n := jiraCells(l)
			if strings.HasPrefix(l, "||") {
				head = n
			} else if n != head {
				t.Errorf("line %d: %d cells, header has %d:\n%s", i+1, n, head, l)
			}
		} else {
			head = -1
		}
		if strings.Contains(l, `\\`) {
			t.Errorf("line %d: a forced line break (\\\\): %q", i+1, l)
		}
	}
	if inNoformat || panels != 0 {
		t.Errorf("unbalanced blocks: noformat open %v, panels open %d", inNoformat, panels)
	}
	for _, f := range r.Findings {
		if f.Pool != "" && !strings.Contains(out, jiraCode(f.Pool)) {
			t.Errorf("pool %q is not written as escaped monospace %q", f.Pool, jiraCode(f.Pool))
		}
	}
}

// jiraCells counts the cells of a Jira table row: "||a||b||" or "|a|b|",
// escaped pipes inside cells.
func jiraCells(l string) int {
	n := 0
	rs := []rune(l)
	for i := 0; i < len(rs); i++ {
		switch {
		case rs[i] == '\\':
			i++
		case rs[i] == '|':
			if i+1 < len(rs) && rs[i+1] == '|' {
				i++
			}
			n++
		}
	}
	return n - 1
}

func TestSlackText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "socket-read at during-1", "socket-read at during-1"},
		{"entities", "a & <b>", "a &amp; &lt;b&gt;"},
		{"formatting word in code", "96 http-nio-exec-* threads", "96 `http-nio-exec-*` threads"},
		{"underscore", "my_pool idle", "`my_pool` idle"},
		{"backtick", "a`b", "`aˋb`"},
		{"mention", "@here now", "`@here` now"},
		{"broadcast", "<!channel>", "&lt;!channel&gt;"},
		{"emoji", "a:fire:b", "`a:fire:b`"},
		{"time is not an emoji", "17:53:08", "17:53:08"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := slackText(tt.in); got != tt.want {
				t.Errorf("slackText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	for _, s := range nasty {
		for _, out := range []string{slackText(s), slackCode(s)} {
			if bad := unsafeSlack(out); bad != "" {
				t.Errorf("escape of %q = %q: %s", s, out, bad)
			}
		}
	}
}

var slackEntity = regexp.MustCompile(`&(amp|lt|gt);`)

// unsafeSlack says what in s Slack would read as markup that the text did
// not mean: a raw "<", ">" or "&", a formatting character or mention
// outside a code span, an unclosed code span; "" when s is safe.
func unsafeSlack(s string) string {
	if strings.ContainsAny(slackEntity.ReplaceAllString(s, ""), "<>&") {
		return "a raw <, > or &"
	}
	if strings.Count(s, "`")%2 != 0 {
		return "an unclosed code span"
	}
	for i, part := range strings.Split(s, "`") {
		if i%2 == 1 {
			continue // inside a code span
		}
		if strings.ContainsAny(part, "*_~") {
			return fmt.Sprintf("formatting outside code: %q", part)
		}
		for _, w := range strings.Fields(part) {
			if strings.HasPrefix(w, "@") || hasEmojiCode(w) {
				return fmt.Sprintf("a mention or emoji outside code: %q", w)
			}
		}
	}
	return ""
}

// checkSlack: the message fits one post, and outside its own bold and
// italic markers it holds no markup: every name from a dump is plain
// text or a code span.
func checkSlack(t *testing.T, r *analyze.Result) {
	out := render(t, r, Options{Format: FormatSlack})
	if len(out) > slackMaxChars {
		t.Errorf("the message is %d characters, more than %d", len(out), slackMaxChars)
	}
	if n := strings.Count(out, "\n"); n > 16 {
		t.Errorf("the message is %d lines, want at most 16", n)
	}
	// Our own markup: *Label:* and *kind* bold, a closing _footer_ line,
	// :emoji: codes we write. Take them out, then the rest must be safe.
	own := regexp.MustCompile(`\*[A-Za-z][A-Za-z ./:()0-9-]*\*|:(red_circle|large_orange_circle|large_blue_circle):|^_|_$`)
	for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if bad := unsafeSlack(own.ReplaceAllString(l, "")); bad != "" {
			t.Errorf("line %d: %s:\n%s", i+1, bad, l)
		}
	}
}

// checkHTML checks the page: one document, no network, one script (ours),
// and nothing from a dump that became markup.
func checkHTML(t *testing.T, r *analyze.Result) {
	checkHTMLDoc(t, render(t, r, Options{Format: FormatHTML, Verbose: true}))
}

func checkHTMLDoc(t *testing.T, out string) {
	t.Helper()
	if !strings.HasPrefix(out, "<!DOCTYPE html>\n") || strings.Count(out, "<html") != 1 || !strings.HasSuffix(out, "</html>\n") {
		t.Errorf("not one HTML document")
	}
	if n := strings.Count(out, "<script"); n != 1 {
		t.Errorf("%d <script> elements, want 1 (ours)", n)
	}
	for _, bad := range []string{"http://", "https://", "@import", "url(", "<img", "<iframe", "<link", "<object", "<embed", "javascript:"} {
		if strings.Contains(out, bad) {
			t.Errorf("the page holds %q: it must load nothing", bad)
		}
	}
	// Attribute values hold escaped text from the dumps: read the tags
	// without them (a href keeps its first character: only "#..." is ours).
	bare := regexp.MustCompile(`="(#?)[^"]*"`).ReplaceAllString(out, `="$1"`)
	if m := regexp.MustCompile(`<[a-zA-Z][^<>]*\s(src|srcset|action)=|<[a-zA-Z][^<>]*\shref=""`).FindString(bare); m != "" {
		t.Errorf("the page refers to another file: %q", m)
	}
	for _, tag := range []string{"details", "section", "article", "table", "svg", "ul", "ol", "figure", "dl"} {
		if o, c := len(regexp.MustCompile(`<`+tag+`[ >]`).FindAllString(out, -1)), strings.Count(out, "</"+tag+">"); o != c {
			t.Errorf("<%s>: %d opened, %d closed", tag, o, c)
		}
	}
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(` id="([^"]*)"`).FindAllStringSubmatch(out, -1) {
		if ids[m[1]] {
			t.Errorf("id %q twice", m[1])
		}
		ids[m[1]] = true
	}
}

// TestHandmadeHostile: names built to break each syntax come out as
// text: escaped in HTML, code or escaped text in Markdown, escaped in
// Jira, code spans in Slack.
func TestHandmadeHostile(t *testing.T) {
	r := handmade()
	pool := r.Pools[1].Name // "evil|pool `x` <script>alert(1)</script> **b** [l](u) & #h"
	html := render(t, r, Options{Format: FormatHTML})
	if !strings.Contains(html, he(pool)) || strings.Contains(html, "<script>alert") {
		t.Errorf("html does not escape the pool name %q", pool)
	}
	jira := render(t, r, Options{Format: FormatJira})
	if !strings.Contains(jira, jiraCode(pool)) {
		t.Errorf("jira does not write the pool name as escaped monospace %q", jiraCode(pool))
	}
	slack := render(t, r, Options{Format: FormatSlack})
	if strings.Contains(slack, "<script") || !strings.Contains(slack, "`evil|pool ˋxˋ &lt;script&gt;") {
		t.Errorf("slack does not write the pool name as a code span:\n%s", slack)
	}
	md := render(t, r, Options{Format: FormatMarkdown})
	if !strings.Contains(md, mdCode(pool, false)) {
		t.Errorf("markdown does not write the pool name as code %q", mdCode(pool, false))
	}
}

// TestHandmadeLead: the verdict of the hand-made analysis in each ticket
// format: root cause, recovery, numbers, culprit, the other finding.
func TestHandmadeLead(t *testing.T) {
	md := render(t, handmade(), Options{Format: FormatMarkdown})
	for _, want := range []string{
		"# dumpdiff: critical not-recovered in `http-nio-8080-exec-*` (socket-read via http-client)\n\n- **Root cause** (critical not-recovered): 200 of 200 http-nio-8080-exec-\\* threads in socket-read via http-client at during-2",
		"- **Recovered:** no: still 200 at after, the last moment.",
		"- **Numbers:** socket-read via http-client: before 0 → during-1 200 → during-2 200 → after 200 threads; idle 10 → 0 → 0 → 0.",
		"- **Culprit:** `com.example.shop.UpstreamClient.fetch(UpstreamClient.java:42)`",
		"- **Also:** 2. warning growing in ``evil|pool",
		"red   socket-read via http-client  ▁███  0 → 200 → 200 → 200",
		"<details><summary>200 threads in socket-read via http-client at during-2: one identical stack, at UpstreamClient.fetch:42 (http-nio-8080-exec-*)</summary>",
		"com.example.shop.UpstreamClient.fetch(UpstreamClient.java:42)  ◀ culprit",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	slack := render(t, handmade(), Options{Format: FormatSlack})
	for _, want := range []string{
		"*dumpdiff:* :red_circle: *critical not-recovered* in `http-nio-8080-exec-*` (socket-read via http-client)\n",
		"• *Recovered:* no: still 200 at after, the last moment\n",
		"• *Culprit:* `com.example.shop.UpstreamClient.fetch(UpstreamClient.java:42)`\n",
	} {
		if !strings.Contains(slack, want) {
			t.Errorf("slack lacks %q:\n%s", want, slack)
		}
	}
	jira := render(t, handmade(), Options{Format: FormatJira})
	for _, want := range []string{
		"h1. dumpdiff: critical not\\-recovered in {{http\\-nio\\-8080\\-exec\\-\\*}} \\(socket\\-read via http\\-client\\)\n",
		"{panel:title=Verdict|borderColor=#c62828}\n* *Root cause* ({color:#c62828}*critical*{color} not\\-recovered): ",
		"||Pool / state||before||during\\-1||during\\-2||after||Change||\n",
		"{panel:title=200 threads in socket-read via http-client at during-2: one identical stack, at UpstreamClient.fetch:42|borderStyle=dashed}",
	} {
		if !strings.Contains(jira, want) {
			t.Errorf("jira lacks %q:\n%s", want, jira)
		}
	}
}
