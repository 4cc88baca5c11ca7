package analyze

import (
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Crowds (issue 33): what one dump proves by the structure of its threads,
// with no rise to compare. A JVM thread that no pool's loop runs (no
// executor's runWorker, no fork-join worker, no Jetty runner between its
// task and Thread.run) was started for its task and ends with it; hundreds
// of them in one wait, made by one application frame, are a thread per
// task: an executor with no bound (new Thread(...).start() per request,
// CompletableFuture.supplyAsync with no executor on a machine whose common
// pool has no parallelism). The same count of a classic blocking server's
// connections is its clients: those rest in the read of the accept loop's
// own code (connectionReaders).

// poolLoops are the frames of a pool's own loop, which runs one task after
// another on the same thread: a thread with one of them on its stack is a
// pool's worker, not a thread made for its task. Virtual threads are one
// per task by design and are left to the explosion rule's GoExplosionMin.
// The built-in rows of Roles.PoolLoops: a signatures file's "pool-loop"
// adds a team's own executor.
var poolLoops = []string{
	"java.util.concurrent.ThreadPoolExecutor.runWorker", "org.apache.tomcat.util.threads.ThreadPoolExecutor.runWorker",
	"java.util.concurrent.ForkJoinWorkerThread.run", "java.util.concurrent.ForkJoinPool.runWorker",
	"org.eclipse.jetty.util.thread.QueuedThreadPool", "java.util.TimerThread.mainLoop",
	"org.quartz.simpl.SimpleThreadPool$WorkerThread.run", "io.netty.util.concurrent.SingleThreadEventExecutor",
	"io.netty.util.concurrent.ThreadPerTaskExecutor", // a Netty event loop's own thread
	"org.apache.tomcat.util.threads.TaskThread", "org.xnio.", "io.undertow.", "weblogic.work.", "com.ibm.ws.",
	"java.lang.VirtualThread.run",
}

// unpooled reports whether t runs on a thread of its own: a platform
// thread with no pool loop (loops: Roles.PoolLoops) on its stack.
func unpooled(t *parse.Thread, loops []string) bool {
	if t.JVM != nil && t.Virtual {
		return false
	}
	for _, f := range t.Frames {
		if anyPrefix(f.Func, loops) {
			return false
		}
	}
	return true
}

// unpooledPool reports whether most of a JVM pool's threads, at the
// moment it holds most, run on threads of their own (unpooled).
func unpooledPool(r *Result, pl *Pool, loops []string) bool {
	if r.Runtime != parse.RuntimeJVM {
		return false
	}
	m := peakAt(pl.Counts)
	n, own := 0, 0
	for _, g := range pl.States {
		if m >= len(g.Threads) {
			continue
		}
		for _, t := range g.Threads[m] {
			n++
			if unpooled(t, loops) {
				own++
			}
		}
	}
	return n > 0 && 2*own > n
}

// creatorFrame is the application frame nearest the bottom of t's stack
// (the lambda or Runnable Thread.run, or a task under it, called): the
// code that made the thread's work; "" when no frame is the
// application's.
func creatorFrame(t *parse.Thread) string {
	for i := len(t.Frames) - 1; i >= 0; i-- {
		if f := t.Frames[i]; isAppFrame(parse.RuntimeJVM, f) && !anyPrefix(f.Func, jdkPackages) && !isGeneratedFrame(f.Func) {
			return f.Func
		}
	}
	return ""
}

// javaClass is the class of a JVM frame's function ("a.b.C$D.m" → "a.b.C$D").
func javaClass(fn string) string {
	if i := strings.LastIndexByte(fn, '.'); i > 0 {
		return fn[:i]
	}
	return fn
}

// connectionReaders marks as a rest the JVM socket reads of a classic
// blocking server's connections: threads of their own (unpooled) made by
// the accept loop's own code, at a moment when a thread waits in accept
// there. Such a thread waits for its client's next request, as a Tomcat
// connection between requests does (the http-server via row): 300 idle
// clients are 300 readers, by design. The accept loop's code made it when
// its creator frame (creatorFrame) is a lambda of the very method the
// accept loop runs in (EchoServer.lambda$run$1 beside EchoServer.run in
// accept), or a Runnable class nested in the accept loop's class
// (EchoServer$Handler.run beside EchoServer.main). A read made by other
// code (a client's, a request's call to an upstream) stays a wait for a
// peer, whatever class it shares with the server.
func (b *builder) connectionReaders() {
	r := b.r
	if r.Runtime != parse.RuntimeJVM {
		return
	}
	// The accept loops' application frames, per moment.
	accepts := make([][]string, len(r.Moments))
	for _, pl := range r.Pools {
		for _, g := range pl.States {
			if g.State != "accept" {
				continue
			}
			for m, ts := range g.Threads {
				for _, t := range ts {
					for _, f := range t.Frames {
						if isAppFrame(r.Runtime, f) && !anyPrefix(f.Func, jdkPackages) {
							accepts[m] = append(accepts[m], f.Func)
						}
					}
				}
			}
		}
	}
	for _, pl := range r.Pools {
		if pl.Internal {
			continue
		}
		for _, g := range pl.States {
			if g.State != "socket-read" || g.Rest || g.Via != "" {
				continue
			}
			readers, all := 0, 0
			for m, ts := range g.Threads {
				for _, t := range ts {
					all++
					if c := creatorFrame(t); c != "" && unpooled(t, b.opt.roleTable().PoolLoops) && madeByAcceptLoop(c, accepts[m]) {
						readers++
					}
				}
			}
			// Most of the group, at the moments it holds threads.
			if readers > 0 && 2*readers > all {
				g.Rest = true
			}
		}
	}
}

// madeByAcceptLoop reports whether creator, a thread's creator frame's
// function, is the code of one of the accept loops' frames: a lambda of
// that very method, or a method of a class nested in that frame's class.
func madeByAcceptLoop(creator string, accepts []string) bool {
	cls := javaClass(creator)
	method := creator[len(cls)+1:]
	for _, a := range accepts {
		acls := javaClass(a)
		if strings.HasPrefix(method, "lambda$") {
			// lambda$run$1: made in run.
			if in, _, ok := strings.Cut(method[len("lambda$"):], "$"); ok && cls == acls && a[len(acls)+1:] == in {
				return true
			}
			continue
		}
		if strings.HasPrefix(cls, acls+"$") {
			return true
		}
	}
	return false
}

// gateResources are what threads queue for inside the process: a lock, a
// permit, a pool's connection or object. A crowd queued there is bounded
// in its work by the gate (two permits let two through: a throttle that
// makes a thread per job, progress-throttle-healthy), and the contention,
// pool-exhausted and progress rules tell it; a crowd in its work (a peer's
// reply, a sleep, a file) is as many tasks at once as threads.
// Not a [roles] key: resource ids of the signature table, which a team's
// [signature] row names (resource =).
var gateResources = []string{"lock", "monitor", "permit", "db-connection", "redis-connection", "http-connection", "pooled-object"}

// crowd is one group's largest set of unpooled threads made by one
// creator, at one moment.
type crowd struct {
	pool    *Pool
	g       *Group
	m       int
	creator string
	n       int
}

// threadPerTask: at some moment, CrowdMin or more unpooled threads of one
// group (one pool, one wait) made by one application frame, CrowdShare or
// more of the process's application threads, in a wait that is no rest
// (their own loop's idle read, a queue's take, a sleep in their own loop).
// The moment with the most;
// critical when the crowd (the same group and creator) is CrowdMin strong
// at every moment of two or more (it stays), a warning on one (one dump
// cannot tell whether the threads finish: each costs a stack and a native
// thread meanwhile).
func threadPerTask(p *Pass) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeJVM {
		return nil
	}
	var best *crowd
	for m, mo := range r.Moments {
		if mo.Dump == nil {
			continue
		}
		app := r.Totals[m]
		for _, pl := range r.Pools {
			if pl.Internal {
				app -= pl.Counts[m]
			}
		}
		var top *crowd
		for _, pl := range r.Pools {
			if pl.Internal {
				continue
			}
			for _, g := range pl.States {
				// A wait of work: not a rest, not idle in the thread's own
				// loop (threads that loop are a hand-rolled pool, not one
				// per task), not running.
				if g.Rest || g.Category != Waiting || g.Counts[m] < CrowdMin || slices.Contains(gateResources, g.Resource) {
					continue
				}
				by := map[string]int{}
				for _, t := range g.Threads[m] {
					if !unpooled(t, p.opt.roleTable().PoolLoops) {
						continue
					}
					if c := creatorFrame(t); c != "" {
						by[c] += max(t.Weight, 1)
					}
				}
				for c, n := range by {
					if n < CrowdMin || float64(n) < CrowdShare*float64(app) {
						continue
					}
					if top == nil || n > top.n || n == top.n && c < top.creator {
						top = &crowd{pool: pl, g: g, m: m, creator: c, n: n}
					}
				}
			}
		}
		if top != nil && (best == nil || top.n >= best.n) {
			best = top
		}
	}
	if best == nil {
		return nil
	}
	// The crowd at each moment: the same group's unpooled threads made
	// by the same frame.
	counts := make([]int, len(r.Moments))
	stays, withDump := true, 0
	for m, mo := range r.Moments {
		if mo.Dump == nil {
			continue
		}
		withDump++
		for _, t := range best.g.Threads[m] {
			if unpooled(t, p.opt.roleTable().PoolLoops) && creatorFrame(t) == best.creator {
				counts[m] += max(t.Weight, 1)
			}
		}
		stays = stays && counts[m] >= CrowdMin
	}
	f := groupFinding(KindExplosion, best.pool, best.g, best.m)
	f.ID = findingID(KindExplosion, best.pool.Name, "thread-per-task")
	f.Basis = BasisCrowd
	f.Severity = Warning
	if withDump >= 2 && stays {
		f.Severity = Critical
	}
	f.Totals = r.Totals
	f.Counts = counts
	f.Entries = []FrameCount{{Func: best.creator, Count: best.n}}
	f.Since = firstAtLeast(counts, CrowdMin)
	f.FromStart = f.Since == 0
	// The crowd's group is its story: that its threads stay in their wait
	// (stuck) or rose (timeline) is what a thread per task does.
	p.ClaimGroup(best.g, f.ID)
	return []Finding{f}
}

