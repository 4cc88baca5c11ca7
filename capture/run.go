package capture

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/private"
)

// Run carries out the plan: it takes every target at each moment of the
// schedule, writes the files and manifest.json into p.OutDir, and reports
// progress to prog (nil for none).
//
// A failing file (refused, timed out, 401, truncated, not a dump, pid gone,
// command failed, too large) is recorded in the manifest with a one-line
// error naming target and moment, reported to prog, and the schedule goes on;
// the other files of that target and moment are not tried when the primary
// one fails. Run returns an error only when the plan is invalid, the out
// folder or manifest cannot be written, no dump at all was captured, or ctx
// ends: then the file in flight is discarded, the manifest is written with
// its Error set, and the error summarizes what was kept.
//
// The returned Manifest is what manifest.json holds; it is non-nil whenever
// the out folder could be set up. So a caller can tell:
//   - *PlanError (errors.As): the plan was refused; nothing was created and
//     the Manifest is nil.
//   - Manifest nil, other error: the out folder or the first manifest could
//     not be written; nothing worth reading is there.
//   - A run that kept no file at all leaves its manifest (what was tried
//     and why it failed) in a folder the next run may take over: a
//     capture without a dump is no capture to protect (inspectOutDir). A
//     *StoppedError says the run stopped after its first moment because
//     no target could answer (Plan.KeepTrying goes on).
//   - Manifest non-nil: manifest.json in p.OutDir records what was taken.
//     When ctx ended, errors.Is(err, context.Canceled) (or
//     DeadlineExceeded) holds and the text already names the folder:
//     "interrupted after 3 moments: 2 files kept in DIR, 1 discarded:
//     interrupt signal received".
//
// No error text starts with "capture", so a caller can prefix it with
// "capture: ". Error texts never hold the plan's secrets (see Plan.Headers).
func Run(ctx context.Context, p Plan, prog Progress) (*Manifest, error) {
	plan, err := p.normalize()
	if err != nil {
		return nil, p.secrets().scrubErr(err)
	}
	prev, err := inspectOutDir(plan.OutDir, plan.Append)
	if err != nil {
		var oe *OutDirError
		if errors.As(err, &oe) {
			return nil, p.secrets().scrubErr(&PlanError{Problems: []error{oe}})
		}
		return nil, p.secrets().scrubErr(fmt.Errorf("reading output folder: %w", err))
	}
	if err := os.MkdirAll(plan.OutDir, private.Dir); err != nil {
		return nil, p.secrets().scrubErr(fmt.Errorf("creating output folder: %w", err))
	}
	r := newRunner(plan, prog, prev)
	if err := r.man.update(func(m *Manifest) {}); err != nil {
		return nil, r.secrets.scrubErr(err)
	}
	if plan.Load == "" {
		err = r.runFixed(ctx)
	} else {
		err = r.runLoad(ctx)
	}
	if err == nil {
		err = r.fatalErr()
	}
	m := r.man.snapshot()
	if err == nil && okPrimaries(m) == 0 {
		err = fmt.Errorf("no dump captured: all %d attempts failed (see %s)", m.Failed(), ManifestName)
		for _, f := range m.Files {
			if f.Primary && f.Error != "" {
				err = fmt.Errorf("no dump captured: all %s failed; first: %s", plural(failedPrimaries(m), "attempt"), f.Error)
				break
			}
		}
	}
	if err != nil {
		err = r.secrets.scrubErr(r.summarize(ctx, m, err))
	}
	if werr := r.man.update(func(m *Manifest) {
		m.Finished = time.Now()
		if err != nil {
			m.Error = err.Error()
		}
	}); werr != nil && err == nil {
		err = r.secrets.scrubErr(werr)
	}
	r.emit(Event{Kind: EventDone, Time: time.Now(), Err: err, Manifest: r.man.snapshot()})
	return r.man.snapshot(), err
}

// stopEarly is the StoppedError of a run whose first moment failed for
// every target for a StopReason; nil when a target may still answer, or
// the plan keeps trying.
func (r *runner) stopEarly(label string) error {
	if r.plan.KeepTrying {
		return nil
	}
	m := r.man.snapshot()
	var failed []File
	for _, t := range r.plan.Targets {
		var primary *File
		for k := range m.Files {
			if f := &m.Files[k]; f.Moment == label && f.Target == t.Name && f.Primary {
				primary = f
			}
		}
		if primary == nil || primary.OK() || !slices.Contains(StopReasons, primary.Reason) {
			return nil
		}
		failed = append(failed, *primary)
	}
	if len(failed) == 0 {
		return nil
	}
	return &StoppedError{Failures: failed}
}

