package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestHeldWaitFixtures (issue 33, what one dump and few threads can say):
// real Java 17 programs (testdata/verdicts/onedump-*, READMEs written from
// the source before dumpdiff ran). A lone untimed read is the process's
// only work: stuck on one dump's evidence, and stuck on three. Two of 8
// workers reading among idle ones say nothing in a whole dump, but pasted
// alone (excerpt.txt) they are the story, on one dump's evidence. A DB
// pool of 2 with one waiter is exhausted when the very same waiter is there
// at three moments, under c3p0, DBCP2 and Tomcat JDBC; one dump of it, and
// the pools at a light load, say nothing.
func TestHeldWaitFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	oneDump := func(basis string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, basis)
			eq(t, "severity", f.Severity, Warning)
		}
	}
	tests := []fixtureCase{
		{"onedump-read-alone", []string{"1"}, []want{{KindStuck, "main", "socket-read", func(t *testing.T, f Finding) {
			oneDump("one-dump-process")(t, f)
			eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.onedump.OneDumpApp$QuoteClient.fetch("), true)
			eq(t, "remedy", strings.Contains(f.Remedy, "set a read timeout"), true)
		}}}},
		{"onedump-read-alone", []string{"1", "2", "3"}, []want{{KindStuck, "main", "socket-read", func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "held-process")
			eq(t, "same", f.Same, 1)
		}}}},
		{"onedump-read-pool-stuck", []string{"1"}, nil},
		{"onedump-read-pool-stuck", []string{"1", "2", "3"}, nil},
		{"onedump-read-pool-stuck", []string{"excerpt.txt"}, []want{{KindStuck, "ingest-worker-*", "socket-read", func(t *testing.T, f Finding) {
			oneDump("one-dump-cut")(t, f)
			eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.onedump.OneDumpApp$IngestClient.pull("), true)
			eq(t, "remedy", strings.Contains(f.Remedy, "set a read timeout"), true)
		}}}},
		{"onedump-read-pool-healthy", []string{"1"}, nil},
		{"onedump-read-pool-healthy", []string{"2"}, nil},
		{"onedump-read-pool-healthy", []string{"1", "2", "3"}, nil},
		// Two reading threads pasted alone cannot show that their peer
		// answers: one dump's evidence, said with its caveat (README).
		{"onedump-read-pool-healthy", []string{"excerpt.txt"}, []want{{KindStuck, "ingest-worker-*", "socket-read", oneDump("one-dump-cut")}}},
	}
	for _, lib := range []string{"c3p0", "dbcp2", "tomcat"} {
		tests = append(tests,
			fixtureCase{"onedump-pool-" + lib, []string{"1", "2", "3"}, []want{{KindDBPoolExhausted, "report-worker-*", "db-pool-wait", func(t *testing.T, f Finding) {
				eq(t, "basis", f.Basis, "persists")
				eq(t, "counts", fmt.Sprint(f.Counts), "[1 1 1]")
				eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.onedump.OneDumpApp$ReportService.render("), true)
			}}}},
			fixtureCase{"onedump-pool-" + lib, []string{"1"}, nil},
			fixtureCase{"onedump-pool-" + lib, []string{"3"}, nil},
			fixtureCase{"onedump-pool-healthy-" + lib, []string{"1", "2", "3"}, nil},
			fixtureCase{"onedump-pool-healthy-" + lib, []string{"1"}, nil},
		)
	}
	runFixtureCases(t, dir, tests)
}

// TestHeldWaitRule derives the rule from generated dumps: a pool of n
// workers, k of them in a socket read with no timeout inside their task,
// the rest idle in getTask. Whole, one dump is a finding only when every
// worker reads (k == n: the dump holds no other application thread); cut
// as a paste of the k readers and j idle workers, only when the readers are
// ChosenShare of what was pasted; with the JVM's own Reference Handler in
// the paste too (a whole dump that lost its head), only when every worker
// it holds reads, as for a whole dump. Whatever the counts, the finding says it
// is one dump's evidence (its Basis).
func TestHeldWaitRule(t *testing.T) {
	for n := 1; n <= 12; n++ {
		for k := 1; k <= n; k++ {
			whole := jstackPool(n, k, true)
			checkHeld(t, fmt.Sprintf("whole %d of %d", k, n), whole, k == n, "one-dump-process")
			// The paste: the readers and the first j idle workers, without
			// the dump's head (as a person cuts threads out of a jstack).
			entries := strings.Split(whole, "\n\n\"")
			for j := 0; j <= n-k; j++ {
				paste := "\"" + strings.Join(entries[1:1+k+j], "\n\n\"") + "\n"
				want := float64(k) >= ChosenShare*float64(k+j)
				checkHeld(t, fmt.Sprintf("paste of %d readers and %d idle", k, j), paste, want, "one-dump-cut")
				// The same with the JVM's Reference Handler: a whole dump that
				// lost its head, judged as a whole one (every worker in it reads).
				withJVM := referenceHandler + paste
				checkHeld(t, fmt.Sprintf("headless dump of %d readers and %d idle", k, j), withJVM, j == 0, "one-dump-process")
			}
		}
	}
}

