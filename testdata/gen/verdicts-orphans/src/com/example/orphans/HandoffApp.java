package com.example.orphans;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Exchanger;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.Phaser;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Hand-offs with nobody on the other side (issue 33: "waits by structure", "the producer side of
 * a hand-off"). main waits on one hand-off, chosen by the first argument; in "stuck" the thread
 * that would have served it is gone (it threw first) or waits itself for main, and the only other
 * application threads are the idle workers of a fixed pool of 2 ("work-N", in getTask: never shut
 * down). In "healthy" the other side is there, in application code (sleeping between its turns),
 * and serves within a minute; the pool is idle the same way.
 *
 *   latch      CountDownLatch(2).await: one task counts down, the other throws first
 *   barrier    CyclicBarrier(3).await: main and "stage-a" arrive, "stage-b" throws first
 *   phaser     Phaser(2).arriveAndAwaitAdvance: the other registered party throws first
 *   exchanger  Exchanger.exchange: the partner throws first
 *   syncput    SynchronousQueue.put: the taker dies after one item
 *   fullput    ArrayBlockingQueue(4).put, full: the consumer dies after one item
 *   transfer   LinkedTransferQueue.transfer: the consumer dies after one item
 *   join       Thread.join of "drainer", which waits in take on a queue whose producer task ended
 *              without its end-of-stream mark
 *   terminate  ExecutorService.awaitTermination without shutdown: the pool's workers idle forever
 *   future     Future.get of a task on the pool that waits on a latch main counts down after get
 *   condition  Condition.await for a flag "flagger" sets, which throws first
 *   latchpeer  CountDownLatch.await for "loader", which waits on a second latch main counts
 *              down only after the first opens
 *   kept       main returns; "listener" waits in Object.wait for a flag "notifier" sets, which
 *              throws first (no pool thread is started)
 */
public final class HandoffApp {
    static final ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r);
        t.setName("work-" + t.getId());
        return t;
    });

    /**
     * serve works in application code for a minute, as a live other side does before its turn:
     * short sleeps, each wake-up a little CPU (the dumps show it ran between them).
     */
    static void serve() {
        try {
            for (int i = 0; i < 600; i++) Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void die(boolean stuck, String why) {
        if (stuck) throw new IllegalStateException(why);
    }

    static Thread start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.start();
        return t;
    }

    /** settle waits until t has ended (stuck) or sleeps (healthy), then says ready. */
    static void ready(Thread t) throws InterruptedException {
        if (t != null) {
            while (t.isAlive() && t.getState() != Thread.State.TIMED_WAITING && t.getState() != Thread.State.WAITING) Thread.sleep(10);
        }
        Thread.sleep(200); // the pool's tasks done or asleep
        System.out.println("ready");
    }

    public static void main(String[] args) throws Exception {
        boolean stuck = args[1].equals("stuck");
        switch (args[0]) {
            case "latch" -> {
                CountDownLatch loaded = new CountDownLatch(2);
                pool.execute(() -> { if (!stuck) serve(); loaded.countDown(); });
                pool.execute(() -> { if (!stuck) serve(); die(stuck, "shard 2 unreachable"); loaded.countDown(); });
                ready(null);
                loaded.await();
            }
            case "barrier" -> {
                CyclicBarrier round = new CyclicBarrier(3);
                start("stage-a", () -> party(round));
                Thread b = start("stage-b", () -> { if (!stuck) serve(); die(stuck, "stage b failed"); party(round); });
                ready(b);
                round.await();
            }
            case "phaser" -> {
                Phaser phase = new Phaser(2);
                Thread other = start("merger", () -> { if (!stuck) serve(); die(stuck, "merge failed"); phase.arriveAndAwaitAdvance(); });
                ready(other);
                phase.arriveAndAwaitAdvance();
            }
            case "exchanger" -> {
                Exchanger<String> swap = new Exchanger<>();
                Thread other = start("swapper", () -> {
                    if (!stuck) serve();
                    die(stuck, "buffer lost");
                    try { swap.exchange("full"); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
                });
                ready(other);
                swap.exchange("empty");
            }
            case "syncput", "fullput", "transfer" -> {
                BlockingQueue<String> q = switch (args[0]) {
                    case "syncput" -> new SynchronousQueue<>();
                    case "fullput" -> new ArrayBlockingQueue<>(4);
                    default -> new LinkedTransferQueue<>();
                };
                Thread consumer = start("consumer", () -> {
                    try {
                        for (;;) {
                            q.take();
                            die(stuck, "bad item");
                            serve();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                if (stuck) {
                    put(q, args[0], "first");
                    consumer.join();
                } else {
                    put(q, args[0], "first"); // then the consumer sleeps in serve before it takes again
                }
                ready(consumer);
                for (int i = 0;; i++) put(q, args[0], "item" + i);
            }
            case "join" -> {
                BlockingQueue<String> lines = new LinkedBlockingQueue<>();
                Thread drainer = start("drainer", () -> {
                    try {
                        for (String l = lines.take(); !l.equals("EOF"); l = lines.take()) {
                            if (!stuck) serve();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                pool.execute(() -> {
                    lines.add("a");
                    lines.add("b");
                    if (!stuck) lines.add("EOF"); // stuck: the producer forgets its end-of-stream mark
                });
                ready(drainer);
                drainer.join();
            }
            case "terminate" -> {
                pool.execute(() -> { if (!stuck) serve(); });
                if (!stuck) pool.shutdown(); // stuck: awaitTermination without shutdown
                ready(null);
                while (!pool.awaitTermination(1, TimeUnit.DAYS)) { }
            }
            case "future" -> {
                CountDownLatch go = new CountDownLatch(1);
                Future<String> report = pool.submit(() -> {
                    if (stuck) go.await(); else serve(); // stuck: waits for main, which waits for it
                    return "report";
                });
                ready(null);
                report.get();
                go.countDown();
            }
            case "condition" -> {
                ReentrantLock lock = new ReentrantLock();
                Condition loaded = lock.newCondition();
                boolean[] flag = {false};
                Thread flagger = start("flagger", () -> {
                    if (!stuck) serve();
                    die(stuck, "load failed");
                    lock.lock();
                    try { flag[0] = true; loaded.signalAll(); } finally { lock.unlock(); }
                });
                ready(flagger);
                lock.lock();
                try {
                    while (!flag[0]) loaded.await();
                } finally {
                    lock.unlock();
                }
            }
            case "latchpeer" -> {
                // main waits for "loader" to count "loaded" down; loader first waits on "go",
                // which main counts down only after loaded opens: each waits for the other
                CountDownLatch loaded = new CountDownLatch(1), go = new CountDownLatch(1);
                Thread loader = start("loader", () -> {
                    try {
                        if (stuck) go.await(); else serve();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    loaded.countDown();
                });
                ready(loader);
                loaded.await();
                go.countDown();
            }
            case "kept" -> {
                // main returns; "listener" (not a daemon) waits on a monitor for a flag
                // "notifier" would set: stuck, the notifier throws first; healthy, it works first
                Object lock = new Object();
                boolean[] flag = {false};
                start("listener", () -> {
                    synchronized (lock) {
                        try {
                            while (!flag[0]) lock.wait();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                });
                Thread notifier = start("notifier", () -> {
                    if (!stuck) serve();
                    die(stuck, "feed lost");
                    synchronized (lock) { flag[0] = true; lock.notifyAll(); }
                });
                ready(notifier);
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static void party(CyclicBarrier b) {
        try {
            b.await();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    static void put(BlockingQueue<String> q, String how, String item) throws InterruptedException {
        if (how.equals("transfer")) ((LinkedTransferQueue<String>) q).transfer(item);
        else q.put(item);
    }
}
