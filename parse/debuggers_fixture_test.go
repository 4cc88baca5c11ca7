package parse

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// debuggersCounts reads testdata/debuggers/COUNTS.tsv: goroutines per
// file, counted with grep, not by this parser.
func debuggersCounts(t *testing.T) map[string]int { return countsTSV(t, debuggersDir) }

func parseDebuggerFile(t *testing.T, name string) []*Dump {
	t.Helper()
	dumps, err := ParseFile(filepath.Join(debuggersDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return dumps
}

// TestDebuggersFixtures reads each counted file of testdata/debuggers as
// its README says: one dump, the counted goroutines, nothing skipped, a
// Go dump, a listing said to be one (Excerpt), the runtime's dump not;
// and compares the canonical form with its golden (-update rewrites it).
func TestDebuggersFixtures(t *testing.T) {
	for name, want := range debuggersCounts(t) {
		t.Run(name, func(t *testing.T) {
			dumps := parseDebuggerFile(t, name)
			if len(dumps) != 1 {
				t.Fatalf("got %d dumps, want 1", len(dumps))
			}
			d := dumps[0]
			if d.ThreadCount() != want || len(d.Skipped) != 0 || d.Format != FormatGoText {
				t.Errorf("got %d goroutines, %d skipped, format %s; want %d, 0, %s", d.ThreadCount(), len(d.Skipped), d.Format, want, FormatGoText)
			}
			if listing := !strings.Contains(name, ".debug2."); (d.Excerpt != "") != listing {
				t.Errorf("Excerpt = %q; a listing says one: %v", d.Excerpt, listing)
			}
			d.Source.File = name
			checkGolden(t, filepath.Join("testdata/golden/debuggers", name+".canonical"), dumps)
		})
	}
}

// TestDelveTranscripts: a transcript is one dump per command, each the
// listing cut out of it as a person copies it (the prompt and the bold
// taken off by the reader, by awk and sed in the cut). Without a terminal
// Delve does not echo the command: the transcript's "goroutine 22 stack"
// is a stack without its id (0).
func TestDelveTranscripts(t *testing.T) {
	for v, cmds := range map[string][]string{
		"v1.27.2": {"goroutines", "goroutines-t", "goroutines-l", "goroutines-g", "goroutines-group-user", "stack"},
		"v1.23.1": {"goroutines", "goroutines-t"},
	} {
		all := parseDebuggerFile(t, "delve-"+v+".transcript.txt")
		if len(all) != len(cmds) {
			t.Fatalf("%s: %d dumps, want %d", v, len(all), len(cmds))
		}
		for i, c := range cmds {
			one := parseDebuggerFile(t, "delve-"+v+"."+c+".txt")
			if c == "stack" {
				if id := all[i].Threads[0].ID; id != 0 {
					t.Errorf("%s: the transcript's stack has id %d: the command is not in it", v, id)
				}
				all[i].Threads[0].ID = one[0].Threads[0].ID
			}
			if diff := cmp.Diff(dumpFingerprint(one), dumpFingerprint(all[i:i+1])); diff != "" {
				t.Errorf("%s %s: the transcript's dump differs from the cut one (-cut +transcript):\n%s", v, c, diff)
			}
		}
	}
}

// threadsByID maps a dump's goroutines by id.
func threadsByID(d *Dump) map[int64]*Thread {
	m := map[int64]*Thread{}
	for _, t := range d.Threads {
		m[t.ID] = t
	}
	return m
}

// frameList writes frames as "func file:line" lines, without the frames
// the runtime's traceback hides in debug=2 (its own runtime.* frames).
// Delve prints the program's own files relative to its working directory
// ("./blocked/main.go"), the runtime and GoLand whole: a file is written
// from its folder "blocked/" on, so that the same file reads the same.
func frameList(fs []*Frame) []string {
	var out []string
	for _, f := range fs {
		if strings.HasPrefix(f.Func, "runtime.") {
			continue
		}
		file := f.File
		if i := strings.Index(file, "blocked/main.go"); i >= 0 {
			file = file[i:]
		}
		out = append(out, fmt.Sprintf("%s %s:%d", f.Func, file, f.Line))
	}
	return out
}

// TestDelveAgreesWithDebug2: each Delve listing and the runtime's debug=2
// dump of the same process a moment later (the goroutines wait for ever)
// give the same goroutines and states; the -t stacks are the runtime's
// (its hidden runtime frames aside, to -t's depth); the plain listing's
// one location is a frame of the runtime's stack; a wait read from the
// stamps is never more than the runtime's minutes. Delve 1.23.1's table
// names the runtime's sync.Mutex.Lock (reason 21 of Go 1.23) "timer
// goroutine (idle)" (README): those are expected, and only those.
func TestDelveAgreesWithDebug2(t *testing.T) {
	misnamed := map[string]map[string]string{
		"v1.23.1": {"sync.Mutex.Lock": "timer goroutine (idle)"},
	}
	for _, v := range []string{"v1.27.2", "v1.23.1"} {
		t.Run(v, func(t *testing.T) {
			rt := threadsByID(parseDebuggerFile(t, "delve-"+v+".debug2.txt")[0])
			plain := parseDebuggerFile(t, "delve-"+v+".goroutines.txt")[0]
			stacks := threadsByID(parseDebuggerFile(t, "delve-"+v+".goroutines-t.txt")[0])
			waited, compared := 0, 0
			for _, g := range plain.Threads {
				r := rt[g.ID]
				if r == nil {
					// The runtime's dump leaves out its own goroutines
					// (runtime.Stack hides system goroutines): each of
					// these is the runtime's by its frames.
					for _, f := range stacks[g.ID].Frames {
						if !strings.HasPrefix(f.Func, "runtime.") {
							t.Errorf("goroutine %d (%v) is not in the runtime's dump", g.ID, f)
							break
						}
					}
					continue
				}
				compared++
				want := r.State
				if w, ok := misnamed[v][want]; ok {
					want = w
				}
				if g.State != want && !(g.State == "" && (r.State == "running" || r.State == "runnable")) {
					t.Errorf("goroutine %d: Delve state %q, the runtime's %q", g.ID, g.State, r.State)
				}
				if served(r) {
					// The goroutine that accepted the request for the
					// runtime's dump ran in between: its wait began anew.
				} else if g.WaitMinutes > r.WaitMinutes {
					t.Errorf("goroutine %d: waited %d minutes from the stamps, the runtime says %d", g.ID, g.WaitMinutes, r.WaitMinutes)
				}
				if g.WaitMinutes > 0 {
					waited++
				}
				// The plain listing's location is one of the runtime's frames.
				if len(g.Frames) != 1 {
					t.Fatalf("goroutine %d: %d frames in the plain listing", g.ID, len(g.Frames))
				}
				// By its file and line, or by its function: Delve names
				// the location of an inlined call by the file and line of
				// the innermost, perhaps a hidden runtime frame ("proc.go:468
				// sync.runtime_notifyListWait"), or by the wrapper the
				// runtime hides ("main.go:45 main.main.gowrap3").
				at := strings.SplitN(fmt.Sprintf("%s %s:%d", g.Frames[0].Func, g.Frames[0].File, g.Frames[0].Line), " ", 2)
				loc := strings.SplitN(frameList([]*Frame{{Func: "x", File: g.Frames[0].File, Line: g.Frames[0].Line}})[0], " ", 2)[1]
				found := false
				for _, f := range frameList(r.Frames) {
					fl := strings.SplitN(f, " ", 2)
					found = found || fl[1] == loc || fl[0] == at[0]
				}
				if !found && len(r.Frames) > 0 {
					t.Errorf("goroutine %d: Delve's location %s is no frame of the runtime's stack", g.ID, loc)
				}
				// The stack, to Delve's depth.
				s := stacks[g.ID]
				got, wantF := frameList(s.Frames), frameList(r.Frames)
				if s.Extra().FramesElided && len(wantF) > len(got) {
					wantF = wantF[:len(got)]
				}
				if diff := cmp.Diff(wantF, got); diff != "" {
					t.Errorf("goroutine %d: -t stack differs from the runtime's (-runtime +delve):\n%s", g.ID, diff)
				}
			}
			if compared < 15 {
				t.Errorf("only %d goroutines in both", compared)
			}
			if waited == 0 {
				t.Errorf("no wait read from the stamps: the first waiters waited a minute longer than the late sender")
			}
			// What the runtime's dump has that Delve's has not: the
			// handler of the request that took it, nothing else.
			for id, r := range rt {
				if threadsByID(plain)[id] != nil {
					continue
				}
				if r.CreatedBy == nil || !strings.HasPrefix(r.CreatedBy.Func, "net/http.") {
					t.Errorf("goroutine %d [%s] of the runtime's dump is not in Delve's", id, r.State)
				}
			}
		})
	}
}

// served reports whether t is the accept loop of the server that served
// the debug=2 dump.
func served(t *Thread) bool {
	for _, f := range t.Frames {
		if f.Func == "net/http.(*Server).Serve" {
			return true
		}
	}
	return false
}

// TestDelveLabelsAndStack: -l gives goroutine 36 the labels the program
// set; "goroutine 22 stack" is goroutine 22 with -t's frames.
func TestDelveLabelsAndStack(t *testing.T) {
	l := threadsByID(parseDebuggerFile(t, "delve-v1.27.2.goroutines-l.txt")[0])
	if diff := cmp.Diff(map[string]string{"job": "import", "tenant": "acme"}, l[36].Labels); diff != "" {
		t.Errorf("goroutine 36's labels (-want +got):\n%s", diff)
	}
	for id, g := range l {
		if id != 36 && g.Labels != nil {
			t.Errorf("goroutine %d has labels %v", id, g.Labels)
		}
	}
	st := parseDebuggerFile(t, "delve-v1.27.2.stack.txt")[0].Threads[0]
	tt := threadsByID(parseDebuggerFile(t, "delve-v1.27.2.goroutines-t.txt")[0])[22]
	if st.ID != 22 || st.State != "" || cmp.Diff(frameList(tt.Frames), frameList(st.Frames)) != "" {
		t.Errorf("stack: id %d state %q frames %v; want 22, no state, %v", st.ID, st.State, frameList(st.Frames), frameList(tt.Frames))
	}
}

// TestGoLandAgreesWithDelve: each goroutine of our GoLand fixture has the
// frames Delve gave for it (GoLand's source) and main.main as creator.
func TestGoLandAgreesWithDelve(t *testing.T) {
	g := parseDebuggerFile(t, "goland__blocked.txt")[0]
	d := threadsByID(parseDebuggerFile(t, "delve-v1.27.2.goroutines-t.txt")[0])
	var ids []int64
	for _, th := range g.Threads {
		ids = append(ids, th.ID)
		want := frameList(d[th.ID].Frames)
		got := frameList(th.Frames)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("goroutine %d: frames differ from Delve's (-delve +goland):\n%s", th.ID, diff)
		}
		if th.State != "" || th.WaitMinutes != 0 {
			t.Errorf("goroutine %d: state %q, %d minutes: GoLand prints none", th.ID, th.State, th.WaitMinutes)
		}
		if th.CreatedBy == nil || th.CreatedBy.Func != "main.main" {
			t.Errorf("goroutine %d: creator %+v, want main.main", th.ID, th.CreatedBy)
		}
	}
	if diff := cmp.Diff([]int64{21, 22, 23, 25, 29, 31, 32, 34, 35, 37}, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
}

// TestDebuggerLinesNamed: the lines each reader claims, and lines like
// them that it does not (a table of real shapes and near misses).
func TestDebuggerLinesNamed(t *testing.T) {
	tests := []struct {
		name, line    string
		delve, goland bool
	}{
		{"delve user", "  Goroutine 1 - User: /src/net/fd_unix.go:150 net.(*netFD).accept (0x501909) [IO wait 3402241820540]", true, false},
		{"delve selected, thread", "* Goroutine 7 - User: ./main.go:34 main.worker (0x673d56) (thread 8120)", true, false},
		{"delve runtime", "  Goroutine 2 - Runtime: /usr/local/go/src/runtime/proc.go:382 runtime.gopark (0x102255ab4) [debug call]", true, false},
		{"delve go", "  Goroutine 2 - Go: <autogenerated>:1 runtime.newproc (0x4935df)", true, false},
		{"delve prompt", "(dlv)   Goroutine 1 - Start: /src/runtime/proc.go:149 runtime.main (0x4533a0)", true, false},
		{"delve group", "\t  Goroutine 3 - User: /src/runtime/proc.go:463 runtime.gopark (0x489ace) [GC sweep wait]", true, false},
		{"delve stack", " 0  0x0000000000489ace in runtime.gopark", true, false},
		{"delve stack prompt", "(dlv) 0  0x0000000000492d43 in runtime.futex", true, false},
		{"delve stack not first", " 3  0x00000000004d1367 in internal/poll.(*pollDesc).wait", false, false},
		{"delve kind unknown", "  Goroutine 1 - Main: ./m.go:1 main.main (0x1)", false, false},
		{"delve no pc", "  Goroutine 1 - User: ./m.go:1 main.main", false, false},
		{"delve unindented is no goland", "Goroutine 1 - User: ./m.go:1 main.main (0x1)", true, false},
		{"goland", "Goroutine 87", false, true},
		{"goland named", "Goroutine 87 main.worker", false, true},
		{"prose", "Goroutines are cheap", false, false},
		{"go header", "goroutine 1 [running]:", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := startsDelve([]byte(tt.line), nil); got != tt.delve {
				t.Errorf("startsDelve = %v, want %v", got, tt.delve)
			}
			if got := startsGoLand([]byte(tt.line), nil); got != tt.goland {
				t.Errorf("startsGoLand = %v, want %v", got, tt.goland)
			}
		})
	}
}

// TestNotGoroutines: "Goroutine 5" in prose, no frame under it, and an
// OS thread's stack under Delve's "Thread N at" line are no dump.
func TestNotGoroutines(t *testing.T) {
	for _, text := range []string{
		"Goroutine 5\nwas the one that hung, see below.\n",
		"Thread 3354812 at 0x4797e3 /go/src/runtime/sys_linux_amd64.s:555 runtime.futex\n0  0x00000000004797e3 in runtime.futex\n   at /go/src/runtime/sys_linux_amd64.s:555\n1  0x000000000043c6b6 in runtime.futexsleep\n   at /go/src/runtime/os_linux.go:69\n",
	} {
		if d, err := Parse("note.txt", strings.NewReader(text)); err == nil {
			t.Errorf("read as %d dumps: %q", len(d), text)
		}
	}
}