func failedPrimaries(m *Manifest) int {
	n := 0
	for _, f := range m.Files {
		if f.Primary && f.Error != "" {
			n++
		}
	}
	return n
}

func okPrimaries(m *Manifest) int {
	n := 0
	for _, f := range m.Files {
		if f.Primary && f.OK() {
			n++
		}
	}
	return n
}

// summarize wraps the error of a run ended by ctx with what was kept and
// discarded; other errors are returned as they are. The text does not start
// with "capture": callers prefix it with that.
func (r *runner) summarize(ctx context.Context, m *Manifest, err error) error {
	if ctx.Err() == nil {
		return err
	}
	if !errors.Is(err, ctx.Err()) {
		// A cause of its own (context.WithCancelCause): keep
		// errors.Is(err, context.Canceled) true all the same.
		err = fmt.Errorf("%w (%w)", err, ctx.Err())
	}
	kept := 0
	for _, f := range m.Files {
		if f.OK() {
			kept++
		}
	}
	return fmt.Errorf("interrupted after %s: %s kept in %s, %d discarded: %w",
		plural(len(m.Moments), "moment"), plural(kept, "file"), r.plan.OutDir, r.discarded, err)
}

// runner is the state of one Run.
type runner struct {
	plan    Plan
	client  *http.Client
	secrets secrets
	man     *manifestWriter

	progMu sync.Mutex // Progress.Event is never called concurrently
	prog   Progress

	mu        sync.Mutex
	fatal     error     // first manifest write error; ends the run
	discarded int       // files in flight when ctx ended
	bases     []string  // per pprof or Actuator target: its base URL, no query
	queries   []string  // per target: the user's own query (Target.userQuery), sent with every request
	tidx      []int     // per target: its index in Manifest.Targets
	targets   []*goSide // per pprof target: what is known of it; nil for others
	jvm       []*jvmSide

	// nextIndex is the Index of the next moment: one more than the last
	// taken, whether or not a Recorder has forgotten it since (a ring
	// smaller than two moments forgets all it holds before each Take).
	nextIndex int

	run        int    // this run's number in an appended capture, from 0
	fixedBase  int    // fixed labels go on from here (the last numeric label of earlier runs)
	loadPrefix string // prefix of this run's load labels ("run2-") when "before" is taken
}

// newRunner sets up the run's manifest: a new one, or prev's (an appended
// capture) with its last run moved to PreviousRuns.
func newRunner(plan Plan, prog Progress, prev *Manifest) *runner {
	sec := plan.secrets()
	r := &runner{
		plan:    plan,
		client:  &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone(), CheckRedirect: checkRedirect},
		secrets: sec,
		man:     &manifestWriter{dir: plan.OutDir},
		prog:    prog,
		bases:   make([]string, len(plan.Targets)),
		queries: make([]string, len(plan.Targets)),
		tidx:    make([]int, len(plan.Targets)),
		targets: make([]*goSide, len(plan.Targets)),
		jvm:     make([]*jvmSide, len(plan.Targets)),
	}
	m := &r.man.m
	if prev != nil {
		*m = *prev
		m.PreviousRuns = append(m.PreviousRuns, RunRecord{Started: prev.Started, Finished: prev.Finished,
			Schedule: prev.Schedule, Load: prev.Load, Error: prev.Error, MaxPause: prev.MaxPause})
		m.Finished, m.Load, m.Error = time.Time{}, nil, ""
		r.run = len(m.PreviousRuns)
		if n := len(m.Moments); n > 0 {
			r.nextIndex = m.Moments[n-1].Index + 1
		}
		used := map[string]bool{}
		for _, mo := range m.Moments {
			used[mo.Label] = true
			if n, err := strconv.Atoi(mo.Label); err == nil && n > r.fixedBase {
				r.fixedBase = n
			}
		}
		for k := r.run + 1; used[r.loadPrefix+"before"]; k++ {
			r.loadPrefix = "run" + strconv.Itoa(k) + "-"
		}
	}
	m.Version = ManifestVersion
	m.Started = time.Now()
	m.MaxPause = plan.MaxPause.String()
	if plan.MaxPause < 0 {
		m.MaxPause = "none"
	}
	m.Schedule = ScheduleRecord{Kind: scheduleEvery, Count: plan.Count}
	if plan.Every > 0 {
		m.Schedule.Every = plan.Every.String()
	}
	if plan.Load != "" {
		m.Schedule = ScheduleRecord{Kind: scheduleLoad, Every: plan.Every.String(), After: plan.After.String(), Load: sec.scrub(plan.Load)}
	}
	if m.Targets == nil {
		m.Targets = []TargetRecord{}
	}
	if m.Moments == nil {
		m.Moments = []Moment{}
	}
	if m.Files == nil {
		m.Files = []File{}
	}
	names := map[string]bool{}
	for _, t := range plan.Targets {
		names[t.Name] = true
	}
	for i := range r.plan.Targets {
		t := &r.plan.Targets[i]
		// Name was scrubbed by normalize; an exec target's source is its command.
		rec := TargetRecord{Name: t.Name, Kind: t.Kind, Source: sec.scrub(t.Source())}
		r.tidx[i] = -1
		for j, old := range m.Targets {
			if old.Name != t.Name {
				continue
			}
			if old.Kind == rec.Kind && old.Source == rec.Source {
				r.tidx[i] = j // the same process as in an earlier run: one timeline
				break
			}
			// Another process under an earlier run's name: a name of its own.
			base := t.Name
			for n := 2; names[t.Name] || r.recorded(t.Name); n++ {
				t.Name = base + "-" + strconv.Itoa(n)
			}
			names[t.Name] = true
			rec.Name = t.Name
			break
		}
		if r.tidx[i] < 0 {
			r.tidx[i] = len(m.Targets)
			m.Targets = append(m.Targets, rec)
		}
		switch t.Kind {
		case KindPprof, KindActuator:
			r.bases[i], _ = t.baseURL() // validated by normalize
			r.queries[i] = t.userQuery()
		}
		if t.Kind == KindPprof {
			old := m.Targets[r.tidx[i]]
			r.targets[i] = &goSide{leak: old.GoroutineLeak, handler: old.Handler, flight: old.Flight}
		}
		if t.Kind == KindJVM {
			r.jvm[i] = &jvmSide{sched: m.Targets[r.tidx[i]].VThreadScheduler}
		}
	}
	return r
}

