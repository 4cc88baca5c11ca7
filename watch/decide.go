package watch

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
)

// What a target's loop decides, apart from what it does about it. Each
// decision is a pure function of a value the loop keeps between ticks and
// what the tick brought; the loop (watch.go, incident.go) applies the
// result: files, bundles, the log, metrics, the --on-incident hook. What
// watch decides, all of it here:
//
//   - the moment's outcome (judgeTake): taken, skipped (a moment of that
//     label exists), the disk's trouble or back, nothing kept (forgotten),
//     the target up, up again, down (first said), or gone silent;
//   - the retry interval of a target that is down (backoffTicks);
//   - incidents (decide): open (on an alert finding new at this moment, or
//     a trigger), join (a new finding, a trigger, while one is open), add
//     the moment, close (recovered, triggered with no finding and none now,
//     --incident-max, the target stopped answering), pin the healthy
//     moments before an open and unpin them at its close;
//   - an incident not recorded (notOpened): its findings open again at the
//     next moment that can record it;
//   - an incident continued after a restart (resumed).
//
// Decided elsewhere, beside the state they read: which moment eviction
// takes (ring.evictTo, with the pins and their release: TestDecide runs
// the ring beside the step), the free-space floor (tick and openIncident
// read the disk's free space), the ticks an overrun skips (loop, on the
// wall clock) and a trigger's rate limit (fire, under target.mu).

// health is what the loop knows of a target's answers between ticks.
type health struct {
	failures int  // consecutive moments without a dump
	down     bool // the last moment gave no dump
	disk     bool // the last moment could not be written
}

// takeDecision is what a moment's Take comes to.
type takeDecision struct {
	skip     bool   // the ring has a moment of this label: not this tick's, nothing else done
	diskErr  bool   // the ring's folder could not be written: one "disk" capture error
	diskSay  string // the disk's trouble, to say (only when it starts)
	diskBack bool   // moments are written again, to say
	forget   bool   // nothing of the moment was kept: its record goes
	up       bool   // the moment gave a dump
	upAgain  bool   // ... after moments without one, to say
	down     string // why the moment gave no dump; "" when it did or the disk is to blame
	downSay  bool   // the first moment without a dump, to say
	silent   bool   // down, and nothing of the moment kept: the target stopped answering
	read     bool   // something of the moment was kept: the ring reads it
}

// judgeTake decides what a moment's Take (its files and error) comes to.
func judgeTake(h health, files []capture.File, err error) (health, takeDecision) {
	var d takeDecision
	if errors.Is(err, capture.ErrMomentExists) {
		d.skip = true // not this tick's moment: never forgotten
		return h, d
	}
	primary, wrote := false, false
	disk := "" // a file that failed on the ring's own disk (full): not the target's fault
	for _, f := range files {
		if f.Reason == capture.ReasonDisk && disk == "" {
			disk = f.Error
		}
		primary = primary || f.Primary && f.OK()
		wrote = wrote || f.OK()
	}
	switch {
	case err != nil:
		// The ring's folder cannot be written (full, removed, read-only):
		// the target is not to blame; what was recorded before is kept.
		d.diskErr = true
		h, d.diskSay = h.trouble(err.Error())
	case disk != "" && !primary:
		// The dump was fetched but could not be written (the manifest
		// still could): the disk's trouble, not the target's.
		h, d.diskSay = h.trouble(disk)
	default:
		d.diskBack = h.disk
		h.disk = false
	}
	d.forget, d.read = !wrote, wrote
	switch {
	case primary:
		d.up, d.upAgain = true, h.down
		h.failures, h.down = 0, false
	case err == nil && disk == "":
		d.down = "no dump"
		for _, f := range files {
			if f.Primary && f.Error != "" {
				d.down = f.Error
			}
		}
		d.downSay, d.silent = !h.down, !wrote
		h.failures++
		h.down = true
	}
	return h, d
}

// trouble is h with the disk in trouble, and why when it is news (said
// once until it is over).
func (h health) trouble(why string) (health, string) {
	if h.disk {
		return h, ""
	}
	h.disk = true
	return h, why
}

// backoffTicks is how many ticks of every to wait before the next moment
// after failures moments without a dump: 1 while the target answers, then
// 2, 4, ... up to maxBackoff (and maxBackoffTime).
func backoffTicks(failures int, every time.Duration) int {
	n := 1
	for i := 1; i < failures && n < maxBackoff; i++ {
		n *= 2
	}
	if lim := int(maxBackoffTime / every); n > lim {
		n = max(1, lim)
	}
	return n
}

// story is what the decisions know of an open incident (its bundle is the
// loop's: incident).
type story struct {
	findings []string // story keys of the findings it is about, in the order they opened
	since    string   // the label of the moment its first finding was first seen; "" for a trigger's with no moment before
	after    int      // moments added since it opened
	trigger  string   // what asked for it (a trigger's reason); "" when a finding opened it
}

// verdictState is what the incident decisions carry from one moment to the
// next.
type verdictState struct {
	// open are the story keys of the findings at alert severity open at
	// the last analysis: a finding is new when it is not among them.
	open map[string]bool
	// inc is the open incident; nil when none. Never changed in place:
	// decide returns a new one.
	inc *story
}

