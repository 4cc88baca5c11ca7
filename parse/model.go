package parse

import (
	"fmt"
	"time"
)

// Format names a dump format. The values are part of `dumpdiff parse --stats`
// output and of the JSON model.
type Format string

const (
	FormatGoText   Format = "go-text"   // runtime.Stack, debug=2, panic, SIGQUIT
	FormatGoDebug1 Format = "go-debug1" // goroutine profile: total N (and goroutineleak profile)
	FormatGoProto  Format = "go-proto"  // gzipped pprof profile.proto (debug=0)
	FormatJVMText  Format = "jvm-text"  // jstack, jcmd Thread.print, kill -3 output
	FormatJVMJSON  Format = "jvm-json"  // jcmd Thread.dump_to_file -format=json
	// FormatJVMPlain is jcmd Thread.dump_to_file's plain text form (JDK 21+).
	FormatJVMPlain Format = "jvm-plain"
	// FormatActuatorJSON is Spring Boot Actuator's JSON thread dump:
	// /actuator/threaddump (Boot 2.x and later) or /dump (Boot 1.x). Its
	// plain text form reads as FormatJVMText.
	FormatActuatorJSON Format = "jvm-actuator-json"
	// FormatJFR is a jdk.ThreadDump event of a JDK Flight Recorder
	// recording, read through `jfr print` (or its saved output).
	FormatJFR Format = "jvm-jfr"
	// FormatJavacore is an IBM or OpenJ9 javacore's thread section
	// (javacore.go).
	FormatJavacore Format = "jvm-javacore"
	// FormatGoTrace is a moment of a Go execution trace (runtime/trace, a
	// FlightRecorder snapshot, /debug/pprof/trace): the goroutines as the
	// trace had them at one generation's boundary (gotrace.go).
	FormatGoTrace Format = "go-trace"
	// FormatHPROF is the threads of a HotSpot heap dump (HPROF 1.0.2:
	// -XX:+HeapDumpOnOutOfMemoryError, jcmd GC.heap_dump, jmap -dump) at
	// the dump's time (hprof.go).
	FormatHPROF Format = "jvm-hprof"
)

// Runtime tells which runtime wrote a dump.
type Runtime string

const (
	RuntimeGo  Runtime = "go"
	RuntimeJVM Runtime = "jvm"
)

// Unit is what a runtime's threads are called in sentences and headers:
// "goroutines" for Go, "threads" for the JVM (and when unknown).
func (r Runtime) Unit() string {
	if r == RuntimeGo {
		return "goroutines"
	}
	return "threads"
}

// Runtime returns the runtime that writes dumps of format f.
func (f Format) Runtime() Runtime {
	switch f {
	case FormatGoText, FormatGoDebug1, FormatGoProto, FormatGoTrace:
		return RuntimeGo
	}
	return RuntimeJVM
}

// Source says where a dump came from.
type Source struct {
	File string // path as given by the user; "-" for stdin
	Line int    // 1-based line where the dump starts in File; 0 for binary formats
	// Index is the 0-based position of the dump among the dumps of File.
	Index int
}

func (s Source) String() string {
	if s.Line > 0 {
		return fmt.Sprintf("%s:%d", s.File, s.Line)
	}
	return s.File
}

