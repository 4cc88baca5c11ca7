package report

import (
	"fmt"
	"github.com/dumpdiff/dumpdiff/parse"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/words"
)

// Summary is the one place where a finding's facts become a sentence. Text,
// Markdown, JSON ("summary") and the TUI all show this sentence.
func Summary(r *analyze.Result, f *analyze.Finding) string {
	return strings.Join(SummaryClauses(r, f), "; ")
}

// SummaryClauses are the clauses of Summary's sentence, in order: the first
// says what happened, the rest the numbers, culprit, entry points, cause
// and caveat. For renderers that lead with the first clause.
func SummaryClauses(r *analyze.Result, f *analyze.Finding) []string {
	s := sentences{r: r, f: f}
	switch f.Kind {
	case analyze.KindDeadlock:
		s.deadlock()
	case analyze.KindContention:
		s.contention()
	case analyze.KindStuck:
		s.stuck()
	case analyze.KindNotRecovered, analyze.KindGrowing, analyze.KindRecovered:
		s.timeline()
	case analyze.KindSaturated:
		s.saturated()
	case analyze.KindExplosion:
		s.explosion()
	case analyze.KindLeaked:
		s.leaked()
	case analyze.KindEventLoopBlocked:
		s.eventLoop()
	case analyze.KindCommonPoolStarved:
		s.commonPool()
	case analyze.KindVThreadSchedulerSaturated:
		s.vthreadScheduler()
	case analyze.KindKeptAlive:
		s.keptAlive()
	case analyze.KindSpinning:
		s.spinning()
	default:
		if strings.HasSuffix(f.Kind, "-pool-exhausted") {
			s.poolExhausted()
		} else {
			s.add("%s in %s", f.Kind, f.Pool)
		}
	}
	s.caveat()
	return s.parts
}

// sentences accumulates the clauses of one summary.
type sentences struct {
	r     *analyze.Result
	f     *analyze.Finding
	parts []string
}

func (s *sentences) add(format string, a ...any) {
	s.parts = append(s.parts, fmt.Sprintf(format, a...))
}

func (s *sentences) moment(i int) string { return sentenceMoment(s.r, i) }

func (s *sentences) last() int { return len(s.r.Moments) - 1 }

func (s *sentences) unit() string { return s.r.Runtime.Unit() }

// momentName names moment i in a sentence: its label, or "moment 2" when
// the label is a bare number (a fixed-schedule capture labels them 1..N).
func sentenceMoment(r *analyze.Result, i int) string {
	if i < 0 || i >= len(r.Moments) {
		return fmt.Sprintf("moment %d", i+1)
	}
	l := r.Moments[i].Label
	if strings.Trim(l, "0123456789") == "" {
		return "moment " + l
	}
	return l
}

// stateText names a state for sentences: "in socket-read via jdbc org.postgresql",
// in the words of every view (stateName).
func stateText(state, via string) string { return "in " + stateName(state, via) }

func (s *sentences) series(c []int) string {
	parts := make([]string, len(c))
	for i, x := range c {
		parts[i] = fmt.Sprintf("%d at %s", x, s.moment(i))
	}
	return strings.Join(parts, ", ")
}

// frames lists frames with counts, at most three and "N more".
func frames(fcs []analyze.FrameCount) string {
	var parts []string
	for i, c := range fcs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("%d more", len(fcs)-3))
			break
		}
		parts = append(parts, fmt.Sprintf("%s: %d", c.Func, c.Count))
	}
	return strings.Join(parts, ", ")
}

// culpritAndEntries says where the wait starts and where the work entered:
// "culprit X; entry points A: 93, B: 3", then a health check by name.
func (s *sentences) culpritAndEntries() {
	f := s.f
	if f.Culprit != "" {
		c := "culprit " + f.Culprit
		if len(f.Culprits) > 1 {
			c += " (also " + frames(f.Culprits[1:]) + ")"
		}
		if f.PoolFrame != "" {
			c += ", waiting in the pool at " + f.PoolFrame
		}
		s.add("%s", c)
	}
	// Entry points matter when they tell more than the culprit: several of
	// them, or one that is not the culprit itself.
	if len(f.Entries) > 1 || len(f.Entries) == 1 && f.Entries[0].Func != f.Culprit {
		s.add("entry points %s", frames(f.Entries))
	}
	s.probes(f.Entries)
}

func (s *sentences) probes(es []analyze.FrameCount) {
	for _, e := range es {
		if e.Probe {
			s.add("the health check %s waits too (%d): the load balancer or orchestrator will see this instance as down", e.Func, e.Count)
			return
		}
	}
}

func (s *sentences) same(from int) {
	f := s.f
	if f.Same <= 0 {
		return
	}
	if f.Same == 1 {
		s.add("the one seen at %s is still there at %s", s.moment(from), s.moment(s.last()))
		return
	}
	s.add("%d are the same %s stuck there from %s to %s", f.Same, s.unit(), s.moment(from), s.moment(s.last()))
}

func (s *sentences) cpu() {
	f := s.f
	if f.CPUThreads == 0 {
		return
	}
	per := f.CPU / time.Duration(f.CPUThreads)
	busy := "waiting, not working"
	if per > 100*time.Millisecond {
		busy = "busy"
	}
	s.add("CPU used meanwhile: %s per thread (%s)", per.Round(time.Microsecond), busy)
}

// caveat says what the moments given cannot support.
func (s *sentences) caveat() {
	f := s.f
	if w := f.Wait; w != nil && w.Measured > 0 {
		if w.AtLeast {
			s.add("the trace measured the wait: at least %s, since before the trace began", w.Measured.Round(time.Millisecond))
		} else {
			s.add("the trace measured the wait: the longest %s, begun inside it", w.Measured.Round(time.Millisecond))
		}
	}
	measured := f.Wait != nil && (f.Wait.MaxMinutes > 0 || f.Wait.Measured > 0 && !f.Wait.AtLeast)
	switch {
	case f.Basis == "long-wait" || f.Basis == "runtime" || f.Basis == "leak-check" || f.Basis == "cpu-lifetime" || f.Basis == "cpu-lifetime-ps" || f.Basis == "cpu-uptime" || f.Basis == "test-timeout" || measured:
		// The runtime's own clock or mark: not a snapshot's guess.
	case f.Kind == analyze.KindKeptAlive:
		// One dump shows it whole: main is gone and what is left rests.
	case len(s.r.Moments) == 1 && f.Kind != analyze.KindDeadlock:
		s.add("one dump cannot tell stuck from busy: take another %s later and give both (%s)", oneDumpInterval, captureHint(s.r.Runtime))
	case f.FromStart && f.Kind != analyze.KindDeadlock && f.Kind != analyze.KindContention:
		s.add("already so at %s, the first moment given: with no healthy moment before, it cannot say when this began or that load brought it", s.moment(0))
	}
}

func (s *sentences) cause() {
	f := s.f
	if f.CausedBy == "" {
		return
	}
	for i := range s.r.Findings {
		c := &s.r.Findings[i]
		if c.ID == f.CausedBy {
			what := c.Kind
			if c.Pool != "" {
				what += " " + c.Pool
			}
			s.add("follows from the %s finding", what)
			return
		}
	}
}

func (s *sentences) timeline() {
	f := s.f
	c := f.Counts
	n := len(c)
	what := stateText(f.State, f.Via)
	base, peak, last := c[0], c[f.At], c[n-1]
	switch f.Kind {
	case analyze.KindGrowing:
		if f.State == "" || f.Basis == "whole-pool" {
			s.add("%s %s rose at every moment and never fell: %s; most %s", f.Pool, s.unit(), s.series(c), what)
		} else {
			s.add("%s %s rose at every moment and never fell: %s", f.Pool, what, s.series(c))
		}
		if f.Same == 1 {
			s.add("the one seen at %s is still there at %s", s.moment(f.Since), s.moment(s.last()))
		} else if f.Same > 0 {
			s.add("the %d seen at %s are all still there at %s", f.Same, s.moment(f.Since), s.moment(s.last()))
		}
	case analyze.KindNotRecovered:
		if f.At == n-1 && n >= 3 && c[n-2] < last {
			s.add("%s %s rose from %d at %s to %d at %s, the last moment, and is still rising", f.Pool, what, base, s.moment(0), last, s.moment(n-1))
		} else if f.Since >= 0 && f.Since < f.At && f.Since < n && c[f.Since] > base {
			// It began before its peak (a leak that grows with every
			// request): placed where it starts, then where it peaked.
			s.add("%d of %d %s %s %s at %s, since %s (%d there, %d at %s); still %d at %s", peak, f.PoolCounts[f.At], f.Pool, s.unit(), what,
				s.moment(f.At), s.moment(f.Since), c[f.Since], base, s.moment(0), last, s.moment(n-1))
		} else {
			s.add("%d of %d %s %s %s at %s (%d at %s); still %d at %s", peak, f.PoolCounts[f.At], f.Pool, s.unit(), what,
				s.moment(f.At), base, s.moment(0), last, s.moment(n-1))
		}
		s.same(f.Since)
		s.consumers()
		s.cpu()
		if n == 2 {
			s.add("only two moments: take one more after the load to tell a stall from load")
		}
	case analyze.KindRecovered:
		s.add("%s %s rose from %d at %s to %d at %s and came back to %d at %s", f.Pool, what, base, s.moment(0), peak, s.moment(f.At), last, s.moment(n-1))
	}
	s.culpritAndEntries()
	s.cause()
}

