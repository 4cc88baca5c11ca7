package analyze

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestHotLoopRows checks the table of known loops on stacks from public
// dumps and write-ups (each cited), one thread each: a row whose frames
// are hot only when corrupted takes it alone; a lookup or put row does not,
// unless the thread printed a CPU time past HotLoopCPU.
func TestHotLoopRows(t *testing.T) {
	tests := []struct {
		name   string
		frames []string
		cpu    time.Duration
		age    time.Duration // elapsed=; 0 when not printed (a javacore, JDK 8)
		row    string        // the row hotLoopOf finds; "" for none
		alone  bool          // hotLoopThreads takes the thread alone
	}{
		// JDK 8, no cpu=: a thread of a Chinese write-up's
		// MultiThreadMap_Put demo (jstack -l, "thread###92", a GitHub
		// notes repository), the loop of JDK-8080255. Alone it is not
		// taken: a healthy put into a tree bin rebalances too
		// (testdata/verdicts/hashset-busy-healthy/3.txt: one of four busy
		// writers there).
		{"jdk8 balanceInsertion under split", []string{"java.util.HashMap$TreeNode.balanceInsertion", "java.util.HashMap$TreeNode.treeify",
			"java.util.HashMap$TreeNode.split", "java.util.HashMap.resize", "java.util.HashMap.putVal", "java.util.HashMap.put",
			"com.gustavo.map.MultiThreadMap_Put$Putting.run"}, 0, 0, "java.util.HashMap$TreeNode.balanceInsertion", false},
		// JDK 21, cpu=140087.53ms elapsed=141.94s: a Korean write-up's
		// Pricing.quote, one thread of four still on CPU after 2 minutes:
		// the lifetime rule's, not the table's alone.
		{"jdk21 balanceInsertion with cpu", []string{"java.util.HashMap$TreeNode.balanceInsertion", "java.util.HashMap$TreeNode.treeify",
			"java.util.HashMap$TreeNode.split", "java.util.HashMap.resize", "java.util.HashMap.putVal", "java.util.HashMap.put", "Pricing.quote"},
			140087 * time.Millisecond, 141940 * time.Millisecond, "java.util.HashMap$TreeNode.balanceInsertion", false},
		// The same thread beside a thread in the parent walk (root): the
		// map is proven corrupted in this dump, and it is one more in it.
		{"jdk21 root", []string{"java.util.HashMap$TreeNode.root", "java.util.HashMap$TreeNode.putTreeVal", "java.util.HashMap.putVal",
			"java.util.HashMap.put", "Pricing.quote"}, 0, 0, "java.util.HashMap$TreeNode.root", true},
		// JDK 21 (jhsdb's frames, re-written as jstack's): adoptium/temurin-build#4428.
		{"jdk21 untreeify", []string{"java.util.HashMap.replacementNode", "java.util.HashMap$TreeNode.untreeify", "java.util.HashMap$TreeNode.split",
			"java.util.HashMap.resize", "java.util.HashMap.putVal", "java.util.HashMap.put"}, 0, 0, "java.util.HashMap$TreeNode.untreeify", true},
		// JDK 17, cpu=524424262.14ms elapsed=524446.40s: HtmlUnit/htmlunit#988,
		// a lookup in a tree bin: the find row; with its age printed, the
		// lifetime rule weighs its CPU (cpu≈elapsed), not this table.
		{"jdk17 find with cpu", []string{"java.util.HashMap$TreeNode.find", "java.util.HashMap$TreeNode.getTreeNode", "java.util.HashMap.getNode",
			"java.util.HashMap.containsKey", "org.htmlunit.corejs.javascript.Hashtable.has"}, 524424262 * time.Millisecond,
			524446400 * time.Millisecond, "java.util.HashMap$TreeNode.find", false},
		// The same as a javacore prints it: a CPU total, no age.
		{"javacore find with cpu", []string{"java.util.HashMap$TreeNode.find", "java.util.HashMap$TreeNode.getTreeNode", "java.util.HashMap.getNode",
			"java.util.HashMap.containsKey", "org.htmlunit.corejs.javascript.Hashtable.has"}, 957 * time.Second, 0,
			"java.util.HashMap$TreeNode.find", true},
		// The same find with no CPU printed (JDK 8): one thread in a lookup
		// is what a busy service shows too.
		{"find alone no cpu", []string{"java.util.HashMap$TreeNode.find", "java.util.HashMap$TreeNode.getTreeNode", "java.util.HashMap.getNode",
			"java.util.HashMap.containsKey", "org.htmlunit.corejs.javascript.Hashtable.has"}, 0, 0, "java.util.HashMap$TreeNode.find", false},
		// JDK 7's resize under HashSet.add: OpenTSDB/opentsdb#823 (JSON
		// thread dump, pool-6-thread-48).
		{"jdk7 transfer", []string{"java.util.HashMap.transfer", "java.util.HashMap.resize", "java.util.HashMap.addEntry", "java.util.HashMap.put",
			"java.util.HashSet.add", "net.opentsdb.core.SaltScanner$ScannerCB$1MatchCB.call"}, 0, 0, "java.util.HashMap.transfer", false},
		// JDK 7 get: alibaba/fastjson#713, one thread.
		{"jdk7 getEntry", []string{"java.util.HashMap.getEntry", "java.util.HashMap.get", "com.alibaba.fastjson.JSONObject.get"}, 0, 0,
			"java.util.HashMap.getEntry", false},
		// A busy put (testdata/verdicts/hashmap-busy-healthy/1.txt): the put
		// row, not alone.
		{"busy put", []string{"java.util.HashMap.resize", "java.util.HashMap.putVal", "java.util.HashMap.put", "com.example.hotloop.HashMapRace.index"}, 0, 0,
			"java.util.HashMap.putVal", false},
		// A busy thread that lived 10 days with 65 s of CPU, caught once in a
		// put: its age printed, no loop by the table.
		{"long-lived busy put", []string{"java.util.HashMap.putVal", "java.util.HashMap.put", "com.example.Cache.put"}, 65 * time.Second,
			240 * time.Hour, "java.util.HashMap.putVal", false},
		// A ConcurrentHashMap is no row: its own loops are not the table's.
		{"chm", []string{"java.util.concurrent.ConcurrentHashMap.putVal", "java.util.concurrent.ConcurrentHashMap.put", "com.example.Cache.put"}, 0, 0, "", false},
		// The loop's function below its window: the thread runs the
		// application's code the map called (a key's hashCode that parses).
		{"deep", []string{"com.example.Key.parse", "com.example.Key.parse", "com.example.Key.hashCode", "java.util.HashMap.hash",
			"java.util.HashMap.put", "com.example.App.run"}, 0, 0, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th := thread("RUNNABLE", tt.frames...)
			th.JVM = &parse.JVM{CPU: tt.cpu, Elapsed: tt.age}
			h := hotLoopOf(th, hotLoops)
			got := ""
			if h != nil {
				got = h.Func
			}
			if got != tt.row {
				t.Fatalf("row %q, want %q", got, tt.row)
			}
			alone := hotLoopThreads(&parse.Dump{Threads: []*parse.Thread{th}}, hotLoops)[th] != nil
			if alone != tt.alone {
				t.Errorf("alone %v, want %v", alone, tt.alone)
			}
			// Not RUNNABLE: never a loop.
			th.State = "BLOCKED"
			if hotLoopOf(th, hotLoops) != nil {
				t.Errorf("a BLOCKED thread in a loop row")
			}
		})
	}
}

