package capture

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// HandlerPath is where package handler is served, relative to a target's
// pprof base (".../debug/pprof"): capture asks for it first and falls back
// to net/http/pprof when it answers 404.
const HandlerPath = "/dumpdiff/goroutine"

// FlightPath is where package handler's flight recorder is served,
// relative to a target's pprof base (handler.FlightPath).
const FlightPath = "/dumpdiff/flight"

// What one full Go dump costs the target, for the pause budget.
const (
	// stopPerGoroutine is the least stop of the world per goroutine for
	// one walk of runtime.Stack(buf, true): 3.7 µs on an idle 2-vCPU
	// machine (Go 1.26.8, 100k goroutines of mixed stacks, issue 11), a
	// little above so the estimate errs toward sparing the target.
	stopPerGoroutine = 4 * time.Microsecond
	// debug1Factor scales the server time of this moment's debug=1 per
	// goroutine (a walk of every goroutine without stopping the world) to
	// a walk of runtime.Stack. A busy target walks slower in both, so the
	// estimate follows the target's load. Measured (bench/capture-cost.sh,
	// README "Speed and memory"): 1.9 idle at 100k goroutines, 2.2 to 3.3
	// on a loaded machine at 100k, 0.9 at 10k (where debug=1's own
	// per-stack costs weigh most). 2 is the middle: a loaded target near
	// the budget may pay up to about 1.6 times it, and a 10k-goroutine one
	// is not refused a dump it can afford.
	debug1Factor = 2
	// rateMin is the fewest goroutines whose debug=1 time says how fast
	// the target walks them: below it the fixed costs of a request (a round
	// trip, scheduling; rateSlack) are most of it.
	rateMin   = 1000
	rateSlack = 5 * time.Millisecond
	// runtimeStackCap is net/http/pprof's largest debug=2 buffer: a body of
	// exactly this size was cut by the runtime.
	runtimeStackCap = 64 << 20
	// pprofFirstBuffer is the first buffer pprof tries; each retry doubles it.
	pprofFirstBuffer = 1 << 20
)

// goSide is what a run knows of one Go target across its moments.
type goSide struct {
	leak    string        // TargetRecord.GoroutineLeak: "", "served", "absent"
	handler string        // TargetRecord.Handler: "", "served", "absent"
	flight  string        // TargetRecord.Flight: "", "served", "absent"
	rate    time.Duration // this moment's debug=1 server time per goroutine; 0 when too few to tell
	rtt     time.Duration // the last TCP connect time to the target: one round trip
	perG    time.Duration // stop per goroutine and walk measured by a full dump; 0 before one
	perGAt  time.Duration // rate when perG was measured
}

// perGoroutine is the stop per goroutine and walk expected now: measured on
// this target by an earlier full dump, scaled up when its debug=1 shows it
// busier now; else from this moment's debug=1; never under the idle floor.
func (g *goSide) perGoroutine() time.Duration {
	per := max(stopPerGoroutine, time.Duration(debug1Factor*float64(g.rate)))
	if g.perG > 0 {
		per = g.perG
		if g.perGAt > 0 && g.rate > g.perGAt {
			per = time.Duration(float64(per) * float64(g.rate) / float64(g.perGAt))
		}
	}
	return per
}

// measured keeps what a full dump of n goroutines in walks walks took.
func (g *goSide) measured(stop time.Duration, n, walks int) {
	if n > 0 && walks > 0 && stop > 0 {
		g.perG, g.perGAt = stop/time.Duration(n*walks), g.rate
	}
}

// pprofWalks is how many stop-the-world walks net/http/pprof's debug=2
// makes for a dump of size bytes: one per buffer from 1 MiB, doubling,
// until one holds the dump or 64 MiB is reached (then the dump is cut).
func pprofWalks(size int64) int {
	walks := 1
	for buf := int64(pprofFirstBuffer); size >= buf && buf < runtimeStackCap; buf *= 2 {
		walks++
	}
	return walks
}

// estimate is the stop of one full dump of sh's goroutines by an endpoint
// making walks walks.
func (g *goSide) estimate(sh debug1Shape, walks int) time.Duration {
	return time.Duration(walks) * time.Duration(sh.total) * g.perGoroutine()
}