func (s *sentences) stuck() {
	f := s.f
	if f.Basis == "work-wait" || f.Basis == "no-adders" {
		s.workWait()
		return
	}
	if f.Basis == "held-moments" {
		s.heldWait()
		return
	}
	n := len(f.Counts)
	switch {
	case f.Basis == "test-timeout":
		own := f.Counts[f.At] - len(f.Blocked)
		s.add("go test stopped the test at its deadline (%s): %d of its %s wait %s, and the test waits with them",
			f.Headline, own, s.unit(), stateText(f.State, f.Via))
		if len(f.Blocked) > 0 {
			s.add("beside it, %d %s the test started wait too: %s", len(f.Blocked), s.unit(), testStarted(f.Blocked))
		}
		s.culpritAndEntries()
		return
	case f.Basis == analyze.BasisHandlersChan:
		total := ""
		if len(f.Totals) > 0 && f.Totals[0] > f.Counts[f.At] {
			total = fmt.Sprintf(" (the profile counts %d goroutines in all; this one holds %d of them)", f.Totals[0], s.r.Totals[f.At])
		}
		s.add("%d request handlers are blocked on a channel operation (a send or a receive, which the debug=1 profile hides) at %s%s: requests held by whatever should take from or give to that channel",
			f.Counts[f.At], f.Culprit, total)
		s.culpritAndEntries()
		return
	case f.Basis == "paste-no-adders":
		ex := "it holds no goroutine 1, which runs while the process lives"
		if f.At >= 0 && f.At < len(s.r.Moments) && s.r.Moments[f.At].Dump != nil && s.r.Moments[f.At].Dump.Excerpt != "" {
			ex = s.r.Moments[f.At].Dump.Excerpt
		}
		if w := f.Wait; w != nil && w.MaxMinutes > 0 {
			ex += fmt.Sprintf("; the runtime prints %s of waiting", words.Plural(w.MaxMinutes, "minute"))
		}
		s.add("%d %s %s %s in this paste, and nothing in the paste could count it down: no goroutine it started, none running a closure of its functions or code of its package. "+
			"The paste is not the whole dump (%s), so this is what it shows, not a proof: look in the whole dump for goroutines that call Done on it; if there are none, it never opens",
			f.Same, f.Pool, s.unit(), stateText(f.State, f.Via), ex)
		s.culpritAndEntries()
		return
	case f.Basis == "one-dump-cut":
		s.add("%d of %d %s %s %s in this paste of %d %s, which a person cut from a dump: most of what they chose waits there",
			f.Counts[0], f.PoolCounts[0], f.Pool, s.unit(), stateText(f.State, f.Via), s.r.Moments[0].Threads, s.unit())
	case f.Basis == "one-dump-pool":
		s.add("%d of %d %s %s %s at this one dump, each inside the work its pool gave it: most of the pool waits on one peer (told from %d%% of a pool and %d %s)",
			f.Counts[0], f.PoolCounts[0], f.Pool, s.unit(), stateText(f.State, f.Via), int(analyze.PeerShare*100), analyze.PeerWaitMin, s.unit())
	case f.Basis == "one-dump-process":
		s.add("%d of %d %s %s %s, and every application %s of this dump waits on what it names (or holds the lock one waits for): nothing else of the process runs or rests",
			f.Counts[0], f.PoolCounts[0], f.Pool, s.unit(), stateText(f.State, f.Via), strings.TrimSuffix(s.unit(), "s"))
	case f.Basis == analyze.BasisPeerProgram:
		waited := ""
		if w := f.Wait; w != nil && w.MaxMinutes > 0 {
			waited = fmt.Sprintf("; the runtime prints %s of waiting", words.Plural(w.MaxMinutes, "minute"))
		}
		one := strings.TrimSuffix(s.unit(), "s")
		s.add("%s of %s %s under the program's own code at this one dump, and every other application %s waits on them or on another %s, or there is none (none runs, sleeps or selects on a timer): the whole program waits on its peer's reply%s",
			words.Plural(f.Counts[f.At], one), f.Pool, stateText(f.State, f.Via), one, one, waited)
	case f.Basis == analyze.BasisPeerLifetime:
		s.add("%d of %d %s %s %s at this one dump, the whole pool at one line, each alive %ds or more with almost no CPU in its life (%d%% at most): threads that asked their peer and have waited since, or readers idle since they started; take another dump to tell",
			f.Counts[0], f.PoolCounts[0], f.Pool, s.unit(), stateText(f.State, f.Via), analyze.PeerElapsedMin, int(analyze.PeerCPUShare*100))
	case f.Basis == analyze.BasisPeerPool:
		s.add("%d of %d %s %s stuck %s at every moment given (%s to %s): the whole pool, the very same %s, in one client read, none running between the moments: the pool works at its peer's pace, and its peer does not answer",
			f.Same, f.PoolCounts[n-1], f.Pool, s.unit(), stateText(f.State, f.Via), s.moment(0), s.moment(n-1), s.unit())
	case f.Basis == "orphaned":
		s.add("%d of %d %s %s stuck %s at every moment given (%s to %s), and every application %s of the process waits so on a hand-off: none is left to count it down, take from it or signal it (its counter or consumer is gone)",
			f.Same, f.PoolCounts[n-1], f.Pool, s.unit(), stateText(f.State, f.Via), s.moment(0), s.moment(n-1), strings.TrimSuffix(s.unit(), "s"))
	case f.Always >= f.Same:
		s.add("%d of %d %s %s stuck %s at every moment given (%s to %s): the very same %s, in the same place",
			f.Same, f.PoolCounts[n-1], f.Pool, s.unit(), stateText(f.State, f.Via), s.moment(0), s.moment(n-1), s.unit())
	default:
		s.add("%d of %d %s %s stuck %s at %s: once there, none left (%d of them at every moment from %s)",
			f.Same, f.PoolCounts[n-1], f.Pool, s.unit(), stateText(f.State, f.Via), s.moment(n-1), f.Always, s.moment(0))
	}
	switch {
	case f.InitClass != "":
		s.add("waiting for class %s to be initialized: another thread runs its static initializer (<clinit>), and every thread that touches the class waits for it", f.InitClass)
	case f.Resource != "":
		s.add("waiting for %s", analyze.ResourceNoun(f.Resource))
	}
	if f.Basis == "no-peer" && f.Awaits != nil {
		s.add("%s", awaitsText(f, len(s.r.Moments)))
	}
	if len(f.WaitedBy) > 0 {
		s.add("%s", waitedByText(f.WaitedBy))
	}
	if f.Basis == "no-signaller" {
		s.add("untimed, and no thread left could send it: none runs the class the wait is in (%s) but in an untimed wait of its own; inferred from the stacks (a signal sent before the wait, or a sender that ended): a callback the dump cannot show could still send it",
			analyze.WaitClass(f.Culprit))
	}
	if len(f.Holding) > 0 {
		var ls []string
		for _, l := range f.Holding {
			ls = append(ls, fmt.Sprintf("%s (a %s)", parse.LockShown(l.Address), l.Class))
		}
		who, w := "it holds", "it waits"
		if f.Counts[f.At] > 1 {
			who, w = "they hold", "they wait"
		}
		s.add("%s %s while %s: whoever needs it waits behind a holder that itself waits", who, strings.Join(ls, ", "), w)
	}
	s.consumers()
	s.cpu()
	s.culpritAndEntries()
	s.cause()
}

// workWait tells goroutines stuck in their work by the wait Go prints.
func (s *sentences) workWait() {
	f, w := s.f, s.f.Wait
	long := fmt.Sprintf("%d–%d minutes", w.MinMinutes, w.MaxMinutes)
	if w.MinMinutes == w.MaxMinutes {
		long = words.Plural(w.MaxMinutes, "minute")
	}
	if f.Basis == "no-adders" {
		s.add("%d %s goroutines stuck %s for %s at %s, as the runtime prints, with nothing left that can count it down: no goroutine they started is alive, nor any running a closure of their function (a worker returned without Done)",
			w.Goroutines, f.Pool, stateText(f.State, f.Via), long, s.moment(f.At))
	} else {
		s.add("%d %s goroutines stuck %s for %s at %s, as the runtime prints, inside their work (a request's handler, a task, a call their own loop made): a wait that long there is no rest",
			w.Goroutines, f.Pool, stateText(f.State, f.Via), long, s.moment(f.At))
	}
	if f.Resource != "" {
		s.add("waiting for %s", analyze.ResourceNoun(f.Resource))
	}
	s.culpritAndEntries()
	s.cause()
}

// heldWait says what the goroutines' ids showed: the same goroutines in
// the same wait at every moment, for at least the moments' span.
func (s *sentences) heldWait() {
	f, w := s.f, s.f.Wait
	span := "at least the time from the first capture to the last (the dumps print no time)"
	if w.HeldSpan > 0 {
		span = "at least " + w.HeldSpan.Round(time.Second).String() + ", the first dump to the last"
	}
	if w.HeldRecords {
		s.add("%d %s goroutines stuck %s at each of the %d moments given, in records of the very same stack and count, inside their work (a request's handler, a task, a call their own loop made): the profile prints no goroutine ids, so these are the same goroutines waiting %s, or others that took their places one for one (the weaker evidence)",
			w.Held, f.Pool, stateText(f.State, f.Via), w.HeldMoments, span)
	} else {
		s.add("%d %s goroutines stuck %s at each of the %d moments given, the very same goroutines (by id) with the very same stack, inside their work (a request's handler, a task, a call their own loop made): waiting %s (the runtime prints a wait's age only from one minute), unless each left and came back to the very same frames between every two dumps",
			w.Held, f.Pool, stateText(f.State, f.Via), w.HeldMoments, span)
	}
	if f.Resource != "" {
		s.add("waiting for %s", analyze.ResourceNoun(f.Resource))
	}
	s.culpritAndEntries()
	s.cause()
}