// jstackLoop writes one jstack moment of a JDK 17 process: k "worker-N"
// threads RUNNABLE in a known loop's function (row's), with the loop's
// callees above it (0..above frames), b busy threads in the
// application's own code, and w threads waiting in a pool; cpu, when set,
// is every looping thread's printed cpu= (elapsed= ten times more, or a
// second more when lifetime: the lifetime rule's).
func jstackLoop(row HotLoop, k, above, b, w int, cpu time.Duration, lifetime bool) string {
	var s strings.Builder
	s.WriteString("2026-12-06 08:00:00\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n")
	id := 20
	head := func(name string, state string, cpu, elapsed time.Duration) {
		id++
		fmt.Fprintf(&s, "\"%s\" #%d prio=5 os_prio=0 cpu=%.2fms elapsed=%.2fs tid=0x00007f00000%04x nid=0x%x %s  [0x00007f0000000000]\n",
			name, id, float64(cpu)/float64(time.Millisecond), elapsed.Seconds(), id, 100+id, state)
	}
	tail := "\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n   Locked ownable synchronizers:\n\t- None\n\n"
	fn := concreteFunc(row.Func)
	i := strings.LastIndexByte(fn, '.')
	class, method := fn[:i], fn[i+1:]
	file := "HashMap.java"
	switch {
	case strings.Contains(class, "WeakHashMap"):
		file = "WeakHashMap.java"
	case strings.Contains(class, "IdentityHashMap"):
		file = "IdentityHashMap.java"
	}
	for i := 1; i <= k; i++ {
		age := 10*cpu + time.Second // a tenth of its life: not the lifetime rule's
		if lifetime {
			age = cpu + time.Second
		}
		head(fmt.Sprintf("worker-%d", i), "runnable", cpu, age)
		s.WriteString("   java.lang.Thread.State: RUNNABLE\n")
		for j := range above {
			fmt.Fprintf(&s, "\tat com.example.Key.compareTo%d(Key.java:%d)\n", j, 10+j)
		}
		fmt.Fprintf(&s, "\tat %s.%s(java.base@17.0.15/%s:%d)\n", class, method, file, 2000+i)
		s.WriteString("\tat com.example.Index.add(Index.java:40)\n\tat com.example.Worker.run(Worker.java:12)\n" + tail)
	}
	for i := 1; i <= b; i++ {
		head(fmt.Sprintf("busy-%d", i), "runnable", time.Second, 2*time.Second)
		fmt.Fprintf(&s, "   java.lang.Thread.State: RUNNABLE\n\tat com.example.Report.sum(Report.java:%d)\n\tat com.example.Report.run(Report.java:9)\n%s", 20+i, tail)
	}
	for i := 1; i <= w; i++ {
		head(fmt.Sprintf("idle-%d", i), "waiting on condition", time.Millisecond, 60*time.Second)
		s.WriteString("   java.lang.Thread.State: WAITING (parking)\n" +
			"\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n" +
			"\tat java.util.concurrent.locks.LockSupport.park(java.base@17.0.15/LockSupport.java:341)\n" +
			"\tat java.util.concurrent.LinkedBlockingQueue.take(java.base@17.0.15/LinkedBlockingQueue.java:435)\n" +
			"\tat java.util.concurrent.ThreadPoolExecutor.getTask(java.base@17.0.15/ThreadPoolExecutor.java:1062)\n" +
			"\tat java.util.concurrent.ThreadPoolExecutor.runWorker(java.base@17.0.15/ThreadPoolExecutor.java:1122)\n" +
			"\tat java.util.concurrent.ThreadPoolExecutor$Worker.run(java.base@17.0.15/ThreadPoolExecutor.java:635)\n" + tail)
	}
	return s.String()
}

