package parse

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const gotraceDir = "../testdata/gotrace"

// gotraceCounts reads COUNTS.tsv: goroutines of each debug=2 file of a run,
// counted with grep by testdata/gen/gotrace/gen.sh.
func gotraceCounts(t *testing.T) map[string]int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(gotraceDir, "COUNTS.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 3 || f[0] == "dir" {
			continue
		}
		n, _ := strconv.Atoi(f[2])
		out[f[0]+"/"+f[1]] = n
	}
	return out
}

// TestGoTraceMoments reads each flight recorder snapshot (Go 1.25, 1.26,
// 1.27) as about one moment a second, timed by the trace's clock
// snapshots (Go 1.22 and 1.23's whole-run traces: the same moments, in
// order, without a wall clock), and its last moment holds as many goroutines as the debug=2
// dump written just before the snapshot (grep's count), where nothing
// starts or ends between the two.
func TestGoTraceMoments(t *testing.T) {
	counts := gotraceCounts(t)
	dirs, _ := filepath.Glob(filepath.Join(gotraceDir, "*-go1.*"))
	if len(dirs) < 16 {
		t.Fatalf("found %d runs in %s, want 16", len(dirs), gotraceDir)
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			dumps, err := Options{}.ParseFile(filepath.Join(dir, "flight.trace"))
			if err != nil {
				t.Fatal(err)
			}
			head, err := os.ReadFile(filepath.Join(dir, "flight.trace"))
			if err != nil {
				t.Fatal(err)
			}
			clocked := goTraceVersion(head[:16]) >= 25
			if len(dumps) < 4 || len(dumps) > 7 {
				t.Fatalf("%d moments from a snapshot of 5 s, want one a generation (4-7)", len(dumps))
			}
			for i, d := range dumps {
				if d.Format != FormatGoTrace || d.Format.Runtime() != RuntimeGo {
					t.Fatalf("moment %d: format %q", i, d.Format)
				}
				if d.Source.Index != i {
					t.Fatalf("moment %d is dump %d of the file", i, d.Source.Index)
				}
				if !clocked {
					// Go 1.22–1.24 write no clock snapshot: the moments are
					// in the trace's order, with no wall time.
					if !d.Time.IsZero() {
						t.Fatalf("moment %d at %v in a trace without a clock", i, d.Time)
					}
					continue
				}
				if d.Time.IsZero() {
					t.Fatalf("moment %d has no time (Go 1.25+ traces carry clock snapshots)", i)
				}
				if i > 0 && !d.Time.After(dumps[i-1].Time) {
					t.Fatalf("moment %d at %v, not after %v", i, d.Time, dumps[i-1].Time)
				}
				if i > 0 {
					gap := d.Time.Sub(dumps[i-1].Time).Seconds()
					if gap > 1.5 && i < len(dumps)-1 {
						t.Errorf("moments %d and %d %.2f s apart, want about a generation (1 s)", i-1, i, gap)
					}
				}
			}
			last := dumps[len(dumps)-1]
			want := counts[name+"/debug2/moment-5.txt"]
			if want == 0 {
				t.Fatalf("COUNTS.tsv has no count for %s", name)
			}
			extra := 0 // goroutines the last moment may hold beyond the dump's
			if !clocked {
				// A whole run's trace (Go 1.22–1.24: trace.Start to Stop) ends
				// at Stop, after the last dump: goroutines the stop leaves
				// waiting, with no stack, may be in its last moment.
				for _, th := range last.Threads {
					if th.NoStack {
						extra++
					}
				}
				extra = min(extra, max(0, len(last.Threads)-want))
			}
			if !strings.HasPrefix(name, "leak-") && len(last.Threads)-extra != want {
				t.Errorf("last moment: %d goroutines, the debug=2 dump before it %d", len(last.Threads), want)
			}
			// Every waiting goroutine says how long it has waited; the
			// ones started inside the trace exactly, the others at least.
			for _, th := range last.Threads {
				if th.GoExtra != nil && th.Waited < 0 {
					t.Fatalf("goroutine %d waited %v", th.ID, th.Waited)
				}
			}
		})
	}
}

