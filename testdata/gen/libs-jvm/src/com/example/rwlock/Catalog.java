package com.example.rwlock;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/** A map guarded by a ReentrantReadWriteLock. */
final class Catalog {
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, String> items = new HashMap<>();

    boolean isWriteLocked() {
        return lock.isWriteLocked();
    }

    int queueLength() {
        return lock.getQueueLength();
    }

    /** reindex holds the write lock and never lets go (sleeps). */
    void reindex() {
        lock.writeLock().lock();
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.writeLock().unlock();
        }
    }

    void lookup() {
        lock.readLock().lock();
        try {
            items.get("sku-1");
        } finally {
            lock.readLock().unlock();
        }
    }

    void update() {
        lock.writeLock().lock();
        try {
            items.put("sku-1", "updated");
        } finally {
            lock.writeLock().unlock();
        }
    }

    void tryUpdate() {
        try {
            if (lock.writeLock().tryLock(10, TimeUnit.MINUTES)) {
                try {
                    items.put("sku-2", "updated");
                } finally {
                    lock.writeLock().unlock();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void stream() {
        try {
            lock.readLock().lockInterruptibly();
            try {
                items.size();
            } finally {
                lock.readLock().unlock();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
