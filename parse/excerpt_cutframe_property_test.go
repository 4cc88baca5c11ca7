package parse

import (
	"math/rand"
	"strings"
	"testing"
)

// TestCutFrameLineProperty: a paste of one real thread that ends inside a
// frame line, cut anywhere in its function name past the class's package
// ("\tat com.notnoop.apns.internal.Utilities.parseF", as an issue index
// serves java-apns#120), reads as the thread with that frame, its
// function the piece before the cut, said in Dump.Partial: the stack's
// deepest frame shown is no longer lost with its line.
func TestCutFrameLineProperty(t *testing.T) {
	srcs := headlessSources(t, "../testdata/verdicts/jdk25-*/1.txt")
	if len(srcs) < 3 {
		t.Fatalf("%d whole JVM text dumps: testdata has more", len(srcs))
	}
	r := rand.New(rand.NewSource(47))
	tried := 0
	for _, src := range srcs {
		for draw, made := 0, 0; draw < 40 && made < 2; draw++ {
			th := src.d.Threads[r.Intn(len(src.d.Threads))]
			if th.Line < 1 || len(th.Frames) < 2 || !isHotSpotHeader([]byte(src.lines[th.Line-1])) {
				continue
			}
			// The thread's lines up to a frame line drawn past the first.
			var out []string
			frames := 0
			cutAt := 1 + r.Intn(len(th.Frames)-1)
			var cut string
			for _, l := range src.lines[th.Line-1 : src.end] {
				if strings.TrimSpace(l) == "" {
					break
				}
				tl := strings.TrimLeft(l, " \t")
				if !strings.HasPrefix(tl, "at ") {
					out = append(out, l)
					continue
				}
				if frames == cutAt {
					lp := strings.IndexByte(tl, '(')
					dot := strings.IndexByte(tl, '.')
					if lp < 0 || dot < 0 || dot+2 >= lp {
						break
					}
					p := dot + 2 + r.Intn(lp-dot-2+1) // past "pkg.x", up to the "("
					cut = tl[3:p]
					out = append(out, l[:len(l)-len(tl)]+tl[:p])
					break
				}
				out = append(out, l)
				frames++
			}
			if cut == "" || strings.HasSuffix(cut, ".") {
				continue
			}
			made++
			tried++
			text := "The thread hangs:\n\n" + strings.Join(out, "\n") + "\n"
			dumps, err := Parse("paste.txt", strings.NewReader(text))
			if err != nil || len(dumps) != 1 || len(dumps[0].Threads) != 1 {
				t.Fatalf("%s: %v, %d dumps\n%s", src.name, err, len(dumps), text)
			}
			d := dumps[0]
			got := d.Threads[0].Frames
			if len(got) != cutAt+1 {
				t.Fatalf("%s: %d frames read, want %d (the cut one last)\n%s", src.name, len(got), cutAt+1, text)
			}
			for i := range cutAt {
				if got[i].Func != th.Frames[i].Func {
					t.Fatalf("%s: frame %d %q, want %q\n%s", src.name, i, got[i].Func, th.Frames[i].Func, text)
				}
			}
			want, _ := splitModulePrefix([]byte(cut))
			if got[cutAt].Func != string(want) || got[cutAt].File != "" {
				t.Fatalf("%s: the cut frame read as %q (file %q), want %q\n%s", src.name, got[cutAt].Func, got[cutAt].File, want, text)
			}
			if len(d.Partial) != 1 || len(d.Skipped) != 0 {
				t.Fatalf("%s: partial %v, skipped %v: the cut frame is to be read and said once\n%s", src.name, d.Partial, d.Skipped, text)
			}
		}
	}
	t.Logf("%d pastes cut inside a frame line", tried)
	if tried < 20 {
		t.Fatalf("only %d pastes tried", tried)
	}
}

// TestCutFrameNotProse: "at" and a word of prose, an address or a
// number is no frame.
func TestCutFrameNotProse(t *testing.T) {
	in := newInterner()
	for _, s := range []string{"the time", "10.0.0.1", "noon", ".5", "first.", "a b.c", "x.y(z"} {
		if f := cutFrame([]byte(s), in); f != nil {
			t.Errorf("cutFrame(%q) = %q, want nil", s, f.Func)
		}
	}
	for _, s := range []string{"com.example.Svc.ca", "java.base@17.0.15/java.util.conc", "scala.collection.mut"} {
		if f := cutFrame([]byte(s), in); f == nil {
			t.Errorf("cutFrame(%q) = nil, want a frame", s)
		}
	}
}
