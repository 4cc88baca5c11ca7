package watch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/internal/private"
	"github.com/dumpdiff/dumpdiff/report"
)

// incidentsDir is the folder of the bundles under Config.Dir (never a
// ring's name).
const incidentsDir = "incidents"

// incident is one open bundle: DIR/incidents/<time>-<target>/. What it
// follows (its findings, moments, trigger) is the decisions' story
// (decide.go); this is what the loop keeps to write it.
type incident struct {
	dir     string
	moments []ringMoment
	man     capture.Manifest
	src     string // the ring's folder the files are linked from

	hardLink func(oldname, newname string) error // Config.link
}

// incidents decides what the verdict of the moment just taken (label)
// does to incidents (decide) and applies it: the bundle opened, the moment
// added, findings and a trigger that join, the close; the log, metrics,
// pins and --on-incident hook that go with them.
func (tw *target) incidents(ctx context.Context, r *analyze.Result, label string, trig *trigger) decision {
	w := tw.w
	v := verdict{at: w.cfg.now(), r: r, label: label, alert: w.cfg.Alert, max: w.cfg.IncidentMax}
	if trig != nil {
		v.trigger = trig.reason
	}
	next, d := decide(tw.verdict, v)
	tw.apply(ctx, r, next, d)
	return d
}

// apply does what decision d says, and makes next the target's state.
func (tw *target) apply(ctx context.Context, r *analyze.Result, next verdictState, d decision) {
	w := tw.w
	inc := tw.incident
	switch {
	case d.open:
		if !tw.openIncident(ctx, r, d) {
			// Not recorded: it opens at the next moment it can be.
			next = notOpened(next, d)
		}
	case inc != nil:
		if rm, ok := tw.ring.last(); ok && d.add != "" && rm.label == d.add {
			if err := inc.add(rm, tw.name, *d.story); err != nil {
				w.logf("%s: incident %s: moment %s not kept: %v", tw.name, inc.dir, when(d.add), err)
			} else {
				w.logf("%s: incident moment %s (%d of at most %d) in %s", tw.name, when(d.add), d.after, w.cfg.IncidentMax, inc.dir)
			}
		}
		for _, f := range d.opened {
			w.logf("%s: incident %s: also %s", tw.name, inc.dir, oneLine(r, f))
		}
		if d.trigger != "" {
			w.logf("%s: incident %s: trigger (%s) joins it", tw.name, inc.dir, d.trigger)
		}
		if d.close != "" {
			tw.closeIncident(d)
		}
	}
	tw.verdict = next
}

// openIncident makes the bundle from the ring's moments (decision d
// opened it); false when it could not.
func (tw *target) openIncident(ctx context.Context, r *analyze.Result, d decision) bool {
	w := tw.w
	now := d.at
	opened, st := d.opened, *d.story
	// Bundles are never removed by watch: under the free-space floor none
	// is opened (its moments would stay once the ring forgets them).
	if free, ok := freeBytes(w.cfg.Dir); ok && w.cfg.MinFree > 0 && free < uint64(w.cfg.MinFree) {
		w.metrics.incidentsRefused.WithLabelValues(tw.name).Inc()
		what := ""
		if len(opened) > 0 {
			what = oneLine(r, opened[0])
		} else if d.trigger != "" {
			what = "triggered: " + d.trigger
		}
		w.logf("%s: incident not recorded (%s): %s has %s free, under the floor of %s", tw.name, what, w.cfg.Dir, capture.HumanBytes(int64(free)), capture.HumanBytes(w.cfg.MinFree))
		return false
	}
	base := filepath.Join(w.cfg.Dir, incidentsDir, now.UTC().Format("20060102T150405Z")+"-"+tw.name)
	if err := os.MkdirAll(filepath.Dir(base), private.Dir); err != nil {
		w.logf("%s: incident not recorded: %v", tw.name, err)
		return false
	}
	dir := base
	for n := 2; ; n++ {
		err := os.Mkdir(dir, private.Dir)
		if err == nil {
			break
		}
		// Names collide only within a second of one target (two opens a
		// second apart); a hundred means something else is wrong.
		if !errors.Is(err, fs.ErrExist) || n > 100 {
			w.logf("%s: incident not recorded: %v", tw.name, err)
			return false
		}
		dir = base + "-" + strconv.Itoa(n) // never another's folder
	}
	m := tw.rec.Manifest()
	inc := &incident{dir: dir, src: tw.rec.Dir(), hardLink: w.cfg.link, man: capture.Manifest{Version: capture.ManifestVersion, Started: now,
		Schedule: m.Schedule, Targets: m.Targets, MaxPause: m.MaxPause, Moments: []capture.Moment{}, Files: []capture.File{}}}
	inc.man.Trigger = st.trigger
	ring := tw.ring.snapshot()
	for _, rm := range ring {
		if err := inc.link(rm); err != nil {
			w.logf("%s: incident %s: moment %s not kept: %v", tw.name, dir, when(rm.label), err)
		}
	}
	if len(ring) > 0 {
		// The seconds before the incident, one a second, from a target
		// serving package handler's flight recorder, beside the moment
		// that opened it.
		inc.flight(ctx, tw, ring[len(ring)-1].label)
	}
	if err := inc.write(r, time.Time{}); err != nil {
		w.logf("%s: incident %s: %v", tw.name, dir, err)
	}
	tw.incident = inc
	defer func() {
		if err := inc.saveState(tw.name, st, true); err != nil {
			w.logf("%s: incident %s: %v", tw.name, dir, err)
		}
	}()
	tw.ring.pin(d.pin)
	w.metrics.incidentOpened(tw.name)
	var how string
	switch {
	case d.trigger != "" && len(opened) > 0:
		how = "triggered (" + d.trigger + "): " + openLine(r, opened)
	case d.trigger != "":
		how = "triggered (" + d.trigger + ")"
	default:
		how = openLine(r, opened)
	}
	w.logf("%s: incident opened: %s; %d moments up to it in %s", tw.name, how, len(inc.moments), dir)
	w.onIncident(dir, "open")
	return true
}