// Dump is one thread dump: one moment of one process.
type Dump struct {
	Source Source
	Format Format
	// Time is the time written in the dump (jstack date line, jcmd JSON time,
	// proto TimeNanos, JFR event start time) or, when the dump prints none,
	// the time of the log prefix of its first line (see Prefix); zero when
	// neither says.
	Time time.Time
	// Prefix names what was stripped from the front of every line of the
	// dump before it was read: a collector's log prefix ("kubectl
	// --timestamps", "docker json-file", "cri", "syslog") or a paste's
	// indentation or quote ("indent", "quote"), or the escape it was read
	// out of: one JSON string field of a log line ("json string"), HTML
	// ("html"); empty when none.
	Prefix string
	// Version is the runtime version as printed ("Java HotSpot(TM) 64-Bit
	// Server VM (25.91-b14 mixed mode)", "21.0.10+7-LTS"); empty if not printed.
	Version string
	// Uptime is how long the process had run at the dump: a javacore's
	// JVM start time (1CISTARTTIME) to its date (1TIDATETIME, both local);
	// 0 when not printed. No thread of the process is older: it bounds the
	// age of threads whose age is not printed.
	Uptime time.Duration `json:",omitempty"`
	// ProcessID is the process id printed by jcmd (leading "PID:" line or JSON
	// processId); 0 if not printed.
	ProcessID int
	// Kind tells a plain dump from a special one: "" for an ordinary dump,
	// "goroutineleak" for Go's goroutine leak profile, "panic" for a Go panic
	// or fatal error, "sigquit" for a Go SIGQUIT traceback.
	Kind     string
	Headline string // first message line of a Go panic/fatal error; empty otherwise
	// RunningTests are the tests go test names after "panic: test timed
	// out after D" ("running tests:"), as printed ("TestHang (10m0s)"):
	// the tests that hung; nil for any other dump.
	RunningTests []string `json:",omitempty"`
	// HeaderTotal is the goroutines a Go debug=1 profile's header counts
	// ("goroutine profile: total 504"), whatever its records sum to (a
	// fragment pasted with its header holds fewer); 0 when no header.
	HeaderTotal int `json:",omitempty"`
	// Excerpt says what a dump that starts in its middle lacks ("no
	// javacore TITLE or THREADS header: it starts at a thread record"):
	// a paste of some threads, read for what it holds; empty for a whole
	// dump.
	Excerpt string `json:",omitempty"`
	// Cut is true when the dump is a part a person cut out of a whole one
	// (a paste that starts at a thread, a record or a deadlock report:
	// Excerpt says which): its threads are the ones that person chose, so
	// what most of them share is what they were shown. False for a whole
	// dump, and for a tool's aggregation of a whole one (Excerpt says it
	// too: an aggregation is not a choice).
	Cut bool `json:",omitempty"`
	// ShortClasses is true when the format prints each frame's class
	// without its package (Eclipse's Copy Stack: "Thread.sleep(long)");
	// false when frames are printed whole.
	ShortClasses bool `json:",omitempty"`
	// NoMonitors is true when the format records no monitor a thread holds
	// or waits to enter (a heap dump: HPROF keeps a BLOCKED thread's state
	// and stack, not its monitor, nor an owner); false when lock lines are
	// printed where there are any.
	NoMonitors bool `json:",omitempty"`
	// JavaThreadsOnly is true when the format holds only the Java threads
	// the JVM shows to tools (a heap dump: no GC, VM or compiler threads,
	// none of HotSpot's hidden Java threads); false for a thread dump.
	JavaThreadsOnly bool `json:",omitempty"`
	Threads         []*Thread
	// Deadlocks are the deadlock reports the JVM printed ("Found one Java-level
	// deadlock:"); nil when none.
	Deadlocks []Deadlock
	// Skipped are the lines inside the dump that no rule understood. They are
	// kept, with their position, so that nothing is dropped silently.
	Skipped []Skipped
	// Joined are the lines a prefixing tool cut in two (concurrently) that
	// were read joined again (rejoin.go): each the rest's position and
	// text, and the line it was joined to; nil when none.
	Joined []Skipped `json:",omitempty"`
	// Gaps are the blank lines found inside a record (a debug=1 profile
	// pasted with blank lines between its frame lines) and read through:
	// the record goes on after them; nil when none.
	Gaps []Skipped `json:",omitempty"`
	// Partial are the lines read with a part of them missing: a Go
	// function line whose file line a person or a cut left out, read as
	// a frame without its file (Frame.File ""): each its position, text
	// and what is missing; nil when none.
	Partial []Skipped `json:",omitempty"`
	// Checked says, on a Go execution trace's last moment, how many of its
	// generations x/exp/trace read because our own reader did not know
	// something in them (and the first reason); "" when ours read all.
	Checked string `json:",omitempty"`
	// PCFrames are, for a Go proto, each location's frames by its address
	// (a call's PC, as a debug=1 frame line prints it), innermost inlined
	// first; nil for other formats. ResolveHiddenFrames reads them.
	PCFrames map[uint64][]*Frame
	// Scheduler is the JVM's virtual-thread scheduler at this moment (jcmd
	// Thread.vthread_scheduler, JDK 24+), read beside the thread dump; nil
	// when not taken.
	Scheduler *VThreadScheduler `json:",omitempty"`
}

// ThreadCount returns the number of threads or goroutines in d, weights included.
func (d *Dump) ThreadCount() int {
	n := 0
	for _, t := range d.Threads {
		n += t.Weight
	}
	return n
}

// Skipped is a line the parser did not understand.
type Skipped struct {
	Line   int    // 1-based line in Source.File
	Text   string // the line, truncated to 200 bytes
	Reason string // why it was skipped ("frame line outside a thread")
}

// Deadlock is one "Found one Java-level deadlock:" report.
type Deadlock struct {
	Line  int    // 1-based line of the "Found ..." header in the file
	Kind  string // "Java-level", "Java-level (virtual threads)", as printed; empty when unknown
	Cycle []DeadlockEdge
}

