package capture

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/private"
)

// scheduleWatch marks the manifest of a Recorder's folder: a ring whose
// oldest moments are removed, by the Recorder that wrote them.
const scheduleWatch = "watch"

// Recorder takes moments one at a time, when its caller asks, into one out
// folder: the ring of `dumpdiff watch`. It keeps what a Run keeps between
// moments (the pause budget's measured cost per goroutine, what a target
// serves, a JVM's version), so the hundredth moment is taken as the tenth
// of a Run would be. Its folder is a capture like any other
// (manifest.json, Schedule.Kind "watch"): dumpdiff reads it as one.
//
// A Recorder removes only what it wrote: Forget deletes the files its
// manifest lists for a moment, never another file of the folder, and
// NewRecorder refuses a folder that holds anything but a Recorder's
// capture.
//
// Take and Forget may be called from any goroutine; they run one at a time.
type Recorder struct {
	mu sync.Mutex
	r  *runner
}

// NewRecorder checks p as Run does (Count, Load and After are not used;
// Every is recorded as the schedule) and opens p.OutDir: a missing or
// empty folder starts a new ring, a folder a Recorder wrote is resumed
// (its moments and files kept, this start recorded in PreviousRuns), and
// anything else is refused with an *OutDirError inside a *PlanError, with
// nothing touched. The folder is created, and the manifest written, before
// it returns: a folder that cannot be written is this error.
func NewRecorder(p Plan) (*Recorder, error) {
	p.Count, p.Load = 1, ""
	plan, err := p.normalize()
	if err != nil {
		return nil, p.secrets().scrubErr(err)
	}
	plan.Append = true
	prev, err := inspectOutDir(plan.OutDir, true)
	if err == nil && prev != nil && prev.Schedule.Kind != scheduleWatch {
		entries, _ := os.ReadDir(plan.OutDir)
		err = &OutDirError{Dir: plan.OutDir, Entries: len(entries), Capture: prev,
			Err: fmt.Errorf("it was written by a %q capture, not by watch: a ring removes its oldest files, and only its own", prev.Schedule.Kind)}
	}
	if err != nil {
		if oe, ok := errors.AsType[*OutDirError](err); ok {
			return nil, p.secrets().scrubErr(&PlanError{Problems: []error{oe}})
		}
		return nil, p.secrets().scrubErr(fmt.Errorf("reading output folder: %w", err))
	}
	if err := os.MkdirAll(plan.OutDir, private.Dir); err != nil {
		return nil, p.secrets().scrubErr(fmt.Errorf("creating output folder: %w", err))
	}
	r := newRunner(plan, nil, prev)
	if err := r.man.update(func(m *Manifest) {
		m.Schedule = ScheduleRecord{Kind: scheduleWatch, Every: plan.Every.String()}
	}); err != nil {
		return nil, r.secrets.scrubErr(err)
	}
	return &Recorder{r: r}, nil
}

// Dir is the recorder's folder.
func (rec *Recorder) Dir() string { return rec.r.plan.OutDir }

// Targets are the plan's targets with their final names (as recorded).
func (rec *Recorder) Targets() []Target { return slices.Clone(rec.r.plan.Targets) }

// Manifest is a copy of what manifest.json holds.
func (rec *Recorder) Manifest() *Manifest { return rec.r.man.snapshot() }

// SetProgress sends the events of later moments to prog (nil for none).
func (rec *Recorder) SetProgress(prog Progress) {
	rec.r.progMu.Lock()
	rec.r.prog = prog
	rec.r.progMu.Unlock()
}

// ErrMomentExists is Take's error for a label the folder already has.
var ErrMomentExists = errors.New("already taken")

