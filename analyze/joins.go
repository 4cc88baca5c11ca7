package analyze

import (
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A two-sided wait in a JVM: a thread that waits for another to end or to
// give it a result (Thread.join, a future's get) names neither in the
// dump; what ties them is the code. javac names a lambda after the method
// that writes it (com.test.MainClass.main's first lambda is
// com.test.MainClass.lambda$main$0) and an anonymous class after its
// class (MainClass$1), so a thread whose stack runs a lambda or an
// anonymous class of the method a waiter waits in is the thread that
// waiter waits for: main's join on the virtual thread it started
// (judge4 case 41, bcluap/virtual-threads), a get on the future a task of
// main's lambda should complete. The tie is said where the waited-for
// thread is named (a notable line: "main waits for it"), the holder first.

// joinWaits are the frames of a wait for another thread's end or result,
// each a prefix of a frame's function.
// Not a [roles] key: the tie reads the JDK classes' own structure (a
// joined Thread's address, a FutureTask's runner), which a team's own
// future does not share; its no-peer wait is handoff-task-result.
var joinWaits = []string{
	"java.lang.Thread.join",
	"java.util.concurrent.FutureTask.get",
	"java.util.concurrent.FutureTask.awaitDone",
	"java.util.concurrent.CompletableFuture.get",
	"java.util.concurrent.CompletableFuture.join",
	"java.util.concurrent.ForkJoinTask.join",
	"java.util.concurrent.ForkJoinTask.get",
}

// joinTie is a waiter and the frame it waits in.
type joinTie struct {
	waiter *parse.Thread
	at     *parse.Frame // the waiter's first frame outside the JDK, under its wait
	how    string       // the wait's frame ("Thread.join")
}

// joinSite is where t waits for another thread: the function of its
// first frame outside the JDK under a join or get frame ("com.test.
// MainClass.main"), that frame, and the wait's own; "" when t waits so
// nowhere.
func joinSite(t *parse.Thread) (string, *parse.Frame, string) {
	how := ""
	for _, f := range t.Frames {
		if how == "" {
			for _, j := range joinWaits {
				if strings.HasPrefix(f.Func, j) {
					how = shortFunc(f.Func)
					break
				}
			}
			continue
		}
		if !anyPrefix(f.Func, jdkPackages) {
			return f.Func, f, how
		}
	}
	return "", nil, ""
}

// runsCodeOf reports whether t runs a lambda or an anonymous class that
// site (a class and method, "com.test.MainClass.main") wrote: a frame
// "com.test.MainClass.lambda$main$0", or one of class "com.test.MainClass$1".
func runsCodeOf(t *parse.Thread, site string) bool {
	dot := strings.LastIndexByte(site, '.')
	if dot <= 0 {
		return false
	}
	class, method := site[:dot], site[dot+1:]
	lambda := class + ".lambda$" + method + "$"
	anon := class + "$"
	for _, f := range t.Frames {
		if strings.HasPrefix(f.Func, lambda) {
			return true
		}
		if rest, ok := strings.CutPrefix(f.Func, anon); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			return true
		}
	}
	return false
}

// joinTies maps each thread of d that another waits for (by join or get)
// to its waiters: a waiter is tied to the one thread that runs code its
// waiting method wrote. A join through VirtualThread.joinNanos waits for
// a virtual thread, any other join for a platform one; where several
// threads still run that method's code, those at rest (atRest: a
// server's accept loop the same method started, an idle worker) are
// passed over, and where more than one is left nothing is tied (two
// workers of the same lambda cannot tell which one it waits for).
func joinTies(d *parse.Dump, atRest func(*parse.Thread) bool) map[*parse.Thread][]joinTie {
	if d == nil {
		return nil
	}
	var ties map[*parse.Thread][]joinTie
	for _, w := range d.Threads {
		site, at, how := joinSite(w)
		if site == "" {
			continue
		}
		virtual := anyFramePrefix(w, []string{"java.lang.VirtualThread.joinNanos"})
		var cands []*parse.Thread
		for _, t := range d.Threads {
			if t == w || !runsCodeOf(t, site) {
				continue
			}
			if how == "Thread.join" && t.JVM != nil && t.JVM.Virtual != virtual {
				continue
			}
			cands = append(cands, t)
		}
		if len(cands) > 1 {
			busy := cands[:0:0]
			for _, t := range cands {
				if !atRest(t) {
					busy = append(busy, t)
				}
			}
			cands = busy
		}
		if len(cands) != 1 {
			continue
		}
		if ties == nil {
			ties = map[*parse.Thread][]joinTie{}
		}
		ties[cands[0]] = append(ties[cands[0]], joinTie{waiter: w, at: at, how: how})
	}
	return ties
}

// shortFunc is a JVM function without its package: "Thread.join".
func shortFunc(fn string) string {
	dot := strings.LastIndexByte(fn, '.')
	if dot <= 0 {
		return fn
	}
	if p := strings.LastIndexByte(fn[:dot], '.'); p >= 0 {
		return fn[p+1:]
	}
	return fn
}

// waitersText says who waits for a thread, from its ties: "main waits for
// it to end (Thread.join at com.test.MainClass.main(MainClass.java:14))";
// "" when none.
func waitersText(ties []joinTie) string {
	var parts []string
	for _, j := range ties {
		what := "for its result"
		if j.how == "Thread.join" {
			what = "for it to end"
		}
		parts = append(parts, threadLabel(parse.RuntimeJVM, j.waiter)+" waits "+what+" ("+j.how+" at "+FrameString(j.at)+")")
	}
	return strings.Join(parts, "; ")
}
