package com.example.keptalive2.jobs;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The other classic missed signal (issue 33): the waiter checks its flag in a loop, but the
 * finisher sets the flag without a notify, or signals a Condition the waiter does not wait on.
 *
 * <ul>
 *   <li>stuck: "job-waiter" waits in JobTracker.awaitDone ({@code while (!done) wait();}) while
 *       "job-finisher" set {@code done} outside the monitor with no notify and ended (the
 *       waiter checked before the write, then waited); "batch-waiter" awaits the tracker's
 *       {@code finished} Condition while "batch-finisher" signalled {@code progressed}, another
 *       Condition of the same lock, and ended. main joins the waiters.
 *   <li>healthy: finishers that live on: "job-finisher" sets the flag and notifies every 2 s
 *       (the waiter resets it and waits again), "batch-finisher" signals {@code finished} every
 *       2 s.
 * </ul>
 */
public final class JobTracker {
    private final Object monitor = new Object();
    private boolean done;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition finished = lock.newCondition();
    private final Condition progressed = lock.newCondition();

    void awaitDone() throws InterruptedException {
        synchronized (monitor) {
            while (!done) monitor.wait();
            done = false;
        }
    }

    void finishQuietly() {
        done = true; // the bug: no notify, and outside the monitor
    }

    void finish() {
        synchronized (monitor) {
            done = true;
            monitor.notifyAll();
        }
    }

    void awaitBatch() throws InterruptedException {
        lock.lock();
        try {
            finished.await();
        } finally {
            lock.unlock();
        }
    }

    void signal(boolean right) {
        lock.lock();
        try {
            (right ? finished : progressed).signalAll(); // the bug: the wrong Condition
        } finally {
            lock.unlock();
        }
    }

    public static void main(String[] args) throws Exception {
        boolean healthy = args[0].equals("healthy");
        JobTracker jt = new JobTracker();
        Thread jobWaiter = new Thread(() -> {
            try {
                do jt.awaitDone(); while (healthy);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "job-waiter");
        Thread batchWaiter = new Thread(() -> {
            try {
                do jt.awaitBatch(); while (healthy);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "batch-waiter");
        jobWaiter.start();
        batchWaiter.start();
        Thread.sleep(300); // both wait before anything is sent
        Thread jobFinisher = new Thread(() -> {
            try {
                do {
                    if (healthy) jt.finish(); else jt.finishQuietly();
                    if (healthy) Thread.sleep(2000);
                } while (healthy);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "job-finisher");
        Thread batchFinisher = new Thread(() -> {
            try {
                do {
                    jt.signal(healthy);
                    if (healthy) Thread.sleep(2000);
                } while (healthy);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "batch-finisher");
        jobFinisher.start();
        batchFinisher.start();
        System.out.println("ready");
        jobWaiter.join();
        batchWaiter.join();
    }
}
