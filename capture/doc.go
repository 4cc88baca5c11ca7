// Package capture gets dump bytes from live processes on a schedule: a Go
// process's net/http/pprof endpoints, a local JVM by pid (jcmd, falling back
// to jstack), or any shell command that prints a dump (kubectl exec, ssh, ...).
//
// It is the first step of capture → parse → analyze → report and imports only
// the standard library: it checks that bytes look like a dump with cheap byte
// tests and leaves the reading to package parse.
//
// A [Plan] names the targets and the schedule; [Run] takes every target at
// each moment (concurrently), writes each file atomically into the out folder
// as it arrives, and rewrites manifest.json after every file, so that an
// interrupted run keeps everything already taken. [ReadManifest] reads that
// folder back; the manifest schema is documented on [Manifest].
//
// Errors: a refused plan is a [*PlanError] and creates nothing; a run ended
// by its context wraps context.Canceled (or DeadlineExceeded) and says what
// was kept where. No error text starts with "capture", and none holds the
// plan's secrets (header values, bearer tokens, URL passwords): those are
// replaced by REDACTED wherever they appear in what the package writes.
//
// The flow of one run:
//
//	Run ── validate Plan, create out dir, write empty manifest
//	 ├─ fixed schedule:  moment 1 … moment N, one every Plan.Every
//	 └─ load schedule:   "before" → start load → "during-1" … every Plan.Every
//	                     while it runs → load exits → wait Plan.After → "after"
//	each moment: one goroutine per target; per target the primary file first
//	(debug=2 text, JVM text, command output), then the files beside it
//	(debug=0 proto, goroutineleak text).
package capture
