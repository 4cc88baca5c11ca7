package watch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/internal/bearer"
	"github.com/dumpdiff/dumpdiff/internal/private"
)

// Defaults for a Config's zero fields. Each says what it protects.
const (
	// DefaultKeep moments per ring: 40 moments of 15 s are the last ten
	// minutes, long enough to hold a healthy "before" of a slow incident.
	DefaultKeep = 40
	// DefaultMaxBytes is the bound of every ring together: 1 GiB holds the
	// 40 moments of 3 to 6 rings of a 10,000-goroutine service (its debug=2
	// moments 3-8 MiB: README, Watch), or of 200 rings of a 150-goroutine
	// one (120 KiB a moment).
	DefaultMaxBytes = 1 << 30
	// DefaultMinFree is the free space below which no moment is written
	// (the disk is the service's too).
	DefaultMinFree = 256 << 20
	// DefaultIncidentMax moments are added to an incident after it opens
	// before it is closed unrecovered (at 15 s, ten minutes).
	DefaultIncidentMax = 40
	// DefaultTopSeries is how many (pool, state) series dumpdiff_threads
	// shows per target; the rest are summed per state under pool "other".
	DefaultTopSeries = 20
	// maxBackoff bounds the retry interval of a target that is down, as a
	// multiple of Every: a target that comes back is seen within 16 ticks.
	maxBackoff = 16
	// maxBackoffTime bounds it in time whatever Every is.
	maxBackoffTime = 5 * time.Minute
)

// onIncidentTimeout bounds an --on-incident command: a pager script that
// hangs must not pile up. A variable for tests.
var onIncidentTimeout = 30 * time.Second

// Config is what to watch and how.
type Config struct {
	// Targets are captured every Every, each into its own ring; at least
	// one. Names are made unique as capture makes them.
	Targets []capture.Target
	// Every is the interval between moments; at least 10 ms.
	Every time.Duration
	// Keep is how many moments a ring holds; 0 means DefaultKeep.
	Keep int
	// MaxBytes bounds the bytes of every ring together; 0 means
	// DefaultMaxBytes. Each ring gets an equal share: a target whose dumps
	// are large holds fewer moments, and never evicts another's.
	MaxBytes int64
	// MinFree is the free space of Dir's file system below which a moment
	// is not taken (recorded as a "disk" error); 0 means DefaultMinFree,
	// negative means no floor.
	MinFree int64
	// Dir holds the rings and the incidents.
	Dir string
	// Alert is the severity from which an open finding opens an incident:
	// analyze.Critical or analyze.Warning; the zero value (Info) means
	// Critical.
	Alert analyze.Severity
	// IncidentMax is how many moments an incident takes after it opens
	// before it is closed unrecovered; 0 means DefaultIncidentMax.
	IncidentMax int
	// OnIncident is a shell command run (sh -c) when an incident opens
	// and when it closes, with the bundle's path as $1 and in
	// DUMPDIFF_INCIDENT, and DUMPDIFF_INCIDENT_EVENT "open" or "close".
	OnIncident string
	// TopSeries bounds dumpdiff_threads per target; 0 means
	// DefaultTopSeries.
	TopSeries int

	// Capture settings, as capture.Plan has them.
	Timeout  time.Duration
	MaxFile  int64 // capture.Plan.MaxBytes
	MaxPause time.Duration
	Headers  http.Header
	Locks    bool
	// ForceAttach attaches to a pid nothing shows to be a JVM
	// (capture.Plan.ForceAttach).
	ForceAttach bool

	// Analysis are the main command's analysis options (--pool-by,
	// --signatures).
	Analysis analyze.Options

	// Listen is the address of the metrics server ("127.0.0.1:9464");
	// empty for none. Listener, when set, is used instead (tests).
	Listen   string
	Listener net.Listener
	// TriggerToken is the bearer token POST /trigger requires; empty for
	// none, when triggers are taken on a loopback listener only.
	TriggerToken string
	// Trigger takes a moment of every target now for each value received
	// (the reason said: "SIGUSR1"), as POST /trigger does; nil for none.
	Trigger <-chan string

	// Log receives one line per event worth a human's eye: what is
	// watched and where the metrics are, at start; each moment's verdict
	// in a line (unless Quiet); an incident opening, each of its moments,
	// its close; a target going down or coming back; what was kept, at
	// stop. nil discards them.
	Log io.Writer
	// Quiet leaves out the line per moment.
	Quiet bool
	// Build names the dumpdiff running (dumpdiff_build_info).
	Build Build
	// now is the clock (tests); nil means time.Now.
	now func() time.Time
	// link makes a bundle's hard link to a ring's file (tests: one that
	// fails, as across file systems); nil means os.Link.
	link func(oldname, newname string) error
	// tick is called by a target's loop after each of its ticks, with
	// what the tick did (tests wait on it instead of on time); nil for
	// none. Called from each target's goroutine.
	tick func(tickReport)
}

