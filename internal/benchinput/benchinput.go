// Package benchinput builds the large inputs the benchmarks of report and
// tui measure, one way, so that both measure the same thing. Benchmarks
// only import it.
package benchinput

import (
	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// Corpus20k is the real 20,000-goroutine debug=2 dump written by Go 1.26.8,
// relative to the module root's parent (../shared/corpus).
const Corpus20k = "shared/corpus/go/dumpdiff-gen__go1.26.8__lookup-goroutine-debug2-20000-goroutines.txt"

// ThreeMoments is three moments of five times src's threads, each copy
// under new ids (frames stay shared, as the parser interns them): "before"
// has all, "during" lacks every 7th thread of src and "after" every 5th, so
// that identity across moments has something to find. From Corpus20k,
// three 100,000-goroutine moments.
func ThreeMoments(src *parse.Dump) []analyze.Input {
	var in []analyze.Input
	for k, label := range []string{"before", "during", "after"} {
		d := *src
		d.Threads = nil
		for rep := int64(0); rep < 5; rep++ {
			for i, t := range src.Threads {
				if (k == 1 && i%7 == 0) || (k == 2 && i%5 == 0) {
					continue
				}
				c := *t
				c.ID = t.ID + rep*10_000_000
				d.Threads = append(d.Threads, &c)
			}
		}
		in = append(in, analyze.Input{Label: label, Dump: &d})
	}
	return in
}
