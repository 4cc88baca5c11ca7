package parse

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// The LOCKS property: the monitor graph of every committed JVM text dump
// (who holds each monitor, who waits to enter it, who waits to be
// notified on it; the deadlocks the JVM reported), written as an OpenJ9
// javacore's LOCKS section alone, reads back as the same graph: the same
// threads, each with the same holds and waits and the same owners
// (javacore_locks.go). Names come from real dumps (quotes, spaces, pool
// numbers); a thread's J9VMThread is made from its place in the dump.

// monitorGraph is a dump's monitors: per address its class, its owner
// (a thread that holds it and does not wait on it: a thread in
// Object.wait() prints the monitor it released as locked too), the
// threads waiting to enter it and those waiting to be notified.
type monitorGraph struct {
	addrs  []string
	class  map[string]string
	owner  map[string]int // thread index; -1 for none
	enter  map[string][]int
	notify map[string][]int
}

func monitorsOf(d *Dump) monitorGraph {
	g := monitorGraph{class: map[string]string{}, owner: map[string]int{}, enter: map[string][]int{}, notify: map[string][]int{}}
	add := func(a, class string) {
		if _, ok := g.owner[a]; !ok {
			g.addrs = append(g.addrs, a)
			g.owner[a] = -1
			g.class[a] = class
		}
	}
	for i, t := range d.Threads {
		waitsOn := map[string]bool{}
		for _, l := range t.Locks() {
			if l.Kind == LockWaitingOn && l.Address != "" {
				waitsOn[l.Address] = true
			}
		}
		for _, l := range t.Locks() {
			if l.Address == "" || l.Class == "" {
				continue
			}
			switch l.Kind {
			case LockHeld:
				if !waitsOn[l.Address] {
					add(l.Address, l.Class)
					g.owner[l.Address] = i
				}
			case LockWaitingTo:
				add(l.Address, l.Class)
				g.enter[l.Address] = append(g.enter[l.Address], i)
			case LockWaitingOn:
				add(l.Address, l.Class)
				g.notify[l.Address] = append(g.notify[l.Address], i)
			}
		}
	}
	return g
}

// locksSection writes g (and d's deadlock reports) as a javacore's LOCKS
// section; vmt gives thread i its J9VMThread.
func locksSection(d *Dump, g monitorGraph) string {
	vmt := func(i int) string { return fmt.Sprintf("0x%016X", 0x7F00A000+i*0x100) }
	ref := func(i int) string { return `"` + d.Threads[i].Name() + `" (J9VMThread:` + vmt(i) + `)` }
	var b strings.Builder
	b.WriteString("NULL           ------------------------------------------------------------------------\n")
	b.WriteString("0SECTION       LOCKS subcomponent dump routine\nNULL           ===============================\nNULL\n")
	fmt.Fprintf(&b, "1LKPOOLINFO    Monitor pool info:\n2LKPOOLTOTAL     Current total number of monitors: %d\nNULL\n", len(g.addrs))
	b.WriteString("1LKMONPOOLDUMP Monitor Pool Dump (flat & inflated object-monitors):\n")
	for k, a := range g.addrs {
		fmt.Fprintf(&b, "2LKMONINUSE      sys_mon_t:0x%016X infl_mon_t: 0x%016X:\n", 0x7F00B000+k*0x80, 0x7F00B040+k*0x80)
		owner := "<unowned>"
		if o := g.owner[a]; o >= 0 {
			owner = "Flat locked by " + ref(o) + ", entry count 1"
			if k%2 == 1 {
				owner = "owner " + ref(o) + ", entry count 1" // an inflated monitor's wording
			}
		}
		fmt.Fprintf(&b, "3LKMONOBJECT       %s@%s: %s\n", strings.ReplaceAll(g.class[a], ".", "/"), a, owner)
		if len(g.enter[a]) > 0 {
			b.WriteString("3LKWAITERQ            Waiting to enter:\n")
			for _, i := range g.enter[a] {
				fmt.Fprintf(&b, "3LKWAITER                %s\n", ref(i))
			}
		}
		if len(g.notify[a]) > 0 {
			b.WriteString("3LKNOTIFYQ            Waiting to be notified:\n")
			for _, i := range g.notify[a] {
				fmt.Fprintf(&b, "3LKWAITNOTIFY            %s\n", ref(i))
			}
		}
	}
	b.WriteString("NULL\n")
	return b.String()
}

