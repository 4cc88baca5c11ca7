package com.example.clients;

import java.security.MessageDigest;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A bounded queue between producers and busy consumers (issue 33: consumers never caught in
 * {@code take}). 6 {@code producer-N} threads put an order into a {@code LinkedBlockingQueue} of 50;
 * 2 {@code digester-N} threads take one and hash it (SHA-256, repeated) before taking the next.
 *
 * <p>backlog: each order costs a digester tens of ms of CPU and the producers put orders as fast
 * as they can: the queue is full from the first instant, the producers wait in {@code put}, the
 * digesters are in their hashing at every instant (they take the next order at once, the queue is
 * never empty). keepup: each order costs ~1 ms and the producers put one every 100 ms each: the
 * digesters wait in {@code take} most of the time, the producers sleep. Prints "ready" once
 * every thread is started.
 */
public class BacklogApp {
    public static void main(String[] args) throws Exception {
        boolean backlog = args[0].equals("backlog");
        int rounds = backlog ? 40000 : 200;
        long every = backlog ? 0 : 100;
        BlockingQueue<byte[]> orders = new LinkedBlockingQueue<>(50);
        Thread first = null;
        for (int i = 1; i <= 2; i++) {
            Thread d = new Thread(new Digester(orders, rounds), "digester-" + i);
            d.start();
            first = first == null ? d : first;
        }
        for (int i = 1; i <= 6; i++) {
            new Thread(new Producer(orders, every), "producer-" + i).start();
        }
        System.out.println("ready");
        first.join(); // a service's main waits for its workers
    }

    static final class Producer implements Runnable {
        final BlockingQueue<byte[]> orders;
        final long every;

        Producer(BlockingQueue<byte[]> orders, long every) {
            this.orders = orders;
            this.every = every;
        }

        public void run() {
            for (long n = 0; ; n++) {
                try {
                    orders.put(order(n));
                    if (every > 0) {
                        Thread.sleep(every);
                    }
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        byte[] order(long n) {
            return ("order-" + Thread.currentThread().getName() + "-" + n).getBytes();
        }
    }

    static final class Digester implements Runnable {
        final BlockingQueue<byte[]> orders;
        final int rounds;
        volatile byte sink;

        Digester(BlockingQueue<byte[]> orders, int rounds) {
            this.orders = orders;
            this.rounds = rounds;
        }

        public void run() {
            try {
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                while (true) {
                    byte[] order = orders.take();
                    sink = digest(sha, order)[0];
                }
            } catch (Exception e) {
                // interrupted
            }
        }

        byte[] digest(MessageDigest sha, byte[] order) {
            byte[] d = order;
            for (int i = 0; i < rounds; i++) {
                d = sha.digest(d);
            }
            return d;
        }
    }
}