// flight fetches the target's flight recorder snapshot beside moment label
// (capture.Recorder.Flight) and puts it into the bundle; a target that
// serves none adds nothing, and one that answered 404 is not asked again.
func (inc *incident) flight(ctx context.Context, tw *target, label string) {
	files, err := tw.rec.Flight(ctx, label)
	if err != nil {
		tw.w.logf("%s: incident %s: %v", tw.name, inc.dir, err)
	}
	for _, f := range files {
		if f.Path != "" {
			if err := linkOrCopy(inc.hardLink, filepath.Join(inc.src, f.Path), filepath.Join(inc.dir, f.Path)); err != nil {
				tw.w.logf("%s: incident %s: flight recorder snapshot not kept: %v", tw.name, inc.dir, err)
				continue
			}
		}
		inc.man.Files = append(inc.man.Files, f)
	}
}

// add takes a moment after the open (st is the incident's story with it).
func (inc *incident) add(rm ringMoment, target string, st story) error {
	err := inc.link(rm)
	inc.man.Recount()
	if serr := inc.saveState(target, st, true); serr != nil {
		err = errors.Join(err, serr)
	}
	if werr := capture.WriteManifest(inc.dir, &inc.man); werr != nil {
		err = errors.Join(err, werr)
	}
	return err
}

// link puts a ring moment's files into the bundle (hard links: the ring
// may forget the moment, the bundle keeps it) and records them.
func (inc *incident) link(rm ringMoment) error {
	var errs []error
	for _, f := range rm.files {
		if f.Path != "" {
			if err := linkOrCopy(inc.hardLink, filepath.Join(inc.src, f.Path), filepath.Join(inc.dir, f.Path)); err != nil {
				errs = append(errs, err)
				f.Path, f.Size, f.Error, f.Reason = "", 0, "not kept in the incident: "+err.Error(), capture.ReasonDisk
			}
		}
		inc.man.Files = append(inc.man.Files, f)
	}
	mo := rm.moment
	mo.Index, mo.Run = len(inc.man.Moments), 0
	inc.man.Moments = append(inc.man.Moments, mo)
	inc.moments = append(inc.moments, rm)
	return errors.Join(errs...)
}

// write writes the bundle's manifest and reports (r is its analysis);
// closed is when it closed, zero while it is open.
func (inc *incident) write(r *analyze.Result, closed time.Time) error {
	if !closed.IsZero() {
		inc.man.Finished = closed
	}
	inc.man.Recount()
	errs := []error{capture.WriteManifest(inc.dir, &inc.man)}
	for _, f := range []struct {
		name   string
		format report.Format
	}{{"report.md", report.FormatMarkdown}, {"report.html", report.FormatHTML}, {"report.json", report.FormatJSON}} {
		var b bytes.Buffer
		if err := report.Generate(&b, r, report.Options{Format: f.format}); err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, writeReplace(inc.dir, f.name, b.Bytes()))
	}
	return errors.Join(errs...)
}

// closeIncident writes the bundle's last analysis and reports (decision d
// closed it).
func (tw *target) closeIncident(d decision) {
	inc := tw.incident
	if inc == nil {
		return
	}
	tw.incident = nil
	tw.ring.unpin(d.unpin)
	w := tw.w
	var in []analyze.Input
	for _, rm := range inc.moments {
		if rm.ok {
			in = append(in, rm.input)
		}
	}
	if inc.man.Error == "" && !strings.HasPrefix(d.close, "recovered") {
		inc.man.Error = d.close
	}
	w.sem <- struct{}{}
	r := analyze.Analyze(in, tw.ring.opt)
	<-w.sem
	if err := inc.write(r, d.at); err != nil {
		w.logf("%s: incident %s: %v", tw.name, inc.dir, err)
	}
	if err := inc.saveState(tw.name, *d.story, false); err != nil {
		w.logf("%s: incident %s: %v", tw.name, inc.dir, err)
	}
	w.metrics.incidentClosed(tw.name)
	w.logf("%s: incident closed: %s; %d moments in %s", tw.name, d.close, len(inc.moments), inc.dir)
	w.onIncident(inc.dir, "close")
}

