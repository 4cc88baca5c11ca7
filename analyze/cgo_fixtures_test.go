package analyze

import (
	"path/filepath"
	"testing"
)

// TestGoCgoFixtures: a real program (testdata/gen/go-cgo, Go 1.26 and Go
// 1.13.15, dumps fetched with curl from its net/http/pprof on 127.0.0.1)
// with 999 goroutines in a C call that does not return reads, in debug=1
// (no state printed; runtime.cgocall hidden above main._Cfunc_output) and
// in debug=2 ("[syscall]") alike, as goroutines in cgo calls (cgo-call),
// said as OS threads held in C (explosion, cgo-threads), each moment
// alone and the three together; its healthy twin, 4 workers calling a
// 1 ms C function in a loop, is quiet. Verdicts from the READMEs, written
// from the source before dumpdiff ran.
func TestGoCgoFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	cgo := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, BasisCgoThreads)
		eq(t, "severity", f.Severity, Warning)
		eq(t, "count", f.Counts[f.At], 999)
	}
	var tests []fixtureCase
	for _, c := range []struct{ name, pool, ext string }{
		{"go-cgo-block-debug1", "main.blocked", ".txt"}, {"go-cgo-block-debug1-go113", "main.blocked", ".txt"},
		{"go-cgo-block", "main.main", ".txt.gz"}, {"go-cgo-block-go113", "main.main", ".txt.gz"},
	} {
		for _, ms := range [][]string{{"1"}, {"3"}, {"1", "2", "3"}} {
			var files []string
			for _, m := range ms {
				files = append(files, m+c.ext)
			}
			tests = append(tests, fixtureCase{c.name, files, []want{{KindExplosion, c.pool, "cgo-call", cgo}}})
		}
	}
	for _, c := range []struct{ name, ext string }{{"go-cgo-busy-debug1-healthy", ".txt"}, {"go-cgo-busy-healthy", ".txt.gz"}} {
		for _, ms := range [][]string{{"1"}, {"3"}, {"1", "2", "3"}} {
			var files []string
			for _, m := range ms {
				files = append(files, m+c.ext)
			}
			tests = append(tests, fixtureCase{c.name, files, nil})
		}
	}
	runFixtureCases(t, dir, tests)
}
