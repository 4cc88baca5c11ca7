package com.example.sleepy;

import com.example.util.Threads;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * SleepyApp's "quote" pool (Executors.newFixedThreadPool(10), threads quote-1..10) runs tasks
 * that each sleep 10 minutes inside the task: a slow call simulated, as a retry's back-off or a
 * test double would. 30 tasks are submitted, so all 10 workers sleep in a task and 20 wait in
 * the queue; the request thread "checkout" waits on their futures. Beside it, for contrast, the
 * "report" pool (4 threads) is idle in its own loop, and "poller", a thread of its own, sleeps
 * between polls.
 *
 * With "idle" the quote pool gets no task: it stays idle in its loop, as report is.
 */
public final class SleepyApp {
    public static void main(String[] args) throws Exception {
        boolean idle = args.length > 0 && args[0].equals("idle");
        ExecutorService quote = Executors.newFixedThreadPool(10, Threads.named("quote-", false));
        ExecutorService report = Executors.newFixedThreadPool(4, Threads.named("report-", false));
        for (int i = 0; i < 4; i++) report.submit(() -> {}); // started, then idle
        Threads.start("poller", () -> {
            while (true) {
                try {
                    Thread.sleep(60_000); // between polls
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        if (!idle) {
            List<Future<?>> fs = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                fs.add(quote.submit(SleepyApp::slowQuote));
            }
            Threads.start("checkout", () -> {
                try {
                    for (Future<?> f : fs) f.get();
                } catch (Exception e) {
                }
            });
        } else {
            for (int i = 0; i < 10; i++) quote.submit(() -> {}); // all ten started, then idle
        }
        System.out.println("ready");
        Threads.awaitShutdown();
    }

    /** slowQuote is a call to a slow upstream, simulated by a sleep. */
    static void slowQuote() {
        try {
            Thread.sleep(600_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
