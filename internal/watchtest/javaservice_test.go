package watchtest

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// reqExec counts the service's req-exec threads in one jcmd Thread.print:
// all of them, those in a socket read and those idle in the pool's queue.
type reqExec struct{ threads, reading, idle int }

// countReqExec reads a Thread.print text, where each thread is a block
// that starts with its quoted name and ends at a blank line:
//
//	"req-exec-3" #14 daemon prio=5 os_prio=0 cpu=4.10ms elapsed=1.52s tid=0x... nid=0x5c4 runnable  [0x...]
//	   java.lang.Thread.State: RUNNABLE
//		at sun.nio.ch.SocketDispatcher.read0(java.base@17.0.13/Native Method)
func countReqExec(dump string) reqExec {
	var c reqExec
	for _, block := range strings.Split(dump, "\n\n") {
		block = strings.TrimLeft(block, "\n")
		if !strings.HasPrefix(block, `"req-exec-`) {
			continue
		}
		c.threads++
		switch {
		case strings.Contains(block, "sun.nio.ch.SocketDispatcher.read0") || strings.Contains(block, "java.net.SocketInputStream.socketRead0"):
			c.reading++
		case strings.Contains(block, "java.util.concurrent.LinkedBlockingQueue.take"):
			c.idle++
		}
	}
	return c
}

func TestJavaServicePhases(t *testing.T) {
	jcmd, err := exec.LookPath("jcmd")
	if err != nil {
		t.Skip("jcmd not on PATH: this is tested against a real JVM only")
	}
	start := time.Now()
	s := StartJavaService(t)
	t.Logf("compiled and ready in %v", time.Since(start).Round(time.Millisecond))
	phase := func(name string) {
		t.Helper()
		start := time.Now()
		s.Phase(t, name)
		t.Logf("phase %s in effect after %v", name, time.Since(start).Round(time.Millisecond))
	}
	dump := func(when string) reqExec {
		t.Helper()
		out, err := exec.Command(jcmd, strconv.Itoa(s.PID()), "Thread.print").CombinedOutput()
		if err != nil {
			t.Fatalf("%s: jcmd Thread.print: %v\n%s", when, err, out)
		}
		c := countReqExec(string(out))
		t.Logf("%s: %+v", when, c)
		if c.threads != 16 {
			t.Fatalf("%s: %d req-exec threads, want the pool's 16", when, c.threads)
		}
		return c
	}
	// Healthy: a job holds a thread for the upstream's 5 ms, one every 50
	// ms, so a dump catches none or one or two in the read; fewer than 5
	// (dumpdiff's MinRise) is what "no rise" needs. On a loaded machine
	// (the JVM starved of CPU for a moment) a few jobs may catch up at once
	// and one dump sees five of them reading: a pool that keeps up is seen
	// so in one of a few dumps, an exhausted one in none. The dumps are the
	// test's events, not a wait on the clock.
	const healthyDumps = 5
	healthy := func(when string) {
		t.Helper()
		var seen []reqExec
		for i := 0; i < healthyDumps; i++ {
			c := dump(when)
			if c.reading < 5 && c.idle >= 12 {
				return
			}
			seen = append(seen, c)
		}
		t.Errorf("%s: no healthy dump of %d: %+v; want one with at most 4 req-exec threads reading and at least 12 idle in the queue", when, healthyDumps, seen)
	}

	healthy("started")
	phase("exhaust")
	if c := dump("exhaust"); c.reading != 16 {
		t.Errorf("exhaust: %d of 16 req-exec threads in a socket read, want all", c.reading)
	}
	phase("recover")
	healthy("recover")
	// A second incident on the same JVM: the phases are the test's, not the
	// clock's.
	phase("exhaust")
	if c := dump("exhaust again"); c.reading != 16 {
		t.Errorf("exhaust again: %d of 16 req-exec threads in a socket read, want all", c.reading)
	}
	phase("healthy")
	healthy("healthy")
}