// referenceHandler is the JVM's own thread every whole JDK 17 dump holds.
const referenceHandler = `"Reference Handler" #2 daemon prio=10 os_prio=0 cpu=0.10ms elapsed=60.00s tid=0x00007f0000001000 nid=0x10 waiting on condition  [0x00007f0000000000]
   java.lang.Thread.State: RUNNABLE
	at java.lang.ref.Reference.waitForReferencePendingList(java.base@17.0.15/Native Method)
	at java.lang.ref.Reference.processPendingReferences(java.base@17.0.15/Reference.java:253)
	at java.lang.ref.Reference$ReferenceHandler.run(java.base@17.0.15/Reference.java:215)

`

// checkHeld analyzes text as one moment and checks that it says the
// workers stuck in their read on one dump's evidence (basis) when want,
// and says no such thing otherwise.
func checkHeld(t *testing.T, name, text string, want bool, basis string) {
	t.Helper()
	ds, err := parse.Parse("dump.txt", strings.NewReader(text))
	if err != nil || len(ds) != 1 {
		t.Fatalf("%s: parse: %v", name, err)
	}
	if cut := !strings.HasPrefix(text, "2026-"); ds[0].Cut != cut {
		t.Fatalf("%s: Cut %v, want %v (excerpt %q)", name, ds[0].Cut, cut, ds[0].Excerpt)
	}
	got := false
	for _, f := range Analyze([]Input{{Dump: ds[0]}}, Options{}).Findings {
		if f.Kind == KindStuck && f.State == "socket-read" {
			got = true
			// Its severity is a warning unless what it causes is more (a
			// pool of SaturatedMin, every thread held: saturated on one dump).
			if f.Basis != basis {
				t.Errorf("%s: stuck with basis %q, want %q", name, f.Basis, basis)
			}
		}
	}
	if got != want {
		t.Errorf("%s: stuck on one dump %v, want %v", name, got, want)
	}
}

// TestRunningHolderOneDump (issue 33, the holder first): one dump without
// cpu= (as JDK 8 prints it) of a thread RUNNABLE in application frames
// holding the lock others wait for: the contention names that holder, and
// running, with no spinning finding (one dump cannot show a loop); pasted
// alone with one of its waiters, the same. Three real programs (a monitor
// on JDK 17 and Temurin 25, a ReentrantLock on JDK 17); their controls: a
// holder that sleeps between short passes (no finding), a holder in a
// socket read (its state, not running).
func TestRunningHolderOneDump(t *testing.T) {
	verdicts := filepath.Join("..", "testdata", "verdicts")
	for _, c := range []struct {
		dir, holder, waiter string
		owner               string // the holder's state; "" for no contention
	}{
		{"jvm-spin-monitor", "registry-sync", "worker-1", "running"},
		{"jdk25-spin-monitor", "registry-sync", "worker-1", "running"},
		{"holder-spin-stuck", "index-rebuilder", "index-reader-1", "running"},
		{"holder-spin-healthy", "", "", ""},
		{"jvm-contention", "cache-refresher", "worker-1", "socket-read"},
	} {
		t.Run(c.dir, func(t *testing.T) {
			in := loadWithoutCPU(t, filepath.Join(verdicts, c.dir), []string{"1"})
			check := func(name string, r *Result) {
				var found bool
				for _, f := range r.Findings {
					if f.Kind == KindSpinning {
						t.Errorf("%s: spinning on one dump without cpu=", name)
					}
					if f.Kind != KindContention || f.Lock == nil || f.Lock.Owner == nil || f.Lock.Owner.Name != c.holder {
						continue
					}
					found = true
					eq(t, name+" holder state", f.Lock.Owner.State, c.owner)
					eq(t, name+" caused by", f.CausedBy, "")
				}
				if found != (c.owner != "") {
					t.Errorf("%s: contention held by %q found %v, want %v; findings %v", name, c.holder, found, c.owner != "", kindsOf(r.Findings))
				}
			}
			check("whole", Analyze(in, Options{}))
			if c.holder == "" {
				return
			}
			// The holder and one waiter, as a person pastes them.
			var paste strings.Builder
			for _, th := range strings.Split(dumpText(t, filepath.Join(verdicts, c.dir, "1.txt")), "\n\"")[1:] {
				if strings.HasPrefix(th, c.holder+"\"") || strings.HasPrefix(th, c.waiter+"\"") {
					paste.WriteString("\"" + th + "\n")
				}
			}
			ds, err := parse.Parse("paste.txt", strings.NewReader(paste.String()))
			if err != nil || len(ds) != 1 || len(ds[0].Threads) != 2 || !ds[0].Cut {
				t.Fatalf("paste: %v (%d dumps)", err, len(ds))
			}
			check("paste", Analyze([]Input{{Label: "paste", Dump: ds[0]}}, Options{}))
		})
	}
}

