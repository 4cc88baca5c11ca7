package tui

import (
	"strings"
	"testing"
)

// TestCompareFollowsTheThread: on a real incident, c on a Tomcat worker
// stuck in socket-read at during-1 compares that worker's own stack with
// its stack at before, when it rested in another state: the comparison
// crosses states, names each side's state, and shows frames on each side
// only (the rest's park against the socket read). A worker absent at a
// moment is said, never silently replaced by another thread's stack.
func TestCompareFollowsTheThread(t *testing.T) {
	m := sized(t, scenario(t, "slow-upstream-no-timeout"), 140, 50)
	m = openPoolNamed(t, m, "http-nio-18080-exec-*")
	m = openStateNamed(t, m, "socket-read")
	m = send(t, m, "2") // during-1
	st := m.top().(*statePane)
	// Select a worker that was already there at before (the pool had 10).
	found := false
	for i, th := range st.threads {
		key, _ := keyOf(th)
		if at := st.ix.threadAt(0, key); at.g != nil && at.g.State != "socket-read" {
			for range i {
				m = send(t, m, "down")
			}
			found = true
			break
		}
	}
	if !found {
		t.Fatalf("no worker at during-1 that was in another state at before:\n%s", text(m))
	}
	st = m.top().(*statePane)
	name := threadName(st.selected())
	m = send(t, m, "c", "1")
	s := text(m)
	contains(t, "compare", s, "COMPARE "+name+" · during-1 socket-read", "⇄ before ")
	st = m.top().(*statePane)
	if st.stateAt(0) == " socket-read" || !st.follow {
		t.Fatalf("the comparison does not cross states (before:%s, follow %v):\n%s", st.stateAt(0), st.follow, s)
	}
	left, right := 0, 0
	for _, op := range st.diff {
		switch op.Kind {
		case '-':
			left++
		case '+':
			right++
		}
	}
	if left == 0 || right == 0 {
		t.Errorf("a worker's rest and its socket read share every frame (%d only left, %d only right):\n%s", left, right, s)
	}
	if !strings.Contains(s, "UpstreamClient.java:25) ◀") && !strings.Contains(s, "UpstreamClient.fetch:25 ◀") {
		t.Errorf("the culprit is not marked on its side:\n%s", s)
	}
	if !strings.Contains(s, "SocketDispatcher.read0") && !strings.Contains(s, "socketRead") && !strings.Contains(s, "NioSocketImpl") {
		t.Errorf("the socket read's frames are not in the comparison:\n%s", s)
	}
}
