// Package analyze turns dumps taken at several moments into pools, blocking
// states, timelines and findings. The analysis is a plain value computed
// once, with no I/O: renderers and the TUI only read it.
//
// It is the third step of capture → parse → analyze → report | tui and
// imports only package parse (and the standard library). [Analyze] takes
// the moments in the order given ([Input]: a parsed dump, its label, the
// dumps of the same moment in other encodings) and returns a [*Result]:
// its Pools and their Groups (a pool's threads in one state, counted at
// every moment), its Findings in story order, and its Warnings, as values
// (a moment of another runtime, lines the parser skipped, a pprof label no
// goroutine carries).
//
// The steps, and the file that holds each:
//
//	Analyze (analyze.go) ── label the moments, tell the runtime, warn
//	 ├─ build (build.go)    every thread of every moment filed into a pool
//	 │    │                 (pools.go), a group (its state: the signature
//	 │    │                 table, signatures.go and resources.go, a
//	 │    │                 signatures file's rows first, extensions.go) and
//	 │    │                 a shape (one stack), with its culprit (culprit.go)
//	 │    │                 and entry point (entries.go); the moments side by
//	 │    │                 side, merged in moment order; then the threads
//	 │    │                 followed across moments by identity (Same,
//	 │    │                 Always, Stayed, CPU), and the facts detectors ask
//	 │    │                 of every thread gathered on the way: Go lock
//	 │    │                 waiters (golocks.go), printed waits and the
//	 │    │                 runtime's leaked mark
//	 │    └─ classes (classes.go)  the build's classification of each
//	 │                      moment's distinct stacks, kept for the detectors
//	 └─ runDetectors (detector.go)  the table of detectors, checked, run in
//	      │                 the order their Requires give, each with its own
//	      │                 Pass (pass.go); one detector a file
//	      │                 (detect_*.go), its thresholds beside it; the
//	      │                 JVM's lock graph for the deadlock (lockgraph.go)
//	      └─ conclude (detector.go)  what recovered, a cause raised to the
//	                        severity of what it causes, root causes first
//	                        and each followed by its consequences
//
// What holds:
//
//   - Analyze does no I/O and does not modify the dumps (a goroutine given
//     labels from another encoding is a copy). The same inputs give the
//     same Result, byte for byte once rendered: whatever is gathered in a
//     map is put in an order before it is kept.
//   - The build files each thread once (then places it in its group's
//     slice, allocated at its size), classifies each distinct stack once
//     a moment, and finds a goroutine's slot by its stack's address,
//     without formatting a key: 3 moments of 1M goroutines are 3M threads
//     in a few hundred stacks (BenchmarkAnalyze; `make bench-1m` for the
//     full size). What a detector asks of every goroutine (lock waiters,
//     printed waits, the leaked mark) is gathered by the build while the
//     goroutine is at hand, not by a detector walking them again.
//   - Detectors read the Result the build made and write only their
//     findings and claims; the classification is the build's, read-only
//     while they run.
//   - The detector table is checked before any detector runs (newTable):
//     every requirement is a detector of the table, none is listed twice
//     or named alike, and the Requires have no cycle; a table that does not
//     hold is a panic on the first analysis, and TestNewTableRefuses names
//     each error.
//   - A detector sees the findings and claims of what it requires and of
//     nothing else: asking for another's findings panics, and
//     TestDetectorScope runs every fixture with each detector seeing every
//     detector run before it, to tell one that reads beyond its Requires.
//     Claims are a declared result (Detector.Claims); of two claims of one
//     group or thread, the first detector's to run stands, so one cause
//     makes one story.
//   - Each threshold is a constant of its detector's file, described once
//     (Detector.Thresholds, with what it protects against); README.md's
//     detector and threshold tables are made from the table
//     (TestREADMETables, TestThresholdsBeside).
//   - Finding kinds are part of the JSON contract (report's protocol
//     types).
package analyze
