package com.example.pinned;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

/** Exchange rates behind one ReentrantLock; refresh holds it while it sleeps for an hour. */
final class Rates {
    private final ReentrantLock lock = new ReentrantLock();

    void refresh(CountDownLatch held) throws InterruptedException {
        lock.lock();
        try {
            held.countDown();
            Thread.sleep(Duration.ofHours(1));
        } finally {
            lock.unlock();
        }
    }

    /** Compares two prices in the reference currency; waits for a refresh in progress. */
    int compare(int a, int b) {
        lock.lock();
        try {
            return Integer.compare(a, b);
        } finally {
            lock.unlock();
        }
    }

    /** Compares two prices after a throttle of an hour. */
    static int compareThrottled(int a, int b) {
        try {
            Thread.sleep(Duration.ofHours(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Integer.compare(a, b);
    }
}
