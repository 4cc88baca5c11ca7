package com.example.shop;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

/** Stock levels behind one ReentrantLock; rebuild holds it while it sleeps for an hour. */
final class Inventory {
    private final ReentrantLock lock = new ReentrantLock();
    private int reserved;

    void rebuild(CountDownLatch held) throws InterruptedException {
        lock.lock();
        try {
            held.countDown();
            Thread.sleep(Duration.ofHours(1));
        } finally {
            lock.unlock();
        }
    }

    void reserve(int productId) {
        lock.lock(); // waits for rebuild
        try {
            reserved += productId;
        } finally {
            lock.unlock();
        }
    }
}
