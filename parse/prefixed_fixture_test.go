package parse

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// prefixedDir holds dumps behind other tools' prefixes than the six
// shapes of prefix_shapes.go (issue 32): real tools run here over real
// programs' dumps, and the shapes of public logs that could not be
// copied (testdata/prefixed/README.md says which is which and where each
// came from).
const prefixedDir = "../testdata/prefixed"

// prefixedCount is one line of testdata/prefixed/COUNTS.tsv: the dumps
// and threads of a file, counted with grep, not by this parser.
type prefixedCount struct{ dumps, threads int }

func prefixedCounts(t *testing.T) map[string]prefixedCount {
	t.Helper()
	f, err := os.Open(filepath.Join(prefixedDir, "COUNTS.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]prefixedCount{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 3 {
			t.Fatalf("COUNTS.tsv: bad line %q", sc.Text())
		}
		d, err1 := strconv.Atoi(f[1])
		n, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil {
			t.Fatalf("COUNTS.tsv: bad line %q", sc.Text())
		}
		out[f[0]] = prefixedCount{d, n}
	}
	return out
}

// TestPrefixedFixtures reads every file of testdata/prefixed: the dumps
// and threads grep counted, each dump read under a prefix (Dump.Prefix
// names the learned shape), and no file without its count.
func TestPrefixedFixtures(t *testing.T) {
	counts := prefixedCounts(t)
	files, err := filepath.Glob(filepath.Join(prefixedDir, "*.log"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(counts) || len(files) < 20 {
		t.Errorf("%d .log files, %d in COUNTS.tsv: every file needs its count", len(files), len(counts))
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			want, ok := counts[name]
			if !ok {
				t.Fatalf("%s is not in COUNTS.tsv", name)
			}
			dumps, err := ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			threads := 0
			for _, d := range dumps {
				threads += d.ThreadCount()
				if d.Prefix == "" {
					t.Errorf("dump at line %d read without a prefix", d.Source.Line)
				}
				rt := FormatGoText
				if strings.HasSuffix(name, ".jvm.log") {
					rt = FormatJVMText
				}
				if d.Format != rt {
					t.Errorf("dump at line %d: format %s, want %s", d.Source.Line, d.Format, rt)
				}
			}
			if len(dumps) != want.dumps || threads != want.threads {
				t.Errorf("got %d dumps, %d threads; want %d, %d (COUNTS.tsv)", len(dumps), threads, want.dumps, want.threads)
			}
		})
	}
}

// prefixBehind says how to take each public shape's prefix off its lines,
// written from the source's shape (testdata/prefixed/README.md), not by
// the learner: what is left is the dump behind the prefix.
var prefixBehind = map[string]*regexp.Regexp{
	"shape-compose-v1.go.log":            regexp.MustCompile(`^test_1 +\|( |$)`),
	"shape-compose-v2.go.log":            regexp.MustCompile(`^museum-1 +\|( |$)`),
	"shape-compose-v2.jvm.log":           regexp.MustCompile(`^museum-1 +\|( |$)`),
	"shape-forego.go.log":                regexp.MustCompile(`^\[00\] web\.1 +\| `),
	"shape-gha-lineno.go.log":            regexp.MustCompile(`^ *[0-9]+ [0-9T:.-]+Z `),
	"shape-heroku.go.log":                regexp.MustCompile(`^[0-9T:.+-]+ app\[web\.1\]: `),
	"shape-java-service-wrapper.jvm.log": regexp.MustCompile(`^INFO +\| jvm 1 +\| [0-9/]+ [0-9:]+ \| `),
	"shape-jenkins-timestamper.go.log":   regexp.MustCompile(`^[0-9]{2}:[0-9]{2}:[0-9]{2}  `),
	"shape-jenkins-timestamper.jvm.log":  regexp.MustCompile(`^[0-9]{2}:[0-9]{2}:[0-9]{2}  `),
	"shape-logcat-brief.go.log":          regexp.MustCompile(`^E/Go +\( *[0-9]+\): `),
	"shape-logcat-studio.go.log":         regexp.MustCompile(`^[0-9-]+ [0-9:.]+ [0-9]+-[0-9]+ +Go +com\.celzero\.bravedns +E  `),
	"shape-packer-plugin.go.log":         regexp.MustCompile(`^[0-9/]+ [0-9:]+ packer-post-processor-compress: `),
	"shape-terraform-hclog.go.log":       regexp.MustCompile(`^[0-9T:.+-]+ \[DEBUG\] plugin\.terraform-provider-vsphere_v1\.11\.0_x4: `),
	"shape-terraform-remote-exec.go.log": regexp.MustCompile(`^null_resource\.build_dcos \(remote-exec\): `),
	"shape-vagrant.go.log":               regexp.MustCompile(`^    default: `),
}