// DeadlockEdge is one `"name":` entry of a deadlock report.
type DeadlockEdge struct {
	Thread  string // thread name
	Waiting string // what it waits for, as printed ("waiting to lock monitor 0x... (object 0x..., a java.lang.Object),")
	Holder  string // name of the thread holding it; empty when not printed
}

// Thread is one JVM thread or one Go goroutine (or, for aggregated Go
// formats, Weight identical goroutines).
type Thread struct {
	// ID is the goroutine id, the JVM "#N" thread id, the JSON tid, or
	// the "@N" debugger id IntelliJ writes after a thread's name (cut off
	// the name: intellij.go); 0 if not printed (aggregated formats, old
	// JVMs).
	ID int64
	// State is the Go wait reason ("chan receive", "sync.Mutex.Lock") or the
	// JVM Thread.State ("WAITING"); empty if not printed.
	State  string
	Frames []*Frame
	// CreatedBy is the Go creator; nil when not printed (main, runtime).
	CreatedBy *Creator
	// WaitAddr is, for a Go goroutine blocked in a sync lock, the address of
	// the lock as printed in the first sync frame's arguments
	// ("0xc0000a6000" from "sync.(*Mutex).Lock(0xc0000a6000)"); empty when
	// not printed (aggregated formats, inlined "(...)" frames) or not in sync.
	// An execution trace prints no argument: there it is LockSitePrefix and
	// the frame that takes the lock ("@main.(*cache).get:185"), one lock per
	// call site; write it with LockShown.
	WaitAddr string
	// Labels are pprof labels (Go); nil if none.
	Labels map[string]string
	// Weight is 1 for one thread, or the number of goroutines sharing this
	// stack in aggregated formats (debug=1, proto).
	Weight int
	// Line is the 1-based line of the thread header in the file; 0 for proto.
	Line int
	// WaitMinutes is the Go "N minutes" wait time; 0 if not printed.
	WaitMinutes int
	// NoStack is true when the runtime printed no stack ("goroutine running on
	// other thread; stack unavailable", JVM non-Java threads).
	NoStack bool
	// GoExtra holds what few goroutines print (elided frames, a synctest
	// bubble, ancestors, header flags); nil when none does, and for the
	// JVM. Its fields read as the thread's own; a reader checks
	// t.GoExtra != nil or uses t.Extra() (t.Flags() for the flags).
	// (Behind a pointer: 64 bytes a goroutine otherwise.)
	*GoExtra
	// JVM holds what only JVM dumps print; nil for goroutines. Its fields
	// read as the thread's own (t.NativeID), so a reader that may see a
	// goroutine checks t.JVM != nil first. (Behind a pointer because a
	// goroutine has none of them: 352 bytes a goroutine before, 3 × 1M
	// goroutines in a gigabyte after.)
	*JVM
}

// GoExtra is the part of a goroutine that few print.
type GoExtra struct {
	// FramesElided is true when the runtime cut the stack ("...additional
	// frames elided..." or "...N frames elided...").
	FramesElided bool
	// ElidedCount is N of "...N frames elided..."; 0 if not printed.
	ElidedCount int
	// Bubble is the synctest bubble id; 0 if not in a bubble.
	Bubble int64
	// Ancestors are GODEBUG=tracebackancestors=N blocks; nil if none.
	Ancestors []Ancestor
	// Flags are the extra header words ("locked to thread", "durable",
	// "leaked", "syscall"...), in printed order; nil if none. Read them
	// with Thread.Flags.
	Flags []string
	// Waited is, in a moment of an execution trace, how long the goroutine
	// had been waiting in its state, measured from the trace's events to
	// the nanosecond; 0 in every other format and when not waiting.
	Waited time.Duration
	// WaitedAtLeast is true when the wait began before the trace did:
	// Waited is then the time from the trace's start, a lower bound.
	WaitedAtLeast bool
	// PCs are a debug=1 record's program counters as printed after "@"
	// (return addresses, innermost first, the runtime's hidden frames
	// included: runtime.gopark, runtime.selectgo...); nil in other formats.
	PCs []uint64
	// Receivers are the pointer receivers its method frames print as their
	// first argument ("main.(*store).flush(0xc000123400, ...)": 0xc000123400
	// at that frame's index), top first, in Go text dumps of at most
	// ReceiversMax goroutines; nil when none is printed (debug=1, proto,
	// "(...)" arguments) or the dump is larger. Two goroutines in methods
	// of one value print the same address: a lock's holder is told from
	// its waiters by it (Go prints no owner).
	Receivers []Receiver
	// LockArgs are the addresses the frames below a sync lock frame print
	// among their arguments ("(*BankAccount).Transfer(0xc000010100,
	// 0xc000010120, 0xa)": both), at each frame's index, top first, for a
	// goroutine waiting in Lock/RLock whose lock address is printed
	// (Thread.WaitAddr), in Go text dumps of at most ReceiversMax
	// goroutines; nil otherwise. Values Go marks with '?' are left out (a
	// stale spill slot), and so are small numbers (below 0x10000: a count,
	// a flag, never a heap or data pointer). Go prints no lock's owner: the
	// objects a waiter's own frames hold tell which locks it may have taken
	// before this one (analyze's argument graph).
	LockArgs []Receiver
	// FramePCs are the PCs its printed frame lines give ("#\t0x6a68d5\t..."),
	// one per Frames entry (a call's PC: its return address less one); nil
	// in other formats. See ResolveHiddenFrames.
	FramePCs []uint64
}