// graphLines is what the section must keep of g: per thread named in it,
// its holds and waits with their owners, sorted.
func graphLines(d *Dump, g monitorGraph) []string {
	var out []string
	name := func(i int) string {
		if i < 0 {
			return ""
		}
		return d.Threads[i].Name()
	}
	for _, a := range g.addrs {
		if o := g.owner[a]; o >= 0 {
			out = append(out, fmt.Sprintf("%q holds %s", name(o), a))
		}
		for _, i := range g.enter[a] {
			out = append(out, fmt.Sprintf("%q enters %s owned by %q", name(i), a, name(g.owner[a])))
		}
		for _, i := range g.notify[a] {
			out = append(out, fmt.Sprintf("%q waits on %s", name(i), a))
		}
	}
	sort.Strings(out)
	return out
}

// readGraphLines is graphLines of a dump read from a LOCKS section.
func readGraphLines(d *Dump) []string {
	var out []string
	for _, t := range d.Threads {
		for _, l := range t.Locks() {
			switch l.Kind {
			case LockHeld:
				out = append(out, fmt.Sprintf("%q holds %s", t.Name(), l.Address))
			case LockWaitingTo:
				out = append(out, fmt.Sprintf("%q enters %s owned by %q", t.Name(), l.Address, l.Owner))
			case LockWaitingOn:
				out = append(out, fmt.Sprintf("%q waits on %s", t.Name(), l.Address))
			}
		}
	}
	sort.Strings(out)
	return out
}

func TestLocksSectionProperty(t *testing.T) {
	tried, same := 0, 0
	for _, in := range pasteInputs(t) {
		if in.rt != RuntimeJVM || len(in.dumps) != 1 {
			continue
		}
		d := in.dumps[0]
		g := monitorsOf(d)
		if len(g.addrs) == 0 {
			continue
		}
		tried++
		text := locksSection(d, g)
		dumps, err := Parse(in.name, strings.NewReader(text))
		if err != nil || len(dumps) != 1 {
			t.Errorf("%s: %d dumps, %v", in.name, len(dumps), err)
			continue
		}
		want, got := graphLines(d, g), readGraphLines(dumps[0])
		if strings.Join(want, "\n") != strings.Join(got, "\n") {
			t.Errorf("%s: the LOCKS section reads another graph:\n%s", in.name, firstDiff(strings.Join(want, "\n"), strings.Join(got, "\n")))
			continue
		}
		if dumps[0].Format != FormatJavacore || dumps[0].Excerpt == "" || len(dumps[0].Skipped) != 0 {
			t.Errorf("%s: format %s, excerpt %q, %d skipped", in.name, dumps[0].Format, dumps[0].Excerpt, len(dumps[0].Skipped))
			continue
		}
		same++
	}
	t.Logf("LOCKS sections written from the dumps' monitors that read back as the same graph: %d of %d", same, tried)
	if tried < 10 {
		t.Errorf("only %d dumps with monitors: the testdata has more", tried)
	}
}

