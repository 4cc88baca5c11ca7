package analyze

import (
	"fmt"
	"math/rand"
	"regexp"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// namesInput is one moment of JVM threads with these names.
func namesInput(names ...string) Input {
	d := &parse.Dump{Format: parse.FormatJVMText}
	for _, n := range names {
		d.Threads = append(d.Threads, &parse.Thread{JVM: &parse.JVM{Name: n}, Weight: 1})
	}
	return Input{Dump: d}
}

// Pools of every naming convention, from the thread names of real dumps
// (the corpus files named; only their names are used here), with the
// controls whose numbers name a pool and must stay.
func TestLearnJVMPools(t *testing.T) {
	for _, tt := range []struct {
		name  string
		names []string
		want  map[string]string
	}{{
		// samurai__sun-hotspot-1.4.2_05__weblogic-admin-multiple-dumps: one
		// execute queue, its counter inside quotes.
		name: "WebLogic execute queue",
		names: []string{"ExecuteThread: '0' for queue: 'weblogic.kernel.Default'", "ExecuteThread: '1' for queue: 'weblogic.kernel.Default'",
			"ExecuteThread: '14' for queue: 'weblogic.kernel.Default'", "ExecuteThread: '0' for queue: 'weblogic.kernel.System'",
			"ExecuteThread: '1' for queue: 'weblogic.kernel.System'", "ExecuteThread: '0' for queue: 'JMS.TimerTreePool'"},
		want: map[string]string{
			"ExecuteThread: '14' for queue: 'weblogic.kernel.Default'": "ExecuteThread: '*' for queue: 'weblogic.kernel.Default'",
			"ExecuteThread: '1' for queue: 'weblogic.kernel.System'":   "ExecuteThread: '*' for queue: 'weblogic.kernel.System'",
			"ExecuteThread: '0' for queue: 'JMS.TimerTreePool'":        "ExecuteThread: '0' for queue: 'JMS.TimerTreePool'", // alone: its own
		},
	}, {
		// samurai__hotspot-1.5.0_03__weblogic9-deadlock: the self-tuning
		// pool's state before the name changes, the pool does not.
		name: "WebLogic self-tuning states",
		names: []string{"[ACTIVE] ExecuteThread: '0' for queue: 'weblogic.kernel.Default (self-tuning)'",
			"[STANDBY] ExecuteThread: '1' for queue: 'weblogic.kernel.Default (self-tuning)'",
			"[ACTIVE] ExecuteThread: '4' for queue: 'weblogic.kernel.Default (self-tuning)'"},
		want: map[string]string{
			"[STANDBY] ExecuteThread: '1' for queue: 'weblogic.kernel.Default (self-tuning)'": "ExecuteThread: '*' for queue: 'weblogic.kernel.Default (self-tuning)'",
		},
	}, {
		// tda__hotspot-1.6.0_03-server__rmi-threads (Heritrix): a crawler
		// thread named by the URL it fetches; RMI connections by client.
		name: "per-request names",
		names: []string{"ToeThread #12: http://www.example.org/a", "ToeThread #13: https://example.com/b?c=1",
			"RMI TCP Connection(69241)-207.241.232.5", "RMI TCP Connection(69250)-207.241.232.5", "OkHttp http://10.0.0.5:8080/api/items/12"},
		want: map[string]string{
			"ToeThread #13: https://example.com/b?c=1": "ToeThread #*: *",
			"RMI TCP Connection(69250)-207.241.232.5":  "RMI TCP Connection(*)-207.241.232.*",
			"OkHttp http://10.0.0.5:8080/api/items/12": "OkHttp *",
		},
	}, {
		name:  "a counter before the pool's name",
		names: []string{"Thread-12 (ActiveMQ-client-global-threads)", "Thread-15 (ActiveMQ-client-global-threads)", "Thread-3 (ActiveMQ-client-global-threads)"},
		want:  map[string]string{"Thread-15 (ActiveMQ-client-global-threads)": "Thread-* (ActiveMQ-client-global-threads)"},
	}, {
		name:  "a counter inside brackets",
		names: []string{"elasticsearch[node-1][refresh][T#1]", "elasticsearch[node-1][refresh][T#2]", "elasticsearch[node-1][refresh][T#3]"},
		want:  map[string]string{"elasticsearch[node-1][refresh][T#3]": "elasticsearch[node-1][refresh][T#*]"},
	}, {
		// Controls: numbers that name the pool stay.
		name: "two Tomcat connectors",
		names: []string{"http-nio-8080-exec-1", "http-nio-8080-exec-2", "http-nio-8080-exec-3",
			"http-nio-8443-exec-1", "http-nio-8443-exec-2", "http-nio-8443-exec-3"},
		want: map[string]string{"http-nio-8080-exec-3": "http-nio-8080-exec-*", "http-nio-8443-exec-1": "http-nio-8443-exec-*"},
	}, {
		// sjk__hotspot-8u144-windows__hazelcast-160-threads: four members
		// in one JVM, each with its pools.
		name: "two executors, several members",
		names: []string{"pool-1-thread-1", "pool-1-thread-2", "pool-3-thread-1", "pool-3-thread-2",
			"hz._hzInstance_1_dev.cached.thread-1", "hz._hzInstance_1_dev.cached.thread-2", "hz._hzInstance_2_dev.cached.thread-1", "hz._hzInstance_2_dev.cached.thread-2"},
		want: map[string]string{"pool-3-thread-2": "pool-3-thread-*", "pool-1-thread-1": "pool-1-thread-*",
			"hz._hzInstance_2_dev.cached.thread-1": "hz._hzInstance_2_dev.cached.thread-*"},
	}, {
		name:  "a lone trailing counter",
		names: []string{"Timer-3", "main", "Signal Dispatcher"},
		want:  map[string]string{"Timer-3": "Timer-*", "main": "main"},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			got := learnJVMPools([]Input{namesInput(tt.names...)})
			for name, want := range tt.want {
				if got[name] != want {
					t.Errorf("%q: pool %q, want %q", name, got[name], want)
				}
			}
		})
	}
}

