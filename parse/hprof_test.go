package parse

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/internal/hprofgen"
)

// hprofSpec is a random dump: threads of random names (Latin-1 and not),
// states, daemon flags and stacks, in one JDK's layout, with the names
// before or after the thread objects.
func hprofSpec(rng *rand.Rand, layout hprofgen.Layout, id int, namesFirst bool) hprofgen.Spec {
	statuses := []int32{0x5, 0x401, 0x291, 0x2a1, 0x191, 0x1a1, 0xe1}
	spec := hprofgen.Spec{Layout: layout, IDSize: id, Millis: 1765000000000 + rng.Int64N(1e9), NamesFirst: namesFirst,
		FillerBytes: rng.Int64N(64 << 10), Seed: rng.Uint64()}
	for i := range 1 + rng.IntN(12) {
		name := fmt.Sprintf("pool-%d-thread-%d", rng.IntN(3), i)
		wide := layout != hprofgen.JDK8 && rng.IntN(3) == 0
		switch {
		case wide:
			name += " 线程 ✓"
		case layout != hprofgen.JDK8 && rng.IntN(3) == 0:
			name += " café" // Latin-1, not ASCII
		}
		t := hprofgen.Thread{Name: name, TID: int64(i + 1 + rng.IntN(1000)*16), Daemon: rng.IntN(2) == 0,
			Priority: int32(1 + rng.IntN(10)), Status: statuses[rng.IntN(len(statuses))], UTF16: wide, Blocker: rng.IntN(4) == 0}
		for j := range rng.IntN(6) {
			f := hprofgen.Frame{Class: fmt.Sprintf("com/example/C%d", rng.IntN(4)), Method: fmt.Sprintf("m%d", j), File: "C.java", Line: int32(1 + rng.IntN(500))}
			switch rng.IntN(5) {
			case 0:
				f.Line = -3
				f.File = ""
			case 1:
				f.File = ""
				f.Line = 0
			}
			t.Frames = append(t.Frames, f)
		}
		spec.Threads = append(spec.Threads, t)
	}
	return spec
}

func writeHPROF(t testing.TB, spec hprofgen.Spec) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := hprofgen.Write(&b, spec); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkHPROF compares what was read of a dump with its spec; names says
// whether the names must have been read.
func checkHPROF(t *testing.T, spec hprofgen.Spec, d *Dump, names bool) {
	t.Helper()
	if d.Format != FormatHPROF || !d.Time.Equal(time.UnixMilli(spec.Millis)) {
		t.Errorf("format %s time %v; want %s %v", d.Format, d.Time, FormatHPROF, time.UnixMilli(spec.Millis))
	}
	if len(d.Threads) != len(spec.Threads) {
		t.Fatalf("%d threads, want %d", len(d.Threads), len(spec.Threads))
	}
	for i, want := range spec.Threads {
		got := d.Threads[i]
		st, detail := jvmtiState(want.Status)
		if got.ID != want.TID || got.Daemon != want.Daemon || got.Priority != int(want.Priority) || got.State != st || got.StateDetail != detail {
			t.Errorf("thread %d: id %d daemon %v prio %d state %s (%s); want %d %v %d %s (%s)", i, got.ID, got.Daemon, got.Priority, got.State, got.StateDetail,
				want.TID, want.Daemon, want.Priority, st, detail)
		}
		if names && got.Name() != want.Name {
			t.Errorf("thread %d: name %q, want %q", i, got.Name(), want.Name)
		}
		if !names && got.Name() != "" && got.Name() != want.Name {
			t.Errorf("thread %d: name %q, want %q or none", i, got.Name(), want.Name)
		}
		if len(got.Frames) != len(want.Frames) {
			t.Fatalf("thread %d: %d frames, want %d", i, len(got.Frames), len(want.Frames))
		}
		for j, wf := range want.Frames {
			gf := got.Frames[j]
			fn := strings.ReplaceAll(wf.Class, "/", ".") + "." + wf.Method
			ok := gf.Func == fn
			switch {
			case wf.Line == -3:
				ok = ok && gf.Note == "Native Method" && gf.File == ""
			case wf.File == "":
				ok = ok && gf.Note == "Unknown Source"
			default:
				ok = ok && gf.File == wf.File && gf.Line == int(wf.Line) && gf.Note == ""
			}
			if !ok {
				t.Errorf("thread %d frame %d: %+v, want %+v", i, j, *gf, wf)
			}
		}
		parks := want.Blocker && i+1 < len(spec.Threads) && detail == "parking"
		owns := i > 0 && spec.Threads[i-1].Blocker
		var gotParks, gotOwns bool
		for _, l := range got.Locks() {
			gotParks = gotParks || l.Kind == LockParking && l.Class == "java.util.concurrent.locks.ReentrantLock$NonfairSync"
			gotOwns = gotOwns || l.Kind == LockOwnable && l.Class == "java.util.concurrent.locks.ReentrantLock$NonfairSync"
		}
		if gotParks != parks || gotOwns != owns {
			t.Errorf("thread %d: parks %v owns %v, want %v %v (%+v)", i, gotParks, gotOwns, parks, owns, got.Locks())
		}
	}
}

