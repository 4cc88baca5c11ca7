package report

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// SchemaVersion is the version of the JSON report (SCHEMA.md). Adding a
// field keeps it; removing a field or changing what one means bumps it.
const SchemaVersion = "1"

// The JSON protocol types. They are the contract with tools, documented
// field by field in SCHEMA.md; the analysis types may change under them.
// Every slice is written, as [] when empty, never null; every string is
// written, as "" when unknown.

// JSONReport is the whole document.
type JSONReport struct {
	Version  string        `json:"version"` // SchemaVersion
	Runtime  string        `json:"runtime"` // "go", "jvm"; "" when unknown
	Moments  []JSONMoment  `json:"moments"`
	Pools    []JSONPool    `json:"pools"`
	Findings []JSONFinding `json:"findings"`
	Warnings []string      `json:"warnings"`
}

// JSONMoment is one dump in the timeline.
type JSONMoment struct {
	Label   string `json:"label"`
	File    string `json:"file"`  // as given by the user; "-" for stdin
	Line    int    `json:"line"`  // 1-based line where the dump starts; 0 for binary formats
	Index   int    `json:"index"` // 0-based position of the dump among the dumps of file
	Format  string `json:"format"`
	Time    string `json:"time"`    // RFC 3339 as written in the dump; "" when not written
	Threads int    `json:"threads"` // weights included
	Skipped int    `json:"skipped"` // lines not understood
	Target  string `json:"target"`  // process name; "" for a single process
}

// JSONPool is a group of threads doing the same job.
type JSONPool struct {
	Name     string      `json:"name"`
	Internal bool        `json:"internal"`
	Counts   []int       `json:"counts"` // threads per moment
	Max      int         `json:"max"`
	States   []JSONState `json:"states"`
}

// JSONState is the threads of one pool in one blocking state.
type JSONState struct {
	State    string     `json:"state"`
	Category string     `json:"category"`
	Via      string     `json:"via"`
	Explain  string     `json:"explain"`
	Frame    string     `json:"frame"`
	Culprit  string     `json:"culprit"`
	Counts   []int      `json:"counts"`
	Same     int        `json:"same"`
	CPUMs    int64      `json:"cpu_ms"`
	Samples  [][]string `json:"samples"` // per moment
}

// JSONFinding is one verdict.
type JSONFinding struct {
	Kind     string         `json:"kind"`
	Severity string         `json:"severity"` // "critical", "warning", "info"
	Pool     string         `json:"pool"`
	State    string         `json:"state"`
	Via      string         `json:"via"`
	Counts   []int          `json:"counts"`
	Summary  string         `json:"summary"`
	Frame    string         `json:"frame"`
	Culprit  string         `json:"culprit"`
	Evidence []JSONEvidence `json:"evidence"`
}

// JSONEvidence is what one moment shows for a finding.
type JSONEvidence struct {
	Moment  int      `json:"moment"` // index into moments
	Label   string   `json:"label"`  // that moment's label
	Count   int      `json:"count"`
	Threads []string `json:"threads"`
}

// NewJSONReport converts r to the protocol types.
func NewJSONReport(r *analyze.Result) *JSONReport {
	n := len(r.Moments)
	doc := &JSONReport{Version: SchemaVersion, Runtime: string(r.Runtime),
		Moments: []JSONMoment{}, Pools: []JSONPool{}, Findings: []JSONFinding{}, Warnings: nonNil(r.Warnings)}
	for _, m := range r.Moments {
		jm := JSONMoment{Label: m.Label, File: m.Source.File, Line: m.Source.Line, Index: m.Source.Index,
			Format: string(m.Format), Threads: m.Threads, Skipped: m.Skipped, Target: m.Target}
		if !m.Time.IsZero() {
			jm.Time = m.Time.Format(time.RFC3339Nano)
		}
		doc.Moments = append(doc.Moments, jm)
	}
	for _, p := range r.Pools {
		jp := JSONPool{Name: p.Name, Internal: p.Internal, Counts: fitCounts(p.Counts, n), Max: p.Max, States: []JSONState{}}
		for _, g := range p.States {
			js := JSONState{State: g.State, Category: string(g.Category), Via: g.Via, Explain: g.Explain,
				Frame: g.TopFrame, Culprit: g.Culprit, Counts: fitCounts(g.Counts, n), Same: g.Same,
				CPUMs: g.CPU.Milliseconds(), Samples: make([][]string, n)}
			for i := range js.Samples {
				if i < len(g.Samples) {
					js.Samples[i] = nonNil(g.Samples[i])
				} else {
					js.Samples[i] = []string{}
				}
			}
			jp.States = append(jp.States, js)
		}
		doc.Pools = append(doc.Pools, jp)
	}
	for _, f := range r.Findings {
		jf := JSONFinding{Kind: f.Kind, Severity: f.Severity.String(), Pool: f.Pool, State: f.State, Via: f.Via,
			Counts: nonNil(f.Counts), Summary: f.Summary, Frame: f.Frame, Culprit: f.Culprit, Evidence: []JSONEvidence{}}
		for _, e := range f.Evidence {
			je := JSONEvidence{Moment: e.Moment, Count: e.Count, Threads: nonNil(e.Threads)}
			if e.Moment >= 0 && e.Moment < n {
				je.Label = r.Moments[e.Moment].Label
			}
			jf.Evidence = append(jf.Evidence, je)
		}
		doc.Findings = append(doc.Findings, jf)
	}
	return doc
}

// JSON writes r as an indented JSONReport.
func JSON(w io.Writer, r *analyze.Result, opt Options) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // frames hold "<init>"; the document is not HTML
	return enc.Encode(NewJSONReport(r))
}

// DecodeJSON reads a JSONReport, refusing unknown fields and versions
// other than SchemaVersion.
func DecodeJSON(r io.Reader) (*JSONReport, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var doc JSONReport
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("reading json report: %w", err)
	}
	if doc.Version != SchemaVersion {
		return nil, fmt.Errorf("reading json report: version %q, want %q", doc.Version, SchemaVersion)
	}
	return &doc, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
