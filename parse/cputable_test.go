package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReadCPUTables reads each tool's table as it prints it: top -H in
// batch mode (a committed fixture's own output), ps -L and ps -eLo with
// their ELAPSED/ETIMES, ps -mo with the process's row first (its thread
// id "-"), ps -mo THREAD, a quoted paste, and lines that only look alike.
func TestReadCPUTables(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []ThreadCPU // Line, Source and Clock checked apart
	}{
		{"top -H batch", "top - 23:35:57 up  3:07,  0 user,  load average: 34.15, 35.54, 27.41\n" +
			"Threads:  25 total,   5 running,  20 sleeping,   0 stopped,   0 zombie\n\n" +
			"  PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n" +
			"21699 root      25   5 2848760 211576  21964 S  58.8   0.9   0:02.36 java\n" +
			"21774 root      25   5 2848760 211576  21964 R  52.9   0.9 125:07.32 indexer-3\n\n",
			[]ThreadCPU{{TID: 21699, Share: 0.588, CPU: 2360 * time.Millisecond, Tool: "top"},
				{TID: 21774, Share: 0.529, CPU: (125*60 + 7.32) * 1e9, Tool: "top"}}},
		{"ps -L", "  PID   LWP %CPU     TIME ELAPSED COMMAND\n" +
			"28759 28759 60.9 00:00:31      52 java\n" +
			"28759 28779 14.9 00:00:07      52 writer-1\n",
			[]ThreadCPU{{TID: 28759, Share: 0.609, Life: true, CPU: 31 * time.Second, Elapsed: 52 * time.Second, Tool: "ps"},
				{TID: 28779, Share: 0.149, Life: true, CPU: 7 * time.Second, Elapsed: 52 * time.Second, Tool: "ps"}}},
		{"ps -eLo etime", "  PID   TID %CPU     ELAPSED     TIME CMD\n" +
			"  412   419 97.2  3-02:11:09 3-00:40:12 java -jar app.jar\n",
			[]ThreadCPU{{TID: 419, Share: 0.972, Life: true, CPU: (3*86400 + 40*60 + 12) * time.Second,
				Elapsed: (3*86400 + 2*3600 + 11*60 + 9) * time.Second, Tool: "ps"}}},
		{"ps -mo with the process row", "> ps -mo 'pid lwp time %cpu cmd' 4242 | grep -v '0.0'\n" +
			"  PID   LWP     TIME %CPU CMD\n" +
			" 4242     - 1-02:00:00 55.0 svc_java\n" +
			"    -  4301 1-01:30:00 52.1 -\n",
			[]ThreadCPU{{TID: 4301, Share: 0.521, Life: true, CPU: (86400 + 3600 + 1800) * time.Second, Tool: "ps"}}},
		{"ps -mo THREAD", "USER     %CPU PRI SCNT WCHAN  USER SYSTEM   TID\n" +
			"app      10.0   -    - -         -      -     -\n" +
			"app      99.1  19    - -         -      -  7001\n" +
			"app       0.0  19    - futex_    -      -  7002\n",
			[]ThreadCPU{{TID: 7001, Share: 0.991, Life: true, Tool: "ps"}, {TID: 7002, Share: 0, Life: true, Tool: "ps"}}},
		{"quoted", "> top - 10:00:00 up 1 day\n>   PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n" +
			"> 31337 app       20   0 2848760 211576  21964 R  99.9   0.9  10:00.00 worker-7\n",
			[]ThreadCPU{{TID: 31337, Share: 0.999, CPU: 600 * time.Second, Tool: "top"}}},
		// A process list without a thread id column, a dump's own
		// "cpu=" header, prose with %CPU: none is a table.
		{"not tables", "  PID USER %CPU COMMAND\n 1 root 0.0 init\n" +
			"\"main\" #1 prio=5 os_prio=0 cpu=362.74ms elapsed=757.67s tid=0x1 nid=0x2 runnable\n" +
			"The %CPU column of top says how busy a thread is\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ReadCPUTables("x.txt", strings.NewReader(tt.text))
			if len(got) != len(tt.want) {
				t.Fatalf("%d rows %+v, want %d", len(got), got, len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				g.Line, g.Source, g.Clock = 0, "", ""
				if d := g.Share - w.Share; d > 1e-9 || d < -1e-9 {
					t.Errorf("row %d share %v, want %v", i, g.Share, w.Share)
				}
				g.Share = w.Share
				if g != w {
					t.Errorf("row %d\n got %+v\nwant %+v", i, g, w)
				}
				if got[i].Source != "x.txt" || got[i].Line == 0 {
					t.Errorf("row %d at %s:%d", i, got[i].Source, got[i].Line)
				}
			}
		})
	}
}

