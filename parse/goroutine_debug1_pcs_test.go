package parse

import (
	"strings"
	"testing"
)

func parseFileT(t *testing.T, path string) *Dump {
	t.Helper()
	ds, err := ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return ds[0]
}

func funcs(fs []*Frame) string {
	var names []string
	for _, f := range fs {
		names = append(names, f.Func)
	}
	return strings.Join(names, " ")
}

// TestResolveHiddenFrames: real debug=1 profiles and protos of the same
// processes (testdata/verdicts/go113-select-leak: Go 1.13.15;
// testdata/libs/go-generics: Go 1.26.8, generic functions), each record's
// hidden runtime frames put back from the proto's locations at its PCs.
func TestResolveHiddenFrames(t *testing.T) {
	tests := []struct {
		name, debug1, proto string
		want                string // the frames of one record after
	}{
		{"go1.13 select", "../testdata/verdicts/go113-select-leak/1-debug1.txt", "../testdata/verdicts/go113-select-leak/1.pb.gz",
			"runtime.gopark runtime.selectgo main.(*hub).watch"},
		{"go1.13 proto of another moment", "../testdata/verdicts/go113-select-leak/1-debug1.txt", "../testdata/verdicts/go113-select-leak/2.pb.gz",
			"runtime.gopark runtime.selectgo main.worker main.serve.func1"},
		{"go1.26 generic worker", "../testdata/libs/go-generics/1-debug1.txt", "../testdata/libs/go-generics/1.pb.gz",
			"runtime.gopark runtime.chanrecv runtime.chanrecv2 main.worker[...]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d1, pb := parseFileT(t, tt.debug1), parseFileT(t, tt.proto)
			got := ResolveHiddenFrames(d1, []*Dump{pb})
			if got == d1 {
				t.Fatal("nothing resolved")
			}
			found := false
			for _, th := range got.Threads {
				if funcs(th.Frames) == tt.want {
					found = true
				}
			}
			if !found {
				for _, th := range got.Threads {
					t.Logf("%d: %s", th.Weight, funcs(th.Frames))
				}
				t.Errorf("no record reads %q", tt.want)
			}
			// d1 itself is not modified.
			for _, th := range d1.Threads {
				if len(th.Frames) > 0 && strings.HasPrefix(th.Frames[0].Func, "runtime.gopark") {
					t.Errorf("the input dump was modified: %s", funcs(th.Frames))
				}
			}
		})
	}
}

// TestResolveHiddenFramesOtherBinary: a proto of another program names other
// functions at the debug=1 profile's PCs: it is not used.
func TestResolveHiddenFramesOtherBinary(t *testing.T) {
	d1 := parseFileT(t, "../testdata/verdicts/go113-select-leak/1-debug1.txt")
	for _, other := range []string{"../testdata/libs/go-pgxpool/1.pb.gz", "../testdata/verdicts/go-healthy/1.pb.gz"} {
		if got := ResolveHiddenFrames(d1, []*Dump{parseFileT(t, other)}); got != d1 {
			t.Errorf("%s resolved frames of another binary", other)
		}
	}
}

// TestResolveHiddenFramesSameProfile: a record that prints its runtime
// frames (a stack of runtime frames only is printed whole) names the PCs
// another record of the same profile hides. The text follows the layout
// of a real profile (go113-select-leak/1-debug1.txt); no committed real
// profile has such a record.
func TestResolveHiddenFramesSameProfile(t *testing.T) {
	text := "goroutine profile: total 3\n" +
		"2 @ 0x432560 0x441e0b 0x759755 0x45f811\n" +
		"#\t0x759754\tmain.(*hub).watch+0xb4\t/src/main.go:74\n" +
		"\n" +
		"1 @ 0x432560 0x441e0b 0x4411ab 0x45f811\n" +
		"#\t0x43255f\truntime.gopark+0x10f\t/go/src/runtime/proc.go:304\n" +
		"#\t0x441e0a\truntime.selectgo+0x6ba\t/go/src/runtime/select.go:313\n" +
		"#\t0x4411aa\truntime.ensureSigM.func1+0x1aa\t/go/src/runtime/signal_unix.go:541\n" +
		"\n"
	d := mustParse(t, text)[0]
	got := ResolveHiddenFrames(d, nil)
	if w := "runtime.gopark runtime.selectgo main.(*hub).watch"; funcs(got.Threads[0].Frames) != w {
		t.Errorf("record 1: %s, want %s", funcs(got.Threads[0].Frames), w)
	}
	if got.Threads[1] != d.Threads[1] {
		t.Error("a record that hides nothing was copied")
	}
}