// concreteFunc is a function a row's anchor takes, as a dump prints it: a
// leading "*." a package (high-scale-lib's), another '*' "Long".
func concreteFunc(anchor string) string {
	if rest, ok := strings.CutPrefix(anchor, "*."); ok {
		anchor = "org.cliffc.high_scale_lib." + rest
	}
	return strings.ReplaceAll(anchor, "*", "Long")
}

// javacoreLoop writes the same moment as jstackLoop in an OpenJ9
// javacore's thread section: state:R, each thread's CPU total
// (3XMCPUTIME) and no age; frames with '/' as javacores print them.
func javacoreLoop(row HotLoop, k, above, b, w int, cpu time.Duration) string {
	var s strings.Builder
	s.WriteString("NULL           ------------------------------------------------------------------------\n" +
		"0SECTION       THREADS subcomponent dump routine\nNULL           =================================\nNULL\n" +
		"1XMTHDINFO     Thread Details\nNULL\nNULL\n")
	id := 20
	head := func(name, state string, cpu time.Duration) {
		id++
		fmt.Fprintf(&s, "3XMTHREADINFO      \"%s\" J9VMThread:0x0000000000%06X, omrthread_t:0x00007F3F8C%06X, java/lang/Thread:0x00000000FFF%05X, state:%s, prio=5\n",
			name, id, id, id, state)
		fmt.Fprintf(&s, "3XMJAVALTHREAD            (java/lang/Thread getId:0x%X, isDaemon:false)\n", id)
		fmt.Fprintf(&s, "3XMTHREADINFO1            (native thread ID:0x%X, native priority:0x5, native policy:UNKNOWN, vmstate:%s, vm thread flags:0x00000020)\n", 0x6000+id, state)
		fmt.Fprintf(&s, "3XMCPUTIME               CPU usage total: %.9f secs, current category=\"Application\"\n", cpu.Seconds())
		s.WriteString("3XMTHREADINFO3           Java callstack:\n")
	}
	at := func(frame string) { fmt.Fprintf(&s, "4XESTACKTRACE                at %s\n", frame) }
	end := func() { s.WriteString("NULL\n") }
	fn := concreteFunc(row.Func)
	class, method := fn[:strings.LastIndexByte(fn, '.')], fn[strings.LastIndexByte(fn, '.')+1:]
	for i := 1; i <= k; i++ {
		head(fmt.Sprintf("worker-%d", i), "R", cpu)
		for j := range above {
			at(fmt.Sprintf("com/example/Key.compareTo%d(Key.java:%d)", j, 10+j))
		}
		at(fmt.Sprintf("%s.%s(HashMap.java:%d(Compiled Code))", strings.ReplaceAll(class, ".", "/"), method, 2000+i))
		at("com/example/Index.add(Index.java:40)")
		at("com/example/Worker.run(Worker.java:12)")
		end()
	}
	for i := 1; i <= b; i++ {
		head(fmt.Sprintf("busy-%d", i), "R", time.Second)
		at(fmt.Sprintf("com/example/Report.sum(Report.java:%d)", 20+i))
		at("com/example/Report.run(Report.java:9)")
		end()
	}
	for i := 1; i <= w; i++ {
		head(fmt.Sprintf("idle-%d", i), "P", time.Millisecond)
		at("jdk/internal/misc/Unsafe.park(Native Method)")
		at("java/util/concurrent/locks/LockSupport.park(LockSupport.java:341)")
		at("java/util/concurrent/LinkedBlockingQueue.take(LinkedBlockingQueue.java:435)")
		at("java/util/concurrent/ThreadPoolExecutor.getTask(ThreadPoolExecutor.java:1062)")
		at("java/util/concurrent/ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1122)")
		at("java/util/concurrent/ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:635)")
		at("java/lang/Thread.run(Thread.java:840)")
		end()
	}
	return s.String()
}

