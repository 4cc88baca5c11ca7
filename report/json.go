package report

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// SchemaVersion is the version of the JSON report (SCHEMA.md). Adding a
// field keeps it; removing a field or changing what one means bumps it.
const SchemaVersion = "2"

// The JSON protocol types. They are the contract with tools, documented
// field by field in SCHEMA.md; the analysis types may change under them.
// Every slice is written, as [] when empty, never null; every string is
// written, as "" when unknown.

// JSONReport is the whole document.
type JSONReport struct {
	Version  string        `json:"version"` // SchemaVersion
	Runtime  string        `json:"runtime"` // "go", "jvm"; "" when unknown
	Moments  []JSONMoment  `json:"moments"`
	Pools    []JSONPool    `json:"pools"`
	Findings []JSONFinding `json:"findings"`
	Warnings []string      `json:"warnings"`
	// Cautions are the warnings that say the comparison itself is unsound
	// (analyze.Result.Cautions), each in Warnings too; omitted when none.
	Cautions []string `json:"cautions,omitempty"`
	// Notable are the few threads of the last moment to look at first
	// (analyze.Notable), the most unusual first; omitted when none.
	Notable []JSONNotable `json:"notable,omitempty"`
}

// JSONNotable is one notable thread.
type JSONNotable struct {
	Moment  string `json:"moment"` // the moment's label
	Thread  string `json:"thread"` // the first such thread
	Count   int    `json:"count"`
	Pool    string `json:"pool"`
	State   string `json:"state"`
	Via     string `json:"via"`
	Culprit string `json:"culprit"`
	Why     string `json:"why"`
	// Waiters says who waits for this thread to end or for its result,
	// tied by the code it runs (analyze.Notable.Waiters); omitted when none.
	Waiters string `json:"waiters,omitempty"`
}

// JSONMoment is one dump in the timeline.
type JSONMoment struct {
	Label   string `json:"label"`
	File    string `json:"file"`  // as given by the user; "-" for stdin
	Line    int    `json:"line"`  // 1-based line where the dump starts; 0 for binary formats
	Index   int    `json:"index"` // 0-based position of the dump among the dumps of file
	Format  string `json:"format"`
	Time    string `json:"time"`    // RFC 3339 as written in the dump; "" when not written
	Threads int    `json:"threads"` // weights included
	Skipped int    `json:"skipped"` // lines not understood
	Target  string `json:"target"`  // process name; "" for a single process
	// RunningTests are the tests go test was running when it timed out
	// ("TestTransfer (2s)"): the tests that hung; [] for any other dump.
	RunningTests []string `json:"running_tests"`
}

// JSONPool is a group of threads doing the same job.
type JSONPool struct {
	Name     string      `json:"name"`
	Internal bool        `json:"internal"`
	Counts   []int       `json:"counts"` // threads per moment
	Max      int         `json:"max"`
	States   []JSONState `json:"states"`
}

// JSONState is the threads of one pool in one blocking state.
type JSONState struct {
	State    string     `json:"state"`
	Category string     `json:"category"`
	Via      string     `json:"via"`
	Explain  string     `json:"explain"`
	Frame    string     `json:"frame"`
	Culprit  string     `json:"culprit"`
	Counts   []int      `json:"counts"`
	Same     int        `json:"same"`
	CPUMs    int64      `json:"cpu_ms"`
	Samples  [][]string `json:"samples"` // per moment
}

