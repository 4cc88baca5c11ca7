package com.example.cache;

import com.example.ledger.Ledger;
import com.example.util.NamedThreadFactory;
import com.example.util.Threads;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Lock contention, no deadlock.
 *  - "cache-refresher" holds the PriceCache monitor while reading from a silent feed (RUNNABLE
 *    in a socket read); the 12 threads of the fixed pool "worker-1".."worker-12" are BLOCKED
 *    entering PriceCache.get.
 *  - "ledger-compactor" holds the Ledger's ReentrantLock while in Thread.sleep; "ledger-1"..
 *    "ledger-6" are WAITING (parking) in Ledger.append for it.
 *  - "idle-1".."idle-3", a ThreadPoolExecutor with nothing to do, wait in getTask (healthy).
 *
 * Usage: java com.example.cache.PricingApp FEED-PORT   (the feed is on 127.0.0.1)
 */
public final class PricingApp {
    public static void main(String[] args) throws Exception {
        InetSocketAddress feedAddress = new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0]));
        PriceCache cache = new PriceCache(new PriceFeed(feedAddress));

        CountDownLatch cacheHeld = new CountDownLatch(1);
        Threads.start("cache-refresher", () -> cache.refresh(cacheHeld));
        cacheHeld.await();
        ExecutorService workers = Executors.newFixedThreadPool(12, new NamedThreadFactory("worker"));
        for (int i = 1; i <= 12; i++) {
            String sku = "sku-" + i;
            workers.submit(() -> cache.get(sku));
        }

        Ledger ledger = new Ledger();
        CountDownLatch ledgerHeld = new CountDownLatch(1);
        Threads.start("ledger-compactor", () -> ledger.compact(ledgerHeld));
        ledgerHeld.await();
        for (int i = 1; i <= 6; i++) {
            long cents = 1_000L * i;
            Threads.start("ledger-" + i, () -> ledger.append(cents));
        }

        ThreadPoolExecutor idle = new ThreadPoolExecutor(3, 3, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), new NamedThreadFactory("idle"));
        idle.prestartAllCoreThreads();

        Threads.awaitShutdown();
    }
}
