package analyze

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// pasteShapes are the ways people paste a dump (verdict_shapes_test.go):
// as written, each line behind a docker-compose prefix, indented as a
// Markdown code block.
var pasteShapes = []func(string) string{
	func(s string) string { return s },
	func(s string) string { return eachLine(s, "app-1  | ") },
	func(s string) string { return eachLine(s, "    ") },
}

func eachLine(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// randomName is a function name of the application's package pkg:
// pkg.<word><n>.
func randomName(rng *rand.Rand, pkg string) string {
	words := []string{"reserve", "settle", "audit", "commit", "flush", "janitor", "reap", "sweep", "tick", "index", "ship", "bill"}
	return fmt.Sprintf("%s.%s%d", pkg, words[rng.IntN(len(words))], rng.IntN(1000))
}

// goSleeper writes a goroutine asleep in fn's loop (time.Sleep called by fn).
func goSleeper(b *strings.Builder, id int, fn string, line int) {
	fmt.Fprintf(b, "goroutine %d [sleep]:\ntime.Sleep(0x5f5e100)\n\t/usr/local/go/src/runtime/time.go:363 +0x165\n"+
		"%s(0x0)\n\t/src/app/main.go:%d +0xa5\ncreated by main.main in goroutine 1\n\t/src/app/main.go:220 +0x4d5\n\n", id, fn, line)
}

// TestLockCycleAsleepProperty (issue 33, "cycles of every kind", "the
// holder first"; go-lock-asleep): random worlds of an AB-BA (or longer)
// ring of mutex waiters, each in a function of its own with a random
// name in a random package, bystanders queued on the ring's locks at
// shared places, an accept loop and idle workers at rest, and 1 to
// AsleepHoldersMax goroutines asleep in their loops beside them, pasted
// as written, behind a compose prefix or indented. The ring is told as a
// likely cycle with the sleepers named as the other candidate holders:
// a warning in one dump, critical when every member printed a minute or
// the same goroutines wait the same way at two moments (or held-pair's
// stronger word, for a pair with nothing else staying). Never told: the
// waiters moved on by the next moment (other ids at the ring's lines:
// a sleeper that held a lock let it go), a crowd of sleepers over
// AsleepHoldersMax, a goroutine of the application running. Seeded.
func TestLockCycleAsleepProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 2026))
	kinds := []string{"one", "two", "aged", "moved", "crowd", "running", "cut"}
	told := map[string]int{}
	for c := range 350 {
		kind := kinds[c%len(kinds)]
		shape := pasteShapes[rng.IntN(len(pasteShapes))]
		pkg := []string{"main", "example/app", "github.com/acme/shop/internal/orders"}[rng.IntN(3)]
		n := 2 + rng.IntN(2)
		var fns []string
		for len(fns) < n {
			if f := randomName(rng, pkg); !slices.Contains(fns, f) {
				fns = append(fns, f)
			}
		}
		sleepers := 1 + rng.IntN(AsleepHoldersMax)
		if kind == "crowd" {
			sleepers = AsleepHoldersMax + 1 + rng.IntN(3)
		}
		var sleepFns []string
		for range sleepers {
			sleepFns = append(sleepFns, randomName(rng, pkg)+"Loop")
		}
		bystanders := rng.IntN(3)
		workers := rng.IntN(4)
		addr := func(i int) string { return fmt.Sprintf("0x%x", 0xa577b0+0x930*i) }
		// world writes one moment; base shifts the ring's ids (other
		// goroutines at the same lines).
		world := func(base int) (string, []string, []string) {
			var b strings.Builder
			id := base
			var ring, asleep []string
			minutes := 0
			if kind == "aged" {
				minutes = 1 + rng.IntN(5)
			}
			for i, fn := range fns {
				goMutexWaiter(&b, id, addr((i+1)%n), fn, 80+13*i, minutes)
				ring = append(ring, fmt.Sprintf("goroutine %d", id))
				id++
			}
			for g := range bystanders {
				for range 2 {
					goMutexWaiter(&b, id, addr(g%n), pkg+".bystander", 300+g, 0)
					id++
				}
			}
			for i, fn := range sleepFns {
				goSleeper(&b, 900+i, fn, 123+i)
				asleep = append(asleep, fmt.Sprintf("goroutine %d", 900+i))
			}
			fmt.Fprintf(&b, "goroutine 950 [IO wait]:\ninternal/poll.runtime_pollWait(0x7f39, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n"+
				"net.(*TCPListener).Accept(0x2ad47cb82440)\n\t/usr/local/go/src/net/tcpsock.go:387 +0x30\n"+
				"net/http.(*Server).Serve(0x2ad47cbf0100, {0x7ad9c8, 0x2ad47cb82440})\n\t/usr/local/go/src/net/http/server.go:3434 +0x30c\n"+
				"created by main.main in goroutine 1\n\t/src/app/main.go:207 +0x365\n\n")
			for w := range workers {
				fmt.Fprintf(&b, "goroutine %d [chan receive]:\n%s.worker(0xc000020060)\n\t/src/app/main.go:190 +0x2a\ncreated by main.main in goroutine 1\n\t/src/app/main.go:188 +0x1f\n\n", 960+w, pkg)
			}
			if kind == "running" {
				fmt.Fprintf(&b, "goroutine 990 [running]:\n%s.compute(0x1)\n\t/src/app/main.go:300 +0x2a\ncreated by main.main in goroutine 1\n\t/src/app/main.go:90 +0x1f\n\n", pkg)
			}
			return shape(b.String()), ring, asleep
		}
		var in []Input
		text, ring, asleep := world(20)
		moments := 1
		switch kind {
		case "two", "moved":
			moments = 2
		case "cut":
			moments = 1 // a one-dump cut of "two": never critical
		}
		for m := range moments {
			if m == 1 && kind == "moved" {
				text, _, _ = world(400) // the waiters went on; new ones at the lines
			}
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		var dls []Finding
		for _, f := range r.Findings {
			if f.Kind == KindDeadlock {
				dls = append(dls, f)
			}
		}
		switch kind {
		case "one", "two", "aged", "cut":
			want := Info // one dump: a possibility (goSeverity)
			switch kind {
			case "two":
				want = Critical
			case "aged":
				want = Warning
			}
			if len(dls) != 1 {
				t.Fatalf("case %d (%s, ring of %d, %d asleep): want one deadlock, got %d: %v\n%s", c, kind, n, sleepers, len(dls), dls, text)
			}
			f := dls[0]
			var members, zs []string
			for _, m := range f.Cycle {
				members = append(members, m.Name)
			}
			for _, z := range f.Asleep {
				zs = append(zs, z.Name)
			}
			slices.Sort(members)
			slices.Sort(ring)
			if kind == "two" && f.Basis == basisHeldPair && len(zs) == 0 {
				// A pair the same at both moments, nothing else out of
				// its rest staying put: held-pair's stronger word, which
				// rules the sleepers' pauses out (gopairs.go).
				zs, told["two held-pair"] = asleep, told["two held-pair"]+1
				f.Basis = basisLockAsleep
			}
			if !slices.Equal(members, ring) || !slices.Equal(zs, asleep) || f.Basis != basisLockAsleep || f.Severity != want {
				t.Fatalf("case %d (%s): members %v asleep %v basis %s %v, want %v, %v, %s %v\n%s", c, kind, members, zs, f.Basis, f.Severity, ring, asleep, basisLockAsleep, want, text)
			}
			told[kind]++
		default:
			if len(dls) != 0 {
				t.Fatalf("case %d (%s, ring of %d, %d asleep): no deadlock wanted, got %s (%s)\n%s", c, kind, n, sleepers, dls[0].ID, dls[0].Basis, text)
			}
		}
	}
	for _, k := range []string{"one", "two", "aged", "cut"} {
		if told[k] == 0 {
			t.Errorf("no %s world told", k)
		}
	}
	t.Logf("told: %v", told)
}
