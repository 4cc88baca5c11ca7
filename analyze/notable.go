package analyze

import (
	mathbits "math/bits"
	"sort"

	"github.com/dumpdiff/dumpdiff/parse"
)

// NotableMax is how many notable threads are listed: the few an engineer
// would look at first, not a second pools table.
const NotableMax = 5

// Notable is a thread an engineer would look at first in the last moment,
// with or without findings: a thread blocked on a monitor, `main` or the
// only thread of its pool in a wait that is not a rest, a thread waiting
// on a future while no thread of the process works. Idle threads and
// rests (an idle worker, main awaiting shutdown) never are: a healthy idle
// service shows none.
type Notable struct {
	Moment int    // index in Result.Moments: the last one
	Thread string // the first such thread, as samples name them ("main", "goroutine 1")
	// Count is how many threads of the same pool are notable for the same
	// reason in the same state and culprit (one line for them).
	Count   int
	Pool    string
	State   string // signature id
	Via     string
	Culprit string
	// Why says what makes it notable, in words ("blocked on a monitor").
	Why string
	// Rank orders them: 1, the most unusual, first.
	Rank int
	// Waiters says who waits for this thread to end or to give a result,
	// tied by the code it runs (joins.go): "main waits for it to end
	// (Thread.join at com.test.MainClass.main(MainClass.java:14))"; empty
	// when none is known.
	Waiters string `json:",omitempty"`
}

// notables finds the last moment's notable threads, the most unusual
// first, at most NotableMax lines (threads of one pool, reason, state and
// culprit are one line). Threads a finding already tells of (its pool and
// state) are left to it. Two passes over the moment's threads (see below).
func notables(r *Result, cls *classes) []Notable {
	m := len(r.Moments) - 1
	if m < 0 || r.Moments[m].Dump == nil {
		return nil
	}
	d := r.Moments[m].Dump
	told := map[[2]string]bool{}
	toldThread := map[string]bool{} // named by a finding: a deadlock's cycle, its samples
	for _, f := range r.Findings {
		told[[2]string{f.Pool, f.State}] = true
		for _, c := range f.Cycle {
			toldThread[c.Name] = true
		}
		for _, b := range f.Blocked {
			toldThread[b.Name] = true
		}
		for _, e := range f.Evidence {
			for _, n := range e.Threads {
				toldThread[n] = true
			}
		}
	}
	// Two passes over the threads: the first sizes the pools and tells
	// whether any thread works, the second judges each thread by them.
	// What the second needs of the first is one bit a thread, set where
	// a thread could be notable whatever the sizes: its stack's info is
	// asked again there (a lookup by the stack's address for a
	// goroutine). Keeping each thread's info between the passes cost 80
	// bytes a thread, 76 MB of the 3 × 1M analysis's peak (issue 31).
	var key []byte
	poolSize := map[string]int{}
	working := false // a thread of the process runs or waits on something other than a future
	maybe := make([]uint64, (len(d.Threads)+63)/64)
	for i, t := range d.Threads {
		si := cls.info(m, t, &key)
		poolSize[si.pool] += max(t.Weight, 1)
		if si.sig == nil {
			continue
		}
		if si.sig.Resource != "task-result" && (si.sig.Category == Running || si.sig.Category == Waiting && !si.sig.Rest) {
			working = true
		}
		if (mayBeNotable(si.sig) || hotNotable(r.Runtime, si.sig, t, d, cls.opt.roleTable().HotLoops)) && !internalThread(r.Runtime, t, cls.opt.roleTable().JVMInternal) && !told[[2]string{si.pool, si.sig.ID}] {
			maybe[i/64] |= 1 << (i % 64)
		}
	}
	type lineKey struct{ pool, state, culprit, why string }
	at := map[lineKey]int{}
	var waitedFor map[*parse.Thread][]joinTie // JVM: the threads a join or get waits for (joins.go)
	var out []Notable
	for w, bits := range maybe {
		for ; bits != 0; bits &= bits - 1 {
			i := w*64 + mathbits.TrailingZeros64(bits)
			t := d.Threads[i]
			si := cls.info(m, t, &key)
			n := Notable{Moment: m, Pool: si.pool, State: si.sig.ID, Culprit: si.culprit}
			waits := si.sig.Category == Waiting && !si.sig.Rest
			if r.Runtime == parse.RuntimeJVM && waitedFor == nil {
				// Once, where a thread may be notable: one pass over the stacks.
				waitedFor = joinTies(d, func(t *parse.Thread) bool {
					s := cls.info(m, t, &key).sig
					return s == nil || s.Category == Idle || s.Rest || s.Serves
				})
				if waitedFor == nil {
					waitedFor = map[*parse.Thread][]joinTie{}
				}
			}
			switch {
			case si.sig.Resource == "monitor":
				n.Why, n.Rank = "blocked on a monitor", 1
			case waits && isMain(r.Runtime, t, si):
				n.Why, n.Rank = "main is waiting, not in a pool's loop", 2
			case waits && pooled(si.sig.Resource):
				// Fewer than the pool-exhausted detector's minimum (else it
				// tells them): a pool at its edge for an instant, or an
				// exhausted one; the next dump tells.
				n.Why, n.Rank = "waiting to borrow from a pool, which was empty at this moment", 3
			case waits && poolSize[si.pool] == 1 && (!peerRead(si.sig.Resource) || len(waitedFor[t]) > 0):
				// A lone thread reading a peer is ordinary (a listener, an
				// IDE's control socket); waiting on a lock, a future or a
				// latch with no pool to take over is not, nor a peer's read
				// that another thread waits on to end (main's join).
				n.Why, n.Rank = "the only thread of its pool is waiting", 3
			case si.sig.Resource == "task-result" && !working:
				n.Why, n.Rank = "waiting on a future while no thread of the process works", 4
			case si.sig.Category == Running && d.Cut && hotLoopOf(t, cls.opt.roleTable().HotLoops) != nil:
				// Fewer threads in a lookup's loop than its row asks for,
				// and no CPU total past HotLoopCPU: a loop or a busy
				// lookup passing through; the frames alone cannot tell.
				// Said of a paste a person cut only (they chose this
				// thread to show): a whole dump of a busy service has
				// threads in HashMap.put at every moment.
				h, f := hotLoopFrame(t, cls.opt.roleTable().HotLoops)
				n.Why, n.Rank = "runnable in "+f.Func+", which loops for ever over "+h.Structure+
					", and which a busy service passes through too: a second dump tells", 2
			case si.sig.Category == Running && cpuNote(t, d) != "":
				n.Why, n.Rank = cpuNote(t, d), 2
			default:
				continue
			}
			// Labelled only once notable: the label is a string made per thread.
			if n.Thread = threadLabel(r.Runtime, t); toldThread[n.Thread] {
				continue
			}
			k := lineKey{n.Pool, n.State, n.Culprit, n.Why}
			if j, ok := at[k]; ok {
				out[j].Count += max(t.Weight, 1)
				continue
			}
			n.Count = max(t.Weight, 1)
			n.Via, _, _ = viaFor(cls.sigs, si.sig, t) // a few threads: not the hot loop
			n.Waiters = waitersText(waitedFor[t])
			at[k] = len(out)
			out = append(out, n)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Rank < out[j].Rank })
	return out[:min(len(out), NotableMax)]
}

