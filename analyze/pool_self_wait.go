package analyze

import (
	"maps"
	"slices"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A pool that waits on its own queued work (issue 33, "cycles of every
// kind"): a task of an executor submits work to the same executor and
// waits for it (Future.get, CompletableFuture.join, a latch its parts count
// down) while every worker of that executor does the same. The parts sit
// in the executor's queue behind the tasks that wait for them: a cycle
// through the queue, which no lock line prints. A single-thread executor
// is the smallest case (one task, its own second half queued behind it).
//
// By structure, at every moment from the first it is seen to the last,
// two or more:
//   - every thread of the pool (all it has; no idle worker) runs a task
//     (taskFrames below its top) and waits for a task's result
//     (selfWaitStates), the very same threads at each of those moments;
//   - no thread outside the pool runs a task or work that could complete
//     those futures: another pool's busy task (the futures may be its
//     parts, as a request pool waits for a fetch pool), or any thread on
//     CPU or in I/O outside the JVM's own (a client that completes a
//     CompletableFuture with its reply). A FutureTask is completed by
//     its runner alone: when every waiter parks on one, only a thread
//     outside the pool that runs a FutureTask (FutureTask.run, in any
//     state) stands in the way, and a thread reading a socket beside it
//     does not (pool-self-wait-busy-stuck).
//
// One dump cannot tell waiting from waiting forever: a pool that waits on
// its parts for a moment is a pool at work.

// selfWaitStates are the waits for another task's result or for peers a
// task's parts release.
// Not a [roles] key: state ids of the signature table, which a team's
// [signature] row names (id =).
var selfWaitStates = []string{"future-wait", "latch-wait"}

// poolSelfWaits finds the pools that wait on their own queued work, one
// finding a pool, basis "pool-self-wait".
func poolSelfWaits(p *Pass) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeJVM || len(r.Moments) == 0 {
		return nil
	}
	// waiting[pool][m] are the pool's threads at m when every one of them
	// waits so and nothing else could end their wait; nil otherwise.
	waiting := map[string][][]*parse.Thread{}
	for m, mo := range r.Moments {
		d := mo.Dump
		if d == nil {
			continue
		}
		byPool := map[string][]*parse.Thread{}
		spoiled := map[string]bool{} // a thread of the pool not so waiting
		busy := map[string]int{}     // threads per pool that could complete a future
		// runs are the busy threads that run a FutureTask: the only ones
		// that can complete one (pool-self-wait-busy-stuck: a thread in
		// a socket read beside a one-thread pool waiting on its own
		// FutureTask does not).
		runs := map[string]int{}
		taskOnly := map[string]bool{} // every waiter of the pool parks on a FutureTask
		for _, t := range d.Threads {
			if t.JVM == nil || jvmInternal(t, p.opt.roleTable().JVMInternal) {
				continue
			}
			si := p.info(m, t)
			byPool[si.pool] = append(byPool[si.pool], t)
			s := si.sig
			selfWait := s != nil && slices.Contains(selfWaitStates, s.ID) && inPoolTask(t)
			if !selfWait {
				spoiled[si.pool] = true
			}
			if selfWait {
				_, class := parkedOn(t)
				if _, seen := taskOnly[si.pool]; !seen {
					taskOnly[si.pool] = true
				}
				taskOnly[si.pool] = taskOnly[si.pool] && slices.Contains(taskFutures, class)
			}
			if selfWait {
				continue
			}
			if runsTask(t) {
				runs[si.pool]++ // whatever it does: a runner that sleeps still ends
			}
			if s == nil {
				continue
			}
			// Could it complete another's future? A busy task of a pool,
			// or a thread at work or in I/O.
			switch {
			case inPoolTask(t) && s.Category != Idle && !s.Rest:
				busy[si.pool]++
			case s.Category == Running || s.Category == Waiting && isIO(s.Resource):
				busy[si.pool]++
			}
		}
		totalBusy, totalRuns := 0, 0
		for _, n := range busy {
			totalBusy += n
		}
		for _, n := range runs {
			totalRuns += n
		}
		for pool, ts := range byPool {
			others := totalBusy - busy[pool]
			if taskOnly[pool] {
				others = totalRuns - runs[pool]
			}
			if spoiled[pool] || pool == "" || others > 0 {
				continue
			}
			// A pool the whole process shares (the ForkJoin common pool)
			// runs everybody's tasks: its workers all held is the pool
			// starved (common-pool-starved tells it), not a cycle through
			// its own queue.
			if poolIn(pool, p.opt.roleTable().CommonPools) {
				continue
			}
			// Its known maximum, confirmed by the loop its threads show
			// at this moment.
			if knownLimitOf(p.ext, pool, slices.Values(ts)).Max > len(ts) {
				continue // room to grow: a worker may still come for the queue
			}
			if waiting[pool] == nil {
				waiting[pool] = make([][]*parse.Thread, len(r.Moments))
			}
			waiting[pool][m] = ts
		}
	}
	var fs []Finding
	for _, pool := range slices.Sorted(maps.Keys(waiting)) {
		at := waiting[pool]
		// From the first moment it is seen to the last, with no gap, the
		// very same threads.
		since := slices.IndexFunc(at, func(ts []*parse.Thread) bool { return ts != nil })
		last := len(at) - 1
		// Two moments or more, the pool so at each from the first it is
		// seen: a fact (critical). One dump alone, the pool so in it: the
		// shape of a thread-starvation deadlock, said as likely (a
		// warning): one dump cannot tell a wait that lasts from one about
		// to end. Several dumps where only the last shows it are neither
		// (SelfWaitMoments).
		one := len(at) == 1
		if since < 0 || !one && last-since < SelfWaitMoments-1 {
			continue
		}
		same := true
		ids := identities(r.Runtime, at[since])
		for m := since; m <= last && same; m++ {
			same = at[m] != nil && len(at[m]) == len(at[since]) && sameIdentities(r.Runtime, at[m], ids)
		}
		if !same || ranBetweenAny(r.Runtime, at[since:last+1]) {
			continue
		}
		ts := at[last]
		// A peer that can still come: a thread not in an untimed wait that
		// runs the tasks' own class (a coordinator that arrives at the
		// barrier between its rounds, a producer that counts the latch down).
		// (A FutureTask has no such peer: only its runner completes it,
		// and no runner outside the pool was seen.)
		if d := r.Moments[last].Dump; d != nil && !taskWaits(ts) && signallerIn(d, ts[0], p.opt.roleTable().JVMInternal) {
			continue
		}
		// Tasks that meet at a latch, a barrier or a phaser wait for their
		// peers, not for a result they submitted: the parties the pool
		// cannot run at once are queued behind them, or one never came.
		basis := "pool-self-wait"
		if p.info(last, ts[0]).state == "latch-wait" {
			basis = "pool-barrier-wait"
			if one {
				continue // parties meet at a barrier in passing: one dump does not say a party never comes
			}
		}
		sev := Critical
		if one {
			sev = Warning
		}
		f := Finding{ID: findingID(KindDeadlock, basis, pool), Kind: KindDeadlock, Severity: sev, Basis: basis,
			Pool: pool, Counts: make([]int, len(r.Moments)), At: last, Since: since, FromStart: since == 0,
			Same: len(ts), Always: len(ts), Limit: Limit{Size: len(ts), Source: "observed"}, Waiting: len(ts)}
		states, culps := map[string]int{}, map[string]int{}
		for _, t := range ts {
			si := p.info(last, t)
			states[si.state]++
			if si.culprit != "" {
				culps[si.culprit]++
			}
			ref := p.ref(last, t)
			if addr, class := parkedOn(t); addr != "" {
				ref.WaitsFor = &LockRef{Address: addr, Class: class}
			}
			f.Cycle = append(f.Cycle, ref)
		}
		f.State = mostCommon(states)
		f.Culprit = mostCommon(culps)
		f.Culprits = ranked(culps)
		if s := p.signatureByID(r.Runtime, f.State); s != nil {
			f.Resource = s.Resource
		}
		if len(ts[0].Frames) > 0 {
			f.Frame = ts[0].Frames[0].Func
		}
		for _, pl := range r.Pools {
			if pl.Name == pool {
				f.PoolCounts = pl.Counts
			}
		}
		for m := since; m <= last; m++ {
			f.Counts[m] = len(at[m])
			f.Evidence = append(f.Evidence, Evidence{Moment: m, Count: len(at[m]), Threads: names(r.Runtime, at[m][:min(len(at[m]), 5)])})
			for _, t := range at[m] {
				p.ClaimThread(m, t, f.ID)
			}
		}
		fs = append(fs, f)
	}
	return fs
}

// taskFutures are the futures only the thread running their task
// completes (or a cancel): a FutureTask's get waits for FutureTask.run
// (runsTask), not for any thread at work.
var taskFutures = []string{"java.util.concurrent.FutureTask", "java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask"}

// taskWaits: every thread of ts parks on a future only its runner
// completes (taskFutures).
func taskWaits(ts []*parse.Thread) bool {
	for _, t := range ts {
		if _, class := parkedOn(t); !slices.Contains(taskFutures, class) {
			return false
		}
	}
	return len(ts) > 0
}

// runsTask: t runs a FutureTask (an executor's submit or schedule).
func runsTask(t *parse.Thread) bool {
	for _, f := range t.Frames {
		if f.Func == "java.util.concurrent.FutureTask.run" || f.Func == "java.util.concurrent.FutureTask.runAndReset" ||
			f.Func == "java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask.run" {
			return true
		}
	}
	return false
}

// isIO: a resource a thread waits for from outside the process, whose
// reply may complete a future.
func isIO(resource string) bool {
	switch resource {
	case "peer-reply", "peer-connect", "peer-drain", "db-connection", "http-connection", "redis-connection":
		return true
	}
	return false
}

// parkedOn is the object t parks on or waits on (a FutureTask, a
// CompletableFuture$Signaller, a latch's Sync); "" if none is printed.
func parkedOn(t *parse.Thread) (addr, class string) {
	for _, l := range t.Locks() {
		if (l.Kind == parse.LockParking || l.Kind == parse.LockWaitingOn) && l.Address != "" {
			return l.Address, l.Class
		}
	}
	return "", ""
}

func identities(rt parse.Runtime, ts []*parse.Thread) map[threadID]bool {
	out := map[threadID]bool{}
	for _, t := range ts {
		out[identity(rt, t)] = true
	}
	return out
}

// sameIdentities: every thread of ts is in ids, each known.
func sameIdentities(rt parse.Runtime, ts []*parse.Thread, ids map[threadID]bool) bool {
	for _, t := range ts {
		id := identity(rt, t)
		if id == (threadID{}) || !ids[id] {
			return false
		}
	}
	return true
}

// ranBetweenAny: a thread followed across the moments at (the same
// threads at each) printed a cpu= that grew by CPURanMin or more between
// two of them: it left its untimed wait and came back (a barrier that
// trips every round, a future completed and waited for again), which a
// pool waiting on itself never does. Where cpu= is not printed (JDK 8),
// nothing is told.
func ranBetweenAny(rt parse.Runtime, at [][]*parse.Thread) bool {
	prev := map[threadID]time.Duration{}
	for _, ts := range at {
		for _, t := range ts {
			id, c := identity(rt, t), t.Java().CPU
			if c <= 0 {
				continue
			}
			if p, ok := prev[id]; ok && c-p >= CPURanMin {
				return true
			}
			prev[id] = c
		}
	}
	return false
}
