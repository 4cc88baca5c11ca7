package report

import (
	"fmt"
	"github.com/dumpdiff/dumpdiff/parse"
	"slices"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/words"
)

// spinning says a spinning finding: who runs, on what evidence (the CPU
// share, or for Go the same frames only), its loop and who waits for it.
func (s *sentences) spinning() {
	f := s.f
	if f.Basis == "livelock-held" {
		s.heldLivelock()
		return
	}
	n := f.Counts[f.At]
	who := fmt.Sprintf("%d %s %s spin", n, f.Pool, s.unit())
	if n == 1 && len(f.Evidence) > 0 && len(f.Evidence[len(f.Evidence)-1].Threads) == 1 {
		who = fmt.Sprintf("%q (%s) spins", f.Evidence[len(f.Evidence)-1].Threads[0], f.Pool)
	}
	// The head names the hot thread, where it runs and who waits: what
	// every format's lead takes (headClause).
	head := who + " in " + f.Culprit
	if f.Known != nil && f.Frame != "" && f.Frame != f.Culprit {
		// A known loop's shape: where they run is the map's code, the
		// culprit the application's frame that shares the map.
		head = who + " in " + f.Frame + " under " + f.Culprit
	} else if f.Caller != "" {
		head += " under " + f.Caller
	}
	unit := strings.TrimSuffix(s.unit(), "s")
	them := "it"
	if n > 1 {
		them = "them"
	}
	if f.Waiting > 0 {
		verb := "wait"
		if f.Waiting == 1 {
			verb = "waits"
		}
		head += fmt.Sprintf(", and %s %s for %s", words.Plural(f.Waiting, unit), verb, them)
	} else if f.Known != nil {
		// A loop of the hot-loop table (in a paste of the loop alone, what
		// waits for it was cut away, if anything did).
		head += ": likely an infinite loop in a map shared without synchronization"
		if f.Basis != "loop-shape" && f.Basis != "loop-shape-cut" {
			head += " (" + f.Known.Structure + ", known from " + f.Known.Source + ")" // else the basis's sentence says it
		}
	} else {
		head += fmt.Sprintf(": nothing in the dump waits for %s (busy work, or a runaway whose callers gave up)", them)
	}
	s.add("%s", head)
	switch f.Basis {
	case "cpu-growth", "mixed":
		s.add("on CPU %s between %s and %s, in the same loop at every moment", s.share(), s.moment(f.Since), s.moment(f.At))
	case "cpu-lifetime":
		s.add("on CPU %s, nearly all its life, runnable in a loop at %s", s.share(), s.moment(f.At))
	case "cpu-lifetime-ps":
		s.add("on CPU %s, most of its life by the ps line beside the dump (its %%CPU is over the thread's life), runnable in these frames at %s", s.share(), s.moment(f.At))
		s.add("one moment's frames: a second dump would show whether it stays in them")
	case "cpu-uptime":
		s.add("on CPU %s at least, most of the JVM's uptime (the javacore prints no age per thread: its share is at least this), runnable in these frames at %s", s.share(), s.moment(f.At))
		s.add("one moment's frames: a second dump would show whether it stays in them")
	case "same-frames-holder":
		s.add("runnable in the same functions at every moment from %s to %s, holding a lock others are blocked on at each", s.moment(f.Since), s.moment(f.At))
		s.add("this JVM prints no cpu= (JDK 8): the same frames are weaker evidence than a CPU time that grew")
	case "loop-shape":
		// One dump's frames: code that loops for ever only over a
		// corrupted structure (analyze's table of known loops).
		if h := f.Known; h != nil {
			s.add("runnable at %s in %s, which loops for ever only over %s (known from %s)", s.moment(f.At), knownFrame(f), h.Structure, h.Source)
		}
		s.add("the loop's shape in the frames of one dump, no CPU time grown between moments: weaker evidence than a CPU time that grew")
	case "loop-shape-cut":
		// One thread on a hash bin's walk, alone in a paste a person cut
		// (analyze's cutAlone).
		if h := f.Known; h != nil {
			s.add("runnable at %s on %s's own line, which a sound map leaves in a step or two and which loops for ever only over %s (known from %s)", s.moment(f.At), knownFrame(f), h.Structure, h.Source)
		}
		s.add("the only thread running in a paste a person cut, in one moment, no CPU time printed: weaker evidence than a CPU time that grew; a second dump, or top -H beside this one, tells whether it stays")
	case "livelock":
		s.add("runnable at every moment from %s to %s in the same loop, backing off (a yield, a tryLock) beside others in the same loop: a livelock, each giving way to the others, on CPU %s", s.moment(f.Since), s.moment(f.At), s.share())
		s.add("its CPU share is small (a thread that yields gets little on a loaded host): the back-off frames and the CPU grown at every step are the evidence")
	case "same-frames-awaited":
		s.add("runnable in the same application frames at every moment from %s to %s, out of native code, while others wait for it", s.moment(f.Since), s.moment(f.At))
		s.add("this JVM prints no cpu= (JDK 8): the same frames are weaker evidence than a CPU time that grew")
	default:
		s.add("running or runnable in the same functions at every moment from %s to %s", s.moment(f.Since), s.moment(f.At))
		s.add("Go prints no CPU time per goroutine: the same frames are weaker evidence than a CPU time that grew")
	}
	if len(f.Loop) > 1 || len(f.Loop) == 1 && f.Loop[0] != f.Culprit {
		s.add("loop %s", strings.Join(f.Loop, " ← "))
	}
	if l := f.Lock; l != nil {
		lock := parse.LockShown(l.Address)
		if l.Class != "" {
			lock += " (a " + l.Class + ")"
		}
		held := "holds"
		switch {
		case l.OwnerInferred && f.Basis == "same-frames-awaited":
			held = "likely holds (inferred: the dump prints threads parked on the lock but no owner, as jstack without -l does, and this is the one thread of the dump running the same frames at every moment)"
		case l.OwnerInferred:
			held = "likely holds (inferred: it runs the waiters' function past the Lock; Go prints no owner)"
		}
		s.add("%s %s %s while it runs", l.Owner.Name, held, lock)
	}
	if f.Waiting > 0 {
		var ns []string
		for i, b := range f.Blocked {
			if i == 5 {
				break
			}
			ns = append(ns, fmt.Sprintf("%q (%s)", b.Name, b.State))
		}
		if more := f.Waiting - len(ns); more > 0 {
			ns = append(ns, fmt.Sprintf("%d more", more))
		}
		s.add("waiting for %s: %s", them, strings.Join(ns, ", "))
	}
	// Entry points tell more than the loop when there are several, or one
	// that is not the loop's own frame.
	if len(f.Entries) > 1 || len(f.Entries) == 1 && f.Entries[0].Func != f.Culprit && !slices.Contains(f.Loop, f.Entries[0].Func) {
		s.add("entry points %s", frames(f.Entries))
	}
}

