package parse

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

// TestThreadStaysSmall guards the size of a Thread: a 1M-goroutine dump
// holds a million of them, and three moments must fit in a gigabyte with
// everything else (issue 11). JVM-only fields go in JVM, behind a pointer.
func TestThreadStaysSmall(t *testing.T) {
	if n := unsafe.Sizeof(Thread{}); n > 128 {
		t.Errorf("Thread is %d bytes, want at most 128 (two cache lines): put JVM-only fields in JVM, rare Go ones in GoExtra", n)
	}
}

// TestJVMPartOnlyForJVM checks that goroutines carry no JVM part and that
// every JVM thread has one, so that readers can tell them by t.JVM.
func TestJVMPartOnlyForJVM(t *testing.T) {
	var names []string
	for _, dir := range []string{"../testdata/go", "../testdata/jvm", "../testdata/jfr", "../testdata/libs"} {
		filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() && !strings.HasSuffix(p, ".md") && !strings.HasSuffix(p, ".tsv") &&
				!strings.HasSuffix(p, ".jfr") && !strings.HasSuffix(p, ".java") && !strings.HasSuffix(p, ".sh") {
				names = append(names, p)
			}
			return nil
		})
	}
	if len(names) < 10 {
		t.Fatalf("found %d fixtures under ../testdata", len(names))
	}
	total := 0
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		dumps, err := Parse(name, f)
		f.Close()
		if err != nil {
			continue // not a dump (a manifest, a README): other tests read it
		}
		n := 0
		for _, d := range dumps {
			for _, th := range d.Threads {
				n++
				if jvm := d.Format.Runtime() == RuntimeJVM; jvm != (th.JVM != nil) {
					t.Fatalf("%s: a %s thread (line %d) has JVM part %v", name, d.Format, th.Line, th.JVM)
				}
			}
		}
		total += n
	}
	if total < 10000 {
		t.Fatalf("read %d threads in all: the fixtures did not parse", total)
	}
}
