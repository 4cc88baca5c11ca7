package analyze

import (
	"fmt"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A pool's known maximum (issue 33: rules that looked at names where they
// should look at structure). A name says which pool its threads might
// belong to; the loop that runs them says which they do. Threads named
// task-N that a dispatcher starts one per task share the Spring Boot task
// executor's name shape, not its 8 threads: a limits row (knownMax, or a
// signatures file's [pool] block with a loop key) gives its size only to a
// pool that some thread, at some moment, shows running the row's loop. A
// pool named like a row whose threads show another loop or none has no
// known size ("size unknown"), and the row it was named like is said.

// limitRow is one row of the limits a pool is matched against: a name
// pattern, its size and what that size is, and the loops that confirm it
// (none: the name alone, as a signatures file's [pool] without a loop
// key gives it, the team's word for its own pool).
type limitRow struct {
	max          int
	what, source string
	loops        []string
}

// PoolSize is a pool's known maximum and where it comes from.
type PoolSize struct {
	Max    int    // 0 when unknown
	What   string // what the number is: "Tomcat maxThreads default"
	Source string // "configured" (a signatures file), "default" (knownMax), "" when unknown
	// NamedLike is, when Max is 0, the row the pool's name matched whose
	// loop runs none of its threads ("Spring Boot task executor default
	// (…) of 8, but none of its threads runs
	// java.util.concurrent.ThreadPoolExecutor.runWorker"); "" otherwise.
	NamedLike string
}

// limitRows are the rows whose name matches pool, the signatures file's
// first.
func limitRows(ext *Extensions, pool string) []limitRow {
	var rows []limitRow
	if ext != nil {
		for _, l := range ext.Pools {
			if globMatch(l.Pattern, pool) {
				what := l.What
				if what == "" {
					what = "from the signatures file"
				}
				rows = append(rows, limitRow{l.Max, what, "configured", l.Loops})
			}
		}
	}
	for _, k := range knownMax {
		if k.suffix == "" && pool == k.prefix || k.suffix != "" && strings.HasPrefix(pool, k.prefix) && strings.HasSuffix(pool, k.suffix) {
			rows = append(rows, limitRow{k.max, k.what, "default", k.loops})
		}
	}
	return rows
}

// knownLimitOf is the size of the first row matching name whose loop runs
// some thread of threads (each of a moment of the pool): a row with no
// loop confirms by its name alone.
func knownLimitOf(ext *Extensions, name string, threads func(yield func(*parse.Thread) bool)) PoolSize {
	var out PoolSize
	for _, row := range limitRows(ext, name) {
		if len(row.loops) == 0 || runBy(threads, row.loops) {
			return PoolSize{Max: row.max, What: row.what, Source: row.source}
		}
		if out.NamedLike == "" {
			out.NamedLike = fmt.Sprintf("%s of %d, but none of its threads runs %s", row.what, row.max, strings.Join(row.loops, " or "))
		}
	}
	return out
}

// runBy reports whether some thread has a frame of one of loops (frame
// prefixes).
func runBy(threads func(yield func(*parse.Thread) bool), loops []string) bool {
	for t := range threads {
		for _, f := range t.Frames {
			if anyPrefix(f.Func, loops) {
				return true
			}
		}
	}
	return false
}

// poolThreads are every thread of pl at every moment.
func poolThreads(pl *Pool) func(yield func(*parse.Thread) bool) {
	return func(yield func(*parse.Thread) bool) {
		for _, g := range pl.States {
			for _, ts := range g.Threads {
				for _, t := range ts {
					if !yield(t) {
						return
					}
				}
			}
		}
	}
}

// knownLimit is pl's maximum as a signatures file or a well-known default
// gives it, confirmed by the loop that runs its threads.
func (p *Pass) knownLimit(pl *Pool) PoolSize {
	return knownLimitOf(p.ext, pl.Name, poolThreads(pl))
}
