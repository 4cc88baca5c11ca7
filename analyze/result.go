// Package analyze turns dumps taken at several moments into pools, blocking
// states, timelines and findings. The analysis is a plain value computed
// once, with no I/O: renderers and the TUI only read it.
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
}

// Options tunes the analysis.
type Options struct {
	// PoolBy is "" (automatic: thread name for the JVM, creator for Go) or
	// "label:KEY" to group goroutines by a pprof label.
	PoolBy string
	// Samples is how many sample thread names to keep per group and moment;
	// 0 means 5.
	Samples int

	// byEntry pools goroutines by their entry (bottom) frame instead of
	// their creator: set by Analyze when moments mix debug=2 text (which
	// prints creators) with debug=1 or proto (which do not), so that one
	// goroutine gets the same pool in every moment.
	byEntry bool
}

// Result is the whole analysis. Slices indexed by moment have len(Moments)
// entries.
type Result struct {
	Version  string // schema version of the analysis ("1")
	Runtime  parse.Runtime
	Moments  []Moment
	Totals   []int // threads (weights included) per moment
	Pools    []*Pool
	Findings []Finding
	// Warnings are things the reader must know about the input: skipped
	// lines, a moment that mixes runtimes, a dump with no threads.
	Warnings []string
}

// Moment is one dump in the timeline.
type Moment struct {
	Label   string
	Target  string
	Source  parse.Source
	Format  parse.Format
	Time    time.Time // time written in the dump, else Input.Taken; zero if neither
	Threads int       // weights included
	Skipped int       // lines the parser did not understand
	Dump    *parse.Dump
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
	Counts   []int // threads per moment (weights included)
	// Samples are up to Options.Samples thread names (JVM) or goroutine ids
	// (Go) per moment.
	Samples [][]string
	// Stacks is a representative thread per moment; nil where Counts is 0.
	Stacks []*parse.Thread
	// Threads are all threads of the group per moment (for the TUI).
	Threads [][]*parse.Thread
	// Same is how many of the very same threads (by identity) are in this
	// group at every moment from the first moment it rose to the last
	// moment; 0 when it never rose or identity is unknown (aggregated formats).
	Same int
	// CPU is the total CPU time the group's threads used between the first
	// and last moment they appear, where cpu= is printed; 0 otherwise.
	CPU time.Duration
	// CPUThreads is how many threads CPU was measured on (cpu= printed at
	// two moments or more); 0 when cpu= is not printed.
	CPUThreads int
}

// Finding kinds. They are part of the JSON contract.
const (
	KindNotRecovered = "not-recovered"
	KindRecovered    = "recovered"
	KindGrowing      = "growing"
	KindSaturated    = "saturated"
	KindExplosion    = "explosion"
	KindDeadlock     = "deadlock"
	KindContention   = "contention"
	KindLeaked       = "leaked"
	// KindDBPoolExhausted: threads queue for a DB connection while the
	// pool's connections all wait for the database.
	KindDBPoolExhausted = "db-pool-exhausted"
)

// Kinds are every finding kind, in the order findings are listed.
var Kinds = []string{KindDeadlock, KindNotRecovered, KindGrowing, KindLeaked, KindSaturated, KindDBPoolExhausted,
	KindExplosion, KindContention, KindRecovered}

// Severity orders findings.
type Severity int

const (
	Info Severity = iota
	Warning
	Critical
)

func (s Severity) String() string {
	switch s {
	case Critical:
		return "critical"
	case Warning:
		return "warning"
	}
	return "info"
}

// Finding is one verdict with its numbers and evidence.
type Finding struct {
	Kind     string
	Severity Severity
	Pool     string // empty for process-wide findings
	State    string // empty when not about one state
	Via      string
	Counts   []int // the numbers behind the verdict, per moment
	// Summary is one sentence with the numbers ("200 of 200
	// http-nio-8080-exec-* threads in socket-read at during-2; still 200
	// at after").
	Summary string
	// Frame is the top frame and Culprit the first application frame of
	// the threads concerned; empty when not applicable.
	Frame   string
	Culprit string
	// Evidence lists per moment which threads were seen.
	Evidence []Evidence
}

// Evidence is what one moment shows for a finding.
type Evidence struct {
	Moment  int      // index into Result.Moments
	Count   int      // threads concerned at that moment
	Threads []string // sample thread names or goroutine ids
}
