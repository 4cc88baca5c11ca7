package parse

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/pprof/profile"
)

// goroutineProfile builds a goroutine profile the way runtime/pprof does:
// sample type goroutine/count, one sample per distinct stack and label set.
func goroutineProfile(sampleType string) *profile.Profile {
	fnLoop := &profile.Function{ID: 1, Name: "main.loop", SystemName: "main.loop", Filename: "/src/main.go"}
	fnPark := &profile.Function{ID: 2, Name: "runtime.gopark", SystemName: "runtime.gopark", Filename: "runtime/proc.go"}
	fnInl := &profile.Function{ID: 3, Name: "main.inlined", SystemName: "main.inlined", Filename: "/src/main.go"}
	locPark := &profile.Location{ID: 1, Address: 0x48618e, Line: []profile.Line{{Function: fnPark, Line: 462}}}
	// An inlined call: the callee (main.inlined) is Line[0], the caller after it.
	locLoop := &profile.Location{ID: 2, Address: 0x689254, Line: []profile.Line{{Function: fnInl, Line: 7}, {Function: fnLoop, Line: 20}}}
	locRaw := &profile.Location{ID: 3, Address: 0x4abc}
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: sampleType, Unit: "count"}},
		PeriodType: &profile.ValueType{Type: sampleType, Unit: "count"},
		Period:     1,
		TimeNanos:  time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC).UnixNano(),
		Sample: []*profile.Sample{
			{Location: []*profile.Location{locPark, locLoop}, Value: []int64{3}},
			{Location: []*profile.Location{locPark, locLoop}, Value: []int64{1},
				Label: map[string][]string{"pool": {"ingest"}}, NumLabel: map[string][]int64{"bytes": {512}}, NumUnit: map[string][]string{"bytes": {"bytes"}}},
			{Location: []*profile.Location{locRaw}, Value: []int64{2}},
		},
		Location: []*profile.Location{locPark, locLoop, locRaw},
		Function: []*profile.Function{fnLoop, fnPark, fnInl},
	}
}

func encodeProfile(t testing.TB, p *profile.Profile) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil { // gzipped, as served by net/http/pprof
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestParseProto(t *testing.T) {
	park, loop, inl := fr("runtime.gopark", "runtime/proc.go", 462), fr("main.loop", "/src/main.go", 20), fr("main.inlined", "/src/main.go", 7)
	threads := func() []*Thread {
		return []*Thread{
			{Weight: 3, Frames: []*Frame{park, inl, loop}},
			{Weight: 1, Frames: []*Frame{park, inl, loop}, Labels: map[string]string{"pool": "ingest", "bytes": "512 bytes"}},
			{Weight: 2, Frames: []*Frame{{Func: "0x4abc"}}},
		}
	}
	when := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	pcs := map[uint64][]*Frame{0x48618e: {park}, 0x689254: {inl, loop}}
	tests := []struct {
		name       string
		sampleType string
		want       []*Dump
	}{
		// PCFrames: each symbolized location by its address (the raw one,
		// without lines, names nothing).
		{"goroutine", "goroutine", []*Dump{{Source: Source{File: "p.pb.gz"}, Format: FormatGoProto, Time: when, Threads: threads(), PCFrames: pcs}}},
		{"goroutineleak", "goroutineleak", []*Dump{{Source: Source{File: "p.pb.gz"}, Format: FormatGoProto, Time: when, Kind: "goroutineleak", Threads: threads(), PCFrames: pcs}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := encodeProfile(t, goroutineProfile(tt.sampleType))
			got, err := Parse("p.pb.gz", bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseProtoNotGoroutines(t *testing.T) {
	p := goroutineProfile("goroutine")
	p.SampleType = []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}}
	for _, s := range p.Sample {
		s.Value = append(s.Value, 10)
	}
	_, err := Parse("cpu.pb.gz", bytes.NewReader(encodeProfile(t, p)))
	var nd *NoDumpError
	if !errors.As(err, &nd) || !strings.Contains(nd.Looks, `"samples"`) {
		t.Fatalf("err = %v, want a NoDumpError naming the sample type", err)
	}
}

// TestClaimProto checks detection on every corpus file: the proto files
// are claimed, no text file is.
func TestClaimProto(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "go", "*"))
	jvm, _ := filepath.Glob(filepath.Join(corpusDir, "jvm", "*"))
	files = append(files, jvm...)
	if len(files) == 0 {
		t.Skip("shared corpus not present")
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > 2 && data[0] == 0x1f && data[1] == 0x8b {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if data, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		head := data[:min(len(data), 4096)]
		isProto := strings.HasSuffix(path, ".pb.gz") || strings.HasSuffix(path, ".pprof")
		if got := claimProto(head); got != isProto {
			t.Errorf("claimProto(%s) = %v, want %v", filepath.Base(path), got, isProto)
		}
	}
	for _, text := range []string{"\n\ngoroutine 1 [running]:\n", "\nZ", "Zed: a log line\n", "\n\x04\x08\x01\x10", "\n\tat java.lang.Thread.run(Thread.java:748)\n"} {
		if claimProto([]byte(text)) {
			t.Errorf("claimProto(%q) = true", text)
		}
	}
}
