package com.example.keptalive2;

import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Programs whose main returns while non-daemon threads stay (issue 33, "kept-alive"):
 *
 * <ul>
 *   <li>leaked: a fixed pool of 4 ran 8 tasks and was never shut down: its workers wait in
 *       getTask for tasks nobody will submit. The JVM cannot exit.
 *   <li>prodcons: a producer and a consumer thread, non-daemon, built to run forever: the
 *       producer puts an item every 200 ms, the consumer takes and sums it. Healthy.
 *   <li>waitnotify: the same hand-off with a monitor: the producer sets a field and notifies
 *       every 300 ms, the consumer waits for it. Healthy.
 *   <li>scheduled: a scheduled pool of 2 prints a line every second (scheduleAtFixedRate).
 *       Healthy.
 *   <li>timer: a non-daemon java.util.Timer ("ticker") prints a line every second. Healthy.
 *   <li>heartbeat: main made a client whose non-daemon scheduled pool of 4 sends a heartbeat
 *       every 10 minutes (run once at start), did its work and returned without closing it: the
 *       JVM should end and does not, kept up by the scheduled task (judge4 case 42's shape: a
 *       library's scheduler on a non-daemon executor).
 * </ul>
 */
public final class ForeverApp {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "leaked" -> leaked();
            case "prodcons" -> prodcons();
            case "waitnotify" -> waitnotify();
            case "scheduled" -> scheduled();
            case "timer" -> timer();
            case "heartbeat" -> heartbeat();
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("ready");
        // main returns: DestroyJavaVM waits for the non-daemon threads left.
    }

    static void leaked() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        Future<?>[] fs = new Future<?>[8];
        for (int i = 0; i < fs.length; i++) {
            final int n = i;
            fs[i] = pool.submit(() -> { sink += n * 31L; });
        }
        for (Future<?> f : fs) f.get();
        // forgotten: pool.shutdown()
    }

    static void prodcons() {
        BlockingQueue<Long> q = new ArrayBlockingQueue<>(16);
        Thread producer = new Thread(() -> {
            long i = 0;
            try {
                while (true) {
                    q.put(i++);
                    Thread.sleep(200);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "producer");
        Thread consumer = new Thread(() -> {
            try {
                while (true) {
                    long v = q.take();
                    sink += v;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "consumer");
        producer.start();
        consumer.start();
    }

    static final class Slot {
        private long value;
        private boolean full;

        synchronized void put(long v) {
            value = v;
            full = true;
            notifyAll();
        }

        synchronized long take() throws InterruptedException {
            while (!full) wait();
            full = false;
            return value;
        }
    }

    static void waitnotify() {
        Slot slot = new Slot();
        Thread producer = new Thread(() -> {
            long i = 0;
            try {
                while (true) {
                    slot.put(i++);
                    Thread.sleep(300);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "slot-producer");
        Thread consumer = new Thread(() -> {
            try {
                while (true) sink += slot.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "slot-consumer");
        producer.start();
        consumer.start();
    }

    static void scheduled() {
        ScheduledExecutorService ses = Executors.newScheduledThreadPool(2);
        long start = System.nanoTime();
        ses.scheduleAtFixedRate(
                () -> System.out.println("tick " + (System.nanoTime() - start) / 1_000_000_000L),
                0, 1, TimeUnit.SECONDS);
    }

    static void heartbeat() {
        ScheduledExecutorService ses = Executors.newScheduledThreadPool(4);
        ses.scheduleAtFixedRate(() -> { sink += 1; }, 0, 10, TimeUnit.MINUTES);
        for (int i = 0; i < 3; i++) {
            ses.schedule(() -> { sink += 2; }, 0, TimeUnit.MILLISECONDS); // the client's start-up work
        }
        long sum = 0;
        for (int i = 0; i < 1000; i++) sum += i; // main's own work
        sink += sum;
        // forgotten: the client's close(), which would shut ses down
    }

    static void timer() {
        Timer t = new Timer("ticker", false);
        long start = System.nanoTime();
        t.scheduleAtFixedRate(new TimerTask() {
            @Override
            public void run() {
                System.out.println("tick " + (System.nanoTime() - start) / 1_000_000_000L);
            }
        }, 0, 1000);
    }
}