// TestPrefixedReadsAsBehind: each public shape (shape-*) and each public
// log (public-*) of testdata/prefixed reads as the dump behind its prefix
// reads (the same dumps, threads, states and frames), and a shape over
// testdata/pasted's dump as that dump itself.
func TestPrefixedReadsAsBehind(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(prefixedDir, "*.log"))
	if err != nil {
		t.Fatal(err)
	}
	origin := map[Runtime]string{
		RuntimeGo:  "../testdata/pasted/go-sigquit.stderr.txt",
		RuntimeJVM: "../testdata/pasted/jvm-kill3.stdout.txt",
	}
	n := 0
	for _, path := range files {
		name := filepath.Base(path)
		public := strings.HasPrefix(name, "public-")
		if !public && !strings.HasPrefix(name, "shape-") {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var behind string
			if public {
				behind = test2jsonOutput(t, raw) // go test -json: the Output fields
			} else {
				re := prefixBehind[name]
				if re == nil {
					t.Fatalf("%s: no prefix written for it in prefixBehind", name)
				}
				var b strings.Builder
				for _, l := range strings.SplitAfter(string(raw), "\n") {
					b.WriteString(re.ReplaceAllString(l, ""))
				}
				behind = b.String()
			}
			got, err := Parse(name, bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			want, err := Parse(name, strings.NewReader(behind))
			if err != nil {
				t.Fatal(err)
			}
			if g, w := dumpFingerprint(got), dumpFingerprint(want); g != w {
				t.Errorf("reads otherwise than the dump behind its prefix: %s", firstDiff(w, g))
			}
			if public {
				return
			}
			rt := RuntimeGo
			if strings.HasSuffix(name, ".jvm.log") {
				rt = RuntimeJVM
			}
			orig, err := ParseFile(origin[rt])
			if err != nil {
				t.Fatal(err)
			}
			if g, w := dumpFingerprint(got), dumpFingerprint(orig); g != w {
				t.Errorf("reads otherwise than %s: %s", origin[rt], firstDiff(w, g))
			}
		})
	}
	if n < len(prefixBehind)+2 {
		t.Errorf("%d public shapes and logs, want the %d shapes of prefixBehind and the 2 gotestsum logs", n, len(prefixBehind))
	}
}

// test2jsonOutput is the text of a go test -json stream: its events'
// Output fields, in order.
func test2jsonOutput(t *testing.T, raw []byte) string {
	t.Helper()
	var b strings.Builder
	for i, l := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		var ev struct{ Output string }
		if err := json.Unmarshal(l, &ev); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		b.WriteString(ev.Output)
	}
	return b.String()
}

// TestCutLinesJoined: the lines concurrently cut in two (testdata/prefixed
// README: two in the Go file, three in the JVM file, by their line numbers) are read joined, each
// join said with the rest's position.
func TestCutLinesJoined(t *testing.T) {
	for name, want := range map[string][]int{
		"cut-concurrently.go.log":  {215, 407},
		"cut-concurrently.jvm.log": {194, 285, 315},
	} {
		dumps, err := ParseFile(filepath.Join(prefixedDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(dumps) != 1 {
			t.Errorf("%s: %d dumps, want 1", name, len(dumps))
			continue
		}
		var got []int
		for _, j := range dumps[0].Joined {
			got = append(got, j.Line)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: joined lines %v, want %v", name, got, want)
		}
	}
}
