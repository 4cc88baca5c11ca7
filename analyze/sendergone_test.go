package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestSenderGoneProperty (issue 33, "waits by structure"; sender-gone):
// random worlds of n goroutines in a plain channel receive of a one-shot
// function F (a random name in a random package), called by the
// goroutine's own function or under net/http's handler, beside an accept
// loop, idle workers on their job channel, a sleeper and others, pasted
// as written, behind a compose prefix or indented. Told exactly when
// nobody is left to send — none of F's closures, nor any goroutine F or
// a waiter started, alive — and the wait stays: critical for the very
// same ids at two moments, a warning for one dump where each printed a
// minute. Never told: the producer alive (F.func1 asleep, or a helper F
// started), the waiters moved on (other ids at the next moment), one
// dump with no age, F the goroutine's own function (a worker's rest), a
// select (a timer or a context may end it), another goroutine of the
// application that could send (a dispatcher resting in its select, idle
// workers). Seeded.
func TestSenderGoneProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 13))
	kinds := []string{"gone", "aged", "alive", "helper", "moved", "cut", "own", "select", "dispatcher"}
	told := map[string]int{}
	for c := range 400 {
		kind := kinds[c%len(kinds)]
		shape := pasteShapes[rng.IntN(len(pasteShapes))]
		pkg := []string{"main", "example/app", "github.com/acme/shop/internal/fetch"}[rng.IntN(3)]
		fn := randomName(rng, pkg)
		caller := randomName(rng, pkg) + "Handle"
		n := 1 + rng.IntN(8)
		http := rng.IntN(2) == 0
		workers := rng.IntN(5)
		if kind == "gone" || kind == "aged" {
			workers = 0 // idle workers could be the senders (someoneElse)
		}
		moments := 2
		if kind == "aged" || kind == "cut" {
			moments = 1
		}
		world := func(base int) string {
			var b strings.Builder
			state := "chan receive"
			if kind == "select" {
				state = "select"
			}
			if kind == "aged" {
				state += fmt.Sprintf(", %d minutes", 1+rng.IntN(30))
			}
			for i := range n {
				id := base + i
				fmt.Fprintf(&b, "goroutine %d [%s]:\n", id, state)
				if kind == "own" {
					fmt.Fprintf(&b, "%s(0x%x)\n\t/src/app/fetch.go:170 +0x9d\ncreated by main.main in goroutine 1\n\t/src/app/main.go:252 +0x626\n\n", fn, i)
					continue
				}
				fmt.Fprintf(&b, "%s(0x%x, 0x0)\n\t/src/app/fetch.go:170 +0x9d\n%s(0x%x)\n\t/src/app/fetch.go:174 +0x34\n", fn, i, caller, i)
				if http {
					fmt.Fprintf(&b, "net/http.HandlerFunc.ServeHTTP(0xc0000a4000, {0x7ad9c8, 0xc0000b6000}, 0xc0000c8000)\n\t/usr/local/go/src/net/http/server.go:2322 +0x29\n"+
						"net/http.serverHandler.ServeHTTP({0xc0000a6000}, {0x7ad9c8, 0xc0000b6000}, 0xc0000c8000)\n\t/usr/local/go/src/net/http/server.go:3340 +0x8e\n"+
						"net/http.(*conn).serve(0xc0000d0000, {0x7ae0f0, 0xc0000a8000})\n\t/usr/local/go/src/net/http/server.go:2109 +0x665\n"+
						"created by net/http.(*Server).Serve in goroutine 20\n\t/usr/local/go/src/net/http/server.go:3493 +0x485\n\n")
					// The request's connection's background read, started
					// by net/http in the handler's goroutine: a library's
					// helper, no sender of F's.
					fmt.Fprintf(&b, "goroutine %d [IO wait]:\ninternal/poll.runtime_pollWait(0x7f844a039a00, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n"+
						"net.(*conn).Read(0xed8f3e08058, {0xed8f3e020a1?, 0x0?, 0x0?})\n\t/usr/local/go/src/net/net.go:196 +0x45\n"+
						"net/http.(*connReader).backgroundRead(0xed8f3e02090)\n\t/usr/local/go/src/net/http/server.go:702 +0x33\n"+
						"created by net/http.(*connReader).startBackgroundRead in goroutine %d\n\t/usr/local/go/src/net/http/server.go:698 +0xb6\n\n", 700+id, id)
				} else {
					fmt.Fprintf(&b, "created by main.main in goroutine 1\n\t/src/app/main.go:252 +0x626\n\n")
				}
				switch kind {
				case "alive":
					if i == 0 || rng.IntN(2) == 0 {
						fmt.Fprintf(&b, "goroutine %d [sleep]:\ntime.Sleep(0x8bb2c97000)\n\t/usr/local/go/src/runtime/time.go:363 +0x165\n%s.func1()\n\t/src/app/fetch.go:163 +0x4d\ncreated by %s in goroutine %d\n\t/src/app/fetch.go:162 +0x8f\n\n", 500+id, fn, fn, id)
					}
				case "helper":
					if i == 0 {
						fmt.Fprintf(&b, "goroutine %d [IO wait]:\ninternal/poll.runtime_pollWait(0x7f39, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n%s.dial(0x1)\n\t/src/app/dial.go:20 +0x4d\ncreated by %s in goroutine %d\n\t/src/app/fetch.go:162 +0x8f\n\n", 500+id, pkg, caller, id)
					}
				}
			}
			fmt.Fprintf(&b, "goroutine 1 [running]:\nruntime/pprof.writeGoroutineStacks({0x7aaa20, 0x2ad47cb10028})\n\t/usr/local/go/src/runtime/pprof/pprof.go:819 +0x6b\n"+
				"runtime/pprof.(*Profile).WriteTo(0x787e35?, {0x7aaa20?, 0x2ad47cb10028?}, 0x1b6?)\n\t/usr/local/go/src/runtime/pprof/pprof.go:408 +0x149\nmain.main()\n\t/src/app/main.go:290 +0x80e\n\n")
			if kind == "dispatcher" {
				// A long-lived goroutine of the application resting in its
				// own select: it may be the one that sends.
				fmt.Fprintf(&b, "goroutine 980 [select]:\n%s.(*client).loop(0xc000020060)\n\t/src/app/client.go:90 +0x2a\ncreated by %s.newClient in goroutine 1\n\t/src/app/client.go:60 +0x1f\n\n", pkg, pkg)
			}
			fmt.Fprintf(&b, "goroutine 20 [IO wait]:\ninternal/poll.runtime_pollWait(0x7f39, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n"+
				"net.(*TCPListener).Accept(0x2ad47cb82440)\n\t/usr/local/go/src/net/tcpsock.go:387 +0x30\n"+
				"net/http.(*Server).Serve(0x2ad47cbf0100, {0x7ad9c8, 0x2ad47cb82440})\n\t/usr/local/go/src/net/http/server.go:3434 +0x30c\n"+
				"created by main.main in goroutine 1\n\t/src/app/main.go:207 +0x365\n\n")
			for w := range workers {
				fmt.Fprintf(&b, "goroutine %d [chan receive]:\n%s.worker(0xc000020060)\n\t/src/app/main.go:190 +0x2a\ncreated by main.main in goroutine 1\n\t/src/app/main.go:188 +0x1f\n\n", 960+w, pkg)
			}
			if rng.IntN(2) == 0 {
				goSleeper(&b, 990, pkg+".janitor", 123)
			}
			return shape(b.String())
		}
		var in []Input
		var text string
		for m := range moments {
			base := 100
			if m == 1 && kind == "moved" {
				base = 300
			}
			text = world(base)
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		var got []Finding
		for _, f := range r.Findings {
			if f.Basis == BasisSenderGone {
				got = append(got, f)
			}
		}
		switch kind {
		case "gone", "aged":
			want := Critical
			if kind == "aged" {
				want = Warning
			}
			if len(got) != 1 {
				t.Fatalf("case %d (%s, %d in %s, http %v): want one sender-gone finding, got %d\n%s", c, kind, n, fn, http, len(got), text)
			}
			f := got[0]
			if f.Kind != KindLeaked || f.Severity != want || f.Counts[f.At] != n || !strings.HasPrefix(f.Culprit, fn+" ") {
				t.Fatalf("case %d (%s): %s %v %v culprit %q, want leaked %v, %d at %s", c, kind, f.Kind, f.Severity, f.Counts, f.Culprit, want, n, fn)
			}
			told[kind]++
		default:
			if len(got) != 0 {
				t.Fatalf("case %d (%s, %d in %s, http %v): no sender-gone finding wanted, got %s %v\n%s", c, kind, n, fn, http, got[0].ID, got[0].Severity, text)
			}
		}
	}
	for _, k := range []string{"gone", "aged"} {
		if told[k] == 0 {
			t.Errorf("no %s world told", k)
		}
	}
	t.Logf("told: %v", told)
}
