package parse

import "testing"

// TestEdgeWait reads the summary entries of the deadlock reports HotSpot
// has printed (the shapes of the public reports testdata/formats/README.md
// cites): the lock's kind, the address the stack's lock lines print (the
// object's, else the monitor's), and the class with dots.
func TestEdgeWait(t *testing.T) {
	for _, tt := range []struct {
		name, in    string
		kind        LockKind
		addr, class string
	}{
		{"monitor, JDK 6 and later", "waiting to lock monitor 0x00007f3c18001440 (object 0x00000000fc0dfed8, a com.example.bank.Account),",
			LockWaitingTo, "0x00000000fc0dfed8", "com.example.bank.Account"},
		{"jstack -F", "waiting to lock Monitor@0x00007f9958004848 (Object@0x00000000803c6648, a org/glowroot/agent/util/RateLimitedLogger),",
			LockWaitingTo, "0x00000000803c6648", "org.glowroot.agent.util.RateLimitedLogger"},
		{"JDK 5: no object address", "waiting to lock monitor 0x080f0cdc (a MumbleDBConnection),",
			LockWaitingTo, "0x080f0cdc", "MumbleDBConnection"},
		{"ownable synchronizer", "waiting for ownable synchronizer 0x00000000fc0dffe8, (a java.util.concurrent.locks.ReentrantLock$NonfairSync),",
			LockParking, "0x00000000fc0dffe8", "java.util.concurrent.locks.ReentrantLock$NonfairSync"},
		{"JNI monitor: none of these", "waiting to lock JNI monitor 0x0000000000000000,", "", "", ""},
	} {
		kind, addr, class := edgeWait(tt.in)
		if kind != tt.kind || addr != tt.addr || class != tt.class {
			t.Errorf("%s: edgeWait(%q) = %q, %q, %q; want %q, %q, %q", tt.name, tt.in, kind, addr, class, tt.kind, tt.addr, tt.class)
		}
	}
}

// TestJVMExcerptStarts: the lines that start a JVM excerpt, and lines
// like them that do not.
func TestJVMExcerptStarts(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"Found one Java-level deadlock:", true},
		{"Java stack information for the threads listed above:", true},
		{"   java.lang.Thread.State: WAITING (parking)", true},
		{"java.lang.Thread.State: BLOCKED (on object monitor)", true},
		{"\tjava.lang.Thread.State: BLOCKED", false},   // no jstack's: a TAB is a prefix's
		{"    java.lang.Thread.State: BLOCKED", false}, // 4 spaces: a paste's indent, stripped first
		{`main" #1 prio=5 os_prio=0 tid=0x00007f6aec016800 nid=0xaba runnable  [0x00007f6af4245000]`, true},
		{`she said" prio=5 and more`, false},
		{`"sendWmsFetchOrderThreadPool-1" - Thread t@4442`, true},
		{`"x" - Thread t@`, false},
		{`Found 2 deadlocks.`, false},
	} {
		if got := startsJVMExcerpt([]byte(tt.line)); got != tt.want {
			t.Errorf("startsJVMExcerpt(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}