// The WebLogic dump's Default queue is one pool of 15 threads in each of
// its 6 dumps (counted from the file: 15 distinct ExecuteThread names of
// that queue per dump).
func TestWebLogicQueuePool(t *testing.T) {
	r := Analyze(corpusInputs(t, corpusJVM+"samurai__sun-hotspot-1.4.2_05__weblogic-admin-multiple-dumps.dmp"), Options{})
	for _, p := range r.Pools {
		if p.Name == "ExecuteThread: '*' for queue: 'weblogic.kernel.Default'" {
			for m, n := range p.Counts {
				if n != 15 {
					t.Errorf("moment %d: %d threads, want 15", m, n)
				}
			}
			return
		}
	}
	t.Errorf("no pool for the Default queue: %d pools", len(r.Pools))
}

// poolConvention is a naming convention of a real thread factory, seen in
// a real dump of the corpus: the threads whose name matches threads are
// one pool, named pool, of at least min threads at some moment.
type poolConvention struct {
	file, threads, pool string
	min                 int
}

// The naming conventions of real dumps (../shared/corpus/jvm, SOURCES.md
// says where each came from), each its own pool, and the ones that must
// stay apart (two connectors, two Hazelcast members, two executors).
func TestPoolNameConventions(t *testing.T) {
	const (
		sap     = "threadlogic__sapjvm-2008__stdout-log-with-2-dumps.log"            // SAP NetWeaver
		jenkins = "dumpling__hotspot-24.51-b03-jdk7u51__143-threads.log"             // Jenkins on JBoss
		gf      = "tda__hotspot-11.0-b15__visualvm-format-crlf.log"                  // GlassFish
		jboss   = "famaridon__hotspot-21.1-b02-jdk7__156-threads.log"                // JBoss 5
		hpux    = "tda__hpux-hotspot-1.5.0.11-ia64__1148-threads-korean-date.log"    // an HP-UX middleware
		wls     = "samurai__sun-hotspot-1.4.2_05__weblogic-admin-multiple-dumps.dmp" // WebLogic 8
		wls9    = "samurai__hotspot-1.5.0_03__weblogic9-deadlock.dmp"                // WebLogic 9
		hz      = "sjk__hotspot-8u144-windows__hazelcast-160-threads.txt"            // Hazelcast, 4 members
		rmi     = "tda__hotspot-1.6.0_03-server__rmi-threads.log"                    // Heritrix
		cat     = "dumpdiff-gen__openjdk-17.0.15__catalina-out-log-with-3-sigquit-dumps.log"
		wlsHP   = "samurai__hpux-hotspot__multiple-dumps.dmp"
		jenk2   = "dumpling__hotspot-24.65-b04__rwlock-parking-deadlock.log"
	)
	for _, tt := range []poolConvention{
		{sap, `^System \[[0-9]+\]$`, "System [*]", 20},
		{sap, `^Application \[[0-9]+\]$`, "Application [*]", 15},
		{sap, `^HTTP Worker \[[0-9]+\]$`, "HTTP Worker [*]", 7},
		{sap, `^JCO\.ServerThread-[0-9]+$`, "JCO.ServerThread-*", 17},
		{sap, `^Managed_Application_Thread_[0-9]+$`, "Managed_Application_Thread_*", 6},
		{sap, `^ThreadPool\.Worker[0-9]+$`, "ThreadPool.Worker*", 3},
		{sap, `^UWL Pooled Thread:[0-9]+$`, "UWL Pooled Thread:*", 5},
		{sap, `^RMI/IIOP Worker \[[0-9]+\]$`, "RMI/IIOP Worker [*]", 5},
		{sap, `^PRT-Async [0-9]+$`, "PRT-Async *", 4},
		{jenkins, `^ajp-/127\.0\.0\.1:8009-[0-9]+$`, "ajp-/127.0.0.1:8009-*", 30},
		{jenkins, `^MSC service thread 1-[0-9]+$`, "MSC service thread 1-*", 16},
		{jenkins, `^Jenkins-cron-thread-[0-9]+$`, "Jenkins-cron-thread-*", 10},
		{jenkins, `^Executor #[0-9]+ for jenkins_slave_[0-9]+$`, "Executor #* for jenkins_slave_*", 4},
		{jenkins, `^pool-10-listenerThread-[0-9]+$`, "pool-10-listenerThread-*", 2},
		// Four executors of Jenkins, three of one thread (two scheduled, one
		// on a LinkedBlockingQueue) and one of three: four pools, not one
		// pool-*-thread-* (PoolIDLeak).
		{jenkins, `^pool-6-thread-[0-9]+$`, "pool-6-thread-*", 1},
		{jenkins, `^pool-11-thread-[0-9]+$`, "pool-11-thread-*", 1},
		{jenkins, `^pool-16-thread-[0-9]+$`, "pool-16-thread-*", 1},
		{jenkins, `^pool-43-thread-[0-9]+$`, "pool-43-thread-*", 3},
		{jenk2, `^jenkins\.util\.Timer \[#[0-9]+\]$`, "jenkins.util.Timer [#*]", 10},
		{gf, `^httpWorkerThread-4848-[0-9]+$`, "httpWorkerThread-4848-*", 20},
		{gf, `^httpSSLWorkerThread-8181-[0-9]+$`, "httpSSLWorkerThread-8181-*", 20}, // two connectors
		{gf, `^httpSSLWorkerThread-8080-[0-9]+$`, "httpSSLWorkerThread-8080-*", 20}, // stay apart
		{gf, `^RMI TCP Connection\([0-9]+\)-192\.18\.126\.[0-9]+$`, "RMI TCP Connection(*)-192.18.126.*", 3},
		{jboss, `^RunnableThread:[0-9]+$`, "RunnableThread:*", 50},
		{jboss, `^ajp-0\.0\.0\.0-8009-[0-9]+$`, "ajp-0.0.0.0-8009-*", 13},
		{jboss, `^RequestController-[0-9]+$`, "RequestController-*", 7},
		{jboss, `^TriggerPoolThread-[0-9]+$`, "TriggerPoolThread-*", 4},
		{hpux, `^\[__DEFAULT_SERVICE_GROUP__\]listener pool-2-thread-[0-9]+$`, "[__DEFAULT_SERVICE_GROUP__]listener pool-2-thread-*", 50},
		{hpux, `^ACJH_SOPSI_BAN_01-w[0-9]+ \[container1-[0-9]+\]$`, "ACJH_SOPSI_BAN_01-w* [container1-*]", 12},
		{hpux, `^Job_Executor[0-9]+$`, "Job_Executor*", 15},
		{hpux, `^JMXMP-[0-9]+$`, "JMXMP-*", 10},
		{hpux, `^event handler worker-thread-[0-9]+$`, "event handler worker-thread-*", 5},
		{wls, `^ExecuteThread: '[0-9]+' for queue: 'weblogic\.kernel\.Default'$`, "ExecuteThread: '*' for queue: 'weblogic.kernel.Default'", 15},
		{wls, `^ExecuteThread: '[0-9]+' for queue: 'weblogic\.kernel\.System'$`, "ExecuteThread: '*' for queue: 'weblogic.kernel.System'", 5},
		{wls9, `^\[(ACTIVE|STANDBY)\] ExecuteThread: '[0-9]+' for queue: 'weblogic\.kernel\.Default \(self-tuning\)'$`,
			"ExecuteThread: '*' for queue: 'weblogic.kernel.Default (self-tuning)'", 5},
		{wlsHP, `^ExecuteThread: '[0-9]+' for queue: 'default'$`, "ExecuteThread: '*' for queue: 'default'", 10},
		{hz, `^hz\._hzInstance_1_dev\.cached\.thread-[0-9]+$`, "hz._hzInstance_1_dev.cached.thread-*", 6}, // four members
		{hz, `^hz\._hzInstance_2_dev\.cached\.thread-[0-9]+$`, "hz._hzInstance_2_dev.cached.thread-*", 6}, // stay apart
		// One priority thread a member: four pools, each member's own.
		{hz, `^hz\._hzInstance_1_dev\.priority-generic-operation\.thread-[0-9]+$`, "hz._hzInstance_1_dev.priority-generic-operation.thread-*", 1},
		{hz, `^hz\._hzInstance_4_dev\.priority-generic-operation\.thread-[0-9]+$`, "hz._hzInstance_4_dev.priority-generic-operation.thread-*", 1},
		{rmi, `^ToeThread #[0-9]+: .+`, "ToeThread #*: *", 30},
		{cat, `^http-nio-8080-exec-[0-9]+$`, "http-nio-8080-exec-*", 1},
	} {
		t.Run(tt.pool, func(t *testing.T) {
			in := corpusInputs(t, corpusJVM+tt.file)
			opt := Options{}
			opt.jvmPools = learnJVMPools(in)
			re := regexp.MustCompile(tt.threads)
			most := 0
			for _, x := range in {
				n := 0
				for _, th := range x.Dump.Threads {
					if !re.MatchString(th.Name()) {
						continue
					}
					if p, _ := poolName(parse.RuntimeJVM, th, opt); p != tt.pool {
						t.Fatalf("%q is in pool %q, want %q", th.Name(), p, tt.pool)
					}
					n++
				}
				most = max(most, n)
			}
			if most < tt.min {
				t.Errorf("at most %d threads of the convention in a moment, want at least %d", most, tt.min)
			}
		})
	}
}

