import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

// Makes two monitor deadlocks (a pair whose names hold spaces and a comma,
// as IntelliJ's do, and a ring of three) and one thread blocked behind a
// sleeping holder (no cycle), waits until ThreadMXBean finds the
// deadlocked threads, then prints what deadlock detectors print from
// ThreadMXBean: "NAME is waiting to lock LOCKINFO which is held by OWNER".
// args[0] picks the framing: "intellij" (IntelliJ 11's report, as quoted in
// mjedynak/builder-generator-idea-plugin#4) or "detector" (a game server's
// DeadLockDetector: "Java-level deadlock:" and TAB-indented lines, with
// aionemu's ". Locked synchronizers:N monitors:M" tail).
public class DetectorReports {
    static void pair(String a, String b, Object x, Object y, CountDownLatch both) {
        start(a, () -> hold(x, y, both));
        start(b, () -> hold(y, x, both));
    }

    static void hold(Object first, Object second, CountDownLatch both) {
        synchronized (first) {
            both.countDown();
            try { both.await(); } catch (InterruptedException e) { return; }
            synchronized (second) { System.out.print(""); }
        }
    }

    static void start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    public static void main(String[] args) throws Exception {
        CountDownLatch two = new CountDownLatch(2);
        pair("ApplicationImpl pooled thread 0", "AWT-EventQueue-0 11.1.3#IU-117.499, eap:true", new Object(), new Object(), two);
        Object[] ring = {new Object(), new Object(), new Object()};
        CountDownLatch three = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            Object mine = ring[i], next = ring[(i + 1) % 3];
            start("ring-" + i, () -> hold(mine, next, three));
        }
        Object slow = new Object();
        CountDownLatch held = new CountDownLatch(1);
        start("slow-holder", () -> { synchronized (slow) { held.countDown(); try { Thread.sleep(600_000); } catch (InterruptedException e) { } } });
        held.await();
        start("behind-slow", () -> { synchronized (slow) { System.out.print(""); } });

        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[] ids;
        while ((ids = mx.findDeadlockedThreads()) == null || ids.length < 5) {
            Thread.onSpinWait(); // the JVM's own answer, not elapsed time, ends the wait
        }
        List<ThreadInfo> infos = new ArrayList<>();
        for (ThreadInfo ti : mx.getThreadInfo(ids, true, true)) infos.add(ti);
        for (ThreadInfo ti : mx.dumpAllThreads(true, true)) {
            if (ti.getThreadName().equals("behind-slow")) {
                while (ti.getThreadState() != Thread.State.BLOCKED) {
                    Thread.onSpinWait();
                    ti = mx.getThreadInfo(new long[] {ti.getThreadId()}, true, true)[0];
                }
                infos.add(ti);
            }
        }
        StringBuilder out = new StringBuilder();
        if (args[0].equals("intellij")) {
            out.append("Java-level deadlock has been detected\n\n");
            out.append("This means that some threads are blocked waiting to enter a synchronization block or\n");
            out.append("waiting to reenter a synchronization block after an Object.wait() call, where each thread\n");
            out.append("owns one monitor while trying to obtain another monitor already held by another thread.\n\n");
            out.append("Deadlock:\n\n");
            for (ThreadInfo ti : infos) {
                out.append(ti.getThreadName()).append(" is waiting to lock ").append(ti.getLockInfo())
                   .append(" which is held by ").append(ti.getLockOwnerName()).append('\n');
            }
            out.append("\nThread stacks\n");
        } else {
            out.append("DeadLock Found!\n");
            out.append("Java-level deadlock:\n");
            for (ThreadInfo ti : infos) {
                out.append('\t').append(ti.getThreadName()).append(" is waiting to lock ").append(ti.getLockInfo())
                   .append(" which is held by ").append(ti.getLockOwnerName())
                   .append(". Locked synchronizers:").append(ti.getLockedSynchronizers().length)
                   .append(" monitors:").append(ti.getLockedMonitors().length).append('\n');
            }
        }
        System.out.print(out);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
