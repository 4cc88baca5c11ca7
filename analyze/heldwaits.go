package analyze

import "github.com/dumpdiff/dumpdiff/parse"

// heldWaits are the groups whose wait the structure of the dumps says is
// the story, however few their threads (issue 33: what one dump and few
// threads can say). A group in a named wait (Resource.Named: a peer's
// reply, a pool's item, a lock) is held when, at every moment given:
//
//   - the dump is a cut a person made (parse.Dump.Cut) of application
//     threads only (a cut with the runtime's own threads is a whole dump
//     that lost its head) and the group is at least ChosenShare of them:
//     the person chose these threads, and most of what they chose waits
//     there; or
//   - the dump is whole and every application thread in it is in a named
//     wait, or holds a lock one of them waits for: nothing of the process
//     runs or rests besides the wait and its holder.
//
// and the group's threads are the very same at every moment (with more
// than one). Counts do not decide: a full dump with a few threads in a
// socket read among idle ones is never all of its application threads,
// nor is a paste of a whole dump whose head was lost most of one wait.
// The value says which ("cut" or "process"). One moment says it on one
// dump's evidence (a finding's Basis "one-dump-cut", "one-dump-process":
// it cannot tell stuck from busy); more moments, the same threads at each,
// say it as a fact ("held-cut", "held-process").
func heldWaits(r *Result) map[*Group]string {
	n := len(r.Moments)
	if n == 0 {
		return nil
	}
	why := map[*Group]string{}
	for m := range n {
		d := r.Moments[m].Dump
		if d == nil {
			return nil
		}
		app, named, internal := 0, 0, 0
		holders := lockHolders(r, m)
		for _, pl := range r.Pools {
			if pl.Internal {
				internal += pl.Counts[m]
				continue
			}
			app += pl.Counts[m]
			for _, g := range pl.States {
				switch {
				case namedWait(g):
					named += g.Counts[m]
				case g.Counts[m] > 0 && g.Category != Idle:
					// A thread that holds what the named waiters wait for
					// (a running holder, a holder that sleeps) is part of
					// their story, not other work of the process.
					for _, t := range g.Threads[m] {
						if holders[t] {
							named += max(t.Weight, 1)
						}
					}
				}
			}
		}
		// A cut that kept the runtime's own threads (the Reference
		// Handler, the GC's, the compiler's: in every whole dump, in no
		// paste of the threads that matter) is a whole dump that lost its
		// head, not a choice: it is judged as a whole one.
		// A Go paste without goroutine 1 (which runs while the process
		// lives) is a part a person chose too, cut or not (wholeGoDump);
		// a crash report is the runtime's choice, not theirs.
		chosen := (d.Cut || r.Runtime == parse.RuntimeGo && d.Kind != "panic" && !wholeGoDump(d)) && internal == 0
		for _, pl := range r.Pools {
			if pl.Internal {
				continue
			}
			for _, g := range pl.States {
				if !namedWait(g) {
					continue
				}
				w := ""
				switch {
				case g.Counts[m] == 0:
				case chosen && float64(g.Counts[m]) >= ChosenShare*float64(app):
					w = "cut"
				case !chosen && named == app:
					w = "process"
				}
				if m == 0 && w != "" {
					why[g] = w
				} else if why[g] != w {
					delete(why, g)
				}
			}
		}
	}
	if n > 1 {
		for g := range why {
			if g.held() < g.Counts[n-1] {
				delete(why, g) // some came or went between the moments: not the same wait
			}
		}
	}
	return why
}

// namedWait tells a group waiting on a named resource, not at rest.
func namedWait(g *Group) bool {
	if g.Category != Waiting || g.Rest {
		return false
	}
	res := resourceByID(g.Resource)
	return res != nil && res.Named
}

// lockHolders are the threads of moment m that hold a lock a thread of a
// named wait (a monitor, a j.u.c lock) waits for: by the lock's address
// where the holder prints it, by the owner's name where the waiter prints
// it. A few threads: the dumps heldWaits reads are small or their waits few.
func lockHolders(r *Result, m int) map[*parse.Thread]bool {
	addrs := map[string]bool{}
	owners := map[string]bool{}
	for _, pl := range r.Pools {
		for _, g := range pl.States {
			if !namedWait(g) || g.Resource != "monitor" && g.Resource != "lock" {
				continue
			}
			for _, t := range g.Threads[m] {
				for _, l := range t.Locks() {
					if l.Kind == parse.LockWaitingTo || l.Kind == parse.LockParking {
						if l.Address != "" {
							addrs[l.Address] = true
						}
						if l.Owner != "" {
							owners[l.Owner] = true
						}
					}
				}
			}
		}
	}
	if len(addrs) == 0 && len(owners) == 0 {
		return nil
	}
	out := map[*parse.Thread]bool{}
	for _, t := range r.Moments[m].Dump.Threads {
		if owners[t.Name()] {
			out[t] = true
			continue
		}
		for _, l := range t.Locks() {
			if (l.Kind == parse.LockHeld || l.Kind == parse.LockOwnable) && addrs[l.Address] {
				out[t] = true
			}
		}
	}
	return out
}

// heldBasis is the Basis of a finding on a held wait: "one-dump-cut" or
// "one-dump-process" on one moment, "held-cut" or "held-process" on more.
func heldBasis(n int, why string) string {
	if n == 1 {
		return "one-dump-" + why
	}
	return "held-" + why
}
