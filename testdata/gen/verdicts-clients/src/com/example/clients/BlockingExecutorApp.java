package com.example.clients;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;

/**
 * A "blocking executor" (issue 33: busy consumers never caught in {@code take}): a
 * ThreadPoolExecutor of 2 {@code render-N} workers over an ArrayBlockingQueue of 20, whose
 * rejection handler waits for room ({@code getQueue().put}) instead of failing, a common way to
 * make submitters wait. 4 {@code submitter-N} threads submit render jobs.
 *
 * <p>busy: a job costs a worker ~100 ms of CPU (CRC32 over a buffer, repeated) and each submitter
 * submits as fast as it can: the queue is full at once, the submitters wait in the handler's
 * {@code put}, and the workers take the next job the instant one is done. keepup: a job costs
 * ~1 ms and each submitter submits every 100 ms: the workers wait in the pool's {@code getTask}.
 * Prints "ready" once every thread is started; main then waits.
 */
public class BlockingExecutorApp {
    public static void main(String[] args) throws Exception {
        boolean busy = args[0].equals("busy");
        int rounds = busy ? 3000 : 30;
        long every = busy ? 0 : 100;
        AtomicInteger n = new AtomicInteger();
        ThreadFactory names = r -> new Thread(r, "render-" + n.incrementAndGet());
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(20), names,
                (job, executor) -> {
                    try {
                        executor.getQueue().put(job); // wait for room: the submitter blocks
                    } catch (InterruptedException e) {
                        throw new RejectedExecutionException(e);
                    }
                });
        for (int i = 1; i <= 4; i++) {
            Thread s = new Thread(new Submitter(pool, rounds, every), "submitter-" + i);
            s.start();
        }
        System.out.println("ready");
        pool.awaitTermination(1, TimeUnit.DAYS);
    }

    static final class Submitter implements Runnable {
        final ThreadPoolExecutor pool;
        final int rounds;
        final long every;

        Submitter(ThreadPoolExecutor pool, int rounds, long every) {
            this.pool = pool;
            this.rounds = rounds;
            this.every = every;
        }

        public void run() {
            for (long k = 0; ; k++) {
                pool.execute(new Render(rounds));
                if (every > 0) {
                    ClientWaitsApp.pause(every);
                }
            }
        }
    }

    static final class Render implements Runnable {
        static volatile long sink;
        final int rounds;

        Render(int rounds) {
            this.rounds = rounds;
        }

        public void run() {
            sink = checksum(new byte[64 * 1024]);
        }

        long checksum(byte[] page) {
            CRC32 crc = new CRC32();
            for (int i = 0; i < rounds; i++) {
                crc.update(page);
                page[i % page.length] = (byte) crc.getValue();
            }
            return crc.getValue();
        }
    }
}
