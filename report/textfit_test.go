package report

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestWrap(t *testing.T) {
	tests := []struct {
		name        string
		text        string
		width       int
		first, rest string
		want        []string
	}{
		{"fits", "a b c", 10, "", "", []string{"a b c"}},
		{"breaks at spaces", "aaa bbb ccc", 7, "", "", []string{"aaa bbb", "ccc"}},
		{"indents", "aaa bbb ccc", 9, "> ", "  ", []string{"> aaa bbb", "  ccc"}},
		{"long word is split", "abcdefghij", 5, "", "", []string{"abcde", "fghij"}},
		{"long word after a short one", "ab cdefghijkl", 6, "> ", "  ", []string{"> ab", "  cdef", "  ghij", "  kl"}},
		{"newlines are spaces", "a\nb", 10, "", "", []string{"a b"}},
		{"empty", "", 10, "- ", "", []string{"- "}},
		{"wide runes count twice", "日本 語", 4, "", "", []string{"日本", "語"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := wrap(tt.text, tt.width, tt.first, tt.rest)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("wrap(%q, %d) (-want +got):\n%s", tt.text, tt.width, diff)
			}
			for _, l := range got {
				if cells(l) > tt.width {
					t.Errorf("line %q is %d cells, wider than %d", l, cells(l), tt.width)
				}
			}
		})
	}
}

func TestTruncateAndPad(t *testing.T) {
	tests := []struct {
		name          string
		in            string
		w             int
		trunc, pr, pl string
	}{
		{"fits", "abc", 5, "abc", "abc  ", "  abc"},
		{"cut", "abcdef", 4, "abc…", "abc…", "abc…"},
		{"exact", "abcd", 4, "abcd", "abcd", "abcd"},
		{"zero", "abc", 0, "", "", ""},
		{"control characters", "a\x1b[31mb", 10, "a [31mb", "a [31mb   ", "   a [31mb"},
		{"wide", "日本語", 4, "日…", "日… ", " 日…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := truncate(tt.in, tt.w); got != tt.trunc {
				t.Errorf("truncate = %q, want %q", got, tt.trunc)
			}
			if got := padRight(tt.in, tt.w); got != tt.pr {
				t.Errorf("padRight = %q, want %q", got, tt.pr)
			}
			if got := padLeft(tt.in, tt.w); got != tt.pl {
				t.Errorf("padLeft = %q, want %q", got, tt.pl)
			}
		})
	}
}

func TestTruncateMiddle(t *testing.T) {
	tests := []struct {
		name, in string
		w        int
		want     string
	}{
		{"fits", "before", 10, "before"},
		{"cut", "samurai__blocker-example#1", 11, "samur…ple#1"},
		{"even width", "abcdefghij", 6, "ab…hij"},
		{"tiny", "abcdefghij", 3, "ab…"},
		{"wide runes", "日本語日本語", 7, "日…本語"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := truncateMiddle(tt.in, tt.w)
			if got != tt.want {
				t.Errorf("truncateMiddle(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
			}
			if cells(got) > tt.w {
				t.Errorf("%q is %d cells, wider than %d", got, cells(got), tt.w)
			}
		})
	}
}

func TestChange(t *testing.T) {
	tests := []struct {
		name string
		in   []int
		want string
	}{
		{"rise", []int{10, 200, 200}, "+190"},
		{"fall", []int{10, 5}, "-5"},
		{"flat", []int{3, 9, 3}, "0"},
		{"one moment", []int{3}, ""},
		{"none", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := change(tt.in); got != tt.want {
				t.Errorf("change(%v) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSignedDuration(t *testing.T) {
	tests := []struct {
		name string
		in   time.Duration
		want string
	}{
		{"minute", time.Minute, "+1m0s"},
		{"rounded", 1500 * time.Millisecond, "+2s"},
		{"negative", -30 * time.Second, "-30s"},
		{"zero", 0, "+0s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := signedDuration(tt.in); got != tt.want {
				t.Errorf("signedDuration(%v) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestNiceCeil(t *testing.T) {
	tests := []struct {
		name    string
		in, out int
	}{
		{"zero", 0, 1},
		{"small", 8, 8},
		{"ten", 10, 10},
		{"eleven", 11, 15},
		{"hundreds", 220, 250},
		{"just under", 497, 500},
		{"thousands", 2206, 2500},
		{"exact", 5000, 5000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := niceCeil(tt.in); got != tt.out {
				t.Errorf("niceCeil(%d) = %d, want %d", tt.in, got, tt.out)
			}
		})
	}
}
