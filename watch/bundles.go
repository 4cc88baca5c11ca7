package watch

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/capture"
)

// Incident is one incident bundle of a watch folder as a reader outside
// watch sees it (the MCP server lists them): what incident.json and the
// bundle's manifest say.
type Incident struct {
	Dir    string // the bundle's folder: DIR/incidents/<time>-<target>
	Target string
	// Open is true while the watch that wrote it had it open (or stopped
	// with it open: the next watch continues it).
	Open bool
	// Findings are the findings it is about, as "pool state via" (their
	// story keys; a finding of no one pool, a deadlock, by its id), in the
	// order they opened; empty for a triggered bundle that no finding
	// opened.
	Findings []string
	Since    string    // the label of the moment its first finding was first seen
	Trigger  string    // what asked for it (a trigger's reason); "" when a finding opened it
	Moments  int       // moments in the bundle
	Started  time.Time // when the bundle was opened
	Finished time.Time // when it closed; zero while open
	Error    string    // why it closed when not recovered ("incident-max reached"); ""
}

// Incidents lists the incident bundles of the watch folder dir (what
// `dumpdiff watch --out dir` wrote), oldest first. A bundle whose
// incident.json or manifest cannot be read is left out and said in the
// error, joined; the others are returned.
func Incidents(dir string) ([]Incident, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	es, err := os.ReadDir(filepath.Join(dir, incidentsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s holds no %s folder: not a watch folder, or no incident yet", dir, incidentsDir)
	}
	if err != nil {
		return nil, err
	}
	var out []Incident
	var errs []error
	for _, e := range es { // named by time: ReadDir's order is the time order
		if !e.IsDir() {
			continue
		}
		inc, err := ReadIncident(filepath.Join(dir, incidentsDir, e.Name()))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, inc)
	}
	return out, errors.Join(errs...)
}

// ReadIncident reads one bundle's incident.json and manifest.
func ReadIncident(bundle string) (Incident, error) {
	b, err := os.ReadFile(filepath.Join(bundle, stateName))
	if err != nil {
		return Incident{}, fmt.Errorf("%s: not an incident bundle: %w", bundle, err)
	}
	var st incidentState
	if err := json.Unmarshal(b, &st); err != nil {
		return Incident{}, fmt.Errorf("%s: %w", filepath.Join(bundle, stateName), err)
	}
	m, err := capture.ReadManifest(bundle)
	if err != nil {
		return Incident{}, fmt.Errorf("%s: %w", bundle, err)
	}
	inc := Incident{Dir: bundle, Target: st.Target, Open: st.Open, Since: st.Since, Trigger: m.Trigger,
		Moments: len(m.Moments), Started: m.Started, Finished: m.Finished, Error: m.Error, Findings: []string{}}
	for _, k := range st.Findings {
		// A story key joins its parts with NUL (storyKey).
		inc.Findings = append(inc.Findings, strings.Join(slices.DeleteFunc(strings.Split(k, "\x00"), func(s string) bool { return s == "" }), " "))
	}
	return inc, nil
}