// TestHotLoopProperty derives the one-dump rule from generated dumps: k
// threads in a row's function (its callees 0..Top-1 frames above it, or
// just below its window), with busy and idle threads beside them, as
// jstack (cpu= a tenth of elapsed=: a busy service's) or as a javacore
// (a CPU total, no age: 5 s, or past HotLoopCPU). One spinning finding of
// the k threads when k reaches the row's Threads, or, in a javacore, the
// CPU total is past HotLoopCPU; none when the function is below the
// window. The busy and idle threads never change it. A jstack thread
// whose cpu= is most of its elapsed= is the lifetime rule's, whatever its
// frames (checked too).
func TestHotLoopProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(27))
	for i := range 400 {
		row := hotLoops[rng.Intn(len(hotLoops))]
		k := rng.Intn(5)
		above := rng.Intn(row.Top) // within the row's window
		deep := rng.Intn(4) == 0   // or just below it
		if deep {
			above = row.Top
		}
		b, w := rng.Intn(4), rng.Intn(6)
		var text string
		want := 0
		switch rng.Intn(3) {
		case 0: // jstack, a busy service's cpu=
			text = jstackLoop(row, k, above, b, w, 50*time.Millisecond, false)
			if !deep && k >= row.Threads {
				want = k
			}
		case 1: // jstack, cpu= most of elapsed=: the lifetime rule
			text = jstackLoop(row, k, above, b, w, 100*time.Second, true)
			want = k
		default: // javacore, a CPU total and no age
			hot := rng.Intn(2) == 0
			cpu := 5 * time.Second
			if hot {
				cpu = (HotLoopCPU + 897) * time.Second // 957 s
			}
			text = javacoreLoop(row, k, above, b, w, cpu)
			// A javacore without its TITLE section is a cut (an excerpt
			// from its THREADS section): a walk of an Alone row on top,
			// nothing else running, is the loop too (cutAlone).
			if !deep && (k >= row.Threads || hot || row.Alone && above == 0 && b == 0) {
				want = k
			}
		}
		ds, err := parse.Parse("1.txt", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for _, f := range Analyze([]Input{{Dump: ds[0]}}, Options{}).Findings {
			if f.Kind == KindSpinning {
				if f.Basis != "loop-shape" && f.Basis != "loop-shape-cut" && f.Basis != "cpu-lifetime" {
					t.Errorf("#%d: basis %q", i, f.Basis)
				}
				got += f.Counts[0]
			}
		}
		if got != want {
			t.Fatalf("#%d %s k=%d above=%d deep=%v: %d spinning, want %d\n%s", i, row.Func, k, above, deep, got, want, text)
		}
	}
}

