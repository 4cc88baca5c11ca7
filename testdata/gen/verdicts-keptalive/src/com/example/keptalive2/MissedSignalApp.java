package com.example.keptalive2;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A hand-off of its own (not a pool, latch or barrier) whose waiter waits after the signal was
 * sent (issue 33, "a condition wait after a missed signal"):
 *
 * <ul>
 *   <li>stuck: "result-waiter" waits on a monitor with Object.wait() with no condition checked,
 *       after "result-sender" already called notifyAll() and ended; "reply-waiter" awaits a
 *       Condition after "reply-sender" already signalled it and ended. main joins both waiters.
 *   <li>healthy: the same two hand-offs with senders that live on and signal every 2 s (and
 *       waiters that go back to wait): the waiters are in the same untimed wait at each dump,
 *       but their senders run the same class's code between signals.
 * </ul>
 */
public final class MissedSignalApp {
    static final Object resultLock = new Object();
    static final ReentrantLock replyLock = new ReentrantLock();
    static final Condition replied = replyLock.newCondition();
    static volatile long received;

    static void awaitResult() throws InterruptedException {
        synchronized (resultLock) {
            resultLock.wait(); // the bug: no condition is checked, a notify before this is lost
        }
        received++;
    }

    static void sendResult() {
        synchronized (resultLock) {
            resultLock.notifyAll();
        }
    }

    static void awaitReply() throws InterruptedException {
        replyLock.lock();
        try {
            replied.await(); // the same bug with a Condition
        } finally {
            replyLock.unlock();
        }
        received++;
    }

    static void sendReply() {
        replyLock.lock();
        try {
            replied.signalAll();
        } finally {
            replyLock.unlock();
        }
    }

    public static void main(String[] args) throws Exception {
        boolean healthy = args[0].equals("healthy");
        Thread resultWaiter = new Thread(() -> {
            try {
                do awaitResult(); while (healthy);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "result-waiter");
        Thread replyWaiter = new Thread(() -> {
            try {
                do awaitReply(); while (healthy);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "reply-waiter");
        Thread resultSender = new Thread(() -> {
            try {
                do {
                    sendResult();
                    if (healthy) Thread.sleep(2000);
                } while (healthy);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "result-sender");
        Thread replySender = new Thread(() -> {
            try {
                do {
                    sendReply();
                    if (healthy) Thread.sleep(2000);
                } while (healthy);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "reply-sender");
        if (!healthy) {
            // The senders run first and end: their signals reach nobody.
            resultSender.start();
            replySender.start();
            resultSender.join();
            replySender.join();
        }
        resultWaiter.start();
        replyWaiter.start();
        if (healthy) {
            Thread.sleep(100);
            resultSender.start();
            replySender.start();
        }
        System.out.println("ready");
        resultWaiter.join();
        replyWaiter.join();
    }
}
