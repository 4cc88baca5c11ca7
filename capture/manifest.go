package capture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// ManifestName is the manifest's file name inside the out folder.
const ManifestName = "manifest.json"

// ManifestVersion is the schema version written by this package. A reader
// refuses a newer version; fields are only ever added within a version.
const ManifestVersion = 1

// Manifest is manifest.json: what a run took, when, and what failed. It is
// rewritten atomically after every file, so it is complete up to the last
// file even if the run is killed.
//
// Reading it for analysis:
//   - Moments are in the order they were taken; that order (not file names,
//     not clocks) orders the dumps, and Moment.Label names them.
//   - For each target and moment, the File with Primary set is THE dump of
//     that moment (Go debug=2 text, or the debug=0 proto when the pause
//     budget chose the cheap encodings; a JVM thread dump; Actuator JSON;
//     command output); count it once. Files without Primary are taken
//     beside it: the Go debug=1 profile asked first (its Goroutines is the
//     true total; its labels join the text's goroutines), the debug=0 proto
//     beside a partial dump, and in older manifests the goroutineleak text.
//     A moment whose primary file has an Error has no dump for that target
//     (a failed debug=1 is recorded as the primary: no dump was tried).
//   - A File with Error has no Path: nothing of it was kept. A File with
//     Partial set holds only part of its dump (cut by the runtime's 64 MiB
//     limit): its Warning says how much, and a complete encoding of the same
//     moment (debug=1, proto) is beside it for the counts.
//   - An appended capture (Plan.Append) keeps every earlier run's moments
//     and files; Moment.Run says which run took a moment, PreviousRuns
//     keeps the earlier runs' schedules and loads.
//
// Example (abridged):
//
//	{
//	  "version": 1,
//	  "started": "2026-11-29T17:30:00.1Z", "finished": "2026-11-29T17:30:12.4Z",
//	  "schedule": {"kind": "load", "every": "2s", "after": "5s", "load": "hey -z 4s http://..."},
//	  "targets": [{"name": "api", "kind": "pprof", "source": "http://127.0.0.1:6060/debug/pprof",
//	               "goroutineleak": "absent", "handler": "absent"}],
//	  "moments": [{"label": "before", "index": 0, "planned": "...", "started": "..."}, ...],
//	  "files": [{"target": "api", "moment": "before", "kind": "goroutine-debug1", "primary": false,
//	             "path": "api__before-debug1.txt", "tool": "goroutine?debug=1", "goroutines": 1204, ...},
//	            {"target": "api", "moment": "before", "kind": "goroutine", "primary": true,
//	             "path": "api__before.txt", "tool": "goroutine?debug=2", "started": "...", "duration_ms": 31.2,
//	             "size": 1182340, "cost": {"goroutines": 1204, "passes": 2, "estimated_pause_ms": 9.6}}, ...],
//	  "load": {"command": "hey ...", "started": "...", "ended": "...", "exit_code": 0, "output_tail": "..."}
//	}
type Manifest struct {
	// Version is ManifestVersion.
	Version int `json:"version"`
	// Started is when Run began; Finished when it ended (zero while running).
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished,omitzero"`
	// Schedule records the plan's schedule.
	Schedule ScheduleRecord `json:"schedule"`
	// Targets are in the plan's order, with their final names.
	Targets []TargetRecord `json:"targets"`
	// Trigger is, for a watch incident's bundle opened on request, what
	// asked ("alert HighLatency (Alertmanager)", "SIGUSR1"); empty
	// otherwise.
	Trigger string `json:"trigger,omitempty"`
	// Moments are in the order taken; a moment is listed when it starts.
	Moments []Moment `json:"moments"`
	// Files are in the order they finished (written or failed).
	Files []File `json:"files"`
	// Load is the load command's record; nil on a fixed schedule.
	Load *LoadRecord `json:"load,omitempty"`
	// Error says why the run ended early (interrupted); empty otherwise.
	Error string `json:"error,omitempty"`
	// MaxPause is the pause budget of the run (Plan.MaxPause) as a Go
	// duration ("500ms"); empty in manifests written before it existed.
	MaxPause string `json:"max_pause,omitempty"`
	// PreviousRuns are the earlier runs of an appended capture, oldest
	// first; empty for a capture of one run. Started, Finished, Schedule,
	// Load and Error above are the last run's.
	PreviousRuns []RunRecord `json:"previous_runs,omitempty"`
}