// TestHotLoopFixtures runs the real program of testdata/verdicts/hashmap-*
// (a HashMap written by four threads at once, looping in untreeify, and in
// another run in root and balanceInsertion; the same puts into maps of
// their own), each README written from the program's source, its own
// report of the looping thread and the raw dumps.
func TestHotLoopFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	// indexer-3 loops in untreeify, which proves the map corrupted in the
	// dump; indexer-4, in putTreeVal at both moments (a row that asks four
	// threads alone), is one more in it.
	loop := []want{{KindSpinning, "indexer-*", "running", func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "loop-shape")
		eq(t, "count", f.Counts[len(f.Counts)-1], 2)
		eq(t, "threads", strings.Join(f.Evidence[len(f.Evidence)-1].Threads, ","), "indexer-3,indexer-4")
		eq(t, "loop", strings.Contains(strings.Join(f.Loop, " "), "java.util.HashMap$TreeNode.untreeify("), true)
	}}}
	root := func(moments int) []want {
		return []want{{KindSpinning, "indexer-*", "running", func(t *testing.T, f Finding) {
			eq(t, "count", f.Counts[len(f.Counts)-1], 4)
			eq(t, "since", f.Since, 0)
			// They run in the map's loop; the culprit is the application
			// frame that shares the map (issue 33).
			eq(t, "frame", strings.HasPrefix(f.Frame, "java.util.HashMap$TreeNode.root("), true)
			eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.hotloop."), true)
			if moments == 1 {
				eq(t, "basis", f.Basis, "loop-shape")
			}
		}}}
	}
	runFixtureCases(t, dir, []fixtureCase{
		{"hashmap-loop-stuck", []string{"1"}, loop},
		{"hashmap-loop-stuck", []string{"2"}, loop},
		// Off CPU between them (the collector had the cores), yet in the
		// same endless loop at both: spinning by its shape.
		{"hashmap-loop-stuck", []string{"1", "2"}, loop},
		// indexer-3 is gone at 3 (its loop's OutOfMemoryError ended it).
		{"hashmap-loop-stuck", []string{"1", "2", "3"}, nil},
		// The classic tree-bin loops, all four indexers, starved to 5% CPU.
		{"hashmap-root-stuck", []string{"1"}, root(1)},
		{"hashmap-root-stuck", []string{"3"}, root(1)},
		{"hashmap-root-stuck", []string{"1", "2", "3"}, root(3)},
		{"hashmap-busy-healthy", []string{"1"}, nil},
		{"hashmap-busy-healthy", []string{"2"}, nil},
		{"hashmap-busy-healthy", []string{"3"}, nil},
	})
}

