package report

import (
	"strings"
	"testing"
)

// TestMarkdownExported checks that the exported helpers give what the
// report's own escaping gives, on every nasty name.
func TestMarkdownExported(t *testing.T) {
	for _, s := range nasty {
		if got, want := MarkdownText(s), mdText(s); got != want {
			t.Errorf("MarkdownText(%q) = %q, want %q", s, got, want)
		}
		for _, cell := range []bool{false, true} {
			if got, want := MarkdownCode(s, cell), mdCode(s, cell); got != want {
				t.Errorf("MarkdownCode(%q, %v) = %q, want %q", s, cell, got, want)
			}
		}
	}
}

func TestMarkdownFence(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"plain", "main.main (main.go:12)", "```"},
		{"empty", "", "```"},
		{"short runs", "a`b\nc``d", "```"},
		{"three", "x\n```\ny", "````"},
		{"five on a later line", "a\nb `````", "``````"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := MarkdownFence(tt.body)
			if got != tt.want {
				t.Errorf("MarkdownFence(%q) = %q, want %q", tt.body, got, tt.want)
			}
			for _, l := range strings.Split(tt.body, "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), got) {
					t.Errorf("line %q would close the block fenced by %q", l, got)
				}
			}
		})
	}
}