// TestGoTraceWaits checks what the trace measures in the mutex run: the 30
// waiters of the cache's mutex wait at the same call site, created by
// main.main, for as long as the snapshot ran (they began inside it: exact),
// and the site names the lock as debug=2's argument would.
func TestGoTraceWaits(t *testing.T) {
	dumps, err := Options{}.ParseFile(filepath.Join(gotraceDir, "mutex-go1.26", "flight.trace"))
	if err != nil {
		t.Fatal(err)
	}
	first, last := dumps[0], dumps[len(dumps)-1]
	waiters := 0
	for _, th := range last.Threads {
		if th.State != "sync.Mutex.Lock" {
			continue
		}
		waiters++
		if th.WaitAddr != "@main.(*cache).get:185" {
			t.Errorf("goroutine %d waits for %q, want the site @main.(*cache).get:185", th.ID, th.WaitAddr)
		}
		if th.CreatedBy == nil || th.CreatedBy.Func != "main.main" || th.CreatedBy.Parent != 1 {
			t.Errorf("goroutine %d created by %+v, want main.main in goroutine 1", th.ID, th.CreatedBy)
		}
		if th.GoExtra == nil || th.WaitedAtLeast || th.Waited < last.Time.Sub(first.Time) {
			t.Errorf("goroutine %d: waited %+v, want an exact wait longer than the moments span (%v)", th.ID, th.GoExtra, last.Time.Sub(first.Time))
		}
		if th.Frames[0].Func == "runtime.gopark" {
			t.Errorf("goroutine %d: runtime.gopark shown (debug=2 hides it)", th.ID)
		}
	}
	if waiters != 30 {
		t.Fatalf("%d goroutines wait for the cache's mutex, want 30", waiters)
	}
	// main runs at the end, back from the system calls of os.Create (the
	// trace writes no stack of a running goroutine): its stack is the last
	// call's, where this run was last seen.
	for _, th := range last.Threads {
		if th.ID == 1 && (th.State != "running" || th.NoStack || !strings.HasPrefix(th.Frames[0].Func, "syscall.")) {
			t.Errorf("main at the end: %q, %d frames, want running in its last system call's stack", th.State, len(th.Frames))
		}
	}
}

// TestGoTraceRefusals: a trace older than Go 1.22 is refused with what to
// do; a trace cut anywhere gives the moments before the cut, with a note
// saying where it stopped, or a clear error, never a panic.
func TestGoTraceRefusals(t *testing.T) {
	_, err := Options{}.Parse("old.trace", strings.NewReader("go 1.21 trace\x00\x00\x00\x01\x02"))
	var nd *NoDumpError
	if !errors.As(err, &nd) || !strings.Contains(nd.Looks, "Go 1.22") {
		t.Fatalf("old trace: %v, want a refusal that asks for Go 1.22+", err)
	}
	b, err := os.ReadFile(filepath.Join(gotraceDir, "pool-go1.26", "flight.trace"))
	if err != nil {
		t.Fatal(err)
	}
	read, refused := 0, 0
	for cut := 16; cut < len(b); cut += len(b) / 40 {
		dumps, err := Options{}.Parse("cut.trace", bytes.NewReader(b[:cut]))
		if err != nil {
			if !strings.Contains(err.Error(), "cut.trace") {
				t.Fatalf("cut at %d: error %q does not name the file", cut, err)
			}
			refused++
			continue
		}
		read++
		note := dumps[len(dumps)-1].Skipped
		if len(note) == 0 || !strings.Contains(note[0].Reason, "unreadable after") {
			t.Fatalf("cut at %d: %d moments and no note of where the reading stopped", cut, len(dumps))
		}
	}
	if read == 0 {
		t.Fatalf("no cut trace read at all (%d refused): the moments before a cut are lost", refused)
	}
}

// FuzzGoTrace: whatever bytes follow a trace header, the reader returns
// moments or an error.
func FuzzGoTrace(f *testing.F) {
	b, err := os.ReadFile(filepath.Join(gotraceDir, "mutex-go1.27", "flight.trace"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b[:4096])
	f.Add(b[:len(b)/3])
	f.Add([]byte("go 1.26 trace\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, _ := Options{MaxInflated: 1 << 20}.Parse("fuzz.trace", bytes.NewReader(data))
		checkDumps(t, dumps)
	})
}

// BenchmarkParseGoTrace reads the flight recorder snapshot of the healthy
// busy service (Go 1.26: 16 workers, a job every 200 µs; about 420 KB and 6
// moments). bench/flight-cost.sh reads a 10 s snapshot of a 10,000-goroutine
// service under load.
func BenchmarkParseGoTrace(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(gotraceDir, "healthy-go1.26", "flight.trace"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Options{}).Parse("flight.trace", bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
