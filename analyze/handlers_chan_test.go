package analyze

import (
	"path/filepath"
	"testing"
)

// TestHandlersOnChannelFixtures: real debug=1 fragments (testdata/gen/
// go-handlers-chan: a Go 1.26 and a Go 1.13.15 program, profiles fetched
// with curl from its net/http/pprof on 127.0.0.1, cut to the header and
// the one record a person asks about) of 100 net/http handlers blocked in
// a channel send (main.enqueue) or receive (main.awaitResult) are a
// warning naming the function, with the profile's header total as
// context; the same program's 100 workers idle in their own loop's
// receive, as a fragment and whole beside an idle server, get no such
// finding. Verdicts from the READMEs, written before dumpdiff ran.
func TestHandlersOnChannelFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	at := func(culprit string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, BasisHandlersChan)
			eq(t, "severity", f.Severity, Warning)
			eq(t, "count", f.Counts[0], 100)
			eq(t, "total", f.Totals[0], 504)
			if len(f.Culprit) < len(culprit) || f.Culprit[:len(culprit)] != culprit {
				t.Errorf("culprit %q, want %s", f.Culprit, culprit)
			}
		}
	}
	runFixtureCases(t, dir, []fixtureCase{
		{"go-handlers-chan-send", []string{"fragment.txt"}, []want{{KindStuck, "net/http server connections", "unknown", at("main.enqueue")}}},
		{"go-handlers-chan-send-go113", []string{"fragment.txt"}, []want{{KindStuck, "net/http server connections", "unknown", at("main.enqueue")}}},
		{"go-handlers-chan-recv", []string{"fragment.txt"}, []want{{KindStuck, "net/http server connections", "unknown", at("main.awaitResult")}}},
	})
	// The controls: no handler is blocked. (An older rule, the debug=1
	// mass of one profile alone, calls the 100 idle workers a possible
	// leak: a known limit, not this rule's.)
	for _, c := range []struct{ name, file string }{{"go-handlers-chan-workers-idle", "fragment.txt"}, {"go-handlers-chan-server-idle", "whole.txt"}} {
		r := Analyze(loadMoments(t, filepath.Join(dir, c.name), []string{c.file}), Options{})
		for _, f := range r.Findings {
			if f.Basis == BasisHandlersChan || f.Kind == KindStuck {
				t.Errorf("%s: %s %s %s (%s)", c.name, f.Kind, f.Pool, f.State, f.Basis)
			}
		}
	}
}