// consumers says, for producers waiting on a hand-off, who they wait for:
// the threads on its other side, or that none is there to take.
func (s *sentences) consumers() {
	f := s.f
	if f.Handoff == "" {
		return
	}
	if len(f.Consumers) == 0 && len(f.Busy) > 0 {
		var what []string
		for i, g := range f.Busy {
			if i == 3 {
				what = append(what, fmt.Sprintf("%d more", len(f.Busy)-3))
				break
			}
			w := fmt.Sprintf("%d %s in %s", g.Count, g.Pool, g.State)
			if g.Culprit != "" {
				w += " at " + g.Culprit
			}
			what = append(what, w)
		}
		if f.BusyInferred {
			s.add("no thread waits to take from %s at any moment: its consumers take the next item the instant they are done; running the same application frames at every moment, its likely consumers (a busy consumer's stack names no queue): %s", article(f.Handoff), strings.Join(what, ", "))
			return
		}
		s.add("no thread waits to take from %s: its consumers, the threads seen taking from one at another moment, are busy: %s", article(f.Handoff), strings.Join(what, ", "))
		return
	}
	if f.OtherTakers > 0 {
		s.add("no thread waits to take from this %s (the %d waiting to take from one wait on another: a full queue has items to take)", f.Handoff, f.OtherTakers)
		return
	}
	s.add("%s", consumersText(f.Handoff, f.Consumers, f.ConsumerLoop))
}

// consumersText is who waits on the other side of hand-off h: its own
// consumer threads (loop), those waiting to take from one of its class,
// or that none is there to take.
func consumersText(h string, cs []analyze.HolderGroup, loop bool) string {
	switch {
	case len(cs) == 0 && loop:
		return fmt.Sprintf("no consumer thread of %s is alive: nothing takes from it", h)
	case len(cs) == 0:
		return fmt.Sprintf("no thread waits to take from %s: its consumers are busy elsewhere or gone", article(h))
	}
	if loop {
		return fmt.Sprintf("they wait for the consumer of %s: %s", h, consumerList(cs))
	}
	return fmt.Sprintf("waiting to take from %s of that class: %s", article(h), consumerList(cs))
}

// holderFirst: the lock's holder is printed and waits itself, so the
// contention's sentence leads with it (issue 33: a holder that waits is
// the root cause, whatever it waits on; its waiters follow).
func holderFirst(l *analyze.LockFact) bool {
	return l.Owner != nil && l.Owner.Waits && !l.OwnerInferred
}

// permitNames are a semaphore's permit holders by name, the first three
// and how many more: "\"fetcher-1\", \"fetcher-2\", \"fetcher-3\"".
func permitNames(l *analyze.LockFact) string {
	hs := l.Holders
	if len(hs) == 0 {
		hs = []analyze.ThreadRef{*l.Owner}
	}
	var ns []string
	for i, h := range hs {
		if i == 3 {
			ns = append(ns, fmt.Sprintf("%d more", len(hs)-3))
			break
		}
		ns = append(ns, fmt.Sprintf("%q", h.Name))
	}
	return strings.Join(ns, ", ")
}

// permitHolders says a semaphore's permit holders and what they do, the
// holders first: "\"fetcher-1\", \"fetcher-2\" and \"fetcher-3\" hold ... while
// they wait (socket-read at LocalDb$Conn.query:67)".
func permitHolders(l *analyze.LockFact) string {
	hs := l.Holders
	if len(hs) == 0 {
		hs = []analyze.ThreadRef{*l.Owner}
	}
	verb := "holds"
	if len(hs) > 1 {
		verb = "hold"
	}
	// What they do, by state and place, most first.
	var order []string
	count := map[string]int{}
	for _, h := range hs {
		what := stateName(h.State, "")
		if w := ownerWhere(&h); w != "" {
			what += " at " + ShortFrame(w)
		}
		if count[what] == 0 {
			order = append(order, what)
		}
		count[what]++
	}
	var does []string
	for _, w := range order {
		does = append(does, fmt.Sprintf("%d %s", count[w], w))
	}
	return fmt.Sprintf("%s (%s) %s", permitNames(l), strings.Join(does, ", "), verb)
}

// holderLead is the lock's holder as a finding's lead names it, before
// its waiters: who, and what it does ("held by "cache-loader", waiting in
// socket-read at AccountCache.reload:100"); "" when no holder is printed.
func holderLead(f *analyze.Finding) string {
	l := f.Lock
	if f.Kind == analyze.KindContention && l != nil && l.QueuedWriter != nil {
		s := fmt.Sprintf("behind the writer %q, which waits for the readers", l.QueuedWriter.Name)
		if o := l.Owner; o != nil {
			s += fmt.Sprintf(": likely %q %s at %s", o.Name, stateText(o.State, ""), ShortFrame(ownerWhere(o)))
		}
		return s
	}
	if f.HolderBasis != "" && len(f.Holders) > 0 {
		return poolHolderLead(f)
	}
	if f.Kind != analyze.KindContention || l == nil || l.Owner == nil || l.OwnerInferred && l.OwnerReceiver == "" {
		return ""
	}
	o := l.Owner
	s := fmt.Sprintf("held by %q", o.Name)
	if f.Basis == "permit-holders" {
		s = "permits held by " + permitNames(l)
	}
	if l.OwnerInferred {
		s = "likely held by " + o.Name // by the receiver it shares with the waiters
	}
	where := ownerWhere(o)
	switch {
	case o.Waits && o.State != "":
		s += ", waiting in " + stateName(o.State, "")
	case o.State == "running":
		s += ", running"
	default:
		return s
	}
	if where != "" {
		s += " at " + ShortFrame(where)
	}
	if o.Handoff != "" && len(o.Consumers) > 0 {
		s += " for " + consumerList(o.Consumers)
	}
	return s
}

// holderConsumers says who is on the other side of the hand-off h a
// lock's holder waits on.
func holderConsumers(h string, cs []analyze.HolderGroup, loop bool) string {
	if len(cs) == 0 {
		if loop {
			return "whose consumer thread is gone: nothing takes from it"
		}
		return "and no thread waits to take from " + article(h)
	}
	return "whose consumer is " + consumerList(cs)
}

// consumerList names consumer groups: "1 AsyncAppender-Dispatcher-Thread-*
// in socket-write", at most three and "N more".
func consumerList(cs []analyze.HolderGroup) string {
	var what []string
	for i, c := range cs {
		if i == 3 {
			what = append(what, fmt.Sprintf("%d more", len(cs)-3))
			break
		}
		what = append(what, fmt.Sprintf("%d %s in %s", c.Count, c.Pool, c.State))
	}
	return strings.Join(what, ", ")
}

// ownerWhere is where a lock's holder is: its first application frame,
// else its top frame.
func ownerWhere(o *analyze.ThreadRef) string {
	if o.Culprit != "" {
		return o.Culprit
	}
	return o.Frame
}

// prefixed is s after pre, or "" when s is empty.
func prefixed(pre, s string) string {
	if s == "" {
		return ""
	}
	return pre + s
}