// JSONFinding is one verdict: its facts, and the sentence made of them.
type JSONFinding struct {
	ID string `json:"id"` // unique in its analysis; caused_by refers to it
	// Runtime and Target say which analysis the finding is of: the same in
	// a report of one analysis, told apart in a document of several.
	Runtime  string `json:"runtime"`
	Target   string `json:"target"` // the captured target; "" for a single process
	Kind     string `json:"kind"`
	Severity string `json:"severity"` // "critical", "warning", "info"
	Pool     string `json:"pool"`
	State    string `json:"state"`
	Via      string `json:"via"`
	Resource string `json:"resource"` // what the threads wait for: "db-connection", "peer-reply", "lock"...
	Counts   []int  `json:"counts"`   // threads concerned per moment
	// PoolCounts are all threads of pool per moment; [] when pool is "".
	PoolCounts []int `json:"pool_counts"`
	// Totals are the process's threads per moment (explosion); [] otherwise.
	Totals    []int  `json:"totals"`
	At        int    `json:"at"`         // index of the moment the finding is about
	Since     int    `json:"since"`      // index of the first moment it is seen
	FromStart bool   `json:"from_start"` // already there at the first moment: no healthy before
	Recovered bool   `json:"recovered"`  // gone by the last moment; false when still there or one moment
	Summary   string `json:"summary"`
	Frame     string `json:"frame"`
	Culprit   string `json:"culprit"`
	// PoolFrame is, for a pool's waiters (*-pool-exhausted), the pool's
	// own frame they wait in (HikariPool.getConnection); "" otherwise.
	PoolFrame string           `json:"pool_frame"`
	Culprits  []JSONFrameCount `json:"culprits"`
	Entries   []JSONFrameCount `json:"entries"` // entry points of the threads concerned at "at"
	Same      int              `json:"same"`
	Always    int              `json:"always"` // stuck: of same, how many were there at every moment
	CPUMs     int64            `json:"cpu_ms"`
	CPUThread int              `json:"cpu_threads"`
	Limit     JSONLimit        `json:"limit"`
	Idle      int              `json:"idle"`
	Waiting   int              `json:"waiting"`
	Starved   []JSONFrameCount `json:"starved"`
	Lock      JSONLock         `json:"lock"` // address "" when not about one lock
	Cycle     []JSONThread     `json:"cycle"`
	Blocked   []JSONThread     `json:"blocked"`
	Asleep    []JSONThread     `json:"asleep,omitempty"`    // a go-lock-asleep deadlock's sleepers, which could hold its locks instead; absent otherwise
	SelfLock  *JSONSelfLock    `json:"self_lock,omitempty"` // a go-self-lock deadlock's structure; absent otherwise
	Holders   []JSONHolder     `json:"holders"`
	// HoldersBasis is how holders were found (Finding.HolderBasis).
	HoldersBasis string         `json:"holders_basis"`
	Wait         JSONWait       `json:"wait"` // goroutines 0 when no wait time is printed
	Parents      int            `json:"parents"`
	Basis        string         `json:"basis"`
	Headline     string         `json:"headline"`
	CausedBy     string         `json:"caused_by"` // id of the finding this follows from; "" for a root cause
	Evidence     []JSONEvidence `json:"evidence"`
	// Remedy is what to do, said only where the frames prove what it
	// assumes (the remedy table); "" when no row fits.
	Remedy string `json:"remedy"`
	// Labels are the pprof label values most of its goroutines carry at
	// "at" (the endpoint: route=/api/search): omitted when none do, so
	// that JVM findings and Go dumps without labels read as before.
	Labels []JSONLabel `json:"labels,omitempty"`

	// Loop, Caller and WallMs are spinning's (analyze.Finding.Loop, Caller,
	// Wall): omitted for other kinds, so that adding them left every
	// other finding's JSON as it was.
	Loop   []string `json:"loop,omitempty"`
	Caller string   `json:"caller,omitempty"`
	WallMs int64    `json:"wall_ms,omitempty"`

	// Handoff, Consumers and ConsumerLoop are the producers' of a
	// hand-off (analyze.Finding.Handoff...): omitted for other findings.
	Handoff      string       `json:"handoff,omitempty"`
	Consumers    []JSONHolder `json:"consumers,omitempty"`
	ConsumerLoop bool         `json:"consumer_loop,omitempty"`

	// Scheduler and Pinned are vthread-scheduler-saturated's
	// (analyze.Finding.Scheduler, Pinned): the virtual-thread scheduler's
	// reading at each moment (null where none was taken), and how many of
	// the mounted virtual threads wait while mounted; omitted for other
	// findings.
	Scheduler []*JSONSchedulerReading `json:"scheduler,omitempty"`
	Pinned    int                     `json:"pinned,omitempty"`

	// Awaits is a stuck finding's of basis "no-peer" (analyze.Finding.
	// Awaits): what the wait is on and who could have served it; omitted
	// for other findings.
	Awaits *JSONAwaits `json:"awaits,omitempty"`
	// WaitedBy are a stuck finding's waiters (analyze.Finding.WaitedBy):
	// threads waiting untimed on a hand-off its threads would serve;
	// omitted when none.
	WaitedBy []JSONThread `json:"waited_by,omitempty"`
	// Owners is a leak's of basis "executor-leak" or "executor-crowd"
	// (analyze.Finding.Owners): the thread owners made per call and never
	// shut down, as their threads' names show them; omitted for other
	// findings.
	Owners *JSONOwners `json:"owners,omitempty"`
}