// stop ends the target at watch's stop: an open incident is written as
// it stands, not closed.
func (tw *target) stop() {
	inc := tw.incident // the loops have ended: nothing else reads it
	if inc == nil {
		return
	}
	var in []analyze.Input
	for _, rm := range inc.moments {
		if rm.ok {
			in = append(in, rm.input)
		}
	}
	inc.man.Error = "watch stopped while the incident was open"
	if err := inc.write(analyze.Analyze(in, tw.ring.opt), time.Time{}); err != nil {
		tw.w.logf("%s: incident %s: %v", tw.name, inc.dir, err)
	}
	if err := inc.saveState(tw.name, *tw.verdict.inc, true); err != nil {
		tw.w.logf("%s: incident %s: %v", tw.name, inc.dir, err)
	}
	tw.w.logf("%s: incident left open at stop: %d moments in %s", tw.name, len(inc.moments), inc.dir)
}

// storyKey is what an incident follows of a finding: its pool and state
// (and what the state waits on), whatever kind the ring's moments make of
// it as they slide (a rise is "growing", then "not-recovered" once it
// stops rising, and the pool it fills "saturated": one story). A finding
// of no one pool and state (a deadlock, an explosion) is its ID.
func storyKey(f *analyze.Finding) string {
	if f.Pool == "" || f.State == "" {
		return f.ID
	}
	return f.Pool + "\x00" + f.State + "\x00" + f.Via
}

// openLine says what opened an incident: the first finding as oneLine
// says it, then each other one in brief (kind, pool, state, culprit):
// the story order puts a cause first where the analysis links it, and
// where it does not (two pools, no link between them), the culprit may
// be in the second.
func openLine(r *analyze.Result, fs []*analyze.Finding) string {
	s := oneLine(r, fs[0])
	for _, f := range fs[1:] {
		s += "; and " + brief(f)
	}
	return s
}

// brief is a finding in a few words: "CRITICAL not-recovered
// main.(*workerPool).start socket-read (culprit main.(*upstreamConn).get)".
func brief(f *analyze.Finding) string {
	s := strings.ToUpper(f.Severity.String()) + " " + f.Kind
	for _, p := range []string{f.Pool, report.StateName(f.State, f.Via)} {
		if p != "" {
			s += " " + p
		}
	}
	if f.Culprit != "" {
		s += " (culprit " + report.ShortFrame(f.Culprit) + ")"
	}
	return s
}

// oneLine is a finding for a log line: severity, kind and pool, then the
// first clause of the reports' sentence.
func oneLine(r *analyze.Result, f *analyze.Finding) string {
	s := strings.ToUpper(f.Severity.String()) + " " + f.Kind
	if f.Pool != "" {
		s += " " + f.Pool
	}
	if c := report.SummaryClauses(r, f); len(c) > 0 {
		s += ": " + saidAsTimes(r, c[0])
	}
	return s
}

// saidAsTimes is text with each moment's label (a UTC stamp, for files)
// said as its time (when: "19:00:01.016"), for people reading the log.
func saidAsTimes(r *analyze.Result, text string) string {
	for i := len(r.Moments) - 1; i >= 0; i-- { // later labels first: "…Z-2" before "…Z"
		if l := r.Moments[i].Label; l != "" {
			text = strings.ReplaceAll(text, l, when(l))
		}
	}
	return text
}

// onIncident runs Config.OnIncident for a bundle, in the background and
// bounded by onIncidentTimeout; its output goes to the log, a line each.
func (w *watcher) onIncident(dir, event string) {
	if w.cfg.OnIncident == "" {
		return
	}
	w.hooks.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), onIncidentTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "sh", "-c", w.cfg.OnIncident, "sh", dir)
		cmd.Env = append(os.Environ(), "DUMPDIFF_INCIDENT="+dir, "DUMPDIFF_INCIDENT_EVENT="+event)
		// The bound holds for what the command started too: its group is
		// killed, and a child still holding the output is not waited for.
		capture.KillGroupOnCancel(cmd)
		cmd.WaitDelay = time.Second
		out, err := cmd.CombinedOutput()
		for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
			if l != "" {
				w.logf("--on-incident| %s", strconv.Quote(l)[1:len(strconv.Quote(l))-1])
			}
		}
		if err != nil {
			w.logf("--on-incident %s for %s: %v", event, dir, err)
		}
	})
}

// onIncidentWait waits for the commands still running (each bounded).
func (w *watcher) onIncidentWait() { w.hooks.Wait() }

// linkOrCopy makes dst the same file as src: a hard link (made by link,
// os.Link but in tests), which shares src's mode, else a copy (the bundle
// on another file system), made private as capture made src. An existing
// dst is never replaced.
func linkOrCopy(link func(oldname, newname string) error, src, dst string) error {
	err := link(src, dst)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, private.File)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(dst)
		return err
	}
	return out.Close()
}

// writeReplace writes dir/name through a temp file and a rename: a
// reader never sees half a report. os.CreateTemp makes it private.File.
func writeReplace(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, "."+name+"-*.tmp")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), filepath.Join(dir, name))
}
