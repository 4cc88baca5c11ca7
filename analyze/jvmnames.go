package analyze

import (
	"strconv"
	"strings"
)

// JVM pools are named by their threads' names with the per-thread part
// abstracted. Thread factories put that part in many places:
//
//	http-nio-8080-exec-17                                  a trailing counter
//	ExecuteThread: '14' for queue: 'weblogic.kernel.Default'   inside quotes (WebLogic)
//	RMI TCP Connection(69241)-207.241.232.5                 inside parentheses, a client address after it
//	Thread-12 (ActiveMQ-client-global-threads)             before the pool's own name
//	elasticsearch[node-1][refresh][T#3]                     inside brackets
//
// while other numbers in a name say which pool it is (the 8080 connector,
// pool-2 of Executors.defaultThreadFactory, hz._hzInstance_1_dev). No one
// position tells them apart, but the names of the analysis do: a number
// that is a counter differs from thread to thread, a pool's number is
// shared by its threads. So the names of every moment are learnt at once
// (learnJVMPools): names of one shape (the same text around their numbers)
// have each number position made "*" when it takes more distinct values
// than half the shape's distinct names (counterShare), and the trailing
// number always, as a lone "Timer-3" is still of pool "Timer-*".
//
// A pool's id is kept while few ids appear: "pool-1-thread-1",
// "pool-2-thread-1" and "pool-3-thread-1" are three executors of one thread
// each, "nioEventLoopGroup-2-1" and "nioEventLoopGroup-3-1" Netty's boss
// and worker groups, though their ids take as many values as the names
// (poolIDs). Only when the ids themselves multiply (thousands of
// "pool-N-thread-1": an executor made per request and never shut down)
// are they one pool, "pool-*-thread-*", whose growth the explosion
// detector sees.
//
// Also abstracted, as a table (nameMarkers): WebLogic's self-tuning state
// before a thread's name ("[ACTIVE] ", "[STANDBY] ", "[STUCK] "), which
// changes while the thread stays in its pool, and a URL in a name (OkHttp
// names a thread by the request it runs: "OkHttp http://10.0.0.5/api/1").

// counterShare is the share of a shape's distinct names a number position
// must take distinct values in to be a counter: above half, as a counter
// takes one value per thread; a pool's id (pool-1 and pool-2 of ten
// threads each: 2 values for 20 names) stays.
const counterShare = 0.5

// PoolIDLeak is the most distinct pool ids one naming shape keeps apart
// (poolIDs): an application makes its executors and event loop groups at
// start, a handful to a few dozen (the corpus's most in one JVM: 4
// executors, 4 Hazelcast members); more ids than this are pools made on
// the fly, as a leak makes them (one executor per request), and are one
// pool so that their growth is one.
const PoolIDLeak = 32

// NamingThresholds are the pool naming's thresholds, for README.md's
// table beside the detectors'.
var NamingThresholds = []Threshold{
	{"counterShare", counterShare, "a number position of a thread name is a counter (\"*\") when it takes more distinct values than this share of its shape's distinct names; a pool's id (pool-1 and pool-2 of ten threads each) stays"},
	{"PoolIDLeak", PoolIDLeak, "…but the number right before a trailing member counter that restarts in each pool (pool-N-thread-1, nioEventLoopGroup-N-1) is a pool's id, kept up to this many distinct ids: three executors of one thread are three pools; more ids are executors made on the fly (a leak), one pool; and more than this many owners of one naming shape at one moment, each at rest with the same threads, are the executor-leak rule's one-moment warning"},
}

// nameMarkers are prefixes a thread's name carries for a while, not for
// its pool: removed before the name is shaped.
// Not a [roles] key: WebLogic's own name markers, a vendor's fact.
var nameMarkers = []string{"[ACTIVE] ", "[STANDBY] ", "[STUCK] "}

// shapedName is a thread name cut at its digit runs: text[0] num[0]
// text[1] num[1] ... text[len(num)].
type shapedName struct {
	name string
	text []string
	num  []string
}

