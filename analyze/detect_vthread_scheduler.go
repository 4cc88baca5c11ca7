package analyze

import (
	"cmp"
	"slices"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Thresholds of the virtual-thread scheduler's saturation.
const (
	// SchedMinMoments readings in a row, to the last: one reading cannot
	// tell a queue that drains in a millisecond (a burst of requests
	// fanning out) from one that never does.
	SchedMinMoments = 2
	// SchedMinQueued virtual threads waiting for a carrier at each of
	// them: a fan-out of a few dozen tasks queues for microseconds while
	// every carrier is busy, and a healthy service reads 0 between its
	// bursts (testdata/verdicts/vthread-sched-healthy: 0 at every moment).
	SchedMinQueued = 100
	// SchedDrainingShare: a queue that has fallen below this share of its
	// peak by the last moment is draining (the carriers catch up), not
	// saturated.
	SchedDrainingShare = 0.5
)

var vthreadSchedulerDetector = &Detector{
	Name:  KindVThreadSchedulerSaturated,
	Kinds: []string{KindVThreadSchedulerSaturated},
	Doc: "every carrier of the JVM's virtual-thread scheduler is mounted while its queue of virtual threads stays high or grows, from a moment to the last " +
		"(jcmd Thread.vthread_scheduler beside the dumps, JDK 24+), with what the mounted virtual threads do (pinned in a wait, or running)",
	Thresholds: []Threshold{
		{"SchedMinMoments", SchedMinMoments, "one reading cannot tell a queue that drains in a millisecond from one that never does"},
		{"SchedMinQueued", SchedMinQueued, "a fan-out queues a few dozen virtual threads for microseconds while every carrier is busy; a healthy service reads 0 between bursts"},
		{"SchedDrainingShare", SchedDrainingShare, "a queue below half its peak at the last moment is draining: the carriers catch up"},
	},
	Folds: "nothing: the pools of the virtual threads it queues rise as its consequence (their timeline findings stand beside it)",
	Run:   runVThreadScheduler,
}

// SchedulerReading is the virtual-thread scheduler at one moment
// (parse.VThreadScheduler's counts); Read is false for a moment without
// a reading.
type SchedulerReading struct {
	Read        bool
	Parallelism int
	Size        int
	Mounted     int
	Queued      int64
}

// schedSaturated reports whether a reading has every carrier mounted and
// at least SchedMinQueued virtual threads waiting for one.
func schedSaturated(s *parse.VThreadScheduler) bool {
	return s != nil && s.Parallelism > 0 && s.Mounted >= s.Parallelism && s.Queued >= SchedMinQueued
}

// runVThreadScheduler finds, per target, the run of saturated readings
// that ends at the target's last moment; SchedMinMoments of them make a
// finding, unless the queue is draining. What the mounted virtual
// threads do at the last moment is its evidence: blocked while mounted
// (pinned: a native frame or a class initializer under the wait) or
// running (CPU-bound work that never yields its carrier).
func runVThreadScheduler(p *Pass) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeJVM {
		return nil
	}
	byTarget := map[string][]int{}
	var targets []string
	for m, mo := range r.Moments {
		if _, ok := byTarget[mo.Target]; !ok {
			targets = append(targets, mo.Target)
		}
		byTarget[mo.Target] = append(byTarget[mo.Target], m)
	}
	var fs []Finding
	for _, target := range targets {
		ms := byTarget[target]
		last := ms[len(ms)-1]
		run := 0
		for k := len(ms) - 1; k >= 0 && schedSaturated(sched(r, ms[k])); k-- {
			run++
		}
		if run < SchedMinMoments {
			continue
		}
		since := ms[len(ms)-run]
		var peak int64
		for _, m := range ms[len(ms)-run:] {
			peak = max(peak, sched(r, m).Queued)
		}
		if float64(sched(r, last).Queued) < SchedDrainingShare*float64(peak) {
			continue
		}
		fs = append(fs, schedFinding(p, target, since, last))
	}
	return fs
}

func sched(r *Result, m int) *parse.VThreadScheduler {
	if d := r.Moments[m].Dump; d != nil {
		return d.Scheduler
	}
	return nil
}

// schedFinding is the finding of target's scheduler saturated from moment
// since to last.
func schedFinding(p *Pass, target string, since, last int) Finding {
	r := p.R
	f := Finding{ID: findingID(KindVThreadSchedulerSaturated, target), Kind: KindVThreadSchedulerSaturated, Severity: Critical,
		At: last, Since: since, FromStart: since == 0}
	f.Scheduler = make([]SchedulerReading, len(r.Moments))
	for m := range r.Moments {
		if s := sched(r, m); s != nil && r.Moments[m].Target == target {
			f.Scheduler[m] = SchedulerReading{Read: true, Parallelism: s.Parallelism, Size: s.Size, Mounted: s.Mounted, Queued: s.Queued}
		}
	}
	s := sched(r, last)
	f.Limit = Limit{Size: s.Parallelism, Source: "observed", What: "virtual-thread scheduler parallelism"}
	// What the mounted virtual threads do at the last moment, by pool,
	// state and culprit: a virtual thread that waits while mounted holds
	// its carrier (pinned); one that runs holds it until it is done.
	d := r.Moments[last].Dump
	type key struct{ pool, state, culprit string }
	groups := map[key]*HolderGroup{}
	blocked := map[key]bool{} // the group waits while mounted: pinned
	pinned, running := 0, 0
	var ev Evidence
	ev.Moment = last
	for _, t := range d.Threads {
		if !mountedVirtual(d, t) {
			continue
		}
		info := p.info(last, t)
		k := key{info.pool, info.state, info.culprit}
		switch {
		case info.sig != nil && (info.sig.Category == Waiting || info.sig.Category == Idle),
			info.sig == nil && t.State != "" && t.State != "RUNNABLE":
			pinned++
			blocked[k] = true
		default:
			running++
		}
		if groups[k] == nil {
			groups[k] = &HolderGroup{Pool: info.pool, State: info.state, Culprit: info.culprit}
		}
		groups[k].Count++
		ev.Count++
		if len(ev.Threads) < 5 {
			ev.Threads = append(ev.Threads, threadLabel(r.Runtime, t))
		}
	}
	for _, g := range groups {
		f.Holders = append(f.Holders, *g)
	}
	slices.SortFunc(f.Holders, func(a, b HolderGroup) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Pool, b.Pool), cmp.Compare(a.State, b.State), cmp.Compare(a.Culprit, b.Culprit))
	})
	if ev.Count > 0 {
		f.Evidence = []Evidence{ev}
	}
	// The headline group: the pinned ones when any (they are why a
	// carrier does no work), else the most.
	switch {
	case pinned > 0:
		f.Basis = "pinned"
	case running > 0:
		f.Basis = "running"
	}
	for _, h := range f.Holders {
		if f.Basis == "pinned" && !blocked[key{h.Pool, h.State, h.Culprit}] {
			continue
		}
		f.Pool, f.State, f.Culprit = h.Pool, h.State, h.Culprit
		break
	}
	f.Waiting = int(min(s.Queued, int64(^uint(0)>>1)))
	f.Pinned = pinned
	return f
}

// mountedVirtual reports whether t is a virtual thread on a carrier: a
// virtual thread a JSON or plain dump prints with its carrier, or, in a
// dump that lists no virtual threads (Thread.print), a carrier that
// prints the one it carries.
func mountedVirtual(d *parse.Dump, t *parse.Thread) bool {
	j := t.Java()
	if showsVirtual(d.Format) {
		return j.Virtual && j.Carrier != ""
	}
	return j.MountedVirtual > 0
}
