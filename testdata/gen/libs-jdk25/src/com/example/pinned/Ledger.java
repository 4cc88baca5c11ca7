package com.example.pinned;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/** Account balances behind the Ledger's monitor; compact holds it while it sleeps for an hour. */
final class Ledger {
    synchronized void compact(CountDownLatch held) throws InterruptedException {
        held.countDown();
        Thread.sleep(Duration.ofHours(1));
    }

    /** Compares two accounts by balance; waits for compact. */
    synchronized int compare(int a, int b) {
        return Integer.compare(a, b);
    }
}
