package analyze

import "github.com/dumpdiff/dumpdiff/parse"

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
}

// handoffSides are the JDK's hand-offs (tested on real frames:
// testdata/verdicts/handoff-stuck, task-wait-stuck).
var handoffSides = []handoffSide{
	{"ArrayBlockingQueue", []string{"java.util.concurrent.ArrayBlockingQueue.put", "java.util.concurrent.ArrayBlockingQueue.offer"},
		[]string{"java.util.concurrent.ArrayBlockingQueue.take", "java.util.concurrent.ArrayBlockingQueue.poll"}},
	{"LinkedBlockingQueue", []string{"java.util.concurrent.LinkedBlockingQueue.put", "java.util.concurrent.LinkedBlockingQueue.offer"},
		[]string{"java.util.concurrent.LinkedBlockingQueue.take", "java.util.concurrent.LinkedBlockingQueue.poll"}},
	{"LinkedBlockingDeque", []string{"java.util.concurrent.LinkedBlockingDeque.put*", "java.util.concurrent.LinkedBlockingDeque.offer*"},
		[]string{"java.util.concurrent.LinkedBlockingDeque.take*", "java.util.concurrent.LinkedBlockingDeque.poll*"}},
	{"SynchronousQueue", []string{"java.util.concurrent.SynchronousQueue.put", "java.util.concurrent.SynchronousQueue.offer"},
		[]string{"java.util.concurrent.SynchronousQueue.take", "java.util.concurrent.SynchronousQueue.poll"}},
	{"LinkedTransferQueue", []string{"java.util.concurrent.LinkedTransferQueue.transfer", "java.util.concurrent.LinkedTransferQueue.tryTransfer"},
		[]string{"java.util.concurrent.LinkedTransferQueue.take", "java.util.concurrent.LinkedTransferQueue.poll"}},
	{"a pipe", []string{"java.io.PipedInputStream.awaitSpace"}, []string{"java.io.PipedInputStream.read"}},
}

// handoffOf is the hand-off t waits on as a producer; nil when none.
func handoffOf(t *parse.Thread) *handoffSide {
	for _, f := range t.Frames[:min(len(t.Frames), 12)] {
		for i := range handoffSides {
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
		f.Handoff = side.Name
		for _, t := range r.Moments[f.At].Dump.Threads {
			if handoffOf(t) != nil || !consumes(t, side) {
				continue
			}
			pool, _ := poolName(r.Runtime, t, opt)
			state := stateOf(classifyIn(cls.sigs, r.Runtime, t))
			found := false
			for k := range f.Consumers {
				if c := &f.Consumers[k]; c.Pool == pool && c.State == state {
					c.Count += max(t.Weight, 1)
					found = true
				}
			}
			if !found {
				f.Consumers = append(f.Consumers, HolderGroup{Pool: pool, State: state, Count: max(t.Weight, 1)})
			}
		}
	}
}

// consumes reports whether t waits on the consumer side of side.
func consumes(t *parse.Thread, side *handoffSide) bool {
	for _, f := range t.Frames[:min(len(t.Frames), 12)] {
		if anchorMatch(side.Consumer, f.Func) {
			return true
		}
	}
	return false
}