// TestHPROFProperty reads generated dumps of every layout (JDK 8's char[]
// names, 17's Strings, 25's Thread.holder), both id sizes and both orders
// of names and threads, from a file (names found in a second pass when
// they come first), a gzipped file, and a stream (one pass: names that
// come first are said not read, never guessed).
func TestHPROFProperty(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(37, 1))
	for i := range 60 {
		layout := []hprofgen.Layout{hprofgen.JDK8, hprofgen.JDK17, hprofgen.JDK25}[i%3]
		id := []int{4, 8}[i/3%2]
		first := i/6%2 == 1
		spec := hprofSpec(rng, layout, id, first)
		data := writeHPROF(t, spec)
		name := fmt.Sprintf("jdk%d-id%d-first%v-%d", layout, id, first, i)
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".hprof")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			var gz bytes.Buffer
			zw := gzip.NewWriter(&gz)
			zw.Write(data)
			zw.Close()
			gzPath := path + ".gz"
			if err := os.WriteFile(gzPath, gz.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{path, gzPath} {
				dumps, err := ParseFile(p)
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				if len(dumps[0].Skipped) > 0 {
					t.Errorf("%s: skipped %+v", p, dumps[0].Skipped)
				}
				checkHPROF(t, spec, dumps[0], true)
			}
			dumps, err := Parse("-", bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			checkHPROF(t, spec, dumps[0], !first)
			said := false
			for _, s := range dumps[0].Skipped {
				said = said || strings.Contains(s.Reason, "cannot be read again")
			}
			if first != said {
				t.Errorf("stream with names first=%v: skipped %+v", first, dumps[0].Skipped)
			}
		})
	}
}

// TestHPROFCut reads a dump cut at every offset of a stride: never a panic,
// never more threads than the whole, and a cut said with its offset, or
// the file refused as no dump when the cut leaves no thread.
func TestHPROFCut(t *testing.T) {
	spec := hprofSpec(rand.New(rand.NewPCG(7, 7)), hprofgen.JDK17, 8, false)
	spec.FillerBytes = 0
	data := writeHPROF(t, spec)
	whole, err := Parse("whole", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for cut := 0; cut < len(data); cut += 1 + cut/50 {
		dumps, err := Parse("cut", bytes.NewReader(data[:cut]))
		if err != nil {
			var nd *NoDumpError
			if !errors.As(err, &nd) {
				t.Fatalf("cut at %d: %v", cut, err)
			}
			continue
		}
		d := dumps[0]
		if len(d.Threads) > len(whole[0].Threads) {
			t.Fatalf("cut at %d: %d threads, more than the whole's %d", cut, len(d.Threads), len(whole[0].Threads))
		}
		said := false
		for _, s := range d.Skipped {
			said = said || strings.Contains(s.Reason, "stops at byte")
		}
		if !said {
			t.Fatalf("cut at %d of %d: read %d threads without saying where it stopped: %+v", cut, len(data), len(d.Threads), d.Skipped)
		}
	}
}

// TestHPROFHostile: a file that lies about its lengths or asks to keep more
// than the budget ends with what it says, in bounded memory.
func TestHPROFHostile(t *testing.T) {
	header := func(id uint32) []byte {
		b := append([]byte("JAVA PROFILE 1.0.2"), 0)
		b = append(b, byte(id>>24), byte(id>>16), byte(id>>8), byte(id))
		return append(b, 0, 0, 1, 0x9a, 0, 0, 0, 0)
	}
	rec := func(tag byte, n uint32, body []byte) []byte {
		b := []byte{tag, 0, 0, 0, 0, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}
		return append(b, body...)
	}
	many := header(8)
	for i := range 5000 {
		body := make([]byte, 8+1000)
		body[7] = byte(i)
		body[6] = byte(i >> 8)
		many = append(many, rec(0x01, uint32(len(body)), body)...)
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"id size 3", header(3), "id size 3"},
		{"id size 0", header(0), "id size 0"},
		{"a UTF8 record of 4 GiB in a small file", append(header(8), rec(0x01, 0xFFFFFFFF, make([]byte, 100))...), "stops at byte 31"},
		{"a segment longer than the file", append(header(8), rec(0x1C, 0xFFFFFFF0, []byte{0x23, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF, 8})...), "stops at byte"},
		{"an unknown sub-record", append(header(8), rec(0x1C, 1, []byte{0x99})...), "unknown sub-record tag 0x99"},
		{"a stack trace whose count lies", append(header(8), rec(0x05, 12, []byte{0, 0, 0, 2, 0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF})...), "says 4294967295 frames in 12 bytes"},
		{"more symbols than the budget", many, "than the reader keeps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dumps, err := Options{HPROFBudget: 1 << 20}.Parse("hostile", bytes.NewReader(tt.data))
			msg := ""
			if err != nil {
				msg = err.Error()
			} else {
				for _, s := range dumps[0].Skipped {
					msg += s.Reason + "\n"
				}
			}
			if !strings.Contains(msg, tt.want) {
				t.Errorf("got %q, want it to say %q", msg, tt.want)
			}
		})
	}
}