// goMoment takes one Go target at one moment:
//
//	debug=1 (count, labels; no stop) ── estimate the full dump's stop ─┬─ within budget: one full dump
//	                                                                   │   handler > goroutineleak?debug=2 > goroutine?debug=2
//	                                                                   │   (cut at 64 MiB: kept, flagged, debug=0 beside)
//	                                                                   └─ over budget: debug=0 (labels, runtime frames)
//
// The debug=1 file stays beside the moment's dump: its "total N" is the true
// count and its labels join the text's goroutines, so debug=0 is taken only
// where it adds what the text and debug=1 lack.
func (r *runner) goMoment(ctx context.Context, i int, label string) {
	t, g := r.plan.Targets[i], r.targets[i]
	prefix := t.Name + "__" + label
	var shape debug1Shape
	probe := fileJob{kind: FileGoroutineDebug1, primaryOnFail: true, name: prefix + "-debug1.txt", what: "goroutine debug=1", url: r.endpoint(i, "/goroutine?debug=1")}
	if _, ok := r.file(ctx, t, label, probe, func(ctx context.Context) (fetched, error) {
		res := fetched{kind: FileGoroutineDebug1, tool: "goroutine?debug=1"}
		af, ans, err := r.get(ctx, probe.url, "", debug1Start)
		if err != nil {
			return res, err
		}
		n, err := checkDebug1(af.head, af.lastBytes(), af.n)
		if ans.connect > 0 {
			g.rtt = ans.connect
		}
		g.rate = 0
		if n >= rateMin {
			g.rate = max(0, ans.wait-g.rtt-rateSlack) / time.Duration(n)
		}
		if err == nil {
			shape, err = shapeDebug1(af.f.Name(), n)
		}
		if err != nil {
			af.discard()
			return res, fmt.Errorf("GET %s: %w", showURL(probe.url), err)
		}
		res.af, res.goroutines = af, n
		return res, nil
	}); !ok {
		return
	}
	// The flight recorder's snapshot once the moment's dump is taken: its
	// last seconds end where the dump was.
	defer r.flight(ctx, i, label)

	budget := r.plan.MaxPause
	over := func(walks int) bool { return budget >= 0 && g.estimate(shape, walks) > budget }
	full := []fileJob{}
	if g.handler != "absent" {
		full = append(full, fileJob{kind: FileGoroutine, primary: true, name: prefix + ".txt", what: "handler", url: r.endpoint(i, HandlerPath)})
	}
	if g.leak != "absent" {
		full = append(full, fileJob{kind: FileGoroutine, primary: true, name: prefix + ".txt", what: "goroutineleak debug=2", url: r.endpoint(i, "/goroutineleak?debug=2")})
	}
	full = append(full, fileJob{kind: FileGoroutine, primary: true, name: prefix + ".txt", what: "goroutine debug=2", url: r.endpoint(i, "/goroutine?debug=2")})

	for _, j := range full {
		if ctx.Err() != nil {
			return
		}
		walks := pprofWalks(shape.bytes)
		if j.what == "handler" {
			walks = 1
		}
		if over(walks) {
			// Every endpoint left walks at least as often as this one.
			r.cheapMoment(ctx, i, label, shape, walks)
			return
		}
		cost := &Cost{Goroutines: shape.total, Passes: walks, EstimatedPauseMS: ms(g.estimate(shape, walks))}
		f, ok := r.file(ctx, t, label, j, func(ctx context.Context) (fetched, error) {
			return r.fullDump(ctx, i, j, shape, cost)
		})
		switch {
		case f.Target == "" && ctx.Err() != nil:
			return
		case f.Target == "": // 404: not served; try the next endpoint
			r.served(i, j.what, "absent")
			continue
		case j.what == "handler" || j.what == "goroutineleak debug=2":
			r.served(i, j.what, "served")
		}
		if ok && f.Partial {
			// The runtime cut the dump: debug=1 beside has the true total,
			// debug=0 adds runtime frames (wait states) for the counts.
			r.beside(ctx, i, label, fileJob{kind: FileGoroutineProto, name: prefix + ".pb.gz", what: "goroutine debug=0", url: r.endpoint(i, "/goroutine?debug=0")})
		}
		return
	}
}

// fullDump fetches a debug=2 dump (or the handler's) and checks it; a body
// of exactly pprof's 64 MiB cap that is cut is kept as a partial dump.
func (r *runner) fullDump(ctx context.Context, i int, j fileJob, shape debug1Shape, cost *Cost) (fetched, error) {
	res := fetched{kind: FileGoroutine, tool: toolOf(j), cost: cost}
	af, ans, err := r.get(ctx, j.url, "", goTextStart)
	if err != nil {
		// An optional endpoint (handler, goroutineleak) that is not there:
		// a 404, or a catch-all route answering 200 with a page.
		if (notServed(err) || errors.Is(err, errNotDump)) && j.what != "goroutine debug=2" {
			return res, errAbsent
		}
		return res, err
	}
	g, hdr := r.targets[i], ans.header
	if j.what == "handler" {
		if n, err := strconv.Atoi(hdr.Get("Dumpdiff-Goroutines")); err == nil {
			res.goroutines = n
		}
		if d, err := time.ParseDuration(hdr.Get("Dumpdiff-Stop")); err == nil {
			cost.PauseMS, cost.PauseSource = ms(d), "handler"
			if w, err := strconv.Atoi(hdr.Get("Dumpdiff-Walks")); err == nil && w > 0 {
				cost.Passes = w
			}
			g.measured(d, shape.total, cost.Passes)
		}
		if d, err := time.ParseDuration(hdr.Get("Dumpdiff-Leak-Check")); err == nil {
			cost.LeakCheckMS = ms(d)
		}
	} else {
		// pprof walks every time before it writes a byte: the wait for the
		// first byte bounds the stops from above (a round trip, and for
		// goroutineleak its collection, come with it).
		cost.Passes = pprofWalks(af.n)
		if shape.total >= rateMin {
			g.measured(ans.wait-g.rtt, shape.total, cost.Passes)
		}
	}
	err = checkGoroutineText(af.head, af.lastBytes(), af.n)
	// A body of exactly the cap is the runtime's cut, wherever it fell:
	// even on a goroutine boundary, where the text itself looks whole.
	if af.n == runtimeStackCap && j.what != "handler" && hasGoroutineHeader(af.head) {
		n, cerr := countGoroutines(af.f.Name())
		if cerr == nil {
			res.af, res.partial, res.goroutines = af, true, n
			res.warning = fmt.Sprintf("cut by the runtime's 64 MiB limit: %d of %d goroutines", n, shape.total)
			return res, nil
		}
	}
	if err != nil {
		af.discard()
		return res, fmt.Errorf("GET %s: %w", showURL(j.url), err)
	}
	res.af = af
	return res, nil
}

