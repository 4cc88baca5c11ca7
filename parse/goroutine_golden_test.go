package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goGoldenFiles are corpus files whose canonical form is kept under
// testdata/go/NAME.golden: one per Go format and the header shapes that
// matter most.
var goGoldenFiles = []string{
	"dumpdiff-gen__go1.26.8__panic-repanicked-gotraceback-all.txt",
	"dumpdiff-gen__go1.26.8__synctest-bubble-durable.txt",
	"dumpdiff-gen__go1.26.8__tracebacklabels1-sigquit-labels-in-brackets.txt",
	"dumpdiff-gen__go1.27.3__sigquit-gp-headers-labels.txt",
	"dumpdiff-gen__go1.27.3__http-goroutineleak-debug2.txt",
	"dumpdiff-gen__go1.27.3__http-goroutineleak-debug1.txt",
	"dumpdiff-gen__go1.27.3__http-goroutineleak-debug0.pb.gz",
	"dumpdiff-gen__go1.27.3__lookup-goroutine-debug1-labels.txt",
	"goleak__go1.21__http-server-tracebackancestors.txt",
	"gostackparse__go1.15.6__frames-elided.txt",
	"syzkaller-gvisor__go1.14-era__watchdog-stuck-tasks.txt",
	"pyroscope__go1.20.5__goroutine-profile-with-labels.pprof",
}

// TestGoGolden compares the canonical form of each golden corpus file with
// testdata/go/NAME.golden; -update rewrites them.
func TestGoGolden(t *testing.T) {
	for _, name := range goGoldenFiles {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(corpusDir, "go", name)
			f, err := os.Open(path)
			if err != nil {
				t.Skipf("shared corpus file not present (%v)", err)
			}
			defer f.Close()
			dumps, err := Parse(name, f)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			checkGolden(t, filepath.Join("testdata", "go", strings.TrimSuffix(name, filepath.Ext(name))+".golden"), dumps)
		})
	}
}
