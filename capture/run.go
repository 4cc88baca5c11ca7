package capture

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
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
	if err := os.MkdirAll(plan.OutDir, 0o755); err != nil {
		return nil, p.secrets().scrubErr(fmt.Errorf("creating output folder: %w", err))
	}
	r := newRunner(plan, prog)
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
		if len(m.Files) > 0 {
			err = fmt.Errorf("no dump captured: all %d attempts failed; first: %s", m.Failed(), m.Files[0].Error)
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
	fatal     error // first manifest write error; ends the run
	discarded int   // files in flight when ctx ended
	bases     []string
	leak      []string // per target: TargetRecord.GoroutineLeak
}

func newRunner(plan Plan, prog Progress) *runner {
	sec := plan.secrets()
	r := &runner{
		plan:    plan,
		client:  &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()},
		secrets: sec,
		man:     &manifestWriter{dir: plan.OutDir},
		prog:    prog,
		bases:   make([]string, len(plan.Targets)),
		leak:    make([]string, len(plan.Targets)),
	}
	m := &r.man.m
	m.Version = ManifestVersion
	m.Started = time.Now()
	m.Schedule = ScheduleRecord{Kind: scheduleEvery, Count: plan.Count}
	if plan.Every > 0 {
		m.Schedule.Every = plan.Every.String()
	}
	if plan.Load != "" {
		m.Schedule = ScheduleRecord{Kind: scheduleLoad, Every: plan.Every.String(), After: plan.After.String(), Load: sec.scrub(plan.Load)}
	}
	m.Targets = []TargetRecord{}
	m.Moments = []Moment{}
	m.Files = []File{}
	for i, t := range plan.Targets {
		// Name was scrubbed by normalize; an exec target's source is its command.
		m.Targets = append(m.Targets, TargetRecord{Name: t.Name, Kind: t.Kind, Source: sec.scrub(t.Source())})
		if t.Kind == KindPprof {
			r.bases[i], _ = pprofBase(t.URL) // validated by normalize
		}
	}
	return r
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
		m.Moments = append(m.Moments, Moment{Label: label, Index: len(m.Moments), Planned: planned, Started: started})
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
	name    string // final file name; for commands the extension follows the content
	what    string // for messages: "goroutine debug=2", "jcmd/jstack", "command"
	url     string // pprof only
}

// target takes one target's files for a moment: the primary first, the
// others only if it succeeded.
func (r *runner) target(ctx context.Context, i int, label string) {
	t := r.plan.Targets[i]
	prefix := t.Name + "__" + label
	switch t.Kind {
	case KindPprof:
		for _, j := range pprofFiles(r.bases[i], prefix) {
			if ctx.Err() != nil {
				return // interrupted: start nothing new
			}
			if j.kind == FileGoroutineLeak && r.leak[i] == "absent" {
				continue
			}
			absent := false
			ok := r.file(ctx, t, label, j, func(ctx context.Context) (*atomicFile, FileKind, string, error) {
				af, err := r.fetchPprof(ctx, j)
				absent = errors.Is(err, errAbsent)
				return af, j.kind, "", err
			})
			if j.kind == FileGoroutineLeak && r.leak[i] == "" && (ok || absent) {
				state := "served"
				if absent {
					state = "absent"
				}
				r.leak[i] = state
				r.update(func(m *Manifest) { m.Targets[i].GoroutineLeak = state })
			}
			if j.primary && !ok {
				return
			}
		}
	case KindJVM:
		j := fileJob{kind: FileJVM, primary: true, name: prefix + ".txt", what: "jcmd/jstack"}
		r.file(ctx, t, label, j, func(ctx context.Context) (*atomicFile, FileKind, string, error) {
			af, tool, err := jvmDump(ctx, r, t.PID)
			return af, FileJVM, tool, err
		})
	case KindExec:
		j := fileJob{kind: FileUnknown, primary: true, name: prefix, what: "command"}
		r.file(ctx, t, label, j, func(ctx context.Context) (*atomicFile, FileKind, string, error) {
			af, err := runToFile(ctx, r.plan.OutDir, r.plan.MaxBytes, r.plan.Timeout, []string{"sh", "-c", t.Command})
			if err != nil {
				return nil, FileUnknown, "", err
			}
			kind, err := detectCommandOutput(af.head, af.lastBytes(), af.n, af.f.Name())
			if err != nil {
				af.discard()
				return nil, kind, "", err
			}
			return af, kind, "", nil
		})
	}
}

// fetchFunc produces an uncommitted file, the kind it holds and the tool used.
type fetchFunc func(context.Context) (*atomicFile, FileKind, string, error)

// file runs fetch, commits its result under j.name, records it (or its
// failure) in the manifest and reports it. It returns whether a file was
// written. errAbsent records nothing.
func (r *runner) file(ctx context.Context, t Target, label string, j fileJob, fetch fetchFunc) bool {
	if ctx.Err() != nil {
		return false // interrupted before it started: nothing to record
	}
	start := time.Now()
	af, kind, tool, err := fetch(ctx)
	if errors.Is(err, errAbsent) {
		return false
	}
	f := File{Target: t.Name, Moment: label, Kind: kind, Primary: j.primary, Tool: tool, Started: start}
	if err == nil {
		name := j.name
		if t.Kind == KindExec {
			name += extension(kind)
		}
		size := af.n
		if err = af.commit(name); err == nil {
			f.Path, f.Size = name, size
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			r.mu.Lock()
			r.discarded++
			r.mu.Unlock()
			err = fmt.Errorf("interrupted, nothing kept: %w", context.Cause(ctx))
		}
		f.Error = r.secrets.scrub(fmt.Sprintf("%s at %s: %s: %s", t.Name, label, j.what, oneLine(err.Error())))
	}
	f.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	r.update(func(m *Manifest) { m.Files = append(m.Files, f) })
	r.emit(Event{Kind: EventFile, Time: time.Now(), Moment: label, Target: t.Name, File: &f})
	return f.OK()
}

func extension(k FileKind) string {
	if k == FileGoroutineProto {
		return ".pb.gz"
	}
	return ".txt"
}

// oneLine keeps error messages to one line in progress output and the manifest.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
