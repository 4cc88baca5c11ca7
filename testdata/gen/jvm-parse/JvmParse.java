import java.net.ServerSocket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Threads in the states dumpdiff's JVM parser must read, held still so that
 * jstack -l and jcmd Thread.print -l -e can be taken of them:
 * a monitor deadlock (two threads), a thread BLOCKED behind a monitor held by
 * a sleeping thread, a thread waiting in Object.wait, a ReentrantLock holder
 * and a thread parked waiting for it, a plain LockSupport.park, a sleeper,
 * and a socket accept. Prints "ready" when every thread is in place.
 *
 * Usage: java JvmParse.java            (runs until killed)
 *        java JvmParse.java many N     (N sleeping threads, for the benchmark)
 */
public class JvmParse {
    static final Object left = new Object();
    static final Object right = new Object();
    static final Object held = new Object();
    static final Object waitRoom = new Object();
    static final ReentrantLock lock = new ReentrantLock();

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("many")) {
            many(Integer.parseInt(args[1]));
            return;
        }
        CountDownLatch both = new CountDownLatch(2);
        start("deadlock-left", () -> lockBoth(left, right, both));
        start("deadlock-right", () -> lockBoth(right, left, both));
        CountDownLatch holding = new CountDownLatch(1);
        start("monitor-holder", () -> {
            synchronized (held) {
                holding.countDown();
                sleepForever();
            }
        });
        holding.await();
        start("monitor-blocked", () -> {
            synchronized (held) {
                System.out.println("never");
            }
        });
        start("object-waiter", () -> {
            synchronized (waitRoom) {
                try {
                    waitRoom.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        CountDownLatch locked = new CountDownLatch(1);
        start("lock-holder", () -> {
            lock.lock();
            locked.countDown();
            sleepForever();
        });
        locked.await();
        start("lock-waiter", () -> lock.lock());
        start("parker", () -> {
            while (true) {
                LockSupport.park(waitRoom);
            }
        });
        start("sleeper", JvmParse::sleepForever);
        ServerSocket server = new ServerSocket(0);
        start("acceptor", () -> {
            try {
                server.accept();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        Thread.sleep(500);
        System.out.println("ready");
        sleepForever();
    }

    static void many(int n) throws Exception {
        CountDownLatch started = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(() -> {
                started.countDown();
                sleepForever();
            }, "many-" + i);
            t.setDaemon(true);
            t.start();
        }
        started.await();
        System.out.println("ready");
        sleepForever();
    }

    static void lockBoth(Object first, Object second, CountDownLatch both) {
        synchronized (first) {
            both.countDown();
            try {
                both.await();
            } catch (InterruptedException e) {
                return;
            }
            synchronized (second) {
                System.out.println("never");
            }
        }
    }

    static void start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    static void sleepForever() {
        while (true) {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
