package parse

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// parseText1 parses text and fails the test unless it yields dumps.
func mustParse(t *testing.T, text string) []*Dump {
	t.Helper()
	dumps, err := Parse("test.txt", strings.NewReader(text))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return dumps
}

// header is the part of a Thread a goroutine header fills.
type header struct {
	ID          int64
	State       string
	WaitMinutes int
	Flags       []string
	Bubble      int64
	Labels      map[string]string
}

func TestParseGoHeader(t *testing.T) {
	tests := []struct {
		name string
		line string
		want header
	}{
		{"running", "goroutine 1 [running]:", header{ID: 1, State: "running"}},
		{"minutes", "goroutine 18 [sleep, 1 minutes]:", header{ID: 18, State: "sleep", WaitMinutes: 1}},
		{"many minutes", "goroutine 1 [semacquire, 23 minutes]:", header{ID: 1, State: "semacquire", WaitMinutes: 23}},
		{"locked to thread", "goroutine 7 [running, locked to thread]:",
			header{ID: 7, State: "running", Flags: []string{"locked to thread"}}},
		{"minutes and locked", "goroutine 17 [syscall, 5 minutes, locked to thread]:",
			header{ID: 17, State: "syscall", WaitMinutes: 5, Flags: []string{"locked to thread"}}},
		{"gp m=nil", "goroutine 1 gp=0x25e31a5321e0 m=nil [chan receive]:", header{ID: 1, State: "chan receive"}},
		{"gp m mp", "goroutine 0 gp=0xa56ea0 m=0 mp=0xa58080 [idle]:", header{ID: 0, State: "idle"}},
		{"dotted wait reason", "goroutine 20 [sync.Mutex.Lock]:", header{ID: 20, State: "sync.Mutex.Lock"}},
		{"wait reason with parens", "goroutine 14 [select (no cases)]:", header{ID: 14, State: "select (no cases)"}},
		{"nil chan", "goroutine 9 [chan receive (nil chan)]:", header{ID: 9, State: "chan receive (nil chan)"}},
		{"idle in parens", "goroutine 2 [force gc (idle)]:", header{ID: 2, State: "force gc (idle)"}},
		{"durable and bubble", "goroutine 20 [chan receive (durable), synctest bubble 1]:",
			header{ID: 20, State: "chan receive", Flags: []string{"durable"}, Bubble: 1}},
		{"bubble only", "goroutine 21 [running, synctest bubble 1]:", header{ID: 21, State: "running", Bubble: 1}},
		{"synctest.Run durable", "goroutine 19 [synctest.Run (durable), synctest bubble 1]:",
			header{ID: 19, State: "synctest.Run", Flags: []string{"durable"}, Bubble: 1}},
		{"leaked", "goroutine 4 [chan send (leaked)]:", header{ID: 4, State: "chan send", Flags: []string{"leaked"}}},
		{"leaked dotted", "goroutine 29 [sync.WaitGroup.Wait (leaked)]:",
			header{ID: 29, State: "sync.WaitGroup.Wait", Flags: []string{"leaked"}}},
		{"leaked and more", "goroutine 5 [chan receive (nil chan) (leaked), 3 minutes, locked to thread]:",
			header{ID: 5, State: "chan receive (nil chan)", WaitMinutes: 3, Flags: []string{"leaked", "locked to thread"}}},
		{"labels 1.26 in brackets",
			`goroutine 7 [select labels:{"pool": "ingest", "route": "/api/v1/items[0],[1]"}]:`,
			header{ID: 7, State: "select", Labels: map[string]string{"pool": "ingest", "route": "/api/v1/items[0],[1]"}}},
		{"labels 1.26 escapes",
			`goroutine 40 gp=0x2ff2de3a01e0 m=nil [select labels:{"note": "say \"hi\"}", "tenant": "acme, inc. [eu]"}]:`,
			header{ID: 40, State: "select", Labels: map[string]string{"note": `say "hi"}`, "tenant": "acme, inc. [eu]"}}},
		{"labels 1.26 with minutes",
			`goroutine 8 [chan receive, 2 minutes, locked to thread labels:{"k": "v"}]:`,
			header{ID: 8, State: "chan receive", WaitMinutes: 2, Flags: []string{"locked to thread"}, Labels: map[string]string{"k": "v"}}},
		{"labels 1.27 after brackets",
			`goroutine 31 [select] {pool: ingest, route: "/api/v1/items[0],[1]"}:`,
			header{ID: 31, State: "select", Labels: map[string]string{"pool": "ingest", "route": "/api/v1/items[0],[1]"}}},
		{"labels 1.27 bare dotted key",
			`goroutine 41 gp=0x24d8d0191a40 m=nil [chan receive] {http.route: /slow, request.id: "r-42,x]"}:`,
			header{ID: 41, State: "chan receive", Labels: map[string]string{"http.route": "/slow", "request.id": "r-42,x]"}}},
		{"labels 1.27 leaked",
			`goroutine 6 [chan send (leaked)] {job: "import[batch=7],retry"}:`,
			header{ID: 6, State: "chan send", Flags: []string{"leaked"}, Labels: map[string]string{"job": "import[batch=7],retry"}}},
		{"labels 1.27 quoted key and unicode escape",
			`goroutine 3 [select] {"a b": "caf\u00e9\t}", c: ""}:`,
			header{ID: 3, State: "select", Labels: map[string]string{"a b": "café\t}", "c": ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var th Thread
			if !parseGoHeader([]byte(tt.line), newInterner(), &th) {
				t.Fatalf("parseGoHeader(%q) = false", tt.line)
			}
			got := header{ID: th.ID, State: th.State, WaitMinutes: th.WaitMinutes, Flags: th.Flags(), Bubble: th.Extra().Bubble, Labels: th.Labels}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("parseGoHeader(%q) (-want +got):\n%s", tt.line, diff)
			}
		})
	}
}

