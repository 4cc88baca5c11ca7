package parse

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The fuzz targets feed arbitrary bytes to each Go parser through Parse.
// They must never panic, and every dump they return must be well formed.
// Seeds are small real inputs: corpus files under a size limit and the
// shapes of the table tests. Run one with
//
//	go test ./parse -run XXX -fuzz FuzzGoText -fuzztime 30s

// addCorpusSeeds adds the corpus files matching pattern, up to maxSize bytes each.
func addCorpusSeeds(f *testing.F, pattern string, maxSize int) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "go", pattern))
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err == nil && len(data) <= maxSize {
			f.Add(data)
		}
	}
}

// checkDumps verifies the invariants of parsed dumps.
func checkDumps(t *testing.T, dumps []*Dump) {
	for _, d := range dumps {
		for _, th := range d.Threads {
			if th == nil {
				t.Fatal("nil thread")
			}
			if th.Weight < 0 {
				t.Fatalf("negative weight %d", th.Weight)
			}
			for _, fr := range th.Frames {
				if fr == nil {
					t.Fatal("nil frame")
				}
			}
		}
	}
}

func FuzzGoText(f *testing.F) {
	addCorpusSeeds(f, "*.txt", 16<<10)
	f.Add([]byte("goroutine 7 [select labels:{\"pool\": \"ingest\", \"route\": \"/api/v1/items[0],[1]\"}]:\nmain.w()\n\t/x.go:1 +0x1\n"))
	f.Add([]byte("goroutine 31 [select] {pool: ingest, route: \"/api/v1/items[0],[1]\"}:\nmain.w(...)\n\t/x.go:1\n"))
	for _, name := range []string{"go-test-timeout-v.txt", "goleak-v1.3.0.txt"} {
		if b, err := os.ReadFile(filepath.Join(formatsDir, name)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("[Goroutine 9 in state chan receive] {k: \"a, with b\"}, with main.w on top of the stack:\nmain.w()\n\t/x.go:1 +0x1\n"))
	f.Add([]byte("panic: x\n\ngoroutine 1 [running]:\n\tgoroutine running on other thread; stack unavailable\n[originating from goroutine 2]:\nmain.a()\n\t/a.go:1 +0x1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, _ := Parse("fuzz.txt", bytes.NewReader(data))
		checkDumps(t, dumps)
	})
}

func FuzzGoDebug1(f *testing.F) {
	addCorpusSeeds(f, "*debug1*.txt", 16<<10)
	f.Add([]byte("goroutine profile: total 2\n1 @ 0x1 0x2\n# labels: {\"k\":\"v\"}\n#\t0x1\tmain.f+0x1\t/a.go:3\n\n"))
	f.Add([]byte("goroutineleak profile: total 1\n1 @ 0x1\n"))
	// Without the header (a paste from the first record), and a count
	// with addresses that no frame follows.
	f.Add([]byte("3 @ 0x48444e 0x4181ce\n# labels: {\"k\":\"v\"}\n#\t0x4181cd\tmain.f+0x1\t/a.go:3\n\n1 @ 0x1\n#\t0x1\tmain.g+0x1\t/a.go:4\n"))
	f.Add([]byte("2 @ 0x1 0x2\nnot a frame\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, _ := Parse("fuzz.txt", bytes.NewReader(data))
		checkDumps(t, dumps)
	})
}

func FuzzGoProto(f *testing.F) {
	addCorpusSeeds(f, "*.pb.gz", 8<<10)
	addCorpusSeeds(f, "*.pprof", 8<<10)
	f.Add(encodeProfile(f, goroutineProfile("goroutine")))
	f.Add(encodeProfile(f, debug3Profile()))
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, _ := Parse("fuzz.pb", bytes.NewReader(data))
		checkDumps(t, dumps)
	})
}
