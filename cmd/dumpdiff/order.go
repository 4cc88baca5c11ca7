package main

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// momentTime is when x was taken: the time its dump prints, else its
// capture manifest's (Taken); zero when neither says. A file's mtime is
// never used: a copy, an unpacked archive or a download resets it.
func momentTime(x analyze.Input) time.Time {
	if !x.Dump.Time.IsZero() {
		return x.Dump.Time
	}
	if !x.Taken.IsZero() {
		return x.Taken
	}
	// An encoding beside the dump (a proto of the same moment) times it, as
	// the analysis does (analyze.Moment.Time).
	for _, a := range x.Aux {
		if a != nil && !a.Time.IsZero() {
			return a.Time
		}
	}
	return time.Time{}
}

// momentName names x as notes speak of it: its label, else its file (and
// the dump's place in it when the file holds several).
func momentName(x analyze.Input) string {
	if x.Label != "" {
		return x.Label
	}
	name := x.Dump.Source.File
	if x.Dump.Source.Index > 0 {
		name = fmt.Sprintf("%s (dump %d)", name, x.Dump.Source.Index+1)
	}
	return name
}

// shortName is x's label as the report's header will show it.
func shortName(x analyze.Input) string {
	if x.Label != "" {
		return x.Label
	}
	name := analyze.LabelFromFile(x.Dump.Source.File)
	if x.Dump.Source.Index > 0 {
		name = fmt.Sprintf("%s#%d", name, x.Dump.Source.Index+1)
	}
	return name
}

// dedupeSameDump keeps one moment per dump content: a copy of a dump, the
// same dump inside two log files, a re-download. Two inputs are the same
// dump when they are of one target, print the same time (or none, with no
// capture time either) and hold the same threads in the same places
// (parse.Dump.Fingerprint). The first given is kept, with a warning.
//
// Two dumps of one target with the same printed time and different threads
// are not one process's two moments (two processes, or a clock error):
// both are kept and that is said.
//
// Cost: a fingerprint is computed only for inputs that share their target,
// time, format and thread count with another (the cheap key), so distinct
// moments cost a map insert each.
func dedupeSameDump(in []analyze.Input, warn *loadNotes) []analyze.Input {
	type cheap struct {
		target  string
		when    int64 // UnixNano; 0 when no time
		timed   bool
		format  parse.Format
		threads int
	}
	byKey := map[cheap][]int{}
	for i, x := range in {
		t := momentTime(x)
		k := cheap{target: x.Target, timed: !t.IsZero(), format: x.Dump.Format, threads: len(x.Dump.Threads)}
		if k.timed {
			k.when = t.UnixNano()
		}
		byKey[k] = append(byKey[k], i)
	}
	seed := maphash.MakeSeed()
	drop := map[int]bool{}
	for _, idx := range byKey {
		if len(idx) < 2 {
			continue
		}
		first := map[uint64]int{}
		for _, i := range idx {
			fp := in[i].Dump.Fingerprint(seed)
			if j, ok := first[fp]; ok && !ownMoments(in[i], in[j]) {
				if k := momentTime(in[i]); k.IsZero() {
					// No time to tell a copy from a second dump of a process
					// in which nothing moved. A profile that aggregates
					// goroutines by stack (debug=1, proto) prints no id and
					// no dumper of its own: three captures of an idle or a
					// stalled process are identical, so two files are two
					// moments, in their places (a merge would also move a
					// third capture equal to the first before the second).
					// A dump that prints ids prints its dumper too, whose id
					// a later capture changes: the same one twice is a copy.
					if aggregated(in[i].Dump) && momentName(in[i]) != momentName(in[j]) {
						warn.add("note: %s holds the same goroutines in the same places as %s; its format (%s) prints no time and no goroutine id, so a later capture in which nothing moved (an idle process's as much as a stalled one's) cannot be told from a copy: read as two moments",
							momentName(in[i]), momentName(in[j]), in[i].Dump.Format)
						continue
					}
					// A Go dump prints its frames' arguments, which the
					// model does not keep: a later capture of a process in
					// which no goroutine moved still differs in them (the
					// dumper's buffers, a read's slice), where a copy is the
					// same bytes. Two files of one dump each are compared.
					if in[i].Dump.Format.Runtime() == parse.RuntimeGo && differentFiles(in, i, j) {
						warn.add("note: %s holds the same goroutines, with the same ids, in the same places as %s, but its text differs (the printed arguments): a later capture in which every goroutine was where it was, read as two moments",
							momentName(in[i]), momentName(in[j]))
						continue
					}
					drop[i] = true
					warn.add("warning: %s is the same dump as %s (neither prints a time; the same threads, ids and places): read as one moment, a copy",
						momentName(in[i]), momentName(in[j]))
					continue
				}
				drop[i] = true
				warn.add("warning: %s is the same dump as %s (same time, same threads in the same places): read as one moment",
					momentName(in[i]), momentName(in[j]))
				continue
			}
			first[fp] = i
		}
	}
	out := in[:0:0]
	for i, x := range in {
		if !drop[i] {
			out = append(out, x)
		}
	}
	sameTimeDiffer(out, warn)
	return out
}

