package com.example.forkjoin;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * 14 CompletableFuture.supplyAsync tasks with no executor (so on the common ForkJoinPool,
 * run with -Djava.util.concurrent.ForkJoinPool.common.parallelism=4): each reads the silent
 * upstream with no read timeout. 4 workers take 4 tasks and block in the socket read; the
 * other 10 tasks wait in the pool's queue (queued tasks are in no dump). main waits in
 * CompletableFuture.join on all of them.
 *
 * Usage: java -Djava.util.concurrent.ForkJoinPool.common.parallelism=4 com.example.forkjoin.ForkJoinApp UPSTREAM-PORT
 */
public final class ForkJoinApp {
    public static void main(String[] args) {
        RatesClient client = new RatesClient(Integer.parseInt(args[0]));
        List<CompletableFuture<String>> all = new ArrayList<>();
        for (int i = 0; i < 14; i++) {
            String currency = "C" + i;
            all.add(CompletableFuture.supplyAsync(() -> client.rate(currency)));
        }
        CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).join();
    }
}
