import com.codahale.metrics.jvm.ThreadDump;
import java.lang.management.*;
import java.util.concurrent.*;
import java.util.concurrent.locks.*;

// Prints what Dropwizard's admin /threads page serves: metrics-jvm's
// ThreadDump.dump() of this JVM, once its threads are where the scenario
// (the first argument) puts them. It waits on the threads' states, never
// on time. Then it waits for stdin to close: the generator takes a
// jstack -l of the same moment, and the test reads both as one.
//
//   stall:   "lock-a"/"lock-b" hold one monitor each and block on the
//            other's; "order-1".."order-5" block on a monitor "ledger"
//            holds while it sleeps; "dw-1".."dw-6" (request threads named
//            as Dropwizard names them) wait on a CompletableFuture nobody
//            completes; "cache-*" wait for a ReentrantLock "cache-loader"
//            holds while it sleeps.
//   healthy: "dw-1".."dw-6" idle in a ThreadPoolExecutor's queue, a
//            scheduler waiting for its next tick.
public class DropwizardThreadsApp {
    static Thread daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    static void sleepLong() {
        try { Thread.sleep(600_000); } catch (InterruptedException e) { }
    }

    public static void main(String[] args) throws Exception {
        String scenario = args.length > 0 ? args[0] : "stall";
        int want;
        if (scenario.equals("stall")) {
            want = stall();
        } else {
            want = healthy();
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (;;) {
            int settled = 0;
            for (ThreadInfo ti : mx.dumpAllThreads(false, false)) {
                String n = ti.getThreadName();
                Thread.State s = ti.getThreadState();
                if (n.matches("lock-[ab]|order-\\d") && s == Thread.State.BLOCKED) settled++;
                if (n.matches("dw-\\d|cache-\\d") && s == Thread.State.WAITING) settled++;
                if (n.matches("ledger|cache-loader|scheduler") && (s == Thread.State.TIMED_WAITING)) settled++;
            }
            if (settled == want) break;
            Thread.sleep(10);
        }
        new ThreadDump(mx).dump(System.out);
        System.out.flush();
        // Hold every thread where it is until stdin closes, so that the
        // generator's jstack of this moment shows the same threads.
        System.err.println("dumped " + ProcessHandle.current().pid());
        while (System.in.read() >= 0) { }
    }

    static int stall() throws Exception {
        Object a = new Object(), b = new Object();
        CountDownLatch both = new CountDownLatch(2);
        daemon("lock-a", () -> { synchronized (a) { both.countDown(); await(both); synchronized (b) { } } });
        daemon("lock-b", () -> { synchronized (b) { both.countDown(); await(both); synchronized (a) { } } });

        Object ledgerLock = new Object();
        CountDownLatch held = new CountDownLatch(1);
        daemon("ledger", () -> { synchronized (ledgerLock) { held.countDown(); sleepLong(); } });
        held.await();
        for (int i = 1; i <= 5; i++) {
            daemon("order-" + i, () -> { synchronized (ledgerLock) { } });
        }

        CompletableFuture<String> never = new CompletableFuture<>();
        for (int i = 1; i <= 6; i++) {
            daemon("dw-" + i, () -> {
                try { never.get(); } catch (Exception e) { }
            });
        }

        ReentrantLock cache = new ReentrantLock();
        CountDownLatch loaded = new CountDownLatch(1);
        daemon("cache-loader", () -> { cache.lock(); loaded.countDown(); try { sleepLong(); } finally { cache.unlock(); } });
        loaded.await();
        for (int i = 1; i <= 3; i++) {
            daemon("cache-" + i, () -> { cache.lock(); cache.unlock(); });
        }
        return 2 + 5 + 6 + 3 + 2;
    }

    static int healthy() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(6, 6, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
            new ThreadFactory() {
                int n;
                public synchronized Thread newThread(Runnable r) { Thread t = new Thread(r, "dw-" + (++n)); t.setDaemon(true); return t; }
            });
        pool.prestartAllCoreThreads();
        ScheduledExecutorService sched = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "scheduler");
            t.setDaemon(true);
            return t;
        });
        sched.scheduleAtFixedRate(() -> { }, 10, 10, TimeUnit.MINUTES);
        return 6 + 1;
    }

    static void await(CountDownLatch l) {
        try { l.await(); } catch (InterruptedException e) { }
    }
}
