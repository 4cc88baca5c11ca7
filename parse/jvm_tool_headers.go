package parse

import "bytes"

// Thread headers that tools other than the JVM's print from ThreadInfo,
// with the thread's name quoted and an id, but neither HotSpot's prio=,
// tid= and nid= nor ThreadInfo.toString's "Id=":
//
//	"worker-a" #12 BLOCKED on java.lang.Object@1b2c3d4 owned by "worker-b" #13     (jcmd-like ids)
//	"worker-a" #12 state=BLOCKED                                                     (then, on its own line:)
//	    waiting on java.lang.Object@1b2c3d4 owned by "worker-b" #13
//	"pool-8-thread-2" tid=0x16 owned by "pool-8-thread-1" tid=0x15                   (Apache Geode's ExecutorServiceRule.dumpThreads,
//	   - locked synchronizer <0x153f5a29> (a java.util.concurrent.ThreadPoolExecutor$Worker)      apache/geode#3114)
//	   java.lang.Thread.State: BLOCKED
//
// Before, such a header started no dump and a thread read after it
// lost its name ("(unnamed 1)"), and with it one side of the lock graph.
// The header is read by parseThreadHeader; the owner its header or wait
// line names is the owner of the thread's wait (threadInfoWait, the "-"
// lock lines).

// isToolThreadHeader reports whether line is one of the headers above:
// a quoted name (a name may hold `" `: each closing quote is tried), an
// optional "daemon", then "#N" followed by the end, a state in capitals
// or "state="; or "tid=0xHEX" followed by the end or ` owned by "`.
func isToolThreadHeader(line []byte) bool {
	if len(line) < 4 || line[0] != '"' {
		return false
	}
	for q := bytes.Index(line[1:], []byte(`" `)); q >= 0; {
		q++ // in line
		rest := line[q+2:]
		rest, _ = bytes.CutPrefix(rest, []byte("daemon "))
		if toolHeaderRest(rest) {
			return true
		}
		n := bytes.Index(line[q+1:], []byte(`" `))
		if n < 0 {
			return false
		}
		q += n
	}
	return false
}

// toolHeaderRest reads what follows the name (see isToolThreadHeader).
func toolHeaderRest(rest []byte) bool {
	switch {
	case len(rest) > 1 && rest[0] == '#':
		i := 1
		for i < len(rest) && isDigit(rest[i]) {
			i++
		}
		if i == 1 {
			return false
		}
		if i == len(rest) {
			return true
		}
		if rest[i] != ' ' {
			return false
		}
		w := nextWord(rest[i+1:])
		if v, ok := bytes.CutPrefix(w, []byte("state=")); ok {
			return isUpperWord(v)
		}
		return isUpperWord(w) && len(w) > 3 // RUNNABLE, BLOCKED, WAITING, TIMED_WAITING, NEW, TERMINATED: not "A"
	case bytes.HasPrefix(rest, []byte("id=")):
		// Dropwizard's /threads (metrics-jvm ThreadDump) and the tools
		// that copied it: `id=N state=STATE`, Jenkins's `id=N (0xN)
		// state=STATE cpu=N%`.
		i := len("id=")
		for i < len(rest) && isDigit(rest[i]) {
			i++
		}
		if i == len("id=") || i == len(rest) || rest[i] != ' ' {
			return false
		}
		r := rest[i+1:]
		if len(r) > 0 && r[0] == '(' {
			if k := bytes.IndexByte(r, ')'); k > 0 && k+1 < len(r) && r[k+1] == ' ' {
				r = r[k+2:]
			}
		}
		v, ok := bytes.CutPrefix(nextWord(r), []byte("state="))
		return ok && isUpperWord(v)
	case bytes.HasPrefix(rest, []byte("tid=0x")):
		i := len("tid=0x")
		for i < len(rest) && isHexDigits(rest[i:i+1]) {
			i++
		}
		if i == len("tid=0x") {
			return false
		}
		return i == len(rest) || bytes.HasPrefix(rest[i:], []byte(` owned by "`))
	}
	return false
}

// headerOwner reads the owner a header's detail names without the lock
// (Geode's `owned by "pool-8-thread-1" tid=0x15`); ok false otherwise.
func headerOwner(detail string) (owner string, ok bool) {
	rest, found := cutPrefixString(detail, `owned by "`)
	if !found {
		return "", false
	}
	q := bytes.LastIndexByte([]byte(rest), '"')
	if q <= 0 {
		return "", false
	}
	return rest[:q], true
}