// JSONOwners are thread owners (executors, timers, clients) told by their
// threads' names: the naming family with the id as "*", what they are by
// their threads' rest ("executor", "timer", "event-loop group", "HTTP
// client"; "" when unknown), the frame
// of the loop they rest in ("ThreadPoolExecutor.getTask"), how many
// are alive and at rest at each moment, how many at rest at the last
// moment were not alive at the first, the threads each keeps, the least
// share of one moment's owners alive at the next (0 from one moment), and
// the highest id at the first moment, the highest and lowest at the last.
type JSONOwners struct {
	Family   string  `json:"family"`
	What     string  `json:"what,omitempty"`
	Loop     string  `json:"loop,omitempty"`
	Alive    []int   `json:"alive"`
	AtRest   []int   `json:"at_rest"`
	New      int     `json:"new"`
	PerOwner int     `json:"per_owner"`
	Kept     float64 `json:"kept"`
	FirstID  string  `json:"first_id"`
	LastID   string  `json:"last_id"`
	LowestID string  `json:"lowest_id"`
	// PerThread: each owner is one thread whose name ends at its id
	// ("Timer-78"); omitted for ids before a member counter.
	PerThread bool `json:"per_thread,omitempty"`
}

// JSONAwaits is a hand-off wait no thread can serve: what it waits on
// ("a CountDownLatch"), what its other side would do ("count it down"),
// the object's address ("" when none is printed), the threads tied to it
// (none can serve: each waits), and how many other application threads
// wait untimed or rest idle in an executor's loop.
type JSONAwaits struct {
	What    string       `json:"what"`
	Peer    string       `json:"peer"`
	Address string       `json:"address"`
	Peers   []JSONThread `json:"peers"`
	Waiting int          `json:"waiting"`
	Idle    int          `json:"idle"`
	// Waiter is what the waiting thread is: "hook" (a shutdown hook the
	// JVM waits for: it cannot exit), "ui" (a UI's event thread, in an
	// event's handler); omitted for the program's entry thread.
	Waiter string `json:"waiter,omitempty"`
}

// JSONSchedulerReading is the JVM's virtual-thread scheduler at one
// moment (jcmd Thread.vthread_scheduler): its parallelism, carrier
// threads, carriers running a virtual thread, and virtual threads queued
// for one; -1 where the JVM printed none.
type JSONSchedulerReading struct {
	Parallelism int   `json:"parallelism"`
	Size        int   `json:"size"`
	Mounted     int   `json:"mounted"`
	Queued      int64 `json:"queued"`
}

// JSONFrameCount is a frame and how many threads show it.
type JSONFrameCount struct {
	Frame string `json:"frame"`
	Count int    `json:"count"`
	Probe bool   `json:"probe"` // a health, readiness or liveness check
}

// JSONLabel is a pprof label value and how many of a finding's
// goroutines carry it (of the "of" in its state at "at").
type JSONLabel struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Count int    `json:"count"`
	Of    int    `json:"of"`
}

// JSONLimit is a pool's size and where the number comes from.
type JSONLimit struct {
	Size   int    `json:"size"`   // 0 when unknown
	Source string `json:"source"` // "default", "observed", "current", ""
	What   string `json:"what"`
	// NamedLike is why a pool named like a well-known one has no known
	// size: the row its name matched and the loop none of its threads run.
	NamedLike string `json:"named_like,omitempty"`
}

