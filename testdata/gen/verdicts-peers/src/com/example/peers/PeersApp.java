package com.example.peers;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Exchanger;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;

/**
 * Gatherings of peers (issue 33, "a latch or barrier waits for peers"): threads that wait for
 * each other through a CountDownLatch, a CyclicBarrier, a Phaser and an Exchanger.
 *
 * <p>stuck: each gathering misses the thread that would open it (it failed before its part):
 * report-1..3 await a warm-up latch whose warm-up thread threw; stage-1..3 await a barrier of 4
 * whose fourth party threw; merge-1..2 arrive and await a phaser of 3 whose third party threw;
 * swap-1 offers an exchange nobody takes. main awaits its own shutdown latch (a lone waiter, by
 * design) and poller-1..3 check a stop latch every 200 ms (the latch as an interruptible sleep).
 *
 * <p>healthy: the same gatherings open round after round (every party comes), main and the
 * pollers as above.
 */
public final class PeersApp {
    static final CountDownLatch SHUTDOWN = new CountDownLatch(1);
    static final CountDownLatch STOP = new CountDownLatch(1);

    public static void main(String[] args) throws Exception {
        boolean stuck = args.length > 0 && args[0].equals("stuck");
        for (int i = 1; i <= 3; i++) {
            start("poller-" + i, PeersApp::poll);
        }
        if (stuck) {
            stuckGatherings();
        } else {
            healthyGatherings();
        }
        Thread.sleep(500);
        System.out.println("ready");
        SHUTDOWN.await();
    }

    static void stuckGatherings() {
        CountDownLatch warmed = new CountDownLatch(1);
        start("warmup", () -> {
            Reports.warm(); // throws: the latch is never counted down
            warmed.countDown();
        });
        for (int i = 1; i <= 3; i++) {
            start("report-" + i, () -> Reports.render(warmed));
        }
        CyclicBarrier stages = new CyclicBarrier(4);
        for (int i = 1; i <= 3; i++) {
            start("stage-" + i, () -> Pipeline.stage(stages));
        }
        start("stage-4", () -> {
            Pipeline.load(); // throws before its await
            Pipeline.stage(stages);
        });
        Phaser merge = new Phaser(3);
        for (int i = 1; i <= 2; i++) {
            start("merge-" + i, () -> Merger.merge(merge));
        }
        start("merge-3", () -> {
            Merger.fetch(); // throws before it arrives
            Merger.merge(merge);
        });
        Exchanger<String> swap = new Exchanger<>();
        start("swap-1", () -> Swapper.swap(swap));
    }

    static void healthyGatherings() {
        start("report-1", () -> {
            while (true) {
                CountDownLatch warmed = new CountDownLatch(1);
                Thread w = new Thread(() -> {
                    sleep(20);
                    warmed.countDown();
                }, "warmup");
                w.start();
                Reports.render(warmed);
                sleep(50);
            }
        });
        CyclicBarrier stages = new CyclicBarrier(4);
        for (int i = 1; i <= 4; i++) {
            start("stage-" + i, () -> {
                while (true) {
                    sleep(30);
                    Pipeline.stage(stages);
                }
            });
        }
        Phaser merge = new Phaser(3);
        for (int i = 1; i <= 3; i++) {
            start("merge-" + i, () -> {
                while (true) {
                    sleep(40);
                    Merger.merge(merge);
                }
            });
        }
        Exchanger<String> swap = new Exchanger<>();
        for (int i = 1; i <= 2; i++) {
            start("swap-" + i, () -> {
                while (true) {
                    sleep(25);
                    Swapper.swap(swap);
                }
            });
        }
    }

    static void poll() {
        try {
            while (!STOP.await(200, TimeUnit.MILLISECONDS)) {
                Thread.onSpinWait(); // a check of some state, every 200 ms
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void start(String name, Runnable r) {
        Thread t = new Thread(() -> {
            try {
                r.run();
            } catch (RuntimeException e) {
                System.err.println(Thread.currentThread().getName() + " failed: " + e.getMessage());
            }
        }, name);
        t.start();
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

final class Reports {
    static void warm() {
        throw new IllegalStateException("template store unreachable");
    }

    static void render(CountDownLatch warmed) {
        try {
            warmed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

final class Pipeline {
    static void load() {
        throw new IllegalStateException("input missing");
    }

    static void stage(CyclicBarrier stages) {
        try {
            stages.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

final class Merger {
    static void fetch() {
        throw new IllegalStateException("shard down");
    }

    static void merge(Phaser merge) {
        merge.arriveAndAwaitAdvance();
    }
}

final class Swapper {
    static void swap(Exchanger<String> swap) {
        try {
            swap.exchange("batch");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