// tickReport is what one tick of a target did, for Config.tick.
type tickReport struct {
	target string
	at     time.Time // the tick's time on the grid (or a trigger's)
	label  string    // the moment's label
	floor  bool      // under the free-space floor: nothing taken
	take   takeDecision
	// result is the ring's analysis with the moment; nil when there was
	// none.
	result *analyze.Result
	// decision is the incident step's, when it ran (an analysis, or the
	// target gone silent); nil when it did not.
	decision *decision
	// ring are the labels of the ring's moments after the tick, oldest
	// first, and ringBytes their bytes on disk.
	ring      []string
	ringBytes int64
}

func (c *Config) defaults() error {
	var errs []error
	if len(c.Targets) == 0 {
		errs = append(errs, errors.New("no targets"))
	}
	if c.Dir == "" {
		errs = append(errs, errors.New("no folder (--out)"))
	}
	if c.Every < 10*time.Millisecond {
		errs = append(errs, fmt.Errorf("--every must be at least 10ms, got %v", c.Every))
	}
	if c.Keep < 0 || c.MaxBytes < 0 || c.IncidentMax < 0 || c.TopSeries < 0 {
		errs = append(errs, errors.New("--keep, --max-bytes, --incident-max and the series bound must not be negative"))
	}
	if c.Keep == 0 {
		c.Keep = DefaultKeep
	}
	if c.MaxBytes == 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.MinFree == 0 {
		c.MinFree = DefaultMinFree
	}
	if c.IncidentMax == 0 {
		c.IncidentMax = DefaultIncidentMax
	}
	if c.TopSeries == 0 {
		c.TopSeries = DefaultTopSeries
	}
	// The zero Alert (analyze.Info) is the default, critical: an info
	// finding (a rise that recovered) is nothing to page for.
	if c.Alert == analyze.Info {
		c.Alert = analyze.Critical
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.link == nil {
		c.link = os.Link
	}
	return errors.Join(errs...)
}

// Run watches until ctx ends, then writes every manifest and open
// incident and returns nil. It returns an error at once when the config is
// refused, a folder cannot be written, or the metrics address cannot be
// listened on: then nothing is captured. A target that fails is never an
// error of Run.
func Run(ctx context.Context, cfg Config) error {
	if err := cfg.defaults(); err != nil {
		return err
	}
	// Names as capture makes them, unique over all targets: each ring is
	// its own folder under Dir.
	plan, err := (capture.Plan{Targets: cfg.Targets, OutDir: cfg.Dir, Count: 1, Headers: cfg.Headers}).Normalized()
	if err != nil {
		return err
	}
	// The metrics address first: a taken port is refused before any
	// folder is made.
	if cfg.Listener == nil && cfg.Listen != "" {
		l, err := net.Listen("tcp", cfg.Listen)
		if err != nil {
			return fmt.Errorf("--listen %s: %w", cfg.Listen, err)
		}
		cfg.Listener = l
	}
	if err := os.MkdirAll(cfg.Dir, private.Dir); err != nil {
		if cfg.Listener != nil {
			cfg.Listener.Close()
		}
		return fmt.Errorf("creating %s: %w", cfg.Dir, err)
	}
	if err := checkWritable(cfg.Dir); err != nil {
		if cfg.Listener != nil {
			cfg.Listener.Close()
		}
		return err
	}
	w := &watcher{cfg: cfg, metrics: newMetrics(cfg.Build), sem: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))}
	share := cfg.MaxBytes / int64(len(plan.Targets))
	taken := map[string]bool{incidentsDir: true}
	for _, t := range plan.Targets {
		name := t.Name
		for n := 2; taken[name]; n++ {
			name = fmt.Sprintf("%s-%d", t.Name, n)
		}
		taken[name] = true
		t.Name = name
		rec, err := capture.NewRecorder(capture.Plan{Targets: []capture.Target{t}, OutDir: filepath.Join(cfg.Dir, name),
			Every: cfg.Every, Timeout: cfg.Timeout, MaxBytes: cfg.MaxFile, MaxPause: cfg.MaxPause, Headers: cfg.Headers, Locks: cfg.Locks, ForceAttach: cfg.ForceAttach})
		if err != nil {
			w.closeAll(err)
			if cfg.Listener != nil {
				cfg.Listener.Close()
			}
			return fmt.Errorf("ring of %s: %w", name, err)
		}
		tw := &target{w: w, name: name, rec: rec, ring: newRing(rec, cfg.Keep, share, cfg.Analysis), trig: make(chan trigger, 1)}
		w.targets = append(w.targets, tw)
	}
	w.otherRings(taken)
	for _, tw := range w.targets {
		w.metrics.zero(tw.name)
		if n := tw.ring.resume(); n > 0 {
			fmt.Fprintf(cfg.Log, "dumpdiff watch: %s: resumed its ring of %d moments in %s\n", tw.name, n, tw.rec.Dir())
		}
		tw.resumeIncident()
		w.metrics.ring(tw.name, tw.ring)
	}
	defer w.serve()()
	w.sayStart()
	start := cfg.now()
	var wg sync.WaitGroup
	for _, tw := range w.targets {
		wg.Go(func() { tw.loop(ctx, start) })
	}
	if cfg.Trigger != nil {
		wg.Go(func() {
			for {
				select {
				case <-ctx.Done():
					return
				case reason := <-cfg.Trigger:
					w.fire(nil, reason)
				}
			}
		})
	}
	wg.Wait()
	w.closeAll(nil)
	w.sayStop(ctx)
	return nil
}