// share is a spinning finding's CPU time against its wall time: "13.0 s of
// 30.5 s (43%)", per thread when there are several.
func (s *sentences) share() string {
	f := s.f
	if f.CPUThreads == 0 || f.Wall <= 0 {
		return "for an unknown share of the time"
	}
	per := f.CPU / time.Duration(f.CPUThreads)
	out := fmt.Sprintf("%s of %s (%.0f%%)", per.Round(100*time.Millisecond), f.Wall.Round(100*time.Millisecond), 100*float64(per)/float64(f.Wall))
	if f.CPUThreads > 1 {
		out += " each"
	}
	return out
}

// heldLivelock says a livelock of threads that each hold a lock while
// they back off (analyze's heldBackOffs): who, where, what each holds,
// and that the stacks' structure is the evidence.
func (s *sentences) heldLivelock() {
	f := s.f
	n := f.Counts[f.At]
	head := fmt.Sprintf("%d %s %s back off for ever in %s", n, f.Pool, s.unit(), f.Culprit)
	if f.Caller != "" {
		head += " under " + f.Caller
	}
	s.add("%s, each holding a lock while it retries: a livelock, each retrying for a lock another holds", head)
	var held []string
	for _, h := range f.Holding {
		lock := parse.LockShown(h.Address)
		if h.Class != "" {
			lock += " (a " + h.Class + ")"
		}
		held = append(held, fmt.Sprintf("%q holds %s", h.Holder, lock))
	}
	if len(held) > 0 {
		s.add("%s", strings.Join(held, "; "))
	}
	s.add("at every moment from %s to %s: the same application frames, a back-off on top (a short sleep, a timed park, a tryLock), the same lock held throughout", s.moment(f.Since), s.moment(f.At))
	s.add("a back-off burns little CPU and no lock line says what each retries: the stacks' structure is the evidence, weaker than a JVM's deadlock report or a CPU time that grew")
	if len(f.Loop) > 1 {
		s.add("loop %s", strings.Join(f.Loop, " ← "))
	}
}

// knownFrame is the frame of a known loop's finding where its row's
// function runs: among its top frame and its loop's frames; its top frame
// when none matches.
func knownFrame(f *analyze.Finding) string {
	for _, fr := range append([]string{f.Frame}, f.Loop...) {
		if fn, _, _ := strings.Cut(fr, "("); analyze.MatchesLoop(f.Known, fn) {
			return fr
		}
	}
	return f.Frame
}
