package report

import (
	"fmt"
	"strings"
)

// The tests go test was running when it timed out: a Go test that ran
// past -timeout panics with a goroutine dump that names them (parse.Dump.
// RunningTests). They are what hung, the first thing a reader of such a
// dump wants: the header names them at their moment and the verdict says
// them before any finding.

// hungTests names the tests of a moment's go test timeout:
// "TestTransfer (2s)", "TestDrainA (2s), TestDrainB (2s)".
func hungTests(m momentRow) string {
	return strings.Join(m.tests, ", ")
}

// hungSentence is the verdict's sentence on go test timeouts, one per
// moment that has one: "go test timed out (panic: test timed out after
// 2s) at timeout while running TestTransfer (2s): the test that hung."; ""
// when no moment has one.
func (rs *rows) hungSentence() string {
	var out []string
	for _, m := range rs.moments {
		if len(m.tests) == 0 {
			continue
		}
		what := "the test that hung"
		if len(m.tests) > 1 {
			what = "the tests that hung"
		}
		at := ""
		if len(rs.moments) > 1 {
			at = " at " + m.label
		}
		out = append(out, fmt.Sprintf("go test timed out%s (%s) while running %s: %s.", at, m.headline, hungTests(m), what))
	}
	return strings.Join(out, " ")
}

// hungTitle names the hung tests of every moment for a title.
func (rs *rows) hungTitle() string {
	var out []string
	for _, m := range rs.moments {
		if len(m.tests) > 0 {
			out = append(out, hungTests(m))
		}
	}
	return strings.Join(out, "; ")
}
