package analyze

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEdgesFixtures: the real programs of issue 33's peer waits told by
// structure, each README written from its source before dumpdiff ran —
// an application's own client calls (a scheduled job's read, an HTTP
// consumer loop, a JDBC query under a Timer, DNS lookups through JNDI,
// InetAddress and Go's resolvers, all at silent servers on 127.0.0.1),
// a full queue whose consumers are busy at every moment, a feeder behind
// workers stuck on a lock — and their controls, which stay quiet.
func TestEdgesFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	lone := func(state string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, basisRoundTrip)
			eq(t, "severity", f.Severity, Warning)
			eq(t, "state", f.State, state)
		}
	}
	inferred := func(pool string, n int) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			got := 0
			for _, g := range f.Busy {
				if g.Pool == pool {
					got += g.Count
				}
			}
			eq(t, "busy "+pool, got, n)
		}
	}
	tests := []fixtureCase{
		{"client-waits-stuck", []string{"1", "2", "3"}, []want{
			{KindStuck, "inventory-sync", "socket-read", lone("socket-read")},
			{KindStuck, "event-consumer", "socket-read", lone("socket-read")},
			{KindStuck, "dns-refresh", "dns-lookup", lone("dns-lookup")},
			{KindStuck, "main", "dns-lookup", lone("dns-lookup")},
		}},
		{"client-waits-healthy", []string{"1", "2", "3"}, nil},
		// Two moments 5 s apart are under RoundTripStay: a call in flight.
		{"client-waits-stuck", []string{"1", "2"}, nil},
		{"nightly-jobs-stuck", []string{"1", "2", "3"}, []want{
			{KindStuck, "nightly-report", "socket-read", func(t *testing.T, f Finding) {
				lone("socket-read")(t, f)
				eq(t, "via", f.Via, "jdbc org.postgresql")
			}},
			{KindStuck, "service-lookup", "dns-lookup", lone("dns-lookup")},
		}},
		{"nightly-jobs-healthy", []string{"1", "2", "3"}, nil},
		// Busy consumers: named by what the dumps show of them.
		{"jdk25-backlog-busy", []string{"1", "2", "3"}, []want{
			{KindStuck, "producer-*", "queue-put", func(t *testing.T, f Finding) {
				eq(t, "inferred", f.BusyInferred, true)
				inferred("digester-*", 2)(t, f)
			}},
			{KindSpinning, "digester-*", "running", func(t *testing.T, f Finding) { eq(t, "waiting for them", f.Waiting, 5) }},
		}},
		{"backlog-busy", []string{"1", "2", "3"}, []want{
			{KindStuck, "producer-*", "queue-put", func(t *testing.T, f Finding) {
				eq(t, "inferred", f.BusyInferred, false) // digester-2 caught in take at 2
				inferred("digester-*", 2)(t, f)
			}},
		}},
		{"backlog-keepup", []string{"1", "2", "3"}, nil},
		{"executor-busy", []string{"1", "2", "3"}, []want{
			{KindStuck, "submitter-*", "queue-put", inferred("render-*", 2)},
			{KindSpinning, "render-*", "running", nil},
		}},
		{"executor-keepup", []string{"1", "2", "3"}, nil},
	}
	runFixtureCases(t, dir, tests)
}

// TestEdgesGoFixtures: the Go programs, whose dumps print no time. The
// feeder behind workers stuck on a mutex gets send-behind-busy-pool (the
// second program of that rule, beside go-peerwaits-stuck); the lookups
// waiting minutes for a silent DNS server are dns-lookup, stuck.
func TestEdgesGoFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	behind := remedyText(t, "send-behind-busy-pool")
	tests := []fixtureCase{
		{"go-feeder-stuck", []string{"2"}, []want{
			{KindStuck, "main.start", "chan-send", func(t *testing.T, f Finding) { eq(t, "remedy", f.Remedy, behind) }},
			{KindContention, "main.start", "mutex-wait", nil},
		}},
		{"go-feeder-healthy", []string{"1", "2", "3"}, nil},
		{"go-lookups-stuck", []string{"1"}, []want{
			{KindStuck, "main.main", "dns-lookup", func(t *testing.T, f Finding) {
				eq(t, "lookups", f.Counts[0], 3)
				if !strings.Contains(f.Remedy, "DNS server") {
					t.Errorf("remedy %q", f.Remedy)
				}
			}},
		}},
		{"go-lookups-healthy", []string{"1", "2", "3"}, nil},
	}
	runFixtureCases(t, dir, tests)
}
