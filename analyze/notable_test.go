package analyze

import (
	"path/filepath"
	"strings"
	"testing"
)

// The threads to look at first: what each program's source holds, and none
// in a healthy idle service (the controls).
func TestNotable(t *testing.T) {
	both := []string{"1", "2"}
	for _, tt := range []struct {
		dir  string
		want []string // "thread|why" of each line, in order; nil for none
	}{
		// Controls: idle servers, executors, the idle machinery.
		{"jvm-jetty-idle", nil}, {"jvm-netty-idle", nil}, {"jvm-executors", nil}, {"jvm-idle-libs", nil},
		{"jvm-idle-libs-jdk25", nil}, {"jvm-task-sleep-idle", nil}, {"jvm-kept-alive-serving", nil},
		// SleepyApp's request thread waits on futures its saturated pool
		// completes; the finding tells of the pool, not of it.
		{"jvm-task-sleep", []string{"checkout|the only thread of its pool is waiting"}},
		// ForkJoinApp's main joins the starved common pool's futures.
		{"jvm-common-pool-starved", []string{"main|main is waiting, not in a pool's loop"}},
	} {
		t.Run(tt.dir, func(t *testing.T) {
			r := Analyze(loadMoments(t, filepath.Join("..", "testdata", "libs", tt.dir), both), Options{})
			var got []string
			for _, n := range r.Notable {
				got = append(got, n.Thread+"|"+n.Why)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("notable %q, want %q", got, tt.want)
			}
		})
	}
}

// A real service with no finding whose workers block on a monitor
// (corpus: three kill -3 dumps of a log server in catalina.out): the first
// screen names them.
func TestNotableCorpus(t *testing.T) {
	r := Analyze(corpusInputs(t, corpusJVM+"dumpdiff-gen__openjdk-17.0.15__catalina-out-log-with-3-sigquit-dumps.log"), Options{})
	if len(r.Findings) != 0 || len(r.Notable) != 1 || r.Notable[0].State != "monitor-blocked" || r.Notable[0].Count != 2 {
		t.Errorf("findings %d, notable %+v: want no finding and the two workers blocked on a monitor", len(r.Findings), r.Notable)
	}
}
