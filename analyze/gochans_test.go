package analyze

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestGoChanFixtures judges real Go 1.26 services under net/http/pprof
// (testdata/gen/go-lock-chan; each folder's README.md says the verdict
// wanted, written before dumpdiff ran): a ledger whose writer holds its
// mutex across a channel send to the auditor, who waits for that mutex
// before it receives, is a deadlock led by the holder, in debug=2 and in
// debug=1 (records, no ids), built by Go 1.26 and by Go 1.13; a pipeline whose two stages each wait to
// send to the other is a deadlock of the two; one moment says neither,
// and the healthy twins (the auditor reads without the mutex; a third
// stage drains the feedback) nothing.
func TestGoChanFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	holderAt := func(at, holder string, members int) func(*testing.T, Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, basisLockChan)
			eq(t, "members", len(f.Cycle), members)
			h := f.Cycle[0]
			eq(t, "holder at", strings.SplitN(h.Culprit, " ", 2)[0], at)
			if h.WaitsFor == nil || h.WaitsFor.Chan != holder {
				t.Errorf("holder waits for %+v, want a channel %s", h.WaitsFor, holder)
			}
			for _, m := range f.Cycle[1:] {
				if m.WaitsFor == nil || m.WaitsFor.Holder != h.Name || m.WaitsFor.Class != "sync.Mutex" {
					t.Errorf("member %s waits for %+v, want the mutex %s holds", m.Name, m.WaitsFor, h.Name)
				}
			}
			if !strings.Contains(f.Remedy, "holds a mutex while it waits on a channel") {
				t.Errorf("remedy %q", f.Remedy)
			}
		}
	}
	ledger := func(holder string, members int) func(*testing.T, Finding) {
		return holderAt("main.(*ledger).record", holder, members)
	}
	pipeline := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, basisChanCycle)
		var at []string
		for _, m := range f.Cycle {
			at = append(at, strings.SplitN(m.Culprit, " ", 2)[0])
			if m.WaitsFor == nil || m.WaitsFor.Chan != "send" {
				t.Errorf("member %s waits for %+v, want a send", m.Name, m.WaitsFor)
			}
		}
		eq(t, "members", strings.Join(at, " "), "main.(*pipeline).indexer main.(*pipeline).parser")
	}
	all := []string{"1", "2", "3"}
	var tests []fixtureCase
	for _, v := range []string{"", "-go113"} {
		tests = append(tests,
			fixtureCase{"go-lock-chan-stuck" + v, all, []want{{KindDeadlock, "main.main", "chan-send", ledger("send", 4)}}},
			fixtureCase{"go-lock-chan-stuck" + v, []string{"2", "3"}, []want{{KindDeadlock, "main.main", "chan-send", ledger("send", 4)}}},
			fixtureCase{"go-lock-chan-stuck" + v, []string{"2"}, nil},
			fixtureCase{"go-lock-chan-stuck" + v + "-debug1", all, []want{{KindDeadlock, "main.(*ledger).writer", "unclassified", ledger("park", 3)}}},
			fixtureCase{"go-lock-chan-stuck" + v + "-debug1", []string{"3"}, nil},
			fixtureCase{"go-lock-chan-healthy" + v, all, nil},
			fixtureCase{"go-lock-chan-healthy" + v + "-debug1", all, nil},
			// A package-level mutex, the holder in another function: told
			// by the one goroutine that stayed out of its rest.
			fixtureCase{"go-lock-chan-pkg-stuck" + v, all, []want{{KindDeadlock, "main.main", "chan-send", holderAt("main.emit", "send", 2)}}},
			fixtureCase{"go-lock-chan-pkg-stuck" + v, []string{"1"}, nil},
			fixtureCase{"go-lock-chan-pkg-healthy" + v, all, nil},
			fixtureCase{"go-chan-cycle-stuck" + v, all, []want{{KindDeadlock, "main.main", "chan-send", pipeline}}},
			fixtureCase{"go-chan-cycle-stuck" + v, []string{"1", "3"}, []want{{KindDeadlock, "main.main", "chan-send", pipeline}}},
			// One dump (issue 33): every goroutine of the application out
			// of its rest in a plain send or receive, none running or
			// asleep: a warning, one moment's evidence.
			fixtureCase{"go-chan-cycle-stuck" + v, []string{"1"}, []want{{KindDeadlock, "main.main", "chan-send", severityOf(Warning, pipeline)}}},
			fixtureCase{"go-chan-cycle-stuck" + v, all, []want{{KindDeadlock, "main.main", "chan-send", severityOf(Critical, pipeline)}}},
			fixtureCase{"go-chan-cycle-healthy" + v, all, nil},
			fixtureCase{"go-chan-cycle-healthy" + v, []string{"1"}, nil},
			fixtureCase{"go-chan-cycle-healthy" + v, []string{"3"}, nil},
		)
	}
	tests = append(tests,
		fixtureCase{"go-lock-chan-pkg-stuck-debug1", all, []want{{KindDeadlock, "main.emitter", "unclassified", holderAt("main.emit", "park", 2)}}},
		fixtureCase{"go-lock-chan-pkg-stuck-debug1", []string{"2"}, nil},
	)
	runFixtureCases(t, dir, tests)
}

