package analyze

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The role tables a detector reads (Roles.PoolLoops, BackOffs, HandOffs)
// are a team's to extend: these tests take real fixtures, rename the
// frames a built-in table knows to an invented com.acme class (so the
// built-in table no longer matches, and the verdict is lost), then add
// the [roles] line a team would write, and get the verdict back.

// roleRename renames one frame function to class cls of com.acme: its new
// name and the [roles] key that teaches it, or "" when the table does not
// know fn.
type roleRename func(fn, cls string) (to, key string)

// backOffRename renames a frame of backOffFrames (Thread.yield, a
// tryLock): a team's own back-off helper in its place.
func backOffRename(fn, cls string) (string, string) {
	if slices.Contains(backOffFrames, fn) {
		return "com.acme." + cls + "." + fn[strings.LastIndexByte(fn, '.')+1:], "back-off"
	}
	return "", ""
}

// handOffRename renames the frames of the hand-off kinds the entry thread
// (main) of in waits in: a team's own exchanger, barrier or queue in place
// of the JDK's, wherever the JDK's class is on a stack. A Condition's
// await and a monitor's wait are what a team's hand-off itself waits in:
// not renamed.
func handOffRename(in []Input) roleRename {
	var rows []*peerWait
	for _, x := range in {
		for _, t := range x.Dump.Threads {
			if pw := peerWaitOf(t, &builtinRoles); pw != nil && entryWait(t) && pw.Kind != "condition" && pw.Kind != "monitor" && !slices.Contains(rows, pw) {
				rows = append(rows, pw)
			}
		}
	}
	return func(fn, cls string) (string, string) {
		for _, pw := range rows {
			if anchorMatch(pw.Anchors, fn) {
				return "com.acme." + cls + "." + fn[strings.LastIndexByte(fn, '.')+1:], handOffKeyPrefix + pw.Kind
			}
		}
		return "", ""
	}
}