// cheapMoment takes the encodings that walk goroutines without stopping
// the world: the debug=0 proto as the moment's dump (it keeps runtime
// frames, hence wait states, and labels), beside the debug=1 already taken.
func (r *runner) cheapMoment(ctx context.Context, i int, label string, shape debug1Shape, walks int) {
	t, g := r.plan.Targets[i], r.targets[i]
	est := g.estimate(shape, walks)
	how := fmt.Sprintf("%d walks of net/http/pprof", walks)
	if walks == 1 {
		how = "one walk, package handler's"
	}
	note := fmt.Sprintf("over the pause budget: %d goroutines, a full dump would stop the target about %s (%s) > max-pause %s: took debug=0 and debug=1 instead",
		shape.total, roundDur(est), how, r.plan.MaxPause)
	j := fileJob{kind: FileGoroutineProto, primary: true, name: t.Name + "__" + label + ".pb.gz", what: "goroutine debug=0", url: r.endpoint(i, "/goroutine?debug=0")}
	r.file(ctx, t, label, j, func(ctx context.Context) (fetched, error) {
		res, err := r.fetchProto(ctx, j)
		res.note, res.goroutines = note, shape.total
		return res, err
	})
}

// beside takes a file beside the moment's dump.
func (r *runner) beside(ctx context.Context, i int, label string, j fileJob) {
	r.file(ctx, r.plan.Targets[i], label, j, func(ctx context.Context) (fetched, error) {
		return r.fetchProto(ctx, j)
	})
}

func (r *runner) fetchProto(ctx context.Context, j fileJob) (fetched, error) {
	res := fetched{kind: FileGoroutineProto, tool: toolOf(j)}
	af, _, err := r.get(ctx, j.url, "", gzipStart)
	if err != nil {
		return res, err
	}
	if err := checkGzipFile(af.head, af.f.Name()); err != nil {
		af.discard()
		return res, fmt.Errorf("GET %s: %w", showURL(j.url), err)
	}
	res.af = af
	return res, nil
}

// flight fetches target i's flight recorder snapshot beside the moment,
// when the plan asks for it and the target has not answered 404 to it.
func (r *runner) flight(ctx context.Context, i int, label string) {
	if r.plan.Flight {
		r.fetchFlight(ctx, i, label)
	}
}

// fetchFlight fetches target i's flight recorder snapshot beside moment
// label unless the target answered 404 to it before.
func (r *runner) fetchFlight(ctx context.Context, i int, label string) {
	if r.targets[i] == nil || r.targets[i].flight == "absent" || ctx.Err() != nil {
		return
	}
	t := r.plan.Targets[i]
	j := fileJob{kind: FileGoroutineTrace, name: t.Name + "__" + label + "-flight.trace", what: "flight", url: r.endpoint(i, FlightPath)}
	f, _ := r.file(ctx, t, label, j, func(ctx context.Context) (fetched, error) {
		res := fetched{kind: FileGoroutineTrace, tool: "handler flight recorder"}
		af, _, err := r.get(ctx, j.url, "", traceStart)
		if err != nil {
			if notServed(err) || errors.Is(err, errNotDump) {
				return res, errAbsent
			}
			return res, err
		}
		res.af = af
		return res, nil
	})
	if f.Target == "" && ctx.Err() == nil {
		r.served(i, "flight", "absent")
		return
	}
	r.served(i, "flight", "served")
}

// served records whether an optional endpoint is served by target i.
func (r *runner) served(i int, what, state string) {
	g := r.targets[i]
	ti := r.tidx[i]
	switch what {
	case "handler":
		if g.handler == state {
			return
		}
		g.handler = state
		r.update(func(m *Manifest) { m.Targets[ti].Handler = state })
	case "goroutineleak debug=2":
		if g.leak == state {
			return
		}
		g.leak = state
		r.update(func(m *Manifest) { m.Targets[ti].GoroutineLeak = state })
	case "flight":
		if g.flight == state {
			return
		}
		g.flight = state
		r.update(func(m *Manifest) { m.Targets[ti].Flight = state })
	}
}

func toolOf(j fileJob) string {
	switch j.what {
	case "handler":
		return "handler"
	case "goroutineleak debug=2":
		return "goroutineleak?debug=2"
	case "goroutine debug=0":
		return "goroutine?debug=0"
	}
	return "goroutine?debug=2"
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