// Receiver is a method frame's pointer receiver as printed.
type Receiver struct {
	Frame int    // index in Thread.Frames
	Addr  uint64 // the address, 0xc000123400
}

// ReceiversMax is the most goroutines a Go text dump may hold for their
// frames' receivers to be kept (GoExtra.Receivers): the receivers cost a
// few words a method frame, and a dump of a million goroutines (issue 31)
// would pay a hundred megabytes for what a lock's holder needs. Pastes
// and the dumps of most incidents hold far fewer; a larger dump tells
// holders without them (by function and type).
const ReceiversMax = 20000

// Flags returns t's Go header flags (GoExtra.Flags); nil if none.
func (t *Thread) Flags() []string {
	if t.GoExtra == nil {
		return nil
	}
	return t.GoExtra.Flags
}

// Name returns t's JVM thread name (JVM.Name); empty for goroutines,
// which have none.
func (t *Thread) Name() string {
	if t.JVM == nil {
		return ""
	}
	return t.JVM.Name
}

// Locks returns t's JVM lock lines (JVM.Locks); nil if none, and for
// goroutines.
func (t *Thread) Locks() []Lock {
	if t.JVM == nil {
		return nil
	}
	return t.JVM.Locks
}

// Extra returns t's GoExtra, the zero one when it has none.
func (t *Thread) Extra() GoExtra {
	if t.GoExtra == nil {
		return GoExtra{}
	}
	return *t.GoExtra
}

// extra returns t's GoExtra for writing, making it on first use.
func (t *Thread) extra() *GoExtra {
	if t.GoExtra == nil {
		t.GoExtra = &GoExtra{}
	}
	return t.GoExtra
}

// JVM is the part of a Thread only JVM dumps print.
type JVM struct {
	// Name is the thread name without quotes. Read it with Thread.Name.
	Name string
	// NativeID is the JVM nid as printed ("0x1a2b" or "6789"); empty if not printed.
	NativeID string
	// TID is the JVM tid= value as printed ("0x00007f..."); empty if not printed.
	TID        string
	Daemon     bool
	Priority   int // JVM prio=; 0 if not printed
	OSPriority int // JVM os_prio=; 0 if not printed
	// StateDetail is the JVM detail after the state ("parking",
	// "on object monitor") or the header word ("waiting on condition");
	// empty if none.
	StateDetail string
	// CPU and Elapsed are the JVM cpu= and elapsed= values; 0 if not printed.
	CPU     time.Duration
	Elapsed time.Duration
	// BlockedFor is how long a blocked-thread checker said the thread had
	// run its current task when it warned (Vert.x's "has been blocked for
	// 3266 ms": blocked_warning.go); 0 in every other format.
	BlockedFor time.Duration `json:",omitempty"`
	// Allocated is the JVM -e allocated= value in bytes; 0 if not printed.
	Allocated int64
	// Carrier is the carrier thread name of a mounted virtual thread in a
	// JSON dump; empty otherwise.
	Carrier string
	// MountedVirtual is the id of the virtual thread a carrier thread carries
	// ("Carrying virtual thread #N", "Mounted virtual thread #N"); 0 if none.
	MountedVirtual int64
	// Virtual is true for JVM virtual threads (JSON dumps, dump_to_file text).
	Virtual bool
	// StackCut is true when the dump says frames were left off the
	// bottom of the stack (ThreadInfo.toString's "...": it keeps 8);
	// false when the whole stack is printed, or when nothing says.
	StackCut bool `json:",omitempty"`
	// Ownables is true when the dump printed the thread's "Locked ownable
	// synchronizers:" section (jstack -l, jcmd Thread.print, ThreadInfo):
	// a java.util.concurrent lock the section does not list, the thread
	// does not own exclusively. False when not printed (plain jstack):
	// nothing then says who owns what.
	Ownables bool `json:",omitempty"`
	// Container is the jcmd JSON/plain thread container ("<root>",
	// "java.util.concurrent.ThreadPoolExecutor@5a2e4553"); empty otherwise.
	Container string
	// SideCPU is the thread's row of a CPU table printed beside the dump
	// (top -H, ps -L: cputable.go), matched by its native id; nil when
	// none was given or none matched.
	SideCPU *ThreadCPU `json:",omitempty"`
	// Locks are the lock lines under the stack ("- locked <0x...>", "-
	// parking to wait for", ownable synchronizers), in printed order; nil
	// if none. Read them with Thread.Locks.
	Locks []Lock
}

