package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// GenerateMany writes several analyses (one per captured target, or Go and
// JVM dumps given together) in opt.Format: for text and Markdown, the
// instances compared side by side when they are captured targets, then each
// report under its own heading; for JSON, one JSONAnalyses document. One
// analysis is written exactly as Generate writes it.
func GenerateMany(w io.Writer, rs []*analyze.Result, opt Options) error {
	if len(rs) == 1 {
		return Generate(w, rs[0], opt)
	}
	opt = opt.withDefaults()
	if opt.Format == "json" {
		return JSONMany(w, rs)
	}
	md := opt.Format == "markdown" || opt.Format == "md"
	if targeted(rs) {
		if err := Instances(w, rs, opt); err != nil {
			return err
		}
	}
	for i, r := range rs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if md {
			fmt.Fprintf(w, "## %s\n\n", mdText(title(r)))
		} else {
			fmt.Fprintf(w, "=== %s ===\n", title(r))
		}
		if err := Generate(w, r, opt); err != nil {
			return err
		}
	}
	return nil
}

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

// JSONMany writes several analyses as one JSONAnalyses document.
func JSONMany(w io.Writer, rs []*analyze.Result) error {
	doc := JSONAnalyses{Version: SchemaVersion, Analyses: []JSONReport{}, Moments: []string{}, Instances: []JSONInstance{}}
	for _, r := range rs {
		doc.Analyses = append(doc.Analyses, *NewJSONReport(r))
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