// TestHPROFMutated reads 1,000 generated dumps of every layout with bits
// flipped, bytes set to 0xFF (a length of 4 GiB), tails cut and bytes
// inserted: never a panic, and an answer each time (a dump or an error).
// (30,000 such ran clean by hand.)
func TestHPROFMutated(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	var seeds [][]byte
	for _, layout := range []hprofgen.Layout{hprofgen.JDK8, hprofgen.JDK17, hprofgen.JDK25} {
		for _, first := range []bool{false, true} {
			spec := hprofSpec(rng, layout, 4+4*rng.IntN(2), first)
			spec.FillerBytes = 4096
			var b bytes.Buffer
			hprofgen.Write(&b, spec)
			seeds = append(seeds, b.Bytes())
		}
	}
	for i := range 1000 {
		d := bytes.Clone(seeds[i%len(seeds)])
		for k := 1 + rng.IntN(8); k > 0 && len(d) > 32; k-- {
			switch rng.IntN(4) {
			case 0:
				d[30+rng.IntN(len(d)-30)] ^= byte(1 << rng.IntN(8))
			case 1:
				d[30+rng.IntN(len(d)-30)] = 0xFF
			case 2:
				d = d[:30+rng.IntN(len(d)-30)]
			case 3:
				p := 30 + rng.IntN(len(d)-30)
				d = append(d[:p], append([]byte{byte(rng.IntN(256)), 0xFF, 0xFF, 0xFF}, d[p:]...)...)
			}
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic %v on input %d", r, i)
				}
			}()
			dumps, err := Options{HPROFBudget: 1 << 20}.Parse("m", bytes.NewReader(d))
			if err == nil && len(dumps) == 0 {
				t.Fatal("nothing")
			}
		}()
	}
}

// FuzzHPROF feeds the record reader anything after a valid header: it
// never panics, and keeps no more than its budget (a small one here).
func FuzzHPROF(f *testing.F) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, layout := range []hprofgen.Layout{hprofgen.JDK8, hprofgen.JDK17, hprofgen.JDK25} {
		spec := hprofSpec(rng, layout, 4+4*int(layout%2), layout == hprofgen.JDK17)
		spec.FillerBytes = 2048
		spec.Threads = spec.Threads[:min(3, len(spec.Threads))]
		var b bytes.Buffer
		hprofgen.Write(&b, spec)
		f.Add(b.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, err := Options{HPROFBudget: 1 << 20}.Parse("fuzz", bytes.NewReader(data))
		if err == nil && len(dumps) == 0 {
			t.Fatal("no dump and no error")
		}
	})
}
