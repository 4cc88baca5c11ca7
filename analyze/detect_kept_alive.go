package analyze

import (
	"sort"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

var keptAliveDetector = &Detector{
	Name:  KindKeptAlive,
	Kinds: []string{KindKeptAlive},
	Doc: "a JVM that cannot exit: main has returned (DestroyJavaVM waits, no main thread) while non-daemon application threads, " +
		"every one at rest in its pool, stay alive, some waiting untimed for what nothing left can give (a leaked executor's idle workers, " +
		"a timer with nothing scheduled, a consumer whose producer is gone); threads built to run forever are up by design: a process that " +
		"serves (an acceptor, a selector, a server connection), a scheduled executor with a task queued (its leader's timed wait), " +
		"any thread still running application code that could submit, put or notify (a producer between its puts); " +
		"where a scheduled task is all that keeps the JVM up (every keeper in a pool with a task due) and no dump shows it run " +
		"(its threads' cpu= did not grow), said at info: kept up by a scheduled task, up by design or a program that should have ended; " +
		"on one dump, where the dump prints the daemon flag",
	Folds: "nothing",
	Run:   runKeptAlive,
}

func runKeptAlive(p *Pass) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeJVM {
		return nil
	}
	var f, up *Finding
	cpu := map[string]time.Duration{} // the scheduled keepers' cpu= at the first moment that shows them
	ran := false                      // a scheduled keeper's cpu= grew since: its task ran
	for m, mo := range r.Moments {
		groups, keepers, n, leak := keptAliveAt(p, m, mo.Dump)
		if n == 0 {
			continue
		}
		if !leak {
			// Kept up by a scheduled task: said at Info, of the last
			// moment that shows it, and only where no moment shows a leak.
			first := up == nil
			up = keptAliveFinding(p, up, Info, m, groups, keepers, n)
			up.Basis = "scheduled"
			for _, t := range keepers {
				if c, ok := cpu[t.Name()]; first {
					cpu[t.Name()] = t.Java().CPU
				} else if ok && t.Java().CPU > c {
					ran = true
				}
			}
			continue
		}
		f = keptAliveFinding(p, f, Warning, m, groups, keepers, n)
	}
	switch {
	case f != nil:
		return []Finding{*f}
	case up != nil && !ran:
		// A scheduled task seen running between the dumps (its thread's
		// CPU grew) is what a program built to run a scheduled job does:
		// no line (testdata/verdicts/keptalive-scheduled, -timer). One
		// dump, or dumps without cpu=, cannot tell it from a program that
		// should have ended: the line says both.
		return []Finding{*up}
	}
	return nil
}

// keptAliveFinding adds moment m's keepers to f (made at sev when nil).
func keptAliveFinding(p *Pass, f *Finding, sev Severity, m int, groups []HolderGroup, keepers []*parse.Thread, n int) *Finding {
	r := p.R
	if f == nil {
		// Not FromStart: a process kept alive is so whatever came
		// before; there is no load to tell it from.
		f = &Finding{ID: KindKeptAlive, Kind: KindKeptAlive, Severity: sev, Counts: make([]int, len(r.Moments)), Since: m}
	}
	f.Counts[m] = n
	f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: n, Threads: names(r.Runtime, keepers[:min(len(keepers), 5)])})
	f.At, f.Holders = m, groups
	f.Pool, f.State, f.Culprit = groups[0].Pool, groups[0].State, groups[0].Culprit
	if s := p.signatureByID(r.Runtime, f.State); s != nil {
		f.Resource = s.Resource
	}
	return f
}