// article puts "a" or "an" before a class name; a name that has its own
// ("a pipe") is kept.
func article(name string) string {
	if strings.HasPrefix(name, "a ") || strings.HasPrefix(name, "an ") {
		return name
	}
	if strings.ContainsRune("AEIOU", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

func (s *sentences) saturated() {
	f := s.f
	total := f.PoolCounts[f.At]
	s.add("%s saturated at %s: %d threads, none idle, %d waiting", f.Pool, s.moment(f.At), total, f.Waiting)
	switch f.Limit.Source {
	case "default":
		if total >= f.Limit.Size {
			s.add("pool size %d (%s; a configuration may set another)", f.Limit.Size, f.Limit.What)
		} else {
			s.add("%d threads, below the %s of %d: the configured maximum may be lower, or the pool is still growing", total, f.Limit.What, f.Limit.Size)
		}
	case "configured":
		s.add("pool size %d (%s)", f.Limit.Size, f.Limit.What)
	case "observed":
		s.add("pool size %d, observed: the same at every moment (a fixed pool)", f.Limit.Size)
	case "current":
		s.add("pool size unknown: %d now, none idle (a guess at its maximum from one moment)", f.Limit.Size)
		if f.Limit.NamedLike != "" {
			s.add("no known size from its name (%s)", f.Limit.NamedLike)
		}
	}
	s.add("most %s", stateText(f.State, f.Via))
	if f.CausedBy != "" {
		s.cause()
		s.add("new work finds no idle thread: requests that never touch the cause queue and time out too")
	} else if f.Culprit != "" {
		s.add("culprit %s", f.Culprit)
	}
	if len(f.Starved) > 0 {
		s.add("entry points seen at other moments with no thread now: %s", frames(f.Starved))
	}
}

func (s *sentences) poolExhausted() {
	f := s.f
	n := len(f.Counts)
	noun := analyze.ResourceNoun(f.Resource)
	title := analyze.ResourcePoolTitle(f.Resource)
	if title == "" {
		title = strings.TrimSuffix(f.Kind, "-exhausted")
	}
	s.add("%s exhausted at %s: %d %s %s wait for %s", title, s.moment(f.At), f.Counts[f.At], f.Pool, s.unit(), noun)
	switch f.Basis {
	case "persists":
		s.add("the very same %s waited at every moment given: the pool was empty at each, and a wait that persists is an exhausted pool whatever the count", strings.TrimSuffix(s.unit(), "s"))
	case "one-dump-cut", "held-cut":
		s.add("they are most of this paste of %d %s, which a person cut from a dump", s.r.Moments[f.At].Threads, s.unit())
	case "one-dump-process", "held-process":
		s.add("every application %s of this dump waits on what it names: nothing else of the process runs or rests", strings.TrimSuffix(s.unit(), "s"))
	}
	held := 0
	for _, h := range f.Holders {
		held += h.Count
	}
	if held > 0 {
		var what []string
		for i, h := range f.Holders {
			if i == 3 {
				what = append(what, fmt.Sprintf("%d more", len(f.Holders)-3))
				break
			}
			w := fmt.Sprintf("%d %s", h.Count, stateText(h.State, h.Via))
			if h.Culprit != "" {
				w += " at " + h.Culprit
			}
			what = append(what, w)
		}
		s.add("%d hold one: %s", held, strings.Join(what, ", "))
		s.add("the pool has about %d %s (inferred from the holders)", held, analyze.ResourceItems(f.Resource))
	} else {
		s.add("no thread shows holding one (they may be in code the dump does not tell apart)")
	}
	// The pool's frame beside the caller: whose code waits, on which pool.
	if f.PoolFrame != "" && f.Culprit == "" {
		s.add("they wait in the pool at %s, with no frame of the application's under it", f.PoolFrame)
	}
	s.culpritAndEntries()
	last := f.Counts[n-1]
	switch {
	case n == 1:
	case f.Severity == analyze.Critical:
		s.add("not recovered: %d still waiting at %s", last, s.moment(n-1))
	default:
		s.add("recovered: %d waiting at %s", last, s.moment(n-1))
	}
}

func (s *sentences) contention() {
	f := s.f
	l := f.Lock
	lock := parse.LockShown(l.Address)
	if l.Class != "" {
		lock += " (a " + l.Class + ")"
	}
	if s.r.Runtime == parse.RuntimeGo && l.Address != "" && !strings.HasPrefix(l.Address, "0x") && l.Class != "" && f.Basis != "class-init" {
		// (A JVM's ThreadInfo and JSON dumps print a lock's identity hash
		// without "0x", "AuditLog@5671d16f": an address all the same.)
		// A Go lock whose address was not printed: the type whose methods take it.
		lock = fmt.Sprintf("a %s of %s (Go printed no address: the lock its methods take)", l.Class, l.Address)
	}
	if l.Address == "" && l.Class != "" {
		lock = "class " + l.Class + " to be initialized" // a class's initialization has no address
	}
	head := fmt.Sprintf("%d %s wait for %s at %s", f.Counts[f.At], s.unit(), lock, s.moment(f.At))
	if f.Pool != "" {
		head = fmt.Sprintf("%d %s %s wait for %s at %s", f.Counts[f.At], f.Pool, s.unit(), lock, s.moment(f.At))
	}
	switch {
	case l.Owner == nil && l.QueuedWriter != nil: // no reader in sight
		w := l.QueuedWriter
		head += fmt.Sprintf(", queued behind the writer %q (%s at %s), which waits for the lock's readers: a read lock's holders are not printed",
			w.Name, stateName(w.State, ""), ownerWhere(w))
		if l.Queued > 1 {
			head += fmt.Sprintf(" (%d writers queued)", l.Queued)
		}
	case l.QueuedWriter != nil:
		w, o := l.QueuedWriter, l.Owner
		head += fmt.Sprintf(", queued behind the writer %q (%s at %s), which waits for the lock's readers; likely held for reading by %q, %s at %s (inferred: it runs the class, type or function whose code takes the lock, without waiting for it; a read lock's holders are not printed)",
			w.Name, stateName(w.State, ""), ownerWhere(w), o.Name, stateText(o.State, ""), ownerWhere(o))
	case l.Owner == nil:
		head += ": no goroutine shows who holds it"
	case l.OwnerInferred && l.OwnerReceiver != "":
		// The holder first (issue 33), said as the weaker evidence it is.
		o := l.Owner
		does := stateText(o.State, "")
		if where := ownerWhere(o); where != "" {
			does += " at " + where
		}
		head = fmt.Sprintf("%s likely holds %s: it is inside a method of the very value the waiters lock (receiver %s), not waiting for the lock, and is %s; %d%s %s wait for it at %s (inferred from the printed receivers: Go prints no owner)",
			o.Name, lock, l.OwnerReceiver, does, f.Counts[f.At], prefixed(" ", f.Pool), s.unit(), s.moment(f.At))
	case l.OwnerInferred:
		head += fmt.Sprintf(", likely held by %s in %s (inferred: it runs the code that takes the lock — the waiters' function past its Lock, or another method of the same type — without waiting for it; Go prints no owner)", l.Owner.Name, l.Owner.Frame)
	case l.OwnerFrom != "":
		head += fmt.Sprintf(", held by %q in %s (owner from %s: this dump names none)", l.Owner.Name, l.Owner.Frame, l.OwnerFrom)
	case f.Basis == "permit-holders":
		// The permit holders first (issue 33), by the stacks' structure:
		// a semaphore prints no owner.
		head = fmt.Sprintf("%s the permits of %s (inferred: each passed the waiters' acquire in %s and is deeper in that method; a semaphore prints no owner): %d%s %s wait in acquire at %s",
			permitHolders(l), lock, ShortFrame(f.Culprit), f.Counts[f.At], prefixed(" ", f.Pool), s.unit(), s.moment(f.At))
	case holderFirst(l):
		// The holder first (issue 33): a holder that waits is the root
		// cause, its waiters follow.
		head = fmt.Sprintf("%q holds %s while it waits (%s at %s): %d%s %s wait for it at %s", l.Owner.Name, lock,
			stateName(l.Owner.State, ""), ownerWhere(l.Owner), f.Counts[f.At], prefixed(" ", f.Pool), s.unit(), s.moment(f.At))
		if c := l.Owner.Orphaned; c != "" {
			head += fmt.Sprintf("; and likely no thread left can wake it: it waits on a %s, and every other thread waits untimed, waits for this lock, or runs none of the code that would signal it (inferred from the stacks: the root cause, the waiters follow)", c)
		}
	case l.Owner.Frame == "":
		// A holder named without its stack (a javacore's LOCKS section
		// pasted alone, a deadlock report without its stacks).
		head += fmt.Sprintf(", held by %q (the input names it, not its stack)", l.Owner.Name)
	default:
		head += fmt.Sprintf(", held by %q in %s", l.Owner.Name, l.Owner.Frame)
	}
	s.add("%s", head)
	if w := f.Wait; w != nil && w.MaxMinutes > 0 {
		s.add("the longest waiter has waited %s, as the runtime prints: a lock not had in minutes is held by a holder that does not let go", words.Plural(w.MaxMinutes, "minute"))
	}
	switch f.Basis {
	case "loader-lock":
		s.add("the waiters are BLOCKED in class loading with no lock line: the lock is the class loader's, which the holder took in loadClass")
	case "class-init":
		s.add("the holder runs the class's static initializer (<clinit>)")
	}
	if len(l.Addresses) > 1 {
		s.add("one lock at %d addresses (%s): the garbage collector moved it between moments; its class, holder and waiters stayed", len(l.Addresses), strings.Join(l.Addresses, ", "))
	}
	if l.Owner != nil && (l.Owner.Frame != "" || l.Owner.WaitsFor != nil) { // a holder without a stack: nothing more to say of it
		o := "the holder is " + stateText(l.Owner.State, "")
		if l.Owner.State == "running" {
			o = "the holder is running, not waiting" // on CPU or runnable, holding the lock (spinning says why)
			if f.CausedBy == "" {
				// No spinning finding: its frames are all there is. One dump
				// shows where it runs, not for how long.
				o = "the holder is running, not waiting: likely spinning or slow while holding the lock (its frames say where it runs, not for how long: weaker evidence than CPU time; dumps 10 s apart in the same frames would make it spinning)"
			}
		}
		if l.Owner.Culprit != "" && l.Owner.Culprit != l.Owner.Frame {
			o += " at " + l.Owner.Culprit
		}
		if holderFirst(l) || l.QueuedWriter != nil || l.OwnerReceiver != "" || f.Basis == "permit-holders" {
			o = "the holder" // waiting, and where, the head says
		}
		if w := l.Owner.WaitsFor; w != nil {
			// A holder that waits: the lock it waits for is the story's root.
			if w.Address == "" && w.Class != "" {
				o += fmt.Sprintf(", itself waiting for class %s to be initialized", w.Class)
			} else {
				o += fmt.Sprintf(", itself waiting for %s (a %s)", parse.LockShown(w.Address), w.Class)
			}
			if w.Holder != "" {
				o += fmt.Sprintf(" held by %q", w.Holder)
			}
		}
		if h := l.Owner.Handoff; h != "" {
			o += ", waiting for room in " + h + ", " + holderConsumers(h, l.Owner.Consumers, l.Owner.ConsumerLoop)
		}
		if o != "the holder" {
			s.add("%s", o)
		}
	}
	if len(f.Entries) > 0 {
		s.add("waiting from %s", frames(f.Entries))
	}
	s.probes(f.Entries)
	if seen := countNonZero(f.Counts); seen > 1 {
		s.add("seen at %d moments", seen)
	}
	s.cause()
}

func countNonZero(c []int) int {
	n := 0
	for _, x := range c {
		if x > 0 {
			n++
		}
	}
	return n
}

func (s *sentences) deadlock() {
	f := s.f
	if f.Basis == "go-runtime" {
		s.add("the Go runtime stopped the program at %s: %q", s.moment(f.At), f.Headline)
		if len(f.Cycle) > 0 {
			s.add("no goroutine could go on: %s", asleepMembers(f.Cycle))
		}
		return
	}
	if f.Basis == "pool-self-wait" || f.Basis == "pool-barrier-wait" {
		s.poolSelfWait()
		return
	}
	var ns []string
	for i, m := range f.Cycle {
		if i == 6 {
			ns = append(ns, fmt.Sprintf("and %d more", len(f.Cycle)-6))
			break
		}
		ns = append(ns, fmt.Sprintf("%q", m.Name))
	}
	how := "found from the lock lines"
	switch f.Basis {
	case "jvm-report":
		how = "reported by the JVM"
	case "class-init":
		how = "found from the class initializers on their stacks, which the JVM does not report"
	case "loader-lock":
		how = "found from the class loaders' locks"
	case "handoff":
		how = "found from the lock lines and a hand-off: a producer waits for the one thread that takes from it"
	case "future":
		how = "found from the lock lines and a future: every thread that runs a future's task waits for the thread that waits for the future"
	case "nested-wait":
		how = "a nested wait: the first waits, untimed, for a notify or signal while it holds the lock the others are blocked on, and the thread that would send it is among them (they run the class the wait is in, or no other thread is free to send it)"
	case "lost-wakeup":
		how = "a lost wake-up: they wait, untimed, on one object from its own methods at once, nobody else inside it, so each side waits for the other to notify (a notify that woke the wrong side, a signal sent before the wait)"
	case "go-lock-graph":
		how = "inferred from the goroutines' lock waits and the code that holds them: Go prints no owner"
	case "go-arg-graph":
		how = "inferred from the objects the waiters' own frames name as arguments: each names the object whose lock the next one waits for, and nothing else names it; Go prints no owner"
	case "go-held-pair":
		how = "inferred: the two stayed in their waits, the same goroutines, lines and locks at every moment, and no other goroutine stayed anywhere that could hold either lock so long (a lock waited on for seconds was held all along); Go prints no owner and no age under a minute"
	case "go-lock-closed":
		how = "inferred: every goroutine of the application out of its rest waits for one of these mutexes, so each mutex's holder is among the waiters of the others; the waiters that share one place (frames, lines, objects) hold none of them, two goroutines at one place cannot both hold one mutex, which leaves one holder for each; Go prints no owner"
	case "go-lock-asleep":
		how = "inferred, the weaker evidence: every goroutine of the application out of its rest waits for one of these mutexes or sleeps; the waiters that share one place hold none of them, which leaves each mutex one holder among the other mutexes' waiters, unless a sleeper holds it (a sleeper could hold either lock, and lets go when it wakes); Go prints no owner"
	case "go-self-lock":
		how = "inferred: below the method that waits for the lock, its own stack runs a method of the very value the lock belongs to, and no other goroutine is inside that value; Go locks are not re-entrant, so the goroutine waits for itself and never goes on; Go prints no owner"
		if sl := f.SelfLock; sl != nil && sl.InValue {
			how += fmt.Sprintf(" (%s works on %s, and the lock is its field at +%#x)", sl.Frame, sl.Receiver, sl.Offset)
		} else if sl != nil {
			how += fmt.Sprintf(" (%s works on %s, the receiver of the method that takes the lock; no printed lock address lies inside it (not printed, or a pointer field): the weaker evidence)", sl.Frame, sl.Receiver)
		}
	case "read-held":
		how = "inferred: every thread parked on this ReentrantReadWriteLock waits for its write lock, the very same threads at every moment, and none owns it (the dump lists each thread's ownable synchronizers; read holders are never listed): readers hold it and never leave; no other thread runs the lock's classes, so the reader is one of its waiters, holding the read lock while it asks for the write lock (an upgrade, which ReentrantReadWriteLock never grants), or a thread that took it and is gone without unlocking; the first named is the likeliest (a place of its own, the oldest thread)"
	case "go-rlock-reentry":
		how = "inferred: a goroutine holding the read lock takes it again while a writer waits, and a waiting writer stops new readers; Go prints no owner"
	case "go-lock-chan":
		how = "inferred: the first holds the mutex the others wait for (it runs the lock's code past its Lock call, or, where no frame tells, it is the one goroutine out of its rest that stayed, and a Go mutex waited on for seconds was held all along) and waits, untimed, on a channel; no other goroutine out of its rest stayed anywhere, so the one that would take its send or make its receive can only be among the mutex's waiters: they wait for it, it waits for them; Go prints no owner and no partner"
	case "go-chan-cycle":
		how = "inferred: every goroutine of the application out of its rest waits, untimed, to send on a channel or receive (no select, which may hold a timer), the same ones at the same lines: nobody is left to receive what they send; the runtime says all goroutines are asleep only when nothing at all can run (a listener or a timer here can)"
	}
	if f.Basis == "go-chan-cycle" && countNonZero(f.Counts) == 1 {
		how = "inferred from one dump: every goroutine of the application out of its rest waits, untimed, to send on a channel or receive (no select, which may hold a timer), and nothing else of it could move them (none runs, is runnable or sleeps, or they have waited minutes, as the runtime prints): nobody is left to receive what they send; the runtime says all goroutines are asleep only when nothing at all can run (a listener or a timer here can)"
	}
	// A debug=1 record is labelled "goroutine" or "N goroutines", with no id.
	if (f.Basis == "go-lock-chan" || f.Basis == "go-chan-cycle") && len(f.Cycle) > 0 && !strings.HasPrefix(f.Cycle[0].Name, "goroutine ") {
		how += "; a debug=1 profile prints no ids: the same records (stacks and counts) at every moment, the weaker evidence"
	}
	if strings.HasPrefix(f.Basis, "go-") && f.Basis != "go-runtime" && f.Severity == analyze.Warning {
		how += "; one moment's evidence, no wait of a minute printed: a second dump with the same goroutines in the same places confirms it"
	}
	when := "at " + s.moment(f.Since)
	if seen := countNonZero(f.Counts); seen == len(f.Counts) && seen > 1 {
		when = "at every moment"
	} else if seen > 1 {
		when = fmt.Sprintf("at %d moments from %s", seen, s.moment(f.Since))
	}
	if len(f.Asleep) > 0 {
		// Two stories, the cycle first: the sleepers are its alternative.
		var zs []string
		for i, z := range f.Asleep {
			c := fmt.Sprintf("%q", z.Name)
			if z.Culprit != "" {
				c += " (asleep at " + z.Culprit + ")"
			}
			if i == 3 {
				zs = append(zs, fmt.Sprintf("%d more", len(f.Asleep)-3))
				break
			}
			zs = append(zs, c)
		}
		s.add("likely lock cycle between %d goroutines: %s, each holding what the next waits for, or %s holds both while asleep (%s, %s)", len(f.Cycle), strings.Join(ns, ", "), strings.Join(zs, " or "), how, when)
	} else if f.Basis == "read-held" && len(f.Cycle) > 1 {
		how = "inferred: every thread parked on this ReentrantReadWriteLock waits for its write lock, the very same threads at every moment, and none owns it (the dump lists each thread's ownable synchronizers; read holders are never listed): readers hold it and never leave; no other thread runs the lock's classes, and the waiters share their places (none stands out as an upgrade): most likely a thread took the read lock and is gone without unlocking"
		s.add("a read-write lock held for reading for good: %s wait for its write lock, and none of them stands out as the reader holding it (%s, %s)", strings.Join(ns, ", "), how, when)
	} else if f.Basis == "read-held" && len(f.Cycle) == 1 {
		s.add("likely self-deadlock: %s waits for the write lock of a read-write lock whose read lock it likely holds itself (%s, %s)", ns[0], how, when)
	} else if f.Basis == "go-self-lock" && len(f.Cycle) == 1 {
		s.add("self-deadlock: %s waits for a lock its own stack already holds (%s, %s)", ns[0], how, when)
	} else {
		s.add("deadlock between %d threads: %s (%s, %s)", len(f.Cycle), strings.Join(ns, ", "), how, when)
	}
	for i, m := range f.Cycle {
		if i == 4 {
			break
		}
		c := fmt.Sprintf("%q", m.Name)
		if m.Culprit != "" {
			c += " at " + m.Culprit
		}
		if w := m.WaitsFor; w != nil && w.Future {
			c += fmt.Sprintf(" waits for a future whose task %q runs or holds up", w.Holder)
		} else if w != nil && w.Chan != "" {
			c += " " + chanWaitText(w.Chan, f.Basis)
		} else if w != nil && w.Handoff != "" {
			c += fmt.Sprintf(" waits for room in %s, which only %q empties", w.Handoff, w.Holder)
		} else if w != nil && w.Address == "" && w.Class != "" {
			c += fmt.Sprintf(" waits for class %s to be initialized", w.Class) // a class's initialization
			if w.Holder != "" {
				c += fmt.Sprintf(", which %q initializes", w.Holder)
			}
		} else if w != nil {
			c += fmt.Sprintf(" waits for %s (a %s)", parse.LockShown(w.Address), w.Class)
			if w.Holder != "" && w.ReadHolder {
				c += fmt.Sprintf(" likely held for reading by %q (no read holder is printed)", w.Holder)
			} else if w.Holder != "" {
				c += fmt.Sprintf(" held by %q", w.Holder)
			}
		}
		s.add("%s", c)
	}
	if k := len(f.Blocked); k > 0 {
		// By the member of the cycle each waits on (the holder leads),
		// in the order first seen; five names in all, the rest counted.
		type byHolder struct {
			holder string
			names  []string
			more   int
		}
		var gs []*byHolder
		at := map[string]*byHolder{}
		shown := 0
		for _, b := range f.Blocked {
			h := ""
			if w := b.WaitsFor; w != nil {
				h = w.Holder
			}
			g := at[h]
			if g == nil {
				g = &byHolder{holder: h}
				at[h] = g
				gs = append(gs, g)
			}
			if shown < 5 {
				g.names = append(g.names, fmt.Sprintf("%q", b.Name))
				shown++
			} else {
				g.more++
			}
		}
		var bs []string
		for _, g := range gs {
			part := strings.Join(g.names, ", ")
			if g.more > 0 {
				if part != "" {
					part += ", "
				}
				part += fmt.Sprintf("%d more", g.more)
			}
			if g.holder != "" {
				part += fmt.Sprintf(" on %q", g.holder)
			}
			bs = append(bs, part)
		}
		s.add("%d more threads wait on the cycle without being in it: %s (their contention is this deadlock)", k, strings.Join(bs, "; "))
	}
}

// chanWaitText says a channel wait of a Go cycle (gochans.go).
func chanWaitText(op, basis string) string {
	t := map[string]string{"send": "waits to send on a channel", "receive": "waits to receive from a channel",
		"park": "waits parked in the runtime right under this frame (a debug=1 profile hides which wait: a channel operation or a select)"}[op]
	if basis == "go-lock-chan" {
		return t + ", holding the mutex the others wait for"
	}
	return t + ", untimed"
}

// asleepMembers says what each goroutine of a program Go stopped as
// asleep waits for, and where: "goroutine 1 waits for a sync.WaitGroup
// at main.asleepWG (main.go:25)", the first six.
func asleepMembers(ms []analyze.ThreadRef) string {
	var out []string
	for i, m := range ms {
		if i == 6 {
			out = append(out, fmt.Sprintf("and %d more", len(ms)-6))
			break
		}
		c := m.Name + " " + stateText(m.State, "")
		if m.Culprit != "" {
			c += " at " + m.Culprit
		}
		out = append(out, c)
	}
	return strings.Join(out, ", ")
}

// poolSelfWait tells a pool whose every worker waits on work queued
// behind it in the same pool (a deadlock through its queue).
func (s *sentences) poolSelfWait() {
	f := s.f
	when := "at " + s.moment(f.Since)
	if seen := countNonZero(f.Counts); seen > 1 {
		when = fmt.Sprintf("the very same threads at %d moments from %s", seen, s.moment(f.Since))
	}
	if f.Basis == "pool-barrier-wait" {
		s.add("every worker of %s (%d of %d) waits for its peers at a latch, barrier or phaser, and none is free to run a party queued behind them in the same pool (%s)",
			f.Pool, f.Counts[f.At], f.Limit.Size, when)
	} else {
		s.add("every worker of %s (%d of %d) waits for a task's result, and none is free to run the tasks queued behind them in the same pool (%s)",
			f.Pool, f.Counts[f.At], f.Limit.Size, when)
	}
	if f.Culprit != "" {
		s.add("the tasks wait at %s", f.Culprit)
	}
	if len(f.Cycle) > 0 && f.Cycle[0].WaitsFor != nil {
		s.add("on a %s", f.Cycle[0].WaitsFor.Class)
	}
	if f.Basis == "pool-barrier-wait" {
		s.add("no other thread runs a task or the tasks' class that could arrive: the parties still to come are queued behind them, or never came")
		return
	}
	s.add("no other thread runs a task that could complete them")
	if len(f.Counts) == 1 {
		s.add("one dump: the shape of a thread-starvation deadlock, likely; a second dump with the very same threads so makes it certain")
	}
}

func (s *sentences) explosion() {
	f := s.f
	t := f.Totals
	if f.Basis == analyze.BasisCrowd {
		// One moment's structure, no rise (analyze/crowd.go).
		g := fmt.Sprintf("%d of the process's %d threads were each started for one task (no pool's loop under them)", f.Counts[f.At], t[f.At])
		if len(f.Entries) > 0 {
			g += ", made by " + f.Entries[0].Func
		}
		if f.State != "" {
			g += ", all " + stateText(f.State, f.Via)
			if f.Culprit != "" {
				g += " at " + f.Culprit
			}
		}
		s.add("%s", g)
		s.add("a thread per task: an executor with no bound (new Thread(...).start() per request, or CompletableFuture.supplyAsync with no executor when the common pool's parallelism is 1)")
		return
	}
	if f.Basis == analyze.BasisCgoThreads {
		s.add("%d of the process's %d goroutines, of %s, are in cgo calls at %s (in the C function under %s), each holding an OS thread of its own until it returns: as many OS threads held in C (Go stops a process at 10,000): %s",
			f.Counts[f.At], t[f.At], f.Pool, s.moment(f.At), f.Culprit, s.series(f.Counts))
		return
	}
	if f.Basis == analyze.BasisGoSleepCrowd {
		made := f.Pool
		if f.Culprit != "" && f.Culprit != f.Pool {
			made += " (at " + f.Culprit + ")"
		}
		s.add("%d of the process's %d goroutines sleep on time alone, made by %s, at %s: a goroutine per request waiting out a delay, and nothing bounds how many: %s",
			f.Counts[f.At], t[f.At], made, s.moment(f.At), s.series(f.Counts))
		return
	}
	s.add("%s ×%.1f: %d at %s → %d at %s", s.unit(), float64(t[f.At])/float64(max(t[0], 1)), t[0], s.moment(0), t[f.At], s.moment(f.At))
	if f.Pool != "" {
		g := fmt.Sprintf("%s grew %d → %d", f.Pool, f.PoolCounts[0], f.PoolCounts[f.At])
		if f.State != "" {
			g += ", most " + stateText(f.State, f.Via)
			if f.Culprit != "" {
				g += " at " + f.Culprit
			}
		}
		s.add("%s", g)
	}
	if f.Basis == "thread-per-task" {
		s.add("unnamed threads created per task: an executor without a bounded pool, e.g. CompletableFuture.supplyAsync with no executor when the common pool's parallelism is 1")
	}
	last := len(t) - 1
	if last != f.At && t[last] >= analyze.ExplosionFactor*t[0] {
		s.add("still %d at %s", t[last], s.moment(last))
	}
}

func (s *sentences) leaked() {
	f := s.f
	switch f.Basis {
	case "runtime":
		s.add("the Go runtime marked %d goroutines of %s as leaked (blocked forever on something unreachable): %s", f.Counts[f.At], f.Pool, s.series(f.Counts))
		if f.Severity == analyze.Critical {
			s.add("and the pool only rose: the strongest evidence of a leak")
		}
	case "leak-check":
		s.add("goleak found %d goroutines of %s still running when the test ended (its verdict: the test left them behind)", f.Counts[f.At], f.Pool)
	case "long-wait":
		w := f.Wait
		long := fmt.Sprintf("%d–%d minutes", w.MinMinutes, w.MaxMinutes)
		if w.MinMinutes == w.MaxMinutes {
			long = words.Plural(w.MaxMinutes, "minute")
		}
		s.add("suspected leak: %d %s goroutines %s for %s at %s, as the runtime prints", w.Goroutines, f.Pool, stateText(f.State, f.Via), long, s.moment(f.At))
		if f.Parents > 0 {
			s.add("created by %d distinct goroutines (one per request, not a worker pool)", f.Parents)
		}
		if len(f.Counts) > 1 {
			s.add("%s", s.series(f.Counts))
		}
		if f.Same > 0 {
			s.add("%d are the same goroutines at every moment", f.Same)
		}
	case "idle-kept":
		w := f.Wait
		long := fmt.Sprintf("%d–%d minutes", w.MinMinutes, w.MaxMinutes)
		if w.MinMinutes == w.MaxMinutes {
			long = words.Plural(w.MaxMinutes, "minute")
		}
		s.add("suspected leak: %d %s goroutines %s for %s at %s, as the runtime prints: more than one client's pool keeps at rest, and idle past the timeout a used pool applies", w.Goroutines, f.Pool, stateText(f.State, f.Via), long, s.moment(f.At))
	case "mass":
		where := f.Culprit
		if where == "" {
			where = f.Frame
		}
		waits := ""
		if f.Wait == nil {
			waits = " (the format prints no wait times)" // a trace's measured waits are said by caveat
		}
		s.add("suspected leak: %d of %d goroutines at %s at %s, one stack holding most of the process at every moment: %s%s",
			f.Counts[f.At], f.Totals[f.At], where, s.moment(f.At), s.series(f.Counts), waits)
	case "mass-one":
		where := f.Culprit
		if where == "" {
			where = f.Frame
		}
		s.add("possibly leaked: %d of %d goroutines at %s at %s, parked in the runtime where the debug=1 profile hides the wait (a channel operation or a select, most often). "+
			"One profile cannot tell a leak from as many live ones (a pool's open connections, each with its goroutine): a second one tells (the same count with nothing using them, or more, is a leak)",
			f.Counts[f.At], f.Totals[f.At], where, s.moment(f.At))
	case analyze.BasisGoCrowd:
		made := "created by " + f.Pool
		if f.Parents > 1 {
			made += fmt.Sprintf(" from %d distinct parents (one per request)", f.Parents)
		}
		s.add("possibly leaked: %d of %d goroutines %s at %s, %s, in one dump that prints no age yet. "+
			"One moment cannot tell a leak from a burst in flight: a second dump a minute later tells (the same goroutine ids still there, or more, is a leak)",
			f.Counts[f.At], f.Totals[f.At], stateText(f.State, f.Via), s.moment(f.At), made)
	case analyze.BasisWaitGroupUnserved:
		workers := "no goroutine it started is left (they returned without Done)"
		if len(f.Entries) > 0 && f.Entries[0].Count > 0 {
			workers = fmt.Sprintf("the %d goroutines it started are all blocked themselves (a channel, a lock, another WaitGroup: waiting, most often, for the waiter)", f.Entries[0].Count)
			if len(f.Workers) > 0 {
				// Their own frames: where each is blocked (main.runBatch.func1
				// in a chan send), the line to read first.
				var ws []string
				for i, w := range f.Workers {
					if i == 3 {
						ws = append(ws, fmt.Sprintf("%d more places", len(f.Workers)-3))
						break
					}
					at := w.Culprit
					if at == "" {
						at = "the pool " + w.Pool
					}
					ws = append(ws, fmt.Sprintf("%d at %s %s", w.Count, at, stateText(w.State, w.Via)))
				}
				workers += ": " + strings.Join(ws, ", ")
			}
		}
		who := f.Culprit
		if len(f.WaiterPools) > 1 {
			who = fmt.Sprintf("%s (called from %d pools: %s)", f.Culprit, len(f.WaiterPools), strings.Join(f.WaiterPools, ", "))
		}
		s.add("a sync.WaitGroup that never reaches zero: %s waits in WaitGroup.Wait at %s, and %s; no other goroutine of the application runs that could call Done: %s",
			who, s.moment(f.At), workers, s.series(f.Counts))
	case analyze.BasisSenderGone:
		how := "the very same goroutines at every moment"
		if f.Severity == analyze.Warning {
			how = "each waiting a minute or more, as the runtime prints, in one dump"
		}
		s.add("wait nobody serves: %d goroutines in %s wait on a channel whose senders have returned: none of %s's closures nor any goroutine it started (or they started) is alive at %s, so nobody is left to send or close (%s)",
			f.Counts[f.At], receiveFunc(f.Culprit), receiveFunc(f.Culprit), s.moment(f.At), how)
	case analyze.BasisReceiverGone, analyze.BasisSignallerGone:
		s.add("%s", goneOtherText(f, s.moment(f.At), s.series(f.Counts)))
	case analyze.BasisUnreadBodies:
		s.add("HTTP response bodies never closed: %d client connections lent with their response body (the Transport's readLoop waiting for it to be read or closed) and no goroutine reading any body, at %s: %s. "+
			"Each keeps its connection, its readLoop and its writeLoop for good",
			f.Counts[f.At], s.moment(f.At), s.series(f.Counts))
	case analyze.BasisExecutorLeak, analyze.BasisExecutorCrowd:
		s.ownersLeaked()
		return
	case "flat-count":
		s.add("suspected leak: %s goroutines %s hold flat at every moment: %s (the format prints neither goroutine ids nor wait times)", f.Pool, stateText(f.State, f.Via), s.series(f.Counts))
	}
	s.culpritAndEntries()
}

// ownersLeaked says a leak of thread owners (analyze/detect_executor_leak.go):
// how many were made and never shut down, their ids, the idle threads each
// keeps, and the threads' rise.
func (s *sentences) ownersLeaked() {
	f, o := s.f, s.f.Owners
	if o == nil {
		return
	}
	what := ownerWord(o)
	last := f.At
	keeps := "each keeps its " + words.Plural(o.PerOwner, "idle thread")
	if o.PerOwner == 1 {
		keeps = "each keeps its idle thread"
	}
	if o.Loop != "" {
		keeps += " (in " + o.Loop + ")"
	}
	more := "…" // the name goes on after the id: "pool-78…"
	if o.PerThread {
		more = ""
	}
	if f.Basis == analyze.BasisExecutorCrowd {
		s.add("possibly leaked: %d %ss of %s at rest at %s, each its own id (%s%s to %s%s), %s: more than a program makes at start; %ss made per call and never shut down, most likely",
			o.AtRest[last], what, o.Family, s.moment(last), o.LowestID, more, o.LastID, more, keeps, what)
		if countNonZero(o.Alive) < 2 {
			s.add("one moment cannot tell whether more come: a second dump a minute later tells (the same ids still there and higher ones beside them is a leak)")
		} else {
			s.add("the same %ss at every moment: none made or shut down while the dumps were taken", what)
		}
		return
	}
	ids := fmt.Sprintf("ids %s%s → %s%s", o.FirstID, more, o.LastID, more)
	if o.FirstID == "" { // none alive at the first moment: the leak began between the dumps
		ids = fmt.Sprintf("ids %s%s to %s%s, none at %s", o.LowestID, more, o.LastID, more, s.moment(0))
	}
	s.add("%s created and never shut down: %s, %s", words.Plural(o.New, what), ids, keeps)
	kept := "every one seen at a moment still there at the next"
	if o.Kept < 1 {
		kept = fmt.Sprintf("at least %.0f%% of those seen at a moment still there at the next", 100*o.Kept)
	}
	s.add("live %ss %s, %s; %s threads %s, the process's %s", what, arrows(o.Alive), kept, o.Family, arrows(f.Counts), arrows(f.Totals))
}

// ownersLead is the lead's words for a leak of thread owners: "100
// executors created and never shut down", "40 executors at rest, each its
// own id".
func ownersLead(f *analyze.Finding) string {
	o := f.Owners
	what := ownerWord(o)
	if f.Basis == analyze.BasisExecutorCrowd {
		return words.Plural(o.AtRest[f.At], what) + " at rest, each its own id"
	}
	return words.Plural(o.New, what) + " created and never shut down"
}

// ownerWord names what leaked: "executor", "timer", "event-loop group",
// "HTTP client", else "thread owner".
func ownerWord(o *analyze.OwnerFact) string {
	if o.What != "" {
		return o.What
	}
	return "thread owner"
}

// arrows is a count per moment with a dump, "27 → 74 → 127".
func arrows(c []int) string {
	var parts []string
	for _, n := range c {
		parts = append(parts, strconv.Itoa(n))
	}
	return strings.Join(parts, " → ")
}

func (s *sentences) eventLoop() {
	f := s.f
	n := f.Counts[f.At]
	word := "threads"
	if n == 1 {
		word = "thread"
	}
	s.add("%d %s event loop %s blocked at %s instead of waiting in the selector (the most %s): every connection a blocked loop serves waits with it",
		n, f.Pool, word, s.moment(f.At), stateText(f.State, f.Via))
	if f.Resource != "" {
		s.add("waiting for %s", analyze.ResourceNoun(f.Resource))
	}
	s.culpritAndEntries()
	s.add("move the blocking call off the event loop (a worker executor, or a non-blocking client)")
}

func (s *sentences) keptAlive() {
	f := s.f
	var pools []string
	for i, h := range f.Holders {
		if i == 4 {
			pools = append(pools, fmt.Sprintf("%d more", len(f.Holders)-4))
			break
		}
		pools = append(pools, fmt.Sprintf("%s %d %s", h.Pool, h.Count, stateText(h.State, h.Via)))
	}
	if f.Basis == "scheduled" {
		// Every keeper's pool has a task due (analyze's keptAliveAt): a
		// scheduled job built to run forever looks the same, so it is said
		// as a fact, at Info, with what ends it if it should have ended.
		s.add("main has returned (DestroyJavaVM waits for the last non-daemon thread) and at %s the JVM is kept up by a scheduled task: %d non-daemon %s wait for its next run: %s",
			s.moment(f.At), f.Counts[f.At], s.unit(), strings.Join(pools, ", "))
		s.add("a program built to run a scheduled job for ever is up by design; if this one should have ended, cancel the task and shut its executor down (ExecutorService.shutdown, Timer.cancel), or make its threads daemons")
		return
	}
	s.add("the JVM cannot exit at %s: main has returned (DestroyJavaVM waits for the last non-daemon thread) and %d non-daemon %s stay alive, every one at rest: %s",
		s.moment(f.At), f.Counts[f.At], s.unit(), strings.Join(pools, ", "))
	// What ends each group is what it rests in: an executor is shut down,
	// a timer cancelled; a bare monitor, a condition, a queue or a latch
	// nobody will signal ends only if the thread's own loop is told to.
	var ends []string
	seen := map[string]bool{}
	for _, h := range f.Holders {
		end, ok := keptAliveEnds[h.Rest]
		if !ok {
			end = keptAliveEnds[""]
		}
		if !seen[end] {
			seen[end] = true
			ends = append(ends, end)
		}
	}
	s.add("the process never ends: %s; or make their threads daemons", strings.Join(ends, "; "))
}

// keptAliveEnds says, for what a kept-alive thread rests in
// (analyze.HolderGroup.Rest), what ends it.
var keptAliveEnds = map[string]string{
	"executor":  "shut their executors down (ExecutorService.shutdown)",
	"timer":     "cancel their timers (Timer.cancel)",
	"monitor":   "nothing will notify the monitors they wait on: let their loops end (a stop flag set, then notifyAll or interrupt)",
	"condition": "nothing will signal what they are parked on: let their loops end (a stop flag, then signal or interrupt)",
	"queue":     "nothing more comes on the queues they take from: end their loops (a last \"stop\" item, or interrupt)",
	"latch":     "the latches or barriers they wait for will not open: count them down when the work ends",
	"sleep":     "they sleep in loops of their own: give the loops a stop flag, or interrupt them",
	"":          "end their threads when main returns",
}

func (s *sentences) commonPool() {
	f := s.f
	s.add("ForkJoinPool common pool starved at %s: all %d workers block, most %s", s.moment(f.At), f.Waiting, stateText(f.State, f.Via))
	if f.Resource != "" {
		s.add("waiting for %s", analyze.ResourceNoun(f.Resource))
	}
	s.culpritAndEntries()
	s.add("parallel streams and CompletableFuture.*Async calls without an executor queue behind them: give blocking tasks their own executor")
	s.cause()
}

// vthreadScheduler: "virtual-thread scheduler saturated: 4 of 4 carriers
// mounted at every moment, queued 1,143 → 1,600 → 2,075", then what the
// mounted virtual threads do.
func (s *sentences) vthreadScheduler() {
	f := s.f
	if f.At < 0 || f.At >= len(f.Scheduler) || !f.Scheduler[f.At].Read {
		s.add("virtual-thread scheduler saturated at %s", s.moment(f.At))
		return
	}
	at := f.Scheduler[f.At]
	from := "at every moment"
	if f.Since > 0 {
		from = "from " + s.moment(f.Since) + " on"
	}
	var queued []string
	for _, r := range f.Scheduler {
		if r.Read {
			queued = append(queued, groupDigits(r.Queued))
		}
	}
	s.add("virtual-thread scheduler saturated: %d of %d carriers mounted %s, queued %s", at.Mounted, at.Parallelism, from, strings.Join(queued, " → "))
	if at.Size > at.Parallelism {
		s.add("%d carrier threads exist (the pool compensates for blocked ones)", at.Size)
	}
	mounted := 0
	var what []string
	for i, h := range f.Holders {
		mounted += h.Count
		if i == 3 {
			what = append(what, fmt.Sprintf("%d more", len(f.Holders)-3))
			continue
		}
		if i > 3 {
			continue
		}
		w := fmt.Sprintf("%d %s", h.Count, stateText(h.State, h.Via))
		if h.Culprit != "" {
			w += " at " + h.Culprit
		}
		what = append(what, w)
	}
	switch {
	case mounted == 0:
		s.add("the dump at %s shows no mounted virtual thread (a Thread.print dump lists none; take a JSON dump, JDK 21+)", s.moment(f.At))
	case f.Pinned > 0:
		verb := "wait"
		if f.Pinned == 1 {
			verb = "waits"
		}
		s.add("%d of the %d mounted virtual threads %s while mounted (pinned: its carrier does no work): %s", f.Pinned, mounted, verb, strings.Join(what, ", "))
	default:
		s.add("the %d mounted virtual threads all run (CPU-bound: a virtual thread yields its carrier only when it waits): %s", mounted, strings.Join(what, ", "))
	}
	// The holders name the culprits; the entry points may tell more.
	s.probes(f.Entries)
}

// groupDigits writes n with its thousands grouped: 2,300.
func groupDigits(n int64) string {
	d := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(d, "-")
	d = strings.TrimPrefix(d, "-")
	var b strings.Builder
	for i, c := range d {
		if i > 0 && (len(d)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// waitedByText says who waits for a stuck finding's threads: "main
// waits for them (latch-wait at com.example.App.fetch(App.java:12)), and
// follows from them".
func waitedByText(ws []analyze.ThreadRef) string {
	var who []string
	for i, w := range ws {
		if i == 5 {
			who = append(who, fmt.Sprintf("%d more", len(ws)-5))
			break
		}
		x := w.Name
		if where := ownerWhere(&w); where != "" {
			x += " (" + stateName(w.State, "") + " at " + where + ")"
		}
		who = append(who, x)
	}
	verb := "waits"
	if len(ws) > 1 {
		verb = "wait"
	}
	return fmt.Sprintf("%s %s untimed for them, on a hand-off they would serve, and follow%s from them", strings.Join(who, ", "), verb, map[bool]string{true: "s", false: ""}[len(ws) == 1])
}

// awaitsText says of a hand-off wait no thread can serve (basis
// "no-peer") what it waits on, who could have been its other side and why
// none can: "main waits on a CountDownLatch (<0x…>), and no thread of the
// dumps can count it down: …".
func awaitsText(f *analyze.Finding, moments int) string {
	a := f.Awaits
	who := "the entry thread"
	if len(f.Evidence) > 0 && len(f.Evidence[len(f.Evidence)-1].Threads) > 0 {
		who = f.Evidence[len(f.Evidence)-1].Threads[0]
	}
	on := a.What
	if a.Address != "" {
		on += " (" + parse.LockShown(a.Address) + ")"
	}
	when := "at no moment given can any thread"
	if moments == 1 {
		when = "at this one dump no thread can"
	}
	role := "the program's entry thread"
	switch a.Waiter {
	case analyze.WaiterHook:
		role = "a shutdown hook the JVM waits for before it can exit"
	case analyze.WaiterUI:
		role = "the UI's event thread, in an event's handler (no event is dispatched while it waits)"
	}
	how := "waits untimed on"
	if a.Timed {
		how = "waits, with a deadline it keeps, on"
	}
	out := fmt.Sprintf("%s, %s, %s %s, and %s %s", who, role, how, on, when, a.Peer)
	var peers []string
	for _, p := range a.Peers {
		w := p.Name
		if where := ownerWhere(&p); where != "" {
			w += " (" + stateName(p.State, "") + " at " + where + ")"
		}
		if p.WaitsFor != nil && p.WaitsFor.Address != "" && p.WaitsFor.Address == a.Address {
			w += " waits on it too"
		} else {
			w += " waits itself"
			if p.WaitsFor != nil && p.WaitsFor.Class != "" {
				w += ", on a " + p.WaitsFor.Class
			}
		}
		peers = append(peers, w)
	}
	switch {
	case len(peers) > 0:
		out += ": " + strings.Join(peers, "; ")
	default:
		out += ": no thread runs the code that would (the one that would have is gone: it ended or failed before it did)"
	}
	var rest []string
	if a.Waiting > 0 {
		rest = append(rest, fmt.Sprintf("%d wait untimed themselves", a.Waiting))
	}
	if a.Idle > 0 {
		rest = append(rest, fmt.Sprintf("%d rest idle in an executor's loop (they run only what someone submits)", a.Idle))
	}
	if len(rest) > 0 {
		out += "; of the other application threads, " + strings.Join(rest, " and ")
	}
	return out + "; none runs, sleeps or waits with a deadline in code that could, and the process takes no calls from outside"
}

// poolHolderLead is an exhausted pool's holders as its lead names them,
// when the stacks show them past the waiters' acquire (HolderBasis): how
// many hold, and what most of them do ("held by 4 quote-*, waiting in
// future-wait at QuoteHandler$RpcStub.call:70").
func poolHolderLead(f *analyze.Finding) string {
	n := 0
	for _, h := range f.Holders {
		n += h.Count
	}
	h := f.Holders[0]
	s := fmt.Sprintf("held by %d", n)
	if h.Pool != "" {
		s += " " + h.Pool
	}
	if h.Count < n {
		s += fmt.Sprintf(" (%d of them", h.Count)
	}
	if h.State == "running" {
		s += ", running"
	} else if h.State != "" {
		s += ", waiting in " + stateName(h.State, h.Via)
	}
	if h.Culprit != "" {
		s += " at " + ShortFrame(h.Culprit)
	}
	if h.Count < n {
		s += ")"
	}
	return s
}

// testStarted says the goroutines a hung test started by state and
// culprit, most first: "4 in chan-send at pipeline.Process.func1
// (pipeline.go:22), 1 in waitgroup-wait at ...".
func testStarted(refs []analyze.ThreadRef) string {
	type k struct{ state, culprit string }
	n := map[k]int{}
	var order []k
	for _, r := range refs {
		key := k{r.State, r.Culprit}
		if n[key] == 0 {
			order = append(order, key)
		}
		n[key]++
	}
	slices.SortStableFunc(order, func(a, b k) int { return n[b] - n[a] })
	var parts []string
	for _, key := range order {
		at := key.culprit
		if at == "" {
			at = "a library's frames"
		}
		parts = append(parts, fmt.Sprintf("%d in %s at %s", n[key], key.state, at))
	}
	return strings.Join(parts, ", ")
}

// goneOtherText says a wait whose other side returned (analyze's
// receivergone.go): who made the waiters, that it and everything it
// started are gone, how many, how long, and whether the count grew.
func goneOtherText(f *analyze.Finding, at, series string) string {
	creator := ""
	if len(f.Entries) > 0 {
		creator = f.Entries[0].Func
	}
	who := "their creator " + creator + " has returned: it is on no stack the dump shows, and no closure of it nor goroutine it started is alive"
	long := ""
	if w := f.Wait; w != nil && w.MaxMinutes > 0 {
		long = fmt.Sprintf(", waiting %s as the runtime prints", minutesRange(w.MinMinutes, w.MaxMinutes))
	}
	n := f.Counts[f.At]
	if f.Basis == analyze.BasisSignallerGone {
		return fmt.Sprintf("wait nobody serves: %d goroutines wait in sync.Cond.Wait at %s%s; %s, and no other goroutine of the application runs that could call Signal or Broadcast at %s: the wait never ends (%s)",
			n, receiveFunc(f.Culprit), long, who, at, series)
	}
	grew := "the same goroutines at every moment"
	switch {
	case f.Severity == analyze.Critical:
		grew = "more at each moment, those seen first still there: each call leaves one more"
	case f.Same > 0 && f.Counts[f.Since] == n && f.Since != f.At:
		grew = "the same goroutines at every moment, none added while the dumps were taken"
	default:
		grew = "one dump, by the waits the runtime prints"
	}
	return fmt.Sprintf("goroutine leak: %d goroutines blocked sending at %s%s, and nobody is left to receive: %s, and no other goroutine of the application runs that could take the send at %s; each call that returned before receiving left one behind (%s: %s)",
		n, receiveFunc(f.Culprit), long, who, at, grew, series)
}

// minutesRange is "5 minutes" or "3–49 minutes".
func minutesRange(lo, hi int) string {
	if lo == hi {
		return fmt.Sprintf("%d minutes", hi)
	}
	return fmt.Sprintf("%d–%d minutes", lo, hi)
}

// receiveFunc is the function of a culprit frame string ("main.fetchAll
// (main.go:170)" → "main.fetchAll").
func receiveFunc(culprit string) string {
	return strings.SplitN(culprit, " ", 2)[0]
}
