// Package captured turns a capture folder's moments into the analysis's
// inputs, as the main command reads them and as `dumpdiff watch` reads
// its rings: one rule for which file counts as a target's dump at a
// moment (capture.Manifest.MomentFiles) and for what is joined to it.
package captured

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/parse"
)

// Read parses a file of the capture (its path as the manifest gives it);
// primary is true for the file counted as the moment's dump, false for
// one beside it.
type Read func(path string, primary bool) ([]*parse.Dump, error)

// Input is target's moment label of manifest m: its dump (read through
// read), with the encodings beside it as aux dumps, and a JDK 21+ JSON
// moment's lock owners joined from the Thread.print -l beside it, and a
// JDK 24+ moment's virtual-thread scheduler as its Dump.Scheduler. ok is
// false when nothing usable was kept for that moment. What the reader
// should know (a file beside that could not be read, an owner join) goes
// to note; an error reading the dump itself is returned.
func Input(m *capture.Manifest, target, label string, read Read, note func(string)) (x analyze.Input, ok bool, err error) {
	primary, beside, why := m.MomentFiles(target, label)
	if primary == nil {
		return analyze.Input{}, false, nil
	}
	dumps, err := read(primary.Path, true)
	if err != nil {
		return analyze.Input{}, false, err
	}
	d := dumps[0]
	if why != "" {
		d.Skipped = append(d.Skipped, parse.Skipped{Reason: why})
	}
	x = analyze.Input{Label: label, Target: target, Dump: d, Taken: primary.Started}
	if m.Load != nil {
		x.LoadStarted = m.Load.Started
	}
	for _, g := range beside {
		if g.Kind == capture.FileGoroutineTrace {
			continue // moments of their own (Flight), not an encoding of this one
		}
		aux, err := read(g.Path, false)
		if err != nil {
			note(fmt.Sprintf("%v (kept out of the analysis)", err))
			continue
		}
		// The virtual-thread scheduler beside a JDK 24+ moment: part of
		// the moment, not a dump of threads.
		if g.Kind == capture.FileVThreadScheduler {
			if len(aux) > 0 && aux[0].Scheduler != nil {
				d.Scheduler = aux[0].Scheduler
				// What of it was not read is the moment's, said with it.
				for _, sk := range aux[0].Skipped {
					sk.Reason = fmt.Sprintf("%s line %d: %s", g.Path, sk.Line, sk.Reason)
					sk.Line = 0
					d.Skipped = append(d.Skipped, sk)
				}
			}
			continue
		}
		// Thread.print -l beside a JDK 21+ JSON moment: the owners of the
		// j.u.c locks the JSON names none of.
		if d.Format == parse.FormatJVMJSON && g.Kind == capture.FileJVM && len(aux) > 0 {
			_, notes := parse.JoinLockOwners(d, aux[0], "Thread.print -l beside")
			for _, n := range notes {
				note(fmt.Sprintf("%s at %s: %s", target, label, n))
			}
			continue
		}
		x.Aux = append(x.Aux, aux...)
	}
	return x, true, nil
}

// Flight is the moments of the flight recorder snapshot taken beside
// target's moment label, each an input of its own ("during-1 −3s"): those
// between the target's previous moment and this moment's dump (the dump is
// the moment itself, and the previous snapshot has the seconds before the
// previous moment). None when no snapshot was taken; a snapshot that does
// not read goes to note.
func Flight(m *capture.Manifest, target, label string, read Read, note func(string)) []analyze.Input {
	primary, beside, _ := m.MomentFiles(target, label)
	var after time.Time
	for _, mo := range m.Moments {
		if mo.Label == label {
			break
		}
		if p, _, _ := m.MomentFiles(target, mo.Label); p != nil {
			after = p.Started
		}
	}
	var out []analyze.Input
	for _, g := range beside {
		if g.Kind != capture.FileGoroutineTrace || !g.OK() {
			continue
		}
		dumps, err := read(g.Path, false)
		if err != nil {
			note(fmt.Sprintf("%v (kept out of the analysis)", err))
			continue
		}
		end := g.Started
		if primary != nil {
			end = primary.Started
		}
		for _, d := range dumps {
			if d.Time.IsZero() || !d.Time.Before(end) || !d.Time.After(after) {
				continue
			}
			before := end.Sub(d.Time).Round(time.Second)
			if before < time.Second {
				before = end.Sub(d.Time).Round(100 * time.Millisecond)
			}
			x := analyze.Input{Label: fmt.Sprintf("%s −%s", label, before), Target: target, Dump: d}
			if m.Load != nil {
				x.LoadStarted = m.Load.Started
			}
			out = append(out, x)
		}
	}
	return out
}

// Creators gives the goroutines of flights that their trace shows no
// creator for (created before the trace began: the trace never saw their
// go statement) the creator d, the moment's dump, prints for the same
// goroutine id. Pools are named by creator: without it the same goroutines
// would be one pool in the trace's moments and another in the dump's.
func Creators(flights []analyze.Input, d *parse.Dump) {
	if d == nil || d.Format != parse.FormatGoText {
		return
	}
	byID := make(map[int64]*parse.Creator, len(d.Threads))
	for _, t := range d.Threads {
		if t.CreatedBy != nil && t.ID > 0 {
			byID[t.ID] = t.CreatedBy
		}
	}
	for _, x := range flights {
		for _, t := range x.Dump.Threads {
			if t.CreatedBy == nil {
				t.CreatedBy = byID[t.ID]
			}
		}
	}
}

// KeepPartial keeps what a truncated input gave (a gzip cut in transfer):
// the dumps read before the cut are kept, the last marked as cut where the
// report shows it, and note says so; nothing already read is lost. Other
// errors pass through.
func KeepPartial(dumps []*parse.Dump, err error) ([]*parse.Dump, string, error) {
	if err != nil && len(dumps) > 0 && errors.Is(err, io.ErrUnexpectedEOF) {
		last := dumps[len(dumps)-1]
		last.Skipped = append(last.Skipped, parse.Skipped{Reason: "input cut here: " + err.Error()})
		return dumps, fmt.Sprintf("warning: %v; analyzing the %d dump(s) read before the cut", err, len(dumps)), nil
	}
	return dumps, "", err
}