// BasisCrowd marks an explosion told by one moment's structure: a crowd of
// threads made one per task (threadPerTask).
const BasisCrowd = "thread-per-task-crowd"

// goCrowd: one Go dump that prints goroutine ids and no age (a debug=2 or
// SIGQUIT dump of a young process) shows a leak only by its shape: one
// pool (one creator) in one wait holding LeakFlatMin goroutines or more
// and LeakMassShare of the process. In a send, a lock or a wait that is no
// rest, that shape is enough for a suspect; in a rest (a channel receive, a
// select, a Cond) healthy goroutines wait too, so there they must have
// been made one per request: LeakParentShare of them or more by distinct
// parents (Go 1.21+ prints "in goroutine N"; a worker pool's goroutines
// share the one that started them, and before 1.21 a rest says nothing).
// A server's connections (net/http's conn.serve waiting for the next
// request) rest as long as their clients stay and are never counted. One
// moment cannot tell a leak from a burst in flight: the finding says so,
// with the second dump that tells.
func goCrowd(p *Pass, said map[string]bool) []Finding {
	r := p.R
	if len(r.Moments) != 1 || r.Moments[0].Dump == nil || r.Moments[0].Format == parse.FormatGoDebug1 || len(r.Totals) != 1 {
		return nil
	}
	var fs []Finding
	for _, pl := range r.Pools {
		if pl.Internal || said[pl.Name] || connectionBound(pl.Name) {
			continue
		}
		for _, g := range pl.States {
			c := g.Counts[0]
			if g.Category != Waiting || c < LeakFlatMin || float64(c) < LeakMassShare*float64(r.Totals[0]) || printsWaits(g) {
				continue
			}
			// A format that prints no goroutine ids (debug=1, the proto)
			// is the mass rules' (byMassOneMoment): no id, no parent.
			if len(g.Threads[0]) == 0 || g.Threads[0][0].ID == 0 {
				continue
			}
			parents := map[int64]bool{}
			printed := false
			for _, t := range g.Threads[0] {
				if t.CreatedBy != nil && t.CreatedBy.Parent != 0 {
					printed = true
					parents[t.CreatedBy.Parent] = true
				}
			}
			if g.Rest && (!printed || float64(len(parents)) < LeakParentShare*float64(c)) {
				continue
			}
			f := groupFinding(KindLeaked, pl, g, 0)
			f.ID = findingID(KindLeaked, pl.Name, "crowd-one")
			f.Severity = Warning
			f.Basis = BasisGoCrowd
			f.Parents = len(parents)
			f.Totals = r.Totals
			f.Since, f.FromStart = 0, true
			fs = append(fs, f)
			said[pl.Name] = true
		}
	}
	return fs
}

