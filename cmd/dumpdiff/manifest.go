package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
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
			if primary, beside, _ := momentFiles(m, t.Name, mo.Label); primary != nil {
				pre.start(filepath.Join(dir, primary.Path))
				for _, g := range beside {
					pre.start(filepath.Join(dir, g.Path))
				}
			}
		}
	}
	for _, t := range m.Targets {
		for _, mo := range m.Moments {
			primary, beside, why := momentFiles(m, t.Name, mo.Label)
			if primary == nil {
				continue
			}
			dumps, err := keepPartial(pre.get(filepath.Join(dir, primary.Path)))(warn)
			if err != nil {
				return nil, true, err
			}
			d := dumps[0]
			if why != "" {
				d.Skipped = append(d.Skipped, parse.Skipped{Reason: why})
			}
			x := analyze.Input{Label: mo.Label, Target: t.Name, Dump: d, Taken: primary.Started}
			for _, g := range beside {
				aux, err := pre.get(filepath.Join(dir, g.Path))
				if err != nil {
					warn.add("%v (kept out of the analysis)", err)
					continue
				}
				// Thread.print -l beside a JDK 21+ JSON moment: the owners
				// of the j.u.c locks the JSON names none of.
				if d.Format == parse.FormatJVMJSON && g.Kind == capture.FileJVM && len(aux) > 0 {
					_, notes := parse.JoinLockOwners(d, aux[0], "Thread.print -l beside")
					for _, n := range notes {
						warn.add("%s at %s: %s", t.Name, mo.Label, n)
					}
					continue
				}
				x.Aux = append(x.Aux, aux...)
			}
			in = append(in, x)
		}
	}
	return in, true, nil
}

// momentFiles picks the file counted as a target's dump at a moment and
// the files joined to it; why is a note for the report when the pick is
// not the primary itself. primary is nil when nothing usable was kept.
func momentFiles(m *capture.Manifest, target, moment string) (primary *capture.File, beside []capture.File, why string) {
	var failed *capture.File
	for i, f := range m.Files {
		if f.Target != target || f.Moment != moment || !f.Primary {
			continue
		}
		if f.OK() {
			primary = &m.Files[i]
		} else if failed == nil {
			failed = &m.Files[i]
		}
	}
	all := m.Beside(target, moment)
	if primary != nil && !primary.Partial {
		return primary, all, ""
	}
	// A complete encoding beside the cut or failed dump, proto first.
	var complete *capture.File
	for _, want := range []capture.FileKind{capture.FileGoroutineProto, capture.FileGoroutineDebug1} {
		for i := range all {
			if all[i].Kind == want && complete == nil {
				complete = &all[i]
			}
		}
	}
	switch {
	case complete == nil:
		return primary, all, "" // a partial dump and nothing else: its own warning says it is cut
	case primary != nil:
		why = fmt.Sprintf("%s %s; counts from %s (complete)", primary.Path, primary.Warning, complete.Path)
	case failed != nil && !failed.Interrupted:
		why = fmt.Sprintf("the full dump failed (%s); counts from %s", failed.Error, complete.Path)
	case failed != nil:
		why = fmt.Sprintf("the full dump was interrupted; counts from %s", complete.Path)
	default:
		return nil, nil, ""
	}
	for _, f := range all {
		if f.Path != complete.Path {
			beside = append(beside, f)
		}
	}
	return complete, beside, why
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
