package main

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/internal/captured"
	"github.com/dumpdiff/dumpdiff/parse"
)

// loadManifest reads a capture folder by its manifest.json: moments in the
// order taken, labelled as captured; each target's moment counted once (its
// primary dump), the files beside it (debug=1, proto, goroutineleak) added
// as aux dumps. ok is false when the folder has no manifest.
//
// Counts come from a complete encoding: when the primary is a partial dump
// (a debug=2 body cut by the runtime's 64 MiB limit), or failed while an
// encoding beside it was kept, the moment's dump is that encoding (debug=0
// proto first: it keeps runtime frames, hence wait states; else debug=1),
// with the reason kept as a note the report shows.
func loadManifest(dir string, pre *prefetch, warn *loadNotes) ([]analyze.Input, bool, error) {
	if _, err := os.Stat(filepath.Join(dir, capture.ManifestName)); errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	m, err := capture.ReadManifest(dir)
	if err != nil {
		return nil, true, err
	}
	if n := m.Faults(); n > 0 {
		warn.add("%s: %d capture(s) failed, see manifest.json; analyzing what was captured", dir, n)
	}
	var in []analyze.Input
	for _, t := range m.Targets {
		for _, mo := range m.Moments {
			if primary, beside, _ := m.MomentFiles(t.Name, mo.Label); primary != nil {
				pre.start(filepath.Join(dir, primary.Path))
				for _, g := range beside {
					pre.start(filepath.Join(dir, g.Path))
				}
			}
		}
	}
	for _, t := range m.Targets {
		for _, mo := range m.Moments {
			read := func(path string, primary bool) ([]*parse.Dump, error) {
				if !primary {
					return pre.get(filepath.Join(dir, path))
				}
				return keepPartial(pre.get(filepath.Join(dir, path)))(warn)
			}
			x, ok, err := captured.Input(m, t.Name, mo.Label, read, func(note string) { warn.add("%s", note) })
			if err != nil {
				return nil, true, err
			}
			// The seconds before the moment, from the flight recorder.
			fl := captured.Flight(m, t.Name, mo.Label, read, func(note string) { warn.add("%s", note) })
			if ok {
				captured.Creators(fl, x.Dump)
			}
			in = append(in, fl...)
			if ok {
				in = append(in, x)
			}
		}
	}
	return in, true, nil
}

// byTarget splits moments by the process they come from, keeping order:
// each target, and each runtime, is analyzed on its own timeline (a Go
// dump and a JVM dump are never moments of one process).
func byTarget(in []analyze.Input) [][]analyze.Input {
	type key struct {
		target string
		rt     parse.Runtime
	}
	var order []key
	groups := map[key][]analyze.Input{}
	for _, x := range in {
		k := key{x.Target, x.Dump.Format.Runtime()}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], x)
	}
	out := make([][]analyze.Input, 0, len(order))
	for _, t := range order {
		out = append(out, groups[t])
	}
	return out
}
