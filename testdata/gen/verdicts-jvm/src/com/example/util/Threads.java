package com.example.util;

import java.util.concurrent.CountDownLatch;

/** Small helpers shared by the fixture programs. */
public final class Threads {
    /** A thread body that may throw; an exception ends the thread with a stack trace. */
    public interface Body {
        void run() throws Exception;
    }

    private Threads() {}

    /** start runs body in a new non-daemon thread called name. */
    public static Thread start(String name, Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Exception e) {
                e.printStackTrace();
            }
        }, name);
        t.start();
        return t;
    }

    /**
     * awaitShutdown parks the calling thread (main) until the JVM is killed, the way a
     * service's main thread waits for its shutdown signal.
     */
    public static void awaitShutdown() throws InterruptedException {
        new CountDownLatch(1).await();
    }
}
