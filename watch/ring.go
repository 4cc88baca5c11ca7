package watch

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/internal/captured"
	"github.com/dumpdiff/dumpdiff/parse"
)

// ring is one target's last moments: on disk (its Recorder's folder) and
// in memory as parsed inputs, so that a tick parses only its own moment
// and the analysis never reads the disk again.
type ring struct {
	rec *capture.Recorder
	// forget removes a moment from the ring's folder and manifest
	// (rec.Forget; tests: a ring of no folder).
	forget func(label string) (int64, error)
	keep   int
	share  int64 // its share of Config.MaxBytes
	opt    analyze.Options

	// No lock: a ring is its target's loop's alone (resume before the
	// loop starts, sayStop after it ended; the metrics get its size as
	// values, metrics.ring).
	moments []ringMoment // oldest first
	bytes   int64
	// pinned are moments eviction passes over: the healthy moments before
	// an open incident (pin), so the ring compares with them however long
	// the incident lasts.
	pinned map[string]bool
	until  map[string]bool // after a close: the moments whose eviction releases the pins
}

// maxPinnedShare bounds the pinned moments to this share of keep: the
// rest of the ring still follows the incident moment by moment.
const maxPinnedShare = 4

// pin keeps the given moments (the healthy ones before an incident, oldest
// first) in the ring while the incident is open: the newest
// keep/maxPinnedShare of them (at least one); their bytes still count.
// unpin lets them go once the incident's moments are gone.
func (g *ring) pin(labels []string) {
	g.until = nil
	n := min(len(labels), max(1, g.keep/maxPinnedShare))
	g.pinned = map[string]bool{}
	for _, l := range labels[len(labels)-n:] {
		g.pinned[l] = true
	}
}

// unpin lets the pins go once none of the moments from since on (the
// incident's, from its first finding's moment to its close) is left in
// the ring: until then the healthy before is what they are compared
// with, and a pool back at rest reads as recovered, not as a rise from a
// ring that holds only the incident.
func (g *ring) unpin(since string) {
	if g.pinned == nil {
		return
	}
	i := slices.IndexFunc(g.moments, func(rm ringMoment) bool { return rm.label == since })
	if i < 0 {
		i = len(g.moments) // already gone
	}
	g.until = make(map[string]bool)
	for _, rm := range g.moments[:i] {
		if !g.pinned[rm.label] {
			g.until[rm.label] = true // moments before since are not the incident's
		}
	}
	for _, rm := range g.moments[i:] {
		g.until[rm.label] = true
	}
	g.release()
}

// release drops the pins when no moment of the closed incident is left.
func (g *ring) release() {
	if g.until == nil {
		return
	}
	for _, rm := range g.moments {
		if g.until[rm.label] && !g.pinned[rm.label] {
			return
		}
	}
	g.pinned, g.until = nil, nil
}

// ringMoment is one moment of a ring.
type ringMoment struct {
	label  string
	moment capture.Moment // as the manifest records it
	files  []capture.File // as the manifest records them
	bytes  int64
	// input is the parsed moment; ok is false when it could not be read
	// (its files are still the ring's: counted and evicted like any).
	input analyze.Input
	ok    bool
}

func newRing(rec *capture.Recorder, keep int, share int64, opt analyze.Options) *ring {
	// Each ring keeps its moments' builds from one analysis to the next
	// (analyze.Cache): a ring is analyzed by its own target's loop only.
	opt.Cache = analyze.NewCache()
	return &ring{rec: rec, forget: rec.Forget, keep: keep, share: share, opt: opt}
}

// resume reads the moments an earlier watch left in the folder and
// returns how many; the ring's bounds apply at once.
func (g *ring) resume() int {
	m := g.rec.Manifest()
	for _, mo := range m.Moments {
		g.load(m, mo.Label)
	}
	g.evict()
	return len(g.moments)
}

// add reads the moment just taken into the ring; notes are what reading
// it had to say (a file beside it that could not be read, a cut input, a
// lock owner join), for the log.
func (g *ring) add(label string) (notes []string, err error) {
	return g.load(g.rec.Manifest(), label)
}