// sayStart is the first line: what is watched, how often, where, and
// where the metrics are.
func (w *watcher) sayStart() {
	var names []string
	for _, tw := range w.targets {
		names = append(names, tw.name)
	}
	s := fmt.Sprintf("watching %s every %s into %s (rings of %d moments, %s on disk at most)",
		strings.Join(names, ", "), w.cfg.Every, w.cfg.Dir, w.cfg.Keep, capture.HumanBytes(w.cfg.MaxBytes))
	if w.cfg.Listener != nil {
		s += "; metrics at http://" + w.cfg.Listener.Addr().String() + "/metrics, triggers at POST /trigger"
		if !bearer.Loopback(w.cfg.Listener) {
			defer w.logf("warning: %s is not a loopback address: the metrics (target names, thread counts, findings) are open to whoever reaches it, and triggers %s",
				w.cfg.Listener.Addr(), map[bool]string{true: "take the bearer token", false: "are refused (no --token-file)"}[w.cfg.TriggerToken != ""])
		}
	} else {
		s += "; no metrics (--listen ADDR serves them)"
	}
	w.logf("%s; an incident opens at a %s finding", s, w.cfg.Alert)
}

// sayStop is the last line: why it stopped and what each ring holds.
func (w *watcher) sayStop(ctx context.Context) {
	why := "stopped"
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
		why = "stopped (" + err.Error() + ")"
	}
	var held []string
	for _, tw := range w.targets {
		n, b := tw.ring.stats()
		held = append(held, fmt.Sprintf("%s %d moments (%s) in %s", tw.name, n, capture.HumanBytes(b), tw.rec.Dir()))
	}
	w.logf("%s: %s; incidents in %s", why, strings.Join(held, ", "), filepath.Join(w.cfg.Dir, incidentsDir))
}

// watcher is the state of one Run.
type watcher struct {
	cfg     Config
	metrics *metrics
	targets []*target
	sem     chan struct{} // analyses at once: one per CPU
	// logMu keeps log lines whole: every target's loop, the trigger
	// handlers and the --on-incident hooks' goroutines write the log.
	logMu sync.Mutex
	hooks sync.WaitGroup // --on-incident commands running
}

func (w *watcher) logf(format string, a ...any) {
	w.logMu.Lock()
	defer w.logMu.Unlock()
	fmt.Fprintf(w.cfg.Log, "dumpdiff watch: "+format+"\n", a...)
}

// closeAll writes every ring's manifest and every open incident.
func (w *watcher) closeAll(cause error) {
	for _, tw := range w.targets {
		tw.stop()
		tw.rec.Close(cause)
	}
	w.onIncidentWait()
}

