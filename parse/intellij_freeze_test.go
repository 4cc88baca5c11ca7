package parse

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// TestFreezeDumpProperty: every committed JVM dump, written as IntelliJ's
// own ThreadDumper writes a dump (com.intellij.diagnostic.ThreadDumper:
// "prio=0 tid=0x0 nid=0x0", the state, " on LOCK owned by "NAME" Id=N",
// "\tat " frames), reads back with the same threads, states, frames and
// each thread's blocking lock (its class, its owner, its kind), every
// line read.
func TestFreezeDumpProperty(t *testing.T) {
	readable := map[string]string{"BLOCKED": "blocked", "WAITING": "waiting on condition", "TIMED_WAITING": "waiting on condition",
		"RUNNABLE": "runnable", "NEW": "new", "TERMINATED": "terminated"}
	tried, same := 0, 0
	for _, in := range pasteInputs(t) {
		if in.rt != RuntimeJVM || len(in.dumps) != 1 {
			continue
		}
		var b strings.Builder
		var want []string
		names := map[string]bool{}
		for _, th := range in.dumps[0].Threads {
			n := th.Name()
			rs, ok := readable[th.State]
			if n == "" || !ok || names[n] || strings.ContainsAny(n, "\"\n") || len(th.Frames) == 0 {
				continue
			}
			names[n] = true
			fmt.Fprintf(&b, "%q prio=0 tid=0x0 nid=0x0 %s\n     java.lang.Thread.State: %s\n", n, rs, th.State)
			lock := ""
			for _, l := range th.Locks() {
				if (l.Kind == LockWaitingTo || l.Kind == LockWaitingOn || l.Kind == LockParking) && strings.HasPrefix(l.Address, "0x") && l.Class != "" && !strings.Contains(l.Class, " ") {
					hash := strings.TrimLeft(l.Address[2:], "0")
					fmt.Fprintf(&b, " on %s@%s", l.Class, hash)
					if l.Owner != "" && !strings.Contains(l.Owner, "\"") {
						fmt.Fprintf(&b, " owned by %q Id=%d", l.Owner, l.OwnerID)
					}
					kind := LockParking
					switch top := th.Frames[0].Func; {
					case th.State == "BLOCKED":
						kind = LockWaitingTo
					case top == "java.lang.Object.wait" || top == "java.lang.Object.wait0":
						kind = LockWaitingOn
					}
					owner := l.Owner
					if strings.Contains(owner, "\"") {
						owner = ""
					}
					lock = fmt.Sprintf(" %s %s@0x%s owner %q", kind, l.Class, hash, owner)
					break
				}
			}
			if th.State == "RUNNABLE" && len(names)%2 == 0 {
				b.WriteString(" (in native)") // ThreadInfo.isInNative, with or without a lock before it
			}
			b.WriteString("\n")
			for _, f := range th.Frames {
				fmt.Fprintf(&b, "\tat %s(Unknown Source)\n", f.Func)
			}
			b.WriteString("\n")
			want = append(want, fmt.Sprintf("%q %s %d frames%s", n, th.State, len(th.Frames), lock))
		}
		if len(want) == 0 {
			continue
		}
		sort.Strings(want)
		tried++
		dumps, err := Parse(in.name, strings.NewReader(b.String()))
		if err != nil || len(dumps) != 1 {
			t.Errorf("%s: %d dumps, %v", in.name, len(dumps), err)
			continue
		}
		var got []string
		for _, th := range dumps[0].Threads {
			lock := ""
			for _, l := range th.Locks() {
				lock = fmt.Sprintf(" %s %s@%s owner %q", l.Kind, l.Class, l.Address, l.Owner)
			}
			got = append(got, fmt.Sprintf("%q %s %d frames%s", th.Name(), th.State, len(th.Frames), lock))
		}
		sort.Strings(got)
		if strings.Join(want, "\n") != strings.Join(got, "\n") || len(dumps[0].Skipped) > 0 {
			t.Errorf("%s: read another dump (%d skipped):\n%s", in.name, len(dumps[0].Skipped), firstDiff(strings.Join(want, "\n"), strings.Join(got, "\n")))
			continue
		}
		same++
	}
	t.Logf("JVM dumps written as IntelliJ's ThreadDumper writes them that read back the same: %d of %d", same, tried)
	least := 50 // with the shared corpus; testdata alone holds 16 such dumps
	if _, err := os.Stat(corpusDir); err != nil {
		least = 10
	}
	if tried < least || same != tried {
		t.Errorf("%d of %d read back", same, tried)
	}
}
