package com.example.executors;

import com.example.util.Threads;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Idle executors named as the JDK, Spring Boot and grpc-java name theirs. Every pool here is
 * a JDK ThreadPoolExecutor / ScheduledThreadPoolExecutor built by this program; only the
 * thread names follow those libraries (no Spring or gRPC jar is used):
 *
 *   pool-1-thread-1..3  Executors.newFixedThreadPool(3): idle in LinkedBlockingQueue.take
 *   pool-2-thread-1..2  Executors.newFixedThreadPool(2): likewise
 *   pool-3-thread-1     Executors.newSingleThreadScheduledExecutor(), nothing scheduled:
 *                       DelayedWorkQueue.take, untimed
 *   task-1..8           as Spring Boot's default ThreadPoolTaskExecutor ("task-", core 8,
 *                       unbounded queue, keep-alive 60 s, core threads time out): idle in
 *                       LinkedBlockingQueue.poll(60 s)
 *   scheduling-1        as Spring Boot's default ThreadPoolTaskScheduler ("scheduling-",
 *                       pool size 1) with one fixed-rate task every hour: DelayedWorkQueue.take,
 *                       timed
 *   grpc-default-executor-0..2  as grpc-java's shared channel executor
 *                       (Executors.newCachedThreadPool, daemon threads, "grpc-default-executor-%d"):
 *                       idle in SynchronousQueue.poll(60 s)
 *
 * Usage: java com.example.executors.ExecutorsApp
 */
public final class ExecutorsApp {
    public static void main(String[] args) throws Exception {
        ExecutorService fixed1 = Executors.newFixedThreadPool(3);
        ExecutorService fixed2 = Executors.newFixedThreadPool(2);
        ScheduledExecutorService single = Executors.newSingleThreadScheduledExecutor();
        runOnEveryThread(fixed1, 3);
        runOnEveryThread(fixed2, 2);
        runOnEveryThread(single, 1);

        ThreadPoolExecutor task = new ThreadPoolExecutor(8, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), Threads.named("task-", false));
        task.allowCoreThreadTimeOut(true);
        runOnEveryThread(task, 8);

        ScheduledThreadPoolExecutor scheduling = new ScheduledThreadPoolExecutor(1, Threads.named("scheduling-", false));
        scheduling.scheduleAtFixedRate(HousekeepingJob::run, 1, 60, TimeUnit.MINUTES);
        runOnEveryThread(scheduling, 1);

        ExecutorService grpc = Executors.newCachedThreadPool(grpcStyle("grpc-default-executor-"));
        runOnEveryThread(grpc, 3);

        Threads.awaitShutdown();
    }

    /** runOnEveryThread runs n tasks at once that wait for each other, so the pool starts n threads, and waits for them. */
    private static void runOnEveryThread(ExecutorService pool, int n) throws InterruptedException {
        CountDownLatch all = new CountDownLatch(n);
        CountDownLatch done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            pool.execute(() -> {
                all.countDown();
                try {
                    all.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.countDown();
            });
        }
        done.await();
    }

    /** grpcStyle names daemon threads prefix + N from 0, as grpc-java's ThreadFactoryBuilder format "grpc-default-executor-%d". */
    private static ThreadFactory grpcStyle(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
    }
}
