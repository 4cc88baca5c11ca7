package analyze

import (
	"sort"
	"strconv"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The executor-leak detector's thresholds. What each protects against is
// said once, in the detector's Thresholds below (README.md's table is made
// from them; TestThresholdsBeside keeps each beside its detector).
const (
	OwnerLeakMin  = 10
	OwnerLeakKept = 0.5
	OwnerLeakFar  = 50
)

var executorLeakDetector = &Detector{
	Name:  "executor-leak",
	Kinds: []string{KindLeaked},
	Doc: "JVM thread owners made per call and never shut down (an Executors.newFixedThreadPool, a new Timer(), a client or event-loop group built per request): " +
		"the owners' ids, read from their threads' names (the pool's id before a member counter that restarts in each pool: pool-N-thread-M, nioEventLoopGroup-N-M; " +
		"the whole name of a thread that is its owner's only one, by its loop: Roles.OwnerLoops, Timer-N in TimerThread.mainLoop), multiply from moment to moment " +
		"while the owners seen at one moment are still there at the next, their threads at rest in the owner's loop: critical when the live owners rose at every moment and by OwnerLeakFar; " +
		"on one moment (or the same owners at every moment), more than PoolIDLeak owners of one naming shape each at rest with the same threads, a warning. " +
		"Owners made and shut down (ids grow, the live ones do not), a handful made at start, and turnover inside one pool (its threads' numbers grow, not its id) are quiet",
	Folds: "nothing; the explosion detector leaves the leaked owners' threads out of its rise (one story: the leak)",
	Thresholds: []Threshold{
		{"OwnerLeakMin", OwnerLeakMin, "owners of one naming shape at rest at the last moment that were not alive at the first, for a leak: a service that makes a few executors lazily (a pool per tenant or per client on first use) while the dumps are taken makes fewer"},
		{"OwnerLeakKept", OwnerLeakKept, "…and at least this share of the owners alive at each moment still alive at the next: executors made per call and shut down are gone by the next dump (their ids grow, the live ones do not: none kept); the share allows some ended between the dumps by the collector (a Timer's thread ends once the Timer is collected, JDK 9+; JDK 17's newSingleThreadExecutor shuts down when finalized) or by the program now and then"},
		{"OwnerLeakFar", OwnerLeakFar, "a leak is critical when the live owners rose at every moment and by at least this many: an application makes its executors at start, a few dozen at most (PoolIDLeak); fifty more in the minutes of a few dumps, none ending, are made per request and grow with the load until the process cannot start a thread (OutOfMemoryError: unable to create native thread)"},
	},
	Run: runExecutorLeak,
}

// ownerLoops are the frames of a loop that runs on the only thread of the
// object that owns it (Roles.OwnerLoops): a java.util.Timer's TimerThread,
// the JDK HttpClient's selector manager, Apache HttpClient's idle
// connection evictor. A thread under one is an owner of its own: the
// number its name carries counts owners, not threads of one pool.
var ownerLoops = []string{
	"java.util.TimerThread.mainLoop",
	"jdk.internal.net.http.HttpClientImpl$SelectorManager.run",
	"org.apache.http.impl.client.IdleConnectionEvictor$1.run",
}

// ownerKinds say what owns a resting thread by a frame of its loop, where
// the rest loops (restLoops: an executor's getTask, a timer's mainLoop)
// do not: a Netty event loop's group, an HTTP client's selector thread.
// Not a [roles] key: what these libraries' loops are, their fact; a team's
// own owner-loop is said as a thread owner.
var ownerKinds = []struct {
	frames []string
	what   string
}{
	{[]string{"io.netty.util.concurrent.SingleThreadEventExecutor", "io.netty.channel.nio.NioEventLoop.run",
		"io.netty.channel.epoll.EpollEventLoop.run"}, "event-loop group"},
	{[]string{"jdk.internal.net.http.HttpClientImpl$SelectorManager.run", "org.apache.http.impl.client.IdleConnectionEvictor"}, "HTTP client"},
}

// ownerKind is what owns t, resting in state: the rest loop's word
// ("executor", "timer"), else ownerKinds'; "" when neither says.
func ownerKind(t *parse.Thread, state string) string {
	if w := restLoop(t, state); w == "executor" || w == "timer" {
		return w
	}
	for _, k := range ownerKinds {
		if anyFramePrefix(t, k.frames) {
			return k.what
		}
	}
	return ""
}

// owned is one thread's owner: its naming family ("pool-#-thread-#" as a
// shape key), the owner's id within it, and how each is said.
type owned struct {
	family string // shape key of the name
	id     string // the owner's id as printed
	shown  string // the name up to the id: "pool-78", "Timer-78"
	fam    string // the name with the id and a member counter as "*"
	whole  bool   // the thread is its owner's only one, by its loop
}

// ownerAt is one owner at one moment: its threads and how many rest.
type ownerAt struct {
	shown         string
	threads, rest int
	state         string // the state of its resting threads (the last seen)
	g             *Group // a group holding one of its resting threads
	loop          string // what owns it (ownerKind): "executor", "timer"
	frame         string // the frame of the loop it rests in: "ThreadPoolExecutor.getTask"
}

// loopFrame is the frame of the owner's loop t rests in, without its
// package ("ThreadPoolExecutor.getTask", "TimerThread.mainLoop"): the
// first frame from the top that is a rest loop's (restLoops), an owner
// kind's or an owner loop; "" when none is.
func loopFrame(t *parse.Thread, loops []string) string {
	for _, f := range t.Frames {
		if anyPrefix(f.Func, loops) {
			return shortFunc(f.Func)
		}
		for _, r := range restLoops {
			if r.frames != nil && anyPrefix(f.Func, r.frames) {
				return shortFunc(f.Func)
			}
		}
		for _, k := range ownerKinds {
			if anyPrefix(f.Func, k.frames) {
				return shortFunc(f.Func)
			}
		}
	}
	return ""
}

// ownersOf names the owner of each application thread of the analysis
// that has one by its name: an id position (poolIDs) over every moment's
// names of a shape, or an owner loop on its stack.
func ownersOf(r *Result, loops []string) map[*parse.Thread]owned {
	byShape := map[string][]shapedName{}
	seen := map[string]bool{}
	var ts []*parse.Thread
	for _, pl := range r.Pools {
		if pl.Internal {
			continue
		}
		for _, g := range pl.States {
			for _, mt := range g.Threads {
				for _, t := range mt {
					if t.Name() == "" {
						continue
					}
					ts = append(ts, t)
					trimmed := trimMarkers(t.Name())
					if seen[trimmed] {
						continue
					}
					seen[trimmed] = true
					s := shapeName(trimmed)
					byShape[s.key()] = append(byShape[s.key()], s)
				}
			}
		}
	}
	idAt := map[string]int{} // shape key → its id position
	for key, names := range byShape {
		n := len(names[0].num)
		if n >= 2 && names[0].text[n] == "" {
			if _, ok := poolIDs(names, n-2); ok {
				idAt[key] = n - 2
			}
		}
	}
	out := map[*parse.Thread]owned{}
	for _, t := range ts {
		s := shapeName(trimMarkers(t.Name()))
		p, ok := idAt[s.key()]
		if !ok {
			if len(s.num) == 0 || !anyFramePrefix(t, loops) {
				continue
			}
			p = len(s.num) - 1 // the thread is its own owner: its last number counts owners
		}
		var shown, fam strings.Builder
		for i := range s.num {
			if i <= p {
				shown.WriteString(s.text[i])
				shown.WriteString(s.num[i])
			}
			fam.WriteString(s.text[i])
			if i == p || ok && i == p+1 {
				fam.WriteByte('*')
			} else {
				fam.WriteString(s.num[i])
			}
		}
		fam.WriteString(s.text[len(s.num)])
		if !ok {
			shown.WriteString(s.text[len(s.num)]) // the whole name: "Timer-78"
		}
		out[t] = owned{family: s.key(), id: s.num[p], shown: shown.String(), fam: fam.String(), whole: !ok}
	}
	return out
}

// ownerFamily is one naming family's owners at every moment.
type ownerFamily struct {
	fam     string
	whole   bool                  // its owners are one thread each (owned.whole)
	at      []map[string]*ownerAt // by moment: id → owner
	threads []int                 // its threads by moment
}

func runExecutorLeak(p *Pass) []Finding {
	r := p.R
	if r.Runtime != parse.RuntimeJVM {
		return nil
	}
	loops := p.opt.roleTable().OwnerLoops
	owners := ownersOf(r, loops)
	if len(owners) == 0 {
		return nil
	}
	n := len(r.Moments)
	fams := map[string]*ownerFamily{}
	for _, pl := range r.Pools {
		if pl.Internal {
			continue
		}
		for _, g := range pl.States {
			for m, mt := range g.Threads {
				for _, t := range mt {
					o, ok := owners[t]
					if !ok {
						continue
					}
					f := fams[o.family]
					if f == nil {
						f = &ownerFamily{fam: o.fam, whole: o.whole, at: make([]map[string]*ownerAt, n), threads: make([]int, n)}
						fams[o.family] = f
					}
					if f.at[m] == nil {
						f.at[m] = map[string]*ownerAt{}
					}
					a := f.at[m][o.id]
					if a == nil {
						a = &ownerAt{shown: o.shown}
						f.at[m][o.id] = a
					}
					w := max(t.Weight, 1)
					a.threads += w
					f.threads[m] += w
					if g.Category == Idle {
						a.rest += w
						a.state, a.g, a.loop = g.State, g, ownerKind(t, g.State)
						if a.frame == "" {
							a.frame = loopFrame(t, loops)
						}
					}
				}
			}
		}
	}
	var dumps []int // the moments with a dump
	for m, mo := range r.Moments {
		if mo.Dump != nil {
			dumps = append(dumps, m)
		}
	}
	if len(dumps) == 0 {
		return nil
	}
	keys := make([]string, 0, len(fams))
	for k := range fams {
		keys = append(keys, k)
	}
	sort.Strings(keys) // findings in a stable order
	var out []Finding
	for _, k := range keys {
		if f, ok := ownerLeak(r, fams[k], dumps); ok {
			out = append(out, f)
		}
	}
	return out
}

// atRest reports whether every thread of a rests (and there is one).
func (a *ownerAt) atRest() bool { return a.threads > 0 && a.rest == a.threads }

// ownerLeak judges one family over the moments with a dump.
func ownerLeak(r *Result, f *ownerFamily, dumps []int) (Finding, bool) {
	first, last := dumps[0], dumps[len(dumps)-1]
	// kept is the least share of one moment's owners alive at the next.
	kept, rose := 1.0, true
	for i := 0; i+1 < len(dumps); i++ {
		a, b := f.at[dumps[i]], f.at[dumps[i+1]]
		rose = rose && len(b) > len(a)
		if len(a) == 0 {
			continue
		}
		still := 0
		for id := range a {
			if b[id] != nil {
				still++
			}
		}
		kept = min(kept, float64(still)/float64(len(a)))
	}
	newRest := 0
	for id, a := range f.at[last] {
		if a.atRest() && f.at[first][id] == nil {
			newRest++
		}
	}
	basis, sev := "", Warning
	switch {
	case len(dumps) >= 2 && kept >= OwnerLeakKept && newRest >= OwnerLeakMin:
		basis = BasisExecutorLeak
		if rose && newRest >= OwnerLeakFar {
			sev = Critical
		}
	case len(dumps) == 1 || kept >= OwnerLeakKept:
		// One moment's names, or the same owners at every moment: a crowd
		// of owners each at rest with the same threads, at every moment.
		for _, m := range dumps {
			if sameShapeAtRest(f.at[m]) <= PoolIDLeak {
				return Finding{}, false
			}
		}
		basis = BasisExecutorCrowd
	default:
		return Finding{}, false
	}
	return ownerFinding(r, f, dumps, basis, sev, newRest, kept), true
}

// sameShapeAtRest is how many of the owners of one moment are at rest
// with the same threads: as many each, in the same state, the most common
// such shape.
func sameShapeAtRest(at map[string]*ownerAt) int {
	shapes := map[string]int{}
	best := 0
	for _, a := range at {
		if !a.atRest() {
			continue
		}
		k := strconv.Itoa(a.threads) + "\x00" + a.state
		shapes[k]++
		best = max(best, shapes[k])
	}
	return best
}

// ownerFinding says a family's leak.
func ownerFinding(r *Result, f *ownerFamily, dumps []int, basis string, sev Severity, newRest int, kept float64) Finding {
	n := len(r.Moments)
	first, last := dumps[0], dumps[len(dumps)-1]
	fact := &OwnerFact{Family: f.fam, PerThread: f.whole, Alive: make([]int, n), AtRest: make([]int, n), New: newRest}
	if len(dumps) >= 2 {
		fact.Kept = kept
	}
	per := map[int]int{}       // threads per resting owner → owners
	groups := map[*Group]int{} // the groups its resting threads are in, at the last moment
	loops := map[string]int{}
	frames := map[string]int{}
	for _, m := range dumps {
		for _, a := range f.at[m] {
			fact.Alive[m]++
			if a.atRest() {
				fact.AtRest[m]++
				if m == last {
					per[a.threads]++
					groups[a.g]++
					loops[a.loop]++
					frames[a.frame]++
				}
			}
		}
	}
	fact.PerOwner = mostOf(per)
	fact.What = mostOf(loops)
	fact.Loop = mostOf(frames)
	_, fact.FirstID = idRange(f.at[first])
	lowest, highest := idRange(f.at[last])
	fact.LastID, fact.LowestID = highest, lowest
	var g *Group
	for x, c := range groups {
		// ties broken by state, then pool: one owner's group each
		// (nioEventLoopGroup-10-*, -11-*, …) ties, and a map's order is
		// no order (TestCacheSameResult).
		if g == nil || c > groups[g] || c == groups[g] && (x.State < g.State || x.State == g.State && x.Pool < g.Pool) {
			g = x
		}
	}
	fd := Finding{Kind: KindLeaked, Severity: sev, Basis: basis, Pool: f.fam, Counts: f.threads, PoolCounts: f.threads,
		Totals: r.Totals, At: last, Since: first, Owners: fact}
	for _, m := range dumps {
		if fact.Alive[m] > 0 {
			fd.Since = m
			break
		}
	}
	fd.FromStart = fd.Since == first
	if g != nil {
		fd.State, fd.Via, fd.Resource, fd.Frame = g.State, g.Via, g.Resource, g.TopFrame
		fd.Evidence = evidence(g)
	}
	fd.ID = findingID(KindLeaked, f.fam, basis)
	return fd
}

// mostOf returns the key counted most (the least key on a tie).
func mostOf[K int | string](c map[K]int) K {
	var best K
	bc := -1
	for k, v := range c {
		if v > bc || v == bc && k < best {
			best, bc = k, v
		}
	}
	return best
}

// idRange returns the owners' lowest and highest ids as shown ("pool-3",
// "pool-246"), by number.
func idRange(at map[string]*ownerAt) (lowest, highest string) {
	lo, hi := -1, -1
	for id, a := range at {
		v, err := strconv.Atoi(id)
		if err != nil {
			continue
		}
		if lo < 0 || v < lo {
			lo, lowest = v, a.shown
		}
		if v > hi {
			hi, highest = v, a.shown
		}
	}
	return lowest, highest
}
