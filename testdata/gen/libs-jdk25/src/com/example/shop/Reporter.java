package com.example.shop;

import java.time.Duration;

/** A periodic report that waits an hour between runs. */
final class Reporter {
    private Reporter() {
    }

    static void waitForNextRun() throws InterruptedException {
        Thread.sleep(Duration.ofHours(1));
    }
}