// serve starts the metrics server on Config.Listener (none when nil);
// the returned func stops it.
func (w *watcher) serve() func() {
	l := w.cfg.Listener
	if l == nil {
		return func() {}
	}
	// A scraper that opens a connection and sends nothing is cut after
	// 5 s (no slow client holds a goroutine for ever); at stop, a scrape
	// in flight has 2 s to finish, so the exit is not held by one.
	mux := http.NewServeMux()
	mux.Handle("/", w.metrics.handler())
	mux.HandleFunc("/trigger", w.triggerHandler)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(l)
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}
}

// otherRings says which rings of an earlier watch under Dir are not
// watched now (a target renamed or dropped): they are not counted in
// --max-bytes, and watch never removes them.
func (w *watcher) otherRings(watched map[string]bool) {
	es, err := os.ReadDir(w.cfg.Dir)
	if err != nil {
		return
	}
	for _, e := range es {
		if !e.IsDir() || watched[e.Name()] {
			continue
		}
		m, err := capture.ReadManifest(filepath.Join(w.cfg.Dir, e.Name()))
		if err != nil || m.Schedule.Kind != "watch" {
			continue
		}
		var n int64
		for _, f := range m.Files {
			n += f.Size
		}
		w.logf("%s: a ring of an earlier watch (%d moments, %s), not watched now: not counted in --max-bytes and left as it is", filepath.Join(w.cfg.Dir, e.Name()), len(m.Moments), capture.HumanBytes(n))
	}
}

// checkWritable makes and removes a file in dir: a folder that cannot be
// written is refused before anything is captured.
func checkWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".watch-check-*")
	if err != nil {
		return fmt.Errorf("%s cannot be written: %w", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// label names the moment of tick time t: the time in UTC, to the second,
// or to the millisecond when moments come faster than one a second. Every
// ring takes a tick's moment under the same label.
func label(t time.Time, every time.Duration) string {
	if every < time.Second {
		return t.UTC().Format("20060102T150405.000Z")
	}
	return t.UTC().Format("20060102T150405Z")
}

// when is a moment's label said as its local time ("05:02:26", with
// milliseconds under a --every of a second, and -2 for a second moment of
// that second): a label is a UTC stamp for files, a time for people. A
// label that is no stamp is said as it is.
func when(l string) string {
	base, n, _ := strings.Cut(l, "-")
	t, err := time.Parse("20060102T150405Z", base) // takes the milliseconds too
	if err != nil {
		return l
	}
	f := "15:04:05"
	if strings.Contains(base, ".") {
		f = "15:04:05.000"
	}
	s := t.Local().Format(f)
	if n != "" {
		s += "-" + n
	}
	return s
}

// target is one watched target: its recorder, ring and incident.
type target struct {
	w    *watcher
	name string
	rec  *capture.Recorder
	ring *ring

	// trig holds the pending triggered moment (one at a time).
	trig chan trigger

	// mu guards lastTrigger: fire runs on the HTTP server's goroutines
	// and the Config.Trigger one, several at once, beside the loop.
	mu          sync.Mutex
	lastTrigger time.Time // when the last triggered moment was asked for

	// The rest is the loop's alone (tick, one goroutine; resume before the
	// loop starts, stop after it ended): no lock.
	health   health       // its answers (judgeTake)
	verdict  verdictState // the incident decisions' state (decide)
	incident *incident    // the open bundle; nil exactly when verdict.inc is
}

// loop takes a moment at every tick (start + k·Every) until ctx ends. A
// moment that takes longer than Every skips the ticks it overran, and a
// target that is down waits out its backoff: ticks never bunch up.
func (tw *target) loop(ctx context.Context, start time.Time) {
	every := tw.w.cfg.Every
	next := start
	// carried is a triggered moment that got no answer (the target down,
	// the dump refused): the next moment that answers is the triggered
	// one, so that an alert on a service that stopped answering is not
	// lost. A newer trigger takes its place.
	var carried *trigger
	for {
		wait := time.Until(next)
		if wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case trig := <-tw.trig:
				// A triggered moment now; the grid's next tick stays.
				t.Stop()
				carried = nil
				if !tw.tick(ctx, tw.w.cfg.now(), &trig) {
					carried = &trig
				}
				continue
			case <-t.C:
			}
		}
		if ctx.Err() != nil {
			return
		}
		trig := carried
		select {
		case t := <-tw.trig: // asked for while the last moment was taken: this one answers it
			trig = &t
		default:
		}
		carried = nil
		if !tw.tick(ctx, next, trig) && trig != nil {
			carried = trig
		}
		if ctx.Err() != nil {
			return
		}
		step := every * time.Duration(backoffTicks(tw.health.failures, every))
		now := tw.w.cfg.now()
		after := next.Add(step)
		if after.Before(now) {
			// Overran: the next tick on the grid after now; the ticks
			// between the one planned and it were missed (those a backoff
			// skips on purpose are not counted).
			later := next.Add((now.Sub(next)/every + 1) * every)
			if missed := later.Sub(after) / every; missed > 0 {
				tw.w.metrics.skipped.WithLabelValues(tw.name).Add(float64(missed))
			}
			after = later
		}
		next = after
	}
}

