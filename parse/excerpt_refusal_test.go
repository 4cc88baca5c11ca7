package parse

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestExcerptRefusalsTrue (issue 32: "a refusal's reason is always
// true"): every committed whole JVM text dump's threads, pasted as their
// frames alone, are read as excerpts when a lock line is among the
// frames, and otherwise refused with a reason that names what the paste
// lacks, which it lacks; a paste never gets the generic "expected a Go
// goroutine dump ..." when it is Java frames. The table after it names
// inputs that look a little like an excerpt and are none, and the
// reason each must get.
func TestExcerptRefusalsTrue(t *testing.T) {
	srcs := headlessSources(t)
	read, refused := 0, 0
	for _, src := range srcs {
		for k, th := range src.d.Threads {
			if k >= 200 {
				break // a 3,000-thread dump's threads are of the same few shapes
			}
			if len(th.Frames) == 0 || th.Line == 0 {
				continue
			}
			// The thread's lines from its first frame to the end of its
			// stack, as the dump prints them.
			var lines []string
			hasLock := false
			for i := th.Line; i < src.end && i < len(src.lines); i++ {
				l := src.lines[i]
				tl := strings.TrimLeft(l, " \t")
				if strings.HasPrefix(tl, "at ") {
					lines = append(lines, l)
					continue
				}
				if strings.HasPrefix(tl, "- ") && len(lines) > 0 {
					lines = append(lines, l)
					hasLock = true
					continue
				}
				if len(lines) > 0 {
					break
				}
			}
			if len(lines) == 0 {
				continue
			}
			text := strings.Join(lines, "\n") + "\n"
			dumps, err := Parse("frames.txt", strings.NewReader(text))
			if hasLock {
				if err != nil || len(dumps) != 1 || len(dumps[0].Threads) != 1 || len(dumps[0].Threads[0].Frames) != len(th.Frames) || dumps[0].Excerpt == "" {
					t.Errorf("%s, %q: frames with a lock line not read as one thread of an excerpt: %v %s", src.name, th.Name(), err, excerptSummary(dumps))
				}
				read++
				continue
			}
			var nd *NoDumpError
			if !errors.As(err, &nd) || nd.Looks != excerptFramesRefusal {
				t.Errorf("%s, %q: frames alone: err %v, want the refusal %q", src.name, th.Name(), err, excerptFramesRefusal)
				continue
			}
			if strings.Contains(text, "java.lang.Thread.State:") || strings.Contains(text, "\t- ") || strings.Contains(text, `"`) {
				t.Errorf("%s, %q: refused as frames without a header, state or lock line, but it has one:\n%s", src.name, th.Name(), text)
			}
			refused++
		}
	}
	t.Logf("frames of %d threads read as excerpts (a lock line among them), of %d refused as frames alone", read, refused)
	if read == 0 || refused == 0 {
		t.Errorf("read %d, refused %d: the committed dumps have threads of both kinds", read, refused)
	}

	for _, tt := range []struct {
		name, in string
		looks    string // "" for the generic reason
	}{
		{"an exception's trace in a log", "2024-01-01 ERROR failed\njava.lang.IllegalStateException: boom\n\tat com.foo.Bar.run(Bar.java:10)\n\tat java.lang.Thread.run(Thread.java:748)\nCaused by: java.io.IOException: x\n\tat com.foo.Baz.read(Baz.java:3)\n\t... 2 more\n", excerptFramesRefusal},
		{"frames after prose", "Stack trace:\n\n\tat com.foo.Bar.run(Bar.java:10)\n\tat java.lang.Thread.run(Thread.java:748)\n", excerptFramesRefusal},
		{"a numbered list", "1: running late\n2: select a place\n", ""},
		{"a pp-like header over prose", "1: running\nthe service was running fine\n", ""},
		{"quoted names alone", "\"alpha\"\n\"beta\"\n", ""},
		{"a group count over prose", "3 goroutines [asleep]: all of them\n", ""},
	} {
		_, err := Parse("in.txt", strings.NewReader(tt.in))
		var nd *NoDumpError
		if !errors.As(err, &nd) || nd.Looks != tt.looks {
			t.Errorf("%s: err %v, want a NoDumpError with reason %q", tt.name, err, tt.looks)
		}
	}
}

func excerptSummary(dumps []*Dump) string {
	var b bytes.Buffer
	for _, d := range dumps {
		fmt.Fprintf(&b, "[%s %d threads excerpt=%q]", d.Format, len(d.Threads), d.Excerpt)
	}
	return b.String()
}
