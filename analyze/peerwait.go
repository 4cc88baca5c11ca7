package analyze

import (
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A wait for a peer with no timeout, seen in few threads (issue 33:
// "thresholds relative to the pool", "a rest is proven by the loop it rests
// in"): a client's read of its own request's reply under application code.
// Two shapes prove it where a count cannot:
//
//   - peerPool (a JVM, two moments or more): a pool's threads, all of them,
//     the very same, in one client read at one application line at every
//     moment, none running between the moments, over RoundTripStay: the
//     pool is stuck whatever its size, from PeerPoolFloor;
//   - peerProgram (Go, one dump): every application goroutine waits, and
//     the only waits not on another goroutine of the program are client
//     reads (and an acceptor's rest): the program waits on the peer.
//     Its printed minutes, when the runtime printed them, are told;
//   - peerLifetime (a JVM, one dump): a whole pool in one client read,
//     each thread alive a minute or more with almost no CPU in its life.
//
// What is never counted: a server's own request-reading loop (its via
// rows rest: Tomcat, Jetty, net/http's connections; a goroutine created
// by the accept loop's function reads its client's next request), an HTTP
// client's body or a library's long poll (a Redis pop, a Kafka poll, a
// gRPC stream: no round trip), a read with no application frame (a
// library's own event loop), a thread alone in its own read (a push
// client's reader: the floor).

// BasisPeerPool, BasisPeerProgram and BasisPeerLifetime are the bases of
// the stuck findings of peerPool (in runStuck), peerProgram and
// peerLifetime.
const (
	BasisPeerPool     = "peer-pool"
	BasisPeerProgram  = "peer-program"
	BasisPeerLifetime = "peer-lifetime"
)

// serverAccepts are the frames of a JVM thread waiting for a connection.
// Not a [roles] key: the JDK's server sockets.
var serverAccepts = []string{"java.net.ServerSocket.accept", "java.net.ServerSocket.implAccept",
	"sun.nio.ch.ServerSocketChannelImpl.accept"}

// appAccepts reports whether, at moment m, a thread of the application's
// own code waits for a connection (an accept under an application frame):
// the process runs a server of its own, whose connections' threads read
// their client's next request in a plain socket read.
func appAccepts(r *Result, m int) bool {
	d := r.Moments[m].Dump
	if d == nil {
		return false
	}
	for _, t := range d.Threads {
		for _, f := range t.Frames {
			if anyPrefix(f.Func, serverAccepts) {
				if culprit(r.Runtime, t) != nil {
					return true
				}
				break
			}
		}
	}
	return false
}

// clientRead reports whether t, of group g, reads a peer's reply under
// application code as a client: the plain socket read or a round-trip
// client's (roundTrip), below an application frame.
func clientRead(rt parse.Runtime, g *Group, t *parse.Thread) bool {
	if g.State != "socket-read" || g.Category != Waiting || g.Resource != "peer-reply" {
		return false
	}
	if g.Via != "" && !roundTrip(g.Via, t) {
		return false // a server's connection, a library's long poll, an HTTP body
	}
	for _, f := range t.Frames {
		if anyPrefix(f.Func, timedReads) {
			return false // its timeout is visible: a long poll that asks again
		}
	}
	return culprit(rt, t) != nil
}

// timedReads are the frames of a JVM socket read with a timeout (JDK 13+:
// NioSocketImpl.timedRead; JDK 8's socketRead0 takes its timeout as an
// argument, which no frame shows). Not a [roles] key: a JDK fact.
var timedReads = []string{"sun.nio.ch.NioSocketImpl.timedRead"}

// peerPool reports whether g is the whole of its pool, PeerPoolFloor
// threads or more at every moment, the very same threads (Always), in a
// client read under application code, none of which ran between the
// moments (held: a wait that costs no CPU), over moments that span
// RoundTripStay: a JVM's moments, each printing its time. One thread alone
// in a read of its own is a push client's reader as often as a stuck
// call (the floor); a pool whose threads all wait at one line, all the
// time, serves at its peer's pace: none.
func peerPool(r *Result, pl *Pool, g *Group, n int) bool {
	if r.Runtime != parse.RuntimeJVM || n < 2 || g.Rest || n > len(g.Stacks) || g.Stacks[n-1] == nil {
		return false
	}
	if !clientRead(r.Runtime, g, g.Stacks[n-1]) {
		return false
	}
	first, last := r.Moments[0].Time, r.Moments[n-1].Time
	if first.IsZero() || last.IsZero() || last.Sub(first).Seconds() < RoundTripStay {
		return false
	}
	for m := range n {
		if pl.Counts[m] < PeerPoolFloor || g.Counts[m] != pl.Counts[m] {
			return false
		}
	}
	return g.Always == pl.Counts[n-1] && g.held() == g.Always && !ranOnce(r.Runtime, g, n)
}

// ranOnce reports whether a thread of g gained CPURanMin of cpu= or
// more between any two consecutive moments (StayedRan asks it of every
// two): it left its read and came back, once at least (a lookup that
// returned at the first moment and a read that never returns since).
func ranOnce(rt parse.Runtime, g *Group, n int) bool {
	for m := 1; m < n; m++ {
		before := map[threadID]*parse.Thread{}
		for _, t := range g.Threads[m-1] {
			before[identity(rt, t)] = t
		}
		for _, t := range g.Threads[m] {
			b := before[identity(rt, t)]
			if b == nil {
				continue
			}
			now, was := t.Java().CPU, b.Java().CPU
			if now > 0 && was > 0 && now-was >= CPURanMin {
				return true
			}
		}
	}
	return false
}

// peerProgram finds, in a Go dump's last moment (one dump, or every
// moment the very same goroutines), the client reads a whole program
// waits on: every application goroutine is in a wait, none running,
// sleeping or selecting (a select may hold a timer), and the waits that
// are not on another goroutine of the program (a channel, a lock, a
// WaitGroup, a Cond, main's select with no cases) are client reads under
// application code and acceptors' rests. A read by a goroutine that the
// accept loop's function created is that server's connection, reading its
// client's next request: then nothing is said. Said as a warning: one
// dump cannot tell a reply that never comes from a slow one; the printed
// minutes, where the runtime printed them, are the finding's Wait. A
// whole dump only (goroutine 1 in it): a paste a person cut leaves out
// what may run (goPasted tells its story). Said
// only where no finding of any detector is (told): a lock's holder in a
// read is contention's story, a leaked goroutine's read the leak's.
func peerProgram(p *Pass, told bool) []Finding {
	r := p.R
	n := len(r.Moments)
	if r.Runtime != parse.RuntimeGo || n == 0 || told {
		return nil
	}
	m := n - 1
	if r.Moments[m].Dump == nil || pastedDump(r.Moments[m].Dump) {
		return nil // a paste a person cut: what it left out may run
	}
	type read struct {
		pl *Pool
		g  *Group
		ts []*parse.Thread
	}
	var reads []*read
	mainState := "" // the main goroutine's state when it does not read
	byGroup := map[*Group]*read{}
	accepting := map[string]bool{} // functions of the goroutines in accept
	var created []*parse.Thread    // the reads' goroutines, to check their creators
	for _, pl := range r.Pools {
		if pl.Internal {
			continue
		}
		for _, g := range pl.States {
			if g.Counts[m] == 0 {
				continue
			}
			for _, t := range g.Threads[m] {
				switch {
				case g.State == dumpWriterState:
					// the dump's writer: neither work nor finding
				case g.State == "accept":
					for _, f := range t.Frames {
						accepting[f.Func] = true
					}
				case onMainPath(t) && !clientRead(r.Runtime, g, t):
					mainState = g.State
					if !onAnother(g, t) {
						return nil // it runs, sleeps, selects or waits on something else
					}
				case clientRead(r.Runtime, g, t):
					rd := byGroup[g]
					if rd == nil {
						rd = &read{pl: pl, g: g}
						byGroup[g] = rd
						reads = append(reads, rd)
					}
					rd.ts = append(rd.ts, t)
					created = append(created, t)
				case onAnother(g, t):
				default:
					return nil // it runs, sleeps, selects or waits on something else
				}
			}
		}
	}
	if len(created) < PeerProgramMin {
		return nil
	}
	for _, t := range created {
		if t.CreatedBy != nil && accepting[t.CreatedBy.Func] {
			return nil // a server's connection reads its client's next request
		}
	}
	mainReads := mainWaitsOnReads(r.Moments[m].Dump, created, mainState)
	var fs []Finding
	for _, rd := range reads {
		g := rd.g
		if p.explainedBy(g, m) != "" {
			continue
		}
		if n > 1 && g.Always < len(rd.ts) {
			continue // reads that returned between the moments
		}
		f := groupFinding(KindStuck, rd.pl, g, m)
		// The program's main path waiting on its reads (reading itself, or
		// waiting for the readers: mainWaitsOnReads) cannot go on until
		// its peer answers: a warning, for every read. Reads on goroutines of
		// their own while main idles are a stream's quiet reader as often
		// as a call nobody answers (a push client: main waiting for a
		// signal, its reader at rest on a quiet stream): a suspect, info.
		f.Severity = Info
		if mainReads {
			f.Severity = Warning
		}
		f.Basis = BasisPeerProgram
		f.Since, f.FromStart = m, m == 0
		f.Same = len(rd.ts)
		var mins []int
		for _, t := range rd.ts {
			if t.WaitMinutes > 0 {
				mins = append(mins, t.WaitMinutes)
			}
		}
		if len(mins) > 0 {
			slices.Sort(mins)
			f.Wait = &WaitFact{MinMinutes: mins[0], MaxMinutes: mins[len(mins)-1], Goroutines: len(mins)}
		}
		fs = append(fs, f)
	}
	return fs
}

// mainWaitsOnReads reports whether the program's main path waits on its
// reads: main reads itself, or waits in WaitGroup.Wait (for its workers,
// the readers), a lock or a channel while no os/signal loop runs. Main in
// a select with no cases, or in a receive beside os/signal's loop (a
// daemon waiting for its operator's signal), waits on nothing of the
// program: its readers may be a push client's, at rest on a quiet stream.
func mainWaitsOnReads(d *parse.Dump, reads []*parse.Thread, mainState string) bool {
	if slices.ContainsFunc(reads, onMainPath) {
		return true
	}
	switch mainState {
	case "waitgroup-wait", "mutex-wait", "rwmutex-wait", "semacquire":
		return true
	case "chan-receive", "chan-send":
		for _, t := range d.Threads {
			for _, f := range t.Frames {
				if f.Func == "os/signal.loop" || f.Func == "os/signal.signal_recv" {
					return false
				}
			}
		}
		return true
	}
	return false
}

// onMainPath reports whether t is the program's main goroutine: main.main
// the first frame under the runtime's.
func onMainPath(t *parse.Thread) bool {
	for i := len(t.Frames) - 1; i >= 0; i-- {
		if f := t.Frames[i].Func; !strings.HasPrefix(f, "runtime.") {
			return f == "main.main"
		}
	}
	return false
}

// onAnother reports whether t, of group g, waits on another goroutine of
// the program (a channel, a lock, a WaitGroup, a Cond, a semaphore) or is
// main parked for good (select with no cases): what the program's other
// goroutines do while it waits on its reads. A select with cases may wait
// on a timer, a sleep is timed: the program then still does its own work.
func onAnother(g *Group, t *parse.Thread) bool {
	if g.Category != Waiting {
		return false
	}
	if g.State == "select" {
		return strings.HasPrefix(t.State, "select (no cases)")
	}
	switch g.Resource {
	case "channel", "lock", "latch", "condition", "permit":
		return true
	}
	return false
}

// peerLifetime finds, in one JVM dump (JDK 11+: cpu= and elapsed=
// printed), a pool's threads, all of them and PeerPoolFloor or more, in
// one client read at one application line (peerPool's read, at the one
// moment), each alive PeerElapsedMin seconds or more and on CPU for at
// most PeerCPUShare of that life: threads that did almost nothing since
// they started but wait on their peer. A healthy pool whose reads return
// is seldom all in one read at one instant, and a thread that served calls
// for its life has spent more CPU; a pool started for a call in flight is
// younger. Said as a warning (one dump's evidence): elapsed= is the
// thread's age, not its wait's, and a pool of push readers idle since
// they started looks the same.
func peerLifetime(p *Pass, told bool) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeJVM || len(r.Moments) != 1 || told {
		return nil
	}
	var fs []Finding
	for _, pl := range r.Pools {
		if pl.Internal || pl.Counts[0] < PeerPoolFloor {
			continue
		}
		for _, g := range pl.States {
			if g.Counts[0] != pl.Counts[0] || g.Rest || len(g.Culprits) != 1 || len(g.Stacks) == 0 || g.Stacks[0] == nil ||
				!clientRead(r.Runtime, g, g.Stacks[0]) || p.explainedBy(g, 0) != "" {
				continue
			}
			young := false
			for _, t := range g.Threads[0] {
				j := t.Java()
				if j.Elapsed.Seconds() < PeerElapsedMin || j.CPU <= 0 || j.CPU.Seconds() > PeerCPUShare*j.Elapsed.Seconds() {
					young = true
					break
				}
			}
			if young {
				continue
			}
			f := groupFinding(KindStuck, pl, g, 0)
			f.Severity = Warning
			if appAccepts(r, 0) {
				f.Severity = Info // perhaps its own server's idle connections (appAccepts)
			}
			f.Basis = BasisPeerLifetime
			f.Since, f.FromStart = 0, true
			f.Same = g.Counts[0]
			fs = append(fs, f)
		}
	}
	return fs
}
