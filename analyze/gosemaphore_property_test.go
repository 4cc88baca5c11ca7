package analyze

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestGoSemaphoreHoldersProperty (issue 33, "the holder first"): random
// worlds of goroutines of one function F (a random name in a random
// package) that take a semaphore — a slot of a buffered channel (a chan
// send) or a permit of golang.org/x/sync/semaphore.Weighted (its Acquire's
// select) — at line L, k of them waiting there, h past it in F (at a
// later line: in a chan receive, F itself at the top as Go 1.13 prints
// it, or under a call of F's, as any Go prints it), over two moments,
// pasted as written, behind a prefix or indented. Told exactly when the
// very same holders and waiters stay: an exhausted semaphore of the
// row's kind, critical, its h holders named past the acquire. Never told
// as exhausted: holders and waiters that are other goroutines at the next
// moment, no more waiters than holders (the slots go round), or nobody
// past the acquire (a chan send nobody receives is no semaphore). Seeded.
func TestGoSemaphoreHoldersProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 113))
	kinds := []string{"held", "turnover", "nobody"}
	for c := range 300 {
		kind := kinds[c%len(kinds)]
		weighted := rng.IntN(2) == 0
		oldGo := rng.IntN(2) == 0
		under := rng.IntN(2) == 0 // the holder waits under a call of F's
		shape := pasteShapes[rng.IntN(len(pasteShapes))]
		pkg := []string{"main", "example/app", "github.com/acme/shop/internal/convert"}[rng.IntN(3)]
		fn := randomName(rng, pkg)
		creator := randomName(rng, pkg)
		h := 1 + rng.IntN(4)
		k := 2 + rng.IntN(6)
		if kind == "turnover" {
			k = 1 + rng.IntN(h)
		}
		if kind == "nobody" {
			h = 0
		}
		created := func() string {
			if oldGo {
				return fmt.Sprintf("created by %s\n\t/src/app/main.go:82 +0x6b\n", creator)
			}
			return fmt.Sprintf("created by %s in goroutine 1\n\t/src/app/main.go:82 +0x6b\n", creator)
		}
		world := func(m int) string {
			var b strings.Builder
			base := 100
			if kind == "turnover" && m == 1 {
				base = 300
			}
			for i := range k {
				if weighted {
					fmt.Fprintf(&b, "goroutine %d [select]:\n", base+i)
					if !oldGo {
						b.WriteString("runtime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/proc.go:460 +0xce\nruntime.selectgo(0xc000047f28, 0xc000047f10, 0x0?, 0x0, 0x0?, 0x1)\n\t/usr/local/go/src/runtime/select.go:351 +0x837\n")
					}
					b.WriteString("golang.org/x/sync/semaphore.(*Weighted).Acquire(0xc0000a2050, {0x520d88, 0x623320}, 0x1)\n\t/mod/golang.org/x/sync@v0.24.0/semaphore/semaphore.go:77 +0x351\n")
				} else {
					fmt.Fprintf(&b, "goroutine %d [chan send]:\n", base+i)
					if !oldGo {
						b.WriteString("runtime.chansend1(0xc0000a2060, 0xc000047f58)\n\t/usr/local/go/src/runtime/chan.go:161 +0x1d\n")
					}
				}
				fmt.Fprintf(&b, "%s(0x%x, 0xc00006e1e0)\n\t/src/app/work.go:74 +0x37\n%s\n", fn, i, created())
			}
			for i := range h {
				fmt.Fprintf(&b, "goroutine %d [chan receive]:\n", base+50+i)
				if !oldGo {
					b.WriteString("runtime.chanrecv1(0xc0000a2070, 0x0)\n\t/usr/local/go/src/runtime/chan.go:506 +0x12\n")
				}
				if under {
					fmt.Fprintf(&b, "%s.waitResult(0xc0000a2070)\n\t/src/app/result.go:12 +0x25\n", pkg)
				}
				fmt.Fprintf(&b, "%s(0x%x, 0xc00006e1e0)\n\t/src/app/work.go:%d +0x4e\n%s\n", fn, 50+i, 75+rng.IntN(5), created())
			}
			b.WriteString("goroutine 1 [IO wait]:\ninternal/poll.runtime_pollWait(0x7f39, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n" +
				"internal/poll.(*FD).Accept(0x23a3f256100)\n\t/usr/local/go/src/internal/poll/fd_unix.go:613 +0x28c\n" +
				"net.(*netFD).accept(0x23a3f256100)\n\t/usr/local/go/src/net/fd_unix.go:150 +0x29\n" +
				"net.(*TCPListener).accept(0x23a3f230280)\n\t/usr/local/go/src/net/tcpsock_posix.go:159 +0x1b\n" +
				"net.(*TCPListener).Accept(0x2ad47cb82440)\n\t/usr/local/go/src/net/tcpsock.go:387 +0x30\n" +
				"net/http.(*Server).Serve(0x2ad47cbf0100, {0x7ad9c8, 0x2ad47cb82440})\n\t/usr/local/go/src/net/http/server.go:3434 +0x30c\n" +
				"net/http.ListenAndServe(...)\n\t/usr/local/go/src/net/http/server.go:3675\nmain.main()\n\t/src/app/main.go:252 +0xba\n\n")
			return shape(b.String())
		}
		var in []Input
		var text string
		for m := range 2 {
			text = world(m)
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		want := PoolExhaustedKind(slotResource)
		if weighted {
			want = PoolExhaustedKind(weightedResource)
		}
		var got []Finding
		for _, f := range r.Findings {
			if isPoolExhausted(f.Kind) {
				got = append(got, f)
			}
		}
		desc := fmt.Sprintf("case %d (%s, weighted %v, old %v, under %v, %d waiting, %d holding in %s)", c, kind, weighted, oldGo, under, k, h, fn)
		switch kind {
		case "held":
			if len(got) != 1 || got[0].Kind != want || got[0].Severity != Critical {
				t.Fatalf("%s: want one critical %s, got %v\n%s", desc, want, findingIDs(got), text)
			}
			f := got[0]
			held := 0
			for _, hg := range f.Holders {
				held += hg.Count
			}
			if held != h || f.HolderBasis != holderBasisPast || f.Counts[f.At] != k {
				t.Fatalf("%s: %d holders (%s), %v waiting, want %d past the acquire, %d", desc, held, f.HolderBasis, f.Counts, h, k)
			}
		default:
			if len(got) != 0 {
				t.Fatalf("%s: no exhausted semaphore wanted, got %v\n%s", desc, findingIDs(got), text)
			}
		}
	}
}