// keptAliveAt groups the non-daemon application threads of moment m that
// keep the JVM alive, largest group first, lists and counts them, and
// tells a leak (some keeper waits untimed for what nothing left can give)
// from a JVM kept up by a scheduled task (every keeper is in a pool with a
// task due: a scheduled executor's leader in its timed wait, a Timer's
// thread; what a program built to run forever looks like too, and what a
// program that should have ended looks like when a library scheduled a
// task on a non-daemon executor: the detector says it at Info); 0 when the
// moment does not show a JVM kept alive: main still runs, a GUI's event
// thread runs, DestroyJavaVM
// is absent (a dump of a JVM that was never asked to exit, or a format
// without it), the daemon flag is not printed (no thread is a daemon,
// which no real JVM is without), a thread serves, or a non-daemon thread
// is working or blocked (then it may end, and other detectors speak).
func keptAliveAt(p *Pass, m int, d *parse.Dump) (groups []HolderGroup, keepers []*parse.Thread, n int, leak bool) {
	if d == nil || hookRunner(d) != nil {
		// A JVM running its shutdown hooks exits when they end, whatever
		// its non-daemon threads do: a hook that waits for good is the
		// story (no_peer.go's hook waits), not the threads it waits for.
		return nil, nil, 0, false
	}
	roles := p.opt.roleTable()
	destroy, daemons := false, false
	for _, t := range d.Threads {
		switch t.Name() {
		case "main":
			return nil, nil, 0, false
		case "DestroyJavaVM":
			destroy = true
		}
		// A GUI's event thread keeps it up by design, until its window
		// closes (a Swing tool whose main returned): Roles.UpByDesign.
		if nameIn(t.Name(), roles.UpByDesign) && !t.Java().Daemon {
			return nil, nil, 0, false
		}
		daemons = daemons || t.Java().Daemon
	}
	if !destroy || !daemons {
		return nil, nil, 0, false
	}
	type key struct{ pool, state, culprit, rest string }
	counts := map[key]int{}
	// working: pools with a thread in a timed rest (a scheduled executor's
	// leader waiting for its queued task's next run, a Timer with a task
	// due): they wake on their own and run, by design.
	working := map[string]bool{}
	scheduled := map[string]bool{} // of working: a scheduled executor's or a Timer's, with a task due
	leaked := 0                    // keepers that wait, untimed, for what nothing left can give
	feeders := false
	for _, t := range d.Threads {
		si := p.info(m, t)
		if si.sig != nil && si.sig.Serves {
			return nil, nil, 0, false
		}
		if jvmInternal(t, roles.JVMInternal) {
			continue
		}
		feeders = feeders || canFeed(t)
		if t.Java().Daemon {
			continue
		}
		if si.sig == nil || !(si.sig.Category == Idle || si.sig.Rest) {
			return nil, nil, 0, false
		}
		if timedRest(t) {
			working[si.pool] = true
			if anyFramePrefix(t, scheduledRests) {
				scheduled[si.pool] = true
			}
		}
		counts[key{si.pool, si.state, si.culprit, restLoop(t, si.state)}] += max(t.Weight, 1)
		keepers = append(keepers, t)
		n += max(t.Weight, 1)
	}
	// What the JVM is kept alive by is a leak only where a keeper waits
	// untimed in a pool with no timed member (a leaked executor's idle
	// workers, a timer with nothing scheduled, a consumer or a monitor's
	// waiter) and no thread left runs application code that could submit,
	// put or notify (a producer between its puts, a sender sleeping between
	// signals): a program built to run forever has such a thread, or a
	// scheduled task queued, at every moment (testdata/verdicts/keptalive-*).
	if feeders {
		return nil, nil, 0, false
	}
	for _, t := range keepers {
		if !timedRest(t) && !working[p.info(m, t).pool] {
			leaked += max(t.Weight, 1)
		}
	}
	if n == 0 {
		return nil, nil, 0, false
	}
	if leaked == 0 {
		// Not a leak: kept up by a scheduled task only where every keeper
		// is in a pool with a task due; a cached pool's idle worker in its
		// timed poll ends itself (its keep-alive time), which is no line.
		for _, t := range keepers {
			if !scheduled[p.info(m, t).pool] {
				return nil, nil, 0, false
			}
		}
	}
	var gs []HolderGroup
	for k, c := range counts {
		gs = append(gs, HolderGroup{Pool: k.pool, State: k.state, Culprit: k.culprit, Count: c, Rest: k.rest})
	}
	sort.Slice(gs, func(i, j int) bool {
		if gs[i].Count != gs[j].Count {
			return gs[i].Count > gs[j].Count
		}
		return gs[i].Pool < gs[j].Pool
	})
	return gs, keepers, n, leaked > 0
}

// scheduledRests are the frames of a thread that waits, timed, for a task
// due on its own schedule (its leader's wait in a scheduled executor's
// delay queue; a java.util.Timer's thread for its next task): a JVM such
// threads keep up is kept up by a scheduled task.
// Not a [roles] key: the JDK's own scheduled executor and Timer, a JDK
// fact.
var scheduledRests = []string{
	"java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.take",
	"java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.poll",
	"java.util.TimerThread.mainLoop",
}

// timedRest: t rests with a deadline (TIMED_WAITING; where no state is
// printed, a timed park on its stack): it wakes on its own, as a scheduled
// executor's leader does for its queued task, a Timer for its next task and
// a cached pool's idle worker to end itself.
func timedRest(t *parse.Thread) bool {
	if t.State != "" {
		return t.State == "TIMED_WAITING"
	}
	return anyFramePrefix(t, []string{"java.util.concurrent.locks.LockSupport.parkNanos"})
}

// canFeed: t can still act on another thread's wait: it is not in an
// untimed wait itself (it runs, sleeps, waits with a deadline or for a
// lock it will get) and runs application code (a frame outside the JDK
// and the known frameworks): a producer between its puts, a sender between
// its signals, a coordinator between its rounds. A library's own thread
// (a pool's housekeeper) feeds none of the application's waits.
func canFeed(t *parse.Thread) bool {
	if t.State == "WAITING" || t.State == "" && !timedRest(t) {
		return false
	}
	for _, f := range t.Frames {
		if !anyPrefix(f.Func, jdkPackages) && isAppFrame(parse.RuntimeJVM, f) {
			return true
		}
	}
	return false
}