// An IBM J2RE 1.4.2 javacore prints a monitor's owner and its waiters
// only in its LOCKS section (parse.javacoreScan.mergeMonitors): the
// WebLogic server of samurai's test resources, a "GenericServerHang"
// servlet whose 13 request threads wait to enter the class monitor of
// Lazybones.getName while ExecuteThread '6' sleeps inside it (the
// answer read from the dump's LOCKS section and stacks before dumpdiff
// ran: contention on that monitor, held by '6', asleep, 13 waiting).
// It was "no findings" while the section was read only where a javacore
// had no thread records.
func TestClassicJavacoreMonitorHolder(t *testing.T) {
	r := Analyze(corpusInputs(t, corpusJVM+"samurai__ibm-classic-1.4.2-win32__javacore.txt"), Options{})
	for _, f := range r.Findings {
		if f.Kind == KindContention && f.Severity >= Warning {
			if f.Lock == nil || f.Lock.Owner == nil || f.Lock.Owner.Name != "ExecuteThread: '6' for queue: 'weblogic.kernel.Default'" {
				t.Fatalf("contention without the sleeping holder: %+v", f.Lock)
			}
			if f.Counts[0] != 13 || f.Lock.Owner.State != "sleep" {
				t.Errorf("contention: %d waiting, holder %q; want 13 waiting on a sleeping holder", f.Counts[0], f.Lock.Owner.State)
			}
			return
		}
	}
	t.Errorf("no contention finding: %v", r.Findings)
}

