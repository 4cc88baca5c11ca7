package com.example.shop;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Prices behind a ReentrantReadWriteLock; importAll holds the write lock while it sleeps for an
 * hour, so every reader waits.
 */
final class PriceBook {
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private int price = 100;

    void importAll(CountDownLatch held) throws InterruptedException {
        lock.writeLock().lock();
        try {
            held.countDown();
            Thread.sleep(Duration.ofHours(1));
        } finally {
            lock.writeLock().unlock();
        }
    }

    int price(int productId) {
        lock.readLock().lock(); // waits for importAll
        try {
            return price + productId;
        } finally {
            lock.readLock().unlock();
        }
    }
}