// TestJavacoreLocksLines: the owner's two wordings, a name with a quote,
// a VM monitor with an owner, a waiter outside any monitor.
func TestJavacoreLocksLines(t *testing.T) {
	in := `0SECTION       LOCKS subcomponent dump routine
1LKMONPOOLDUMP Monitor Pool Dump (flat & inflated object-monitors):
2LKMONINUSE      sys_mon_t:0x00007F6B903C5E98 infl_mon_t: 0x00007F6B903C5F10:
3LKMONOBJECT       org/apache/kafka/clients/consumer/internals/ConsumerNetworkClient@0x00000005C0713318: owner "BroadcastReceiver" (J9VMThread:0x0000000000DE5300), entry count 1
3LKWAITERQ            Waiting to enter:
3LKWAITER                "kafka-coordinator-heartbeat-thread | group "a"" (J9VMThread:0x00000000013A3A00)
1LKREGMONDUMP  JVM System Monitor Dump (registered monitors):
2LKREGMON          VM thread list lock (0x00000219AF646478): Flat locked by "BroadcastReceiver" (J9VMThread:0x0000000000DE5300), entry count 1
3LKNOTIFYQ            Waiting to be notified:
3LKWAITNOTIFY            "DestroyJavaVM helper thread" (J9VMThread:0x000000000075FF00)
NULL
`
	dumps, err := Parse("locks.txt", strings.NewReader(in))
	if err != nil || len(dumps) != 1 {
		t.Fatalf("%d dumps, %v", len(dumps), err)
	}
	got := readGraphLines(dumps[0])
	want := []string{
		`"BroadcastReceiver" holds 0x00000005C0713318`,
		`"BroadcastReceiver" holds 0x00000219AF646478`,
		`"DestroyJavaVM helper thread" waits on 0x00000219AF646478`,
		`"kafka-coordinator-heartbeat-thread | group \"a\"" enters 0x00000005C0713318 owned by "BroadcastReceiver"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("graph:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := len(dumps[0].Threads); n != 3 {
		t.Errorf("%d threads, want 3 (one per J9VMThread)", n)
	}
}

// TestLocksDeadlockProperty: every deadlock report of a committed JVM
// dump whose edges name the object waited for, written as a javacore's
// 1LKDEADLOCK report alone, reads back as the same cycle: its threads,
// each waiting for its object owned by the next, the next holding it.
func TestLocksDeadlockProperty(t *testing.T) {
	tried := 0
	for _, src := range deadlockSources(t) {
		dl := src.full.Deadlocks[0]
		var b strings.Builder
		b.WriteString("NULL\n1LKDEADLOCK    Deadlock detected !!!\nNULL           ---------------------\nNULL\n")
		// Each thread of the cycle its own J9VMThread: two threads may
		// share a name (samurai's two "DeadLockThread"s).
		id := func(k int) string { return fmt.Sprintf("0x%08X", 0x94501D00+k*0x5800) }
		var want []string
		fits := len(dl.Cycle) > 1
		for k, e := range dl.Cycle {
			kind, addr, class := edgeWait(e.Waiting)
			if kind != LockWaitingTo || addr == "" || class == "" || e.Holder == "" {
				fits = false
				break
			}
			verb := "is"
			if k > 0 {
				verb = "which is"
			}
			fmt.Fprintf(&b, "2LKDEADLOCKTHR  Thread %q (%s)\n3LKDEADLOCKWTR    %s waiting for:\n", e.Thread, id(k), verb)
			fmt.Fprintf(&b, "4LKDEADLOCKMON      sys_mon_t:0x08C2B344 infl_mon_t: 0x08C2B384:\n4LKDEADLOCKOBJ      %s@%s\n3LKDEADLOCKOWN    which is owned by:\n", strings.ReplaceAll(class, ".", "/"), addr)
			want = append(want, fmt.Sprintf("%q enters %s owned by %q", e.Thread, addr, e.Holder), fmt.Sprintf("%q holds %s", e.Holder, addr))
		}
		if !fits || dl.Cycle[len(dl.Cycle)-1].Holder != dl.Cycle[0].Thread {
			continue
		}
		fmt.Fprintf(&b, "2LKDEADLOCKTHR  Thread %q (%s)\nNULL\n", dl.Cycle[0].Thread, id(0))
		tried++
		dumps, err := Parse(src.name, strings.NewReader(b.String()))
		if err != nil || len(dumps) != 1 || len(dumps[0].Deadlocks) != 1 {
			t.Errorf("%s: %d dumps, %v", src.name, len(dumps), err)
			continue
		}
		sort.Strings(want)
		got := readGraphLines(dumps[0])
		if strings.Join(want, "\n") != strings.Join(got, "\n") || len(dumps[0].Threads) != len(dl.Cycle) {
			t.Errorf("%s: %d threads (want %d), graph:\n%s\nwant:\n%s", src.name, len(dumps[0].Threads), len(dl.Cycle), strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	t.Logf("deadlock reports written as 1LKDEADLOCK alone: %d", tried)
	if tried < 3 {
		t.Errorf("only %d deadlock reports fit: the testdata has more", tried)
	}
}

// TestLocksMonitorExcerptProperty: a LOCKS section pasted from one of its
// monitors on, without the section's header or the pool's (a ticket
// quotes the monitor that matters, eclipse-openj9/openj9#8724 from a
// "2LKREGMON … Flat locked by" line), reads back as the same graph. Each
// dump's monitors are written two ways: the object monitors cut before
// their first 2LKMONINUSE (or 3LKMONOBJECT) line, and the same monitors
// as registered VM monitors ("2LKREGMON  <name> lock (0x…): Flat locked
// by …") with nothing before them.
func TestLocksMonitorExcerptProperty(t *testing.T) {
	tried, same := 0, 0
	for _, in := range pasteInputs(t) {
		if in.rt != RuntimeJVM || len(in.dumps) != 1 {
			continue
		}
		d := in.dumps[0]
		g := monitorsOf(d)
		if len(g.addrs) == 0 {
			continue
		}
		whole := locksSection(d, g)
		cutAt := func(tag string) string {
			i := strings.Index(whole, "\n"+tag)
			if i < 0 {
				t.Fatalf("%s: no %s line in the written section", in.name, tag)
			}
			return whole[i+1:]
		}
		regs := strings.NewReplacer("2LKMONINUSE", "NULL       ").Replace(cutAt("2LKMONINUSE"))
		var b strings.Builder
		for _, line := range strings.Split(regs, "\n") {
			if obj, ok := strings.CutPrefix(line, "3LKMONOBJECT       "); ok {
				// java/lang/Object@0xB56658D8: owner → a VM monitor named by the class
				at, rest, _ := strings.Cut(obj, ": ")
				class, addr, _ := strings.Cut(at, "@")
				line = fmt.Sprintf("2LKREGMON          %s lock (%s): %s", class, addr, rest)
			}
			if strings.HasPrefix(line, "NULL       ") {
				continue
			}
			b.WriteString(line + "\n")
		}
		for _, text := range []string{cutAt("2LKMONINUSE"), cutAt("3LKMONOBJECT"), b.String()} {
			tried++
			dumps, err := Parse(in.name, strings.NewReader(text))
			if err != nil || len(dumps) != 1 {
				t.Errorf("%s: %d dumps, %v, from:\n%.300s", in.name, len(dumps), err, text)
				continue
			}
			want, got := graphLines(d, g), readGraphLines(dumps[0])
			if strings.Join(want, "\n") != strings.Join(got, "\n") {
				t.Errorf("%s: the monitors pasted alone read another graph:\n%s", in.name, firstDiff(strings.Join(want, "\n"), strings.Join(got, "\n")))
				continue
			}
			if dumps[0].Format != FormatJavacore || dumps[0].Excerpt == "" {
				t.Errorf("%s: format %s, excerpt %q", in.name, dumps[0].Format, dumps[0].Excerpt)
				continue
			}
			same++
		}
	}
	t.Logf("monitors pasted without the section's header that read back as the same graph: %d of %d", same, tried)
	if tried < 30 || same != tried {
		t.Errorf("%d of %d read back (the testdata has more than 10 dumps with monitors, three texts each)", same, tried)
	}
}
