package com.example.holderfirst;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Three posting threads and three java.util.concurrent locks (two
 * ReentrantLocks and a ReentrantReadWriteLock's write lock).
 *
 * stuck:   posting-1 takes ledger then journal, posting-2 journal then the
 *          index's write lock, posting-3 the index's write lock then ledger:
 *          each parks on the lock the next one holds, a cycle of three.
 * healthy: the same three threads take the same three locks always in one
 *          order (ledger, journal, index), hold them for a short piece of
 *          work and let go: the holder rotates.
 *
 * A pool of four idle workers sits beside them. args: mode [self-dump dir].
 */
public final class JucCycleApp {
    static final ReentrantLock ledger = new ReentrantLock();
    static final ReentrantLock journal = new ReentrantLock();
    static final ReentrantReadWriteLock index = new ReentrantReadWriteLock();
    static volatile long sink;

    static void work(int ms) {
        long end = System.nanoTime() + ms * 1_000_000L;
        long x = 0;
        while (System.nanoTime() < end) {
            x += System.nanoTime() % 7;
        }
        sink += x;
    }

    static void post(Lock first, Lock second) throws InterruptedException {
        first.lock();
        try {
            Thread.sleep(300); // the other posters take their first lock meanwhile
            second.lock();
            try {
                work(1);
            } finally {
                second.unlock();
            }
        } finally {
            first.unlock();
        }
    }

    static void postOrdered() throws InterruptedException {
        ledger.lock();
        try {
            journal.lock();
            try {
                index.writeLock().lock();
                try {
                    work(2);
                } finally {
                    index.writeLock().unlock();
                }
            } finally {
                journal.unlock();
            }
        } finally {
            ledger.unlock();
        }
        Thread.sleep(3);
    }

    public static void main(String[] args) throws Exception {
        boolean stuck = args[0].equals("stuck");
        SelfDumper.start(args.length > 1 ? args[1] : null);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        for (int i = 0; i < 4; i++) {
            pool.submit(() -> work(1));
        }
        Lock[][] order = {
            {ledger, journal},
            {journal, index.writeLock()},
            {index.writeLock(), ledger},
        };
        for (int i = 0; i < 3; i++) {
            Lock[] o = order[i];
            Thread t = new Thread(() -> {
                try {
                    if (stuck) {
                        post(o[0], o[1]);
                    } else {
                        while (true) {
                            postOrdered();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "posting-" + (i + 1));
            t.start();
        }
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }
}
