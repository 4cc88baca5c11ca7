package com.example.shop;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/** Product descriptions behind the Catalog's monitor; reindex holds it while it sleeps for an hour. */
final class Catalog {
    private int lookups;

    synchronized void reindex(CountDownLatch held) throws InterruptedException {
        held.countDown();
        Thread.sleep(Duration.ofHours(1));
    }

    synchronized int describe(int productId) { // waits for reindex
        lookups++;
        return productId;
    }
}
