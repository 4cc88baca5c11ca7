package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// evil is a thread name and frame text that would break Markdown written
// raw: a cell break, a code span, HTML, and a run of three backticks that
// would close a fence.
const evil = "ev|il`x`<script>alert(1)</script>"

// evilScenario is the real HikariCP scenario (Tomcat workers waiting for a
// pool connection) with every worker renamed "<evil>-exec-N" and the shop's
// own frames renamed "com.<evil>```.shop…", analyzed as the TUI gets it.
func evilScenario(t testing.TB) *analyze.Result {
	t.Helper()
	dir := filepath.Join(scenarios, "hikari-pool-exhausted")
	var in []analyze.Input
	for _, m := range []string{"before", "during-1", "during-2", "after"} {
		f := filepath.Join(dir, m+".txt")
		if _, err := os.Stat(f); err != nil {
			t.Skipf("real dump %s not available: %v", f, err)
		}
		dumps, err := parse.ParseFile(f)
		if err != nil {
			t.Fatalf("parsing %s: %v", f, err)
		}
		renamed := 0
		for _, d := range dumps {
			for _, th := range d.Threads {
				if rest, ok := strings.CutPrefix(th.Name(), "http-nio-18080-exec-"); ok {
					th.JVM.Name = evil + "-exec-" + rest
					renamed++
				}
				for _, fr := range th.Frames { // interned: renamed once per frame
					if rest, ok := strings.CutPrefix(fr.Func, "com.example.shop."); ok {
						fr.Func = "com." + evil + "```.shop." + rest
					}
				}
			}
			in = append(in, analyze.Input{Dump: d, Label: m})
		}
		if renamed == 0 {
			t.Fatalf("%s: no http-nio-18080-exec-N thread to rename", f)
		}
	}
	return analyze.Analyze(in, analyze.Options{})
}