// RunRecord is one earlier run of an appended capture, as its manifest
// said when the next run started.
type RunRecord struct {
	Started  time.Time      `json:"started"`
	Finished time.Time      `json:"finished,omitzero"`
	Schedule ScheduleRecord `json:"schedule"`
	Load     *LoadRecord    `json:"load,omitempty"`
	Error    string         `json:"error,omitempty"`
	MaxPause string         `json:"max_pause,omitempty"`
}

// ScheduleRecord is the schedule as run. Durations are Go duration strings ("250ms").
type ScheduleRecord struct {
	Kind  string `json:"kind"`            // "every" (fixed), "load", or "watch" (a Recorder's ring)
	Every string `json:"every,omitempty"` // between moments, or between during moments
	Count int    `json:"count,omitempty"` // fixed: planned moments; 0 for load
	After string `json:"after,omitempty"` // load: delay after exit
	Load  string `json:"load,omitempty"`  // load: the command
}

// TargetRecord is a target as recorded: never a header, never URL user info or query.
type TargetRecord struct {
	Name   string `json:"name"`
	Kind   Kind   `json:"kind"`
	Source string `json:"source"` // see Target.Source
	// GoroutineLeak is, for pprof targets, "served" or "absent" (HTTP 404:
	// before Go 1.27 or not enabled) once known; empty before the first try
	// and for other kinds.
	GoroutineLeak string `json:"goroutineleak,omitempty"`
	// Handler is, for pprof targets, "served" or "absent" once known: whether
	// the target serves package handler's one-pass dump (HandlerPath under
	// its pprof base). Empty before the first try and for other kinds.
	Handler string `json:"handler,omitempty"`
	// Flight is, for pprof targets when Plan.Flight, "served" or "absent"
	// once known: whether the target serves package handler's flight
	// recorder (FlightPath under its pprof base).
	Flight string `json:"flight,omitempty"`
	// JavaVersion is, for a JVM target, its Java feature version (17, 21,
	// 25) as read from the target; 0 when unknown. From 21 on its moments
	// are JSON dumps that hold virtual threads.
	JavaVersion int `json:"java_version,omitempty"`
	// VThreadScheduler is, for a JVM target, "served" or "absent" once
	// known: whether it prints its virtual-thread scheduler (`jcmd PID
	// Thread.vthread_scheduler`, JDK 24+). "absent" is said of a target
	// known to be older, without asking, or of one that refused the
	// command; it is not asked again. Empty before the first moment and
	// for other kinds.
	VThreadScheduler string `json:"vthread_scheduler,omitempty"`
	// VThreadSchedulerSkipped counts the target's moments taken without
	// the scheduler because it is absent (or its read cost more than the
	// pause budget); 0 when none.
	VThreadSchedulerSkipped int `json:"vthread_scheduler_skipped,omitempty"`
	// Fate is what became of the target over every run of the capture:
	// "ok" (every moment has its dump), "partial" (some moments failed),
	// "failed" (no moment has a dump); empty before its first moment ends
	// and when its only tries were interrupted. Dumps and Failed are the
	// moments it was decided from: with a dump, and whose dump failed for
	// a reason of the target's (interrupted ones are neither); LastError
	// is the latest failure's message. Kept up to date as files arrive.
	Fate      string `json:"fate,omitempty"`
	Dumps     int    `json:"dumps,omitempty"`
	Failed    int    `json:"failed,omitempty"`
	LastError string `json:"last_error,omitempty"`
}

// Target fates (TargetRecord.Fate).
const (
	FateOK      = "ok"
	FatePartial = "partial"
	FateFailed  = "failed"
)

