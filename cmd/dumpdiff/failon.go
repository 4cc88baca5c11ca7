package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// failOn is a parsed --fail-on: finding kinds, or severities ("critical":
// any critical finding; "warning": any warning or critical one).
type failOn struct {
	kinds []string
	sev   analyze.Severity
	bySev bool
}

// parseFailOn reads --fail-on's comma-separated kinds and severities, in
// any case; "" fails on nothing.
func parseFailOn(v string) (failOn, error) {
	var fo failOn
	if strings.TrimSpace(v) == "" {
		return fo, nil
	}
	for _, k := range strings.Split(v, ",") {
		k = lowerEnum(k)
		switch {
		case k == "critical":
			fo.setSeverity(analyze.Critical)
		case k == "warning":
			fo.setSeverity(analyze.Warning)
		case k == "":
			return fo, fmt.Errorf("--fail-on %q: an empty kind", v)
		default:
			if !slices.Contains(analyze.Kinds, k) {
				return fo, fmt.Errorf("unknown --fail-on %q: want critical, warning or a kind (%s)", k, strings.Join(analyze.Kinds, ", "))
			}
			fo.kinds = append(fo.kinds, k)
		}
	}
	return fo, nil
}

func (fo *failOn) setSeverity(s analyze.Severity) {
	if !fo.bySev || s < fo.sev {
		fo.sev, fo.bySev = s, true
	}
}

// match returns the first finding of rs that --fail-on names; nil if none.
func (fo failOn) match(rs []*analyze.Result) *analyze.Finding {
	for _, r := range rs {
		for i := range r.Findings {
			f := &r.Findings[i]
			if fo.bySev && f.Severity >= fo.sev {
				return f
			}
			for _, k := range fo.kinds {
				if f.Kind == k {
					return f
				}
			}
		}
	}
	return nil
}

// exit is the --fail-on exit error for rs; nil when nothing matches.
func (fo failOn) exit(rs []*analyze.Result) error {
	if f := fo.match(rs); f != nil {
		return &exitError{code: 3, msg: fmt.Sprintf("finding %s (%s) present (--fail-on)", f.Kind, f.Severity)}
	}
	return nil
}

// parseColor reads --color in any case.
func parseColor(v string) (string, error) {
	switch c := lowerEnum(v); c {
	case "auto", "always", "never":
		return c, nil
	}
	return "", fmt.Errorf("unknown --color %q: want auto, always or never", v)
}
