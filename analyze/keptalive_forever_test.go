package analyze

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestKeptAliveForeverFixtures (issue 33, kept-alive's false alarm): real
// Java 17 and Temurin 25 programs whose main returned (testdata/gen/
// verdicts-keptalive; each README.md written from the source before
// dumpdiff ran). A leaked executor keeps the JVM up; threads built to run
// forever (a producer and its consumer, over a queue or a monitor, a
// scheduled executor or a Timer with a periodic task) do not make a
// finding.
func TestKeptAliveForeverFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	all := []string{"1", "2", "3"}
	leaked := func(n int) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "holders", len(f.Holders), 1)
			eq(t, "rest", f.Holders[0].Rest, "executor")
			eq(t, "threads", f.Counts[len(f.Counts)-1], n)
		}
	}
	// scheduled: kept up by a scheduled task, said at Info (Basis
	// "scheduled"), never a warning.
	scheduled := func(n int) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "severity", f.Severity, Info)
			eq(t, "basis", f.Basis, "scheduled")
			eq(t, "threads", f.Counts[len(f.Counts)-1], n)
		}
	}
	var tests []fixtureCase
	for _, p := range []string{"", "jdk25-"} {
		for _, cut := range [][]string{all, {"1"}, {"3"}} {
			// A scheduled job seen running between the dumps (its
			// threads' cpu= grew) is quiet; one dump cannot tell it from
			// a program that should have ended: the Info line.
			var sched, timer []want
			if len(cut) == 1 {
				sched = []want{{KindKeptAlive, "pool-1-thread-*", "pool-idle", nil}}
				timer = []want{{KindKeptAlive, "ticker", "pool-idle", nil}}
			}
			tests = append(tests,
				fixtureCase{p + "keptalive-leaked", cut, []want{{KindKeptAlive, "pool-1-thread-*", "pool-idle", leaked(4)}}},
				fixtureCase{p + "keptalive-prodcons", cut, nil},
				fixtureCase{p + "keptalive-waitnotify", cut, nil},
				fixtureCase{p + "keptalive-scheduled", cut, sched},
				fixtureCase{p + "keptalive-timer", cut, timer},
				// main returned, a client's scheduled pool never closed, its
				// task not due between the dumps: the Info line at every cut.
				fixtureCase{p + "keptalive-heartbeat", cut, []want{{KindKeptAlive, "pool-1-thread-*", "pool-idle", scheduled(4)}}})
		}
	}
	runFixtureCases(t, dir, tests)
	// Every one-dump cut of the scheduled controls says it at Info only.
	for _, name := range []string{"keptalive-scheduled", "keptalive-timer", "jdk25-keptalive-scheduled", "jdk25-keptalive-timer"} {
		r := Analyze(loadMoments(t, filepath.Join(dir, name), []string{"2"}), Options{})
		for _, f := range r.Findings {
			if f.Severity > Info {
				t.Errorf("%s/2: %s %s at %v, want nothing above info", name, f.Kind, f.Pool, f.Severity)
			}
		}
	}
}

// keptAliveBase is a jstack dump of a JVM whose main returned, with the
// JVM's own threads and DestroyJavaVM and none of the program's: the
// leaked fixture's first dump without its pool-1 workers.
func keptAliveBase(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "verdicts", "keptalive-leaked", "1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, block := range strings.Split(string(b), "\n\n") {
		if strings.HasPrefix(block, "\"pool-1-thread-") {
			continue
		}
		out = append(out, block)
	}
	return strings.Join(out, "\n\n")
}

// genThread is one generated thread of the program, as jstack prints it.
type genThread struct {
	name, state, lock string
	daemon            bool
	frames            []string
}

