package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// TestInert: colour sequences stay; every other escape sequence goes, and
// control characters but the newline become spaces.
func TestInert(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain · text\nnext", "plain · text\nnext"},
		{"\x1b[1mbold\x1b[m \x1b[38;2;1;2;3mrgb\x1b[4:3mcurly\x1b[0m", "\x1b[1mbold\x1b[m \x1b[38;2;1;2;3mrgb\x1b[4:3mcurly\x1b[0m"},
		{"a\x1b]0;title\x07b", "ab"},               // window title, BEL-terminated
		{"a\x1b]52;c;cHduZWQ=\x1b\\b", "ab"},       // clipboard write, ST-terminated
		{"a\x1b[2Jb\x1b[10;5Hc\x1b[?25ld", "abcd"}, // clear, move, hide cursor
		{"a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},         // DCS (sixel)
		{"a\x1b]8;;http://x\x07link", "alink"},     // a hyperlink's opening
		{"a\x1b7b\x1bc", "ab"},                     // save cursor, reset
		{"tab\there\rcr\bbs\x07bel\x7f", "tab here cr bs bel "},
		{"c1\u009b2Jcsi\u0085nel", "c1 2Jcsi nel"}, // C1 controls (U+009B is CSI)
		{"cut\x1b]0;never ends", "cut"},
		{"lone\x1b", "lone"},
		{"é, 中, \u00a0kept", "é, 中, \u00a0kept"},
	} {
		if got := inert(c.in); got != c.want {
			t.Errorf("inert(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// A styled line with nothing to change is given back, not copied
	// (inert runs on every screen line at every render).
	styled := "\x1b[1mPOOL\x1b[m http-nio-8080-exec-* · \x1b[38;5;2m200\x1b[0m"
	if n := testing.AllocsPerRun(100, func() { _ = inert(styled) }); n != 0 {
		t.Errorf("inert of a styled line allocates %v times, want 0", n)
	}
}

// TestViewNeutralizesDumpEscapes: a JVM dump whose thread names and frames
// carry escape sequences (a window title, a screen clear, a C1 CSI, BEL,
// CR) cannot reach the terminal through any screen the keys open; the
// styles' own colours still do.
func TestViewNeutralizesDumpEscapes(t *testing.T) {
	evil := "pool-\x1b]0;pwned\x07-\x1b[2J-\u009b31m-\r"
	var b strings.Builder
	b.WriteString("2026-11-29 17:32:33\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):\n\n")
	for i := range 6 {
		fmt.Fprintf(&b, "\"%s%d\" #%d prio=5 os_prio=0 cpu=1ms elapsed=1s tid=0x1 nid=0x%x waiting on condition  [0x1]\n", evil, i, i+1, i+10)
		b.WriteString("   java.lang.Thread.State: WAITING (parking)\n\tat jdk.internal.misc.Unsafe.park(java.base@17/Native Method)\n" +
			"\tat com.example.Wo\x1b]52;c;eA==\x07rk.run(Work\x1b[H.java:1)\n\n")
	}
	ds, err := parse.Parse("evil.txt", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ds[0].Threads[0].Name(), "\x1b]0;") {
		t.Fatalf("the fixture's names lost their escapes in the parser: %q", ds[0].Threads[0].Name())
	}
	r := analyze.Analyze([]analyze.Input{{Dump: ds[0]}}, analyze.Options{})
	bad := []string{"\x1b]", "\x1b[2J", "\x1b[H", "\x07", "\u009b", "\r"}
	for _, keys := range [][]string{nil, {"enter"}, {"enter", "enter"}, {"enter", "enter", "tab"}, {"enter", "enter", "tab", "down"},
		{"/", "pwned", "enter"}, {"?"}} {
		for _, noColor := range []bool{true, false} {
			v := send(t, New(r, Options{NoColor: noColor}), keys...).View().Content
			for _, s := range bad {
				if strings.Contains(v, s) {
					t.Errorf("keys %v (no colour %v): the screen carries %q from the dump", keys, noColor, s)
				}
			}
			if !noColor && !strings.Contains(v, "\x1b[") {
				t.Errorf("keys %v: the coloured screen lost its styles", keys)
			}
		}
	}
	// The footer: a status that quotes a pool's name ("api has no pool …").
	m := New(r, Options{NoColor: true})
	m.status = "evil has no pool " + evil
	for _, s := range bad {
		if v := m.View().Content; strings.Contains(v, s) {
			t.Errorf("status line: the screen carries %q from the dump", s)
		}
	}
}