// chanWorld is one generated Go service over several moments: either a
// mutex whose holder waits in a channel operation (or sleeps) while others
// wait for the mutex, or stages of a pipeline each in a channel wait;
// beside them goroutines that rest (workers on their job channel, the
// listener), move (another line at each moment), stay out of any rest (a
// read under a call), or crowd on one send (a leak).
type chanWorld struct {
	lock    bool // the ledger world; else the pipeline's
	moments int
	stays   bool // the cycle's goroutines are the same, at the same lines, at every moment
	third   bool // a goroutine out of its rest stays in one place at every moment
	resting int  // workers resting on their job channel (the same at every moment)
	movers  int  // goroutines running at another line at each moment
	// the ledger's
	holder  string // the holder's state: "chan send", "chan receive", "sleep"
	waiters int    // goroutines waiting for the mutex (at record's Lock and check's)
	// pkg: the mutex is a package variable, the holder in main.emit and
	// its waiters in main.flushStats: no frame names the lock or tells its
	// holder, only what stays
	pkg bool
	// sender: a goroutine out of its rest sending at another place at
	// each moment (no holder of anything: it moves)
	sender bool
	// the pipeline's
	stages []string // each stage's wait: "chan send" or "chan receive" (under a call)
	crowd  int      // goroutines of one stack sending (a leak), 0 or 2 and more
	// sleeper: a goroutine of the application asleep inside its work (a
	// consumer's slow item) at every moment, the same: it wakes, and may
	// be the partner a stage waits for
	sleeper bool
}

func (w chanWorld) lockChan() bool {
	// Where no frame tells the holder, a second goroutine in a channel
	// wait out of its rest leaves the holder untold.
	return w.lock && w.moments >= HeldWaitMin && w.stays && !w.third && w.waiters > 0 && w.holder != "sleep" && !(w.pkg && w.sender)
}

func (w chanWorld) chanCycle() bool {
	sends := 0
	for _, s := range w.stages {
		if s == "chan send" {
			sends++
		}
	}
	if w.moments == 1 {
		n, ok := w.oneDumpMembers()
		return ok && n >= 2 && n <= chanCycleMax
	}
	// One dump (issue 33): the same stages with nothing else of the
	// application moving is a warning; whether they stay is not asked.
	return !w.lock && w.moments >= HeldWaitMin && w.stays && !w.third && w.movers == 0 && w.crowd == 0 && !w.sender && !w.sleeper &&
		len(w.stages) >= 2 && len(w.stages) <= chanCycleMax && sends > 0
}

// oneDumpMembers is, in one dump, how many goroutines wait in a channel
// operation out of their rest (the stages, the sender, a lock's holder
// with no waiter), and whether nothing else of the application moves and
// one of them sends (issue 33: one dump's channel cycle).
func (w chanWorld) oneDumpMembers() (int, bool) {
	n, sends := len(w.stages), 0
	for _, s := range w.stages {
		if s == "chan send" {
			sends++
		}
	}
	if w.sender {
		n, sends = n+1, sends+1
	}
	if w.lock {
		if w.waiters > 0 || w.holder == "sleep" {
			return 0, false
		}
		n++
		if w.holder == "chan send" {
			sends++
		}
	}
	return n, !w.third && w.movers == 0 && w.crowd == 0 && !w.sleeper && sends > 0
}

