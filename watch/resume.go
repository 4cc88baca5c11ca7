package watch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/capture"
)

// stateName is an incident bundle's own record of what it follows, so
// that a watch started again continues the incident it left open instead
// of opening a second bundle for it.
const stateName = "incident.json"

// incidentState is incident.json.
type incidentState struct {
	Target   string   `json:"target"`
	Findings []string `json:"findings"` // story keys (storyKey)
	Since    string   `json:"since"`    // the label of the moment its first finding was first seen
	After    int      `json:"after"`    // moments taken since it opened
	Open     bool     `json:"open"`
}

func (inc *incident) saveState(target string, st story, open bool) error {
	b, err := json.MarshalIndent(incidentState{Target: target, Findings: st.findings, Since: st.since, After: st.after, Open: open}, "", "  ")
	if err != nil {
		return err
	}
	return writeReplace(inc.dir, stateName, append(b, '\n'))
}

// resumeIncident continues the newest bundle of this target that the last
// watch left open: its findings are taken as open (not new), its moments
// are read back for its reports, the ring keeps the healthy ones it still
// holds, and the next moments are added to it.
func (tw *target) resumeIncident() {
	w := tw.w
	dirs, _ := filepath.Glob(filepath.Join(w.cfg.Dir, incidentsDir, "*"))
	slices.Sort(dirs) // named by time: the newest last
	for i := len(dirs) - 1; i >= 0; i-- {
		dir := dirs[i]
		b, err := os.ReadFile(filepath.Join(dir, stateName))
		if err != nil {
			continue
		}
		var st incidentState
		if err := json.Unmarshal(b, &st); err != nil {
			w.logf("%s: %s unreadable, that incident is not continued: %v", tw.name, filepath.Join(dir, stateName), err)
			continue
		}
		if st.Target != tw.name {
			continue
		}
		if !st.Open {
			return // the newest of this target is closed: nothing to continue
		}
		m, err := capture.ReadManifest(dir)
		if err != nil {
			w.logf("%s: incident %s left open, not continued: %v", tw.name, dir, err)
			return
		}
		inc := &incident{dir: dir, man: *m, src: tw.rec.Dir(), hardLink: w.cfg.link}
		inc.man.Error = ""
		for _, mo := range m.Moments {
			rm, notes, err := readMoment(m, dir, tw.name, mo.Label)
			for _, n := range notes {
				w.logf("%s: incident %s, moment %s: %s", tw.name, dir, mo.Label, n)
			}
			if err != nil {
				w.logf("%s: incident %s, moment %s: %v (left out of its reports)", tw.name, dir, mo.Label, err)
			}
			inc.moments = append(inc.moments, rm)
		}
		tw.incident = inc
		var pin []string
		tw.verdict, pin = resumed(st, m.Trigger, labels(m))
		// The healthy before, where the ring still has it.
		tw.ring.pin(pin)
		w.metrics.incidentOpen.WithLabelValues(tw.name).Set(1)
		w.logf("%s: incident %s, left open at the last stop, continued (%d moments, %s)", tw.name, dir, len(m.Moments),
			strings.ReplaceAll(strings.Join(st.Findings, ", "), "\x00", " "))
		return
	}
}

// labels are the labels of m's moments, oldest first.
func labels(m *capture.Manifest) []string {
	var out []string
	for _, mo := range m.Moments {
		out = append(out, mo.Label)
	}
	return out
}
