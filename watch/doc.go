// Package watch is `dumpdiff watch`: a flight recorder that always holds
// the healthy "before". It captures every target on a schedule into a ring
// on disk, analyzes each ring after every moment as the main command
// analyzes a capture, opens an incident bundle when a finding of the alert
// severity opens, and serves what it sees as Prometheus metrics.
//
// The flow of one target (one goroutine each; targets side by side):
//
//	tick ── capture.Recorder.Take (one moment, under the pause budget)
//	     ── parse the new moment's files once (ring.add); the ring keeps
//	        every moment's parsed input, so an analysis never reads the
//	        disk again
//	     ── analyze.Analyze over the ring's inputs (the main command's
//	        detectors and options, nothing special-cased)
//	     ── metrics (metrics.go), incidents (decided in decide.go,
//	        applied in incident.go)
//	     ── evict: oldest moments out until the ring holds at most Keep
//	        moments and its share of MaxBytes; while an incident is open
//	        (and until its moments are gone) the healthy moments before
//	        it are pinned, so the ring always holds the "before"
//
// A target whose moment fails is retried with backoff (backoffTicks) and is
// `dumpdiff_target_up 0` meanwhile; watch itself stops only on its
// context (SIGINT, SIGTERM): the capture in flight is abandoned, every
// manifest and every open incident's reports are written, and Run returns
// nil.
//
// On disk (Config.Dir):
//
//	DIR/<target>/                 a ring: a capture folder (manifest.json,
//	                              schedule "watch") of the last Keep moments
//	DIR/incidents/<time>-<target>/ an incident: the ring's moments when the
//	                              finding opened (hard links), every moment
//	                              after until it closed, manifest.json,
//	                              report.md, report.html, report.json and
//	                              incident.json (what it follows: a watch
//	                              started again continues it, resume.go)
//
// What happens is decided apart from doing it: decide.go holds the
// decisions (a moment's outcome, the backoff, incidents open, join, close,
// pin and unpin) as pure functions of a value the loop keeps and what the
// tick brought, the clock's time among it; the loop applies them.
//
// Files: watch.go (Config, Run, the target loop), decide.go (the
// decisions), ring.go (the parsed moments and eviction), incident.go
// (bundles: applying the decisions), resume.go (an incident continued
// after a restart), trigger.go (POST /trigger and Config.Trigger),
// metrics.go (the Prometheus collectors), disk_unix.go (free space).
package watch
