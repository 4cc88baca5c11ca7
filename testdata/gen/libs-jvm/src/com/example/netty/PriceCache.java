package com.example.netty;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/** A cache guarded by its monitor; its refresher holds the monitor while it sleeps (the slow reload). */
final class PriceCache {
    private final Map<String, String> prices = new HashMap<>();
    private final CountDownLatch refreshing = new CountDownLatch(1);
    private Thread refresher;

    /** startRefresher starts the "price-refresher" thread once and returns when it holds the monitor. */
    void startRefresher() throws InterruptedException {
        synchronized (refreshing) {
            if (refresher == null) {
                refresher = new Thread(this::reload, "price-refresher");
                refresher.start();
            }
        }
        refreshing.await();
    }

    private synchronized void reload() {
        refreshing.countDown();
        try {
            Thread.sleep(3_600_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        prices.put("sku-1", "42");
    }

    synchronized String get(String sku) {
        return prices.getOrDefault(sku, "none");
    }
}
