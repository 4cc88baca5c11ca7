package parse

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// The Karaf one-thread property: threads made at random (names with
// spaces, dashes and digits, every Thread.State, frames with a line, -1
// or -2), written as Karaf's `threads ID` prints each, one after another
// with a console prompt, a blank line or nothing between them, after a
// line of prose or none, read back as those threads: ids, names, states
// and frames in order, the native one marked, nothing skipped.
func TestKarafThreadProperty(t *testing.T) {
	names := []string{"OH-thingHandler-1", "OH-OSGiEventManager", "Karaf local console user openhab", "pool-2-thread-7", "main", "ESH-ruleEngine-12"}
	funcs := []string{"jdk.internal.misc.Unsafe.park", "java.util.concurrent.CompletableFuture.get",
		"org.openhab.binding.network.internal.PresenceDetection.getValue",
		"org.openhab.binding.network.internal.PresenceDetection$$Lambda$2072/0x000000010119e000.run",
		"java.util.concurrent.ThreadPoolExecutor.runWorker", "java.lang.Thread.run"}
	seps := []string{"", "\n", "openhab> threads %d\n", "karaf@root()> threads %d\n\n"}
	r := rand.New(rand.NewSource(33))
	for i := 0; i < 300; i++ {
		type frame struct {
			fn   string
			line int
		}
		type thread struct {
			id          int64
			name, state string
			frames      []frame
		}
		ts := make([]thread, 1+r.Intn(5))
		var b strings.Builder
		if r.Intn(2) == 0 {
			b.WriteString("After some time all threads are WAITING with this stack trace:\n\n")
		}
		for j := range ts {
			th := &ts[j]
			th.id = int64(1 + r.Intn(9000))
			th.name, th.state = names[r.Intn(len(names))], karafStates[r.Intn(len(karafStates))]
			if sep := seps[r.Intn(len(seps))]; j > 0 || strings.Contains(sep, "%d") {
				if strings.Contains(sep, "%d") {
					sep = fmt.Sprintf(sep, th.id)
				}
				b.WriteString(sep)
			}
			fmt.Fprintf(&b, "Thread %d %s %s\nStacktrace:\n", th.id, th.name, th.state)
			for k := r.Intn(7); k > 0; k-- {
				f := frame{funcs[r.Intn(len(funcs))], []int{-2, -1, 1 + r.Intn(3000)}[r.Intn(3)]}
				th.frames = append(th.frames, f)
				fmt.Fprintf(&b, "%s line: %d\n", f.fn, f.line)
			}
		}
		in := b.String()
		dumps, err := Parse("paste.txt", strings.NewReader(in))
		if err != nil {
			t.Fatalf("%v\n%s", err, in)
		}
		if len(dumps) != 1 || dumps[0].ThreadCount() != len(ts) || len(dumps[0].Skipped) != 0 {
			t.Fatalf("got %d dumps, want 1 of %d threads, nothing skipped:\n%s", len(dumps), len(ts), in)
		}
		for j, th := range ts {
			got := dumps[0].Threads[j]
			if got.ID != th.id || got.Name() != th.name || got.State != th.state || len(got.Frames) != len(th.frames) {
				t.Fatalf("thread %d: got %d %q %q %d frames, want %+v\n%s", j, got.ID, got.Name(), got.State, len(got.Frames), th, in)
			}
			for k, f := range th.frames {
				g := got.Frames[k]
				wantLine := max(f.line, 0)
				if g.Func != f.fn || g.Line != wantLine || (g.Note == "Native Method") != (f.line == -2) {
					t.Fatalf("thread %d frame %d: got %+v, want %+v\n%s", j, k, g, f, in)
				}
			}
		}
	}
}

// Prose that starts like a thread line is not one: "Thread 3 of the pool
// is WAITING" is followed by no "Stacktrace:".
func TestKarafThreadProse(t *testing.T) {
	for _, in := range []string{
		"Thread 3 of the pool WAITING\nand then it stopped\n",
		"Thread 12 handler-1 WAITING\n",
		"Thread x handler-1 WAITING\nStacktrace:\njava.lang.Thread.run line: 840\n",
	} {
		if dumps, err := Parse("prose.txt", strings.NewReader(in)); err == nil && len(dumps) > 0 && dumps[0].ThreadCount() > 0 {
			t.Errorf("%q: read %d threads, want none", in, dumps[0].ThreadCount())
		}
	}
}
