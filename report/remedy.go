package report

import (
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// What to do, as data (issue 34): a remedy per finding kind and state,
// each said only where the frames prove what it assumes. The first row
// that applies is the finding's; a finding no row fits gets none: a remedy
// is never guessed.
//
// A row's proof reads the finding's representative stack (its pool and
// state's, at the moment it is about) and its entry points:
//   - a JDK socket read with no timeout is SocketDispatcher.read0 reached
//     through NioSocketImpl.tryRead without NioSocketImpl.timedRead (JDK
//     13+; JDK 8's socketRead0 takes its timeout as an argument no frame
//     shows, so nothing is claimed there); with timedRead a timeout is
//     set, and the remedy is the bulkhead, not the timeout;
//   - a connection pool whose waiters include a health check (an entry
//     point or frame named Health...) has the load balancer's check in the
//     queue: it fails a healthy instance;
//   - supplyAsync without an executor on a machine whose common pool has
//     no parallelism runs CompletableFuture$AsyncSupply.run straight under
//     Thread.run, a thread per task.
type remedyRow struct {
	kinds  []string // finding kinds it answers; empty: any
	states []string // state ids; empty: any
	proof  func(p remedyProof) bool
	text   string // {culprit} is the finding's culprit, shortened
}

// remedyProof is what a row's proof reads.
type remedyProof struct {
	frames  []*parse.Frame
	entries []analyze.FrameCount
	// heldMinutes is the longest wait a lock's waiter printed (Go), when
	// the finding is about a lock not had in minutes; 0 otherwise.
	heldMinutes int
	basis       string // the finding's Basis
}

// poolSelfWait: a pool waiting on its own queued work (a deadlock through
// its queue, not its locks).
func (p remedyProof) poolSelfWait() bool { return p.basis == "pool-self-wait" }

func (p remedyProof) has(fn string) bool {
	for _, f := range p.frames {
		if strings.HasSuffix(f.Func, fn) {
			return true
		}
	}
	return false
}

// untimedRead: a blocking JDK socket read with no timeout set.
func (p remedyProof) untimedRead() bool {
	// JDK 13+ only: JDK 8's SocketInputStream.socketRead0 takes its
	// timeout as an argument, which no frame shows.
	return p.has("SocketDispatcher.read0") && p.has("NioSocketImpl.tryRead") &&
		!p.has("NioSocketImpl.timedRead") && !p.has("Net.poll")
}

// timedRead: a JDK socket read bounded by a timeout (SO_TIMEOUT).
func (p remedyProof) timedRead() bool { return p.has("NioSocketImpl.timedRead") }

// healthCheckWaits: a health check among the threads that wait.
func (p remedyProof) healthCheckWaits() bool {
	for _, e := range p.entries {
		if strings.Contains(strings.ToLower(e.Func), "health") {
			return true
		}
	}
	for _, f := range p.frames {
		if strings.Contains(strings.ToLower(f.Func), "health") {
			return true
		}
	}
	return false
}

// threadPerTask: CompletableFuture's task run on a thread of its own (no
// pool worker between it and Thread.run).
func (p remedyProof) threadPerTask() bool {
	n := len(p.frames)
	for i, f := range p.frames {
		if (strings.HasSuffix(f.Func, "CompletableFuture$AsyncSupply.run") || strings.HasSuffix(f.Func, "CompletableFuture$AsyncRun.run")) &&
			i+1 < n && strings.HasSuffix(p.frames[i+1].Func, "java.lang.Thread.run") {
			return true
		}
	}
	return false
}

var remedyRows = []remedyRow{
	{kinds: []string{analyze.KindExplosion}, proof: remedyProof.threadPerTask,
		text: "CompletableFuture.supplyAsync runs each task on a new thread here (no executor given, and the common pool has no parallelism on this machine): give it a bounded executor, and a read timeout to what the tasks call ({culprit})"},
	{kinds: []string{analyze.KindDBPoolExhausted}, proof: remedyProof.healthCheckWaits,
		text: "the health check waits for a connection like the requests, so the load balancer will take a healthy instance out: take the health check off the pool; then size the pool for the query time and load (or shorten what holds the connections)"},
	{kinds: []string{analyze.KindDBPoolExhausted},
		text: "every connection is held: size the pool for the query time and load, or shorten what holds the connections (the holders' frames are below)"},
	{states: []string{"socket-read"}, proof: remedyProof.untimedRead,
		text: "the socket read has no timeout (SocketDispatcher.read0 without NioSocketImpl.timedRead): set a read timeout on the client ({culprit}) and bound how many threads may call it at once (a bulkhead)"},
	{kinds: []string{analyze.KindNotRecovered, analyze.KindStuck, analyze.KindSaturated}, states: []string{"socket-read"}, proof: remedyProof.timedRead,
		text: "the read has a timeout, yet the threads pile up behind the slow peer: bound how many may wait on it at once (a bulkhead) so that other work keeps a thread"},
	{kinds: []string{analyze.KindDeadlock}, proof: remedyProof.poolSelfWait,
		text: "the pool's tasks wait for work they submitted to the same pool ({culprit}): run the parts on another executor (or inline), or never block a pool's thread on its own pool's futures; a restart is the only way out now"},
	{kinds: []string{analyze.KindDeadlock}, states: []string{"class-init-wait"},
		text: "the classes' static initializers wait for each other ({culprit}): initialize them in one order at startup, or take the reference to the other class out of the static initializer; a restart is the only way out now"},
	{kinds: []string{analyze.KindDeadlock},
		text: "the threads wait for each other's locks and never go on: take the locks in one order everywhere (or with a timeout); a restart is the only way out now"},
	{kinds: []string{analyze.KindLeaked, analyze.KindGrowing, analyze.KindNotRecovered}, states: []string{"chan-send"},
		text: "goroutines block sending on a channel nobody receives from any more (its reader returned, on a timeout?): give the channel room for the one answer (buffer 1), or select on the context's Done beside the send ({culprit})"},
	{kinds: []string{analyze.KindContention}, proof: func(p remedyProof) bool { return p.heldMinutes > 0 },
		text: "the lock has not been had for minutes: its holder is stuck (in I/O with no deadline, or waiting on something its waiters hold); find it in the stacks (a goroutine inside the lock's methods, past the Lock call) and give its wait a deadline, or release the lock before it waits"},
	{kinds: []string{analyze.KindContention},
		text: "one thread at a time holds the lock and the rest wait for it: shorten what the holder does under the lock, or take the slow work (I/O) out of it"},
}

// remedyOf is the first remedy row's text that fits f, or "".
func remedyOf(r *analyze.Result, f *analyze.Finding) string {
	p := remedyProof{basis: f.Basis}
	if f.Wait != nil && f.Kind == analyze.KindContention {
		p.heldMinutes = f.Wait.MaxMinutes
	}
	if g := findingGroup(r, f); g != nil {
		at := min(max(f.At, 0), len(g.Stacks)-1)
		for k := at; k >= 0 && k < len(g.Stacks); k++ {
			if g.Stacks[k] != nil {
				p.frames = g.Stacks[k].Frames
				break
			}
		}
		for k := range g.Entries {
			p.entries = append(p.entries, g.Entries[k]...)
		}
	}
	for _, row := range remedyRows {
		if len(row.kinds) > 0 && !contains(row.kinds, f.Kind) || len(row.states) > 0 && !contains(row.states, f.State) {
			continue
		}
		if row.proof != nil && !row.proof(p) {
			continue
		}
		text := row.text
		c := "the culprit"
		if f.Culprit != "" {
			c = ShortFrame(f.Culprit)
		}
		return strings.ReplaceAll(text, "{culprit}", c)
	}
	return ""
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
