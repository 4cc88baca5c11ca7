package analyze

import (
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Input is one moment to analyze: a dump and its label.
type Input struct {
	Label string // "before", "during-1"; when empty, derived from the file name
	Dump  *parse.Dump
	// Aux are dumps of the same moment in other encodings (a debug=0 proto
	// beside a debug=2 text); they add labels, never threads. May be nil.
	Aux []*parse.Dump
	// Target names the process the dump came from when several were
	// captured at once ("api-1"); empty for a single process.
	Target string
	// Taken is when the moment was captured (a capture's manifest); zero
	// when unknown. It stands in for the dump's time when the dump prints
	// none (Go text dumps).
	Taken time.Time
	// LoadStarted is when the load command of the capture that took this
	// moment began (capture --load: the manifest's load record); zero when
	// no load ran or none is known.
	LoadStarted time.Time
}

// Options tunes the analysis.
type Options struct {
	// PoolBy is "" (automatic: thread name for the JVM, creator for Go) or
	// "label:KEY" to group goroutines by a pprof label.
	PoolBy string
	// Samples is how many sample thread names to keep per group and moment;
	// 0 means 5.
	Samples int

	// Extensions are a signatures file's rows and pool limits; nil for the
	// built-in tables alone.
	Extensions *Extensions

	// Cache keeps the moments' builds from one analysis to the next (for
	// a window of moments that slides); nil for none. See Cache.
	Cache *Cache

	// byEntry pools goroutines by their entry (bottom) frame instead of
	// their creator: set by Analyze when moments mix debug=2 text (which
	// prints creators) with debug=1 or proto (which do not), so that one
	// goroutine gets the same pool in every moment.
	byEntry bool
	// jvmPools maps each JVM thread name of the analysis to its pool
	// pattern (learnJVMPools): set by Analyze, nil before (then the
	// trailing-counter rule alone applies).
	jvmPools map[string]string
	// roles are the role tables, the built-in ones with the extensions'
	// (roleTables): set by Analyze, nil before (then merged when asked).
	roles *Roles
	// ownForkJoin: some thread of the analysis is a worker of a
	// ForkJoinPool of the program's own (renamedCommonWorker).
	ownForkJoin bool
	// wideScope lets every detector see the results of every detector run
	// before it, not only of those it requires: TestDetectorScope's
	// reference run, to tell a detector that reads beyond its Requires.
	wideScope bool
}

// Result is the whole analysis. Slices indexed by moment have len(Moments)
// entries.
type Result struct {
	Version string // schema version of the analysis ("1")
	Runtime parse.Runtime
	Moments []Moment
	Totals  []int // threads (weights included) per moment
	Pools   []*Pool
	// Findings are the verdicts: facts only, root causes first, each
	// consequence right after the finding it follows from (CausedBy).
	// report.Summary makes the sentences.
	Findings []Finding
	// Warnings are things the reader must know about the input: skipped
	// lines, a moment that mixes runtimes, a dump with no threads.
	Warnings []string
	// Cautions are the warnings that say the comparison itself is
	// unsound (moments of different processes: process.go); each is in
	// Warnings too, first, and the reports say it beside the verdict,
	// where it is read.
	Cautions []string `json:",omitempty"`
	// Notable are the few threads of the last moment an engineer would
	// look at first (see Notable), the most unusual first; empty for a
	// healthy idle service.
	Notable []Notable
	// LoadStarted is when the load command the moments were captured
	// under began (the first input's that knows one); zero when none is
	// known. The reports say "since" from it: "+10s after the load began".
	LoadStarted time.Time
}

// Moment is one dump in the timeline.
type Moment struct {
	Label   string
	Target  string
	Source  parse.Source
	Format  parse.Format
	Time    time.Time // time written in the dump, else Input.Taken, else an Aux dump's; zero if none
	Threads int       // weights included
	Skipped int       // lines the parser did not understand
	Dump    *parse.Dump
}

// Shape is the threads of a group, at one moment, whose stacks are
// identical.
type Shape struct {
	Count int // threads, weights included
	// Stack is the first thread seen with this stack: its frames are the
	// shape's.
	Stack *parse.Thread
	// Samples are up to Options.Samples thread names or goroutine ids.
	Samples []string
	// Culprit is the shape's first application frame and Entry its entry
	// point (Probe for a health check); "" when none.
	Culprit string
	Entry   FrameCount
	// (The shape's threads are among Group.Threads[m]: the whole stack is
	// Stack's; a second slice per shape cost a tenth of the analysis at 1M
	// goroutines.)
	top string // the stack's top frame, normalized (Group.TopFrame's votes)
}

// Category is what a blocking state means for capacity.
type Category string

const (
	Waiting Category = "waiting" // blocked on something outside the thread: I/O, a lock, a pool
	Idle    Category = "idle"    // parked waiting for work: the normal rest state
	Running Category = "running" // on CPU or runnable
	Other   Category = "other"   // runtime internals, unclassified
)

// Pool is a group of threads that do the same job: a JVM thread-name pattern
// ("http-nio-8080-exec-*"), a thread container, or the Go creator function.
type Pool struct {
	Name string
	// Internal is true for JVM-internal threads (GC, compiler, VM...) and Go
	// runtime goroutines; they are kept out of verdicts.
	Internal bool
	Counts   []int // threads per moment
	// Max is the pool's observed maximum (largest count at any moment).
	Max    int
	States []*Group // sorted by largest count, then state id
}

// Group is the threads of one pool in one blocking state (and, for socket
// reads, one kind of peer).
type Group struct {
	Pool     string
	State    string   // signature id: "socket-read", "db-pool-wait", "unclassified"...
	Category Category // waiting, idle, running, other
	// Via tells what a state waits on, told apart by the caller:
	// "http-client", "jdbc org.postgresql", ""; part of the group's identity.
	Via     string
	Explain string // one line from the signature table
	// TopFrame is the most common top frame ("sun.nio.ch.Net.poll").
	TopFrame string
	// Culprit is the most common first application frame
	// ("com.example.shop.UpstreamClient.fetch(UpstreamClient.java:42)");
	// empty when every frame belongs to the runtime or a known framework.
	Culprit string
	// Culprits are the first application frames of the group's threads at
	// the moment the group peaks, most common first, with their counts.
	Culprits []FrameCount
	// Entries are, per moment, the entry points of the group's threads
	// (entryPoint: the first application frame under the server or
	// framework), most common first; nil at a moment with no thread.
	Entries [][]FrameCount
	Counts  []int // threads per moment (weights included)
	// Samples are up to Options.Samples thread names (JVM) or goroutine ids
	// (Go) per moment.
	Samples [][]string
	// Stacks is a representative thread per moment; nil where Counts is 0.
	Stacks []*parse.Thread
	// Threads are all threads of the group per moment (for the TUI).
	Threads [][]*parse.Thread
	// Shapes split the group's threads at each moment by their whole stack
	// (state, functions and lines): threads with identical stacks together,
	// largest first. nil at a moment with no thread.
	Shapes [][]Shape
	// Same is how many of the very same threads (by identity) are in this
	// group at every moment from the first moment it rose to the last
	// moment; 0 when it never rose or identity is unknown (aggregated formats).
	Same int
	// Always is how many of the very same threads (by identity) are in this
	// group, with the same culprit, at every moment given; 0 with one
	// moment or when identity is unknown.
	Always int
	// Stayed is how many threads (by identity) in this group at the last
	// moment have been in it, with the same culprit, at every moment since
	// they first appeared, for at least the last two moments: they came and
	// never left. Always ≤ Stayed; 0 with one moment or no identities.
	Stayed int
	// StayedRan is how many of Stayed printed their CPU at every moment
	// and gained CPURanMin or more between each two: they ran between the
	// dumps and came back to the same place (serving, not held); 0 where
	// cpu= is not printed (Go, JDK 8).
	StayedRan int
	// Holds is the resource the group's threads hold while they wait
	// (socket-read under a JDBC driver holds a db-connection); "" if none.
	Holds string
	// Rest is true when healthy threads also rest in this state (a worker on
	// its channel, a server connection between requests): alone it proves
	// nothing (Signature.Rest, via rows).
	Rest bool
	// Resource is what the state waits for (Signature.Resource).
	Resource string
	// CPU is the total CPU time the group's threads used between the first
	// and last moment they appear, where cpu= is printed; 0 otherwise.
	CPU time.Duration
	// CPUThreads is how many threads CPU was measured on (cpu= printed at
	// two moments or more); 0 when cpu= is not printed.
	CPUThreads int

	// What the builder counts of the goroutines' headers as it files them,
	// per moment, so that the leak detector need not visit every goroutine
	// again (3M goroutines, a third of the detectors' time):
	// waits are those whose printed wait is LeakWaitMinutes or more;
	// marked those the runtime marked leaked, with up to 5 of their names.
	waits         []longWaits
	workWaits     []workWaits // nil when no goroutine of the group waits minutes in work
	marked        []int
	markedSamples [][]string
	// inTask are, per moment, the threads (weights included) whose stack
	// runs a task a pool gave them (inPoolTask): a wait there is the
	// task's; the rest wait in a loop of their own thread.
	inTask []int
}

// longWaits are a group's goroutines at one moment whose printed wait is
// LeakWaitMinutes or more.
type longWaits struct {
	WaitFact
	parents int // distinct parents among them ("created by ... in goroutine N")
	// minutes are how many of them print each wait, fewest minutes first.
	minutes []minuteCount
}

// minuteCount is how many goroutines print one wait ("[select, 12
// minutes]").
type minuteCount struct {
	Minutes, N int
}
