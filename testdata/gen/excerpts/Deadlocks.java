import java.util.concurrent.locks.ReentrantLock;

// Two deadlocks and a healthy thread, for testdata/gen/excerpts/gen.sh:
// ring-0, ring-1, ring-2 each hold one monitor and block on the next
// (a three-way monitor deadlock); acct-a and acct-b each hold one
// ReentrantLock and park for the other's (an ownable-synchronizer
// deadlock); idle-worker sleeps. It prints its pid once every deadlocked
// thread is blocked (it waits on their states, not on time), then sleeps
// until it is killed.
public class Deadlocks {
    static final Object[] ring = {new Object(), new Object(), new Object()};
    static final ReentrantLock a = new ReentrantLock(), b = new ReentrantLock();

    static void hold(Object mine, Object next, java.util.concurrent.CountDownLatch all) {
        synchronized (mine) {
            all.countDown();
            await(all);
            synchronized (next) {
                System.out.println("unreachable");
            }
        }
    }

    static void cross(ReentrantLock mine, ReentrantLock other, java.util.concurrent.CountDownLatch both) {
        mine.lock();
        both.countDown();
        await(both);
        other.lock();
    }

    static void await(java.util.concurrent.CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            throw new RuntimeException(e);
        }
    }

    public static void main(String[] args) throws Exception {
        var all = new java.util.concurrent.CountDownLatch(3);
        Thread[] ts = new Thread[5];
        for (int i = 0; i < 3; i++) {
            final int k = i;
            ts[i] = new Thread(() -> hold(ring[k], ring[(k + 1) % 3], all), "ring-" + i);
        }
        var both = new java.util.concurrent.CountDownLatch(2);
        ts[3] = new Thread(() -> cross(a, b, both), "acct-a");
        ts[4] = new Thread(() -> cross(b, a, both), "acct-b");
        Thread idle = new Thread(() -> {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
            }
        }, "idle-worker");
        idle.setDaemon(true);
        idle.start();
        for (Thread t : ts) {
            t.setDaemon(true);
            t.start();
        }
        for (Thread t : ts) {
            Thread.State want = t.getName().startsWith("ring") ? Thread.State.BLOCKED : Thread.State.WAITING;
            while (t.getState() != want) {
                Thread.onSpinWait();
            }
        }
        System.out.println(ProcessHandle.current().pid());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