// dumpText is path's text with cpu= and elapsed= taken out (JDK 8's header).
func dumpText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return cpuFields.ReplaceAllString(string(b), "")
}

// TestHeldWaitPublicPastes: pastes of one thread from public issues, as
// their posters cut them out of a jstack (header line, state, frames as far
// as the issue shows them; the text is the posters', so only its frames are
// here, as in TestSignatures). Each is one dump's evidence of what it waits
// on: a JDK 8 read of an HTTP reply that never came (mixpanel/mixpanel-java
// issue #12: "delivery blocks forever reading response"), a MySQL driver's
// read under a pool's validation (alibaba/druid issue #1653: "hangs in
// socketRead0"), a Druid pool wait with no maxWait (alibaba/druid issue
// #4920: "every query blocks here").
func TestHeldWaitPublicPastes(t *testing.T) {
	for _, c := range []struct {
		name, header, state string
		frames              []string
		kind, wantState     string
	}{
		{"mixpanel-java#12", `"pool-6-thread-15" #90 prio=5 os_prio=0 tid=0x00007f8b40c5f000 nid=0xef1 runnable [0x00007f8ae56e6000]`, "RUNNABLE",
			[]string{"java.net.SocketInputStream.socketRead0(Native Method)", "java.net.SocketInputStream.read(SocketInputStream.java:150)",
				"java.net.SocketInputStream.read(SocketInputStream.java:121)", "java.io.BufferedInputStream.fill(BufferedInputStream.java:246)",
				"java.io.BufferedInputStream.read1(BufferedInputStream.java:286)", "java.io.BufferedInputStream.read(BufferedInputStream.java:345)",
				"sun.net.www.http.HttpClient.parseHTTPHeader(HttpClient.java:701)", "sun.net.www.http.HttpClient.parseHTTP(HttpClient.java:647)",
				"sun.net.www.protocol.http.HttpURLConnection.getInputStream0(HttpURLConnection.java:1534)",
				"sun.net.www.protocol.http.HttpURLConnection.getInputStream(HttpURLConnection.java:1439)"},
			KindStuck, "socket-read"},
		{"druid#1653", `"Thread-4" daemon prio=10 tid=0x00007f2c6000c000 nid=0x2455 runnable [0x00007f2c55deb000]`, "RUNNABLE",
			[]string{"java.net.SocketInputStream.socketRead0(Native Method)", "java.net.SocketInputStream.read(SocketInputStream.java:152)",
				"java.net.SocketInputStream.read(SocketInputStream.java:122)", "com.mysql.jdbc.util.ReadAheadInputStream.fill(ReadAheadInputStream.java:100)",
				"com.mysql.jdbc.util.ReadAheadInputStream.readFromUnderlyingStreamIfNecessary(ReadAheadInputStream.java:143)",
				"com.mysql.jdbc.util.ReadAheadInputStream.read(ReadAheadInputStream.java:173)", "com.mysql.jdbc.MysqlIO.readFully(MysqlIO.java:2954)",
				"com.mysql.jdbc.MysqlIO.reuseAndReadPacket(MysqlIO.java:3375)", "com.mysql.jdbc.MysqlIO.checkErrorPacket(MysqlIO.java:3805)",
				"com.mysql.jdbc.MysqlIO.sendCommand(MysqlIO.java:2478)", "com.mysql.jdbc.MysqlIO.sqlQueryDirect(MysqlIO.java:2625)",
				"com.mysql.jdbc.ConnectionImpl.execSQL(ConnectionImpl.java:2547)", "com.mysql.jdbc.ConnectionImpl.setAutoCommit(ConnectionImpl.java:4874)"},
			KindStuck, "socket-read"},
		{"druid#4920", `"http-nio-8282-exec-444" #499 daemon prio=5 os_prio=0 tid=0x00007f6b60360000 nid=0xc135 waiting on condition [0x00007f6b15555000]`, "WAITING (parking)",
			[]string{"sun.misc.Unsafe.park(Native Method)", "java.util.concurrent.locks.LockSupport.park(LockSupport.java:175)",
				"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(AbstractQueuedSynchronizer.java:2039)",
				"com.alibaba.druid.pool.DruidDataSource.takeLast(DruidDataSource.java:1899)",
				"com.alibaba.druid.pool.DruidDataSource.getConnectionInternal(DruidDataSource.java:1460)",
				"com.alibaba.druid.pool.DruidDataSource.getConnectionDirect(DruidDataSource.java:1255)",
				"com.alibaba.druid.filter.FilterChainImpl.dataSource_connect(FilterChainImpl.java:5007)"},
			KindDBPoolExhausted, "db-pool-wait"},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := c.header + "\n   java.lang.Thread.State: " + c.state + "\n\tat " + strings.Join(c.frames, "\n\tat ") + "\n"
			ds, err := parse.Parse("paste.txt", strings.NewReader(text))
			if err != nil || len(ds) != 1 || len(ds[0].Threads) != 1 || !ds[0].Cut {
				t.Fatalf("paste: %v (%d dumps)", err, len(ds))
			}
			fs := Analyze([]Input{{Label: "paste", Dump: ds[0]}}, Options{}).Findings
			if len(fs) != 1 || fs[0].Kind != c.kind || fs[0].State != c.wantState || fs[0].Basis != "one-dump-cut" || fs[0].Severity != Warning {
				t.Fatalf("findings %v, want one %s %s on one dump's evidence", kindsOf(fs), c.kind, c.wantState)
			}
		})
	}
}

