package com.example.util;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Helpers shared by the programs under test. */
public final class Threads {
    private static final CountDownLatch NEVER = new CountDownLatch(1);

    private Threads() {}

    /** awaitShutdown parks the calling thread (main) until the JVM is killed. */
    public static void awaitShutdown() throws InterruptedException {
        NEVER.await();
    }

    /** start starts a non-daemon thread named name running body. */
    public static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.start();
        return t;
    }

    /** named is a ThreadFactory naming its threads prefix + N, N from 1 (like Spring's CustomizableThreadCreator). */
    public static ThreadFactory named(String prefix, boolean daemon) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(daemon);
            return t;
        };
    }

    /** sleepForever sleeps in Thread.sleep until interrupted. */
    public static void sleepForever() {
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