func shapeName(name string) shapedName {
	s := shapedName{name: name}
	start := 0
	for i := 0; i < len(name); {
		if !isDigit(name[i]) {
			i++
			continue
		}
		j := i
		for j < len(name) && isDigit(name[j]) {
			j++
		}
		s.text = append(s.text, name[start:i])
		s.num = append(s.num, name[i:j])
		start, i = j, j
	}
	s.text = append(s.text, name[start:])
	return s
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// key is the shape: the text with each number as '#'.
func (s shapedName) key() string { return strings.Join(s.text, "#") }

// trimMarkers removes nameMarkers and a URL's rest from name.
func trimMarkers(name string) string {
	for _, m := range nameMarkers {
		name = strings.TrimPrefix(name, m)
	}
	// "dw-2113 - GET /orders/7" (Dropwizard's ThreadNameFilter, and every
	// filter that names a worker after its request): the worker's own
	// name is before " - METHOD /"; the request it runs is not its pool.
	if k := requestSuffix(name); k > 0 {
		return name[:k]
	}
	// "OkHttp http://host/path", Heritrix's "ToeThread #3: dns:host": from
	// a URI's scheme to the end is the request a thread runs, not its pool.
	start := 0
	for _, tok := range strings.SplitAfter(name, " ") {
		if uriStart(tok) {
			return name[:start] + "*"
		}
		start += len(tok)
	}
	return name
}

// httpMethods are the request methods a worker renamed after its request
// carries (RFC 9110's, and PATCH).
var httpMethods = []string{"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"}

// requestSuffix returns where " - METHOD /path" (or " - METHOD http…")
// starts in name, 0 if it has none.
func requestSuffix(name string) int {
	for off := 0; ; {
		k := strings.Index(name[off:], " - ")
		if k < 0 {
			return 0
		}
		k += off
		rest := name[k+3:]
		for _, m := range httpMethods {
			if r, ok := strings.CutPrefix(rest, m+" "); ok && (strings.HasPrefix(r, "/") || strings.HasPrefix(r, "http")) && k > 0 {
				return k
			}
		}
		off = k + 3
	}
}

// uriStart reports whether tok starts a URI: a lowercase scheme of 2 to
// 10 letters, then ':' and more that is not a number ("http://h",
// "dns:host", "ldap://h"; not "Listener:7", "p: thread-pool-1").
func uriStart(tok string) bool {
	i := strings.IndexByte(tok, ':')
	if i < 2 || i > 10 || i+1 >= len(tok) || isDigit(tok[i+1]) || tok[i+1] == ' ' {
		return false
	}
	for _, c := range []byte(tok[:i]) {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// poolIDs tells whether position p of names (one shape) is the id of the
// pool whose member counter trails the name right after it, and how many
// ids there are. Each pool numbers its threads from its first (0 or 1), so
// the lowest member of most ids is 0 or 1 ("pool-1-thread-1",
// "pool-2-thread-1"; Netty's "nioEventLoopGroup-3-1"). A number before a
// counter that does not restart is no pool's id ("Executor #0 for
// jenkins_slave_02": each agent's executors, the agent's number after),
// and an address's octets sit between a connection's counter and the end
// ("RMI TCP Connection(69241)-10.0.0.5").
func poolIDs(names []shapedName, p int) (int, bool) {
	lowest := map[string]int{} // id → its lowest member number
	for _, s := range names {
		m, err := strconv.Atoi(s.num[p+1])
		if err != nil {
			return 0, false // a run of digits too long for an int: no member counter
		}
		if l, ok := lowest[s.num[p]]; !ok || m < l {
			lowest[s.num[p]] = m
		}
	}
	first := 0
	for _, l := range lowest {
		if l <= 1 {
			first++
		}
	}
	return len(lowest), 2*first > len(lowest)
}

// learnJVMPools names the pool of every JVM thread name in the moments.
// One pass over the threads, then one over the distinct names; linear in
// both (a pool of 3,000 has 3,000 names, all moments together).
func learnJVMPools(in []Input) map[string]string {
	shapes := map[string][]shapedName{} // shape → its distinct names
	seen := map[string]string{}         // name → trimmed name
	shaped := map[string]bool{}         // trimmed names already in shapes
	for _, x := range in {
		if x.Dump == nil {
			continue
		}
		for _, t := range x.Dump.Threads {
			name := t.Name()
			if _, ok := seen[name]; ok || name == "" {
				continue
			}
			trimmed := trimMarkers(name)
			seen[name] = trimmed
			// "[ACTIVE] x" and "[STANDBY] x" are one name once trimmed.
			if shaped[trimmed] {
				continue
			}
			shaped[trimmed] = true
			s := shapeName(trimmed)
			shapes[s.key()] = append(shapes[s.key()], s)
		}
	}
	pattern := map[string]string{} // trimmed name → pool
	for _, names := range shapes {
		n := len(names[0].num)
		counter := make([]bool, n)
		for p := range n {
			values := map[string]bool{}
			for _, s := range names {
				values[s.num[p]] = true
			}
			counter[p] = len(names) > 1 && float64(len(values)) > counterShare*float64(len(names))
		}
		trailing := names[0].text[n] == "" && n > 0
		if trailing && n >= 2 && len(names) > 1 {
			if ids, ok := poolIDs(names, n-2); ok {
				counter[n-2] = ids > PoolIDLeak
			}
		}
		for _, s := range names {
			var b strings.Builder
			for p := range n {
				b.WriteString(s.text[p])
				if counter[p] || (trailing && p == n-1) {
					b.WriteByte('*')
				} else {
					b.WriteString(s.num[p])
				}
			}
			b.WriteString(s.text[n])
			pattern[s.name] = b.String()
		}
	}
	out := make(map[string]string, len(seen))
	for name, trimmed := range seen {
		out[name] = pattern[trimmed]
	}
	return out
}