// TestHeldWaitThreadInfoPaste: a thread printed by ThreadInfo.toString (no
// header a cut would lose, so not marked a cut), waiting for ever in Druid's
// takeLast under Hibernate (alibaba/druid issue #3823's frames): the only
// thread given, so the whole of what was given waits for a connection: the
// pool exhausted on one dump's evidence.
func TestHeldWaitThreadInfoPaste(t *testing.T) {
	text := `"pool-34-thread-1" Id=512 WAITING on java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject@6cef7362
	at sun.misc.Unsafe.park(Native Method)
	-  waiting on java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject@6cef7362
	at java.util.concurrent.locks.LockSupport.park(LockSupport.java:175)
	at java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(AbstractQueuedSynchronizer.java:2039)
	at com.alibaba.druid.pool.DruidDataSource.takeLast(DruidDataSource.java:1891)
	at com.alibaba.druid.pool.DruidDataSource.getConnectionInternal(DruidDataSource.java:1452)
	at com.alibaba.druid.pool.DruidDataSource.getConnectionDirect(DruidDataSource.java:1247)
	at com.alibaba.druid.pool.DruidDataSource.getConnection(DruidDataSource.java:1227)
	at org.hibernate.engine.jdbc.connections.internal.DatasourceConnectionProviderImpl.getConnection(DatasourceConnectionProviderImpl.java:122)

`
	ds, err := parse.Parse("paste.txt", strings.NewReader(text))
	if err != nil || len(ds) != 1 || len(ds[0].Threads) != 1 || ds[0].Cut {
		t.Fatalf("paste: %v (%d dumps)", err, len(ds))
	}
	fs := Analyze([]Input{{Label: "paste", Dump: ds[0]}}, Options{}).Findings
	if len(fs) != 1 || fs[0].Kind != KindDBPoolExhausted || fs[0].Basis != "one-dump-process" || fs[0].Severity != Warning {
		t.Fatalf("findings %v, want the DB pool exhausted on one dump's evidence", kindsOf(fs))
	}
}