// count adds a primary file's outcome to the target's fate.
func (t *TargetRecord) count(f File) {
	switch {
	case !f.Primary:
		return
	case f.OK():
		t.Dumps++
	case f.Interrupted:
		return
	default:
		t.Failed++
		t.LastError = f.Error
	}
	switch {
	case t.Failed == 0:
		t.Fate = FateOK
	case t.Dumps == 0:
		t.Fate = FateFailed
	default:
		t.Fate = FatePartial
	}
}

// Recount sets each target's fate, dumps, failed and last error from the
// files the manifest lists now: for a manifest made of another's files
// (an incident bundle of watch), or one whose moments were forgotten.
func (m *Manifest) Recount() {
	for i := range m.Targets {
		t := &m.Targets[i]
		t.Fate, t.Dumps, t.Failed, t.LastError = "", 0, 0, ""
		for _, f := range m.Files {
			if f.Target == t.Name {
				t.count(f)
			}
		}
	}
}

// Moment is one point of the schedule.
type Moment struct {
	Label   string    `json:"label"`   // "1".."N", or "before", "during-1".., "after"
	Index   int       `json:"index"`   // position from 0, in order taken
	Planned time.Time `json:"planned"` // when the schedule wanted it
	Started time.Time `json:"started"` // when it was started (>= Planned)
	// Run is the run of an appended capture that took it, from 0 (the
	// first run); see Manifest.PreviousRuns.
	Run int `json:"run,omitempty"`
}

// FileKind says what a file holds.
type FileKind string

const (
	FileGoroutine        FileKind = "goroutine"             // Go goroutine dump text (debug=2 format: pprof, goroutineleak?debug=2, package handler, or printed by a command)
	FileGoroutineDebug1  FileKind = "goroutine-debug1"      // pprof goroutine?debug=1: stacks counted ("total N"), with labels
	FileGoroutineProto   FileKind = "goroutine-proto"       // pprof debug=0: gzipped profile.proto with labels and runtime frames
	FileGoroutineLeak    FileKind = "goroutineleak"         // pprof goroutineleak debug=2 text beside the dump (manifests before the pause budget)
	FileJVM              FileKind = "jvm-threads"           // HotSpot thread dump (jcmd Thread.print [-l], jstack [-l])
	FileActuator         FileKind = "actuator-threads"      // Spring Boot Actuator /threaddump JSON (ThreadInfo list)
	FileJVMJSON          FileKind = "jvm-json"              // jcmd Thread.dump_to_file -format=json (JDK 21+): every thread, virtual ones included
	FileGoroutineTrace   FileKind = "goroutine-trace"       // package handler's flight recorder snapshot: a Go execution trace of the seconds before the moment
	FileVThreadScheduler FileKind = "jvm-vthread-scheduler" // jcmd Thread.vthread_scheduler (JDK 24+) beside a JVM dump: the virtual-thread scheduler's parallelism, size, mounted carriers, queue
	FileUnknown          FileKind = "unknown"               // a command failed before its output was recognized
)

