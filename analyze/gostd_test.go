package analyze

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestGoStdTableProperty (issue 33's held-out Go set: a module path with
// no dot read as the standard library): random functions of random
// module paths with no dot in their first element (example/app,
// myapp/internal/x, a vendored copy under one), of package main and of
// dotted module paths are application code; functions of every
// standard-library top-level package (goStdTop) at random depths, and
// the compiler's own symbols, are not. Then in a world: goroutines of a
// dotless module stuck in a send are told with that module's frame as
// their culprit, whatever the module's name. Seeded.
func TestGoStdTableProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 3))
	word := func() string {
		ws := []string{"app", "shop", "batch", "internal", "store", "worker", "api", "billing", "x", "svc"}
		return ws[rng.IntN(len(ws))] + fmt.Sprint(rng.IntN(3))
	}
	fn := func(path string) string {
		switch rng.IntN(3) {
		case 0:
			return path + ".Run"
		case 1:
			return path + ".(*Store).Get"
		}
		return path + ".RunBatch.func1"
	}
	std := slices.Sorted(func(yield func(string) bool) {
		for k := range goStdTop {
			if !strings.HasSuffix(k, ":") && k != "type" && !yield(k) {
				return
			}
		}
	})
	for c := range 2000 {
		var path string
		app := true
		switch c % 5 {
		case 0: // dotless module
			path = word()
			for range rng.IntN(3) {
				path += "/" + word()
			}
			if goStdTop[strings.SplitN(path, "/", 2)[0]] {
				continue
			}
		case 1: // vendored under a dotless module
			path = word() + "/vendor/github.com/acme/" + word()
		case 2:
			path = "github.com/acme/" + word()
		case 3: // the standard library
			path, app = std[rng.IntN(len(std))], false
			for range rng.IntN(3) {
				path += "/" + word()
			}
		case 4:
			path = "main"
		}
		f := fn(path)
		if got := isAppFrame(parse.RuntimeGo, &parse.Frame{Func: f}); got != app {
			t.Fatalf("%s: application %v, want %v", f, got, app)
		}
	}
	for _, f := range []string{"type:.eq.main.T", "type..eq.[2]interface {}", "x_cgo_notify_runtime_init_done", "runtime.goexit", "sync.(*WaitGroup).Wait"} {
		if isAppFrame(parse.RuntimeGo, &parse.Frame{Func: f}) {
			t.Errorf("%s read as application code", f)
		}
	}
	for c := range 60 {
		mod := word() + "/" + word()
		if goStdTop[strings.SplitN(mod, "/", 2)[0]] {
			continue
		}
		n := 3 + rng.IntN(6)
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "goroutine %d [chan send, %d minutes]:\n%s.sendAll.func1()\n\t/src/%s/send.go:22 +0x4d\ncreated by %s.sendAll in goroutine 1\n\t/src/%s/send.go:20 +0x8f\n\n", 20+i, 3+rng.IntN(9), mod, mod, mod, mod)
		}
		fmt.Fprintf(&b, "goroutine 1 [select (no cases)]:\nmain.main()\n\t/src/main.go:30 +0x25\n\n")
		ds, err := parse.Parse("1.txt", strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		found := false
		for _, f := range r.Findings {
			if f.Severity >= Warning && strings.HasPrefix(f.Culprit, mod+".sendAll.func1") {
				found = true
			}
		}
		if !found {
			t.Fatalf("case %d (%s): no finding with culprit %s.sendAll.func1: %v", c, mod, mod, r.Findings)
		}
	}
}
