package capture

import (
	"context"
	"strconv"
	"time"
)

// runFixed takes Count moments, one every Every.
func (r *runner) runFixed(ctx context.Context) error {
	start := time.Now()
	for i := 1; i <= r.plan.Count; i++ {
		label := fixedLabel(r.fixedBase+i, r.fixedBase+r.plan.Count)
		planned := start.Add(time.Duration(i-1) * r.plan.Every)
		if i > 1 {
			r.emit(Event{Kind: EventNext, Time: time.Now(), Due: planned, Moment: label})
			if w := r.waitUntil(ctx, planned, nil); w == waitCanceled {
				return context.Cause(ctx)
			}
		}
		r.moment(ctx, label, planned)
		if err := ctx.Err(); err != nil {
			return context.Cause(ctx)
		}
		if err := r.fatalErr(); err != nil {
			return err
		}
		if i == 1 {
			if err := r.stopEarly(label); err != nil {
				return err
			}
		}
	}
	return nil
}

// runLoad is the load schedule, a small state machine:
//
//	before ──start load──▶ waiting ──Every passed──▶ during-k ──▶ waiting
//	                          │ load exited
//	                          ▼
//	                      after-wait ──After passed──▶ after ──▶ done
//
// and from any state, ctx done ──▶ stop the load, record it, return.
func (r *runner) runLoad(ctx context.Context) error {
	start := time.Now()
	r.moment(ctx, r.loadPrefix+"before", start)
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if err := r.fatalErr(); err != nil {
		return err
	}
	// Nothing answers: the load is not started against it.
	if err := r.stopEarly(r.loadPrefix + "before"); err != nil {
		return err
	}

	lctx, stopLoad := context.WithCancel(ctx) // also stops it when the run fails
	defer stopLoad()
	load, rec := startLoad(lctx, r.plan.Load, r.secrets, func(line string) {
		r.emit(Event{Kind: EventLoadOutput, Time: time.Now(), Line: line})
	})
	r.update(func(m *Manifest) { m.Load = &rec })
	r.emit(Event{Kind: EventLoadStart, Time: rec.Started, Load: &rec})

	next := rec.Started.Add(r.plan.Every)
	for k := 1; ; k++ {
		label := r.loadPrefix + "during-" + strconv.Itoa(k)
		r.emit(Event{Kind: EventNext, Time: time.Now(), Due: next, Moment: label, Load: &rec})
		w := r.waitUntil(ctx, next, load.done)
		if w == waitCanceled {
			<-load.done
			r.recordLoad(load)
			return context.Cause(ctx)
		}
		if w == waitLoadExited {
			break
		}
		r.moment(ctx, label, next)
		if ctx.Err() != nil {
			<-load.done
			r.recordLoad(load)
			return context.Cause(ctx)
		}
		if err := r.fatalErr(); err != nil {
			stopLoad()
			<-load.done
			r.recordLoad(load)
			return err
		}
		next = next.Add(r.plan.Every)
		if now := time.Now(); next.Before(now) {
			next = now // late: take the next one at once, do not bunch up
		}
	}

	r.recordLoad(load)
	after := load.rec.Ended.Add(r.plan.After)
	r.emit(Event{Kind: EventNext, Time: time.Now(), Due: after, Moment: r.loadPrefix + "after"})
	if r.waitUntil(ctx, after, nil) == waitCanceled {
		return context.Cause(ctx)
	}
	r.moment(ctx, r.loadPrefix+"after", after)
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return nil
}

// recordLoad writes the exited load's record and reports it.
func (r *runner) recordLoad(load *loadRun) {
	rec := load.rec
	r.update(func(m *Manifest) { m.Load = &rec })
	r.emit(Event{Kind: EventLoadExit, Time: rec.Ended, Load: &rec})
}

type waitResult int

const (
	waitReached waitResult = iota
	waitCanceled
	waitLoadExited
)

// waitUntil sleeps until t, ctx ends, or loadDone (may be nil) is closed,
// emitting EventTick every tickEvery for countdowns. A load exit wins over
// a time reached at once, so no moment is labelled "during" after the load ended.
func (r *runner) waitUntil(ctx context.Context, t time.Time, loadDone <-chan struct{}) waitResult {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	tick := time.NewTicker(tickEvery)
	defer tick.Stop()
	for {
		select {
		case <-loadDone:
			return waitLoadExited
		default:
		}
		select {
		case <-ctx.Done():
			return waitCanceled
		case <-loadDone:
			return waitLoadExited
		case <-timer.C:
			select {
			case <-loadDone:
				return waitLoadExited
			default:
			}
			return waitReached
		case now := <-tick.C:
			r.emit(Event{Kind: EventTick, Time: now, Due: t})
		}
	}
}