// JSONLock is a contended lock and its owner.
type JSONLock struct {
	Address       string     `json:"address"`
	Class         string     `json:"class"`
	Owner         JSONThread `json:"owner"` // name "" when no thread shows holding it
	OwnerInferred bool       `json:"owner_inferred"`
	// OwnerFrom is where the owner came from when the dump did not print
	// it ("Thread.print -l beside"); omitted when printed or inferred.
	OwnerFrom string `json:"owner_from,omitempty"`
	// OwnerReceiver is, for a Go owner inferred by value, the receiver it
	// shares with the waiters ("0xc000010000"); omitted otherwise.
	OwnerReceiver string `json:"owner_receiver,omitempty"`
}

// JSONThread is one thread with where it is and what it waits for.
type JSONThread struct {
	Name     string      `json:"name"`
	State    string      `json:"state"`
	Frame    string      `json:"frame"`
	Culprit  string      `json:"culprit"`
	WaitsFor JSONLockRef `json:"waits_for"` // address "" when not blocked on a lock
}

// JSONLockRef is a lock and the name of its holder.
type JSONLockRef struct {
	Address string `json:"address"`
	Class   string `json:"class"`
	Holder  string `json:"holder"`
	// Handoff is set when the wait is for room in a hand-off (a library's
	// buffer) and Holder its one consumer thread.
	Handoff string `json:"handoff,omitempty"`
	// Future is set when the wait is for a future, Holder the thread
	// running a task that the cycle goes through.
	Future bool `json:"future,omitempty"`
	// Chan is set when the wait is a Go channel operation of a channel
	// cycle ("send", "receive", "select"); no lock then.
	Chan string `json:"chan,omitempty"`
}

// JSONHolder is what some holders of an exhausted resource do.
type JSONHolder struct {
	Pool    string `json:"pool"`
	State   string `json:"state"`
	Via     string `json:"via"`
	Culprit string `json:"culprit"`
	Count   int    `json:"count"`
}

// JSONWait is how long goroutines have waited, as the Go runtime prints.
type JSONWait struct {
	MinMinutes int `json:"min_minutes"`
	MaxMinutes int `json:"max_minutes"`
	Goroutines int `json:"goroutines"`
	// MeasuredSeconds is the longest wait an execution trace measured; 0
	// when none did. AtLeast: that wait began before the trace.
	MeasuredSeconds float64 `json:"measured_seconds,omitempty"`
	AtLeast         bool    `json:"at_least,omitempty"`
}

// JSONEvidence is what one moment shows for a finding.
type JSONEvidence struct {
	Moment  int      `json:"moment"` // index into moments
	Label   string   `json:"label"`  // that moment's label
	Count   int      `json:"count"`
	Threads []string `json:"threads"`
}

// NewJSONReport converts r to the protocol types.
func NewJSONReport(r *analyze.Result) *JSONReport {
	n := len(r.Moments)
	doc := &JSONReport{Version: SchemaVersion, Runtime: string(r.Runtime),
		Moments: []JSONMoment{}, Pools: []JSONPool{}, Findings: []JSONFinding{}, Warnings: nonNil(r.Warnings), Cautions: r.Cautions}
	for _, nt := range r.Notable {
		doc.Notable = append(doc.Notable, JSONNotable{Moment: r.Moments[nt.Moment].Label, Thread: nt.Thread, Count: nt.Count, Pool: nt.Pool,
			State: nt.State, Via: nt.Via, Culprit: nt.Culprit, Why: nt.Why, Waiters: nt.Waiters})
	}
	for _, m := range r.Moments {
		jm := JSONMoment{Label: m.Label, File: m.Source.File, Line: m.Source.Line, Index: m.Source.Index,
			Format: string(m.Format), Threads: m.Threads, Skipped: m.Skipped, Target: m.Target, RunningTests: []string{}}
		if m.Dump != nil {
			jm.RunningTests = nonNil(m.Dump.RunningTests)
		}
		if !m.Time.IsZero() {
			jm.Time = m.Time.Format(time.RFC3339Nano)
		}
		doc.Moments = append(doc.Moments, jm)
	}
	for _, p := range r.Pools {
		jp := JSONPool{Name: p.Name, Internal: p.Internal, Counts: fitCounts(p.Counts, n), Max: p.Max, States: []JSONState{}}
		for _, g := range p.States {
			js := JSONState{State: g.State, Category: string(g.Category), Via: g.Via, Explain: g.Explain,
				Frame: g.TopFrame, Culprit: g.Culprit, Counts: fitCounts(g.Counts, n), Same: g.Same,
				CPUMs: g.CPU.Milliseconds(), Samples: make([][]string, n)}
			for i := range js.Samples {
				if i < len(g.Samples) {
					js.Samples[i] = nonNil(g.Samples[i])
				} else {
					js.Samples[i] = []string{}
				}
			}
			jp.States = append(jp.States, js)
		}
		doc.Pools = append(doc.Pools, jp)
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		jf := jsonFinding(r, f)
		for _, e := range f.Evidence {
			je := JSONEvidence{Moment: e.Moment, Count: e.Count, Threads: nonNil(e.Threads)}
			if e.Moment >= 0 && e.Moment < n {
				je.Label = r.Moments[e.Moment].Label
			}
			jf.Evidence = append(jf.Evidence, je)
		}
		doc.Findings = append(doc.Findings, jf)
	}
	return doc
}

