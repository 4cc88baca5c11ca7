package analyze

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPoolHolderFixtures: the real programs of testdata/gen/verdicts-poolholders
// (issue 33, "the holder first"; each README's verdict written from the
// source before dumpdiff ran). An exhausted pool names its holders, past
// the waiters' acquire, and their frame is the culprit: commons-pool2's
// borrowObject behind 3 socket reads, HikariCP's getConnection behind 5
// (no JDBC driver under them: they hold a connection while they call a
// service), the program's own ChannelPool behind 4 CompletableFuture.get,
// a Go buffered channel used as a semaphore behind 4 network reads (Go
// 1.26 and 1.13). A fixed executor whose every worker waits on its own
// queued parts is a deadlock, critical over three dumps, a warning from
// one. Each healthy twin (the holders turn over; the workers wait on
// another, working executor) says nothing.
func TestPoolHolderFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	holders := func(n int, state, frame string) func(*testing.T, Finding) {
		return func(t *testing.T, f Finding) {
			held := 0
			for _, h := range f.Holders {
				held += h.Count
			}
			eq(t, "holders", held, n)
			eq(t, "holder basis", f.HolderBasis, holderBasisPast)
			eq(t, "holder state", f.Holders[0].State, state)
			eq(t, "holder frame", strings.HasPrefix(f.Holders[0].Culprit, frame), true)
			eq(t, "culprit", f.Culprit, f.Holders[0].Culprit)
			eq(t, "severity", f.Severity, Critical)
		}
	}
	all := []string{"1", "2", "3"}
	tests := []fixtureCase{
		{"pool2-holders-stuck", all, []want{
			{"object-pool-exhausted", "export-worker-*", "object-pool-wait", holders(3, "socket-read", "com.example.poolholders.Named.ask(")},
			{KindSaturated, "export-worker-*", "object-pool-wait", nil},
		}},
		{"pool2-holders-healthy", all, nil},
		{"hikari-holders-stuck", all, []want{
			{KindDBPoolExhausted, "http-nio-8080-exec-*", "db-pool-wait", holders(5, "socket-read", "com.example.poolholders.Named.ask(")},
			{KindSaturated, "http-nio-8080-exec-*", "db-pool-wait", nil},
		}},
		{"hikari-holders-healthy", all, nil},
		{"custom-pool-holders-stuck", all, []want{
			{"object-pool-exhausted", "quote-*", "object-pool-wait", holders(4, "future-wait", "com.example.poolholders.QuoteHandler$RpcStub.call(")},
			{KindSaturated, "quote-*", "object-pool-wait", nil},
		}},
		{"custom-pool-holders-healthy", all, nil},
		{"go-chansem-stuck", all, []want{
			{KindSemaphoreExhausted, "main.burst", "chan-send", holders(4, "socket-read", "main.processJob (main.go:33)")},
		}},
		{"go-chansem-stuck-go113", all, []want{
			{KindSemaphoreExhausted, "main.burst", "chan-send", holders(4, "socket-read", "main.processJob (main.go:33)")},
		}},
		{"go-chansem-healthy", all, nil},
		{"go-chansem-healthy-go113", all, nil},
		{"starve-pool-stuck", all, []want{
			{KindDeadlock, "agg-*", "future-wait", func(t *testing.T, f Finding) {
				eq(t, "basis", f.Basis, "pool-self-wait")
				eq(t, "severity", f.Severity, Critical)
				eq(t, "waiting", f.Waiting, 3)
			}},
			{KindStuck, "agg-*", "future-wait", func(t *testing.T, f Finding) {
				eq(t, "caused by", f.CausedBy, "deadlock pool-self-wait agg-*")
			}},
			{KindSaturated, "agg-*", "future-wait", nil},
		}},
		{"starve-pool-healthy", all, nil},
		{"starve-pool-onedump-stuck", []string{"1"}, []want{
			{KindDeadlock, "agg-*", "future-wait", func(t *testing.T, f Finding) {
				eq(t, "basis", f.Basis, "pool-self-wait")
				eq(t, "severity", f.Severity, Warning)
			}},
		}},
		{"starve-pool-onedump-healthy", []string{"1"}, nil},
	}
	runFixtureCases(t, dir, tests)
}