// dump writes moment m of w as a debug=2 goroutine dump of Go 1.26.
func (w chanWorld) dump(m int) string {
	var b strings.Builder
	created := "created by main.main in goroutine 1\n\t/app/main.go:140 +0x22a\n\n"
	b.WriteString("goroutine 1 [IO wait]:\ninternal/poll.runtime_pollWait(0x7fb9a8698c00, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n" +
		"internal/poll.(*FD).Accept(0xc000130080)\n\t/usr/local/go/src/internal/poll/fd_unix.go:613 +0x28c\n" +
		"net.(*TCPListener).Accept(0xc0001321c0)\n\t/usr/local/go/src/net/tcpsock.go:380 +0x30\n" +
		"net/http.(*Server).Serve(0xc0001d2000, {0x78b9a0, 0xc0001321c0})\n\t/usr/local/go/src/net/http/server.go:3463 +0x30c\n" +
		"main.main()\n\t/app/main.go:156 +0x2cb\n\n")
	id := func(base int) int {
		if w.stays {
			return base
		}
		return base + 1000*m
	}
	if w.lock && w.pkg {
		const statsMu = 0xa464c8
		if w.holder == "sleep" {
			fmt.Fprintf(&b, "goroutine %d [sleep]:\ntime.Sleep(0x1312d00)\n\t/usr/local/go/src/runtime/time.go:363 +0x165\n"+
				"main.emit({0x6d1a2b, 0x5}, 0x0)\n\t/app/main.go:118 +0x85\nmain.emitter(0x0)\n\t/app/main.go:140 +0x2f\n%s", id(6), created)
		} else {
			fmt.Fprintf(&b, "goroutine %d [%s]:\nmain.emit({0x6d1a2b, 0x5}, 0x0)\n\t/app/main.go:120 +0x9b\n"+
				"main.emitter(0x0)\n\t/app/main.go:140 +0x2f\n%s", id(6), w.holder, created)
		}
		for i := range w.waiters {
			fmt.Fprintf(&b, "goroutine %d [sync.Mutex.Lock]:\ninternal/sync.runtime_SemacquireMutex(0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\n"+
				"internal/sync.(*Mutex).lockSlow(0x%x)\n\t/usr/local/go/src/internal/sync/mutex.go:149 +0x15d\n"+
				"internal/sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/internal/sync/mutex.go:70\n"+
				"sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\n"+
				"main.flushStats()\n\t/app/main.go:126 +0x4c\nmain.shipper%d()\n\t/app/main.go:%d +0x2f\n%s", id(19+i), statsMu, i, 150+i, created)
		}
	} else if w.lock {
		const l = 0xc0000be000
		switch w.holder {
		case "sleep":
			fmt.Fprintf(&b, "goroutine %d [sleep]:\ntime.Sleep(0x1312d00)\n\t/usr/local/go/src/runtime/time.go:363 +0x165\n"+
				"main.(*ledger).record(0x%x, {0x3e8, 0x0})\n\t/app/main.go:62 +0x85\nmain.(*ledger).writer(0x%x, 0x1)\n\t/app/main.go:88 +0x2f\n%s", id(6), l, l, created)
		default:
			fmt.Fprintf(&b, "goroutine %d [%s]:\nmain.(*ledger).record(0x%x, {0x3e8, 0x0})\n\t/app/main.go:63 +0x9b\n"+
				"main.(*ledger).writer(0x%x, 0x1)\n\t/app/main.go:88 +0x2f\n%s", id(6), w.holder, l, l, created)
		}
		for i := range w.waiters {
			fn, line := "main.(*ledger).record", 59
			if i%2 == 1 {
				fn, line = "main.(*ledger).check", 72
			}
			fmt.Fprintf(&b, "goroutine %d [sync.Mutex.Lock]:\ninternal/sync.runtime_SemacquireMutex(0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\n"+
				"internal/sync.(*Mutex).lockSlow(0x%x)\n\t/usr/local/go/src/internal/sync/mutex.go:149 +0x15d\n"+
				"internal/sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/internal/sync/mutex.go:70\n"+
				"sync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\n"+
				"%s(0x%x, {0x7d0, 0x0})\n\t/app/main.go:%d +0x4c\nmain.(*ledger).loop%d(0x%x)\n\t/app/main.go:%d +0x2f\n%s",
				id(19+i), l, fn, l, line, i, l, 90+i, created)
		}
	} else {
		for i, s := range w.stages {
			if s == "chan send" {
				fmt.Fprintf(&b, "goroutine %d [chan send]:\nmain.stage%d(0xc000180000)\n\t/app/main.go:%d +0x9b\n%s", id(30+i), i, 100+i, created)
			} else {
				fmt.Fprintf(&b, "goroutine %d [chan receive]:\nmain.(*pipe).take(0xc000180000)\n\t/app/main.go:%d +0x31\n"+
					"main.stage%d(0xc000180000)\n\t/app/main.go:%d +0x9b\n%s", id(30+i), 60+i, i, 100+i, created)
			}
		}
		for i := range w.crowd {
			fmt.Fprintf(&b, "goroutine %d [chan send]:\nmain.fanout.func1()\n\t/app/main.go:130 +0x3a\ncreated by main.fanout in goroutine 1\n\t/app/main.go:128 +0x56\n\n", 200+i)
		}
	}
	if w.third {
		b.WriteString("goroutine 40 [IO wait]:\ninternal/poll.runtime_pollWait(0x7f39778ce800, 0x72)\n\t/usr/local/go/src/runtime/netpoll.go:351 +0x85\n" +
			"internal/poll.(*FD).Read(0xc000188180, {0xc0001a1000, 0x1000, 0x1000})\n\t/usr/local/go/src/internal/poll/fd_unix.go:165 +0x2ae\n" +
			"net.(*conn).Read(0xc00006c0a8, {0xc0001a1000?, 0x0?, 0x72?})\n\t/usr/local/go/src/net/net.go:196 +0x45\n" +
			"main.flush(0xc000120000)\n\t/app/main.go:140 +0x25\nmain.main.func6()\n\t/app/main.go:210 +0x18\n" + created)
	}
	for i := range w.resting {
		fmt.Fprintf(&b, "goroutine %d [chan receive]:\nmain.worker(0xc000120000)\n\t/app/main.go:120 +0x25\n%s", 100+i, created)
	}
	if w.sender {
		fmt.Fprintf(&b, "goroutine %d [chan send]:\nmain.publish(0x%x)\n\t/app/main.go:%d +0x25\nmain.publisher()\n\t/app/main.go:180 +0x18\n%s", 400+m, m, 174+m%3, created)
	}
	if w.sleeper {
		fmt.Fprintf(&b, "goroutine 500 [sleep]:\ntime.Sleep(0x6fc23ac00)\n\t/usr/local/go/src/runtime/time.go:363 +0x165\n"+
			"main.handle(0x%x)\n\t/app/main.go:190 +0x85\nmain.consume(0xc000180000)\n\t/app/main.go:196 +0x4c\n%s", 7, created)
	}
	for i := range w.movers {
		fmt.Fprintf(&b, "goroutine %d [runnable]:\nmain.compute(0x%x)\n\t/app/main.go:%d +0x25\nmain.crunch()\n\t/app/main.go:170 +0x18\n%s", 300+i, i, 160+(m+i)%7, created)
	}
	return b.String()
}