// verdict is what a moment brought for the incident decisions.
type verdict struct {
	at      time.Time        // the clock's time: names a bundle opened, stamps a close
	r       *analyze.Result  // the ring's analysis with the moment; nil when gone is set
	label   string           // the moment just taken (the ring's newest)
	trigger string           // the reason of a triggered moment; "" when none
	gone    string           // the target stopped answering (why): no analysis
	alert   analyze.Severity // Config.Alert
	max     int              // Config.IncidentMax
}

// decision is what happens to incidents at a moment.
type decision struct {
	at time.Time // the verdict's
	// open: an incident bundle opens, about opened (and/or trigger), with
	// the healthy moments pin before since.
	open bool
	// opened are the alert findings not open at the last analysis, in the
	// analysis' order (pointers into the verdict's Result): the new
	// incident's, or those that join the open one.
	opened  []*analyze.Finding
	trigger string   // the trigger that opens or joins; "" none
	pin     []string // on open: the labels of the moments before it, oldest first
	since   string   // on open: story.since
	add     string   // the label of the moment the open incident takes; "" none
	after   int      // with add: the incident's moments after its open, this one counted
	close   string   // why the open incident closes; "" when it does not
	unpin   string   // with close: the since of the incident closed (ring.unpin)
	// story is the incident the decision is about as it stands after the
	// moment (opened, joined, added to, or closing); nil when none.
	story *story
}

// decide is the incident step: the state after the moment and what
// happens. An alert finding that was not open at the last analysis opens
// an incident (or joins the one open); an open incident takes the moment,
// and closes when none of its findings is open any more, or after max
// moments. A triggered moment opens an incident whatever the verdict (its
// findings, if any, are the incident's), or joins the one open; an
// incident a trigger opened with no finding closes at the next moment that
// has none: the bundle holds the moments before, the triggered one and one
// after. A target that stopped answering closes the incident open.
func decide(s verdictState, v verdict) (verdictState, decision) {
	d := decision{at: v.at}
	if v.gone != "" {
		// What it said last is not what it says now: an open incident ends
		// here (a crash, an OOM kill, a restart is often how one ends).
		if s.inc != nil {
			d.close, d.unpin, d.story = "the target stopped answering: "+v.gone, s.inc.since, s.inc
		}
		return verdictState{}, d
	}
	r := v.r
	open := map[string]bool{}
	for i := range r.Findings {
		f := &r.Findings[i]
		if f.Severity < v.alert || f.Recovered {
			continue
		}
		k := storyKey(f)
		if open[k] {
			continue
		}
		open[k] = true
		if !s.open[k] {
			d.opened = append(d.opened, f)
		}
	}
	d.trigger = v.trigger
	next := verdictState{open: open}
	if s.inc == nil {
		if len(d.opened) == 0 && v.trigger == "" {
			return next, d
		}
		inc := &story{trigger: v.trigger}
		for _, f := range d.opened {
			inc.findings = append(inc.findings, storyKey(f))
		}
		// The moments before the first of its findings are the healthy
		// before: the ring keeps them while the incident is open.
		since := len(r.Moments)
		if v.trigger != "" {
			since = len(r.Moments) - 1 // the triggered moment: the ones before are the before
		}
		for _, f := range d.opened {
			since = min(since, f.Since)
		}
		for _, mo := range r.Moments[:max(0, since)] {
			d.pin = append(d.pin, mo.Label)
		}
		if since >= 0 && since < len(r.Moments) {
			inc.since = r.Moments[since].Label
		}
		d.open, d.since, d.story = true, inc.since, inc
		next.inc = inc
		return next, d
	}
	inc := &story{findings: slices.Clone(s.inc.findings), since: s.inc.since, after: s.inc.after + 1, trigger: s.inc.trigger}
	d.add, d.after = v.label, inc.after
	for _, f := range d.opened {
		inc.findings = append(inc.findings, storyKey(f))
	}
	still := slices.ContainsFunc(inc.findings, func(k string) bool { return open[k] })
	switch {
	case !still && len(inc.findings) == 0:
		d.close = fmt.Sprintf("recovered after %d moments: triggered (%s), no finding", inc.after, inc.trigger)
	case !still:
		d.close = fmt.Sprintf("recovered after %d moments", inc.after)
	case inc.after >= v.max:
		d.close = fmt.Sprintf("still open after %d moments (--incident-max)", inc.after)
	}
	d.story = inc
	if d.close != "" {
		d.unpin = inc.since
		inc = nil
	}
	next.inc = inc
	return next, d
}

// notOpened is the state after decision d opened an incident the loop
// could not record (under the free-space floor, a folder that cannot be
// made): no incident, and its findings not open, so that it opens at the
// next moment it can be.
func notOpened(next verdictState, d decision) verdictState {
	open := maps.Clone(next.open)
	for _, f := range d.opened {
		delete(open, storyKey(f))
	}
	return verdictState{open: open}
}

// resumed is the state of an incident a watch left open (saved, its
// incident.json) and continued now, with the moments before it the ring
// pins (from labels, its bundle's moments, oldest first; trigger is what
// asked for it, as its manifest says): its findings
// are open (not new), its moments go on counting.
func resumed(saved incidentState, trigger string, labels []string) (verdictState, []string) {
	s := verdictState{open: map[string]bool{}, inc: &story{findings: slices.Clone(saved.Findings), since: saved.Since, after: saved.After, trigger: trigger}}
	for _, k := range saved.Findings {
		s.open[k] = true
	}
	var pin []string
	for _, l := range labels {
		if l == saved.Since {
			break
		}
		pin = append(pin, l)
	}
	return s, pin
}