// Take takes one moment, labelled label, of every target, concurrently,
// and returns the files it recorded for it (written or failed, in the
// order they finished). A label already in the folder is refused. The
// error is that of the manifest (a full disk, a folder no longer
// writable): what was recorded before is untouched, and a later Take
// tries again. A file that fails is not an error: it is recorded with its
// Error, as in Run. When ctx ends, the file in flight is discarded.
func (rec *Recorder) Take(ctx context.Context, label string, planned time.Time) ([]File, error) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	r := rec.r
	if label == "" || safeName(label) != label {
		return nil, fmt.Errorf("moment label %q: want letters, digits, '-', '_' or '.'", label)
	}
	for _, mo := range r.man.snapshot().Moments {
		if mo.Label == label {
			return nil, fmt.Errorf("moment %q in %s: %w", label, r.plan.OutDir, ErrMomentExists)
		}
	}
	r.mu.Lock()
	r.fatal = nil // a full disk may have room again: each moment tries
	r.mu.Unlock()
	r.moment(ctx, label, planned)
	var out []File
	for _, f := range r.man.snapshot().Files {
		if f.Moment == label {
			out = append(out, f)
		}
	}
	return out, r.secrets.scrubErr(r.fatalErr())
}

// Flight fetches, beside moment label (already taken), the flight
// recorder snapshot of every Go target serving package handler's
// (FlightPath), as a capture with Plan.Flight does at each moment: watch
// asks for it when an incident opens, so that the bundle holds the seconds
// before it, one moment a second, whatever its interval. It returns the
// snapshots recorded (none when no target serves one; a target that
// answers 404 is not asked again), and the manifest's error as Take does.
func (rec *Recorder) Flight(ctx context.Context, label string) ([]File, error) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	r := rec.r
	for i := range r.plan.Targets {
		r.fetchFlight(ctx, i, label)
	}
	var out []File
	for _, f := range r.man.snapshot().Files {
		if f.Moment == label && f.Kind == FileGoroutineTrace {
			out = append(out, f)
		}
	}
	return out, r.secrets.scrubErr(r.fatalErr())
}

// Forget removes a moment: its records from the manifest, then the files
// they name (the manifest first, so that a Recorder stopped in between
// leaves a file no manifest names rather than a manifest naming a file
// that is gone; when the manifest cannot be written the files go all the
// same, and the error says so). It returns the bytes freed. Only files
// this folder's manifest lists for the moment are removed.
func (rec *Recorder) Forget(label string) (int64, error) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	r := rec.r
	var gone []File
	found := false
	err := r.man.update(func(m *Manifest) {
		m.Moments = slices.DeleteFunc(m.Moments, func(mo Moment) bool {
			found = found || mo.Label == label
			return mo.Label == label
		})
		m.Files = slices.DeleteFunc(m.Files, func(f File) bool {
			if f.Moment == label {
				gone = append(gone, f)
				return true
			}
			return false
		})
	})
	if !found {
		return 0, fmt.Errorf("no moment %q in %s", label, r.plan.OutDir)
	}
	// A manifest that could not be written (a full disk) still lists the
	// moment on disk: its files are removed all the same, or the disk
	// would never be freed and they would be listed nowhere once the
	// next write succeeds. A reader takes a listed file that is gone for
	// a moment without a dump.
	var freed int64
	var errs []error
	if err != nil {
		errs = append(errs, r.secrets.scrubErr(err))
	}
	for _, f := range gone {
		if f.Path == "" || filepath.Base(f.Path) != f.Path {
			continue // a failed file, or a path that is not ours to remove
		}
		if err := os.Remove(filepath.Join(r.plan.OutDir, f.Path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		freed += f.Size
	}
	return freed, errors.Join(errs...)
}

// Close records the end of this start of the recorder: Finished, and
// cause (nil for a clean stop) as the manifest's Error.
func (rec *Recorder) Close(cause error) error {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.r.secrets.scrubErr(rec.r.man.update(func(m *Manifest) {
		m.Finished = time.Now()
		if cause != nil {
			m.Error = rec.r.secrets.clean(cause.Error(), 0)
		}
	}))
}

// WriteManifest writes m as dir/manifest.json, atomically and in the
// encoding Run writes: for a folder made of a capture's files (an
// incident bundle), which dumpdiff then reads like a capture.
func WriteManifest(dir string, m *Manifest) error {
	b, err := encodeManifest(m)
	if err != nil {
		return fmt.Errorf("writing manifest: %w", err)
	}
	if err := writeFileAtomic(dir, ManifestName, b); err != nil {
		return fmt.Errorf("writing manifest: %w", err)
	}
	return nil
}