// tick takes one moment, analyzes the ring, and acts on the verdict. It
// reports whether the moment was analyzed: a triggered moment that was
// not is said, and carried by the loop to the next moment.
func (tw *target) tick(ctx context.Context, at time.Time, trig *trigger) (answered bool) {
	w := tw.w
	l := tw.unique(label(at, w.cfg.Every))
	rep := tickReport{target: tw.name, at: at, label: l}
	if trig != nil {
		defer func() {
			if !answered && ctx.Err() == nil {
				w.logf("%s: trigger (%s) not answered at %s: the next moment that answers is the triggered one", tw.name, trig.reason, l)
			}
		}()
	}
	if w.cfg.tick != nil {
		defer func() {
			for _, rm := range tw.ring.moments {
				rep.ring = append(rep.ring, rm.label)
			}
			rep.ringBytes = tw.ring.bytes
			w.cfg.tick(rep)
		}()
	}
	if free, ok := freeBytes(w.cfg.Dir); ok && w.cfg.MinFree > 0 && free < uint64(w.cfg.MinFree) {
		w.metrics.captureError(tw.name, capture.ReasonDisk)
		var say string
		if tw.health, say = tw.health.trouble(fmt.Sprintf("%s has %s free, under the floor of %s: no moment written", w.cfg.Dir, capture.HumanBytes(int64(free)), capture.HumanBytes(w.cfg.MinFree))); say != "" {
			w.logf("%s: %s (each tick tries again)", tw.name, say)
		}
		rep.floor = true
		return false
	}
	if err := tw.ring.makeRoom(); err != nil {
		w.logf("%s: evicting the oldest moments: %v", tw.name, err)
	}
	w.metrics.ring(tw.name, tw.ring)
	began := time.Now()
	files, err := tw.rec.Take(ctx, l, at)
	took := time.Since(began)
	if ctx.Err() != nil {
		// Abandoned: Run writes the manifest. What the moment wrote
		// before the stop stays (a debug=1 beside a dump cut short) only
		// within the ring's share: makeRoom kept room for a moment the
		// size of the last, and no evict follows this one.
		var wrote int64
		for _, f := range files {
			wrote += f.Size
		}
		if tw.ring.bytes+wrote > tw.ring.share {
			tw.rec.Forget(l)
		}
		return false
	}
	for _, f := range files {
		if f.Error != "" {
			w.metrics.captureError(tw.name, f.Reason)
		}
		if f.Cost != nil && (f.Cost.PauseMS > 0 || f.Cost.PauseSource != "") {
			// Measured (a measured 0 too: a JSON dump's safepoint may take
			// under a millisecond).
			w.metrics.pause.WithLabelValues(tw.name).Observe(f.Cost.PauseMS / 1000)
		} else if f.Cost != nil && f.Cost.EstimatedPauseMS > 0 {
			w.metrics.pause.WithLabelValues(tw.name).Observe(f.Cost.EstimatedPauseMS / 1000)
		}
	}
	var d takeDecision
	tw.health, d = judgeTake(tw.health, files, err)
	rep.take = d
	if d.skip {
		w.logf("%s: %v: tick skipped", tw.name, err) // not this tick's moment: never forgotten
		return false
	}
	if d.diskErr {
		w.metrics.captureError(tw.name, capture.ReasonDisk)
	}
	if d.diskSay != "" {
		w.logf("%s: %s (each tick tries again)", tw.name, d.diskSay)
	}
	if d.diskBack {
		w.logf("%s: moments are written again", tw.name)
	}
	if d.forget {
		// Nothing of the moment was kept: its record goes, its failures
		// are counted.
		tw.rec.Forget(l)
	}
	if d.up {
		w.metrics.captureSeconds.WithLabelValues(tw.name).Observe(took.Seconds())
		w.metrics.lastCapture.WithLabelValues(tw.name).Set(float64(at.UnixNano()) / 1e9)
		w.metrics.up.WithLabelValues(tw.name).Set(1)
		if d.upAgain {
			w.logf("%s: up again", tw.name)
		}
	}
	if d.down != "" {
		w.metrics.up.WithLabelValues(tw.name).Set(0)
		if d.downSay {
			w.logf("%s: down: %s (retried with backoff)", tw.name, d.down)
		}
	}
	if d.silent {
		// What it said last is not what it says now: no threads and no
		// findings are served for it, and an open incident ends here.
		w.metrics.clear(tw.name)
		next, dd := decide(tw.verdict, verdict{at: w.cfg.now(), gone: d.down})
		tw.apply(ctx, nil, next, dd)
		rep.decision = &dd
	}
	if !d.read {
		return false
	}
	// A moment whose dump failed may still count from what was kept
	// beside it (debug=1), as the main command reads it.
	notes, err := tw.ring.add(l)
	for _, n := range notes {
		w.logf("%s: moment %s: %s", tw.name, l, n)
	}
	if err != nil {
		// Not read, but on disk and in the ring's bounds: evicted in turn.
		w.logf("%s: moment %s not analyzed: %v", tw.name, l, err)
	} else {
		w.sem <- struct{}{}
		began = time.Now()
		r := tw.ring.analyze()
		w.metrics.analysisSeconds.WithLabelValues(tw.name).Observe(time.Since(began).Seconds())
		<-w.sem
		w.metrics.verdict(tw.name, r, w.cfg.TopSeries)
		if !w.cfg.Quiet {
			w.logf("%s", momentLine(tw.name, at, r, w.cfg.Alert))
		}
		dd := tw.incidents(ctx, r, l, trig)
		rep.result, rep.decision = r, &dd
		answered = true
	}
	if n, freed, err := tw.ring.evict(); err != nil {
		w.logf("%s: evicting the oldest moments: %v", tw.name, err)
	} else if held, _ := tw.ring.stats(); n > 0 && held == 0 {
		w.logf("%s: one moment (%s) is larger than the ring's share of --max-bytes (%s): the ring holds none", tw.name, capture.HumanBytes(freed), capture.HumanBytes(tw.ring.share))
	}
	w.metrics.ring(tw.name, tw.ring)
	return answered
}