// TestExportEscapes exports every view of the renamed scenario, filtered
// by a query holding the evil text, and checks each file as Markdown: no
// raw HTML, table rows as wide as their header, code spans closed on their
// line, fences that no stack line closes, and the names still readable.
func TestExportEscapes(t *testing.T) {
	r := evilScenario(t)
	dir := t.TempDir()
	m := New(r, Options{NoColor: true, ExportDir: dir, Now: fixedNow})
	m = send(t, m, "/", "`x`<script>", "enter")
	s := text(m)
	// At 80 columns the name loses its middle; its ends read as they are.
	contains(t, "filtered overview", s, "ev|il`x`<script>…", "</script>-exec-*")

	export := func(name string) string {
		t.Helper()
		m = send(t, m, "m")
		return readFile(t, filepath.Join(dir, "dumpdiff-"+name+"-20261129-173000.md"))
	}
	files := map[string]string{"overview": export("overview")}

	// The pool-exhausted finding, whole.
	for i := 0; i < len(overviewOf(t, m).rows); i++ {
		if r := overviewOf(t, m).selected(); r != nil && r.kind == rowFinding && r.f.Kind == "db-pool-exhausted" {
			break
		}
		m = send(t, m, "down")
	}
	m = send(t, m, "enter")
	if m.screen() != screenFinding {
		t.Fatalf("enter on the finding did not open it:\n%s", text(m))
	}
	files["finding"] = export("finding")
	m = send(t, m, "esc", "g")

	// Open the renamed pool and the state whose culprit is a renamed frame.
	for i := 0; i < len(overviewOf(t, m).rows); i++ {
		if r := overviewOf(t, m).selected(); r != nil && r.kind == rowPool && strings.Contains(r.name, evil) {
			break
		}
		m = send(t, m, "down")
	}
	m = send(t, m, "enter")
	if m.screen() != screenPool || !strings.Contains(poolOf(t, m).pi.p.Name, evil) {
		t.Fatalf("did not open the renamed pool:\n%s", text(m))
	}
	files["pool"] = export("pool")
	for i := 0; i < len(poolOf(t, m).groups); i++ {
		if gi := poolOf(t, m).selected(); gi != nil && strings.Contains(gi.g.Culprit, evil) {
			break
		}
		m = send(t, m, "down")
	}
	m = send(t, m, "enter")
	if m.screen() != screenState {
		t.Fatalf("enter did not open a state:\n%s", text(m))
	}
	files["state"] = export("state")
	m = send(t, m, "c")
	files["compare"] = export("compare")

	wantIn := map[string][]string{
		"overview": {"Filter: `` `x`<script> ``", `ev\|il\` + "`x\\`" + `&lt;script&gt;alert(1)&lt;/script&gt;-exec-\*`},
		"pool":     {"# POOL ev\\|il\\`x\\`&lt;script&gt;", "Filter: `` `x`<script> ``", "| ````com.ev\\|il`x`<script>alert(1)</script>```.shop.OrderRepository.recentOrderSummary(OrderRepository.java:23)```` |"},
		"state": {"- ev\\|il\\`x\\`&lt;script&gt;alert(1)&lt;/script&gt;-exec-", "\n````\njdk.internal.misc.Unsafe.park(Native Method)\n",
			"\ncom.ev|il`x`<script>alert(1)</script>```.shop.OrderRepository.recentOrderSummary(OrderRepository.java:23)  ◀ culprit\n",
			"Culprit: ````com.ev|il`x`<script>alert(1)</script>```.shop.OrderRepository.recentOrderSummary(OrderRepository.java:23)````"},
		"compare": {"````diff\n", "com.ev|il`x`<script>alert(1)</script>```.shop."},
		"finding": {"# WARN db-pool-exhausted · ev\\|il\\`x\\`&lt;script&gt;", "- **Culprit:** com.ev\\|il\\`x\\`&lt;script&gt;",
			"\ncom.ev|il`x`<script>alert(1)</script>```.shop.OrderRepository.recentOrderSummary(OrderRepository.java:23)  ◀ culprit\n"},
	}
	for name, md := range files {
		t.Run(name, func(t *testing.T) {
			contains(t, name+" export", md, wantIn[name]...)
			checkMarkdown(t, md)
		})
	}
}

var (
	fenceOpen = regexp.MustCompile("^(`{3,})")
	backticks = regexp.MustCompile("`+")
)

// checkMarkdown fails t with every problem markdownProblems finds in md.
func checkMarkdown(t *testing.T, md string) {
	t.Helper()
	for _, p := range markdownProblems(md) {
		t.Error(p)
	}
}

// markdownProblems reads md the way a CommonMark/GFM renderer would, enough
// to see escaping mistakes: outside fences, no raw "<" outside a code span,
// every code span closed on its line, and every table row with as many
// cells as its header; every fence closed.
func markdownProblems(md string) []string {
	var out []string
	lines := strings.Split(md, "\n")
	fence := ""
	headCells := -1
	for i, l := range lines {
		at := func(msg string) { out = append(out, "line "+itoa(i+1)+": "+msg+": "+l) }
		if fence != "" {
			// Only a line of backticks alone, as long as the fence, closes
			// it; a stack line that did would leave the rest outside.
			if c := strings.TrimSpace(l); strings.HasPrefix(c, fence) && strings.Trim(c, "`") == "" {
				fence = ""
			}
			continue
		}
		if f := fenceOpen.FindString(l); f != "" {
			fence = f
			continue
		}
		outside := outsideCodeSpans(l, at)
		if strings.Contains(outside, "<") {
			at("raw < outside a code span")
		}
		if strings.HasPrefix(l, "|") {
			n := cellCount(l)
			switch {
			case headCells < 0:
				headCells = n
			case n != headCells:
				at("row has " + itoa(n) + " cells, header has " + itoa(headCells))
			}
		} else {
			headCells = -1
		}
	}
	if fence != "" {
		out = append(out, "fence "+fence+" never closed")
	}
	return out
}

// TestMarkdownProblems checks that the checker itself sees what the old
// export got wrong.
func TestMarkdownProblems(t *testing.T) {
	tests := []struct {
		name, md string
		want     int // problems found
	}{
		{"clean", "# a\\|b\n\n| a | b |\n|---|---:|\n| `x\\|y` | 1 |\n\n````\n```\n````\n", 0},
		{"raw html", "# <script>alert(1)</script>\n", 1},
		{"pipe splits a cell", "| a | b |\n|---|---|\n| ev|il | 1 |\n", 1},
		{"unclosed code span", "Filter: `ev`il`\n", 1},
		{"stack line closes the fence", "```\n```\n<init>\n```\n", 2}, // raw "<", fence left open
		{"fence never closed", "```\nframe\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := markdownProblems(tt.md); len(got) != tt.want {
				t.Errorf("markdownProblems found %d problems, want %d: %q", len(got), tt.want, got)
			}
		})
	}
}

// outsideCodeSpans returns l without its code spans (CommonMark: a run of
// n backticks opens a span closed by the next run of exactly n); a
// backslash-escaped backtick is text. An opening run never closed is an
// error.
func outsideCodeSpans(l string, at func(string)) string {
	var out strings.Builder
	for i := 0; i < len(l); {
		if l[i] == '\\' && i+1 < len(l) {
			out.WriteString(l[i : i+2])
			i += 2
			continue
		}
		if l[i] != '`' {
			out.WriteByte(l[i])
			i++
			continue
		}
		open := backticks.FindString(l[i:])
		rest := l[i+len(open):]
		closed := -1
		for _, loc := range backticks.FindAllStringIndex(rest, -1) {
			if loc[1]-loc[0] == len(open) {
				closed = loc[1]
				break
			}
		}
		if closed < 0 {
			at("code span opened by " + open + " is not closed")
			return out.String()
		}
		out.WriteString("CODE")
		i += len(open) + closed
	}
	return out.String()
}

// cellCount is the number of cells of a GFM table row: pipes not escaped
// by a backslash split cells, in code spans too.
func cellCount(l string) int {
	n := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n - 1
}