// applyRename renames in's frames by rn to class cls and returns the
// [roles] block that teaches the new names back.
func applyRename(in []Input, rn roleRename, cls string) string {
	lines := map[string][]string{}
	for _, x := range in {
		for _, t := range x.Dump.Threads {
			for _, f := range t.Frames {
				to, key := rn(f.Func, cls)
				if to == "" {
					continue
				}
				f.Func = to
				if !slices.Contains(lines[key], to) {
					lines[key] = append(lines[key], to)
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString("[roles]\n")
	keys := make([]string, 0, len(lines))
	for k := range lines {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s = %s\n", k, strings.Join(lines[k], ", "))
	}
	return b.String()
}

// verdictOf is what a Result says: its findings' kind, pool, basis and
// severity; not their culprit or remedy, which name the renamed frames.
func verdictOf(r *Result) string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, fmt.Sprintf("%s %s %s %s", f.Kind, f.Pool, f.Basis, f.Severity))
	}
	slices.Sort(out)
	return strings.Join(out, "; ")
}

// randomClass is an invented class name: a package and a class of random
// letters, so that no table, built-in or a test's, can know it.
func randomClass(rng *rand.Rand) string {
	word := func(first byte, n int) string {
		b := []byte{first}
		for range n {
			b = append(b, byte('a'+rng.IntN(26)))
		}
		return string(b)
	}
	return word(byte('a'+rng.IntN(26)), 2+rng.IntN(6)) + "." + word(byte('A'+rng.IntN(26)), 3+rng.IntN(8))
}

func mustExtensions(t *testing.T, text string) *Extensions {
	t.Helper()
	ext, err := ParseExtensions(strings.NewReader(text), "team.signatures")
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return ext
}

// stateRows are the [signature] rows a team writes beside its [roles]
// line where the JDK class it replaced also names a state (a barrier's
// wait, a join): the built-in rows the old frames matched, anchored at the
// new ones (renames: old function to new).
func stateRows(renames map[string]string) []Signature {
	var out []Signature
	for _, s := range signatures {
		var anchors []string
		for old, to := range renames {
			if anchorMatch(s.Anchors, old) && !slices.Contains(anchors, to) {
				anchors = append(anchors, to)
			}
		}
		if anchors != nil {
			slices.Sort(anchors)
			c := s
			c.Anchors = anchors
			out = append(out, c)
		}
	}
	return out
}

// TestRolesExtendRenamed: for real fixtures whose verdict a role table
// decides (testdata/verdicts: a hand-off main waits on with nobody left to
// serve it, a retry loop that backs off in Thread.yield), and random
// invented class names: renamed, the verdict is lost; with the [roles]
// line, it is back, the same kind, pool, basis and severity. Where the
// JDK's class also names a state (a barrier, a join, a latch: sig), the
// team's [signature] rows for it come beside the line. The healthy
// controls of the same programs stay quiet, renamed and taught.
func TestRolesExtendRenamed(t *testing.T) {
	const names = 6 // random class names per fixture and moments
	rng := rand.New(rand.NewPCG(33, uint64(len(peerWaits))))
	cases := 0
	for _, tt := range []struct {
		dir  string
		kind string // "handoff" or "back-off"
		sig  bool   // the renamed class also names a state: its [signature] rows too
	}{
		{"handoff-exchanger-stuck", "handoff", false}, {"handoff-fullput-stuck", "handoff", false},
		{"handoff-phaser-stuck", "handoff", false}, {"handoff-syncput-stuck", "handoff", false},
		{"handoff-terminate-stuck", "handoff", false}, {"handoff-transfer-stuck", "handoff", false},
		{"handoff-barrier-stuck", "handoff", true}, {"handoff-join-stuck", "handoff", true},
		{"handoff-latchpeer-stuck", "handoff", true},
		{"progress-livelock-yield-stuck", "back-off", false}, {"jdk25-progress-livelock-yield-stuck", "back-off", false},
		// Healthy controls: quiet as they are, and renamed and taught.
		{"handoff-exchanger-healthy", "handoff", true}, {"handoff-fullput-healthy", "handoff", true},
		{"handoff-syncput-healthy", "handoff", true}, {"handoff-terminate-healthy", "handoff", true},
		{"handoff-barrier-healthy", "handoff", true}, {"handoff-join-healthy", "handoff", true},
		{"handoff-latch-healthy", "handoff", true}, {"handoff-latchpeer-healthy", "handoff", true},
		{"progress-livelock-yield-healthy", "back-off", false},
	} {
		dir := filepath.Join("..", "testdata", "verdicts", tt.dir)
		healthy := strings.HasSuffix(tt.dir, "-healthy")
		for _, moments := range [][]string{{"1", "2", "3"}, {"2", "3"}} {
			t.Run(tt.dir+"/"+strings.Join(moments, ""), func(t *testing.T) {
				v0 := verdictOf(Analyze(loadMoments(t, dir, moments), Options{}))
				if (v0 == "") != healthy {
					t.Fatalf("the fixture itself says %q", v0)
				}
				for range names {
					cls := randomClass(rng)
					in := loadMoments(t, dir, moments)
					rn := backOffRename
					if tt.kind == "handoff" {
						rn = handOffRename(in)
					}
					renames := map[string]string{}
					for _, x := range in {
						for _, th := range x.Dump.Threads {
							for _, f := range th.Frames {
								if to, _ := rn(f.Func, cls); to != "" {
									renames[f.Func] = to
								}
							}
						}
					}
					roles := applyRename(in, rn, cls)
					if !healthy && !strings.Contains(roles, tt.kind) {
						t.Fatalf("nothing renamed: %s", roles)
					}
					if v1 := verdictOf(Analyze(in, Options{})); !healthy && v1 == v0 {
						t.Fatalf("renamed to %s, the verdict stays without the [roles] line: %s", cls, v1)
					}
					ext := mustExtensions(t, roles)
					if tt.sig {
						ext.Signatures = stateRows(renames)
					}
					if v2 := verdictOf(Analyze(in, Options{Extensions: ext})); v2 != v0 {
						t.Errorf("renamed to %s, with\n%s\nthe verdict is %q, want %q", cls, roles, v2, v0)
					}
					cases++
				}
			})
		}
	}
	t.Logf("%d renamed cases", cases)
}

// TestRolesExtendPoolLoop: a team's own executor. The real thread-per-task
// crowds (crowd-spawn: 700 threads each made for its request;
// crowd-supply: 600 supplyAsync tasks on threads of their own) are given a
// pool loop of an invented class under their task, as a team's worker that
// runs one task after another would have: unknown, it is still called a
// thread per task (the built-in poolLoops do not know it); with its
// "pool-loop" line, its threads are pooled and the explosion is gone.
func TestRolesExtendPoolLoop(t *testing.T) {
	const names = 6
	rng := rand.New(rand.NewPCG(33, 7))
	cases := 0
	for _, dir := range []string{"crowd-spawn", "crowd-supply"} {
		path := filepath.Join("..", "testdata", "verdicts", dir)
		for _, moments := range [][]string{{"1"}, {"1", "2", "3"}} {
			t.Run(dir+"/"+strings.Join(moments, ""), func(t *testing.T) {
				for range names {
					loop := "com.acme." + randomClass(rng) + ".runLoop"
					in := loadMoments(t, path, moments)
					for _, x := range in {
						for _, th := range x.Dump.Threads {
							if n := len(th.Frames); n > 0 && th.Frames[n-1].Func == "java.lang.Thread.run" && !th.Virtual {
								th.Frames = slices.Insert(th.Frames, n-1, &parse.Frame{Func: loop})
							}
						}
					}
					crowd := func(r *Result) bool {
						return slices.ContainsFunc(r.Findings, func(f Finding) bool { return f.Basis == BasisCrowd })
					}
					if !crowd(Analyze(in, Options{})) {
						t.Fatalf("under %s, unknown, no thread-per-task crowd", loop)
					}
					if r := Analyze(in, Options{Extensions: mustExtensions(t, "[roles]\npool-loop = "+loop+"\n")}); crowd(r) {
						t.Errorf("with pool-loop = %s, still a thread-per-task crowd: %s", loop, verdictOf(r))
					}
					cases++
				}
			})
		}
	}
	t.Logf("%d pool-loop cases", cases)
}

// TestRolesExtendHealthyQuiet: the healthy JVM controls of
// testdata/verdicts say the same with a signatures file that adds random
// invented frames to every new [roles] key as without one.
func TestRolesExtendHealthyQuiet(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every healthy fixture")
	}
	rng := rand.New(rand.NewPCG(33, 9))
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "verdicts", "*healthy*"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, dir := range dirs {
		var moments []string
		for _, m := range []string{"1", "2", "3"} {
			if _, err := os.Stat(filepath.Join(dir, m+".txt")); err == nil {
				moments = append(moments, m)
			}
		}
		if len(moments) == 0 {
			continue
		}
		in := loadMoments(t, dir, moments)
		r0 := Analyze(in, Options{})
		if r0.Runtime != parse.RuntimeJVM {
			continue
		}
		var b strings.Builder
		b.WriteString("[roles]\n")
		fmt.Fprintf(&b, "pool-loop = com.acme.%s.runLoop\nback-off = com.acme.%s.pause\n", randomClass(rng), randomClass(rng))
		for _, pw := range peerWaits {
			fmt.Fprintf(&b, "%s%s = com.acme.%s.await\n", handOffKeyPrefix, pw.Kind, randomClass(rng))
		}
		v0, v1 := verdictOf(r0), verdictOf(Analyze(in, Options{Extensions: mustExtensions(t, b.String())}))
		if v0 != v1 {
			t.Errorf("%s: %q with the extension, %q without", filepath.Base(dir), v1, v0)
		}
		n++
	}
	t.Logf("%d healthy JVM controls", n)
}

