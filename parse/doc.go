// Package parse reads Go goroutine dumps and profiles and JVM thread dumps
// into one model. Every format lives in its own file; Parse detects the
// format by content, never by file name.
//
// It is the second step of capture → parse → analyze → report | tui and
// imports only the standard library, internal/words and the pprof profile
// format. [Parse] and [ParseFile] read one input and return its dumps in
// the order they appear (a catalina.out holds several); [Options] bounds
// what is read (line length, inflated size).
//
// The words, used alike in every package of the module:
//
//   - a thread is one JVM thread or one goroutine ([Thread]; a debug=1 or
//     proto record of N goroutines sharing a stack is one Thread of
//     Weight N);
//   - a dump is what one runtime printed at one time ([Dump]); a moment
//     is a dump in an analysis's timeline (analyze.Moment), labelled;
//   - a frame is one line of a stack ([Frame]), a lock one lock line
//     ([Lock]); a state is what a thread waits on, the id of the
//     signature that classified it (analyze's signatures: "socket-read"),
//     distinct from the runtime's own Thread.State or wait reason;
//   - a pool is the threads that do one job (a JVM name with its counter
//     abstracted, a Go creator), a group a pool's threads in one state
//     (analyze.Pool, analyze.Group); a target is the process a capture
//     took a moment of, and an instance one of several targets of one
//     service, compared side by side (report's INSTANCES, JSON
//     "instances").
//
// The steps, and the file that holds each:
//
//	Parse (parse.go) ── gzip and JFR recordings undone, the text decoded
//	 │                  (encoding.go: UTF-8 BOM, UTF-16)
//	 ├─ binary formats (formats.go, the chain; the first that claims the
//	 │    head wins): proto.go (debug=0), jcmd_json.go (Thread.dump_to_file
//	 │    JSON), actuator_json.go, jfr.go
//	 └─ text (parse.go's line loop over lineSource, lines.go): each line is
//	      offered to the text formats in order (formats.go: a format's starts
//	      says whether a dump begins there); between dumps, the shape of the
//	      text around a dump is learned and undone first, a stage each:
//	        prefix.go, prefix_shapes.go   what is in front of every line
//	                                      (kubectl, docker, syslog, a quote,
//	                                      an indent, go test -json)
//	        prefix_learn.go               any other tool's prefix, learned
//	                                      from the dump, nested in layers
//	        escape.go                     a dump inside a JSON string field,
//	                                      or HTML-escaped
//	        indent.go                     frame lines whose TAB became spaces
//	        inline_code.go                a dump between backticks (inline
//	                                      code, Slack's ```)
//	        stage.go                      the stages' one interface: each a
//	                                      layer that reads the one below it
//	                                      (read, rank; addStage, addRewrite)
//	        fence.go                      one dump pasted in fenced parts
//	        rejoin.go                     lines a prefixing tool cut in two
//	        goroutine_notes.go            notes and lead-ins between
//	                                      goroutines (goleak, grpc, go test),
//	                                      go test's continuation indent
//	      then the format's parser reads the dump as the runtime wrote it:
//	        goroutine_text.go, goroutine_fast.go, goroutine_build.go (debug=2,
//	        panic, SIGQUIT), goroutine_debug1.go (goroutine_debug1_pasted.go:
//	        its frame lines mangled or wrapped), goroutine_labels.go;
//	        jstack.go, jstack_header.go, jstack_frames.go, jstack_deadlock.go
//	        (jstack, Thread.print, kill -3 in logs), jcmd_plain.go,
//	        javacore.go (IBM/OpenJ9, excerpts too), actuator_text.go,
//	        threadinfo.go (ThreadInfo.toString, OpenJ9 jstack), intellij.go
//	        (IntelliJ's debugger dump), proto_debug3.go (CockroachDB's
//	        debug=3 labels), jrockit.go (JRockit's own dumps),
//	        watchdog.go (a game server watchdog's reports: Spigot,
//	        Paper), pprof_text.go (go tool pprof -traces of a goroutine
//	        profile, read as the profile);
//	      or a part of a dump read for what it holds, saying so
//	      (Dump.Excerpt): jstack_excerpt.go (a deadlock report alone, a
//	      paste from a state line, frames, names over frames),
//	      goroutine_aggregated.go (panicparse's and gotraceanalyzer's
//	      grouped listings, read back as weighted goroutines);
//	      text that is no dump is refused with what it is instead
//	      (goroutine_refusals.go, jvm_refusals.go, pprof_text.go's
//	      -top/-tree/-peek; prose_refusal.go: headers quoted in prose)
//	 model.go, model_json.go, canonical.go   the model, its JSON and the
//	                                         canonical text goldens compare
//	 lockjoin.go   the owners of a JSON dump's j.u.c locks from a text dump
//	               of the same process beside it (capture takes one)
//
// What holds:
//
//   - Nothing is dropped silently: a line inside a dump that is not
//     understood, a note between threads, a line of another stream under a
//     prefix is a [Skipped] of its dump with its line number and why; a dump
//     cut at its end says so (truncated) with the cut line's position. An
//     input with no dump is an error naming the file and what it holds.
//   - A moment starts only where a real dump starts (the runtime's own
//     first line, a jcmd or Actuator document, a capture header with a
//     time), never at a stray line: a note, a date, a log line between
//     threads is skipped and counted.
//   - The shape of a pasted dump is learned once per block, not per line:
//     a dump written straight to a file takes the parsers' fast paths
//     (TestPastedSameDumps holds that every committed dump, rewritten the
//     ways people paste text, parses to the same dumps, threads, states
//     and frames; the benchmarks hold the cost).
//   - No package state: the format tables are read-only, an [Options]
//     value carries every limit.
package parse
