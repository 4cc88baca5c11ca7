package com.example.checkout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A checkout service in trouble, held still until it is killed; kill -3 makes the JVM print a
 * thread dump to its stdout.
 *
 * <ul>
 * <li>five order-handler-N threads BLOCKED on the Ledger monitor, held by ledger-reconcile,
 * which sleeps inside it (a slow call made under the lock);</li>
 * <li>three payment-worker-N threads parked in ReentrantLock.lock(), held by payment-rebuild;</li>
 * <li>mail-sender in Object.wait() on its queue;</li>
 * <li>a ticker that logs a line to stderr every millisecond, as services do around a dump.</li>
 * </ul>
 *
 * It prints "ready" on stdout when every thread is in place.
 */
public final class CheckoutApp {
    static final Object ledger = new Object();
    static final ReentrantLock payments = new ReentrantLock();
    static final Object mail = new Object();

    public static void main(String[] args) throws Exception {
        CountDownLatch held = new CountDownLatch(2);
        start("ledger-reconcile", () -> {
            synchronized (ledger) {
                held.countDown();
                sleep(Long.MAX_VALUE);
            }
        });
        start("payment-rebuild", () -> {
            payments.lock();
            held.countDown();
            sleep(Long.MAX_VALUE);
        });
        held.await();
        for (int i = 1; i <= 5; i++) {
            start("order-handler-" + i, () -> {
                synchronized (ledger) {
                    System.out.println("posted");
                }
            });
        }
        for (int i = 1; i <= 3; i++) {
            start("payment-worker-" + i, () -> {
                payments.lock();
                payments.unlock();
            });
        }
        start("mail-sender", () -> {
            synchronized (mail) {
                try {
                    mail.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        Thread.sleep(300); // every thread reaches its wait
        start("ticker", () -> {
            for (long i = 0; ; i++) {
                System.err.println("tick " + i);
                sleep(1);
            }
        });
        System.out.println("ready");
        sleep(Long.MAX_VALUE);
    }

    static void start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
