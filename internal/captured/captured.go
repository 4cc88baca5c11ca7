// Package captured turns a capture folder's moments into the analysis's
// inputs, as the main command reads them and as `dumpdiff watch` reads
// its rings: one rule for which file counts as a target's dump at a
// moment (capture.Manifest.MomentFiles) and for what is joined to it.
package captured

import (
	"errors"
	"fmt"
	"io"

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
// moment's lock owners joined from the Thread.print -l beside it. ok is
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
		aux, err := read(g.Path, false)
		if err != nil {
			note(fmt.Sprintf("%v (kept out of the analysis)", err))
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