// TestRolesExtendKeys: the new [roles] keys parse into their tables, and a
// bad key or value is refused with its file and line, the rest still read.
func TestRolesExtendKeys(t *testing.T) {
	ext, err := ParseExtensions(strings.NewReader(`[roles]
pool-loop     = com.acme.exec.Worker.loop, com.acme.exec.Other
back-off      = com.acme.retry.Spin.pause
handoff-latch = com.acme.sync.Gate.await
handoff-queue-take = com.acme.sync.Mailbox.take*
`), "team.signatures")
	if err != nil {
		t.Fatal(err)
	}
	r := roleTables(ext)
	for _, tt := range []struct {
		table []string
		entry string
	}{
		{r.PoolLoops, "com.acme.exec.Worker.loop"}, {r.PoolLoops, "com.acme.exec.Other"}, {r.BackOffs, "com.acme.retry.Spin.pause"},
		{r.HandOffs["latch"], "com.acme.sync.Gate.await"}, {r.HandOffs["queue-take"], "com.acme.sync.Mailbox.take*"},
	} {
		if !slices.Contains(tt.table, tt.entry) {
			t.Errorf("%q not added: %v", tt.entry, tt.table)
		}
	}
	for _, e := range poolLoops {
		if !slices.Contains(r.PoolLoops, e) {
			t.Errorf("pool loops lost built-in %q", e)
		}
	}
	for _, e := range backOffFrames {
		if !slices.Contains(r.BackOffs, e) {
			t.Errorf("back-offs lost built-in %q", e)
		}
	}
	// Where they are read: a thread under the team's gate waits on a latch,
	// as one under the JDK's; a thread under its loop is pooled.
	gate := thread("WAITING", "jdk.internal.misc.Unsafe.park", "com.acme.sync.Gate.await", "com.acme.App.main")
	if pw := peerWaitOf(gate, r); pw == nil || pw.Kind != "latch" {
		t.Errorf("under the team's gate: %+v, want the latch row", pw)
	}
	if pw := peerWaitOf(gate, &builtinRoles); pw != nil {
		t.Errorf("without the file, the team's gate is %+v", pw)
	}
	worker := thread("RUNNABLE", "java.net.SocketInputStream.read", "com.acme.App.handle", "com.acme.exec.Worker.loop", "java.lang.Thread.run")
	if unpooled(worker, r.PoolLoops) == unpooled(worker, builtinRoles.PoolLoops) {
		t.Error("the team's pool loop changes nothing")
	}

	// Every bad line, with its position.
	_, err = ParseExtensions(strings.NewReader(`[roles]
handoff-latches = com.acme.Gate.await
pool-loop =
back-off = com.acme.Spin pause
handoff-barrier = com.acme.Barrier.await
pool-loops = x
`), "team.signatures")
	for _, want := range []string{
		`team.signatures:2: unknown [roles] key "handoff-latches"`,
		`team.signatures:3: [roles] key "pool-loop" without a value`,
		`team.signatures:4: [roles] back-off "com.acme.Spin pause": a frame has no spaces`,
		`team.signatures:6: unknown [roles] key "pool-loops"`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %s", err, want)
		}
	}
	if err != nil && strings.Contains(err.Error(), ":5:") {
		t.Errorf("a good line refused: %v", err)
	}
	// The error lists the keys a team may use, the hand-off kinds among them.
	if err == nil || !strings.Contains(err.Error(), "handoff-latch, handoff-monitor") || !strings.Contains(err.Error(), "pool-loop") {
		t.Errorf("error %v does not list the keys", err)
	}
}
