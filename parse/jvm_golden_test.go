package parse

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// jvmGoldenInputs are real dumps of our own (../testdata/jvm, written by
// testdata/gen/jvm-parse/gen.sh) and small fixtures (testdata/jvm).
func jvmGoldenInputs(t testing.TB) []string {
	var files []string
	for _, pat := range []string{"../testdata/jvm/*.txt", "testdata/jvm/*.txt", "testdata/jvm/*.json", "testdata/jvm/*.log"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no JVM golden inputs")
	}
	return files
}

// TestJVMGolden parses each input and compares its canonical form with
// testdata/jvm/golden/NAME.canonical; -update rewrites them.
func TestJVMGolden(t *testing.T) {
	for _, path := range jvmGoldenInputs(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			dumps, err := Parse(name, bytes.NewReader(data))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			checkGolden(t, filepath.Join("testdata/jvm/golden", name+".canonical"), dumps)
		})
	}
}

// TestJVMOwnDumpCounts checks our own dumps against testdata/jvm/COUNTS.tsv,
// counted by gen.sh with grep, not by this parser: one dump each, no
// skipped line.
func TestJVMOwnDumpCounts(t *testing.T) {
	f, err := os.Open("../testdata/jvm/COUNTS.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, n, _ := strings.Cut(sc.Text(), "\t")
		want, err := strconv.Atoi(n)
		if err != nil {
			t.Fatalf("COUNTS.tsv: bad line %q", sc.Text())
		}
		dumps, err := ParseFile(filepath.Join("../testdata/jvm", name))
		if err != nil {
			t.Fatal(err)
		}
		if len(dumps) != 1 || dumps[0].ThreadCount() != want || len(dumps[0].Skipped) != 0 {
			t.Errorf("%s: got %d dumps, first with %d threads and %d skipped; want 1 dump, %d threads, 0 skipped",
				name, len(dumps), dumps[0].ThreadCount(), len(dumps[0].Skipped), want)
		}
	}
}

// BenchmarkParseJstack parses jstack -l of 10,000 threads written by
// OpenJDK 17 (testdata/gen/jvm-parse/gen.sh bench).
func BenchmarkParseJstack(b *testing.B) {
	const path = "../testdata/jvm/jstack-l-10000-threads.txt.gz"
	f, err := os.Open(path)
	if err != nil {
		b.Skipf("%v: run testdata/gen/jvm-parse/gen.sh bench", err)
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		dumps, err := Parse("bench", bytes.NewReader(data))
		if err != nil || len(dumps) != 1 || dumps[0].ThreadCount() < 10000 {
			b.Fatalf("got %d dumps, err %v", len(dumps), err)
		}
	}
}

// FuzzJVMText feeds text dumps to Parse: it must never panic, and every
// skipped line must carry its position.
func FuzzJVMText(f *testing.F) {
	for _, path := range jvmGoldenInputs(f) {
		if strings.HasSuffix(path, ".json") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) > 8<<10 {
			data = data[:8<<10] // keep seeds small: the head of each dump
		}
		f.Add(data)
	}
	for _, name := range []string{"intellij__simple-deadlock.txt", "intellij__virtual-threads-deadlock.txt", "threadinfo-jdk17__three-way.txt",
		"eclipse__written-from-the-format.txt", "jhsdb-jdk17__deadlock.txt", "intellij-tests__jstack-F-jdk8.txt"} {
		if b, err := os.ReadFile(filepath.Join(formatsDir, name)); err == nil {
			f.Add(b[:min(len(b), 8<<10)])
		}
	}
	f.Add([]byte("Full thread dump:\n\"x\" prio=5 tid=0x1 nid=0x2 runnable [0x3..0x4]\n\tat a.B.c(D.java:1)\n\t- locked <0x1> (a X)\n"))
	f.Add([]byte("12:\n2024-01-01 00:00:00\nFull thread dump X:\n\nFound one Java-level deadlock:\n\"a\":\n  which is held by \"b\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dumps, _ := Parse("fuzz", bytes.NewReader(data))
		for _, d := range dumps {
			for _, s := range d.Skipped {
				if s.Line <= 0 {
					t.Fatalf("skipped line without position: %+v", s)
				}
			}
			for _, th := range d.Threads {
				for _, l := range th.Locks() {
					if l.Frame >= len(th.Frames) {
						t.Fatalf("lock %+v after frame %d of %d", l, l.Frame, len(th.Frames))
					}
				}
			}
		}
	})
}

// FuzzJVMJSON feeds jcmd JSON dumps to Parse: it must never panic.
func FuzzJVMJSON(f *testing.F) {
	for _, path := range jvmGoldenInputs(f) {
		if !strings.HasSuffix(path, ".json") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"threadDump":{"processId":"1","threadContainers":[{"container":"<root>","threads":[{"tid":"1","name":"main","stack":["a.B.c(D.java:1)"]}]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		Parse("fuzz.json", bytes.NewReader(data))
	})
}
