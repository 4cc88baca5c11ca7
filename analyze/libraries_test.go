package analyze

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// libraryCase says which state (and via) the threads of a real dump of a
// real library must be classified in: the JVM threads whose name matches,
// or the goroutines with a frame whose function matches.
type libraryCase struct {
	file    string // under testdata/libs
	rt      parse.Runtime
	threads string // regexp: a JVM thread's name, or with "frame:" (always for Go) a frame's function
	min     int    // at least this many threads match
	state   string
	via     string // "" to not check
}

// libraryCases are real dumps written by programs using the real libraries
// (testdata/gen/libs-*, see each folder's README.md). TestSignatures counts
// them as the rows' test cases.
var libraryCases = []libraryCase{
	// Apache HttpClient 4.5, PoolingHttpClientConnectionManager max 4 per
	// route: 4 hold a connection in a socket read, 16 wait for one.
	{"jvm-httpclient4-pool/1.txt", parse.RuntimeJVM, `frame:^org\.apache\.http\.pool\.AbstractConnPool\.getPoolEntryBlocking$`, 16, "http-pool-wait", ""},
	{"jvm-httpclient4-pool/1.txt", parse.RuntimeJVM, `frame:^org\.apache\.http\.impl\.io\.SessionInputBufferImpl\.fillBuffer$`, 4, "socket-read", "http-client"},
	// HttpClient 5.2 classic, StrictConnPool and LaxConnPool: the lease's
	// BasicFuture waits in Object.wait under the connection manager.
	{"jvm-httpclient5-pool/1.txt", parse.RuntimeJVM, `frame:^org\.apache\.hc\.core5\.pool\.StrictConnPool\$1\.get$`, 16, "http-pool-wait", ""},
	{"jvm-httpclient5-pool-lax/1.txt", parse.RuntimeJVM, `frame:^org\.apache\.hc\.core5\.pool\.LaxConnPool\$PerRoutePool\$1\.get$`, 16, "http-pool-wait", ""},
	{"jvm-httpclient5-pool/1.txt", parse.RuntimeJVM, `frame:^org\.apache\.hc\.core5\.http\.impl\.io\.SessionInputBufferImpl\.fillBuffer$`, 4, "socket-read", "http-client"},
	// commons-pool2 2.11 GenericObjectPool of plain objects: never "DB".
	{"jvm-commons-pool2/1.txt", parse.RuntimeJVM, `^report-worker-`, 10, "object-pool-wait", ""},
	// ReentrantReadWriteLock in all its lock methods (readers, writers,
	// tryLock with a timeout, lockInterruptibly).
	{"jvm-rwlock/1.txt", parse.RuntimeJVM, `^catalog-(reader|writer|stream|try-writer)-`, 13, "lock-wait", ""},
	// Netty 4.1: idle event loops in the selector; blocked ones in whatever
	// the handler blocks on.
	{"jvm-netty-idle/1.txt", parse.RuntimeJVM, `^nioEventLoopGroup-`, 6, "selector-wait", ""},
}

func TestLibraryFixtures(t *testing.T) {
	for _, c := range libraryCases {
		t.Run(c.file+" "+c.threads, func(t *testing.T) {
			ds, err := parse.ParseFile(filepath.Join("..", "testdata", "libs", c.file))
			if err != nil {
				t.Fatal(err)
			}
			byFrame := c.rt == parse.RuntimeGo || strings.HasPrefix(c.threads, "frame:")
			re := regexp.MustCompile(strings.TrimPrefix(c.threads, "frame:"))
			n := 0
			for _, th := range ds[0].Threads {
				if !libraryMatch(byFrame, re, th) {
					continue
				}
				n++
				s := classify(c.rt, th)
				got := "unclassified"
				if s != nil {
					got = s.ID
				}
				if got != c.state {
					t.Errorf("%s %d: state %s, want %s", th.Name, th.ID, got, c.state)
					continue
				}
				if v, _, _ := viaFor(s, th); c.via != "" && v != c.via {
					t.Errorf("%s %d: via %q, want %q", th.Name, th.ID, v, c.via)
				}
			}
			if n < c.min {
				t.Errorf("%d threads match %q, want at least %d", n, c.threads, c.min)
			}
		})
	}
}

func libraryMatch(byFrame bool, re *regexp.Regexp, th *parse.Thread) bool {
	if !byFrame {
		return re.MatchString(th.Name)
	}
	for _, f := range th.Frames {
		if re.MatchString(f.Func) {
			return true
		}
	}
	return false
}