// TestGoChanCyclesProperty: over generated services of 1–3 moments, a
// mutex whose holder waits in a channel send or receive is a deadlock led
// by the holder (go-lock-chan) exactly when others wait for the mutex, the
// same goroutines at the same lines at HeldWaitMin moments or more, and no
// other goroutine out of its rest stays; a holder asleep under the lock is
// none. Where the mutex is a package variable and the holder runs another
// function (no frame tells it), a second goroutine in a channel wait out
// of its rest, even one that moves, leaves the holder untold. Pipeline stages are a deadlock (go-chan-cycle) exactly when every
// goroutine out of its rest is a stage in a channel wait, two or more, one
// sending at least, the same at the last moments: a goroutine that moves
// or stays elsewhere, or a crowd on one send (a leak), says none. Resting
// workers and the listener change nothing; a goroutine of the application
// asleep inside its work (a consumer's slow item) may be the partner and
// says none, at one moment or several.
func TestGoChanCyclesProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	counts := map[string]int{}
	const cases = 1500
	for c := range cases {
		w := chanWorld{lock: rng.Intn(2) == 0, moments: 1 + rng.Intn(3), stays: rng.Intn(4) > 0, third: rng.Intn(5) == 0,
			resting: rng.Intn(6), movers: max(0, rng.Intn(5)-2), sender: rng.Intn(5) == 0, sleeper: rng.Intn(6) == 0}
		if w.lock {
			w.holder = []string{"chan send", "chan receive", "sleep"}[rng.Intn(3)]
			w.waiters = rng.Intn(4)
			w.pkg = rng.Intn(2) == 0
		} else {
			for range rng.Intn(5) {
				w.stages = append(w.stages, []string{"chan send", "chan receive"}[rng.Intn(2)])
			}
			if rng.Intn(5) == 0 {
				w.crowd = 2 + rng.Intn(8)
			}
		}
		var in []Input
		for m := range w.moments {
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(w.dump(m)))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		var lc, cc *Finding
		for i, f := range r.Findings {
			switch {
			case f.Kind == KindDeadlock && f.Basis == basisLockChan:
				lc = &r.Findings[i]
			case f.Kind == KindDeadlock && f.Basis == basisChanCycle:
				cc = &r.Findings[i]
			}
		}
		if (lc != nil) != w.lockChan() || (cc != nil) != w.chanCycle() {
			t.Fatalf("case %d: %+v: lock-chan %v (want %v), chan-cycle %v (want %v)", c, w, lc != nil, w.lockChan(), cc != nil, w.chanCycle())
		}
		if lc != nil {
			counts["lock-chan"]++
			if w.pkg {
				counts["lock-chan-pkg"]++
			}
			h := lc.Cycle[0]
			want := map[string]string{"chan send": "send", "chan receive": "receive"}[w.holder]
			if h.Name != "goroutine 6" || h.WaitsFor == nil || h.WaitsFor.Chan != want || len(lc.Cycle) != 1+w.waiters {
				t.Fatalf("case %d: %+v: cycle %+v, want goroutine 6 in a %s first, then %d waiters", c, w, lc.Cycle, want, w.waiters)
			}
			for _, m := range lc.Cycle[1:] {
				if m.WaitsFor == nil || m.WaitsFor.Holder != "goroutine 6" {
					t.Fatalf("case %d: waiter %s waits for %+v, not goroutine 6's mutex", c, m.Name, m.WaitsFor)
				}
			}
		}
		if cc != nil {
			counts["chan-cycle"]++
			n := len(w.stages)
			if w.moments == 1 {
				n, _ = w.oneDumpMembers()
			}
			if len(cc.Cycle) != n || cc.Cycle[0].WaitsFor == nil || cc.Cycle[0].WaitsFor.Chan != "send" {
				t.Fatalf("case %d: %+v: cycle %+v, want the %d stages, a sender first", c, w, cc.Cycle, len(w.stages))
			}
		}
	}
	if counts["lock-chan"] < 50 || counts["lock-chan-pkg"] < 25 || counts["chan-cycle"] < 50 {
		t.Errorf("too few cycles found in %d cases: %v", cases, counts)
	}
	t.Logf("%d cases: %v", cases, counts)
}

// severityOf checks f's severity, then check.
func severityOf(s Severity, check func(*testing.T, Finding)) func(*testing.T, Finding) {
	return func(t *testing.T, f Finding) {
		eq(t, "severity", f.Severity, s)
		check(t, f)
	}
}