// ownMoments reports whether a and b are two moments of one file whose
// format takes its moments itself, at times it knows apart even where it
// prints no wall clock: a Go execution trace's generations (Go 1.22–1.24
// write no clock snapshot). The same goroutines in the same places there
// are two seconds in which nothing moved, never a copy.
func ownMoments(a, b analyze.Input) bool {
	return a.Dump.Format == parse.FormatGoTrace && b.Dump.Format == parse.FormatGoTrace &&
		a.Dump.Source.File == b.Dump.Source.File && a.Dump.Source.Index != b.Dump.Source.Index
}

// differentFiles: inputs i and j are each the one dump of a file of its
// own, and the two files' bytes differ. False when either file holds more
// dumps, is stdin or cannot be read again (the dumps are then taken for
// one: a copy).
func differentFiles(in []analyze.Input, i, j int) bool {
	fi, fj := in[i].Dump.Source.File, in[j].Dump.Source.File
	if fi == fj || fi == "-" || fj == "-" {
		return false
	}
	for k, x := range in {
		if k != i && k != j && (x.Dump.Source.File == fi || x.Dump.Source.File == fj) {
			return false
		}
	}
	a, err := os.ReadFile(fi)
	if err != nil {
		return false
	}
	b, err := os.ReadFile(fj)
	if err != nil {
		return false
	}
	return !bytes.Equal(a, b)
}

// aggregated: d counts threads by stack and prints no thread's id (a Go
// debug=1 profile, a proto goroutine profile).
func aggregated(d *parse.Dump) bool {
	for _, t := range d.Threads {
		if t.ID != 0 {
			return false
		}
	}
	return len(d.Threads) > 0
}

// sameTimeDiffer says where two kept moments of one target print the same
// time (to the second or finer, as printed) with different threads.
func sameTimeDiffer(in []analyze.Input, warn *loadNotes) {
	type key struct {
		target string
		when   int64
	}
	seen := map[key]int{}
	for i, x := range in {
		t := momentTime(x)
		if t.IsZero() {
			continue
		}
		k := key{x.Target, t.UnixNano()}
		if j, ok := seen[k]; ok {
			warn.add("warning: %s and %s print the same time (%s) but hold different threads: two processes, or a clock error? "+
				"analyzed as two moments of one process; give them separately if they are two processes",
				momentName(in[j]), momentName(x), t.Format("2006-01-02 15:04:05"))
			continue
		}
		seen[k] = i
	}
}

// orderByTime puts the moments of each target in the order of their times
// (momentTime), stable for equal times. Moments without a time keep their
// place among the arguments: only the places held by timed moments of the
// same target are reordered among themselves, so a mixed set keeps what
// can be kept and says what could not. Notes say when the order differs
// from the arguments' and which moments have no time.
func orderByTime(in []analyze.Input, warn *loadNotes) []analyze.Input {
	out := append([]analyze.Input(nil), in...)
	slots := map[string][]int{} // target → indices of its timed moments
	var targets []string
	var untimed []string
	for i, x := range in {
		if momentTime(x).IsZero() {
			untimed = append(untimed, momentName(x))
			continue
		}
		if _, ok := slots[x.Target]; !ok {
			targets = append(targets, x.Target)
		}
		slots[x.Target] = append(slots[x.Target], i)
	}
	moved := false
	for _, t := range targets {
		idx := slots[t]
		xs := make([]analyze.Input, len(idx))
		for k, i := range idx {
			xs[k] = in[i]
		}
		sort.SliceStable(xs, func(a, b int) bool { return momentTime(xs[a]).Before(momentTime(xs[b])) })
		for k, i := range idx {
			if xs[k].Dump != in[i].Dump {
				moved = true
			}
			out[i] = xs[k]
		}
	}
	timed := len(in) - len(untimed)
	switch {
	case timed == 0:
		// Nothing to order by: the order given stays, and is questioned
		// when the names say otherwise (`dumpdiff *.txt` gives after.txt
		// first).
		if a, b, ok := namesOutOfOrder(in); ok {
			warn.add("warning: %s is given before %s, and no dump prints a time: read in the order given; "+
				"give them in time order, or put them in one folder (read as before*, during*, after*)", a, b)
		}
		return out
	case len(untimed) > 0:
		warn.add("warning: %s %s no time (nor a capture manifest's): kept at %s place in the order given; the %d timed moment(s) are ordered by time around %s",
			strings.Join(untimed, ", "), plural(len(untimed), "prints", "print"), plural(len(untimed), "its", "their"), timed, plural(len(untimed), "it", "them"))
	}
	if moved {
		var names []string
		for _, x := range out {
			names = append(names, shortName(x))
		}
		warn.add("moments ordered by their times, not as given: %s (--order args keeps the order given)", strings.Join(names, ", "))
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// namesOutOfOrder finds two moments whose names (before*, during*,
// after*) say they were given in the wrong order.
func namesOutOfOrder(in []analyze.Input) (string, string, bool) {
	for i := 1; i < len(in); i++ {
		for j := 0; j < i; j++ {
			a, b := analyze.LabelFromFile(in[j].Dump.Source.File), analyze.LabelFromFile(in[i].Dump.Source.File)
			if in[j].Label != "" {
				a = in[j].Label
			}
			if in[i].Label != "" {
				b = in[i].Label
			}
			if labelRank(a) > labelRank(b) {
				return momentName(in[j]), momentName(in[i]), true
			}
		}
	}
	return "", "", false
}
