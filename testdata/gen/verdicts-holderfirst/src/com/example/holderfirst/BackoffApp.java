package com.example.holderfirst;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Two movers that each need two accounts' locks and back off politely.
 *
 * stuck:   mover-1 holds account A's lock and retries B's with tryLock,
 *          sleeping 1 ms after each failure (Thread.sleep); mover-2 holds B
 *          and retries A the same way, backing off with
 *          LockSupport.parkNanos(1 ms). Neither lets go of what it holds:
 *          both retry forever, little CPU burnt.
 * healthy: both movers take the two locks with tryLock and the same
 *          back-off, but let go of the first when the second fails and
 *          always ask in one order (A then B): the retries succeed and
 *          transfers are made (a counter printed every second grows).
 *
 * args: mode [self-dump dir].
 */
public final class BackoffApp {
    static final ReentrantLock accountA = new ReentrantLock();
    static final ReentrantLock accountB = new ReentrantLock();
    static volatile long transfers;

    static void backOff(boolean park) throws InterruptedException {
        if (park) {
            LockSupport.parkNanos(1_000_000L);
        } else {
            Thread.sleep(1);
        }
    }

    /** stuck: holds from, retries to until it gets it (never). */
    static void transferHolding(ReentrantLock from, ReentrantLock to, boolean park) throws InterruptedException {
        from.lock();
        try {
            Thread.sleep(100); // the other mover takes its own first lock
            while (!to.tryLock()) {
                backOff(park);
            }
            try {
                transfers++;
            } finally {
                to.unlock();
            }
        } finally {
            from.unlock();
        }
    }

    /** healthy: both or neither, in one order, retried after a back-off. */
    static void transferPolite(boolean park) throws InterruptedException {
        while (true) {
            if (accountA.tryLock(1, TimeUnit.MILLISECONDS)) {
                try {
                    if (accountB.tryLock()) {
                        try {
                            transfers++;
                            JucCycleApp.work(1);
                            return;
                        } finally {
                            accountB.unlock();
                        }
                    }
                } finally {
                    accountA.unlock();
                }
            }
            backOff(park);
        }
    }

    public static void main(String[] args) throws Exception {
        boolean stuck = args[0].equals("stuck");
        SelfDumper.start(args.length > 1 ? args[1] : null);
        Thread m1 = new Thread(() -> {
            try {
                while (true) {
                    if (stuck) {
                        transferHolding(accountA, accountB, false);
                    } else {
                        transferPolite(false);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "mover-1");
        Thread m2 = new Thread(() -> {
            try {
                while (true) {
                    if (stuck) {
                        transferHolding(accountB, accountA, true);
                    } else {
                        transferPolite(true);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "mover-2");
        m1.start();
        m2.start();
        Thread reporter = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
                System.out.println("transfers " + transfers);
            }
        }, "reporter");
        reporter.setDaemon(true);
        reporter.start();
        Thread.sleep(500);
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }
}