func (g genThread) text(id int) string {
	d := ""
	if g.daemon {
		d = " daemon"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%q #%d%s prio=5 os_prio=0 cpu=0.50ms elapsed=9.00s tid=0x00007f00000%05x nid=0x%x waiting on condition  [0x00007f0000000000]\n", g.name, 100+id, d, id, 0x9000+id)
	fmt.Fprintf(&b, "   java.lang.Thread.State: %s\n", g.state)
	for i, f := range g.frames {
		fmt.Fprintf(&b, "\tat %s\n", f)
		if i == 0 && g.lock != "" {
			fmt.Fprintf(&b, "\t- %s\n", g.lock)
		}
	}
	b.WriteString("\n   Locked ownable synchronizers:\n\t- None\n")
	return b.String()
}

var (
	genIdleWorker = []string{"jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)",
		"java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)",
		"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(java.base@17.0.15/AbstractQueuedSynchronizer.java:1623)",
		"java.util.concurrent.LinkedBlockingQueue.take(java.base@17.0.15/LinkedBlockingQueue.java:435)",
		"java.util.concurrent.ThreadPoolExecutor.getTask(java.base@17.0.15/ThreadPoolExecutor.java:1062)",
		"java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1122)",
		"java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)",
		"java.lang.Thread.run(java.base@17.0.15/Thread.java:833)"}
	genSchedLeader = []string{"jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)",
		"java.util.concurrent.locks.LockSupport.parkNanos(java.base@17.0.15/LockSupport.java:252)",
		"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.awaitNanos(java.base@17.0.15/AbstractQueuedSynchronizer.java:1672)",
		"java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.take(java.base@17.0.15/ScheduledThreadPoolExecutor.java:1182)",
		"java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.take(java.base@17.0.15/ScheduledThreadPoolExecutor.java:899)",
		"java.util.concurrent.ThreadPoolExecutor.getTask(java.base@17.0.15/ThreadPoolExecutor.java:1062)",
		"java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1122)",
		"java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)",
		"java.lang.Thread.run(java.base@17.0.15/Thread.java:833)"}
	genSchedFollower = append([]string{genSchedLeader[0], "java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)",
		"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await(java.base@17.0.15/AbstractQueuedSynchronizer.java:1623)",
		"java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.take(java.base@17.0.15/ScheduledThreadPoolExecutor.java:1177)"},
		genSchedLeader[4:]...)
	genAppSleeper = []string{"java.lang.Thread.sleep(java.base@17.0.15/Native Method)",
		"com.example.gen.Producer.loop(Producer.java:41)", "com.example.gen.Producer.run(Producer.java:20)",
		"java.lang.Thread.run(java.base@17.0.15/Thread.java:833)"}
	genAppWaiter = []string{"java.lang.Object.wait(java.base@17.0.15/Native Method)",
		"java.lang.Object.wait(java.base@17.0.15/Object.java:338)", "com.example.gen.Mailbox.take(Mailbox.java:17)",
		"com.example.gen.Consumer.run(Consumer.java:12)", "java.lang.Thread.run(java.base@17.0.15/Thread.java:833)"}
)

// TestKeptAliveByStructure (generated): programs whose main returned, made
// of pools and threads drawn at random over the real JVM threads of a
// leaked-executor dump. kept-alive is said exactly when no thread left runs
// application code that could feed a wait (an application thread that is
// not in an untimed wait) and some non-daemon thread waits untimed in a
// pool with no timed member (idle workers of a plain executor, a consumer
// on a monitor); a scheduled executor's timed leader and its followers are
// at work by design, and where they are all that keeps the JVM up, one
// dump says so at Info ("kept up by a scheduled task", Basis "scheduled").
func TestKeptAliveByStructure(t *testing.T) {
	base := keptAliveBase(t)
	rng := rand.New(rand.NewSource(33))
	said, up, quiet := 0, 0, 0
	for i := range 400 {
		var ts []genThread
		feeder, leak, scheduledPool := false, false, false
		for k := range 1 + rng.Intn(4) {
			pool := []string{"alpha", "beta", "gamma", "delta"}[k] + "-worker"
			switch rng.Intn(5) {
			case 0: // a plain executor's idle workers: leaked
				for w := range 1 + rng.Intn(3) {
					ts = append(ts, genThread{name: fmt.Sprintf("%s-%d", pool, w+1), state: "WAITING (parking)", frames: genIdleWorker,
						lock: "parking to wait for  <0x00000000fff0000" + fmt.Sprint(k) + "> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)"})
				}
				leak = true
			case 1: // a scheduled executor with a task queued: at work
				ts = append(ts, genThread{name: pool + "-1", state: "TIMED_WAITING (parking)", frames: genSchedLeader})
				scheduledPool = true
				for w := range rng.Intn(3) {
					ts = append(ts, genThread{name: fmt.Sprintf("%s-%d", pool, w+2), state: "WAITING (parking)", frames: genSchedFollower})
				}
			case 2: // an application thread between its puts: a feeder
				daemon := rng.Intn(2) == 0
				ts = append(ts, genThread{name: fmt.Sprintf("producer-%d", k), state: "TIMED_WAITING (sleeping)", daemon: daemon, frames: genAppSleeper})
				feeder = true
			case 3: // a consumer on a monitor nothing notifies
				daemon := rng.Intn(2) == 0
				ts = append(ts, genThread{name: fmt.Sprintf("consumer-%d", k), state: "WAITING (on object monitor)", daemon: daemon, frames: genAppWaiter,
					lock: "waiting on <0x00000000ffe0000" + fmt.Sprint(k) + "> (a com.example.gen.Mailbox)"})
				leak = leak || !daemon
			case 4: // a scheduled pool with nothing scheduled: leaked
				for w := range 1 + rng.Intn(2) {
					ts = append(ts, genThread{name: fmt.Sprintf("%s-%d", pool, w+1), state: "WAITING (parking)", frames: genSchedFollower})
				}
				leak = true
			}
		}
		// The program's threads go before DestroyJavaVM, where jstack
		// prints them (the dump's trailer ends it).
		var gen strings.Builder
		for j, th := range ts {
			gen.WriteString(th.text(j))
			gen.WriteString("\n")
		}
		var b strings.Builder
		b.WriteString(strings.Replace(base, "\"DestroyJavaVM\"", gen.String()+"\"DestroyJavaVM\"", 1))
		ds, err := parse.Parse("gen.txt", strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]Input{{Label: "1", Dump: ds[0]}}, Options{})
		got, gotUp := false, false
		for _, f := range r.Findings {
			got = got || f.Kind == KindKeptAlive && f.Severity == Warning
			gotUp = gotUp || f.Kind == KindKeptAlive && f.Severity == Info && f.Basis == "scheduled"
		}
		want := leak && !feeder
		// Kept up by a scheduled task: no leak, no feeder, and a
		// scheduled pool with its task due among the non-daemon threads
		// (the only non-daemon application threads left then).
		wantUp := !want && !feeder && scheduledPool
		if got != want || gotUp != wantUp {
			var names []string
			for _, th := range ts {
				names = append(names, th.name+"/"+th.state)
			}
			t.Fatalf("case %d: kept-alive %v, want %v; scheduled %v, want %v: %v", i, got, want, gotUp, wantUp, names)
		}
		switch {
		case want:
			said++
		case wantUp:
			up++
		default:
			quiet++
		}
	}
	if said < 50 || quiet < 50 || up < 20 {
		t.Fatalf("the draw is lopsided: %d said, %d kept up by a scheduled task, %d quiet", said, up, quiet)
	}
	t.Logf("%d kept alive, %d kept up by a scheduled task, %d quiet", said, up, quiet)
}
