package parse

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The lazy quote's property: a real jstack dump's threads (the paragraphs
// after its header), pasted as Markdown quotes them in an issue or a mail,
// read back as the same threads: with the mark on every line (the prefix
// stage's), or only on the first line of each paragraph (a blockquote's
// lazy continuation: IntelliJ's "Dump Thread" pasted so in
// pingidentity/scim#7, where the base read the first thread and dropped
// `main`), with ">" alone, "> ", ">> " or "> > ", after a line of prose.
func TestLazyQuoteProperty(t *testing.T) {
	files := []string{
		filepath.Join("..", "testdata", "verdicts", "keptalive-leaked", "1.txt"),
		filepath.Join("..", "testdata", "verdicts", "jdk25-keptalive-leaked", "1.txt"),
	}
	marks := []string{"> ", ">", ">> ", "> > "}
	r := rand.New(rand.NewSource(33))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var paras []string
		for _, p := range strings.Split(string(b), "\n\n") {
			if strings.HasPrefix(p, "\"") && !strings.HasPrefix(p, "\"VM ") && !strings.HasPrefix(p, "\"GC ") {
				paras = append(paras, p)
			}
		}
		if len(paras) < 5 {
			t.Fatalf("%s: %d thread paragraphs", file, len(paras))
		}
		plain := "The dump:\n\n" + strings.Join(paras, "\n\n") + "\n"
		want, err := Parse("plain.txt", strings.NewReader(plain))
		if err != nil {
			t.Fatal(err)
		}
		wantFP := dumpFingerprint(want)
		for i := 0; i < 60; i++ {
			// One paste, one style: a mark on every line (the blank lines
			// between paragraphs marked too, or left blank), or on each
			// paragraph's first line only.
			var q strings.Builder
			q.WriteString("The Dump Thread message from IntelliJ:\n\n")
			mark := marks[r.Intn(len(marks))]
			every, blankMarked := r.Intn(2) == 0, r.Intn(2) == 0
			styles := map[string]any{"mark": mark, "every": every, "blank marked": blankMarked}
			for k, p := range paras {
				if k > 0 {
					if every && blankMarked {
						q.WriteString(strings.TrimRight(mark, " "))
					}
					q.WriteString("\n")
				}
				for j, l := range strings.Split(p, "\n") {
					if j == 0 || every {
						l = mark + l
					}
					q.WriteString(l + "\n")
				}
			}
			got, err := Parse("quoted.txt", strings.NewReader(q.String()))
			if err != nil {
				t.Fatalf("%s draw %d (%v): %v", file, i, styles, err)
			}
			if fp := dumpFingerprint(got); fp != wantFP {
				t.Fatalf("%s draw %d (%v): got\n%s\nwant\n%s\ninput:\n%s", file, i, styles, fp, wantFP, q.String())
			}
		}
	}
}