// File is one dump file, or one failed attempt at it.
type File struct {
	Target  string   `json:"target"`  // TargetRecord.Name
	Moment  string   `json:"moment"`  // Moment.Label
	Kind    FileKind `json:"kind"`    // what it holds
	Primary bool     `json:"primary"` // the moment's dump for this target; others are beside it
	// Path is relative to the manifest's folder; empty when Error is set.
	Path string `json:"path,omitempty"`
	// Tool is what produced the file: for a JVM "jcmd", "jcmd -l",
	// "jstack", "jstack -l" or "jcmd Thread.dump_to_file" (JSON, JDK 21+); for a Go target the endpoint
	// ("goroutine?debug=2", "goroutineleak?debug=2", "handler",
	// "goroutine?debug=1", "goroutine?debug=0"), "jcmd
	// Thread.vthread_scheduler" beside a JVM dump. Empty for commands and
	// in older manifests.
	Tool string `json:"tool,omitempty"`
	// Started is when the request or command started; DurationMS how long it
	// took until the file was on disk (or failed), in milliseconds.
	Started    time.Time `json:"started"`
	DurationMS float64   `json:"duration_ms"`
	// Size is the file's size in bytes; 0 when Error is set.
	Size int64 `json:"size"`
	// Error is a one-line message naming target and moment; empty on success.
	Error string `json:"error,omitempty"`
	// Interrupted is set on a failed file whose fetch was cut by the end of
	// the run (Ctrl-C): not a fault of the target.
	Interrupted bool `json:"interrupted,omitempty"`
	// Goroutines is how many goroutines (or threads) the file holds when
	// capture counted them (the "total N" of debug=1, the headers of a
	// partial dump); 0 when not counted.
	Goroutines int `json:"goroutines,omitempty"`
	// Partial is set when the file holds only the start of its dump (a
	// debug=2 body cut by the runtime's 64 MiB limit); Warning says how
	// much it holds.
	Partial bool `json:"partial,omitempty"`
	// Warning is one line about a file that was written but is not whole
	// ("cut by the runtime's 64 MiB limit: 142545 of 300005 goroutines").
	Warning string `json:"warning,omitempty"`
	// Note says why the file was taken the way it was (the pause budget
	// chose the cheap encodings; a JVM dump was taken again with -l).
	Note string `json:"note,omitempty"`
	// Cost is what taking the file cost the target, where known.
	Cost *Cost `json:"cost,omitempty"`
	// Reason classifies Error in a word (ReasonRefused, ReasonTimeout,
	// ...: reason.go); empty when the file was written, and in manifests
	// written before it existed.
	Reason string `json:"reason,omitempty"`
}

// Cost is what one file cost the process being dumped.
type Cost struct {
	// Goroutines is the count the estimate was made from (the "total N"
	// of this moment's debug=1); 0 when none was made.
	Goroutines int `json:"goroutines,omitempty"`
	// Passes is how many stop-the-world walks of every goroutine the
	// endpoint makes: net/http/pprof's debug=2 retries with buffers doubling
	// from 1 MiB to 64 MiB (one walk each), package handler makes one.
	Passes int `json:"passes,omitempty"`
	// EstimatedPauseMS is the stop-the-world time estimated before the
	// fetch, in milliseconds; 0 when not estimated.
	EstimatedPauseMS float64 `json:"estimated_pause_ms,omitempty"`
	// PauseMS is the stop measured by the target itself, in milliseconds:
	// package handler's runtime.Stack time, or a JVM's safepoint time while
	// the dump ran (from its hsperfdata counters); 0 when not known.
	PauseMS float64 `json:"pause_ms,omitempty"`
	// PauseSource says where PauseMS comes from: "handler" or "hsperfdata".
	PauseSource string `json:"pause_source,omitempty"`
	// LeakCheckMS is the goroutine-leak collection package handler ran
	// before the dump (Go 1.27+: a garbage collection, with its own brief
	// stops), in milliseconds; 0 when none ran. Not part of PauseMS.
	LeakCheckMS float64 `json:"leak_check_ms,omitempty"`
}

// OK reports whether the file was written.
func (f File) OK() bool { return f.Error == "" && f.Path != "" }

