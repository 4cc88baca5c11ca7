import java.lang.management.*;
import java.util.concurrent.*;
import java.util.concurrent.locks.*;

// Three threads take three monitors in a ring and block; five workers
// queue on a ReentrantLock held by a sleeping thread. Then every
// thread's ThreadInfo.toString() is printed, as programs log it.
public class ThreeWay {
    public static void main(String[] args) throws Exception {
        Object[] m = {new Object(), new Object(), new Object()};
        CountDownLatch held = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            final Object first = m[i], second = m[(i + 1) % 3];
            Thread t = new Thread(() -> {
                synchronized (first) {
                    held.countDown();
                    try { held.await(); } catch (InterruptedException e) { return; }
                    synchronized (second) { System.out.println("never"); }
                }
            }, "ring-" + i);
            t.setDaemon(true);
            t.start();
        }
        ReentrantLock lock = new ReentrantLock();
        CountDownLatch locked = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            lock.lock();
            locked.countDown();
            try { Thread.sleep(600_000); } catch (InterruptedException e) { }
            finally { lock.unlock(); }
        }, "holder");
        holder.setDaemon(true);
        holder.start();
        locked.await();
        for (int i = 0; i < 5; i++) {
            Thread w = new Thread(() -> { lock.lock(); lock.unlock(); }, "worker-" + i);
            w.setDaemon(true);
            w.start();
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        // Wait until the ring and the workers are blocked (their states say so).
        for (;;) {
            int blocked = 0;
            for (ThreadInfo ti : mx.dumpAllThreads(false, false)) {
                if (ti.getThreadName().startsWith("ring-") && ti.getThreadState() == Thread.State.BLOCKED) blocked++;
                if (ti.getThreadName().startsWith("worker-") && ti.getThreadState() == Thread.State.WAITING && ti.getLockOwnerName() != null) blocked++;
            }
            if (blocked == 8) break;
            Thread.sleep(10);
        }
        for (ThreadInfo ti : mx.dumpAllThreads(true, true)) {
            System.out.print(ti);
        }
    }
}