// TestHotLoopOtherCollections runs the real program of
// testdata/verdicts/{treemap,hashset,identity}-* (CollectionRace: a
// TreeMap, a HashSet or an IdentityHashMap written by four threads at
// once; the same writes into one each) and nbhm-busy-healthy (JCTools'
// NonBlockingHashMap shared, as it is made to be),
// each README written from the program's report and a grep of the dumps
// before dumpdiff ran. One dump of the busy controls is never a loop: a
// HashSet's busy writers showed three in putTreeVal and one in
// balanceInsertion at once (3.txt), which the rows ask more than; an
// IdentityHashMap's, two in put's probe and one in a resize under put.
func TestHotLoopOtherCollections(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	spin := func(culprit string, n int, threads string) want {
		return want{KindSpinning, "writer-*", "running", func(t *testing.T, f Finding) {
			eq(t, "frame", strings.HasPrefix(f.Frame, culprit+"("), true)
			eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.hotloop."), true)
			eq(t, "count", f.Counts[len(f.Counts)-1], n)
			eq(t, "threads", strings.Join(f.Evidence[len(f.Evidence)-1].Threads, ","), threads)
		}}
	}
	// Three writers in put's walk prove the tree corrupted; writer-1, in
	// successor (a row asking three alone), is one more in it.
	tree := []want{spin("java.util.TreeMap.successor", 1, "writer-1"), spin("java.util.TreeMap.put", 3, "writer-2,writer-3,writer-4")}
	set := []want{spin("java.util.HashMap$TreeNode.putTreeVal", 4, "writer-1,writer-2,writer-3,writer-4")}
	identity := []want{spin("java.util.IdentityHashMap.put", 4, "writer-1,writer-2,writer-3,writer-4")}
	var cases []fixtureCase
	for _, m := range []string{"1", "2", "3"} {
		cases = append(cases, fixtureCase{"treemap-loop-stuck", []string{m}, tree}, fixtureCase{"hashset-loop-stuck", []string{m}, set},
			fixtureCase{"identity-loop-stuck", []string{m}, identity},
			fixtureCase{"treemap-busy-healthy", []string{m}, nil}, fixtureCase{"hashset-busy-healthy", []string{m}, nil},
			fixtureCase{"identity-busy-healthy", []string{m}, nil}, fixtureCase{"nbhm-busy-healthy", []string{m}, nil})
	}
	cases = append(cases, fixtureCase{"treemap-loop-stuck", []string{"1", "2", "3"}, tree}, fixtureCase{"hashset-loop-stuck", []string{"1", "2", "3"}, set},
		fixtureCase{"identity-loop-stuck", []string{"1", "2", "3"}, identity},
		fixtureCase{"identity-busy-healthy", []string{"1", "2", "3"}, nil}, fixtureCase{"nbhm-busy-healthy", []string{"1", "2", "3"}, nil})
	runFixtureCases(t, dir, cases)
}

