package capture

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Defaults applied by Run to a Plan's zero fields.
const (
	DefaultTimeout  = 10 * time.Second       // per request or command
	DefaultMaxBytes = 512 << 20              // per response: 512 MiB
	DefaultAfter    = 5 * time.Second        // load schedule: wait after the load exits
	loadTailBytes   = 16 << 10               // load output kept in the manifest
	DefaultMaxPause = 500 * time.Millisecond // pause budget of one full Go dump
	minEvery        = time.Millisecond       // below this a schedule is a busy loop
	tickEvery       = 250 * time.Millisecond // EventTick while waiting
)

// Plan is what to capture, when, and where to put it.
//
// Two schedules:
//   - fixed (Load empty): Count moments labelled "1".."N" (zero-padded to the
//     width of N, so names sort), the first at once, then one every Every.
//   - around a load (Load set): "before" at once, then Load is started with
//     sh -c; "during-1", "during-2", ... every Every while it runs; when it
//     exits, "after" once After has passed. Count is ignored.
//
// A moment that starts late (the previous one took longer than Every) is taken
// at once; moments are never skipped or bunched up.
type Plan struct {
	// Targets are dumped at every moment, concurrently. At least one.
	Targets []Target
	// Every is the interval between moments (fixed) or between the during
	// moments (load). Required unless Count is 1 on a fixed schedule.
	Every time.Duration
	// Count is the number of moments on a fixed schedule; at least 1.
	// Ignored when Load is set (the load's length decides how many during
	// moments there are), without error: a caller whose user gave both
	// should warn, as Run cannot tell a given Count from a default one.
	Count int
	// Load is a shell command run with sh -c between "before" and "after";
	// empty for a fixed schedule. Its exit status and output tail are recorded.
	Load string
	// After is how long to wait after the load exits before "after";
	// 0 means DefaultAfter, negative means at once. Ignored when Load is
	// empty.
	After time.Duration
	// OutDir receives the dumps and manifest.json; created if needed. It
	// must be missing or empty (dotfiles aside) unless Append is set and it
	// holds a capture: Run refuses anything else with an *OutDirError, and
	// never overwrites a file.
	OutDir string
	// Append continues the capture in OutDir: its moments, files and
	// targets are kept and this run's are added after them (a fixed
	// schedule's labels go on counting, a load schedule's get a "runK-"
	// prefix when "before" is taken). A missing or empty OutDir starts a
	// new capture as usual.
	Append bool
	// Timeout bounds each request or command; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxBytes caps each response; a larger one is an error for that file
	// and nothing of it is kept. 0 means DefaultMaxBytes.
	MaxBytes int64
	// Headers are sent with every pprof request (e.g. Authorization). Their
	// values (and the token after "Bearer "), like URL passwords, never
	// appear in the manifest, progress lines or errors: wherever else they
	// occur (in Load, a Command, a Name, a command's output or error, a
	// server's reply) they are replaced by REDACTED. Values shorter than 4
	// bytes are not scrubbed.
	Headers http.Header
	// MaxPause is the pause budget of a Go target: the longest stop of the
	// world one full dump may cost it, estimated from the goroutine count
	// asked for cheaply first (debug=1). Above it, the moment takes the
	// cheap encodings (debug=0 proto and debug=1) instead of the full dump.
	// 0 means DefaultMaxPause; negative means no budget (always the full dump).
	MaxPause time.Duration
	// Locks makes every JVM dump print lock ownership (-l): ownable
	// synchronizers, which HotSpot finds by walking the heap inside the
	// safepoint. Without it -l is taken only when a dump shows threads
	// parked on a lock whose owner only -l prints.
	Locks bool
	// Flight fetches, at each moment of a Go target that serves one,
	// package handler's flight recorder snapshot (FlightPath): the
	// execution trace of the seconds before the moment, read as a moment
	// a second. A target that answers 404 is not asked again.
	Flight bool
	// ForceAttach attaches jcmd to a KindJVM pid even when nothing shows
	// it is a JVM (its memory map unreadable, no hsperfdata file of it,
	// no java command line): the attach sends SIGQUIT, which kills any
	// other process. Without it such a pid fails with ReasonGone and
	// nothing is sent to it. A pid that is gone is refused all the same.
	ForceAttach bool
	// KeepTrying runs the whole schedule even when every target fails
	// the run's first moment in a way waiting seldom mends (StopReasons:
	// nothing listens, the pid is gone or no JVM). Without it the run
	// ends there with a *StoppedError, before any other moment (and
	// before the load starts).
	KeepTrying bool
}