func TestParseGoHeaderBad(t *testing.T) {
	for _, line := range []string{
		"goroutine 1 [running",
		"goroutine 1 [running]",
		"goroutine 1 []:",
		"goroutine 1 [select] {pool: ingest:",
		`goroutine 1 [select labels:{"pool": "ingest"]:`,
		"goroutine 1 [sleep, x minutes]:",
		"goroutine 1 [running, synctest bubble x]:",
	} {
		var th Thread
		if parseGoHeader([]byte(line), newInterner(), &th) {
			t.Errorf("parseGoHeader(%q) = true, want false", line)
		}
	}
}

func TestClassifyGoLine(t *testing.T) {
	tests := []struct {
		line string
		want goLineKind
	}{
		{"", glBlank},
		{"goroutine 1 [running]:", glHeader},
		{"goroutine 1 gp=0x1 m=nil [running]:", glHeader},
		{"goroutine profile: total 4", glUnknown},
		{"main.main()", glFunc},
		{"main.bar(...)", glFunc},
		{"panic({0x4b27a0?, 0x1d4b373a6028?})", glFunc},
		{"net/http.(*conn).serve(0xc000130000, {0x7a9e40, 0xc0000a2000})", glFunc},
		{"main.F[...](0x1)", glFunc},
		{"Error: see foo (bar)", glUnknown},
		{"\t/usr/lib/go/src/net/net.go:196 +0x44", glFile},
		{"\tgoroutine running on other thread; stack unavailable", glNoStack},
		{"created by main.main in goroutine 1", glCreatedBy},
		{"...81 frames elided...", glElided},
		{"...additional frames elided...", glElided},
		{"[originating from goroutine 1]:", glOrigin},
		{"panic: oh no", glStart},
		{"fatal error: all goroutines are asleep - deadlock!", glStart},
		{"SIGQUIT: quit", glStart},
		{`^\SIGQUIT: quit`, glStart},
		{"SIGSEGV: segmentation violation", glStart},
		{"runtime stack:", glStart},
		{"rax    0xca", glEpilogue},
		{"rflags 0x286", glEpilogue},
		{"r15    0xffffffffffffffff", glEpilogue},
		{"-----", glEpilogue},
		{"exit status 2", glUnknown},
		{"runtime: g 1: unexpected return pc for main.f called from 0x0", glEpilogue},
		{"stack: frame={sp:0xc000049f00, fp:0xc000049f28} stack=[0xc000048000,0xc00004a000)", glEpilogue},
		{"0x000000c000049f08:  0x0000000000000000  0x000000000045a3e1 <runtime.goexit+0x1>", glEpilogue},
		{"0x1234 is not a diagnostic", glUnknown},
		{"PC=0x48f561 m=0 sigcode=0", glUnknown},
	}
	for _, tt := range tests {
		if got := classifyGoLine([]byte(tt.line)); got != tt.want {
			t.Errorf("classifyGoLine(%q) = %d, want %d", tt.line, got, tt.want)
		}
	}
}