// endpoint is the URL of path under target i's base, with the user's query.
func (r *runner) endpoint(i int, path string) string {
	return withQuery(r.bases[i]+path, r.queries[i])
}

// recorded reports whether the manifest already has a target named name.
func (r *runner) recorded(name string) bool {
	for _, t := range r.man.m.Targets {
		if t.Name == name {
			return true
		}
	}
	return false
}

func (r *runner) emit(e Event) {
	if r.prog == nil {
		return
	}
	r.progMu.Lock()
	defer r.progMu.Unlock()
	r.prog.Event(e)
}

func (r *runner) fatalErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fatal
}

// update writes the manifest; the first failure ends the run after the
// current moment (a full disk will not get better).
func (r *runner) update(fn func(*Manifest)) {
	if err := r.man.update(fn); err != nil {
		r.mu.Lock()
		if r.fatal == nil {
			r.fatal = err
		}
		r.mu.Unlock()
	}
}

// moment takes every target concurrently and returns when all are done.
func (r *runner) moment(ctx context.Context, label string, planned time.Time) {
	started := time.Now()
	r.update(func(m *Manifest) {
		// Index counts on from the last moment taken: a Recorder forgets
		// its oldest moments (all of them, in a ring of less than two),
		// and an index is never given twice.
		index := r.nextIndex
		if n := len(m.Moments); n > 0 {
			index = max(index, m.Moments[n-1].Index+1)
		}
		r.nextIndex = index + 1
		m.Moments = append(m.Moments, Moment{Label: label, Index: index, Planned: planned, Started: started, Run: r.run})
	})
	r.emit(Event{Kind: EventMoment, Time: started, Moment: label, Late: started.Sub(planned)})
	var wg sync.WaitGroup
	for i := range r.plan.Targets {
		wg.Go(func() { r.target(ctx, i, label) })
	}
	wg.Wait()
}

// fileJob is one file to take for a target at a moment.
type fileJob struct {
	kind    FileKind
	primary bool
	// primaryOnFail records a failure of this file as the moment's primary:
	// the count asked before a Go dump, without which no dump is taken.
	primaryOnFail bool
	name          string // final file name; for commands the extension follows the content
	what          string // for messages: "goroutine debug=2", "jcmd/jstack", "command"
	url           string // HTTP targets only
}

// fetched is what a fetch produced: an uncommitted file and what is known
// of it, copied into its File record.
type fetched struct {
	af         *atomicFile
	kind       FileKind
	ext        string // appended to fileJob.name (commands: by content)
	tool       string
	goroutines int
	partial    bool
	warning    string
	note       string
	cost       *Cost
}

