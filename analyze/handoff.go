package analyze

import (
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A hand-off has two sides: producers that wait for room or a taker (a
// full queue's put, a SynchronousQueue's put, a transfer, a full pipe's
// write) and consumers that wait for items (its take or poll, the pipe's
// read). A producer's wait is back-pressure: who it waits for is the
// consumers, and the dump shows whether they are there to take.

// handoffSide is one kind of hand-off: the frames its producers wait in
// and the frames its consumers wait in. Data, like the signatures.
type handoffSide struct {
	Name     string // as the sentence names it: "ArrayBlockingQueue", "a pipe"
	Producer []string
	Consumer []string
	// Loop: Consumer are the frames of the hand-off's own consumer
	// threads, anywhere on their stacks (a library's worker loop): they are
	// its consumers whatever they do now, busy or waiting; otherwise
	// Consumer are the frames a consumer waits in, near the top.
	Loop bool
}

// handoffSides are the hand-offs, a library's before the JDK's queue it
// puts into (tested on real frames: testdata/verdicts/handoff-stuck,
// task-wait-stuck, logging-stuck, log4j-stuck).
var handoffSides = []handoffSide{
	// log4j 1.2's (and reload4j's) AsyncAppender: append waits on its
	// buffer (an ArrayList, Object.wait) for room, under the logger's
	// monitor; its Dispatcher thread empties it into the appenders
	// (log4j 1.2.17: testdata/verdicts/log4j1-stuck).
	{Name: "log4j 1.2's AsyncAppender buffer", Producer: []string{"org.apache.log4j.AsyncAppender.append"},
		Consumer: []string{"org.apache.log4j.AsyncAppender$Dispatcher.run"}, Loop: true},
	// logback's AsyncAppender: the application's log calls put events
	// into its ArrayBlockingQueue, its one worker thread appends them
	// (logback 1.2.11: testdata/verdicts/logging-stuck).
	{Name: "logback's AsyncAppender queue", Producer: []string{"ch.qos.logback.core.AsyncAppenderBase.put", "ch.qos.logback.core.AsyncAppenderBase.putUninterruptibly"},
		Consumer: []string{"ch.qos.logback.core.AsyncAppenderBase$Worker.run"}, Loop: true},
	// Log4j 2's AsyncAppender: a blocking append puts into its queue in
	// logMessageInBackgroundThread; its dispatcher thread appends (2.19:
	// AsyncAppenderEventDispatcher, testdata/verdicts/log4j-stuck; before
	// 2.14 AsyncAppender$AsyncThread, frames from dotCMS/core issue #15245).
	{Name: "Log4j 2's AsyncAppender queue", Producer: []string{"org.apache.logging.log4j.core.appender.AsyncAppender.logMessageInBackgroundThread",
		"org.apache.logging.log4j.core.appender.AsyncAppender.transfer"},
		Consumer: []string{"org.apache.logging.log4j.core.appender.AsyncAppenderEventDispatcher.run",
			"org.apache.logging.log4j.core.appender.AsyncAppenderEventDispatcher.dispatchAll",
			"org.apache.logging.log4j.core.appender.AsyncAppender$AsyncThread.run"}, Loop: true},
	{"ArrayBlockingQueue", []string{"java.util.concurrent.ArrayBlockingQueue.put", "java.util.concurrent.ArrayBlockingQueue.offer"},
		[]string{"java.util.concurrent.ArrayBlockingQueue.take", "java.util.concurrent.ArrayBlockingQueue.poll"}, false},
	{"LinkedBlockingQueue", []string{"java.util.concurrent.LinkedBlockingQueue.put", "java.util.concurrent.LinkedBlockingQueue.offer"},
		[]string{"java.util.concurrent.LinkedBlockingQueue.take", "java.util.concurrent.LinkedBlockingQueue.poll"}, false},
	{"LinkedBlockingDeque", []string{"java.util.concurrent.LinkedBlockingDeque.put*", "java.util.concurrent.LinkedBlockingDeque.offer*"},
		[]string{"java.util.concurrent.LinkedBlockingDeque.take*", "java.util.concurrent.LinkedBlockingDeque.poll*"}, false},
	{"SynchronousQueue", []string{"java.util.concurrent.SynchronousQueue.put", "java.util.concurrent.SynchronousQueue.offer"},
		[]string{"java.util.concurrent.SynchronousQueue.take", "java.util.concurrent.SynchronousQueue.poll"}, false},
	{"LinkedTransferQueue", []string{"java.util.concurrent.LinkedTransferQueue.transfer", "java.util.concurrent.LinkedTransferQueue.tryTransfer"},
		[]string{"java.util.concurrent.LinkedTransferQueue.take", "java.util.concurrent.LinkedTransferQueue.poll"}, false},
	{"a pipe", []string{"java.io.PipedInputStream.awaitSpace"}, []string{"java.io.PipedInputStream.read"}, false},
}

// handoffOf is the hand-off t waits on as a producer, by the table's
// order among its top 12 frames (the park plumbing, the queue and a
// library's put over it); nil when none.
func handoffOf(t *parse.Thread) *handoffSide {
	top := t.Frames[:min(len(t.Frames), 12)]
	for i := range handoffSides {
		for _, f := range top {
			if anchorMatch(handoffSides[i].Producer, f.Func) {
				return &handoffSides[i]
			}
		}
	}
	return nil
}

// handoffConsumers fills in, for every finding on producers of a
// hand-off, which hand-off it is and who waits on its other side at the
// finding's moment: the consumers of a hand-off of that class, grouped by
// pool and state (a queue of the same class may be another queue: the
// sentence says "of that class").
func handoffConsumers(r *Result, opt Options, cls *classes) {
	for i := range r.Findings {
		f := &r.Findings[i]
		if f.Pool == "" || f.At < 0 || f.At >= len(r.Moments) || r.Moments[f.At].Dump == nil {
			continue
		}
		var side *handoffSide
		for _, pl := range r.Pools {
			if pl.Name != f.Pool {
				continue
			}
			for _, g := range pl.States {
				if g.State == f.State && g.Via == f.Via && f.At < len(g.Stacks) && g.Stacks[f.At] != nil {
					side = handoffOf(g.Stacks[f.At])
				}
			}
		}
		if side == nil {
			continue
		}
		f.Handoff, f.ConsumerLoop = side.Name, side.Loop
		f.Consumers = consumerGroups(r, opt, cls, r.Moments[f.At].Dump, side)
		if !side.Loop {
			// A JDK queue's takers waiting while its producers wait are
			// another queue's (OtherTakers); its own consumers are busy.
			for _, c := range f.Consumers {
				f.OtherTakers += c.Count
			}
			f.Consumers = nil
			f.Busy = busyConsumers(r, opt, cls, f.At, side)
			if f.Busy == nil && !takenEver(r, side) {
				f.Busy = runningThrough(r, opt, cls, f.At)
				f.BusyInferred = f.Busy != nil
			}
			waitedFor(r, f)
		}
	}
	// A lock's holder that waits on a hand-off (issue 33: log4j 1.2's
	// AsyncAppender waits for room in its buffer under the logger's
	// monitor): the holder's wait is the root, and who it waits for is
	// the hand-off's other side.
	for i := range r.Findings {
		f := &r.Findings[i]
		if f.Lock == nil || f.Lock.Owner == nil || f.At < 0 || f.At >= len(r.Moments) || r.Moments[f.At].Dump == nil {
			continue
		}
		d := r.Moments[f.At].Dump
		o := threadNamed(r.Runtime, d, f.Lock.Owner.Name)
		if o == nil {
			continue
		}
		if s := classifyIn(cls.sigs, r.Runtime, o); s == nil || s.Category != Waiting {
			continue // a holder at work, not waiting on the hand-off
		}
		side := handoffOf(o)
		if side == nil {
			continue
		}
		f.Lock.Owner.Handoff, f.Lock.Owner.ConsumerLoop = side.Name, side.Loop
		f.Lock.Owner.Consumers = consumerGroups(r, opt, cls, d, side)
	}
}

// busyConsumers are, for a JDK queue whose producers wait with no thread
// waiting to take at moment at, its consumers busy elsewhere: the threads
// seen waiting to take from a queue of its class at another moment (by
// identity), and those running the method that took (the consumer's own
// loop, "QueueApp$Enricher.run") at moment at, grouped by pool, state
// and culprit. A busy consumer's stack names no queue: the moments when
// it waited on one tie it to it (queue-busy-rising).
func busyConsumers(r *Result, opt Options, cls *classes, at int, side *handoffSide) []HolderGroup {
	ids := map[threadID]bool{}
	loops := map[string]bool{}
	pools := map[string]bool{} // the pools of the threads seen taking
	for m, mo := range r.Moments {
		if mo.Dump == nil || m == at {
			continue
		}
		for _, t := range mo.Dump.Threads {
			if handoffOf(t) != nil || !consumes(t, side) {
				continue
			}
			// The very thread that took is a consumer, wherever it took
			// (an executor's worker in the JDK's getTask too: that thread
			// took from a queue of this class).
			if id := identity(r.Runtime, t); id != (threadID{}) {
				ids[id] = true
			}
			pool, _ := poolName(r.Runtime, t, opt)
			pools[pool] = true
			// The method that took, when it is the consumer's own loop
			// outside the JDK, marks every thread running it (an
			// executor's getTask is every busy worker's: not a mark).
			if c := culprit(r.Runtime, t); c != nil && !anyPrefix(c.Func, jdkPackages) {
				loops[c.Func] = true
			}
		}
	}
	if len(ids) == 0 && len(loops) == 0 {
		return nil
	}
	// Threads of the takers' pools that ran through every moment, never
	// caught taking, are consumers of the same kind.
	through := runningThroughIDs(r, cls)
	var out []HolderGroup
	for _, t := range r.Moments[at].Dump.Threads {
		if handoffOf(t) != nil || consumes(t, side) {
			continue
		}
		id := identity(r.Runtime, t)
		pool, _ := poolName(r.Runtime, t, opt)
		seen := ids[id] || through[id] && pools[pool]
		for _, f := range t.Frames {
			seen = seen || loops[f.Func]
		}
		if !seen {
			continue
		}
		out = addHolder(out, pool, stateOf(classifyIn(cls.sigs, r.Runtime, t)), FrameString(culprit(r.Runtime, t)), t)
	}
	return out
}

// addHolder counts t in out's group of its pool, state and culprit, a new
// group when none is.
func addHolder(out []HolderGroup, pool, state, c string, t *parse.Thread) []HolderGroup {
	for k := range out {
		if g := &out[k]; g.Pool == pool && g.State == state && g.Culprit == c {
			g.Count += max(t.Weight, 1)
			return out
		}
	}
	return append(out, HolderGroup{Pool: pool, State: state, Culprit: c, Count: max(t.Weight, 1)})
}

// threadNamed is the one thread of d that threadLabel names label; nil
// when none or more than one.
func threadNamed(rt parse.Runtime, d *parse.Dump, label string) *parse.Thread {
	var found *parse.Thread
	for _, t := range d.Threads {
		if threadLabel(rt, t) == label {
			if found != nil {
				return nil
			}
			found = t
		}
	}
	return found
}

// consumerGroups are the threads of d on side's consumer side, grouped
// by pool and state, producers left out.
func consumerGroups(r *Result, opt Options, cls *classes, d *parse.Dump, side *handoffSide) []HolderGroup {
	var out []HolderGroup
	for _, t := range d.Threads {
		if handoffOf(t) != nil || !consumes(t, side) {
			continue
		}
		pool, _ := poolName(r.Runtime, t, opt)
		state := stateOf(classifyIn(cls.sigs, r.Runtime, t))
		found := false
		for k := range out {
			if c := &out[k]; c.Pool == pool && c.State == state {
				c.Count += max(t.Weight, 1)
				found = true
			}
		}
		if !found {
			out = append(out, HolderGroup{Pool: pool, State: state, Count: max(t.Weight, 1)})
		}
	}
	return out
}

// consumes reports whether t is on the consumer side of side: one of its
// own consumer threads (Loop), or waiting to take from one of its class.
func consumes(t *parse.Thread, side *handoffSide) bool {
	frames := t.Frames
	if !side.Loop {
		frames = frames[:min(len(frames), 12)]
	}
	for _, f := range frames {
		if anchorMatch(side.Consumer, f.Func) {
			return true
		}
	}
	return false
}

// takenEver reports whether any moment shows a thread waiting to take from
// a queue of side's class (then busyConsumers names them, or they are
// another queue's).
func takenEver(r *Result, side *handoffSide) bool {
	for _, mo := range r.Moments {
		if mo.Dump == nil {
			continue
		}
		for _, t := range mo.Dump.Threads {
			if handoffOf(t) == nil && consumes(t, side) {
				return true
			}
		}
	}
	return false
}

// runningThroughIDs are the threads that run the same application frames
// at every moment: the very same thread, running (not waiting), with the
// same culprit outside the JDK at each, and its cpu= grown by CPURanMin
// between every two moments where printed (a thread in a native wait that
// reads as running used none); nil with one moment (nothing stays in one).
func runningThroughIDs(r *Result, cls *classes) map[threadID]bool {
	n := len(r.Moments)
	if n < 2 {
		return nil
	}
	type seen struct {
		culprit string
		cpu     time.Duration
		moments int
		ok      bool
	}
	through := map[threadID]*seen{}
	for m, mo := range r.Moments {
		if mo.Dump == nil {
			return nil
		}
		for _, t := range mo.Dump.Threads {
			id := identity(r.Runtime, t)
			if id == (threadID{}) || handoffOf(t) != nil {
				continue
			}
			s := through[id]
			if s == nil {
				if m > 0 {
					continue
				}
				s = &seen{ok: true}
				through[id] = s
			}
			sig := classifyIn(cls.sigs, r.Runtime, t)
			c := culprit(r.Runtime, t)
			cpu := t.Java().CPU
			switch {
			case sig == nil || sig.Category != Running || c == nil || anyPrefix(c.Func, jdkPackages):
				s.ok = false
			case m > 0 && (c.Func != s.culprit || cpu > 0 && s.cpu > 0 && cpu-s.cpu < CPURanMin):
				s.ok = false
			}
			if c != nil {
				s.culprit = c.Func
			}
			s.cpu = cpu
			s.moments++
		}
	}
	out := map[threadID]bool{}
	for id, s := range through {
		if s.ok && s.moments == n {
			out[id] = true
		}
	}
	return out
}

// runningThrough are, when no moment shows a queue's consumer waiting to
// take (the producers wait for room in a full queue, and every consumer
// takes the next item the instant it is done), the threads at moment at
// that ran through every moment (runningThroughIDs): the queue's likely
// consumers, grouped by pool, state and culprit; nil when none did.
func runningThrough(r *Result, opt Options, cls *classes, at int) []HolderGroup {
	through := runningThroughIDs(r, cls)
	if len(through) == 0 {
		return nil
	}
	var out []HolderGroup
	for _, t := range r.Moments[at].Dump.Threads {
		if !through[identity(r.Runtime, t)] {
			continue
		}
		pool, _ := poolName(r.Runtime, t, opt)
		out = addHolder(out, pool, stateOf(classifyIn(cls.sigs, r.Runtime, t)), FrameString(culprit(r.Runtime, t)), t)
	}
	return out
}

// waitedFor counts f's producers as waiting for the spinning findings on
// the pools of its likely consumers (f.Busy): a consumer that computes at
// every moment while producers wait for room has them waiting for it, and
// its finding must not say that nothing waits for it.
func waitedFor(r *Result, f *Finding) {
	for i := range r.Findings {
		g := &r.Findings[i]
		if g.Kind != KindSpinning || g.Waiting > 0 {
			continue
		}
		for _, b := range f.Busy {
			if b.Pool == g.Pool {
				g.Waiting = f.Counts[f.At]
				break
			}
		}
	}
}
