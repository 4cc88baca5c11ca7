// Package capture gets dump bytes from live processes on a schedule: a Go
// process's net/http/pprof endpoints (or package handler's one-pass dump), a
// local JVM by pid (jcmd, falling back to jstack), a Spring Boot Actuator
// thread dump endpoint, or any shell command that prints a dump (kubectl
// exec, ssh, ...).
//
// It spares the process it dumps: a Go target is first asked for its
// goroutine count the cheap way (debug=1, no stop of the world), and a full
// dump is taken only when its estimated stop fits the pause budget
// (Plan.MaxPause), once (goroutineleak?debug=2 on Go 1.27+, which is the
// same dump with leaked goroutines marked); above it the cheap encodings
// (debug=0, debug=1) are taken instead. A JVM is dumped without -l unless
// its lock owners are needed. Each file records what it cost where known.
//
// It is the first step of capture → parse → analyze → report and imports only
// the standard library: it checks that bytes look like a dump with cheap byte
// tests and leaves the reading to package parse.
//
// A [Plan] names the targets and the schedule; [Run] takes every target at
// each moment (concurrently), writes each file atomically into the out folder
// as it arrives, and rewrites manifest.json after every file, so that an
// interrupted run keeps everything already taken. It never overwrites: an
// out folder holding a capture is continued only with Plan.Append.
// [ReadManifest] reads that folder back; the manifest schema is documented
// on [Manifest].
//
// Errors: a refused plan is a [*PlanError] and creates nothing; a run ended
// by its context wraps context.Canceled (or DeadlineExceeded) and says what
// was kept where. No error text starts with "capture", and none holds the
// plan's secrets (header values, bearer tokens, URL passwords): those are
// replaced by REDACTED wherever they appear in what the package writes.
//
// It treats every endpoint as untrusted (checkRedirect, secrets, inert,
// sniffFunc): a redirect is followed only within the target's origin, so
// no other host's dump is saved as the target's and no header or
// credential is sent elsewhere; secrets are scrubbed in every form a
// server may echo them in, before any cut; a server's text (error body,
// status, location, a command's stderr) is made inert before it is shown
// or stored; and a body is recognised from its first bytes before
// anything is written. Per target, the manifest records its fate
// (TargetRecord.Fate).
//
// The flow of one run:
//
//	Run ── validate Plan, create out dir, write empty manifest
//	 ├─ fixed schedule:  moment 1 … moment N, one every Plan.Every
//	 └─ load schedule:   "before" → start load → "during-1" … every Plan.Every
//	                     while it runs → load exits → wait Plan.After → "after"
//	each moment: one goroutine per target. Go: debug=1 (count, labels), then
//	the moment's dump (handler, goroutineleak?debug=2 or goroutine?debug=2
//	within the budget, debug=0 above it; debug=0 beside a dump the runtime
//	cut at 64 MiB). JVM: jcmd Thread.print [-l], or on JDK 21+
//	Thread.dump_to_file -format=json (Thread.print -l beside it for lock
//	owners), and on JDK 24+ Thread.vthread_scheduler beside it (vsched.go).
//	Actuator: the JSON. Exec: the command's output.
package capture
