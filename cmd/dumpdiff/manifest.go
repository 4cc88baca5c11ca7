package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/parse"
)

// loadManifest reads a capture folder by its manifest.json: moments in the
// order taken, labelled as captured; each target's moment counted once (its
// primary dump), the files beside it (debug=0 proto, goroutineleak) added as
// aux dumps. ok is false when the folder has no manifest.
func loadManifest(dir string, warn io.Writer) ([]analyze.Input, bool, error) {
	if _, err := os.Stat(filepath.Join(dir, capture.ManifestName)); errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	m, err := capture.ReadManifest(dir)
	if err != nil {
		return nil, true, err
	}
	if n := m.Failed(); n > 0 {
		fmt.Fprintf(warn, "dumpdiff: %s: %d capture(s) failed, see manifest.json; analyzing what was captured\n", dir, n)
	}
	var in []analyze.Input
	for _, t := range m.Targets {
		for _, f := range m.Dumps(t.Name) {
			dumps, err := keepPartial(parse.ParseFile(filepath.Join(dir, f.Path)))(warn)
			if err != nil {
				return nil, true, err
			}
			x := analyze.Input{Label: f.Moment, Target: t.Name, Dump: dumps[0], Taken: f.Started}
			for _, g := range m.Files {
				if g.Target == f.Target && g.Moment == f.Moment && !g.Primary && g.OK() {
					aux, err := parse.ParseFile(filepath.Join(dir, g.Path))
					if err != nil {
						fmt.Fprintf(warn, "dumpdiff: %v (kept out of the analysis)\n", err)
						continue
					}
					x.Aux = append(x.Aux, aux...)
				}
			}
			in = append(in, x)
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
