package analyze

import (
	"math/rand"
	"strings"
	"testing"
)

// TestAnchorGlob: the anchors of the signature table as they are written,
// against frames of the libraries they name and frames they must not take.
func TestAnchorGlob(t *testing.T) {
	cases := []struct {
		anchor, fn string
		want       bool
	}{
		{"sun.nio.ch.Net.poll", "sun.nio.ch.Net.poll", true},
		{"sun.nio.ch.Net.poll", "sun.nio.ch.Net.pollConnect", false},
		{"org.xnio.XnioWorker$TaskPool*", "org.xnio.XnioWorker$TaskPool.execute", true},
		{"org.xnio.XnioWorker$TaskPool*", "org.xnio.XnioWorker.run", false},
		// A relocated Netty (gRPC's shaded copy) and the original.
		{"*io.netty.channel.epoll.Native.epollWait*", "io.grpc.netty.shaded.io.netty.channel.epoll.Native.epollWait0", true},
		{"*io.netty.channel.epoll.Native.epollWait*", "io.netty.channel.epoll.Native.epollWait", true},
		{"*io.netty.channel.epoll.Native.epollWait*", "io.netty.channel.epoll.Native.epollBusyWait", false},
		{"*io.netty.util.concurrent.SingleThreadEventExecutor.takeTask", "io.netty.util.concurrent.SingleThreadEventExecutor.takeTask", true},
		{"*io.netty.util.concurrent.SingleThreadEventExecutor.takeTask", "io.netty.util.concurrent.SingleThreadEventExecutor.takeTasks", false},
		// A family of methods.
		{"java.util.concurrent.locks.StampedLock.*Lock", "java.util.concurrent.locks.StampedLock.readLock", true},
		{"java.util.concurrent.locks.StampedLock.*Lock", "java.util.concurrent.locks.StampedLock.readLockInterruptibly", false},
		// A Go pointer receiver's '*' is itself.
		{"database/sql.(*DB).conn", "database/sql.(*DB).conn", true},
		{"database/sql.(*DB).conn", "database/sql.(xDB).conn", false},
		{"*RWMutex).RLock", "sync.(*RWMutex).RLock", true},
		{"*RWMutex).rlock*", "internal/sync.(*RWMutex).rlockSlow", true},
		{"*Mutex).Lock", "sync.(*RWMutex).Lock", true},
		{"*Mutex).Lock", "sync.(*Mutex).LockSlow", false},
		{"*google.golang.org/grpc/internal/transport.(*recvBufferReader).read*", "google.golang.org/grpc/internal/transport.(*recvBufferReader).readClient", true},
		{"*google.golang.org/grpc/internal/transport.(*recvBufferReader).read*", "google.golang.org/grpc/internal/transport.(*recvBufferReader).Read", false},
		// Runs that overlap: the last must end the frame.
		{"*ab*ab", "abab", true},
		{"*ab*ab", "xxabyab", true},
		{"a*a", "a", false},
		{"*", "", true},
	}
	for _, c := range cases {
		if got := anchorGlob(c.anchor, c.fn); got != c.want {
			t.Errorf("anchorGlob(%q, %q) = %v, want %v", c.anchor, c.fn, got, c.want)
		}
	}
}

// TestAnchorGlobAgainstBacktracking: the one-scan matcher agrees with the
// plain backtracking definition (try every place for each '*') on random
// anchors and frames over a small alphabet, where runs repeat and overlap.
func TestAnchorGlobAgainstBacktracking(t *testing.T) {
	var backtrack func(a, fn string) bool
	backtrack = func(a, fn string) bool {
		w := wildcard(a)
		if w < 0 {
			return a == fn
		}
		if !strings.HasPrefix(fn, a[:w]) {
			return false
		}
		rest, fn := a[w+1:], fn[w:]
		for k := 0; k <= len(fn); k++ {
			if backtrack(rest, fn[k:]) {
				return true
			}
		}
		return false
	}
	rng := rand.New(rand.NewSource(1))
	word := func(alphabet string, n int) string {
		b := make([]byte, rng.Intn(n+1))
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
		}
		return string(b)
	}
	for range 200_000 {
		a, fn := word("ab*(", 7), word("ab(*", 9)
		if got, want := anchorGlob(a, fn), backtrack(a, fn); got != want {
			t.Fatalf("anchorGlob(%q, %q) = %v, backtracking says %v", a, fn, got, want)
		}
	}
}
