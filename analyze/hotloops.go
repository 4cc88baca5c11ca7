package analyze

import (
	"slices"
	"strings"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Spinning seen in one dump by the loop's shape (issue 33). Some code runs
// for ever only when the structure it walks is corrupted: a java.util.HashMap
// written by several threads at once gets a cycle in a bin's list or in a
// tree bin's parent links, and the threads that walk it next loop in the
// HashMap's own frames and never return. A thread RUNNABLE there is
// spinning whatever the moments given: one dump, no cpu= (JDK 8), a
// javacore's CPU total without a lifetime, a machine that starved it of
// CPU. The frames are the evidence, weaker than a CPU time that grew, and
// the finding says so.
//
// What separates the loop from a busy service passing through the same
// map (a request caught in HashMap.put): the frames of a tree bin's
// rebalancing and parent walk (root, balanceInsertion, untreeify) run a
// few steps in a sound map, so one thread caught in them is the loop; the
// lookups and puts every service runs need several threads RUNNABLE in the
// same function of the same dump (HotLoop.Threads), or a printed CPU time
// past HotLoopCPU.

// HotLoop is one row of the table of loops that are endless only over a
// corrupted structure.
type HotLoop struct {
	// Func is the looping function, an anchor (anchorGlob: a leading '*'
	// takes a relocated copy).
	Func string
	// Top is how many frames from the top Func may sit: the loop's own
	// callees (a node's allocation, the keys' hashCode, equals or
	// compareTo, the reflection comparableClassFor runs) are above it.
	Top int
	// Threads is how many threads of one dump must be RUNNABLE in Func at
	// once to call it the loop: 1 where a sound structure passes through
	// Func in a few steps (no busy service is caught there), more where
	// every busy service is found in it now and then (a lookup, a put:
	// 3, above the 2 of the busy control; the loop's reports show 4 and
	// more, every writer of the map caught in it).
	Threads int
	// Structure names what is corrupted, for the reader.
	Structure string
	// Source says where the loop is known from.
	Source string
	// Alone: one thread in a paste a person cut (parse.Dump.Cut) is the
	// loop, whatever Threads asks, when Func is its top frame and the
	// paste shows no other thread running application code elsewhere
	// (cutAlone). Set only on a hash bin's list walk of a JDK that prints
	// no module (8 and older): a sound bin holds a node or two, so a
	// lookup spends its time in the key's hashCode and equals (frames
	// above the walk, or the caller's), not on the walk's own line. Not
	// on a tree's walk (TreeMap, a HashMap tree bin), which is log n
	// compareTo steps a busy service is caught in alone
	// (treemap-busy-healthy: TreeMap.put and getEntry on top), nor on
	// JDK 9+'s getNode, putVal, removeNode (hashset-busy-healthy/1.txt:
	// removeNode on top, a bin of colliding keys).
	Alone bool
}

// HotLoopCPU is the printed CPU time (seconds) that makes one thread in a
// loop of the table spinning where Threads asks for more, when its age is
// not printed: a javacore prints each thread's CPU total (3XMCPUTIME) but
// not how long the thread has lived. A minute of CPU is said as the
// weaker evidence it is: a thread that lived for days and was caught in a
// put could have it; it is the loop's frames with it that tell.
const HotLoopCPU = 60

const hashMapRace = "a java.util.HashMap (or a HashSet on one) written by several threads at once: a cycle in its links"

// hotLoops is the table. The JDK 8+ tree-bin frames are the ones reached
// by the races of JDK-8080255 and its reports (adoptium/temurin-build#4428:
// untreeify → replacementNode on JDK 21; testdata/verdicts/hashmap-loop-stuck:
// the same loop, run here on JDK 17); JDK 7's resize (transfer) and its
// get/put loops are Paul Tyma's "A Beautiful Race Condition" (2009) and the
// dumps of alibaba/fastjson#713 (getEntry) and sriki77's 2016 write-up
// (four threads in HashMap.put).
var hotLoops = []HotLoop{
	{Func: "java.util.HashMap$TreeNode.root", Top: 1, Threads: 1, Structure: hashMapRace,
		Source: "JDK-8080255 (a cycle of parent links); testdata/verdicts/hashmap-root-stuck"},
	// A tree bin's rebalancing runs in every put into it and every
	// remove from it: four threads putting into sets of their own showed
	// one in balanceInsertion (testdata/verdicts/hashset-busy-healthy/3.txt),
	// so alone it proves nothing; beside a proven loop it is one more.
	{Func: "java.util.HashMap$TreeNode.balanceInsertion", Top: 3, Threads: 3, Structure: hashMapRace,
		Source: "JDK-8080255; testdata/verdicts/hashmap-root-stuck"},
	{Func: "java.util.HashMap$TreeNode.balanceDeletion", Top: 3, Threads: 3, Structure: hashMapRace, Source: "JDK-8080255"},
	{Func: "java.util.HashMap$TreeNode.moveRootToFront", Top: 1, Threads: 1, Structure: hashMapRace, Source: "JDK-8080255"},
	{Func: "java.util.HashMap$TreeNode.untreeify", Top: 3, Threads: 1, Structure: hashMapRace,
		Source: "adoptium/temurin-build#4428; testdata/verdicts/hashmap-loop-stuck"},
	{Func: "java.util.HashMap.transfer", Top: 2, Threads: 2, Structure: hashMapRace, Alone: true,
		Source: "JDK 7 resize: A Beautiful Race Condition; OpenTSDB/opentsdb#823 (transfer under HashSet.add, JDK 7)"},
	// A put into a tree bin is what a busy service does: four threads
	// putting into maps of their own showed two in putTreeVal at once, at
	// the same line (testdata/verdicts/hashmap-busy-healthy/2.txt), so the
	// lookups and puts need three; and four threads adding to sets of
	// their own showed three in putTreeVal at the very line the looping
	// ones are at (a compiled loop is caught at its back edge's safepoint
	// poll, busy or looping: hashset-busy-healthy/3.txt), so it needs
	// four.
	{Func: "java.util.HashMap$TreeNode.putTreeVal", Top: 6, Threads: 4, Structure: hashMapRace,
		Source: "testdata/verdicts/hashmap-loop-stuck; testdata/verdicts/hashset-loop-stuck (HashSet.add, JDK 17); OpenTSDB/opentsdb#823 (a HashSet shared by scanner callbacks)"},
	{Func: "java.util.HashMap$TreeNode.find", Top: 4, Threads: 3, Structure: hashMapRace, Source: "testng-team/testng#772"},
	{Func: "java.util.HashMap$TreeNode.treeify", Top: 6, Threads: 3, Structure: hashMapRace, Source: "JDK-8080255"},
	{Func: "java.util.HashMap.getNode", Top: 3, Threads: 3, Structure: hashMapRace, Source: "JDK 8+ get over a cycled bin"},
	{Func: "java.util.HashMap.getEntry", Top: 3, Threads: 3, Structure: hashMapRace, Alone: true,
		Source: "alibaba/fastjson#713 (JDK 7); languagetool-org/languagetool#13 (under containsKey, JDK 7: one thread pasted, 200% CPU)"},
	// JDK 6 and 7 walk a bin for a remove in removeEntryForKey, and JDK 6
	// for a get in get itself (JDK 7 in getEntry, JDK 8+ in getNode,
	// which then sit above get): get on top is the walk only where it
	// calls nothing (Top 1).
	{Func: "java.util.HashMap.removeEntryForKey", Top: 3, Threads: 3, Structure: hashMapRace, Alone: true,
		Source: "javaee/mojarra#3694 (UIRepeat's child state, JDK 7)"},
	{Func: "java.util.HashMap.get", Top: 1, Threads: 3, Structure: hashMapRace, Alone: true,
		Source: "ArcBees/GWTP#281 (HashMap.get(Unknown Source), JDK 6); Red Hat solution 33117 (two threads at get(HashMap.java:303), JDK 6); geek.starbean.net 2010 (Swing's event thread alone in HashMap.get)"},
	// IBM's JDK (5 to 7) walks a bin in findNonNullKeyEntry, under get
	// and putImpl (IBM technote swg21597581).
	{Func: "java.util.HashMap.findNonNullKeyEntry", Top: 3, Threads: 3, Structure: hashMapRace, Alone: true,
		Source: "IBM technote swg21597581 (IBM JDK 5-7)"},
	{Func: "java.util.HashMap.putVal", Top: 3, Threads: 3, Structure: hashMapRace, Source: "JDK 8+ put over a cycled bin"},
	{Func: "java.util.HashMap.put", Top: 3, Threads: 3, Structure: hashMapRace, Alone: true,
		Source: "sriki77.blogspot.com 2016 (JDK 7: four threads at put's loop); fastthread.io's thread-mill pattern (one thread at HashMap.put)"},
	{Func: "java.util.WeakHashMap.get", Top: 3, Threads: 3, Structure: "a java.util.WeakHashMap written by several threads at once", Alone: true,
		Source: "WeakHashMap's bins are the same lists, walked in get itself; adam-bien.com, Endless Loops In Unsychronized WeakHashMap (2012: worker threads at WeakHashMap.get)"},
	{Func: "java.util.WeakHashMap.put", Top: 3, Threads: 3, Structure: "a java.util.WeakHashMap written by several threads at once", Alone: true, Source: "WeakHashMap's bins are the same lists"},
	// An IdentityHashMap probes in its own body (get's and put's while
	// loop): Top 1, for a busy put is caught in the resize it calls too
	// (testdata/verdicts/identity-busy-healthy/1.txt: two in put, one in
	// resize under put), which is no probe.
	{Func: "java.util.IdentityHashMap.get", Top: 1, Threads: 3, Structure: "a java.util.IdentityHashMap written by several threads at once: a full table probed for ever",
		Source: "IdentityHashMap probes until an empty slot"},
	{Func: "java.util.IdentityHashMap.put", Top: 1, Threads: 3, Structure: "a java.util.IdentityHashMap written by several threads at once: a full table probed for ever",
		Source: "testdata/verdicts/identity-loop-stuck (JDK 17: four writers at put's probe)"},
	// java.util.TreeMap: concurrent puts and removes leave a cycle in the
	// red-black tree's parent or child links. Every row is a part of a put
	// or a remove that a busy service runs (the walk down, the
	// rebalancing, successor's walk in a remove or an iteration): four
	// writers of maps of their own showed two in put at once
	// (testdata/verdicts/treemap-busy-healthy), so each needs three.
	{Func: "java.util.TreeMap.fixAfterInsertion", Top: 3, Threads: 3, Structure: treeMapRace,
		Source: "RoaringBitmap/RoaringBitmap#775 (a cycled TreeMap's while loop); testdata/verdicts/treemap-loop-stuck (JDK 17)"},
	{Func: "java.util.TreeMap.fixAfterDeletion", Top: 3, Threads: 3, Structure: treeMapRace,
		Source: "RoaringBitmap/RoaringBitmap#775; testdata/verdicts/treemap-loop-stuck (JDK 17: three writers there at once in a run here)"},
	{Func: "java.util.TreeMap.put", Top: 2, Threads: 3, Structure: treeMapRace,
		Source: "kolmafia/kolmafia#3591 (concurrent puts: TreeMap.put spins for ever, ~1000% CPU); testdata/verdicts/treemap-loop-stuck (JDK 17)"},
	{Func: "java.util.TreeMap.getEntry", Top: 2, Threads: 3, Structure: treeMapRace, Source: "a get walking a cycled tree"},
	{Func: "java.util.TreeMap.getEntryUsingComparator", Top: 2, Threads: 3, Structure: treeMapRace, Source: "a get walking a cycled tree"},
	{Func: "java.util.TreeMap.successor", Top: 2, Threads: 3, Structure: treeMapRace,
		Source: "testdata/verdicts/treemap-loop-stuck (a remove walking a cycled tree, JDK 17)"},
	// Cliff Click's NonBlockingHashMap (high-scale-lib, and its copy in
	// JCTools): a resize's copy that never completes keeps every reader
	// and writer helping it (jruby/jruby#3612: RUNNABLE in help_copy_impl,
	// no progress). A sound map's copy is helped in chunks while it
	// resizes, which a busy service is caught in too: two threads at once.
	{Func: "*.NonBlockingHashMap*$CHM.help_copy_impl", Top: 3, Threads: 2,
		Structure: "a NonBlockingHashMap whose resize's copy never completes", Source: "jruby/jruby#3612 (high-scale-lib 1.1.4, NonBlockingHashMapLong)"},
	// Scala's mutable.HashMap (and LinkedHashMap) keep their entries in a
	// chained HashTable (Scala 2.10–2.12; the trait's code is
	// HashTable$class's in 2.10 and 2.11, HashTable's own from 2.12) whose
	// resize moves each bin's entries to the new table's heads, as JDK 7's
	// transfer did: written by threads at once, a bin's links become a
	// cycle and every walk of that bin loops. A lookup's walk
	// (findEntry0, the elemEquals it calls above it) and a remove's are
	// what every busy service runs: two threads at once, above the one of
	// the busy control (testdata/verdicts/scalamap-busy-healthy: at most
	// one in findEntry0 and one in resize in each of six dumps); a resize
	// was caught twice at once in another run of that control here (its
	// maps grow all the time), so it asks three, and once the map is
	// proven corrupted it is one more in the loop.
	{Func: "scala.collection.mutable.HashTable*findEntry0", Top: 3, Threads: 2, Structure: scalaHashRace,
		Source: "scala/bug#10436 (Scala 2.10, two threads at 100% in findEntry0 under findOrAddEntry); testdata/verdicts/scalamap-loop-stuck (Scala 2.11 on JDK 17)"},
	{Func: "scala.collection.mutable.HashTable*.removeEntry", Top: 2, Threads: 2, Structure: scalaHashRace,
		Source: "softwaremill/akka-http-session#48 (Scala 2.12: two threads at 100%, HashTable.removeEntry under HashMap.remove); testdata/verdicts/scalamap-loop-stuck"},
	{Func: "scala.collection.mutable.HashTable*.resize", Top: 1, Threads: 3, Structure: scalaHashRace,
		Source: "testdata/verdicts/scalamap-loop-stuck (a resize walking a cycled bin, Scala 2.11)"},
}

const treeMapRace = "a java.util.TreeMap written by several threads at once: a cycle in its tree's links"

const scalaHashRace = "a scala.collection.mutable.HashMap (a chained HashTable) written by several threads at once: a cycle in a bin's links"

// hotLoopOf is the row of rows (the table with a signatures file's
// [hot-loop] rows: Roles.HotLoops) whose function t runs within its row's
// top frames; nil when none. Only a RUNNABLE thread is in a loop.
func hotLoopOf(t *parse.Thread, rows []HotLoop) *HotLoop {
	h, _ := hotLoopFrame(t, rows)
	return h
}

// hotLoopFrame is hotLoopOf with the frame of t that its row's function
// matched.
func hotLoopFrame(t *parse.Thread, rows []HotLoop) (*HotLoop, *parse.Frame) {
	if t.State != "RUNNABLE" || t.JVM == nil {
		return nil, nil
	}
	for i := range rows {
		h := &rows[i]
		for j, f := range t.Frames {
			if j >= h.Top {
				break
			}
			if anchorGlob(h.Func, f.Func) {
				return h, f
			}
		}
	}
	return nil, nil
}

// KnownLoop is the row of the built-in table for a loop's function as a
// finding shows it (a signatures file's rows are on the finding itself:
// Finding.Known) ("java.util.HashMap$TreeNode.root(HashMap.java:1884)"); nil
// when the function is in none.
func KnownLoop(frame string) *HotLoop {
	fn := frame
	if i := strings.IndexByte(frame, '('); i >= 0 {
		fn = frame[:i]
	}
	for i := range hotLoops {
		if anchorGlob(hotLoops[i].Func, fn) {
			return &hotLoops[i]
		}
	}
	return nil
}

// hotLoopThreads are the threads of one dump that spin by the loop's
// shape: in a row's function with as many others as the row asks for, or
// alone with a printed CPU total past HotLoopCPU and no age printed. One pass over the dump's
// threads; rows are matched only on RUNNABLE ones.
func hotLoopThreads(d *parse.Dump, rows []HotLoop) map[*parse.Thread]*HotLoop {
	in, _ := hotLoopsOf(d, rows)
	return in
}

// hotLoopsOf is hotLoopThreads with the threads taken alone in a cut
// (cutAlone) marked: their evidence is weaker still, and said so.
func hotLoopsOf(d *parse.Dump, rows []HotLoop) (map[*parse.Thread]*HotLoop, map[*parse.Thread]bool) {
	if d == nil {
		return nil, nil
	}
	alone := cutAlone(d, rows)
	var in map[*parse.Thread]*HotLoop
	count := map[*HotLoop]int{}
	for _, t := range d.Threads {
		if h := hotLoopOf(t, rows); h != nil {
			if in == nil {
				in = map[*parse.Thread]*HotLoop{}
			}
			in[t] = h
			count[h]++
		}
	}
	// A row with its threads proves its structure corrupted in this dump:
	// then every thread in a row of that structure is in the loop too (a
	// remove walking the same cycle as three puts), however few there.
	proven := map[string]bool{}
	for h, c := range count {
		if c >= h.Threads {
			proven[h.Structure] = true
		}
	}
	for t, h := range in {
		if proven[h.Structure] {
			continue
		}
		// A CPU total with no age of its own (a javacore's, bounded only
		// by the JVM's uptime; top's TIME+) past HotLoopCPU makes one
		// thread enough; where the thread's age is printed (HotSpot's
		// elapsed=, a ps row: cpuLife), the lifetime rule weighs the two,
		// and a long-lived busy thread's minute of CPU proves nothing.
		if cpu, _, from := cpuLife(t, d); count[h] < h.Threads && !alone[t] && (from == lifeHotSpot || from == lifePS || cpu < HotLoopCPU*time.Second) {
			delete(in, t)
		}
	}
	for t := range alone {
		if in[t] == nil || proven[in[t].Structure] || count[in[t]] >= in[t].Threads {
			delete(alone, t) // taken on the stronger evidence
		}
	}
	return in, alone
}

// cutAlone are the threads of d, a paste a person cut, that are the loop
// by the shape of the paste itself: RUNNABLE with an Alone row's function
// as their top frame (the walk's own line, nothing of the key's above it),
// printed without a JDK module (JDK 8 and older, whose HashMap walks its
// bins in these functions), when no other thread of the paste runs
// application code elsewhere. The person cut the dump down to these
// threads: a thread at a hash bin's walk, which a sound map leaves in a
// step or two, is what they chose to show, and nothing beside it is
// running. A whole dump is never read so (a busy service has threads in
// HashMap.get at any moment: the row's Threads decides there), nor a
// paste that shows other running work (a thread at the walk among others
// is one sample of a busy process).
func cutAlone(d *parse.Dump, rows []HotLoop) map[*parse.Thread]bool {
	if d == nil || !d.Cut {
		return nil
	}
	var out map[*parse.Thread]bool
	for _, t := range d.Threads {
		h, f := hotLoopFrame(t, rows)
		if h != nil && h.Alone && f == t.Frames[0] && f.Module == "" {
			if out == nil {
				out = map[*parse.Thread]bool{}
			}
			out[t] = true
			continue
		}
		if t.State == "RUNNABLE" && t.JVM != nil && culprit(parse.RuntimeJVM, t) != nil && javaTop(t) {
			return nil // other running application work in the paste
		}
	}
	return out
}

// loopShaped tells whether the thread whose stacks by moment are s spins
// by its loop's shape at the last moment (hot: hotLoopThreads of that
// moment), where spinningAt found no evidence. A loop of a corrupted
// structure never ends once entered, however little CPU the machine gave
// it (a starved host, a collector that has the cores): its CPU share is
// not asked. A row that a busy service also passes through (Threads > 1)
// asks more of a thread seen at earlier moments: the same row at each
// (a busy thread moves on; one in the loop stays).
func loopShaped(s []*parse.Thread, hot map[*parse.Thread]*HotLoop, alone map[*parse.Thread]bool, rows []HotLoop) (spinner, bool) {
	n := len(s)
	last := s[n-1]
	h := hot[last]
	if last == nil || h == nil {
		return spinner{}, false
	}
	since := n - 1
	for since > 0 && s[since-1] != nil && hotLoopOf(s[since-1], rows) == h {
		since--
	}
	if h.Threads > 1 {
		for _, t := range s[:since] {
			if t != nil {
				return spinner{}, false // elsewhere at an earlier moment: a busy thread
			}
		}
	}
	basis := "loop-shape"
	if alone[last] {
		basis = "loop-shape-cut"
	}
	return spinner{since: since, stacks: s[since:], basis: basis, known: h}, true
}

// sharer is the frame of t that shares the corrupted structure: the
// first application frame below the frames of the structure's own class
// (the row's function's class, whose callers inside it, a get over a
// findSlot, are the structure's too), for the loop is the structure's and
// the fault the caller's that shares it without a lock; a team's own map
// (a [hot-loop] row of application code) is named by its caller, not by
// itself. nil when t is in no row, or no application frame is below.
func sharer(rt parse.Runtime, t *parse.Thread, rows []HotLoop) *parse.Frame {
	_, f := hotLoopFrame(t, rows)
	if f == nil {
		return nil
	}
	i := slices.Index(t.Frames, f)
	cls := f.Func
	if dot := strings.LastIndexByte(cls, '.'); dot >= 0 {
		cls = cls[:dot+1]
	}
	for _, g := range t.Frames[i+1:] {
		if !strings.HasPrefix(g.Func, cls) && isAppFrame(rt, g) {
			return g
		}
	}
	return nil
}

// MatchesLoop reports whether function fn (as a dump prints it) is row h's
// looping function.
func MatchesLoop(h *HotLoop, fn string) bool { return h != nil && anchorGlob(h.Func, fn) }