// Java returns t's JVM part, the zero JVM for a goroutine: for readers
// that may see either (t.Java().NativeID).
func (t *Thread) Java() JVM {
	if t.JVM == nil {
		return JVM{}
	}
	return *t.JVM
}

// Creator is the Go "created by" line.
type Creator struct {
	Func   string
	File   string
	Line   int
	Parent int64 // "in goroutine N" (Go 1.21+); 0 if not printed
}

// Ancestor is one "[originating from goroutine N]:" block.
type Ancestor struct {
	ID     int64
	Frames []*Frame
}

// Frame is one stack frame. Frames are interned per parse: equal frames are
// the same pointer, so a 100k-goroutine dump holds few distinct frames.
type Frame struct {
	// Func is the fully qualified function ("net/http.(*conn).serve",
	// "java.net.SocketInputStream.socketRead0").
	Func string
	// File is the source file ("/usr/lib/go/src/net/net.go", "SocketInputStream.java");
	// empty if not printed ("Native Method", "Unknown Source").
	File string
	Line int // 0 if not printed
	// Module is the JDK module ("java.base@17.0.15"); empty if not printed.
	Module string
	// Note is the JVM location text when not a file ("Native Method",
	// "Unknown Source", "Compiled Code"); empty otherwise.
	Note string
}

// LockKind tells what a JVM lock line means.
type LockKind string

const (
	LockHeld       LockKind = "locked"              // - locked <0x..> (a X)
	LockWaitingTo  LockKind = "waiting to lock"     // - waiting to lock <0x..> (a X)
	LockWaitingOn  LockKind = "waiting on"          // - waiting on <0x..> (a X)
	LockParking    LockKind = "parking to wait for" // - parking to wait for <0x..> (a X)
	LockEliminated LockKind = "eliminated"          // - eliminated <owner is scalar replaced> / <0x..>
	LockReLocking  LockKind = "waiting to re-lock"  // - waiting to re-lock in wait() <0x..>
	LockOwnable    LockKind = "ownable"             // Locked ownable synchronizers: - <0x..> (a X)
	// LockClassInit: - waiting on the Class initialization monitor for X
	// (JDK 17+): Class is X, Address empty. OpenJ9's javacore: "Waiting on:
	// java/lang/J9VMInternals$ClassInitializationLock@0x.. Owned by:
	// <unowned> Initializing thread: "Y"": Class is that lock's class,
	// Address its address, Owner Y, the thread running the initializer.
	LockClassInit LockKind = "waiting on the Class initialization monitor for"
)

// Lock is one JVM lock line.
type Lock struct {
	Kind    LockKind
	Address string // "0x000000076ab62208"; empty if not printed ("<no object reference available>")
	Class   string // "java.lang.Object"; empty if not printed
	// Frame is the index in Thread.Frames of the frame the line follows; -1
	// for ownable synchronizers.
	Frame int
	// Owner is the owning thread's name as the waiter's line prints it
	// (JSON and virtual-thread dumps, ThreadInfo's and OpenJ9 jstack's
	// `owned by "Y"`, a javacore's `Owned by: "Y"`, IntelliJ's `waiting
	// for Y@12 to release lock`, the actuator's `owned by "Y" t@12`); empty
	// when not printed. The analysis takes it as the lock's holder where
	// no thread prints the lock as held (analyze's lock graph).
	Owner string
	// OwnerID is the owner's thread id as printed beside its name
	// (ThreadInfo `Id=12`, IntelliJ `@12`, actuator `t@12`; a javacore's
	// owner J9VMThread, as its Java thread id), telling apart threads of
	// one name; 0 when not printed.
	OwnerID int64 `json:",omitempty"`
	// From says where a lock this dump did not print came from
	// (JoinLockOwners: "Thread.print -l beside"); empty for every lock as
	// the dump printed it.
	From string `json:",omitempty"`
}