func jsonFinding(r *analyze.Result, f *analyze.Finding) JSONFinding {
	target := ""
	if len(r.Moments) > 0 {
		target = r.Moments[0].Target
	}
	jf := JSONFinding{ID: f.ID, Runtime: string(r.Runtime), Target: target, Kind: f.Kind, Severity: f.Severity.String(), Pool: f.Pool, State: f.State, Via: f.Via,
		Resource: f.Resource, Counts: nonNil(f.Counts), PoolCounts: nonNil(f.PoolCounts), Totals: nonNil(f.Totals),
		At: f.At, Since: f.Since, FromStart: f.FromStart, Recovered: f.Recovered, Summary: Summary(r, f), Frame: f.Frame, Culprit: f.Culprit, PoolFrame: f.PoolFrame,
		Culprits: jsonFrames(f.Culprits), Entries: jsonFrames(f.Entries), Same: f.Same, Always: f.Always, CPUMs: f.CPU.Milliseconds(),
		CPUThread: f.CPUThreads, Limit: JSONLimit{Size: f.Limit.Size, Source: f.Limit.Source, What: f.Limit.What, NamedLike: f.Limit.NamedLike},
		Idle: f.Idle, Waiting: f.Waiting, Starved: jsonFrames(f.Starved), Cycle: jsonThreads(f.Cycle),
		Blocked: jsonThreads(f.Blocked), Asleep: jsonThreadsOrNil(f.Asleep), SelfLock: jsonSelfLock(f.SelfLock), Holders: []JSONHolder{}, HoldersBasis: f.HolderBasis, Parents: f.Parents, Basis: f.Basis,
		Headline: f.Headline, CausedBy: f.CausedBy, Evidence: []JSONEvidence{}, Loop: f.Loop, Caller: f.Caller, WallMs: f.Wall.Milliseconds(), Remedy: remedyOf(f)}
	for _, l := range findingLabels(r, f) {
		jf.Labels = append(jf.Labels, JSONLabel{Key: l.key, Value: l.value, Count: l.count, Of: l.of})
	}
	if l := f.Lock; l != nil {
		jf.Lock = JSONLock{Address: l.Address, Class: l.Class, OwnerInferred: l.OwnerInferred, OwnerFrom: l.OwnerFrom, OwnerReceiver: l.OwnerReceiver}
		if l.Owner != nil {
			jf.Lock.Owner = jsonThread(*l.Owner)
		}
	}
	for _, h := range f.Holders {
		jf.Holders = append(jf.Holders, JSONHolder{Pool: h.Pool, State: h.State, Via: h.Via, Culprit: h.Culprit, Count: h.Count})
	}
	jf.Handoff, jf.ConsumerLoop = f.Handoff, f.ConsumerLoop
	for _, sr := range f.Scheduler {
		var j *JSONSchedulerReading
		if sr.Read {
			j = &JSONSchedulerReading{Parallelism: sr.Parallelism, Size: sr.Size, Mounted: sr.Mounted, Queued: sr.Queued}
		}
		jf.Scheduler = append(jf.Scheduler, j)
	}
	jf.Pinned = f.Pinned
	if len(f.WaitedBy) > 0 {
		jf.WaitedBy = jsonThreads(f.WaitedBy)
	}
	if o := f.Owners; o != nil {
		jf.Owners = &JSONOwners{Family: o.Family, What: o.What, Loop: o.Loop, Alive: o.Alive, AtRest: o.AtRest, New: o.New, PerOwner: o.PerOwner,
			Kept: o.Kept, FirstID: o.FirstID, LastID: o.LastID, LowestID: o.LowestID, PerThread: o.PerThread}
	}
	if a := f.Awaits; a != nil {
		jf.Awaits = &JSONAwaits{What: a.What, Peer: a.Peer, Address: a.Address, Peers: jsonThreads(a.Peers), Waiting: a.Waiting, Idle: a.Idle, Waiter: a.Waiter}
	}
	for _, h := range f.Consumers {
		jf.Consumers = append(jf.Consumers, JSONHolder{Pool: h.Pool, State: h.State, Via: h.Via, Culprit: h.Culprit, Count: h.Count})
	}
	if w := f.Wait; w != nil {
		jf.Wait = JSONWait{MinMinutes: w.MinMinutes, MaxMinutes: w.MaxMinutes, Goroutines: w.Goroutines,
			MeasuredSeconds: w.Measured.Seconds(), AtLeast: w.AtLeast}
	}
	return jf
}