// TestRequestRenamedWorkersProperty: a worker renamed after the request it
// runs ("dw-2113 - GET /orders/7", Dropwizard's ThreadNameFilter) is in
// the pool of its own name, whatever the method, path and counter; a name
// whose " - " is not followed by a request keeps it.
func TestRequestRenamedWorkersProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	bases := []string{"dw-", "dw-admin-", "qtp1740035246-", "http-nio-8080-exec-", "worker-"}
	paths := []string{"/", "/orders/7", "/api/v1/items?id=3", "/health check", "http://10.0.0.1/x"}
	for trial := 0; trial < 300; trial++ {
		base := bases[rng.Intn(len(bases))]
		n := 2 + rng.Intn(20)
		var names []string
		renamed := map[string]string{} // renamed name → its plain name
		for i := 0; i < n; i++ {
			plain := fmt.Sprintf("%s%d", base, 1+rng.Intn(5000))
			if rng.Intn(2) == 0 {
				r := plain + " - " + httpMethods[rng.Intn(len(httpMethods))] + " " + paths[rng.Intn(len(paths))]
				renamed[r] = plain
				names = append(names, r)
			} else {
				names = append(names, plain)
			}
		}
		got := learnJVMPools([]Input{namesInput(names...)})
		for r, plain := range renamed {
			if got[r] != base+"*" {
				t.Fatalf("trial %d: %q (of %q) in pool %q, want %q; names %q", trial, r, plain, got[r], base+"*", names)
			}
		}
	}
	for _, name := range []string{"Camel (camel-1) thread #3 - timer://foo", "batch - GETTER /x", "job - get /x", "- GET /x", "dw-1 - GET"} {
		if k := requestSuffix(name); k != 0 {
			t.Errorf("%q: request suffix at %d, want none", name, k)
		}
	}
}
