package analyze

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestJoinFixtures (issue 33, two-sided waits tied): real Java 17 and
// Temurin 25 programs (testdata/gen/verdicts-joins; each README.md written
// from the source before dumpdiff ran) whose main joins a thread it
// started. The thread that reads a silent peer inside a class initializer
// is named with main tied to it; a join on a batch job that works is quiet.
func TestJoinFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	for _, tt := range []struct {
		name, thread string // "" for no notable line
	}{
		{"joins-clinit-stuck", "loader"},
		{"jdk25-joins-vclinit-stuck", "virtual thread #18"},
		{"joins-healthy", ""},
	} {
		for _, cut := range [][]string{{"1", "2", "3"}, {"1"}, {"3"}} {
			t.Run(tt.name+"/"+strings.Join(cut, ","), func(t *testing.T) {
				r := Analyze(loadMoments(t, filepath.Join(dir, tt.name), cut), Options{})
				for _, f := range r.Findings {
					t.Errorf("unexpected finding: %s %s %s", f.Kind, f.Pool, f.State)
				}
				var got []string
				for _, n := range r.Notable {
					got = append(got, n.Thread+": "+n.Waiters)
				}
				if tt.thread == "" {
					if len(got) > 0 {
						t.Errorf("notable lines %q, want none", got)
					}
					return
				}
				if len(got) != 1 || !strings.HasPrefix(got[0], tt.thread+": main waits for it to end (Thread.join at com.example.joins.JoinApp.main(") {
					t.Errorf("notable lines %q, want %s tied to main's join", got, tt.thread)
				}
			})
		}
	}
}

// TestJoinTiesProperty (generated): a waiter ("main" in Thread.join or a
// future's get under com.example.gen.App.main) and threads drawn at
// random, each running a lambda of App.main, of App.other or of another
// class, waiting on a peer or at rest in an accept loop. main is tied to
// the one thread that runs App.main's code, or, where several do, to the
// one of them not at rest; to none where that is not one thread.
func TestJoinTiesProperty(t *testing.T) {
	base := keptAliveBase(t)
	r := rand.New(rand.NewSource(41))
	joinFrames := map[string][]string{
		"join": {"java.lang.Object.wait(java.base@17.0.15/Native Method)", "java.lang.Thread.join(java.base@17.0.15/Thread.java:1304)",
			"java.lang.Thread.join(java.base@17.0.15/Thread.java:1372)"},
		"get": {"jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)", "java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:211)",
			"java.util.concurrent.FutureTask.awaitDone(java.base@17.0.15/FutureTask.java:447)", "java.util.concurrent.FutureTask.get(java.base@17.0.15/FutureTask.java:190)"},
	}
	reader := []string{"sun.nio.ch.Net.poll(java.base@17.0.15/Native Method)", "sun.nio.ch.NioSocketImpl.park(java.base@17.0.15/NioSocketImpl.java:181)",
		"sun.nio.ch.NioSocketImpl.implRead(java.base@17.0.15/NioSocketImpl.java:324)", "sun.nio.ch.NioSocketImpl.read(java.base@17.0.15/NioSocketImpl.java:355)",
		"java.net.Socket$SocketInputStream.read(java.base@17.0.15/Socket.java:976)"}
	acceptor := []string{"sun.nio.ch.Net.accept(java.base@17.0.15/Native Method)", "sun.nio.ch.NioSocketImpl.accept(java.base@17.0.15/NioSocketImpl.java:760)",
		"java.net.ServerSocket.implAccept(java.base@17.0.15/ServerSocket.java:675)", "java.net.ServerSocket.accept(java.base@17.0.15/ServerSocket.java:594)"}
	tied, none := 0, 0
	for i := range 300 {
		how := []string{"join", "get"}[r.Intn(2)]
		main := genThread{name: "main", state: "WAITING (on object monitor)",
			frames: append(append([]string(nil), joinFrames[how]...), "com.example.gen.App.main(App.java:30)")}
		var ts []genThread
		var mine, mineBusy []string
		for k := range r.Intn(4) {
			owner := []string{"com.example.gen.App.lambda$main$", "com.example.gen.App.lambda$other$", "com.example.gen.Svc.lambda$main$", "com.example.gen.App$"}[r.Intn(4)]
			rest := r.Intn(2) == 0
			fs := reader
			state := "RUNNABLE"
			if rest {
				fs = acceptor
			}
			name := fmt.Sprintf("worker-%d", k)
			frame := fmt.Sprintf("%s%d(App.java:%d)", owner, k, 40+k)
			if owner == "com.example.gen.App$" {
				frame = fmt.Sprintf("com.example.gen.App$%d.run(App.java:%d)", k+1, 40+k)
			}
			ts = append(ts, genThread{name: name, state: state, frames: append(append([]string(nil), fs...), frame,
				"java.lang.Thread.run(java.base@17.0.15/Thread.java:833)")})
			if owner == "com.example.gen.App.lambda$main$" || owner == "com.example.gen.App$" {
				mine = append(mine, name)
				if !rest {
					mineBusy = append(mineBusy, name)
				}
			}
		}
		want := ""
		switch {
		case len(mine) == 1:
			want = mine[0]
		case len(mine) > 1 && len(mineBusy) == 1:
			want = mineBusy[0]
		}
		var gen strings.Builder
		for j, th := range append([]genThread{main}, ts...) {
			gen.WriteString(th.text(j))
			gen.WriteString("\n")
		}
		text := strings.Replace(base, "\"DestroyJavaVM\"", gen.String()+"\"DestroyJavaVM\"", 1)
		ds, err := parse.Parse("gen.txt", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		_, _, b := prepare([]Input{{Label: "1", Dump: ds[0]}}, Options{})
		ties := joinTies(ds[0], func(th *parse.Thread) bool {
			var key []byte
			s := b.classes.info(0, th, &key).sig
			return s == nil || s.Category == Idle || s.Rest || s.Serves
		})
		got := ""
		for th, js := range ties {
			for _, j := range js {
				if j.waiter.Name() == "main" {
					got = th.Name()
				}
			}
		}
		if got != want {
			t.Fatalf("case %d (%s): main tied to %q, want %q (of %v, busy %v)", i, how, got, want, mine, mineBusy)
		}
		if want != "" {
			tied++
		} else {
			none++
		}
	}
	if tied < 50 || none < 50 {
		t.Fatalf("the draw is lopsided: %d tied, %d not", tied, none)
	}
}

// TestSAPJVM81Internal: in a real SAP JVM 8.1 dump (three-line headers,
// testdata/formats/jthreaddump__sapjvm-8.1.108-excerpt.txt), the JVM's own
// threads (its profiler's listener, its control thread, HotSpot's) are
// JVM-internal; main, which runs the jar tool, is the application's.
func TestSAPJVM81Internal(t *testing.T) {
	ds, err := parse.ParseFile(filepath.Join("..", "testdata", "formats", "jthreaddump__sapjvm-8.1.108-excerpt.txt"))
	if err != nil {
		t.Fatal(err)
	}
	names := roleTables(nil).JVMInternal
	want := map[string]bool{"main": false, "Server: sap_jvm_profiling_server_34384": true, "Control Handler": true,
		"JDWP Event Helper Thread": true, "Sweeper thread": true, "C1 CompilerThread0": true}
	seen := 0
	for _, th := range ds[0].Threads {
		w, ok := want[th.Name()]
		if !ok {
			continue
		}
		seen++
		if got := jvmInternal(th, names); got != w {
			t.Errorf("%q: JVM-internal %v, want %v", th.Name(), got, w)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d threads named here were read", seen, len(want))
	}
}
