package parse

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// corpusDir is the shared corpus of real dumps. It is read in place, never
// copied into the project (licenses).
const corpusDir = "../../shared/corpus"

// corpusSkipped names the required corpus files allowed to have skipped
// lines, and why. Every other required file must parse with none.
var corpusSkipped = map[string]string{
	// Console session: the program's own output line between its
	// runtime.Stack dump and the SIGQUIT dump that follows; EXPECTED.tsv
	// counts both parts as one dump, so the line is inside it.
	"go/go-profiler-notes__go1.15.6__runtime-stack-in-console-session.txt": "program output line between the runtime.Stack part and the SIGQUIT part",
	// syzkaller's "REPORT:" marker between the raw console log and the
	// report it extracted from it; EXPECTED.tsv counts one dump.
	"go/syzkaller-gvisor__go1.10-era__sigsegv-panic-fp-sp-pc.txt": `syzkaller "REPORT:" marker between the log and the extracted report`,
	// Line 447 holds the fields of a non-Java thread header whose quoted
	// name was lost by the program that captured the dump; EXPECTED.tsv
	// does not count it as a thread either.
	"jvm/jthreaddump__openjdk-25-macos__deep-recursion.txt": "thread header fields without the quoted name (cut by the producer)",
}

// corpusThreads overrides EXPECTED.tsv's counts where the parser reads
// what its count leaves out or takes in, and says why (dumps 0: as
// EXPECTED.tsv says).
var corpusThreads = map[string]struct {
	dumps, threads int
	why            string
}{
	// Line 13 is `"Finalizer"` with no "- Thread t@N" (every other header
	// has it): EXPECTED.tsv counts the 24 headers with an id, but the entry
	// has its state line, frames and locks like every other, so it is read
	// as the 25th thread, without an id (actuator_text.go); grep -c '^"'
	// counts 25.
	"jvm/samurai__spring-boot-2.5.4-actuator__text-threaddump.dmp": {0, 25, "name-only header of the Finalizer entry read as a thread"},
	// JRockit (jrockit.go): EXPECTED.tsv counts one dump a file and every
	// line that starts with a quote, the lock chains' entries too. Counted
	// here with grep: dumps `grep -c '===== FULL THREAD DUMP'`, threads
	// `grep -c '^"[^"]*" .*prio='` (a thread header; a chain's entry has no
	// prio=).
	"jvm/samurai__jrockit-R25.2-1.5.0_03__stacked.dmp":                    {3, 33, "3 dumps of 11 threads; the 9 lock-chain entries are no threads"},
	"jvm/samurai__jrockit-R26.0-1.5.0_04__weblogic-log-with-mojibake.dmp": {4, 172, "4 dumps of 43 threads; the 20 lock-chain entries are no threads"},
	"jvm/tda__jrockit-R26.4-1.5.0_06__weblogic-2-dumps-crlf.txt":          {2, 70, "2 dumps of 35 threads"},
}

type expected struct {
	file, tier     string
	dumps, threads int
}

func readExpected(t *testing.T) []expected {
	t.Helper()
	f, err := os.Open(filepath.Join(corpusDir, "EXPECTED.tsv"))
	if err != nil {
		t.Skipf("shared corpus not present (%v): corpus tests skipped", err)
	}
	defer f.Close()
	var out []expected
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Split(line, "\t")
		if len(fs) < 4 {
			t.Fatalf("EXPECTED.tsv: bad line %q", line)
		}
		d, err1 := strconv.Atoi(fs[2])
		n, err2 := strconv.Atoi(fs[3])
		if err1 != nil || err2 != nil {
			t.Fatalf("EXPECTED.tsv: bad counts in %q", line)
		}
		out = append(out, expected{file: fs[0], tier: fs[1], dumps: d, threads: n})
	}
	return out
}

// TestCorpus checks every corpus file against EXPECTED.tsv, whose counts
// were made without any parser. Run one runtime with -run TestCorpus/go/ or
// TestCorpus/jvm/.
func TestCorpus(t *testing.T) {
	for _, e := range readExpected(t) {
		t.Run(e.file, func(t *testing.T) {
			path := filepath.Join(corpusDir, e.file)
			dumps, err := ParseFile(path)
			if e.tier == "optional" {
				if err != nil {
					var nd *NoDumpError
					if !errors.As(err, &nd) || nd.Looks == "" {
						t.Fatalf("optional file refused without saying what it looks like: %v", err)
					}
					t.Logf("refused: %v", err)
					return
				}
				if e.dumps == 0 {
					t.Logf("parsed %d dumps (no independent count to check)", len(dumps))
					return
				}
			} else if err != nil {
				t.Fatalf("parse: %v", err)
			}
			threads, skipped := 0, 0
			for _, d := range dumps {
				threads += d.ThreadCount()
				skipped += len(d.Skipped)
				for i, s := range d.Skipped {
					if i < 3 {
						t.Logf("skipped %s:%d %q: %s", e.file, s.Line, s.Text, s.Reason)
					}
				}
			}
			if o, ok := corpusThreads[e.file]; ok {
				t.Logf("EXPECTED.tsv counts %d dumps, %d threads; want %d, %d: %s", e.dumps, e.threads, max(o.dumps, e.dumps), o.threads, o.why)
				e.threads = o.threads
				if o.dumps > 0 {
					e.dumps = o.dumps
				}
			}
			if len(dumps) != e.dumps || threads != e.threads {
				t.Errorf("got %d dumps, %d threads; want %d dumps, %d threads", len(dumps), threads, e.dumps, e.threads)
			}
			if _, ok := corpusSkipped[e.file]; !ok && skipped > 0 && e.tier == "required" {
				t.Errorf("%d skipped lines; a required file must parse fully (or be listed in corpusSkipped with a reason)", skipped)
			}
		})
	}
}