// target takes one target's files for a moment.
func (r *runner) target(ctx context.Context, i int, label string) {
	t := r.plan.Targets[i]
	prefix := t.Name + "__" + label
	switch t.Kind {
	case KindPprof:
		r.goMoment(ctx, i, label)
	case KindActuator:
		j := fileJob{kind: FileActuator, primary: true, name: prefix + ".json", what: "actuator threaddump", url: r.endpoint(i, "")}
		r.file(ctx, t, label, j, func(ctx context.Context) (fetched, error) {
			af, err := r.fetchActuator(ctx, j.url)
			return fetched{af: af, kind: FileActuator}, err
		})
	case KindJVM:
		j := fileJob{kind: FileJVM, primary: true, name: prefix, what: "jcmd/jstack"}
		f, ok := r.file(ctx, t, label, j, func(ctx context.Context) (fetched, error) {
			return r.jvmDump(ctx, i)
		})
		if !ok {
			return
		}
		if want, _ := r.wantLockOwners(i); want && f.Kind == FileJVMJSON {
			b := fileJob{kind: FileJVM, name: prefix + "-locks", what: "jcmd -l (lock owners)"}
			r.file(ctx, t, label, b, func(ctx context.Context) (fetched, error) {
				return r.lockOwners(ctx, i)
			})
		}
		r.vthreadScheduler(ctx, i, label)
	case KindExec:
		j := fileJob{kind: FileUnknown, primary: true, name: prefix, what: "command"}
		r.file(ctx, t, label, j, func(ctx context.Context) (fetched, error) {
			af, err := runToFile(ctx, r.plan.OutDir, r.plan.MaxBytes, r.plan.Timeout, []string{"sh", "-c", t.Command})
			if err != nil {
				return fetched{kind: FileUnknown}, err
			}
			kind, err := detectCommandOutput(af.head, af.lastBytes(), af.n, af.f.Name())
			if err != nil {
				af.discard()
				return fetched{kind: kind}, withReason(ReasonNotADump, err)
			}
			return fetched{af: af, kind: kind, ext: extension(kind)}, nil
		})
	}
}

// fetchFunc produces an uncommitted file and what is known of it; on
// error, what it returns still names the kind tried.
type fetchFunc func(context.Context) (fetched, error)

// file runs fetch, commits its result under j.name, records it (or its
// failure) in the manifest and reports it. It returns the record and
// whether a file was written. errAbsent records nothing.
func (r *runner) file(ctx context.Context, t Target, label string, j fileJob, fetch fetchFunc) (File, bool) {
	if ctx.Err() != nil {
		return File{}, false // interrupted before it started: nothing to record
	}
	start := time.Now()
	res, err := fetch(ctx)
	if errors.Is(err, errAbsent) {
		return File{}, false
	}
	kind := res.kind
	if kind == "" {
		kind = j.kind
	}
	f := File{Target: t.Name, Moment: label, Kind: kind, Primary: j.primary, Tool: res.tool, Started: start,
		Goroutines: res.goroutines, Partial: res.partial, Warning: r.secrets.clean(res.warning, 0), Note: r.secrets.clean(res.note, 0), Cost: res.cost}
	if err == nil {
		name := j.name + res.ext
		size := res.af.n
		if err = res.af.commit(name); err == nil {
			f.Path, f.Size = name, size
		}
	}
	if err != nil {
		f.Primary = j.primary || j.primaryOnFail
		f.Partial, f.Warning, f.Goroutines = false, "", 0
		f.Reason = reasonOf(ctx, err, r.plan.OutDir)
		if ctx.Err() != nil {
			r.mu.Lock()
			r.discarded++
			r.mu.Unlock()
			f.Interrupted = true
			err = fmt.Errorf("interrupted, nothing kept: %w", context.Cause(ctx))
		}
		// One line, secrets scrubbed, server bytes made inert: it goes to
		// the terminal and the manifest.
		f.Error = r.secrets.clean(fmt.Sprintf("%s at %s: %s: %s", t.Name, label, j.what, err.Error()), 0)
	}
	f.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	r.update(func(m *Manifest) {
		m.Files = append(m.Files, f)
		for ti := range m.Targets {
			if m.Targets[ti].Name == f.Target {
				m.Targets[ti].count(f)
			}
		}
	})
	r.emit(Event{Kind: EventFile, Time: time.Now(), Moment: label, Target: t.Name, File: &f})
	return f, f.OK()
}

func extension(k FileKind) string {
	if k == FileGoroutineProto {
		return ".pb.gz"
	}
	return ".txt"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
