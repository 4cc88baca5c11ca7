package analyze

import "github.com/dumpdiff/dumpdiff/parse"

// Peer waits of one whole dump (issue 33): a named wait on a peer (a
// socket read under a DB driver's query, an HTTP client's round trip, a
// gRPC call) that holds a real share of a pool's workers, each inside the
// unit of work its pool gave it, is that pool's story at one moment,
// however many other threads the dump has. One dump cannot tell stuck
// from busy: the finding says it on that moment's evidence and asks for
// another. Its thresholds, PeerShare and PeerWaitMin, are the stuck
// detector's (detect_stuck.go).

// peerResources are the resources a peer wait is on: a reply, a connect,
// a peer draining what is written. Locks are contention's, pooled items
// the pool-exhausted detector's.
// Not a [roles] key: resource ids of the signature table, which a team's
// [signature] row names (resource =).
var peerResources = map[string]bool{"peer-reply": true, "peer-connect": true, "peer-drain": true}

// timedWaitFrames prove that a peer wait has a deadline (JDK 13+'s timed
// socket read and connect): it ends by it, so one dump of many threads in
// it is a slow peer behind a timeout, not a wait that may never end.
// Not a [roles] key: the JDK's own timed socket waits, a JDK fact.
var timedWaitFrames = []string{"sun.nio.ch.NioSocketImpl.timedRead", "sun.nio.ch.NioSocketImpl.timedFinishConnect"}

// poolPeerWaits are the groups of a single whole dump (one moment, not a
// cut a person made) in a named peer wait, a known client's (the via),
// each thread inside a unit of
// work (a JVM pool's task; a Go goroutine under a server's unit of work or
// a call its own loop made, workLevel underCall and more), that are at
// least PeerShare of their pool and PeerWaitMin threads. Own loops (a
// reader per connection, a consumer per partition) wait on their peer by
// design and are not counted.
func poolPeerWaits(r *Result, roles *Roles) map[*Group]bool {
	if len(r.Moments) != 1 || r.Moments[0].Dump == nil {
		return nil
	}
	d := r.Moments[0].Dump
	var out map[*Group]bool
	for _, pl := range r.Pools {
		if pl.Internal || d.Cut && !hasInternal(r) {
			continue
		}
		for _, g := range pl.States {
			n := g.Counts[0]
			// A known client below the wait (the via) names the peer: a
			// read with none may be a server's thread reading its own
			// client's next request (a thread per connection).
			if !namedWait(g) || !peerResources[g.Resource] || g.Via == "" || n < PeerWaitMin || float64(n) < PeerShare*float64(pl.Counts[0]) {
				continue
			}
			if 2*inWork(r.Runtime, g, roles) <= n || timedWait(g) || bodyRead(g) {
				continue
			}
			if out == nil {
				out = map[*Group]bool{}
			}
			out[g] = true
		}
	}
	return out
}

// inWork is how many of g's threads at the only moment wait inside a unit
// of work: a pool's task (JVM), or under a server's unit of work or a call
// the goroutine's own loop made (Go).
func inWork(rt parse.Runtime, g *Group, roles *Roles) int {
	if rt != parse.RuntimeGo {
		return g.tasks(0)
	}
	n := 0
	for _, t := range g.Threads[0] {
		if goWork(t, roles.GoWork) > ownLoop {
			n += max(t.Weight, 1)
		}
	}
	return n
}

// bodyRead: g's stack at the only moment reads the body of an HTTP
// response whose head has come (bodyReadFrames, detect_leaked.go): the
// peer answered and streams the rest at its own pace, not a wait for a
// reply. A pool of streams (a proxy copying 600 upstream
// bodies, each chunk 100 ms apart) is mostly in that read at any instant
// by design: one dump shows the streams' pace, not a peer that does not
// answer (testdata/verdicts/shapes-body-stream-healthy). A body that
// never ends is told over moments (ids that stay, printed minutes).
func bodyRead(g *Group) bool {
	t := g.Stacks[0]
	if t == nil {
		return false
	}
	for _, f := range t.Frames {
		if anyPrefix(f.Func, bodyReadFrames) {
			return true
		}
	}
	return false
}

// timedWait: g's stack at the only moment shows its wait's deadline.
func timedWait(g *Group) bool {
	t := g.Stacks[0]
	if t == nil {
		return false
	}
	for _, f := range t.Frames {
		if anyPrefix(f.Func, timedWaitFrames) {
			return true
		}
	}
	return false
}

// hasInternal: the dump has the runtime's own threads, so a cut of it is
// a whole dump that lost its head (heldWaits), not a person's choice.
func hasInternal(r *Result) bool {
	for _, pl := range r.Pools {
		if pl.Internal && pl.Counts[0] > 0 {
			return true
		}
	}
	return false
}
