package analyze

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestHandoffFixtures judges the producer side of hand-offs on threads of
// their own (testdata/verdicts/handoff-stuck, a real JDK 17 program with
// H2 and Derby; README.md written from the source before dumpdiff ran):
// producers of a full queue and of a SynchronousQueue nobody takes from
// are stuck, each finding naming its hand-off and that no consumer waits
// on its other side; a full pipe's writer and an embedded database's row
// lock are named waits, not a generic object-wait. The healthy run of the
// same program says nothing, its pipe reader and queue taker at rest.
func TestHandoffFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	noConsumer := func(handoff string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "hand-off", f.Handoff, handoff)
			eq(t, "consumers", len(f.Consumers), 0)
			eq(t, "severity", f.Severity, Critical)
		}
	}
	runFixtureCases(t, dir, []fixtureCase{
		{"handoff-stuck", []string{"1", "2", "3"}, []want{
			{KindStuck, "publisher-*", "queue-put", noConsumer("ArrayBlockingQueue")},
			{KindStuck, "dispatcher-*", "handoff-wait", noConsumer("SynchronousQueue")},
		}},
		{"handoff-healthy", []string{"1", "2", "3"}, nil},
		// A library's own queue: logback's AsyncAppender, its worker busy
		// in a socket write to a collector that does not read
		// (testdata/verdicts/logging-stuck, logback 1.2.11).
		{"logging-stuck", []string{"1", "2", "3"}, []want{{KindStuck, "request-*", "queue-put", func(t *testing.T, f Finding) {
			eq(t, "hand-off", f.Handoff, "logback's AsyncAppender queue")
			eq(t, "its own consumer", f.ConsumerLoop, true)
			eq(t, "consumers", len(f.Consumers), 1)
			eq(t, "its consumer, busy", f.Consumers[0], HolderGroup{Pool: "AsyncAppender-Worker-ASYNC", State: "socket-write", Count: 1})
		}}}},
		{"logging-healthy", []string{"1", "2", "3"}, nil},
		// The same stall with Log4j 2.19's AsyncAppender.
		{"log4j-stuck", []string{"1", "2", "3"}, []want{{KindStuck, "request-*", "queue-put", func(t *testing.T, f Finding) {
			eq(t, "hand-off", f.Handoff, "Log4j 2's AsyncAppender queue")
			eq(t, "consumers", len(f.Consumers), 1)
			eq(t, "its consumer, busy", f.Consumers[0].State, "socket-write")
		}}}},
		{"log4j-healthy", []string{"1", "2", "3"}, nil},
		// A public control (parttimenerd/jthreaddump's producer-consumer
		// scenario, OpenJDK 25): producers in a full queue's put at some
		// dumps, never the same ones at every dump: a hand-off that flows.
		{"public-jthreaddump-producer-consumer", []string{"dump-0.txt", "dump-1.txt", "dump-2.txt", "dump-3.txt", "dump-4.txt", "dump-5.txt"}, nil},
		// The producers inside a pool's tasks (TaskWaitApp): the same
		// queue, the consumer busy in its handler.
		{"task-wait-stuck", []string{"1", "2", "3"}, []want{
			{KindStuck, "upload-worker-*", "park", nil}, {KindSaturated, "upload-worker-*", "park", nil},
			{KindStuck, "event-producer-*", "queue-put", noConsumer("ArrayBlockingQueue")},
			{KindSaturated, "event-producer-*", "queue-put", nil},
			{KindStuck, "batch-worker-*", "latch-wait", nil}, {KindSaturated, "batch-worker-*", "latch-wait", nil},
		}},
	})
	for _, c := range []struct {
		dir, pool, state string
	}{
		{"handoff-stuck", "export-writer", "pipe-write"},
		{"handoff-stuck", "h2-writer-*", "db-row-lock"},
		{"handoff-stuck", "derby-writer-*", "db-row-lock"},
		{"handoff-healthy", "job-worker", "queue-wait"},
		{"handoff-healthy", "export-reader", "pipe-read"},
	} {
		r := Analyze(loadMoments(t, filepath.Join(dir, c.dir), []string{"1", "2", "3"}), Options{})
		found := false
		for _, pl := range r.Pools {
			for _, g := range pl.States {
				if pl.Name == c.pool && g.State == c.state && g.Counts[1] > 0 {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("%s: %s has no thread in %s at moment 2", c.dir, c.pool, c.state)
		}
	}
}

// TestHandoffSides checks the hand-off table on stacks from public dumps:
// a producer blocked in logback's AsyncAppender (the "Gax-2" thread of
// googleapis/google-cloud-java issue #2796, JDK 8, logback 1.2) is its
// queue's, not the bare ArrayBlockingQueue's; its worker, idle in its
// queue's take (alibaba/nacos issue #5084) or busy appending, is its
// consumer either way; a JDK queue's consumer is a thread in its take.
func TestHandoffSides(t *testing.T) {
	gax := thread("WAITING", "sun.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
		"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await", "java.util.concurrent.ArrayBlockingQueue.put",
		"ch.qos.logback.core.AsyncAppenderBase.putUninterruptibly", "ch.qos.logback.core.AsyncAppenderBase.put",
		"ch.qos.logback.core.AsyncAppenderBase.append", "ch.qos.logback.core.UnsynchronizedAppenderBase.doAppend",
		"ch.qos.logback.core.spi.AppenderAttachableImpl.appendLoopOnAppenders", "ch.qos.logback.classic.Logger.appendLoopOnAppenders")
	side := handoffOf(gax)
	if side == nil || side.Name != "logback's AsyncAppender queue" || !side.Loop {
		t.Fatalf("Gax-2's hand-off: %+v, want logback's AsyncAppender queue", side)
	}
	idle := thread("WAITING", "sun.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
		"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await", "java.util.concurrent.ArrayBlockingQueue.take",
		"ch.qos.logback.core.AsyncAppenderBase$Worker.run")
	busy := thread("RUNNABLE", "java.io.FileOutputStream.writeBytes", "java.io.FileOutputStream.write", "java.io.BufferedOutputStream.write",
		"java.io.PrintStream.write", "java.io.FilterOutputStream.write", "ch.qos.logback.core.joran.spi.ConsoleTarget$1.write",
		"ch.qos.logback.core.OutputStreamAppender.writeBytes", "ch.qos.logback.core.OutputStreamAppender.subAppend",
		"ch.qos.logback.core.OutputStreamAppender.append", "ch.qos.logback.core.UnsynchronizedAppenderBase.doAppend",
		"ch.qos.logback.core.spi.AppenderAttachableImpl.appendLoopOnAppenders", "ch.qos.logback.core.spi.AppenderAttachableImpl.appendLoopOnAppenders",
		"ch.qos.logback.core.AsyncAppenderBase$Worker.run") // logback issue #730: its worker hung in a console write
	for name, c := range map[string]*parse.Thread{"idle worker": idle, "busy worker": busy} {
		if !consumes(c, side) {
			t.Errorf("%s is not the AsyncAppender's consumer", name)
		}
		if handoffOf(c) != nil {
			t.Errorf("%s taken for a producer", name)
		}
	}
	if consumes(gax, side) {
		t.Error("a producer taken for the consumer")
	}
	// Log4j 2 before 2.14: its AsyncThread idle in its queue's take
	// (dotCMS/core issue #15245, "AsyncAppender-generic") is the queue's
	// consumer.
	log4j := &handoffSides[slices.IndexFunc(handoffSides, func(s handoffSide) bool { return s.Name == "Log4j 2's AsyncAppender queue" })]
	asyncThread := thread("WAITING", "sun.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
		"java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await", "java.util.concurrent.ArrayBlockingQueue.take",
		"org.apache.logging.log4j.core.appender.AsyncAppender$AsyncThread.run")
	if !consumes(asyncThread, log4j) || consumes(idle, log4j) {
		t.Error("Log4j 2's AsyncThread is its queue's consumer, logback's worker is not")
	}
	// A JDK queue: its consumers are the threads in its take, near the top.
	abq := &handoffSides[slices.IndexFunc(handoffSides, func(s handoffSide) bool { return s.Name == "ArrayBlockingQueue" })]
	bare := thread("WAITING", "jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park",
		"java.util.concurrent.ArrayBlockingQueue.put", "com.example.Publisher.publish")
	if handoffOf(bare) != abq || !consumes(idle, abq) || consumes(busy, abq) {
		t.Error("an ArrayBlockingQueue's sides: producer in put, consumer in take, a busy thread neither")
	}
}
