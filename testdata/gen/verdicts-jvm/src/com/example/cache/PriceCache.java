package com.example.cache;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Prices by SKU behind one monitor: get and refresh are synchronized on the cache, and refresh
 * does its network read while holding it, so one slow feed read stops every reader.
 */
final class PriceCache {
    private final PriceFeed feed;
    private final Map<String, Long> prices = new HashMap<>();

    PriceCache(PriceFeed feed) {
        this.feed = feed;
    }

    synchronized long get(String sku) {
        return prices.getOrDefault(sku, 0L);
    }

    synchronized void refresh(CountDownLatch holding) throws IOException {
        holding.countDown(); // the monitor is held from here on
        byte[] snapshot = feed.fetchSnapshot();
        prices.put("snapshot-bytes", (long) snapshot.length);
    }
}
