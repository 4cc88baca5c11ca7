package com.example.roles;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;

/**
 * Tasks that rename the common pool's workers: three CompletableFuture.runAsync calls without an
 * executor (the common pool, its parallelism set to 3 on the command line) each name their
 * worker "import-job-N" and wait for a CountDownLatch nobody counts down. Every worker of the
 * common pool is held; parallel streams and other *Async calls queue behind them. With "idle",
 * the tasks rename their worker and return: the renamed workers rest (the control).
 */
public class RenamedCommonPool {
    public static void main(String[] args) throws Exception {
        boolean idle = args.length > 0 && args[0].equals("idle");
        CountDownLatch never = new CountDownLatch(1);
        CompletableFuture<?>[] started = new CompletableFuture<?>[3];
        CountDownLatch renamed = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            int n = i;
            started[i] = CompletableFuture.runAsync(() -> {
                Thread.currentThread().setName("import-job-" + n);
                renamed.countDown();
                if (!idle) {
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
        }
        renamed.await();
        System.out.println("ready " + ForkJoinPool.getCommonPoolParallelism());
        Thread.currentThread().join();
    }
}