// TestCPUTableAge: ps's %CPU is over the thread's life, so with TIME the
// life is TIME/%CPU; an ELAPSED column is taken as printed; top's share
// is of its interval and gives no life.
func TestCPUTableAge(t *testing.T) {
	for _, tt := range []struct {
		row  ThreadCPU
		want time.Duration
	}{
		{ThreadCPU{Share: 0.671, Life: true, CPU: (2*86400 + 11*3600 + 25*60 + 55) * time.Second}, 318860 * time.Second},
		{ThreadCPU{Share: 0.5, Life: true, CPU: 10 * time.Second, Elapsed: 30 * time.Second}, 30 * time.Second},
		{ThreadCPU{Share: 0.5, Life: false, CPU: 10 * time.Second}, 0},
		{ThreadCPU{Share: 0, Life: true, CPU: 10 * time.Second}, 0},
	} {
		got := tt.row.Age()
		if d := got - tt.want; d > time.Second || d < -time.Second {
			t.Errorf("%+v: age %v, want %v", tt.row, got, tt.want)
		}
	}
}

// TestAttachCPU matches rows to threads by native id: HotSpot's nid=0x…
// (hex), a decimal nid, a javacore's native thread ID; a thread with no
// row keeps none.
func TestAttachCPU(t *testing.T) {
	d := &Dump{Threads: []*Thread{
		{JVM: &JVM{Name: "a", NativeID: "0x85e2"}},
		{JVM: &JVM{Name: "b", NativeID: "19080"}},
		{JVM: &JVM{Name: "c", NativeID: "0x5E68"}},
		{JVM: &JVM{Name: "d", NativeID: "0x1"}},
		{JVM: &JVM{Name: "e"}},
	}}
	rows := []ThreadCPU{{TID: 34274, Share: 0.671, Life: true}, {TID: 19080, Share: 0.9}, {TID: 24168, Share: 0.5}}
	if n := AttachCPU(d, rows); n != 3 {
		t.Fatalf("%d attached, want 3", n)
	}
	for i, want := range []float64{0.671, 0.9, 0.5, -1, -1} {
		got := -1.0
		if c := d.Threads[i].SideCPU; c != nil {
			got = c.Share
		}
		if got != want {
			t.Errorf("%s: share %v, want %v", d.Threads[i].Name(), got, want)
		}
	}
}

// TestCPUTableFixtures reads the committed top -H and ps -L files beside
// the verdict fixtures: every row of each is a thread, and the rows reach
// the threads of the dump taken with them (by nid).
func TestCPUTableFixtures(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "verdicts", "*", "*.out"))
	if len(files) == 0 {
		t.Fatal("no *.out beside the verdict fixtures")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines, in := 0, false // the lines under the PID header that start with a number
		for _, l := range strings.Split(string(data), "\n") {
			fs := strings.Fields(l)
			if len(fs) > 0 && fs[0] == "PID" {
				in = true
			} else if in && len(fs) > 0 && strings.Trim(fs[0], "0123456789") == "" {
				lines++
			}
		}
		rows := ReadCPUTables(f, strings.NewReader(string(data)))
		if len(rows) != lines {
			t.Errorf("%s: %d rows, want %d", f, len(rows), lines)
		}
		ds, err := ParseFile(filepath.Join(filepath.Dir(f), "1.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if n := AttachCPU(ds[0], rows); n < 4 {
			t.Errorf("%s: %d threads of 1.txt got a row", f, n)
		}
	}
}