// scheduleKind names the two schedules in the manifest.
const (
	scheduleEvery = "every"
	scheduleLoad  = "load"
)

// Normalized is the plan as Run would run it: defaults filled in and
// every target with its final name (unique, safe in a file name), or a
// *PlanError listing every problem. It does no I/O.
func (p Plan) Normalized() (Plan, error) {
	q, err := p.normalize()
	if err != nil {
		return q, p.secrets().scrubErr(err)
	}
	return q, nil
}

// normalize validates p and returns a copy with defaults and target names
// filled in, or a *PlanError listing every problem. It does no I/O.
func (p Plan) normalize() (Plan, error) {
	var errs []error
	if len(p.Targets) == 0 {
		errs = append(errs, errors.New("no targets"))
	}
	if p.OutDir == "" {
		errs = append(errs, errors.New("no output folder"))
	}
	if p.Load == "" {
		if p.Count < 1 {
			errs = append(errs, fmt.Errorf("count must be at least 1, got %d", p.Count))
		}
		if p.Count > 1 && p.Every < minEvery {
			errs = append(errs, fmt.Errorf("every must be at least %v, got %v", minEvery, p.Every))
		}
	} else if p.Every < minEvery {
		errs = append(errs, fmt.Errorf("during-every must be at least %v, got %v", minEvery, p.Every))
	}
	if p.Timeout < 0 || p.MaxBytes < 0 {
		errs = append(errs, errors.New("timeout and size cap must not be negative"))
	}
	if p.Timeout == 0 {
		p.Timeout = DefaultTimeout
	}
	if p.MaxBytes == 0 {
		p.MaxBytes = DefaultMaxBytes
	}
	if p.MaxPause == 0 {
		p.MaxPause = DefaultMaxPause
	}
	if p.After == 0 {
		p.After = DefaultAfter
	} else if p.After < 0 {
		p.After = 0
	}

	targets := make([]Target, len(p.Targets))
	seen := map[string]bool{}
	sec := p.secrets()
	for i, t := range p.Targets {
		if err := t.validate(); err != nil {
			errs = append(errs, fmt.Errorf("target %d (%s): %w", i+1, t.Kind, err))
		}
		name := safeName(sec.scrub(t.Name)) // names go into file names, the manifest and progress
		if name == "" {
			name = defaultName(t, i+1)
		}
		// Two targets on one host: api, api-2, api-3.
		base := name
		for n := 2; seen[name]; n++ {
			name = base + "-" + strconv.Itoa(n)
		}
		seen[name] = true
		t.Name = name
		targets[i] = t
	}
	p.Targets = targets
	if len(errs) > 0 {
		return p, &PlanError{Problems: errs}
	}
	return p, nil
}

func (t Target) validate() error {
	switch t.Kind {
	case KindPprof, KindActuator:
		_, err := t.baseURL()
		return err
	case KindJVM:
		if t.PID <= 0 {
			return fmt.Errorf("bad pid %d", t.PID)
		}
	case KindExec:
		if strings.TrimSpace(t.Command) == "" {
			return errors.New("empty command")
		}
	default:
		return fmt.Errorf("unknown target kind %q", t.Kind)
	}
	return nil
}

// fixedLabels are "1".."n", zero-padded to the width of n.
func fixedLabel(i, n int) string {
	return fmt.Sprintf("%0*d", len(strconv.Itoa(n)), i)
}
