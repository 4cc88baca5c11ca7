package com.example.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An append-only ledger guarded by one ReentrantLock. compact holds the lock for its whole
 * (slow) run, and sleeps between passes while still holding it, so appends wait behind it.
 */
public final class Ledger {
    private final ReentrantLock lock = new ReentrantLock();
    private final List<Long> entries = new ArrayList<>();

    public void append(long amountCents) {
        lock.lock();
        try {
            entries.add(amountCents);
        } finally {
            lock.unlock();
        }
    }

    public void compact(CountDownLatch holding) throws InterruptedException {
        lock.lock();
        try {
            holding.countDown();
            while (true) {
                Thread.sleep(60_000); // "throttling" between compaction passes, lock still held
            }
        } finally {
            lock.unlock();
        }
    }
}
