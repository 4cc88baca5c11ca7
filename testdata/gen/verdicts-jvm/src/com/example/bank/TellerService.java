package com.example.bank;

/** Counter deposits: each teller locks the account it pays into. */
final class TellerService {
    private final boolean useLocks;

    TellerService(boolean useLocks) {
        this.useLocks = useLocks;
    }

    void deposit(Account account, long cents) {
        if (useLocks) {
            depositWithLock(account, cents);
        } else {
            depositSynchronized(account, cents);
        }
    }

    private void depositSynchronized(Account account, long cents) {
        synchronized (account) {
            account.credit(cents);
        }
    }

    private void depositWithLock(Account account, long cents) {
        account.lock.lock();
        try {
            account.credit(cents);
        } finally {
            account.lock.unlock();
        }
    }
}
