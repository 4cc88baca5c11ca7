package main

import (
	"slices"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// A JVM thread's elapsed= is how long it has lived when the dump printed
// it, so one thread seen in two dumps of one process dates the second
// against the first: t2 = t1 + (elapsed2 − elapsed1). A dump that prints no
// time (a paste, an excerpt cut from a dump) is dated so by any timed dump
// of the same target that shares its threads, before the moments are
// ordered; where the offsets are all zero and every thread of the untimed
// dump is found with its very elapsed= and cpu= (and state), it is no later
// moment but a part of that dump, and is read as that dump (dropped, said).
//
// A thread is the same thread in two dumps by its tid= and nid= (the
// JavaThread's address and the OS thread), or its name where neither is
// printed; its #N number is not enough (a paste may lose it).
//
// elapsedSpread is how far the offsets of the shared threads may lie apart
// and still be one offset: jstack prints elapsed= to the hundredth of a
// second, and writes a thread's line some milliseconds after the one
// before (a 10,000-thread dump takes about a second). It protects from two
// processes whose threads share names (two JVMs of one service): their
// offsets scatter by the threads' start times, seconds to hours.
const elapsedSpread = 1500 * time.Millisecond

// jvmThreadKey names a JVM thread across dumps of one process.
type jvmThreadKey struct{ tid, nid, name string }

// elapsedOf is a dump's threads that print elapsed= by their key, with
// the thread's index; keys printed twice in the dump (an unnamed pair, an
// IDE dump without tid/nid) are left out: they name no one thread.
func elapsedOf(x analyze.Input) map[jvmThreadKey]int {
	out := map[jvmThreadKey]int{}
	twice := map[jvmThreadKey]bool{}
	for i, t := range x.Dump.Threads {
		j := t.Java()
		if t.JVM == nil || j.Elapsed <= 0 {
			continue
		}
		k := jvmThreadKey{j.TID, j.NativeID, j.Name}
		if _, ok := out[k]; ok {
			twice[k] = true
		}
		out[k] = i
	}
	for k := range twice {
		delete(out, k)
	}
	return out
}

// elapsedDating is what the threads shared with one timed dump say of an
// untimed one.
type elapsedDating struct {
	ref    int           // the timed input's index
	offset time.Duration // the median offset: the untimed dump's time − the timed one's
	shared int           // threads in both
	part   bool          // every thread of the untimed dump is the timed one's, unchanged
}

// dateByElapsed dates untimed JVM moments by their threads' elapsed=
// against timed moments of the same target (see elapsedSpread), and drops
// an untimed moment that is a part of a timed one. Each decision is said.
func dateByElapsed(in []analyze.Input, warn *loadNotes) []analyze.Input {
	var timed []int
	for i, x := range in {
		if !momentTime(x).IsZero() {
			timed = append(timed, i)
		}
	}
	if len(timed) == 0 || len(timed) == len(in) {
		return in
	}
	refs := map[int]map[jvmThreadKey]int{}
	drop := map[int]bool{}
	for i := range in {
		x := &in[i]
		if !momentTime(*x).IsZero() {
			continue
		}
		mine := elapsedOf(*x)
		if len(mine) == 0 {
			continue
		}
		best, found := elapsedDating{}, false
		for _, r := range timed {
			if in[r].Target != x.Target {
				continue
			}
			if refs[r] == nil {
				refs[r] = elapsedOf(in[r])
			}
			d, ok := dateAgainst(*x, mine, in[r], refs[r])
			if !ok {
				continue
			}
			d.ref = r
			if !found || d.part && !best.part || d.part == best.part && abs(d.offset) < abs(best.offset) {
				best, found = d, true
			}
		}
		if !found {
			continue
		}
		ref := in[best.ref]
		if best.part {
			drop[i] = true
			warn.add("warning: %s holds %d thread(s) of %s with the same elapsed=, cpu= and state (cut from that dump, not a later moment): read as part of it, not as a moment of its own",
				momentName(*x), best.shared, momentName(ref))
			continue
		}
		x.Taken = momentTime(ref).Add(best.offset)
		warn.add("%s prints no time: dated %s by the elapsed= of %d thread(s) it shares with %s (%+.1fs)",
			momentName(*x), x.Taken.Format("2006-01-02 15:04:05"), best.shared, momentName(ref), best.offset.Seconds())
	}
	if len(drop) == 0 {
		return in
	}
	out := in[:0:0]
	for i, x := range in {
		if !drop[i] {
			out = append(out, x)
		}
	}
	return out
}

// dateAgainst is what timed dump r says of untimed dump x: false when they
// share no thread or their offsets do not agree (elapsedSpread), or when
// any shared thread's elapsed= goes back while its cpu= goes forward (not
// one thread).
func dateAgainst(x analyze.Input, mine map[jvmThreadKey]int, r analyze.Input, theirs map[jvmThreadKey]int) (elapsedDating, bool) {
	var offs []time.Duration
	same := 0
	for k, i := range mine {
		j, ok := theirs[k]
		if !ok {
			continue
		}
		a, b := x.Dump.Threads[i].Java(), r.Dump.Threads[j].Java()
		off := a.Elapsed - b.Elapsed
		if a.CPU > 0 && b.CPU > 0 && (off > 0 && a.CPU < b.CPU || off < 0 && a.CPU > b.CPU) {
			return elapsedDating{}, false // CPU used runs against the time lived
		}
		offs = append(offs, off)
		if off == 0 && a.CPU == b.CPU && x.Dump.Threads[i].State == r.Dump.Threads[j].State {
			same++
		}
	}
	if len(offs) == 0 {
		return elapsedDating{}, false
	}
	slices.Sort(offs)
	if offs[len(offs)-1]-offs[0] > elapsedSpread {
		return elapsedDating{}, false
	}
	d := elapsedDating{offset: offs[len(offs)/2], shared: len(offs)}
	// A part: every thread of x is one of r's, as r printed it. Threads of
	// x that print no elapsed= (JVM-internal lines without one) do not
	// prove a later moment; threads r lacks do.
	d.part = same == len(offs) && len(offs) == len(mine)
	return d, true
}

func abs(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
