package com.example.keptalive2;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Phaser;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Pool tasks that wait for peers at a barrier, a latch or a phaser (issue 33: "a barrier wait
 * inside pool tasks is not the pool waiting for work it submitted to itself"):
 *
 * <ul>
 *   <li>stuck: batch-worker-1..3 (a fixed pool of 3) run 4 BatchJob tasks that meet at a
 *       CyclicBarrier of 4: three wait, the fourth party is queued behind them. gather-worker-1..2
 *       (a pool of 2) run 3 GatherJob tasks that count down a CountDownLatch of 3 and await it:
 *       two wait, the third is queued. phase-worker-1..2 (a pool of 2) run 3 PhaseJob tasks of a
 *       Phaser of 3 parties: two wait in arriveAndAwaitAdvance, the third is queued. main
 *       rests on its shutdown latch.
 *   <li>healthy: batch-worker-1..3 loop over a CyclicBarrier of 4 whose fourth party is the
 *       batch-coordinator thread, which arrives every 2 s; phase-worker-1..2 loop over a Phaser
 *       whose third party is the phase-coordinator thread, every 2 s. The workers wait at
 *       their barrier at most dumps; their peer is alive.
 * </ul>
 */
public final class PoolBarrierApp {
    static volatile long sink;

    static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> new Thread(r, prefix + "-" + n.incrementAndGet());
    }

    static final class BatchJob implements Runnable {
        final CyclicBarrier barrier;
        final boolean loop;

        BatchJob(CyclicBarrier barrier, boolean loop) {
            this.barrier = barrier;
            this.loop = loop;
        }

        public void run() {
            try {
                do {
                    sink += System.nanoTime() % 7;
                    barrier.await();
                } while (loop);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }
    }

    static final class GatherJob implements Runnable {
        final CountDownLatch parts;

        GatherJob(CountDownLatch parts) {
            this.parts = parts;
        }

        public void run() {
            parts.countDown();
            try {
                parts.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static final class PhaseJob implements Runnable {
        final Phaser phaser;
        final boolean loop;

        PhaseJob(Phaser phaser, boolean loop) {
            this.phaser = phaser;
            this.loop = loop;
        }

        public void run() {
            do {
                sink += System.nanoTime() % 5;
                phaser.arriveAndAwaitAdvance();
            } while (loop);
        }
    }

    static void coordinate(String name, Runnable arrive) {
        Thread t = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(2000);
                    arrive.run();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, name);
        t.setDaemon(true);
        t.start();
    }

    public static void main(String[] args) throws Exception {
        boolean healthy = args[0].equals("healthy");
        ExecutorService batch = Executors.newFixedThreadPool(3, named("batch-worker"));
        ExecutorService phase = Executors.newFixedThreadPool(2, named("phase-worker"));
        if (healthy) {
            CyclicBarrier barrier = new CyclicBarrier(4);
            for (int i = 0; i < 3; i++) batch.submit(new BatchJob(barrier, true));
            coordinate("batch-coordinator", () -> {
                try {
                    barrier.await();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            Phaser phaser = new Phaser(3);
            for (int i = 0; i < 2; i++) phase.submit(new PhaseJob(phaser, true));
            coordinate("phase-coordinator", phaser::arriveAndAwaitAdvance);
        } else {
            CyclicBarrier barrier = new CyclicBarrier(4);
            for (int i = 0; i < 4; i++) batch.submit(new BatchJob(barrier, false));
            ExecutorService gather = Executors.newFixedThreadPool(2, named("gather-worker"));
            CountDownLatch parts = new CountDownLatch(3);
            for (int i = 0; i < 3; i++) gather.submit(new GatherJob(parts));
            Phaser phaser = new Phaser(3);
            for (int i = 0; i < 3; i++) phase.submit(new PhaseJob(phaser, false));
        }
        System.out.println("ready");
        new CountDownLatch(1).await(); // main's shutdown latch, a rest
    }
}