// BasisGoCrowd marks a leak suspect told by one Go dump's shape (goCrowd).
const BasisGoCrowd = "crowd-one"

// restMadeTogether reports whether a rest group's goroutines print their
// parents at some moment and fewer than LeakParentShare of them have
// distinct ones: started together (a worker pool), not one per request.
func restMadeTogether(g *Group) bool {
	if !g.Rest {
		return false
	}
	for _, ts := range g.Threads {
		parents := map[int64]bool{}
		n := 0
		for _, t := range ts {
			if t.CreatedBy != nil && t.CreatedBy.Parent != 0 {
				parents[t.CreatedBy.Parent] = true
				n++
			}
		}
		if n > 0 && float64(len(parents)) < LeakParentShare*float64(n) {
			return true
		}
	}
	return false
}

// BasisUnreadBodies marks a leak of HTTP response bodies nobody reads or
// closes, told by the lent connections and the body readers (unreadBodies).
const BasisUnreadBodies = "unread-bodies"

// BasisCgoThreads marks an explosion of OS threads held by goroutines in
// cgo calls (goCgoThreads).
const BasisCgoThreads = "cgo-threads"

// BasisGoSleepCrowd marks an explosion told by one moment's structure: a
// crowd of goroutines of one creator sleeping (goSleepCrowd).
const BasisGoSleepCrowd = "goroutine-sleep-crowd"

// BasisWaitGroupUnserved marks a goroutine in WaitGroup.Wait that no
// goroutine left can bring to zero (unservedWaitGroups).
const BasisWaitGroupUnserved = "waitgroup-unserved"

// BasisSenderGone marks goroutines waiting on a channel whose senders,
// the waiting function's own goroutines, have all returned (sendergone.go).
const BasisSenderGone = "sender-gone"
