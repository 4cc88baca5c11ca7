package com.example.holders;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;

/**
 * Hand-offs whose other side is gone (issue 33: "a latch nobody counts down", "a producer whose
 * consumer died"). In "stuck": "config-loader" fails before it counts the startup latch down, so
 * main waits in CountDownLatch.await forever; "metrics-sender" dies on a bad record after taking
 * three, so "metrics-collector" fills the bounded queue (8) and parks in put forever. Nothing else
 * of the application runs. In "healthy" the loader counts down, main then waits for the sender
 * to end (Thread.join), the sender takes every record (resting in take between them) and the
 * collector puts one every 5 ms.
 */
public final class OrphanApp {
    public static void main(String[] args) throws Exception {
        boolean stuck = args[0].equals("stuck");
        CountDownLatch started = new CountDownLatch(1);
        BlockingQueue<String> records = new ArrayBlockingQueue<>(8);
        Thread loader = new Thread(() -> {
            if (stuck) throw new IllegalStateException("config store unreachable"); // dies before countDown
            started.countDown();
        }, "config-loader");
        loader.start();
        Thread sender = new Thread(() -> {
            int n = 0;
            try {
                for (;;) {
                    String r = records.take();
                    if (stuck && ++n == 3) throw new IllegalArgumentException("bad record " + r); // the consumer dies
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "metrics-sender");
        sender.start();
        Thread collector = new Thread(() -> {
            try {
                for (int i = 0;; i++) {
                    records.put("m" + i);
                    if (!stuck) Thread.sleep(5);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "metrics-collector");
        collector.start();
        if (stuck) {
            // ready once both sides are gone and the collector is parked in put (states, not time)
            loader.join();
            sender.join();
            while (collector.getState() != Thread.State.WAITING) Thread.onSpinWait();
        }
        System.out.println("ready");
        started.await(); // stuck: forever
        sender.join();
    }
}
