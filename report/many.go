package report

import (
	"encoding/json"
	"io"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// targeted reports whether the analyses are captured targets (instances
// of one service) rather than unrelated dumps split by runtime.
func targeted(rs []*analyze.Result) bool {
	for _, r := range rs {
		if len(r.Moments) == 0 || r.Moments[0].Target == "" {
			return false
		}
	}
	return true
}

func title(r *analyze.Result) string {
	if len(r.Moments) > 0 && r.Moments[0].Target != "" {
		return "target " + r.Moments[0].Target
	}
	return string(r.Runtime) + " dumps"
}

// JSONAnalyses is the document for several analyses at once.
type JSONAnalyses struct {
	Version  string       `json:"version"`  // SchemaVersion
	Analyses []JSONReport `json:"analyses"` // one report per target (or runtime), in order
	// Findings and Warnings are every analysis's, in analysis order, so
	// that a tool reads `.findings[]` and `.warnings[]` the same in both
	// shapes; each finding names its runtime and target.
	Findings []JSONFinding `json:"findings"`
	Warnings []string      `json:"warnings"`
	// Moments are the labels the instances are compared at: those of the
	// first analysis.
	Moments []string `json:"moments"`
	// Instances compares captured targets; [] when the analyses are not
	// targets of one capture.
	Instances []JSONInstance `json:"instances"`
}

// JSONInstance is one captured target in the comparison.
type JSONInstance struct {
	Target   string `json:"target"`
	Threads  []int  `json:"threads"`  // per entry of JSONAnalyses.Moments; -1 where the target has no such moment
	Critical int    `json:"critical"` // findings of severity critical
	Warning  int    `json:"warning"`  // findings of severity warning
	Top      string `json:"top"`      // the most severe finding ("not-recovered http-nio-8080-exec-* · socket-read"); "" when none
}

// jsonRenderer is the JSON report.
type jsonRenderer struct{}

func (jsonRenderer) one(w io.Writer, r *analyze.Result, opt Options) error { return JSON(w, r, opt) }

func (jsonRenderer) many(w io.Writer, rs []*analyze.Result, _ Options) error { return JSONMany(w, rs) }

// JSONMany writes several analyses as one JSONAnalyses document.
func JSONMany(w io.Writer, rs []*analyze.Result) error {
	doc := JSONAnalyses{Version: SchemaVersion, Analyses: []JSONReport{}, Findings: []JSONFinding{}, Warnings: []string{},
		Moments: []string{}, Instances: []JSONInstance{}}
	for _, r := range rs {
		one := NewJSONReport(r)
		doc.Analyses = append(doc.Analyses, *one)
		doc.Findings = append(doc.Findings, one.Findings...)
		doc.Warnings = append(doc.Warnings, one.Warnings...)
	}
	labels, rows := instanceRows(rs)
	doc.Moments = nonNil(labels)
	if targeted(rs) {
		for _, row := range rows {
			doc.Instances = append(doc.Instances, JSONInstance{Target: row.target, Threads: row.totals,
				Critical: row.critical, Warning: row.warning, Top: row.top})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
