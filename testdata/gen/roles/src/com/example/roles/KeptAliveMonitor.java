package com.example.roles;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A command-line tool whose main returns while two non-daemon threads of its own stay:
 * config-watcher loops in Object.wait() on a private monitor that no code ever notifies (it was
 * meant to be woken by a reload that never comes), and event-consumer takes from a
 * LinkedBlockingQueue nobody puts into any more. No executor, no timer: DestroyJavaVM waits for
 * them forever.
 */
public class KeptAliveMonitor {
    private static final Object RELOAD = new Object();

    public static void main(String[] args) {
        Thread watcher = new Thread(() -> {
            synchronized (RELOAD) {
                while (true) {
                    try {
                        RELOAD.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }, "config-watcher");
        watcher.start();
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        Thread consumer = new Thread(() -> {
            try {
                while (true) {
                    System.out.println(events.take());
                }
            } catch (InterruptedException e) {
                // stop
            }
        }, "event-consumer");
        consumer.start();
        events.add("started");
        System.out.println("ready");
    }
}