// momentLine is a moment's verdict in one line: "api 12:03:05 · 224
// threads (200 waiting, 4 idle) · no findings", or the open findings,
// the most severe first ("CRITICAL stuck http-nio-* (+1 more)").
func momentLine(name string, at time.Time, r *analyze.Result, alert analyze.Severity) string {
	last := len(r.Moments) - 1
	cats := map[analyze.Category]int{}
	total := 0
	for _, p := range r.Pools {
		for _, g := range p.States {
			cats[g.Category] += g.Counts[last]
			total += g.Counts[last]
		}
	}
	var parts []string
	for _, c := range []analyze.Category{analyze.Waiting, analyze.Idle, analyze.Running} {
		if cats[c] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", cats[c], c))
		}
	}
	s := fmt.Sprintf("%s %s · %d threads", name, at.Local().Format("15:04:05"), total)
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	var open []*analyze.Finding
	for i := range r.Findings {
		if !r.Findings[i].Recovered {
			open = append(open, &r.Findings[i])
		}
	}
	if len(open) == 0 {
		return s + " · no findings"
	}
	slices.SortStableFunc(open, func(a, b *analyze.Finding) int { return cmp.Compare(b.Severity, a.Severity) })
	s += " · " + brief(open[0])
	if len(open) > 1 {
		s += fmt.Sprintf(" (+%d more)", len(open)-1)
	}
	if open[0].Severity < alert {
		s += " · under --alert " + alert.String() + ": no incident"
	}
	return s
}

// unique is l, or l-2, l-3... when the ring already has l (a restart
// within the second its last moment was taken).
func (tw *target) unique(l string) string {
	taken := map[string]bool{}
	for _, mo := range tw.rec.Manifest().Moments {
		taken[mo.Label] = true
	}
	base := l
	for n := 2; taken[l]; n++ {
		l = fmt.Sprintf("%s-%d", base, n)
	}
	return l
}
