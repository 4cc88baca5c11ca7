package com.example.cutlines;

import java.util.concurrent.CountDownLatch;

/**
 * Threads whose dump lines are long: names of 150 to 300 characters (a job's parameters in
 * the name, as batch frameworks name their threads) and frames of deeply nested classes, each
 * parked until the process ends. Prints "ready" when every thread waits.
 */
public class LongLines {
    static final Object gate = new Object();

    static final class OrderReconciliationJobForTheEuropeanRegionWithRetriesAndBackoff {
        static final class PartitionedLedgerScanOverEveryAccountOpenedSinceTheMigration {
            static void waitForTheNextBatchOfEntriesFromTheUpstreamSettlementService(CountDownLatch ready) throws InterruptedException {
                synchronized (gate) {
                    ready.countDown();
                    gate.wait();
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int n = 12;
        CountDownLatch ready = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            StringBuilder name = new StringBuilder("reconcile[region=eu-west-" + i + ",accounts=");
            for (int k = 0; k < 10 + 3 * i; k++) {
                name.append("acct-").append(1000 + k).append(k % 2 == 0 ? "," : ";");
            }
            name.append("]");
            Thread t = new Thread(() -> {
                try {
                    OrderReconciliationJobForTheEuropeanRegionWithRetriesAndBackoff.PartitionedLedgerScanOverEveryAccountOpenedSinceTheMigration
                        .waitForTheNextBatchOfEntriesFromTheUpstreamSettlementService(ready);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, name.toString());
            t.setDaemon(true);
            t.start();
        }
        ready.await();
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(60_000);
    }
}
