package parse

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dumpdiff/dumpdiff/internal/hprofgen"
)

// BenchmarkParseHPROF reads a generated 64 MiB heap dump (200 parked
// threads, then instances, byte[] and object arrays) from a file in the
// page cache: the record reader's cost without the disk's (make
// bench-hprof measures a 4 GiB file beside grep).
func BenchmarkParseHPROF(b *testing.B) {
	spec := hprofgen.Spec{Layout: hprofgen.JDK17, IDSize: 8, Millis: 1, FillerBytes: 64 << 20, Seed: 1}
	for i := range 200 {
		spec.Threads = append(spec.Threads, hprofgen.Thread{Name: fmt.Sprintf("task-%d", i), TID: int64(i + 1), Status: 0x291,
			Frames: []hprofgen.Frame{{Class: "com/example/Task", Method: "run", File: "Task.java", Line: 10}}})
	}
	var buf bytes.Buffer
	if _, err := hprofgen.Write(&buf, spec); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "bench.hprof")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ResetTimer()
	for b.Loop() {
		dumps, err := ParseFile(path)
		if err != nil || len(dumps[0].Threads) != 200 {
			b.Fatal(err)
		}
	}
}
