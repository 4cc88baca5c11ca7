package analyze

import (
	"os"
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
	const path = "../../shared/corpus/jvm/samurai__sun-hotspot-1.4.2_05__weblogic-admin-multiple-dumps.dmp"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("corpus not here (%v): run with ../shared beside the repository", err)
	}
	ds, err := parse.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var in []Input
	for _, d := range ds {
		in = append(in, Input{Dump: d})
	}
	r := Analyze(in, Options{})
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
