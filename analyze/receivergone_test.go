package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestGoneOthersProperty (issue 33, "waits by structure"; receiver-gone
// and signaller-gone): random worlds of goroutines created by a function
// F (a random name in a random package, a closure of it or a function of
// its own) parked in a chan send, or in sync.Cond.Wait called from their
// own code, beside an accept loop, net/http's connections and main
// resting in ListenAndServe; one or two moments, debug=2 or old Go's
// format (no `in goroutine N`, no runtime frames above a channel wait),
// pasted as written, behind a compose prefix or indented, with random
// counts and printed minutes. Told exactly when F and everything it
// started are gone and nothing else of the application could take the
// send or signal, and the wait stays: a send leaks (critical when the
// count grows between the moments, a warning when it holds or one dump
// prints a minute), a Cond never ends (critical at two moments, a warning
// for one aged dump). Never told: F still on a stack (the caller waiting
// for the result elsewhere), a receiver or signaller F started alive, a
// loop elsewhere asleep in its own sleep (a periodic consumer or
// broadcaster), other ids at the next moment, one dump with no age, a
// select, a Cond waited on by a library's own frame, a semaphore's
// acquire (goroutines of the same function past the send). Seeded.
func TestGoneOthersProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 77))
	kinds := []string{"grow", "flat", "aged", "pasted", "alive", "kin", "sleeper", "moved", "young", "select", "library", "semaphore"}
	told := map[string]int{}
	for c := range 480 {
		kind := kinds[c%len(kinds)]
		cond := rng.IntN(2) == 0
		if kind == "select" || kind == "semaphore" {
			cond = false
		}
		if kind == "library" {
			cond = true
		}
		shape := pasteShapes[rng.IntN(len(pasteShapes))]
		pkg := []string{"main", "example/app", "github.com/acme/shop/internal/fetch"}[rng.IntN(3)]
		fn := randomName(rng, pkg)
		body := fn + ".func1"
		if rng.IntN(3) == 0 {
			body = randomName(rng, pkg) // a function of its own: go send(ch)
		}
		oldGo := rng.IntN(3) == 0
		n := 1 + rng.IntN(8)
		more := 1 + rng.IntN(5)
		moments := 2
		if kind == "aged" || kind == "pasted" || kind == "young" {
			moments = 1
		}
		minutes := 1 + rng.IntN(90)
		world := func(m int) string {
			var b strings.Builder
			state := "chan send"
			switch {
			case kind == "select":
				state = "select"
			case cond:
				state = "sync.Cond.Wait"
			}
			if kind == "aged" || kind == "pasted" {
				state += fmt.Sprintf(", %d minutes", minutes)
			}
			created := func(by string, parent int) string {
				if oldGo {
					return fmt.Sprintf("created by %s\n\t/src/app/fetch.go:160 +0x8f\n", by)
				}
				return fmt.Sprintf("created by %s in goroutine %d\n\t/src/app/fetch.go:160 +0x8f\n", by, parent)
			}
			count := n
			if kind == "grow" && m == 1 {
				count += more
			}
			base := 100
			if kind == "moved" && m == 1 {
				base = 300
			}
			for i := range count {
				fmt.Fprintf(&b, "goroutine %d [%s]:\n", base+i, state)
				switch {
				case kind == "select":
					fmt.Fprintf(&b, "runtime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/proc.go:460 +0xce\nruntime.selectgo(0xc000047f28, 0xc000047f10, 0x0?, 0x0, 0x0?, 0x1)\n\t/usr/local/go/src/runtime/select.go:351 +0x837\n")
				case cond:
					fmt.Fprintf(&b, "sync.runtime_notifyListWait(0xc0000a2050, 0x%x)\n\t/usr/local/go/src/runtime/sema.go:617 +0x1b3\nsync.(*Cond).Wait(0x0?)\n\t/usr/local/go/src/sync/cond.go:71 +0x73\n", i)
					if kind == "library" {
						fmt.Fprintf(&b, "net/http.(*connReader).abortPendingRead(0xc0000b2000)\n\t/usr/local/go/src/net/http/server.go:750 +0x96\n")
					}
				case !oldGo:
					fmt.Fprintf(&b, "runtime.chansend1(0xc0000a2060, 0xc000047f58)\n\t/usr/local/go/src/runtime/chan.go:161 +0x1d\n")
				}
				fmt.Fprintf(&b, "%s(0x%x)\n\t/src/app/fetch.go:170 +0x9d\n", body, i)
				b.WriteString(created(fn, 1))
				b.WriteString("\n")
			}
			if kind == "semaphore" {
				// Holders of the same function past the send: a semaphore.
				for i := range 2 {
					fmt.Fprintf(&b, "goroutine %d [chan receive]:\n%s(0x%x)\n\t/src/app/fetch.go:172 +0x9d\n%s\n", 600+i, body, i, created(fn, 1))
				}
			}
			if kind != "pasted" {
				fmt.Fprintf(&b, "goroutine 1 [IO wait]:\ninternal/poll.runtime_pollWait(0x7f39, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n"+
					"internal/poll.(*pollDesc).wait(0x23a3f256100?, 0x900000036?, 0x0)\n\t/usr/local/go/src/internal/poll/fd_poll_runtime.go:84 +0x27\n"+
					"internal/poll.(*pollDesc).waitRead(...)\n\t/usr/local/go/src/internal/poll/fd_poll_runtime.go:89\n"+
					"internal/poll.(*FD).Accept(0x23a3f256100)\n\t/usr/local/go/src/internal/poll/fd_unix.go:613 +0x28c\n"+
					"net.(*netFD).accept(0x23a3f256100)\n\t/usr/local/go/src/net/fd_unix.go:150 +0x29\n"+
					"net.(*TCPListener).accept(0x23a3f230280)\n\t/usr/local/go/src/net/tcpsock_posix.go:159 +0x1b\n"+
					"net.(*TCPListener).Accept(0x2ad47cb82440)\n\t/usr/local/go/src/net/tcpsock.go:387 +0x30\n"+
					"net/http.(*Server).Serve(0x2ad47cbf0100, {0x7ad9c8, 0x2ad47cb82440})\n\t/usr/local/go/src/net/http/server.go:3434 +0x30c\n"+
					"net/http.ListenAndServe(...)\n\t/usr/local/go/src/net/http/server.go:3675\nmain.main()\n\t/src/app/main.go:252 +0xba\n\n")
			}
			switch kind {
			case "alive":
				// F waits for the result elsewhere (its caller's goroutine).
				fmt.Fprintf(&b, "goroutine 40 [IO wait]:\ninternal/poll.runtime_pollWait(0x7f39, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n"+
					"net.(*conn).Read(0xc0000a4000, {0xc0000b6000, 0x1000, 0x1000})\n\t/usr/local/go/src/net/net.go:196 +0x45\n"+
					"%s(0xc0000a2060)\n\t/src/app/fetch.go:166 +0x4d\nmain.main.func2()\n\t/src/app/main.go:240 +0x25\n%s\n", fn, created("main.main", 1))
			case "kin":
				// A receiver or signaller F started, working.
				fmt.Fprintf(&b, "goroutine 41 [runnable]:\n%s.func9(0xc0000a2060)\n\t/src/app/fetch.go:180 +0x4d\n%s\n", fn, created(fn, 1))
			case "sleeper":
				goSleeper(&b, 990, pkg+".drain", 123)
			}
			return shape(b.String())
		}
		var in []Input
		var text string
		for m := range moments {
			text = world(m)
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		basis := BasisReceiverGone
		if cond {
			basis = BasisSignallerGone
		}
		var got []Finding
		for _, f := range r.Findings {
			if f.Basis == BasisReceiverGone || f.Basis == BasisSignallerGone {
				got = append(got, f)
			}
		}
		desc := fmt.Sprintf("case %d (%s, cond %v, old %v, %d in %s by %s)", c, kind, cond, oldGo, n, body, fn)
		switch kind {
		case "grow", "flat", "aged", "pasted":
			if len(got) != 1 {
				t.Fatalf("%s: want one %s finding, got %d (all: %v)\n%s", desc, basis, len(got), goneIDs(r.Findings), text)
			}
			f := got[0]
			want, count := Warning, n
			switch {
			case kind == "grow" && !cond:
				want, count = Critical, n+more
			case kind == "grow":
				want, count = Critical, n+more
			case kind == "flat" && cond:
				want = Critical
			}
			if f.Kind != KindLeaked || f.Basis != basis || f.Severity != want || f.Counts[f.At] != count {
				t.Fatalf("%s: %s %s %v %v, want leaked %s %v, %d", desc, f.Kind, f.Basis, f.Severity, f.Counts, basis, want, count)
			}
			if len(f.Entries) != 1 || f.Entries[0].Func != fn {
				t.Fatalf("%s: creator %v, want %s", desc, f.Entries, fn)
			}
			if (kind == "aged" || kind == "pasted") && (f.Wait == nil || f.Wait.MaxMinutes != minutes) {
				t.Fatalf("%s: wait %+v, want %d minutes", desc, f.Wait, minutes)
			}
			told[kind]++
		default:
			if len(got) != 0 {
				t.Fatalf("%s: nothing wanted, got %s %s %v\n%s", desc, got[0].ID, got[0].Basis, got[0].Severity, text)
			}
		}
	}
	for _, k := range []string{"grow", "flat", "aged", "pasted"} {
		if told[k] == 0 {
			t.Errorf("no %s world told", k)
		}
	}
	t.Logf("told: %v", told)
}

func goneIDs(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.ID+"/"+f.Basis)
	}
	return out
}