// mayBeNotable reports a signature some thread of which is notable in
// the right pool or process (notables' cases before its pool sizes and
// working are known): a monitor, a wait that is not a rest, a future.
func mayBeNotable(s *Signature) bool {
	return s.Resource == "monitor" || s.Category == Waiting && !s.Rest || s.Resource == "task-result"
}

// hotNotable reports a running JVM thread whose frames or CPU alone make
// it worth a look, where no finding tells of it (notables): in a loop of
// the hot-loop table with fewer threads than its row asks, in a paste a
// person cut, or with CPU
// evidence too weak for a finding (cpuNote).
func hotNotable(rt parse.Runtime, s *Signature, t *parse.Thread, d *parse.Dump, rows []HotLoop) bool {
	return rt == parse.RuntimeJVM && s.Category == Running && (d.Cut && hotLoopOf(t, rows) != nil || cpuNote(t, d) != "")
}

// isMain tells the program's main thread: the JVM's "main", Go's goroutine
// 1 or the goroutine in main.main.
func isMain(rt parse.Runtime, t *parse.Thread, si stackInfo) bool {
	if rt == parse.RuntimeJVM {
		return t.Name() == "main"
	}
	return t.ID == 1 || si.pool == "main"
}

// internalThread reports a runtime's own thread (JVM-internal), never notable.
func internalThread(rt parse.Runtime, t *parse.Thread, names []string) bool {
	return rt == parse.RuntimeJVM && jvmInternal(t, names)
}

// pooled reports a resource a bounded pool lends (a DB connection).
func pooled(resource string) bool {
	r := resourceByID(resource)
	return r != nil && r.Pool != ""
}

// peerRead reports a wait on a peer's bytes (a socket read, a file
// descriptor), which a single listening thread does by design.
func peerRead(resource string) bool { return resource == "peer-reply" || resource == "fd" }
