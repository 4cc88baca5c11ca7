package com.example.twosided;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Two-sided waits (issue 33, "the holder first ... two-sided waits tied"): a thread waiting on X
 * while X's holder waits on a condition that the first thread must signal; producers and
 * consumers of one buffer both parked.
 *
 * <p>stuck:
 * <ul>
 *   <li>Nested monitor lock-out: {@code session-keeper} enters the {@code SessionTable} monitor,
 *       then waits on the table's {@code refreshed} signal (Object.wait releases only the signal's
 *       monitor, not the table's). {@code session-refresher}, the one thread that notifies that
 *       signal, must first enter the table: BLOCKED. {@code lookup-1..4} BLOCKED on the table.
 *   <li>The same with java.util.concurrent: {@code ledger-closer} holds the ledger's
 *       ReentrantLock and awaits a Condition of the journal's lock; {@code journal-writer}, which
 *       would signal it, first takes the ledger's lock: parked behind it; {@code poster-1..3}
 *       parked on the ledger's lock.
 *   <li>A lost wake-up: a bounded buffer of 2 guarded by wait/notify that notifies one waiter
 *       with {@code notify()}: producers {@code feed-1..3} and consumers {@code drain-1..3} end
 *       all waiting on the buffer's monitor, producers for room, consumers for items.
 * </ul>
 *
 * <p>healthy: the keeper waits with a timeout and the refresher notifies without the table;
 * the closer awaits with a timeout; the buffer notifies all.
 */
public final class TwoSidedApp {
    public static void main(String[] args) throws Exception {
        boolean stuck = args.length > 0 && args[0].equals("stuck");
        SessionTable table = new SessionTable(stuck);
        start("session-keeper", table::keep);
        Thread.sleep(200);
        start("session-refresher", table::refreshLoop);
        for (int i = 1; i <= 4; i++) {
            start("lookup-" + i, table::lookupLoop);
        }
        Ledger ledger = new Ledger(stuck);
        start("ledger-closer", ledger::close);
        Thread.sleep(200);
        start("journal-writer", ledger::journalLoop);
        for (int i = 1; i <= 3; i++) {
            start("poster-" + i, ledger::postLoop);
        }
        Buffer buffer = new Buffer(2, stuck);
        for (int i = 1; i <= 3; i++) {
            start("drain-" + i, buffer::drainLoop);
        }
        for (int i = 1; i <= 3; i++) {
            start("feed-" + i, buffer::feedLoop);
        }
        Thread.sleep(3000);
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }

    static void start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

final class SessionTable {
    private final Object refreshed = new Object();
    private final boolean stuck;
    private long version;

    SessionTable(boolean stuck) {
        this.stuck = stuck;
    }

    void keep() {
        while (true) {
            if (stuck) {
                synchronized (this) {
                    awaitRefresh(0);
                }
            } else {
                awaitRefresh(100);
                synchronized (this) {
                    version++;
                }
            }
        }
    }

    private void awaitRefresh(long ms) {
        synchronized (refreshed) {
            try {
                refreshed.wait(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    void refreshLoop() {
        while (true) {
            if (stuck) {
                synchronized (this) {
                    signal();
                }
            } else {
                signal();
            }
            TwoSidedApp.pause(50);
        }
    }

    private void signal() {
        synchronized (refreshed) {
            refreshed.notifyAll();
        }
    }

    void lookupLoop() {
        while (true) {
            lookup();
            TwoSidedApp.pause(20);
        }
    }

    private synchronized long lookup() {
        return version;
    }
}

final class Ledger {
    private final ReentrantLock ledgerLock = new ReentrantLock();
    private final ReentrantLock journalLock = new ReentrantLock();
    private final Condition journaled = journalLock.newCondition();
    private final boolean stuck;

    Ledger(boolean stuck) {
        this.stuck = stuck;
    }

    void close() {
        while (true) {
            ledgerLock.lock();
            try {
                awaitJournal();
            } finally {
                ledgerLock.unlock();
            }
            TwoSidedApp.pause(30);
        }
    }

    private void awaitJournal() {
        journalLock.lock();
        try {
            if (stuck) {
                journaled.awaitUninterruptibly();
            } else {
                journaled.await(20, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            journalLock.unlock();
        }
    }

    void journalLoop() {
        while (true) {
            if (stuck) {
                ledgerLock.lock();
                try {
                    signalJournal();
                } finally {
                    ledgerLock.unlock();
                }
            } else {
                signalJournal();
            }
            TwoSidedApp.pause(40);
        }
    }

    private void signalJournal() {
        journalLock.lock();
        try {
            journaled.signalAll();
        } finally {
            journalLock.unlock();
        }
    }

    void postLoop() {
        while (true) {
            ledgerLock.lock();
            try {
                TwoSidedApp.pause(1);
            } finally {
                ledgerLock.unlock();
            }
            TwoSidedApp.pause(20);
        }
    }
}

final class Buffer {
    private final ArrayDeque<Integer> items = new ArrayDeque<>();
    private final int capacity;
    private final boolean stuck;

    Buffer(int capacity, boolean stuck) {
        this.capacity = capacity;
        this.stuck = stuck;
    }

    synchronized void put(int v) throws InterruptedException {
        while (items.size() == capacity) {
            wait();
        }
        items.add(v);
        wake();
    }

    synchronized int take() throws InterruptedException {
        while (items.isEmpty()) {
            wait();
        }
        int v = items.remove();
        wake();
        return v;
    }

    private void wake() {
        if (stuck) {
            notify(); // one waiter, maybe of the same side: the other side may never wake
        } else {
            notifyAll();
        }
    }

    void feedLoop() {
        try {
            for (int i = 0; ; i++) {
                put(i);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void drainLoop() {
        try {
            while (true) {
                take();
                if (!stuck) {
                    TwoSidedApp.pause(5);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
