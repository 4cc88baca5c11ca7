package analyze

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A JVM that runs virtual threads, dumped by a tool that lists platform
// threads only, is said to hide them; the dumps that list them, and a JVM
// that never ran one, are not. The expectations come from the programs
// (testdata/libs/jdk25-*/README.md: ShopApp virtual runs its requests on
// virtual threads, platform on platform threads; the corpus's jthreaddump
// scenarios are named for what they run).
func TestVirtualThreadWarning(t *testing.T) {
	const corpus = "../../shared/corpus/jvm/"
	for _, tt := range []struct {
		path string
		want string // a part of the warning; "" for none
	}{
		{"../testdata/libs/jdk25-vthreads/jstack.txt", "its VirtualThread-unblocker thread runs"},
		{"../testdata/libs/jdk25-vthreads/jcmd-print.txt", "its VirtualThread-unblocker thread runs"},
		{"../testdata/libs/jdk25-pinned/jstack.txt", "8 carrier threads each carry one"},
		{"../testdata/libs/jdk25-vthreads/dump.json", ""},
		{"../testdata/libs/jdk25-vthreads/dump.txt", ""},
		{"../testdata/libs/jdk25-platform/jstack.txt", ""},
		{corpus + "jthreaddump__openjdk-25-macos__many-virtual-threads.txt", "10 carrier threads each carry one"},
		{corpus + "jthreaddump__openjdk-25-macos__deadlock.txt", ""},
	} {
		t.Run(filepath.Base(filepath.Dir(tt.path))+"/"+filepath.Base(tt.path), func(t *testing.T) {
			if strings.HasPrefix(tt.path, corpus) {
				if _, err := os.Stat(tt.path); err != nil {
					t.Skipf("corpus not here (%v): run with ../shared beside the repository", err)
				}
			}
			ds, err := parse.ParseFile(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			r := Analyze([]Input{{Label: "m1", Dump: ds[0]}}, Options{})
			var got string
			for _, w := range r.Warnings {
				if strings.Contains(w, "virtual threads") {
					got = w
				}
			}
			switch {
			case tt.want == "" && got != "":
				t.Errorf("warning %q, want none", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("warning %q, want one saying %q", got, tt.want)
			case tt.want != "" && !strings.Contains(got, "Thread.dump_to_file -format=json"):
				t.Errorf("warning %q does not say how to take a dump that has them", got)
			}
		})
	}
}

func TestContainerPool(t *testing.T) {
	for in, want := range map[string]string{
		"java.util.concurrent.ThreadPerTaskExecutor@3cefafdb":                   "java.util.concurrent.ThreadPerTaskExecutor@*",
		"ForkJoinPool-1/jdk.internal.vm.SharedThreadContainer@29f6000c":         "ForkJoinPool-1/jdk.internal.vm.SharedThreadContainer@*",
		"ForkJoinPool.commonPool/jdk.internal.vm.SharedThreadContainer@864aa81": "ForkJoinPool.commonPool/jdk.internal.vm.SharedThreadContainer@*",
		"java.util.concurrent.StructuredTaskScope@5e9f23b4/sub@1a2b":            "java.util.concurrent.StructuredTaskScope@*/sub@*",
		"my-executor":      "my-executor",
		"mail@example.com": "mail@example.com",
		"pool@face-worker": "pool@face-worker",
		"java.util.X@":     "java.util.X@",
	} {
		if got := containerPool(in); got != want {
			t.Errorf("containerPool(%q) = %q, want %q", in, got, want)
		}
	}
}

// One virtual thread per task is the design: a JDK 25 service whose tasks
// go from 10 to 2,000 virtual threads under a load (testdata/jvm/
// jdk25-vthread-ramp, VirtualRamp.java) is no explosion; its tasks' wait
// is judged as any pool's (they never return: the latch never opens). The
// platform-thread explosion of the CompletableFuture scenario stays (the
// control, in TestScenarios).
func TestVirtualThreadsAreNoExplosion(t *testing.T) {
	runFixtureCases(t, filepath.Join("..", "testdata", "jvm"), []fixtureCase{
		{"jdk25-vthread-ramp", []string{"1-before.json", "2-during.json"}, []want{
			{KindNotRecovered, "java.util.concurrent.ThreadPerTaskExecutor@*", "latch-wait", func(t *testing.T, f Finding) {
				eq(t, "at during", f.Counts[1], 2000)
			}},
		}},
	})
}