// TestHotLoopProven: a row with its threads proves its structure
// corrupted in the dump, and then every thread in a row of the same
// structure is in the loop, however few (a remove walking the cycle three
// puts walk); without the proof the few are not taken, and a row of
// another structure is never joined. Generated over every pair of rows.
func TestHotLoopProven(t *testing.T) {
	for _, a := range hotLoops {
		for _, b := range hotLoops {
			if a.Func == b.Func || b.Threads == 1 {
				continue
			}
			// a's threads (enough for a), then one thread in b's row.
			var s strings.Builder
			s.WriteString(jstackLoop(a, a.Threads, 0, 1, 1, 50*time.Millisecond, false))
			lone := jstackLoop(b, 1, 0, 0, 0, 50*time.Millisecond, false)
			lone = strings.Replace(lone[strings.Index(lone, "\"worker-1\""):], "\"worker-1\" #21", "\"lone-1\" #99", 1)
			s.WriteString(lone)
			ds, err := parse.Parse("1.txt", strings.NewReader(s.String()))
			if err != nil {
				t.Fatal(err)
			}
			hot := hotLoopThreads(ds[0], hotLoops)
			joined := false
			for th := range hot {
				joined = joined || th.Name() == "lone-1"
			}
			if want := a.Structure == b.Structure; joined != want {
				t.Errorf("%s ×%d beside one in %s: joined %v, want %v", a.Func, a.Threads, b.Func, joined, want)
			}
			if len(hot) < a.Threads {
				t.Errorf("%s ×%d: %d taken", a.Func, a.Threads, len(hot))
			}
		}
	}
}

// TestHotLoopMoments: across moments, a lookup or put row (Threads > 1)
// needs the very threads in it at every moment they were seen (a busy
// thread moves on; one in the loop stays), while a tree bin's loop needs
// only the last; a measured CPU share does not veto either.
func TestHotLoopMoments(t *testing.T) {
	for _, row := range hotLoops {
		for _, before := range []bool{true, false} { // in the row's window at the moment before
			above := 0
			if !before {
				above = row.Top // the same threads, elsewhere (below the window)
			}
			var in []Input
			k := max(3, row.Threads)
			for m, text := range []string{jstackLoop(row, k, above, 1, 1, 50*time.Millisecond, false),
				jstackLoop(row, k, 0, 1, 1, 60*time.Millisecond, false)} {
				ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(text))
				if err != nil {
					t.Fatal(err)
				}
				in = append(in, Input{Dump: ds[0]})
			}
			want := 0
			if before || row.Threads == 1 {
				want = k
			}
			got := 0
			for _, f := range Analyze(in, Options{}).Findings {
				if f.Kind == KindSpinning {
					got += f.Counts[1]
				}
			}
			if got != want {
				t.Errorf("%s, in it before %v: %d spinning, want %d", row.Func, before, got, want)
			}
		}
	}
}

