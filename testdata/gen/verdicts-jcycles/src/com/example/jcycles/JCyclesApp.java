package com.example.jcycles;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Cycles and holders no JVM prints as a deadlock (issue 33). One program, a scene per mode:
 *
 * <pre>
 *   holderwait stuck|healthy   a monitor's holder waits (Object.wait) on a signal nobody sends
 *   holderpark stuck|healthy   a monitor's holder parks on a latch nobody counts down
 *   rwfuture   stuck|healthy   a read lock's holder joins a CompletableFuture whose task wants the write lock
 *   selfpool   stuck|healthy   a one-thread executor's task waits on a task queued behind it, a busy thread beside
 *   backoff    stuck|healthy   three movers in a ring, each holding its write lock, tryLock(timeout) back-off
 * </pre>
 *
 * Prints "ready" once every thread is started. Only 127.0.0.1 is used (nowhere here).
 */
public final class JCyclesApp {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        String scene = args[0];
        boolean stuck = args[1].equals("stuck");
        switch (scene) {
            case "holderwait" -> HolderWait.start(stuck);
            case "holderpark" -> HolderPark.start(stuck);
            case "rwfuture" -> RwFuture.start(stuck);
            case "selfpool" -> SelfPool.start(stuck);
            case "backoff" -> Backoff.start(stuck);
            default -> throw new IllegalArgumentException(scene);
        }
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }

    static Thread daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Work a request does with the index: a little CPU. */
    static void compute(int n) {
        long h = 17;
        for (int i = 0; i < n; i++) h = h * 31 + i;
        sink += h;
    }

    /**
     * The index's monitor is held by "index-builder" in Index.rebuild, which waits in
     * Object.wait on the feed's own monitor for a batch. stuck: the feed thread never
     * delivers (it is never started: nobody calls notify). healthy: the feed delivers every
     * 20 ms, the builder rebuilds every 50 ms (a batch is mostly there already).
     */
    static final class HolderWait {
        static final class Feed {
            private int batches;

            synchronized void awaitBatch() throws InterruptedException {
                while (batches == 0) wait();
                batches--;
            }

            synchronized void deliver() {
                batches++;
                notifyAll();
            }
        }

        static final class Index {
            final Feed feed = new Feed();

            synchronized void rebuild() throws InterruptedException {
                feed.awaitBatch();
                compute(1000);
            }

            synchronized void lookup() {
                compute(1000);
            }
        }

        static void start(boolean stuck) {
            Index index = new Index();
            daemon("index-builder", () -> {
                try {
                    while (true) {
                        index.rebuild();
                        pause(50);
                    }
                } catch (InterruptedException e) {
                    // exit
                }
            });
            if (!stuck) {
                daemon("feed-reader", () -> {
                    while (true) {
                        pause(20);
                        index.feed.deliver();
                    }
                });
            }
            for (int i = 1; i <= 5; i++) {
                daemon("lookup-" + i, () -> {
                    while (true) {
                        index.lookup();
                        pause(10);
                    }
                });
            }
        }
    }

    /**
     * The ledger's monitor is held by "ledger-closer" in Ledger.close, which parks in
     * CountDownLatch.await for the auditors' sign-off. stuck: the latch wants two counts and the
     * one auditor counted once and ended. healthy: the auditor counts the current latch down
     * every 5 ms, the closer closes every 50 ms.
     */
    static final class HolderPark {
        static final class Ledger {
            volatile CountDownLatch signOff = new CountDownLatch(2);

            synchronized void close() throws InterruptedException {
                signOff.await();
                compute(1000);
            }

            synchronized void post() {
                compute(1000);
            }
        }

        static void start(boolean stuck) {
            Ledger ledger = new Ledger();
            CountDownLatch first = ledger.signOff;
            daemon("ledger-closer", () -> {
                try {
                    while (true) {
                        ledger.close();
                        if (!stuck) ledger.signOff = new CountDownLatch(1);
                        pause(50);
                    }
                } catch (InterruptedException e) {
                    // exit
                }
            });
            Thread auditor = daemon("auditor", () -> {
                first.countDown();
                if (!stuck) {
                    first.countDown();
                    while (true) {
                        pause(5);
                        ledger.signOff.countDown();
                    }
                }
            });
            for (int i = 1; i <= 4; i++) {
                daemon("poster-" + i, () -> {
                    while (true) {
                        ledger.post();
                        pause(10);
                    }
                });
            }
        }
    }

    /**
     * "config-reloader" takes the config's read lock in Config.reload and joins a
     * CompletableFuture that runs Config.apply on the "config-io" executor; apply takes the
     * write lock, which waits for the read holder: the reloader waits for a task that waits for
     * the reloader. HotSpot prints no owner for a read lock. Four "config-reader-N" take the
     * read lock and queue behind the writer.
     * healthy: apply runs on the executor without the lock (the reloader releases the read lock
     * before it joins).
     */
    static final class RwFuture {
        static final class Config {
            final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
            final ExecutorService io = Executors.newFixedThreadPool(2, named("config-io"));
            int version;

            void reload(boolean stuck) {
                lock.readLock().lock();
                try {
                    compute(1000);
                    if (!stuck) {
                        lock.readLock().unlock();
                    }
                    CompletableFuture.runAsync(this::apply, io).join();
                } finally {
                    if (stuck) lock.readLock().unlock();
                }
            }

            void apply() {
                lock.writeLock().lock();
                try {
                    version++;
                    compute(1000);
                } finally {
                    lock.writeLock().unlock();
                }
            }

            int read() {
                lock.readLock().lock();
                try {
                    compute(1000);
                    return version;
                } finally {
                    lock.readLock().unlock();
                }
            }
        }

        static void start(boolean stuck) {
            Config config = new Config();
            daemon("config-reloader", () -> {
                while (true) {
                    config.reload(stuck);
                    pause(20);
                }
            });
            pause(200);
            for (int i = 1; i <= 4; i++) {
                daemon("config-reader-" + i, () -> {
                    while (true) {
                        config.read();
                        pause(10);
                    }
                });
            }
        }
    }

    /**
     * A one-thread executor named by its ThreadFactory "invoice-writer" (no counter), whose
     * task InvoiceJob.run submits its totals to the same executor and waits in Future.get: the
     * totals are queued behind the task that waits for them. Beside it, "rates-client" reads a
     * rate feed from "rates-server" (127.0.0.1, a line every 20 ms): a thread in I/O at every
     * moment that never touches the executor. healthy: the totals run on a second executor.
     */
    static final class SelfPool {
        static void start(boolean stuck) throws IOException {
            ExecutorService invoices = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "invoice-writer");
                t.setDaemon(true);
                return t;
            });
            ExecutorService totals = stuck ? invoices : Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "totals-writer");
                t.setDaemon(true);
                return t;
            });
            ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            daemon("rates-server", () -> {
                try (Socket s = server.accept(); PrintWriter out = new PrintWriter(s.getOutputStream(), true)) {
                    for (int i = 0; ; i++) {
                        out.println("rate " + i);
                        pause(20);
                    }
                } catch (IOException e) {
                    // exit
                }
            });
            Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
            daemon("rates-client", () -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(client.getInputStream()))) {
                    while (in.readLine() != null) compute(100);
                } catch (IOException e) {
                    // exit
                }
            });
            daemon("invoice-feeder", () -> {
                while (true) {
                    invoices.submit(() -> invoiceJob(totals));
                    pause(50);
                }
            });
        }

        static void invoiceJob(ExecutorService totals) {
            Future<Integer> sum = totals.submit(() -> {
                compute(1000);
                return 42;
            });
            try {
                sink += sum.get();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }
    }

    /**
     * Three movers in a ring: mover-N holds shelf N's write lock (ReentrantReadWriteLock) in
     * Backoff.moveHolding and retries shelf N+1's write lock with tryLock(2 ms), sleeping 1 ms
     * between tries; nobody lets go. healthy: each mover lets go of its own shelf before it
     * backs off (the polite retry).
     */
    static final class Backoff {
        static void start(boolean stuck) {
            ReentrantReadWriteLock[] shelves = new ReentrantReadWriteLock[3];
            for (int i = 0; i < 3; i++) shelves[i] = new ReentrantReadWriteLock();
            CountDownLatch allHold = new CountDownLatch(3);
            for (int i = 0; i < 3; i++) {
                ReentrantReadWriteLock mine = shelves[i], next = shelves[(i + 1) % 3];
                daemon("mover-" + (i + 1), () -> {
                    while (true) {
                        moveHolding(mine, next, stuck, allHold);
                        pause(5);
                    }
                });
            }
        }

        static void moveHolding(ReentrantReadWriteLock mine, ReentrantReadWriteLock next, boolean stuck,
                CountDownLatch allHold) {
            mine.writeLock().lock();
            try {
                if (stuck) {
                    allHold.countDown();
                    try {
                        allHold.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                while (!tryNext(next)) {
                    if (!stuck) {
                        mine.writeLock().unlock();
                        backOff();
                        mine.writeLock().lock();
                    } else {
                        backOff();
                    }
                }
                try {
                    compute(1000);
                } finally {
                    next.writeLock().unlock();
                }
            } finally {
                mine.writeLock().unlock();
            }
        }

        static boolean tryNext(ReentrantReadWriteLock next) {
            try {
                return next.writeLock().tryLock(2, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        static void backOff() {
            pause(1);
        }
    }

    static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
