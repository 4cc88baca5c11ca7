package parse

import (
	"strings"
	"testing"
)

// TestDeadlockExcerptTimedPark: a deadlock report's stack copy pasted
// alone prints no state line; a thread parked in parkNanos (a
// tryLock(timeout): testdata/verdicts/backoff-ring-stuck's report) reads
// TIMED_WAITING, one in park WAITING, as the JVM prints them.
func TestDeadlockExcerptTimedPark(t *testing.T) {
	for _, tt := range []struct{ park, want string }{
		{"parkNanos(java.base@17.0.15/LockSupport.java:252)", "TIMED_WAITING"},
		{"park(java.base@17.0.15/LockSupport.java:211)", "WAITING"},
	} {
		text := `Found one Java-level deadlock:
=============================
"mover-1":
  waiting for ownable synchronizer 0x00000000fc08a858, (a java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync),
  which is held by "mover-2"

"mover-2":
  waiting for ownable synchronizer 0x00000000fc08a8d0, (a java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync),
  which is held by "mover-1"

Java stack information for the threads listed above:
===================================================
"mover-1":
	at jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)
	- parking to wait for  <0x00000000fc08a858> (a java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync)
	at java.util.concurrent.locks.LockSupport.` + tt.park + `
	at com.example.Movers.tryNext(Movers.java:354)
"mover-2":
	at jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)
	- parking to wait for  <0x00000000fc08a8d0> (a java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync)
	at java.util.concurrent.locks.LockSupport.` + tt.park + `
	at com.example.Movers.tryNext(Movers.java:354)

Found 1 deadlock.
`
		ds, err := Parse("report.txt", strings.NewReader(text))
		if err != nil || len(ds) != 1 || len(ds[0].Threads) != 2 {
			t.Fatalf("%s: %v, %d dumps", tt.park, err, len(ds))
		}
		for _, th := range ds[0].Threads {
			if th.State != tt.want {
				t.Errorf("%s: %s state %q, want %q", tt.park, th.Name(), th.State, tt.want)
			}
		}
	}
}
