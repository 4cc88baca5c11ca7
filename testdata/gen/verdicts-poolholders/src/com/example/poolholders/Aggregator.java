package com.example.poolholders;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A fixed executor of 3 "agg-N" workers runs Aggregator.total, which splits
 * its work into 2 parts, submits them, and waits for each with Future.get.
 *
 * stuck: the parts go to the same executor, and 3 totals are submitted at
 * once: the 3 workers all wait in Future.get (FutureTask.awaitDone) for
 * parts queued behind them, no worker is free to run them: a thread
 * starvation deadlock.
 *
 * healthy: the parts go to another fixed executor of 4 "part-N" workers that
 * is working (each part sleeps 30 ms), and totals come 20 a second: the agg
 * workers wait in Future.get, but on parts the part pool runs and finishes.
 */
public final class Aggregator {
    private final ExecutorService parts;

    Aggregator(ExecutorService parts) {
        this.parts = parts;
    }

    int total(int n) throws Exception {
        List<Future<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            int k = i;
            fs.add(parts.submit(() -> part(n, k)));
        }
        int sum = 0;
        for (Future<Integer> f : fs) {
            sum += f.get();
        }
        return sum;
    }

    static int part(int n, int k) {
        Named.pause(30);
        return n * 2 + k;
    }

    public static void main(String[] args) throws Exception {
        boolean stuck = args[0].equals("stuck");
        ExecutorService agg = Executors.newFixedThreadPool(3, new Named("agg-"));
        ExecutorService parts = stuck ? agg : Executors.newFixedThreadPool(4, new Named("part-"));
        Aggregator a = new Aggregator(parts);
        Runnable one = () -> {
            try {
                a.total((int) (System.nanoTime() % 1000));
            } catch (Exception e) {
                e.printStackTrace();
            }
        };
        if (stuck) {
            for (int i = 0; i < 3; i++) {
                agg.execute(one);
            }
            System.out.println("ready");
            Thread.sleep(Long.MAX_VALUE);
        }
        System.out.println("ready");
        while (true) {
            agg.execute(one);
            Thread.sleep(50);
        }
    }
}