func fr(fn, file string, line int) *Frame { return &Frame{Func: fn, File: file, Line: line} }

func TestParseGoTextShapes(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []*Dump
	}{
		{
			name: "created by, 1.21 form with parent",
			text: "goroutine 24 [select]:\n" +
				"net/http.(*persistConn).readLoop(0xc0000be480)\n" +
				"\t/usr/lib/go/src/net/http/transport.go:2238 +0xd25\n" +
				"created by net/http.(*Transport).dialConn in goroutine 21\n" +
				"\t/usr/lib/go/src/net/http/transport.go:1776 +0x169f\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 1}, Format: FormatGoText,
				Threads: []*Thread{{
					ID: 24, State: "select", Weight: 1, Line: 1,
					Frames:    []*Frame{fr("net/http.(*persistConn).readLoop", "/usr/lib/go/src/net/http/transport.go", 2238)},
					CreatedBy: &Creator{Func: "net/http.(*Transport).dialConn", File: "/usr/lib/go/src/net/http/transport.go", Line: 1776, Parent: 21},
					// readLoop's receiver, printed as its first argument.
					GoExtra: &GoExtra{Receivers: []Receiver{{Frame: 0, Addr: 0xc0000be480}}},
				}},
			}},
		},
		{
			name: "created by, old form; inlined (...) frame; 1.17 args",
			text: "goroutine 7 [sleep, locked to thread]:\n" +
				"time.Sleep(0x3b9aca00)\n" +
				"\t/usr/local/go/src/runtime/time.go:188 +0xbf\n" +
				"main.goSleep(...)\n" +
				"\t/src/cgo.go:53\n" +
				"runtime.chanrecv1(0x7ab400?, {0x1, 0x2, ...})\n" +
				"\truntime/chan.go:509 +0x12\n" +
				"created by main.main\n" +
				"\t/src/cgo.go:37 +0x66\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 1}, Format: FormatGoText,
				Threads: []*Thread{{
					ID: 7, State: "sleep", GoExtra: &GoExtra{Flags: []string{"locked to thread"}}, Weight: 1, Line: 1,
					Frames: []*Frame{
						fr("time.Sleep", "/usr/local/go/src/runtime/time.go", 188),
						fr("main.goSleep", "/src/cgo.go", 53),
						fr("runtime.chanrecv1", "runtime/chan.go", 509),
					},
					CreatedBy: &Creator{Func: "main.main", File: "/src/cgo.go", Line: 37},
				}},
			}},
		},
		{
			name: "fp sp pc suffix, gp header, elided count, cgo frame",
			text: "goroutine 28 gp=0x25e31a6cb4a0 m=nil [chan receive]:\n" +
				"main._Cfunc_c_sleep_loop(0xf4240)\n" +
				"\t_cgo_gotypes.go:56 +0x45 fp=0x25e31a6b2630 sp=0x25e31a6b2610 pc=0x48618e\n" +
				"...86 frames elided...\n" +
				"main.recurse(0x0)\n" +
				"\tcorpusgen/states/main.go:131 +0x1d fp=0x1 sp=0x2 pc=0x3\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 1}, Format: FormatGoText,
				Threads: []*Thread{{
					ID: 28, State: "chan receive", Weight: 1, Line: 1,
					Frames: []*Frame{
						fr("main._Cfunc_c_sleep_loop", "_cgo_gotypes.go", 56),
						fr("main.recurse", "corpusgen/states/main.go", 131),
					},
					GoExtra: &GoExtra{FramesElided: true, ElidedCount: 86},
				}},
			}},
		},
		{
			name: "additional frames elided, Windows path, path with a space",
			text: "goroutine 1 [running]:\n" +
				"runtime/pprof.writeGoroutineStacks(0x14e5940, 0xc0000abc50)\n" +
				"\tC:/Users/felixge/pprof.go:693 +0x9f\n" +
				"main.main()\n" +
				"\t/Users/John Smith/src/main.go:12 +0x1\n" +
				"...additional frames elided...\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 1}, Format: FormatGoText,
				Threads: []*Thread{{
					ID: 1, State: "running", Weight: 1, Line: 1,
					Frames: []*Frame{
						fr("runtime/pprof.writeGoroutineStacks", "C:/Users/felixge/pprof.go", 693),
						fr("main.main", "/Users/John Smith/src/main.go", 12),
					},
					GoExtra: &GoExtra{FramesElided: true},
				}},
			}},
		},
		{
			name: "tracebackancestors",
			text: "goroutine 20 [IO wait]:\n" +
				"net/http.Serve({0x738a20, 0xc0000ba0c0}, {0x0?, 0x0})\n" +
				"\t/usr/lib/go/src/net/http/server.go:2595 +0x6c\n" +
				"created by main.start in goroutine 1\n" +
				"\t/src/http.go:27 +0x87\n" +
				"[originating from goroutine 21]:\n" +
				"net/http.(*Transport).dialConn(...)\n" +
				"\t/usr/lib/go/src/net/http/transport.go:1777 +0x169f\n" +
				"created by net/http.(*Transport).queueForDial\n" +
				"\t/usr/lib/go/src/net/http/transport.go:1436 +0x3cb\n" +
				"[originating from goroutine 1]:\n" +
				"main.main(...)\n" +
				"\t/src/http.go:14 +0x13\n" +
				"...additional frames elided...\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 1}, Format: FormatGoText,
				Threads: []*Thread{{
					ID: 20, State: "IO wait", Weight: 1, Line: 1,
					Frames:    []*Frame{fr("net/http.Serve", "/usr/lib/go/src/net/http/server.go", 2595)},
					CreatedBy: &Creator{Func: "main.start", File: "/src/http.go", Line: 27, Parent: 1},
					GoExtra: &GoExtra{Ancestors: []Ancestor{
						{ID: 21, Frames: []*Frame{fr("net/http.(*Transport).dialConn", "/usr/lib/go/src/net/http/transport.go", 1777)}},
						{ID: 1, Frames: []*Frame{fr("main.main", "/src/http.go", 14)}},
					}},
				}},
			}},
		},
		{
			name: "stack unavailable",
			text: "goroutine 5 [running]:\n" +
				"\tgoroutine running on other thread; stack unavailable\n" +
				"created by main.main in goroutine 1\n" +
				"\t/src/main.go:9 +0x25\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 1}, Format: FormatGoText,
				Threads: []*Thread{{
					ID: 5, State: "running", Weight: 1, Line: 1, NoStack: true,
					CreatedBy: &Creator{Func: "main.main", File: "/src/main.go", Line: 9, Parent: 1},
				}},
			}},
		},
		{
			name: "panic with signal line, log lines around",
			text: "2024/01/01 starting\n" +
				"panic: runtime error: invalid memory address or nil pointer dereference\n" +
				"[signal SIGSEGV: segmentation violation code=0x1 addr=0x40 pc=0x811ac1]\n" +
				"\n" +
				"goroutine 1 [running]:\n" +
				"main.main()\n" +
				"\t/src/main.go:8 +0x25\n" +
				"exit status 2\n" +
				"FAIL\tpkg\t0.01s\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 2}, Format: FormatGoText,
				Kind: "panic", Headline: "panic: runtime error: invalid memory address or nil pointer dereference",
				Threads: []*Thread{{ID: 1, State: "running", Weight: 1, Line: 5, Frames: []*Frame{fr("main.main", "/src/main.go", 8)}}},
			}},
		},
		{
			name: "fatal error with runtime stack",
			text: "fatal error: stack overflow\n" +
				"\n" +
				"runtime stack:\n" +
				"runtime.throw({0x4c7520?, 0x200000008?})\n" +
				"\truntime/panic.go:1101 +0x48 fp=0x7ffc6b27f160 sp=0x7ffc6b27f130 pc=0x468ae8\n" +
				"\n" +
				"goroutine 6 gp=0xc0000036c0 m=0 mp=0x579480 [running]:\n" +
				"main.overflow()\n" +
				"\t./stackoverflow.go:54 +0x16 fp=0xc00010e3a0 sp=0xc00010e398 pc=0x4a0056\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 1}, Format: FormatGoText,
				Kind: "panic", Headline: "fatal error: stack overflow",
				Threads: []*Thread{{ID: 6, State: "running", Weight: 1, Line: 7, Frames: []*Frame{fr("main.overflow", "./stackoverflow.go", 54)}}},
			}},
		},
		{
			name: "SIGQUIT with registers",
			text: "SIGQUIT: quit\n" +
				"PC=0x48f561 m=0 sigcode=0\n" +
				"\n" +
				"goroutine 0 gp=0xa56ea0 m=0 mp=0xa58080 [idle]:\n" +
				"runtime.futex(0xa581d8, 0x80, 0x0, 0x0, 0x0, 0x0)\n" +
				"\truntime/sys_linux_amd64.s:569 +0x21 fp=0x7ffd774109a0 sp=0x7ffd77410998 pc=0x48f561\n" +
				"\n" +
				"rax    0xca\n" +
				"rflags 0x286\n" +
				"gs     0x0\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 1}, Format: FormatGoText, Kind: "sigquit",
				Threads: []*Thread{{State: "idle", Weight: 1, Line: 4, Frames: []*Frame{fr("runtime.futex", "runtime/sys_linux_amd64.s", 569)}}},
			}},
		},
		{
			name: "a line inside a dump is recorded as skipped",
			text: "goroutine 1 [running]:\n" +
				"main.main()\n" +
				"\t/src/main.go:8 +0x25\n" +
				"2024/01/01 12:00:00 interleaved log line\n" +
				"\n" +
				"goroutine 2 [select]:\n" +
				"main.loop()\n" +
				"\t/src/main.go:20 +0x25\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 1}, Format: FormatGoText,
				Threads: []*Thread{
					{ID: 1, State: "running", Weight: 1, Line: 1, Frames: []*Frame{fr("main.main", "/src/main.go", 8)}},
					{ID: 2, State: "select", Weight: 1, Line: 6, Frames: []*Frame{fr("main.loop", "/src/main.go", 20)}},
				},
				Skipped: []Skipped{{Line: 4, Text: "2024/01/01 12:00:00 interleaved log line", Reason: "line not understood in a Go dump"}},
			}},
		},
		{
			name: "runtime diagnostics inside a traceback are dropped",
			text: "goroutine 1 [running]:\n" +
				"runtime: g 1: unexpected return pc for main.f called from 0x0\n" +
				"stack: frame={sp:0xc000049f00, fp:0xc000049f28} stack=[0xc000048000,0xc00004a000)\n" +
				"0x000000c000049f00:  0x0000000000000000  0x000000000045a3e1 <runtime.goexit+0x1>\n" +
				"0x000000c000049f10:  0x0000000000000000  0x0000000000000000\n" +
				"main.f()\n" +
				"\t/src/main.go:8 +0x25\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 1}, Format: FormatGoText,
				Threads: []*Thread{{ID: 1, State: "running", Weight: 1, Line: 1, Frames: []*Frame{fr("main.f", "/src/main.go", 8)}}},
			}},
		},
		{
			name: "a function line without its file line",
			text: "goroutine 1 [running]:\n" +
				"main.main()\n" +
				"main.other()\n" +
				"\t/src/main.go:9 +0x25\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 1}, Format: FormatGoText,
				// Kept without its file (issue 33: it is often the culprit), and said.
				Threads: []*Thread{{ID: 1, State: "running", Weight: 1, Line: 1, Frames: []*Frame{fr("main.main", "", 0), fr("main.other", "/src/main.go", 9)}}},
				Partial: []Skipped{{Line: 2, Text: "main.main", Reason: "function line without its file line: read as a frame without its file"}},
				Excerpt: "lines of the dump are cut: what was after the cut is not in it",
			}},
		},
		{
			name: "two captures appended to one file are two dumps",
			text: "goroutine 1 [running]:\n" +
				"main.main()\n" +
				"\t/src/main.go:8 +0x25\n" +
				"\n" +
				"goroutine 1 [sleep]:\n" +
				"main.main()\n" +
				"\t/src/main.go:9 +0x25\n",
			want: []*Dump{
				{
					Source: Source{File: "test.txt", Line: 1}, Format: FormatGoText,
					Threads: []*Thread{{ID: 1, State: "running", Weight: 1, Line: 1, Frames: []*Frame{fr("main.main", "/src/main.go", 8)}}},
				},
				{
					Source: Source{File: "test.txt", Line: 5, Index: 1}, Format: FormatGoText,
					Threads: []*Thread{{ID: 1, State: "sleep", Weight: 1, Line: 5, Frames: []*Frame{fr("main.main", "/src/main.go", 9)}}},
				},
			},
		},
		{
			name: "CRLF line endings",
			text: "goroutine 3 [chan receive, 4 minutes]:\r\nmain.worker()\r\n\tC:/src/main.go:30 +0x25\r\n",
			want: []*Dump{{
				Source: Source{File: "test.txt", Line: 1}, Format: FormatGoText,
				Threads: []*Thread{{ID: 3, State: "chan receive", WaitMinutes: 4, Weight: 1, Line: 1, Frames: []*Frame{fr("main.worker", "C:/src/main.go", 30)}}},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustParse(t, tt.text)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseGoTextNotADump checks inputs that mention goroutines or panics
// without being a dump.
func TestParseGoTextNotADump(t *testing.T) {
	for _, text := range []string{
		"panic: something\nand then nothing\n",
		"log: goroutine 5 is slow\n",
		"main.main()\n\t/src/main.go:8 +0x25\n",
	} {
		dumps, err := Parse("test.txt", strings.NewReader(text))
		if err == nil {
			t.Errorf("Parse(%q) = %d dumps, want a NoDumpError", text, len(dumps))
		}
	}
}

// TestGoFramesShared checks that equal frames are one pointer (interning).
func TestGoFramesShared(t *testing.T) {
	text := "goroutine 1 [select]:\nmain.loop()\n\t/src/main.go:20 +0x25\n\n" +
		"goroutine 2 [select]:\nmain.loop()\n\t/src/main.go:20 +0x25\n"
	d := mustParse(t, text)[0]
	if d.Threads[0].Frames[0] != d.Threads[1].Frames[0] {
		t.Errorf("equal frames are distinct pointers")
	}
	if d.Threads[0].State != d.Threads[1].State {
		t.Errorf("states differ")
	}
}

// TestGoThreadsSizedOnce: a dump's goroutines, across many thread slabs
// and with headers skipped between them (whose slab place the next
// goroutine takes), are every goroutine read, in dump order, in a slice
// made at its size: appended one by one, a 1M-goroutine dump's slice
// allocated 43 MB for the 8 MB it keeps (issue 31).
func TestGoThreadsSizedOnce(t *testing.T) {
	var b strings.Builder
	var want []int64
	for id := int64(1); id <= 3000; id++ {
		if id%97 == 0 {
			fmt.Fprintf(&b, "goroutine %d [chan rec\nmain.loop()\n\t/src/main.go:20 +0x25\n\n", id)
			continue
		}
		fmt.Fprintf(&b, "goroutine %d [select]:\nmain.loop()\n\t/src/main.go:%d +0x25\n\n", id, 20+id%3)
		want = append(want, id)
	}
	d := mustParse(t, b.String())[0]
	var got []int64
	for _, th := range d.Threads {
		got = append(got, th.ID)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("goroutine ids (-want +got):\n%s", diff)
	}
	if len(d.Skipped) != 3000/97 {
		t.Errorf("%d skipped, want %d", len(d.Skipped), 3000/97)
	}
	if cap(d.Threads) != len(d.Threads) {
		t.Errorf("Threads has cap %d for %d goroutines: want it made at its size", cap(d.Threads), len(d.Threads))
	}
}

func TestIDSet(t *testing.T) {
	var s idSet
	ids := []int64{0, 1, 63, 64, 9707990, idSetBitsMax, -1, 1 << 40}
	for _, id := range ids {
		if s.has(id) {
			t.Fatalf("has(%d) before add", id)
		}
		s.add(id)
		if !s.has(id) {
			t.Fatalf("!has(%d) after add", id)
		}
	}
	s.clear()
	for _, id := range ids {
		if s.has(id) {
			t.Errorf("has(%d) after clear", id)
		}
	}
}

// TestSIGQUITAfterOutput: a program's stdout without a final newline runs
// into the runtime's "SIGQUIT: quit"; the dump is still a SIGQUIT dump,
// and a log collector's prefix before the same line is still a prefix.
func TestSIGQUITAfterOutput(t *testing.T) {
	body := "\ngoroutine 1 [chan receive]:\nmain.main()\n\t/src/main.go:12 +0x1d\n"
	dumps := mustParse(t, "tick 3SIGQUIT: quit"+body)
	if len(dumps) != 1 || dumps[0].Kind != "sigquit" || len(dumps[0].Threads) != 1 {
		t.Fatalf("got %d dumps, kind %q; want one sigquit dump", len(dumps), dumps[0].Kind)
	}
	var kube strings.Builder
	for _, l := range strings.Split("SIGQUIT: quit"+body, "\n") {
		kube.WriteString("2026-12-01T10:00:05.000000000Z " + l + "\n")
	}
	dumps = mustParse(t, kube.String())
	if len(dumps) != 1 || dumps[0].Kind != "sigquit" || dumps[0].Prefix != "kubectl --timestamps" || len(dumps[0].Threads) != 1 {
		t.Fatalf("kubectl: got %d dumps, kind %q, prefix %q", len(dumps), dumps[0].Kind, dumps[0].Prefix)
	}
}

// goCorpusTexts reads the corpus's Go text dumps, by file name; none when
// ../shared is absent.
func goCorpusTexts(t *testing.T) map[string][]byte {
	inputs := map[string][]byte{}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "go", "*.txt"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(f)] = data
	}
	return inputs
}

// goHeaderLine is the header form by a pattern: "goroutine N [" or
// "goroutine N g".
var goHeaderLine = regexp.MustCompile(`^goroutine [0-9]+ [\[g]`)

// TestGoHeaderStart: the fast path's one-pass header read gives goHeaderID's
// id on every header of the corpus and on overflowing ids, and tells
// lookalikes apart.
func TestGoHeaderStart(t *testing.T) {
	lines := []string{"goroutine 1 [running]:", "goroutine 7 gp=0x1 m=nil [select]:", "goroutine 99999999999999999999 [select]:"}
	texts := goCorpusTexts(t)
	own, _ := filepath.Glob("../testdata/go/*.txt")
	for _, f := range own {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[f] = data
	}
	for _, text := range texts {
		for _, l := range strings.Split(string(text), "\n") {
			if goHeaderLine.MatchString(l) {
				lines = append(lines, strings.TrimSuffix(l, "\r"))
			}
		}
	}
	if len(lines) < 100 {
		t.Fatalf("%d headers read from the dumps", len(lines))
	}
	for _, l := range lines {
		id, ok, header := goHeaderStart([]byte(l))
		if !header {
			t.Errorf("%q: not read as a header", l)
			continue
		}
		if wid, wok := goHeaderID([]byte(l)); id != wid || ok != wok {
			t.Errorf("%q: id %d ok %v, want goHeaderID's %d %v", l, id, ok, wid, wok)
		}
	}
	for _, l := range []string{"goroutine ", "goroutine x [a]:", "goroutine 1[a]:", "goroutine 12 ", "goroutine 1 running", "goroutines 1 [a]:"} {
		if _, _, header := goHeaderStart([]byte(l)); header {
			t.Errorf("%q: read as a header", l)
		}
	}
}
