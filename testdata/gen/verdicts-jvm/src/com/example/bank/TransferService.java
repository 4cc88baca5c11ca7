package com.example.bank;

import java.util.concurrent.CountDownLatch;

/**
 * Moves money between two accounts, locking the source account first, then the target:
 * two opposite transfers at the same time lock in opposite orders (the classic lock-order
 * deadlock). firstLockHeld makes both transfers hold their first account before either
 * asks for its second, so the deadlock happens every run.
 */
final class TransferService {
    private final boolean useLocks;
    private final CountDownLatch bothHoldFirst;

    TransferService(boolean useLocks, CountDownLatch bothHoldFirst) {
        this.useLocks = useLocks;
        this.bothHoldFirst = bothHoldFirst;
    }

    void transfer(Account from, Account to, long cents) throws InterruptedException {
        if (useLocks) {
            transferWithLocks(from, to, cents);
        } else {
            transferSynchronized(from, to, cents);
        }
    }

    private void transferSynchronized(Account from, Account to, long cents) throws InterruptedException {
        synchronized (from) {
            firstLockHeld();
            synchronized (to) {
                from.debit(cents);
                to.credit(cents);
            }
        }
    }

    private void transferWithLocks(Account from, Account to, long cents) throws InterruptedException {
        from.lock.lock();
        try {
            firstLockHeld();
            to.lock.lock();
            try {
                from.debit(cents);
                to.credit(cents);
            } finally {
                to.lock.unlock();
            }
        } finally {
            from.lock.unlock();
        }
    }

    private void firstLockHeld() throws InterruptedException {
        bothHoldFirst.countDown();
        bothHoldFirst.await();
    }
}
