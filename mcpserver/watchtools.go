package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dumpdiff/dumpdiff/report"
	"github.com/dumpdiff/dumpdiff/watch"
)

// IncidentsIn names a watch folder.
type IncidentsIn struct {
	Folder string `json:"folder" jsonschema:"the folder dumpdiff watch writes (its --out), under the server's roots"`
	PageIn
}

// Incidents are a watch folder's incidents, oldest first.
type Incidents struct {
	Folder    string        `json:"folder"`
	Incidents []IncidentOut `json:"incidents"`
	// Unreadable are the bundles that could not be read, and why.
	Unreadable string `json:"unreadable,omitempty"`
	Page
}

// IncidentOut is one incident bundle and its verdict.
type IncidentOut struct {
	Bundle   string   `json:"bundle" jsonschema:"the bundle's folder: give it to bundle (or analyze)"`
	Target   string   `json:"target"`
	Open     bool     `json:"open" jsonschema:"still open when watch last wrote it"`
	Findings []string `json:"findings" jsonschema:"the findings it is about (pool state via), in the order they opened"`
	Since    string   `json:"since" jsonschema:"the label of the moment its first finding was first seen"`
	Trigger  string   `json:"trigger" jsonschema:"what asked for it (an alert), when no finding opened it"`
	Moments  int      `json:"moments"`
	Started  string   `json:"started" jsonschema:"RFC 3339"`
	Finished string   `json:"finished" jsonschema:"RFC 3339; empty while open"`
	Error    string   `json:"error" jsonschema:"why it closed when not recovered"`
	// Verdict is what the bundle's own report (report.json, written by
	// watch) says: its lead finding's sentence and severity.
	Verdict  string   `json:"verdict"`
	Severity string   `json:"severity" jsonschema:"the lead finding's severity; empty without one"`
	Reports  []string `json:"reports" jsonschema:"resource URIs of the bundle's Markdown and HTML reports"`
}

func (s *Server) incidentsTool(_ context.Context, in IncidentsIn) (Incidents, error) {
	dir, err := s.resolve(in.Folder)
	if err != nil {
		return Incidents{}, err
	}
	incs, err := watch.Incidents(dir)
	if incs == nil && err != nil {
		return Incidents{}, err
	}
	out := Incidents{Folder: dir}
	if err != nil {
		out.Unreadable = err.Error()
	}
	// The newest first would read better, but watch's order is the time
	// order and a cursor must stand on a stable list: oldest first.
	var rows []IncidentOut
	for _, inc := range incs {
		if _, err := s.resolve(inc.Dir); err != nil {
			continue // a bundle linked in from outside the roots is not read
		}
		rows = append(rows, s.incidentOut(inc))
	}
	page, pg, err := paginate(rows, in.Cursor, queryKey("incidents", dir), in.Limit, s.cfg.PageBytes)
	if err != nil {
		return Incidents{}, err
	}
	out.Incidents, out.Page = page, pg
	return out, nil
}

// incidentOut is inc with the verdict of its report.json, and its reports
// made resources.
func (s *Server) incidentOut(inc watch.Incident) IncidentOut {
	o := IncidentOut{Bundle: inc.Dir, Target: inc.Target, Open: inc.Open, Findings: nonNil(inc.Findings), Since: inc.Since,
		Trigger: inc.Trigger, Moments: inc.Moments, Started: rfc3339(inc.Started), Finished: rfc3339(inc.Finished), Error: inc.Error, Reports: []string{}}
	if f, err := os.Open(filepath.Join(inc.Dir, "report.json")); err == nil {
		doc, err := report.DecodeJSON(f)
		f.Close()
		switch {
		case err != nil:
			o.Verdict = "its report.json is unreadable: " + err.Error()
		case len(doc.Findings) == 0:
			o.Verdict = "no finding"
		default:
			o.Verdict, o.Severity = doc.Findings[0].Summary, doc.Findings[0].Severity
		}
	} else {
		o.Verdict = "no report.json yet"
	}
	o.Reports = s.addBundleResources(inc.Dir)
	return o
}

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// BundleIn names an incident bundle.
type BundleIn struct {
	Bundle string `json:"bundle" jsonschema:"an incident bundle's folder (DIR/incidents/<time>-<target>), under the server's roots"`
	Limit  int    `json:"limit,omitempty" jsonschema:"findings in the first page (default 50); the next pages come from verdict"`
}

// Bundle is an incident bundle: what watch recorded and its analysis now.
type Bundle struct {
	Incident IncidentOut `json:"incident"`
	Verdict  Verdict     `json:"verdict" jsonschema:"the bundle analyzed as dumpdiff analyzes it, with an analysis_id"`
}

func (s *Server) bundleTool(_ context.Context, in BundleIn) (Bundle, error) {
	dir, err := s.resolve(in.Bundle)
	if err != nil {
		return Bundle{}, err
	}
	inc, err := watch.ReadIncident(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Bundle{}, fmt.Errorf("%s is not an incident bundle (no incident.json): give one of the bundles incidents lists, or analyze a plain folder", in.Bundle)
		}
		return Bundle{}, err
	}
	a, err := s.analyzePaths([]string{dir}, AnalyzeOptions{})
	if err != nil {
		return Bundle{}, err
	}
	v, err := s.verdict(a, PageIn{Limit: in.Limit})
	if err != nil {
		return Bundle{}, err
	}
	return Bundle{Incident: s.incidentOut(inc), Verdict: v}, nil
}

func (s *Server) addWatchTools() {
	tool(s, "incidents", "A watch folder's incidents",
		"The incidents dumpdiff watch recorded in a folder (its --out): each bundle open or closed, what it is about, and its verdict as its own report says. Paged.",
		true, s.incidentsTool)
	tool(s, "bundle", "An incident bundle's analysis",
		"One incident bundle of dumpdiff watch: what watch recorded of it, and the bundle analyzed now as dumpdiff analyzes it (the healthy moments before included), with an analysis_id.",
		true, s.bundleTool)
}
