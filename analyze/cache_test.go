package analyze

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
	"github.com/google/go-cmp/cmp"
)

// TestCacheSameResult: an analysis with a Cache is the analysis without
// one, on every fixture of testdata, as a ring slides over its moments
// (windows of 3 ending at each moment, one Cache for the whole slide),
// with and without --pool-by, every field compared (unexported ones
// too).
func TestCacheSameResult(t *testing.T) {
	all := cmp.Exporter(func(t reflect.Type) bool {
		return strings.HasPrefix(t.PkgPath(), "github.com/dumpdiff/dumpdiff/")
	})
	// Threads and dumps are compared by what tells them apart, not
	// field by field (a deep compare of every stack took a minute); a
	// debug=1 moment's dump is a new copy in every analysis
	// (resolveDebug1), so identity would not do.
	same := cmp.Options{cmp.Comparer(func(a, b *parse.Thread) bool { return threadPrint(a) == threadPrint(b) }),
		cmp.Comparer(func(a, b *parse.Dump) bool {
			return a.Source == b.Source && a.Format == b.Format && len(a.Threads) == len(b.Threads)
		})}
	n := 0
	for name, in := range fixtureInputs(t) {
		if len(in) < 3 || strings.Contains(name, " ") {
			continue
		}
		for _, opt := range []Options{{}, {PoolBy: "label:handler"}} {
			cached := opt
			cached.Cache = NewCache()
			for i := 1; i <= len(in); i++ {
				win := in[max(0, i-3):i]
				want := Analyze(win, opt)
				got := Analyze(win, cached)
				if diff := cmp.Diff(want, got, all, same); diff != "" {
					t.Fatalf("%s, moments %d-%d, %+v: with a cache (-without +with):\n%s", name, max(0, i-3), i, opt.PoolBy, diff)
				}
				n++
			}
		}
	}
	t.Logf("%d analyses compared", n)
	if n < 50 {
		t.Fatalf("only %d analyses: the fixtures are committed", n)
	}
}

// threadPrint is what tells a thread apart in one dump.
func threadPrint(t *parse.Thread) string {
	if t == nil {
		return ""
	}
	var top string
	if len(t.Frames) > 0 {
		top = t.Frames[0].Func
	}
	return fmt.Sprintf("%d|%s|%s|%d|%d|%s|%d", t.ID, t.Name(), t.State, t.Weight, len(t.Frames), top, t.Line)
}

// TestCacheJVMPoolNames: a JVM moment's build is not reused when the
// moments around it change how its thread names are pooled (learned
// from every moment at once): alone, pool-1-thread-1..6 are one pool by
// their last number; beside a moment whose threads are pool-1..6-thread-1,
// the first number varies too. One Cache serves every option set, as a
// ring's does across settings it never changes but a caller might.
func TestCacheJVMPoolNames(t *testing.T) {
	b, err := os.ReadFile("../testdata/libs/jvm-executors/1.txt")
	if err != nil {
		t.Fatal(err)
	}
	rename := func(name func(k int) string) *parse.Dump {
		k := 0
		text := regexp.MustCompile(`"pool-\d+-thread-\d+"`).ReplaceAllFunc(b, func([]byte) []byte {
			k++
			return []byte(`"` + name(k) + `"`)
		})
		ds, err := parse.Parse("jvm-executors", bytes.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		return ds[0]
	}
	a := rename(func(k int) string { return fmt.Sprintf("pool-1-thread-%d", k) })
	c := rename(func(k int) string { return fmt.Sprintf("pool-%d-thread-1", k) })
	all := cmp.Exporter(func(t reflect.Type) bool { return strings.HasPrefix(t.PkgPath(), "github.com/dumpdiff/dumpdiff/") })
	cache := NewCache()
	for _, opt := range []Options{{}, {Samples: 2}, {PoolBy: "label:x"}} {
		for _, win := range [][]Input{{{Dump: a}}, {{Dump: a}, {Dump: c}}, {{Dump: c}}, {{Dump: a}, {Dump: c}}} {
			want := Analyze(win, opt)
			cached := opt
			cached.Cache = cache
			if diff := cmp.Diff(want, Analyze(win, cached), all); diff != "" {
				t.Fatalf("%d moments, %+v: with a cache (-without +with):\n%s", len(win), opt, diff)
			}
		}
	}
}
