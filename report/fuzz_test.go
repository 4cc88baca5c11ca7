package report

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
)

// FuzzAnalyzeGoText feeds arbitrary bytes through the whole pipeline the
// way a user's file goes: parse, analyze every dump found as one moment
// (or the one dump at three moments), and render every format. Nothing
// may panic, whatever the dump holds (goroutine ids repeated or missing,
// locks waited on from many pools, cut stacks). Run it with
//
//	go test ./report -run XXX -fuzz FuzzAnalyzeGoText -fuzztime 60s -fuzzminimizetime 5s
//
// (the default minimization, 60 s per new input, takes most of a short run).
func FuzzAnalyzeGoText(f *testing.F) {
	for _, pattern := range []string{"../testdata/go/*debug2*.txt", "../testdata/libs/go-*/*.txt", "../../shared/corpus/go/*.txt"} {
		files, _ := filepath.Glob(pattern)
		for _, path := range files {
			if data, err := os.ReadFile(path); err == nil && len(data) <= 16<<10 {
				f.Add(data)
			}
		}
	}
	f.Add([]byte("goroutine 5 [sync.Mutex.Lock]:\nsync.(*Mutex).Lock(0xc0000a6000)\n\t/s/mutex.go:1 +0x1\nmain.a()\n\t/a.go:2 +0x1\n\n" +
		"goroutine 5 [sync.Mutex.Lock, 3 minutes]:\nsync.(*Mutex).Lock(0xc0000a6000)\n\t/s/mutex.go:1 +0x1\nmain.b()\n\t/a.go:3 +0x1\ncreated by main.c in goroutine 5\n\t/a.go:9 +0x1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, err := parse.Parse("fuzz.txt", bytes.NewReader(data))
		if err != nil || len(dumps) == 0 {
			return
		}
		var in []analyze.Input
		for _, d := range dumps {
			in = append(in, analyze.Input{Dump: d})
		}
		if len(in) == 1 {
			in = append(in, in[0], in[0])
		}
		r := analyze.Analyze(in, analyze.Options{})
		for _, format := range []Format{FormatText, FormatMarkdown, FormatJira, FormatSlack, FormatHTML, FormatJSON} {
			if err := Generate(io.Discard, r, Options{Format: format}); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
		}
	})
}