// TestHotLoopRowsFromSignaturesFile: a signatures file's [hot-loop] rows
// join the table (Roles.HotLoops): over generated dumps of k threads
// RUNNABLE in a team's own map's probe (0–4, under 0–2 frames of its
// callees, among busy peers elsewhere), the dump is spinning by the loop's
// shape exactly when k reaches the row's threads, named by the
// application frame that shares the map (the culprit) and the row's
// structure; without the file, never.
func TestHotLoopRowsFromSignaturesFile(t *testing.T) {
	rng := rand.New(rand.NewSource(3361))
	for w := range 80 {
		need := 1 + rng.Intn(3)
		file := fmt.Sprintf("[hot-loop]\nfunc = com.acme.cache.LruMap.findSlot\ntop = 3\nthreads = %d\nstructure = an Acme LruMap written by several threads at once\nsource = ACME-%d\n", need, w)
		ext, err := ParseExtensions(strings.NewReader(file), "acme.sig")
		if err != nil {
			t.Fatal(err)
		}
		k := rng.Intn(5)
		var b strings.Builder
		b.WriteString("2026-12-07 22:40:00\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\n")
		for i := range 4 {
			fmt.Fprintf(&b, "\"lookup-%d\" #%d prio=5 os_prio=0 tid=0x00007f00000%04x nid=0x%x runnable  [0x00007f0000000000]\n   java.lang.Thread.State: RUNNABLE\n", i+1, 20+i, i, 100+i)
			if i < k {
				for j := range rng.Intn(3) {
					fmt.Fprintf(&b, "\tat com.acme.cache.Key%d.equals(Key%d.java:12)\n", j, j)
				}
				b.WriteString("\tat com.acme.cache.LruMap.findSlot(LruMap.java:88)\n\tat com.acme.cache.LruMap.get(LruMap.java:40)\n")
			} else {
				fmt.Fprintf(&b, "\tat com.acme.report.Render.row%d(Render.java:%d)\n", i, 10+rng.Intn(40))
			}
			fmt.Fprintf(&b, "\tat com.acme.app.Lookups.serve(Lookups.java:%d)\n\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n", 60+i)
		}
		ds, err := parse.Parse("1.txt", strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		for _, withFile := range []bool{false, true} {
			opt := Options{}
			if withFile {
				opt.Extensions = ext
			}
			var spun []Finding
			for _, f := range Analyze([]Input{{Dump: ds[0]}}, opt).Findings {
				if f.Kind == KindSpinning {
					spun = append(spun, f)
				}
			}
			want := withFile && k >= need
			if (len(spun) > 0) != want {
				t.Fatalf("world %d (k=%d, threads=%d, file %v): %d spinning findings, want %v\n%s", w, k, need, withFile, len(spun), want, b.String())
			}
			n := 0
			for _, f := range spun {
				n += f.Counts[0]
				eq(t, "basis", f.Basis, "loop-shape")
				eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.acme.app.Lookups.serve("), true)
				eq(t, "known", f.Known != nil && f.Known.Source == fmt.Sprintf("ACME-%d", w), true)
			}
			if want && n != k {
				t.Errorf("world %d: %d threads spinning, want %d", w, n, k)
			}
		}
	}
}

// TestHotLoopScalaMap runs the real program of testdata/verdicts/scalamap-*
// (a Scala 2.11 mutable.HashMap written by four Java 17 threads at once
// until each loops in its HashTable, the program's own report; the same
// operations on a map each), READMEs written before dumpdiff ran: each
// dump of the loop alone (the loop's shape: two in removeEntry prove the
// map corrupted, the ones in findEntry0 and resize are more in it) and
// the three together (their CPU grew in the same frames) name the four
// threads, the culprit the application frame that shares the map; the
// control stays quiet in each of its six dumps and over them.
func TestHotLoopScalaMap(t *testing.T) {
	loop := func(basis string) []want {
		return []want{{KindSpinning, "session-*", "running", func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, basis)
			eq(t, "severity", f.Severity, Warning)
			eq(t, "count", f.Counts[len(f.Counts)-1], 4)
			eq(t, "culprit", strings.HasPrefix(f.Culprit, "com.example.scalamap.ScalaMapRace.track("), true)
			eq(t, "frame", strings.HasPrefix(f.Frame, "scala.collection.mutable.HashTable$class."), true)
			eq(t, "known", f.Known != nil && strings.Contains(f.Known.Structure, "scala.collection.mutable.HashMap"), true)
		}}}
	}
	cases := []fixtureCase{{"scalamap-loop-stuck", []string{"1", "2", "3"}, loop("cpu-growth")}, {"scalamap-busy-healthy", []string{"1", "2", "3", "4", "5", "6"}, nil}}
	for _, m := range []string{"1", "2", "3"} {
		cases = append(cases, fixtureCase{"scalamap-loop-stuck", []string{m}, loop("loop-shape")})
	}
	for _, m := range []string{"1", "2", "3", "4", "5", "6"} {
		cases = append(cases, fixtureCase{"scalamap-busy-healthy", []string{m}, nil})
	}
	runFixtureCases(t, filepath.Join("..", "testdata", "verdicts"), cases)
}
