package parse

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// The frame-forms property (issue 33): a JVM frame printed with its
// method's signature — as a JVM descriptor before the location (SAP JVM,
// agents), as a descriptor alone, as Java parameter types alone
// (async-profiler, JFR-like) or as jfr print writes it ("line: N") —
// reads back as the frame printed without it: the same function, module,
// file and line where the form prints them. Frames and signatures are
// random: packages, nested and lambda classes, modules, primitives,
// arrays and classes among the parameters.
func TestFrameFormsReadBackEqual(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	word := func(upper bool) string {
		const letters = "abcdefghijklmnopqrstuvwxyz"
		b := make([]byte, 1+rng.Intn(8))
		for i := range b {
			b[i] = letters[rng.Intn(len(letters))]
		}
		if upper {
			b[0] -= 'a' - 'A'
		}
		return string(b)
	}
	prims := []struct{ desc, java string }{{"I", "int"}, {"J", "long"}, {"Z", "boolean"}, {"B", "byte"}, {"C", "char"}, {"S", "short"}, {"F", "float"}, {"D", "double"}}
	type param struct{ desc, java string }
	randParam := func() param {
		var p param
		if rng.Intn(2) == 0 {
			pr := prims[rng.Intn(len(prims))]
			p = param{pr.desc, pr.java}
		} else {
			pkg := []string{word(false), word(false)}
			cls := word(true)
			p = param{"L" + strings.Join(pkg, "/") + "/" + cls + ";", strings.Join(pkg, ".") + "." + cls}
		}
		for range rng.Intn(3) {
			p = param{"[" + p.desc, p.java + "[]"}
		}
		return p
	}
	in := newInterner()
	const n = 400
	for i := range n {
		cls := word(false) + "." + word(false) + "." + word(true)
		if rng.Intn(4) == 0 {
			cls += "$" + word(true)
		}
		method := word(false)
		if rng.Intn(5) == 0 {
			method = "lambda$" + word(false) + "$" + fmt.Sprint(rng.Intn(9))
		}
		module := ""
		if rng.Intn(4) == 0 {
			module = "java.base@17.0." + fmt.Sprint(rng.Intn(20))
		}
		file, line := strings.Split(cls[strings.LastIndexByte(cls, '.')+1:], "$")[0]+".java", 1+rng.Intn(2000)
		var ps []param
		for range rng.Intn(4) {
			ps = append(ps, randParam())
		}
		var desc, java []string
		for _, p := range ps {
			desc = append(desc, p.desc)
			java = append(java, p.java)
		}
		ret := randParam().desc
		if rng.Intn(2) == 0 {
			ret = "V"
		}
		fn := cls + "." + method
		qual := fn
		if module != "" {
			qual = module + "/" + fn
		}
		loc := fmt.Sprintf("%s:%d", file, line)
		sig := "(" + strings.Join(desc, "") + ")" + ret
		types := "(" + strings.Join(java, ", ") + ")"
		forms := []struct {
			name, text string
			want       Frame
		}{
			{"plain", qual + "(" + loc + ")", Frame{Func: fn, File: file, Line: line, Module: module}},
			{"descriptor+location", qual + sig + "(" + loc + ")", Frame{Func: fn, File: file, Line: line, Module: module}},
			{"types+location", qual + types + "(" + loc + ")", Frame{Func: fn, File: file, Line: line, Module: module}},
			{"descriptor", qual + sig, Frame{Func: fn, Module: module}},
			{"types", qual + types, Frame{Func: fn, Module: module}},
			{"jfr", fn + types + " line: " + fmt.Sprint(line), Frame{Func: fn, Line: line}},
		}
		for _, f := range forms {
			got := parseFrame([]byte(f.text), in)
			if got == nil {
				t.Fatalf("%d %s: %q is no frame", i, f.name, f.text)
			}
			g := Frame{Func: got.Func, File: got.File, Line: got.Line, Module: got.Module, Note: got.Note}
			if g != f.want {
				t.Fatalf("%d %s: %q reads as %+v, want %+v", i, f.name, f.text, g, f.want)
			}
		}
	}
}

// TestFrameLocationsAreNoSignature: the one parenthesised group of the
// locations real dumps print is read as a location, never as parameters.
func TestFrameLocationsAreNoSignature(t *testing.T) {
	for _, c := range []struct {
		text, file, note string
		line             int
	}{
		{"a.B.c(B.java:12)", "B.java", "", 12},
		{"a.B.c(B.java)", "B.java", "", 0},
		{"a.B.c(B.kt:3)", "B.kt", "", 3},
		{"a.B.c(SourceFile)", "SourceFile", "", 0},                             // ProGuard
		{"a.B$$EnhancerBySpringCGLIB$$1.c(<generated>)", "<generated>", "", 0}, // Spring's generated classes
		{"a.B.c(Native Method)", "", "Native Method", 0},
		{"a.B.c(Unknown Source)", "", "Unknown Source", 0},
		{"a.B.c(java.base@17/Native Method)", "", "Native Method", 0},
		{"a.B.c(Script1.groovy:4)", "Script1.groovy", "", 4},
	} {
		f := parseFrame([]byte(c.text), newInterner())
		if f == nil || f.File != c.file || f.Note != c.note || f.Line != c.line {
			t.Errorf("%q reads as %+v, want file %q note %q line %d", c.text, f, c.file, c.note, c.line)
		}
	}
}