func (g *ring) load(m *capture.Manifest, label string) (notes []string, err error) {
	rm, notes, err := readMoment(m, g.rec.Dir(), g.rec.Targets()[0].Name, label)
	g.put(rm)
	if err != nil {
		return notes, fmt.Errorf("reading %s: %w", label, err)
	}
	if !rm.ok {
		return notes, errors.New("no dump kept")
	}
	return notes, nil
}

// readMoment reads moment label of the capture folder dir, whose manifest
// is m, as a ring moment: its record, its files and bytes, and its parsed
// input, as the main command reads a capture. The ring reads its own
// moments with it and resume an incident bundle's: one reader for both.
// notes are what reading had to say (a file beside it that could not be
// read, a cut input, a lock owner join); err when its dump could not be
// read. rm is the moment whatever happened (ok false when it cannot be
// analyzed): its files are still counted.
func readMoment(m *capture.Manifest, dir, target, label string) (rm ringMoment, notes []string, err error) {
	rm.label = label
	for _, mo := range m.Moments {
		if mo.Label == label {
			rm.moment = mo
		}
	}
	for _, f := range m.Files {
		if f.Moment == label {
			rm.files = append(rm.files, f)
			rm.bytes += f.Size
		}
	}
	read := func(path string, primary bool) ([]*parse.Dump, error) {
		dumps, err := parse.ParseFile(filepath.Join(dir, path))
		dumps, note, err := captured.KeepPartial(dumps, err)
		if note != "" {
			notes = append(notes, note)
		}
		return dumps, err
	}
	x, ok, err := captured.Input(m, target, label, read, func(n string) { notes = append(notes, n) })
	rm.input, rm.ok = x, ok && err == nil
	return rm, notes, err
}

// put adds a moment read as the newest.
func (g *ring) put(rm ringMoment) {
	g.moments = append(g.moments, rm)
	g.bytes += rm.bytes
}

// inputs are the ring's readable moments, oldest first.
func (g *ring) inputs() []analyze.Input {
	in := make([]analyze.Input, 0, len(g.moments))
	for _, rm := range g.moments {
		if rm.ok {
			in = append(in, rm.input)
		}
	}
	return in
}

// snapshot is a copy of the ring's moments, for an incident.
func (g *ring) snapshot() []ringMoment {
	return slices.Clone(g.moments)
}

// last is the newest moment.
func (g *ring) last() (ringMoment, bool) {
	if len(g.moments) == 0 {
		return ringMoment{}, false
	}
	return g.moments[len(g.moments)-1], true
}

// analyze is the main command's analysis of the ring's moments.
func (g *ring) analyze() *analyze.Result {
	return analyze.Analyze(g.inputs(), g.opt)
}

// makeRoom forgets the oldest moments before a moment is taken, so that
// the ring with one more moment the size of its newest still fits keep and
// its share: the bound holds while the new moment is written, short of
// what that moment outgrows the one before (evict, after it, takes care
// of that).
func (g *ring) makeRoom() error {
	var next int64
	if n := len(g.moments); n > 0 {
		next = g.moments[n-1].bytes
	}
	_, _, err := g.evictTo(g.keep-1, g.share-next)
	return err
}

// evict forgets the oldest moments until the ring holds at most keep
// moments and at most its share of bytes. It returns how many it forgot
// and the bytes of the last one.
func (g *ring) evict() (n int, last int64, err error) { return g.evictTo(g.keep, g.share) }

func (g *ring) evictTo(keep int, share int64) (n int, last int64, err error) {
	for {
		// The oldest moment not pinned; the newest is never passed over
		// for a pinned one (pins hold the past, not the present).
		i := slices.IndexFunc(g.moments, func(rm ringMoment) bool { return !g.pinned[rm.label] })
		if len(g.moments) == 0 || len(g.moments) <= keep && g.bytes <= share || i < 0 {
			return n, last, err
		}
		old := g.moments[i]
		g.moments = slices.Delete(g.moments, i, i+1)
		g.release()
		g.bytes -= old.bytes
		if _, ferr := g.forget(old.label); ferr != nil {
			err = errors.Join(err, ferr)
		}
		n++
		last = old.bytes
	}
}

// stats are the ring's size, for the metrics.
func (g *ring) stats() (moments int, bytes int64) {
	return len(g.moments), g.bytes
}
