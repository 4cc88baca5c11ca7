package report

import (
	"strings"
	"testing"
)

// nasty are names a dump can hold that would break Markdown if written raw.
var nasty = []string{
	"a|b", "`x`", "``", "```", "<script>alert(1)</script>", "a & b", "**bold**", "_it_",
	"[link](http://x)", "![img](x)", "# heading", "a\nb", "a\r\nb", "tab\there", `back\slash`,
	`a\|b`, `\`, "|", "</details>", "<!-- c -->", "~~s~~", "@team", "ESC\x1b[31mred", "  ", "",
	"\u00a0nbsp", "日本語|名前",
}

func TestMDText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "http-nio-8080-exec-1", "http-nio-8080-exec-1"},
		{"pipe", "a|b", `a\|b`},
		{"backtick", "`x`", "\\`x\\`"},
		{"html", "<script>", "&lt;script&gt;"},
		{"ampersand", "a & b", "a &amp; b"},
		{"entity stays text", "&amp;", "&amp;amp;"},
		{"emphasis", "**b** _i_", `\*\*b\*\* \_i\_`},
		{"link", "[l](u)", `\[l\](u)`},
		{"image", "![i](u)", `\!\[i\](u)`},
		{"heading", "# h", `\# h`},
		{"strike", "~~s~~", `\~\~s\~\~`},
		{"backslash", `a\b`, `a\\b`},
		{"backslash before pipe", `a\|b`, `a\\\|b`},
		{"newline", "a\nb", "a b"},
		{"escape byte", "a\x1bb", "a b"},
		{"unicode", "日本語", "日本語"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mdText(tt.in); got != tt.want {
				t.Errorf("mdText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestMDCode(t *testing.T) {
	tests := []struct {
		name string
		in   string
		cell bool
		want string
	}{
		{"plain", "sun.nio.ch.Net.poll", false, "`sun.nio.ch.Net.poll`"},
		{"html is literal in code", "<init>", false, "`<init>`"},
		{"pipe outside a table", "a|b", false, "`a|b`"},
		{"pipe in a cell", "a|b", true, "`a\\|b`"},
		{"one backtick inside", "a`b", false, "``a`b``"},
		{"backtick at the edge", "`x", false, "`` `x ``"},
		{"only backticks", "```", false, "```` ``` ````"},
		{"empty", "", true, ""},
		{"blank", "  ", true, ""},
		{"newline", "a\nb", false, "`a b`"},
		{"backslash before pipe in a cell", `a\|b`, true, `a\\\|b`},
		{"backslash before pipe outside", `a\|b`, false, "`a\\|b`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mdCode(tt.in, tt.cell); got != tt.want {
				t.Errorf("mdCode(%q, %v) = %q, want %q", tt.in, tt.cell, got, tt.want)
			}
		})
	}
}

func TestMermaidText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "during-1", "during-1"},
		{"quote", `a"b`, "a#quot;b"},
		{"hash", "#1", "#35;1"},
		{"entity-like", "#quot;", "#35;quot#59;"},
		{"html", "<b>&", "#lt;b#gt;#amp;"},
		{"backtick", "`", "#96;"},
		{"newline", "a\nb", "a b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mermaidText(tt.in); got != tt.want {
				t.Errorf("mermaidText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestEscapesHoldNothingRaw checks, for every nasty name, what no escape may
// let through: a newline, an escape byte, a raw "<" or "&" in text, an
// unescaped pipe in a cell, a bare quote in a Mermaid string.
func TestEscapesHoldNothingRaw(t *testing.T) {
	for _, s := range nasty {
		for _, out := range []string{mdText(s), mdCode(s, true), mdCode(s, false), mermaidText(s), mdHTML(s)} {
			if strings.ContainsAny(out, "\n\r\x1b") {
				t.Errorf("escape of %q holds a control character: %q", s, out)
			}
		}
		out := mdText(s)
		bare := strings.NewReplacer("&amp;", "", "&lt;", "", "&gt;", "").Replace(out)
		if strings.ContainsAny(bare, "<>&") {
			t.Errorf("mdText(%q) = %q holds raw HTML", s, out)
		}
		for _, out := range []string{mdText(s), mdCode(s, true)} {
			row := "| " + out + " |"
			if got, loose := len(splitRow(row)), len(splitRowLoose(row)); got != 1 || loose != 1 {
				t.Errorf("escape of %q = %q makes %d cells (%d read loosely), want 1", s, out, got, loose)
			}
		}
		if out := mermaidText(s); strings.ContainsAny(out, "\"<>`") {
			t.Errorf("mermaidText(%q) = %q holds a raw quote, bracket or backtick", s, out)
		}
	}
}

func TestCodeFence(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  string
	}{
		{"no backticks", []string{"a.b(C.java:1)"}, "```"},
		{"a fence inside", []string{"```", "x"}, "````"},
		{"a long run", []string{"a`````b"}, "``````"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := codeFence(tt.lines); got != tt.want {
				t.Errorf("codeFence(%q) = %q, want %q", tt.lines, got, tt.want)
			}
		})
	}
}

// splitRow splits a GFM table row into cells the strict way: a backslash
// escapes the byte after it (so "\\|" is an escaped backslash then a cell
// break), and an unescaped "|" ends a cell. A row that keeps its cell count
// under this reading keeps it under the looser one (only "\|" escapes) too,
// because the escapes never write a backslash pair before a pipe.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	var cells []string
	var cur strings.Builder
	ended := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line):
			cur.WriteByte(c)
			cur.WriteByte(line[i+1])
			i++
			ended = false
		case c == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
			ended = true
		default:
			cur.WriteByte(c)
			ended = false
		}
	}
	if !ended {
		cells = append(cells, strings.TrimSpace(cur.String()))
	}
	return cells
}

// splitRowLoose splits the way cmark-gfm's cell scanner can: only "\|" is
// an escape.
func splitRowLoose(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	var cells []string
	start := 0
	for i := 0; i < len(line); i++ {
		if line[i] == '|' && (i == 0 || line[i-1] != '\\') {
			cells = append(cells, line[start:i])
			start = i + 1
		}
	}
	if start < len(line) {
		cells = append(cells, line[start:])
	}
	return cells
}