// Dumps returns the primary files written for a target, in moment order.
func (m *Manifest) Dumps(target string) []File {
	order := map[string]int{}
	for _, mo := range m.Moments {
		order[mo.Label] = mo.Index
	}
	var out []File
	for _, f := range m.Files {
		if f.Target == target && f.Primary && f.OK() {
			out = append(out, f)
		}
	}
	// Insertion sort: a handful of moments.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && order[out[j].Moment] < order[out[j-1].Moment]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Failed counts the files with an error, interrupted ones included.
func (m *Manifest) Failed() int {
	n := 0
	for _, f := range m.Files {
		if f.Error != "" {
			n++
		}
	}
	return n
}

// Faults counts the files that failed for a reason of their own: Failed
// without the ones cut by the end of the run.
func (m *Manifest) Faults() int {
	n := 0
	for _, f := range m.Files {
		if f.Error != "" && !f.Interrupted {
			n++
		}
	}
	return n
}

// RunFailures returns the primary files of the last run that failed for a
// reason of their target's (not interrupted): each is a moment of a target
// without its dump. An appended capture's earlier runs are not counted.
func (m *Manifest) RunFailures() []File {
	run := len(m.PreviousRuns)
	ofRun := map[string]bool{}
	for _, mo := range m.Moments {
		if mo.Run == run {
			ofRun[mo.Label] = true
		}
	}
	var out []File
	for _, f := range m.Files {
		if f.Primary && f.Error != "" && !f.Interrupted && ofRun[f.Moment] {
			out = append(out, f)
		}
	}
	return out
}

// Beside returns the files written beside target's primary dump at moment
// (debug=1, proto, goroutineleak), in the order they were written.
func (m *Manifest) Beside(target, moment string) []File {
	var out []File
	for _, f := range m.Files {
		if f.Target == target && f.Moment == moment && !f.Primary && f.OK() {
			out = append(out, f)
		}
	}
	return out
}

// MomentFiles picks the file counted as a target's dump at a moment and
// the files joined to it; why is a note for the report when the pick is
// not the primary itself. primary is nil when nothing usable was kept.
func (m *Manifest) MomentFiles(target, moment string) (primary *File, beside []File, why string) {
	var failed *File
	for i, f := range m.Files {
		if f.Target != target || f.Moment != moment || !f.Primary {
			continue
		}
		if f.OK() {
			primary = &m.Files[i]
		} else if failed == nil {
			failed = &m.Files[i]
		}
	}
	all := m.Beside(target, moment)
	if primary != nil && !primary.Partial {
		return primary, all, ""
	}
	// A complete encoding beside the cut or failed dump, proto first.
	var complete *File
	for _, want := range []FileKind{FileGoroutineProto, FileGoroutineDebug1} {
		for i := range all {
			if all[i].Kind == want && complete == nil {
				complete = &all[i]
			}
		}
	}
	switch {
	case complete == nil:
		return primary, all, "" // a partial dump and nothing else: its own warning says it is cut
	case primary != nil:
		why = fmt.Sprintf("%s %s; counts from %s (complete)", primary.Path, primary.Warning, complete.Path)
	case failed != nil && !failed.Interrupted:
		why = fmt.Sprintf("the full dump failed (%s); counts from %s", failed.Error, complete.Path)
	case failed != nil:
		why = fmt.Sprintf("the full dump was interrupted; counts from %s", complete.Path)
	default:
		return nil, nil, ""
	}
	for _, f := range all {
		if f.Path != complete.Path {
			beside = append(beside, f)
		}
	}
	return complete, beside, why
}

// ReadManifest reads dir/manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, fmt.Errorf("reading manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("reading %s: %w", filepath.Join(dir, ManifestName), err)
	}
	if m.Version < 1 || m.Version > ManifestVersion {
		return nil, fmt.Errorf("reading %s: manifest version %d, this dumpdiff reads 1..%d",
			filepath.Join(dir, ManifestName), m.Version, ManifestVersion)
	}
	return &m, nil
}

// manifestWriter owns the run's Manifest; every change is written to disk
// before the lock is released, so the file on disk is never behind what
// progress has reported.
type manifestWriter struct {
	mu  sync.Mutex
	dir string
	m   Manifest
}

// update applies fn to the manifest and rewrites it atomically.
func (w *manifestWriter) update(fn func(*Manifest)) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	fn(&w.m)
	b, err := encodeManifest(&w.m)
	if err != nil {
		return fmt.Errorf("writing manifest: %w", err)
	}
	if err := writeFileAtomic(w.dir, ManifestName, b); err != nil {
		return fmt.Errorf("writing manifest: %w", err)
	}
	return nil
}

// encodeManifest is the manifest.json encoding: indented, with commands
// readable ("a > b", not "a \u003e b").
func encodeManifest(m *Manifest) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// snapshot returns a deep enough copy for the caller to keep.
func (w *manifestWriter) snapshot() *Manifest {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := w.m
	m.Targets = append([]TargetRecord(nil), m.Targets...)
	m.Moments = append([]Moment(nil), m.Moments...)
	m.Files = append([]File(nil), m.Files...)
	m.PreviousRuns = append([]RunRecord(nil), m.PreviousRuns...)
	if m.Load != nil {
		l := *m.Load
		m.Load = &l
	}
	return &m
}