func jsonFrames(fcs []analyze.FrameCount) []JSONFrameCount {
	out := []JSONFrameCount{}
	for _, c := range fcs {
		out = append(out, JSONFrameCount{Frame: c.Func, Count: c.Count, Probe: c.Probe})
	}
	return out
}

func jsonThreads(ts []analyze.ThreadRef) []JSONThread {
	out := []JSONThread{}
	for _, t := range ts {
		out = append(out, jsonThread(t))
	}
	return out
}

func jsonThread(t analyze.ThreadRef) JSONThread {
	j := JSONThread{Name: t.Name, State: t.State, Frame: t.Frame, Culprit: t.Culprit}
	if w := t.WaitsFor; w != nil {
		j.WaitsFor = JSONLockRef{Address: w.Address, Class: w.Class, Holder: w.Holder, Handoff: w.Handoff, Future: w.Future, Chan: w.Chan}
	}
	return j
}

// JSON writes r as an indented JSONReport.
func JSON(w io.Writer, r *analyze.Result, opt Options) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // frames hold "<init>"; the document is not HTML
	return enc.Encode(NewJSONReport(r))
}

// DecodeJSON reads a JSONReport, refusing unknown fields and versions
// other than SchemaVersion.
func DecodeJSON(r io.Reader) (*JSONReport, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var doc JSONReport
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("reading json report: %w", err)
	}
	if doc.Version != SchemaVersion {
		return nil, fmt.Errorf("reading json report: version %q, want %q", doc.Version, SchemaVersion)
	}
	return &doc, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// jsonThreadsOrNil is jsonThreads for an optional list: nil when empty,
// so that an omitempty field stays absent.
func jsonThreadsOrNil(ts []analyze.ThreadRef) []JSONThread {
	if len(ts) == 0 {
		return nil
	}
	return jsonThreads(ts)
}

// JSONSelfLock is what ties a Go self-deadlock's outer frame to its lock
// (analyze.SelfLockFact).
type JSONSelfLock struct {
	Frame    string `json:"frame"`    // the outer method of the same value, "main.(*registry).Refresh (main.go:45)"
	Receiver string `json:"receiver"` // the value's address as printed
	InValue  bool   `json:"in_value"` // the lock's printed address lies inside the value (the stronger tie)
	Offset   uint64 `json:"offset"`   // the lock's offset in the value when in_value; 0 otherwise
}

func jsonSelfLock(s *analyze.SelfLockFact) *JSONSelfLock {
	if s == nil {
		return nil
	}
	return &JSONSelfLock{Frame: s.Frame, Receiver: s.Receiver, InValue: s.InValue, Offset: s.Offset}
}
