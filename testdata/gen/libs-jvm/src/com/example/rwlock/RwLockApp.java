package com.example.rwlock;

import com.example.util.Threads;

/**
 * A Catalog guarded by one ReentrantReadWriteLock (non-fair, the default). "catalog-reindex"
 * takes the write lock and sleeps holding it; then, in this order, "catalog-reader-1..6"
 * wait in ReadLock.lock, "catalog-writer-1..3" in WriteLock.lock, "catalog-try-writer-1..2"
 * in WriteLock.tryLock(10 min) and "catalog-stream-1..2" in ReadLock.lockInterruptibly.
 *
 * Usage: java com.example.rwlock.RwLockApp
 */
public final class RwLockApp {
    public static void main(String[] args) throws Exception {
        Catalog catalog = new Catalog();
        Threads.start("catalog-reindex", catalog::reindex);
        while (!catalog.isWriteLocked()) {
            Thread.sleep(10);
        }
        startAll("catalog-reader-", 6, catalog::lookup, catalog);
        startAll("catalog-writer-", 3, catalog::update, catalog);
        startAll("catalog-try-writer-", 2, catalog::tryUpdate, catalog);
        startAll("catalog-stream-", 2, catalog::stream, catalog);
        Threads.awaitShutdown();
    }

    /** startAll starts n threads and waits until all n are queued on the lock, so the queue order is fixed. */
    private static void startAll(String prefix, int n, Runnable body, Catalog catalog) throws InterruptedException {
        int before = catalog.queueLength();
        for (int i = 1; i <= n; i++) {
            Threads.start(prefix + i, body);
            while (catalog.queueLength() < before + i) {
                Thread.sleep(5);
            }
        }
    }
}
