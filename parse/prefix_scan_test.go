package parse

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestFindPrefixMemo: findPrefix with its memo of the last line finds what
// it finds with none, whether prev is the last call's line (the memo is
// used), another line, or none. Lines from every pasted fixture, and a
// prefixed jcmd plain dump, whose start needs prev.
func TestFindPrefixMemo(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "pasted", "*"))
	inputs := [][]byte{
		[]byte("2026-12-01T10:38:11.089203512Z stdout F 3862\n2026-12-01T10:38:11.089203512Z stdout F 2026-01-25T15:46:04.439828Z\n" +
			"2026-12-01T10:38:11.089203512Z stderr F 3862\n2026-12-01T10:38:11.089203512Z stdout F 2026-01-25T15:46:04.439828Z\n"),
		[]byte(`{"log":"3862\n","stream":"stdout","time":"2026-12-01T10:38:11.089203512Z"}` + "\n" +
			`{"log":"2026-01-25T15:46:04.439828Z\n","stream":"stdout","time":"2026-12-01T10:38:11.089203512Z"}` + "\n"),
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err == nil {
			inputs = append(inputs, data)
		}
	}
	if len(inputs) < 5 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	withPrev := 0
	for _, data := range inputs {
		lines := bytes.Split(data, []byte("\n"))
		for _, prevOf := range []string{"last", "none", "other"} {
			var pl, ppl prefixLine
			var prev []byte
			for i, line := range lines {
				switch prevOf {
				case "none":
					prev = nil
				case "other":
					prev = lines[(i*7)%len(lines)]
				}
				sh, pv, tf := findPrefix(line, prev, &pl, &ppl)
				var fpl, fppl prefixLine
				wsh, wpv, wtf := findPrefix(line, prev, &fpl, &fppl)
				if sh != wsh || tf != wtf || !bytes.Equal(pv, wpv) || (pv == nil) != (wpv == nil) {
					t.Fatalf("line %q after %q (%s): memo gives %v %q %v, fresh %v %q %v", line, prev, prevOf, sh, pv, tf, wsh, wpv, wtf)
				}
				if sh != nil && (!bytes.Equal(pl.text, fpl.text) || !bytes.Equal(pl.stamp, fpl.stamp) || !bytes.Equal(pl.source, fpl.source) || pl.partial != fpl.partial) {
					t.Fatalf("line %q: split %+v, fresh %+v", line, pl, fpl)
				}
				if sh != nil && pv != nil && prevOf == "last" {
					withPrev++
				}
				if prevOf == "last" {
					prev = append(prev[:0], line...)
				}
			}
		}
	}
	if withPrev < 2 {
		t.Errorf("%d dumps found with the previous line's help, want 2 at least", withPrev)
	}
}
